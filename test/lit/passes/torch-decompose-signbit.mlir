// RUN: opt-py %s --split-input-file -p torch-decompose-signbit | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-signbit --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// signbit of f32: the bits viewed as si32 (dtype code 3), < 0.
// CHECK-LABEL: func.func @signbit_f32
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[1,?],f32>)
// CHECK: %[[BITS:.+]] = torch.aten.view.dtype %[[X]], %int3{{(_[0-9]+)?}} : !torch.vtensor<[1,?],f32>, !torch.int -> !torch.vtensor<[1,?],si32>
// CHECK: %[[NEG:.+]] = torch.aten.lt.Scalar %[[BITS]], %int0{{(_[0-9]+)?}} : !torch.vtensor<[1,?],si32>, !torch.int -> !torch.vtensor<[1,?],i1>
// CHECK-NOT: torch.aten.signbit
// CHECK: return %[[NEG]]
func.func @signbit_f32(%x: !torch.vtensor<[1,?],f32>) -> !torch.vtensor<[1,?],i1> {
  %r = torch.aten.signbit %x : !torch.vtensor<[1,?],f32> -> !torch.vtensor<[1,?],i1>
  return %r : !torch.vtensor<[1,?],i1>
}

// -----

// f16 and bf16 read as si16 (code 2), f64 as si64 (code 4).
// CHECK-LABEL: func.func @signbit_other_widths
// CHECK: torch.aten.view.dtype %{{.+}}, %int2{{(_[0-9]+)?}} : !torch.vtensor<[4],f16>, !torch.int -> !torch.vtensor<[4],si16>
// CHECK: torch.aten.view.dtype %{{.+}}, %int2{{(_[0-9]+)?}} : !torch.vtensor<[4],bf16>, !torch.int -> !torch.vtensor<[4],si16>
// CHECK: torch.aten.view.dtype %{{.+}}, %int4{{(_[0-9]+)?}} : !torch.vtensor<[4],f64>, !torch.int -> !torch.vtensor<[4],si64>
func.func @signbit_other_widths(%h: !torch.vtensor<[4],f16>, %b: !torch.vtensor<[4],bf16>, %d: !torch.vtensor<[4],f64>) -> (!torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>) {
  %0 = torch.aten.signbit %h : !torch.vtensor<[4],f16> -> !torch.vtensor<[4],i1>
  %1 = torch.aten.signbit %b : !torch.vtensor<[4],bf16> -> !torch.vtensor<[4],i1>
  %2 = torch.aten.signbit %d : !torch.vtensor<[4],f64> -> !torch.vtensor<[4],i1>
  return %0, %1, %2 : !torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>
}

// -----

// copysign(a, b): abs(a), negated where b's sign bit is set, broadcasting as where.self does.
// CHECK-LABEL: func.func @copysign_broadcast
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[1,1],f32>, %[[B:.+]]: !torch.vtensor<[1,6],f32>)
// CHECK: %[[BITS:.+]] = torch.aten.view.dtype %[[B]], %int3{{(_[0-9]+)?}} :
// CHECK: %[[NEG:.+]] = torch.aten.lt.Scalar %[[BITS]], %int0{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,6],i1>
// CHECK: %[[ABS:.+]] = torch.aten.abs %[[A]] : !torch.vtensor<[1,1],f32> -> !torch.vtensor<[1,1],f32>
// CHECK: %[[MINUS:.+]] = torch.aten.neg %[[ABS]] :
// CHECK: %[[R:.+]] = torch.aten.where.self %[[NEG]], %[[MINUS]], %[[ABS]] : {{.*}} -> !torch.vtensor<[1,6],f32>
// CHECK-NOT: torch.aten.copysign
// CHECK: return %[[R]]
func.func @copysign_broadcast(%a: !torch.vtensor<[1,1],f32>, %b: !torch.vtensor<[1,6],f32>) -> !torch.vtensor<[1,6],f32> {
  %r = torch.aten.copysign.Tensor %a, %b : !torch.vtensor<[1,1],f32>, !torch.vtensor<[1,6],f32> -> !torch.vtensor<[1,6],f32>
  return %r : !torch.vtensor<[1,6],f32>
}

// -----

// Negative: an integer input (torch-mlir's own decomposition, a comparison, lowers).
// WHY: decompose_signbit: no match on 'torch.aten.signbit' at {{.*}}: a si32 input: not f16, bf16, f32 nor f64
// CHECK-LABEL: func.func @no_integer_input
// CHECK: torch.aten.signbit
func.func @no_integer_input(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],i1> {
  %r = torch.aten.signbit %x : !torch.vtensor<[4],si32> -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// Negative: a 0-d input (IREE's bitcast of view.dtype reads a last dim).
// WHY: decompose_signbit: no match on 'torch.aten.signbit' at {{.*}}: a 0-d operand or result (IREE's bitcast of view.dtype reads a last dim)
// CHECK-LABEL: func.func @no_zero_d
// CHECK: torch.aten.signbit
func.func @no_zero_d(%x: !torch.vtensor<[],f32>) -> !torch.vtensor<[],i1> {
  %r = torch.aten.signbit %x : !torch.vtensor<[],f32> -> !torch.vtensor<[],i1>
  return %r : !torch.vtensor<[],i1>
}

// -----

// Negative: an unranked input.
// WHY: decompose_signbit: no match on 'torch.aten.signbit' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.signbit
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[4],i1> {
  %r = torch.aten.signbit %x : !torch.vtensor -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// Negative: a result that is not bool.
// WHY: decompose_signbit: no match on 'torch.aten.signbit' at {{.*}}: a si32 result: torch's signbit is bool
// CHECK-LABEL: func.func @no_non_bool_result
// CHECK: torch.aten.signbit
func.func @no_non_bool_result(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.signbit %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// Negative: copysign of an integer and a float (torch promotes; left to torch-mlir).
// WHY: decompose_copysign: no match on 'torch.aten.copysign.Tensor' at {{.*}}: operands si64 and f32 to f32: not one float dtype
// CHECK-LABEL: func.func @no_copysign_mixed
// CHECK: torch.aten.copysign.Tensor
func.func @no_copysign_mixed(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.copysign.Tensor %a, %b : !torch.vtensor<[4],si64>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}
