// RUN: opt-py %s --split-input-file -p torch-xor-to-bitwise-xor | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-xor-to-bitwise-xor --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// The fuzz campaign's reproducer: two bool tensors of one dtype, the operands as they are.
// CHECK-LABEL: func.func @bool_masks
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[2,8],i1>, %[[B:.+]]: !torch.vtensor<[2,8],i1>)
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: %[[R:.+]] = torch.aten.bitwise_xor.Tensor %[[A]], %[[B]] : !torch.vtensor<[2,8],i1>, !torch.vtensor<[2,8],i1> -> !torch.vtensor<[2,8],i1>
// CHECK-NOT: torch.operator
// CHECK: return %[[R]]
func.func @bool_masks(%a: !torch.vtensor<[2,8],i1>, %b: !torch.vtensor<[2,8],i1>) -> !torch.vtensor<[2,8],i1> {
  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b) : (!torch.vtensor<[2,8],i1>, !torch.vtensor<[2,8],i1>) -> !torch.vtensor<[2,8],i1>
  return %r : !torch.vtensor<[2,8],i1>
}

// -----

// Broadcasting, one dim dynamic: the shapes as they are.
// CHECK-LABEL: func.func @broadcast_dynamic
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[?,3],i1>, %[[B:.+]]: !torch.vtensor<[3],i1>)
// CHECK: %[[R:.+]] = torch.aten.bitwise_xor.Tensor %[[A]], %[[B]] : !torch.vtensor<[?,3],i1>, !torch.vtensor<[3],i1> -> !torch.vtensor<[?,3],i1>
// CHECK: return %[[R]]
func.func @broadcast_dynamic(%a: !torch.vtensor<[?,3],i1>, %b: !torch.vtensor<[3],i1>) -> !torch.vtensor<[?,3],i1> {
  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b) : (!torch.vtensor<[?,3],i1>, !torch.vtensor<[3],i1>) -> !torch.vtensor<[?,3],i1>
  return %r : !torch.vtensor<[?,3],i1>
}

// -----

// ui8 ^ si32 computes in si32: the ui8 operand converted first (code 3, zero-extended as torch does).
// CHECK-LABEL: func.func @unsigned_byte_xor_int
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[3],ui8>, %[[B:.+]]: !torch.vtensor<[3],si32>)
// CHECK: %[[AC:.+]] = torch.prims.convert_element_type %[[A]], %int3{{(_[0-9]+)?}} : !torch.vtensor<[3],ui8>, !torch.int -> !torch.vtensor<[3],si32>
// CHECK: %[[R:.+]] = torch.aten.bitwise_xor.Tensor %[[AC]], %[[B]] : !torch.vtensor<[3],si32>, !torch.vtensor<[3],si32> -> !torch.vtensor<[3],si32>
// CHECK: return %[[R]]
func.func @unsigned_byte_xor_int(%a: !torch.vtensor<[3],ui8>, %b: !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32> {
  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b) : (!torch.vtensor<[3],ui8>, !torch.vtensor<[3],si32>) -> !torch.vtensor<[3],si32>
  return %r : !torch.vtensor<[3],si32>
}

// -----

// Negative: another torch.operator.
// WHY: xor_to_bitwise_xor: no match on 'torch.operator' at {{.*}}: not torch.aten.__xor__.Tensor
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.aten.__xor__.Scalar"
func.func @no_other_operator(%a: !torch.vtensor<[4],si32>, %b: !torch.int) -> !torch.vtensor<[4],si32> {
  %r = torch.operator "torch.aten.__xor__.Scalar"(%a, %b) : (!torch.vtensor<[4],si32>, !torch.int) -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// Negative: not two operands (not the Tensor overload's signature).
// WHY: xor_to_bitwise_xor: no match on 'torch.operator' at {{.*}}: not (tensor, tensor) -> tensor
// CHECK-LABEL: func.func @no_three_operands
// CHECK: torch.operator "torch.aten.__xor__.Tensor"
func.func @no_three_operands(%a: !torch.vtensor<[4],i1>, %b: !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],i1> {
  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b, %b) : (!torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// Negative: a float result (torch raises for ^ on floats).
// WHY: xor_to_bitwise_xor: no match on 'torch.operator' at {{.*}}: a f32 result: not bool nor an integer of the promotion table (torch_ir)
// CHECK-LABEL: func.func @no_float_result
// CHECK: torch.operator "torch.aten.__xor__.Tensor"
func.func @no_float_result(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b) : (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked operand (its dtype is unknown).
// WHY: xor_to_bitwise_xor: no match on 'torch.operator' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_operand
// CHECK: torch.operator "torch.aten.__xor__.Tensor"
func.func @no_unranked_operand(%a: !torch.vtensor, %b: !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],i1> {
  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b) : (!torch.vtensor, !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// Negative: si32 ^ si64 typed si32, where torch computes in si64.
// WHY: xor_to_bitwise_xor: no match on 'torch.operator' at {{.*}}: the result's dtype si32 is not torch's promotion of si32 and si64
// CHECK-LABEL: func.func @no_result_not_promotion
// CHECK: torch.operator "torch.aten.__xor__.Tensor"
func.func @no_result_not_promotion(%a: !torch.vtensor<[4],si32>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si32> {
  %r = torch.operator "torch.aten.__xor__.Tensor"(%a, %b) : (!torch.vtensor<[4],si32>, !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}
