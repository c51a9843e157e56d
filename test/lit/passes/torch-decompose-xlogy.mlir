// RUN: opt-py %s --split-input-file -p torch-decompose-xlogy | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-xlogy --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// f32 operands broadcasting [3,1] with [1,5]: x * log(y), 0 where x == 0, y where y is NaN.
// CHECK-LABEL: func.func @xlogy_broadcast
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[3,1],f32>, %[[Y:.+]]: !torch.vtensor<[1,5],f32>)
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: %[[LOG:.+]] = torch.aten.log %[[Y]] : !torch.vtensor<[1,5],f32> -> !torch.vtensor<[1,5],f32>
// CHECK: %[[MUL:.+]] = torch.aten.mul.Tensor %[[X]], %[[LOG]] : {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: %[[ZERO:.+]] = torch.constant.float 0.000000e+00
// CHECK: %[[XZ:.+]] = torch.aten.eq.Scalar %[[X]], %[[ZERO]] : {{.*}} -> !torch.vtensor<[3,1],i1>
// CHECK: %[[W:.+]] = torch.aten.where.ScalarSelf %[[XZ]], %[[ZERO]], %[[MUL]] : {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: %[[YN:.+]] = torch.aten.isnan %[[Y]] : {{.*}} -> !torch.vtensor<[1,5],i1>
// CHECK: %[[R:.+]] = torch.aten.where.self %[[YN]], %[[Y]], %[[W]] : {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK-NOT: torch.aten.xlogy.Tensor
// CHECK: return %[[R]]
func.func @xlogy_broadcast(%x: !torch.vtensor<[3,1],f32>, %y: !torch.vtensor<[1,5],f32>) -> !torch.vtensor<[3,5],f32> {
  %r = torch.aten.xlogy.Tensor %x, %y : !torch.vtensor<[3,1],f32>, !torch.vtensor<[1,5],f32> -> !torch.vtensor<[3,5],f32>
  return %r : !torch.vtensor<[3,5],f32>
}

// -----

// si64 operands give f32 (the default dtype): both converted first (code 6).
// CHECK-LABEL: func.func @xlogy_int
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?],si64>, %[[Y:.+]]: !torch.vtensor<[?],si64>)
// CHECK: %[[XF:.+]] = torch.prims.convert_element_type %[[X]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: %[[YF:.+]] = torch.prims.convert_element_type %[[Y]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: torch.aten.log %[[YF]]
// CHECK: %[[R:.+]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: return %[[R]]
func.func @xlogy_int(%x: !torch.vtensor<[?],si64>, %y: !torch.vtensor<[?],si64>) -> !torch.vtensor<[?],f32> {
  %r = torch.aten.xlogy.Tensor %x, %y : !torch.vtensor<[?],si64>, !torch.vtensor<[?],si64> -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// bf16 computes in f32 and rounds once at the end (code 15); a 0-d f32 y does not promote a bf16 x.
// CHECK-LABEL: func.func @xlogy_bf16
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4],bf16>, %[[Y:.+]]: !torch.vtensor<[],f32>)
// CHECK: %[[XF:.+]] = torch.prims.convert_element_type %[[X]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],f32>
// CHECK: %[[W:.+]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[4],f32>
// CHECK: %[[R:.+]] = torch.prims.convert_element_type %[[W]], %int15{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],bf16>
// CHECK: return %[[R]]
func.func @xlogy_bf16(%x: !torch.vtensor<[4],bf16>, %y: !torch.vtensor<[],f32>) -> !torch.vtensor<[4],bf16> {
  %r = torch.aten.xlogy.Tensor %x, %y : !torch.vtensor<[4],bf16>, !torch.vtensor<[],f32> -> !torch.vtensor<[4],bf16>
  return %r : !torch.vtensor<[4],bf16>
}

// -----

// Negative: a result dtype that is not torch's promotion (f32 and f64 give f64).
// WHY: decompose_xlogy: no match on 'torch.aten.xlogy.Tensor' at {{.*}}: the result's dtype f32 is not torch's f64 for f32 and f64
// CHECK-LABEL: func.func @no_result_not_promotion
// CHECK: torch.aten.xlogy.Tensor
func.func @no_result_not_promotion(%x: !torch.vtensor<[4],f32>, %y: !torch.vtensor<[4],f64>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.xlogy.Tensor %x, %y : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f64> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a dtype outside the promotion table.
// WHY: decompose_xlogy: no match on 'torch.aten.xlogy.Tensor' at {{.*}}: operands ui16 and f32: a dtype outside the promotion table (torch_ir)
// CHECK-LABEL: func.func @no_dtype_outside_table
// CHECK: torch.aten.xlogy.Tensor
func.func @no_dtype_outside_table(%x: !torch.vtensor<[4],ui16>, %y: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.xlogy.Tensor %x, %y : !torch.vtensor<[4],ui16>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked operand.
// WHY: decompose_xlogy: no match on 'torch.aten.xlogy.Tensor' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.xlogy.Tensor
func.func @no_unranked(%x: !torch.vtensor, %y: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.xlogy.Tensor %x, %y : !torch.vtensor, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}
