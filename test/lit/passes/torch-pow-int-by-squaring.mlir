// RUN: opt-py %s --split-input-file -p torch-pow-int-by-squaring | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-pow-int-by-squaring --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// si8: bits 0..6 by bitwise_and, the sign bit by b < 0; a * a squared per bit; 0 where b < 0 and a is not +-1.
// CHECK-LABEL: func.func @pow_si8
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[4],si8>, %[[B:.+]]: !torch.vtensor<[4],si8>)
// CHECK: %[[M0:.+]] = torch.aten.bitwise_and.Scalar %[[B]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],si8>
// CHECK: %[[B0:.+]] = torch.aten.ne.Scalar %[[M0]], %int0{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: torch.aten.bitwise_and.Scalar %[[B]], %int64{{(_[0-9]+)?}}
// CHECK: %[[NEG:.+]] = torch.aten.lt.Scalar %[[B]], %int0{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[V0:.+]] = torch.aten.where.ScalarOther %[[B0]], %[[A]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],si8>
// CHECK: %[[SQ:.+]] = torch.aten.mul.Tensor %[[A]], %[[A]] : {{.*}} -> !torch.vtensor<[4],si8>
// CHECK: %[[P:.+]] = torch.aten.mul.Tensor %[[V0]], %[[SQ]]
// CHECK: torch.aten.where.self %{{.+}}, %[[P]], %[[V0]]
// CHECK-COUNT-6: torch.aten.where.self
// CHECK: %[[N1:.+]] = torch.aten.ne.Scalar %[[A]], %int1
// CHECK: %[[NM1:.+]] = torch.aten.ne.Scalar %[[A]], %int-1
// CHECK: %[[OTHER:.+]] = torch.aten.logical_and %[[N1]], %[[NM1]]
// CHECK: %[[Z:.+]] = torch.aten.logical_and %[[NEG]], %[[OTHER]]
// CHECK: %[[R:.+]] = torch.aten.where.ScalarSelf %[[Z]], %int0{{(_[0-9]+)?}}, %{{.+}} : {{.*}} -> !torch.vtensor<[4],si8>
// CHECK-NOT: torch.aten.pow.Tensor_Tensor
// CHECK: return %[[R]]
func.func @pow_si8(%a: !torch.vtensor<[4],si8>, %b: !torch.vtensor<[4],si8>) -> !torch.vtensor<[4],si8> {
  %r = torch.aten.pow.Tensor_Tensor %a, %b : !torch.vtensor<[4],si8>, !torch.vtensor<[4],si8> -> !torch.vtensor<[4],si8>
  return %r : !torch.vtensor<[4],si8>
}

// -----

// si64, dynamic and broadcast: 63 bits tested by bitwise_and, then the sign bit.
// CHECK-LABEL: func.func @pow_si64_broadcast
// CHECK-COUNT-63: torch.aten.bitwise_and.Scalar
// CHECK: torch.aten.lt.Scalar
// CHECK: torch.aten.where.ScalarOther {{.*}} -> !torch.vtensor<[?,?],si64>
// CHECK: %[[R:.+]] = torch.aten.where.ScalarSelf {{.*}} -> !torch.vtensor<[?,?],si64>
// CHECK-NOT: torch.aten.pow.Tensor_Tensor
// CHECK: return %[[R]]
func.func @pow_si64_broadcast(%a: !torch.vtensor<[?,1],si64>, %b: !torch.vtensor<[1,?],si64>) -> !torch.vtensor<[?,?],si64> {
  %r = torch.aten.pow.Tensor_Tensor %a, %b : !torch.vtensor<[?,1],si64>, !torch.vtensor<[1,?],si64> -> !torch.vtensor<[?,?],si64>
  return %r : !torch.vtensor<[?,?],si64>
}

// -----

// Negative: floats lower already.
// WHY: pow_int_by_squaring: no match on 'torch.aten.pow.Tensor_Tensor' at {{.*}}: dtypes f32, f32 -> f32: not one signed integer dtype
// CHECK-LABEL: func.func @no_float
// CHECK: torch.aten.pow.Tensor_Tensor
func.func @no_float(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.pow.Tensor_Tensor %a, %b : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: mixed integer dtypes (torch promotes first).
// WHY: pow_int_by_squaring: no match on 'torch.aten.pow.Tensor_Tensor' at {{.*}}: dtypes si32, si64 -> si64: not one signed integer dtype
// CHECK-LABEL: func.func @no_mixed
// CHECK: torch.aten.pow.Tensor_Tensor
func.func @no_mixed(%a: !torch.vtensor<[4],si32>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %r = torch.aten.pow.Tensor_Tensor %a, %b : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// Negative: ui8 (unsigned) is not handled.
// WHY: pow_int_by_squaring: no match on 'torch.aten.pow.Tensor_Tensor' at {{.*}}: dtypes ui8, ui8 -> ui8: not one signed integer dtype
// CHECK-LABEL: func.func @no_unsigned
// CHECK: torch.aten.pow.Tensor_Tensor
func.func @no_unsigned(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],ui8>) -> !torch.vtensor<[4],ui8> {
  %r = torch.aten.pow.Tensor_Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  return %r : !torch.vtensor<[4],ui8>
}

// -----

// Negative: an unranked operand.
// WHY: pow_int_by_squaring: no match on 'torch.aten.pow.Tensor_Tensor' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.pow.Tensor_Tensor
func.func @no_unranked(%a: !torch.vtensor<*,si32>, %b: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.pow.Tensor_Tensor %a, %b : !torch.vtensor<*,si32>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}
