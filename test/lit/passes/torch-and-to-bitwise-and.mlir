// RUN: opt-py %s --split-input-file -p torch-and-to-bitwise-and | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-and-to-bitwise-and --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// The decoders' masks: two bool tensors of one dtype, the operands as they are.
// CHECK-LABEL: func.func @bool_masks
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[2,1,?,?],i1>, %[[B:.+]]: !torch.vtensor<[2,1,?,?],i1>)
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: %[[R:.+]] = torch.aten.bitwise_and.Tensor %[[A]], %[[B]] : !torch.vtensor<[2,1,?,?],i1>, !torch.vtensor<[2,1,?,?],i1> -> !torch.vtensor<[2,1,?,?],i1>
// CHECK-NOT: torch.aten.__and__.Tensor
// CHECK: return %[[R]]
func.func @bool_masks(%a: !torch.vtensor<[2,1,?,?],i1>, %b: !torch.vtensor<[2,1,?,?],i1>) -> !torch.vtensor<[2,1,?,?],i1> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[2,1,?,?],i1>, !torch.vtensor<[2,1,?,?],i1> -> !torch.vtensor<[2,1,?,?],i1>
  return %r : !torch.vtensor<[2,1,?,?],i1>
}

// -----

// Broadcasting with a 0-d bool (new_ones((), dtype=torch.bool) in transformers): the shapes as they are.
// CHECK-LABEL: func.func @broadcast_zero_d
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[],i1>, %[[B:.+]]: !torch.vtensor<[?,4],i1>)
// CHECK: %[[R:.+]] = torch.aten.bitwise_and.Tensor %[[A]], %[[B]] : !torch.vtensor<[],i1>, !torch.vtensor<[?,4],i1> -> !torch.vtensor<[?,4],i1>
// CHECK: return %[[R]]
func.func @broadcast_zero_d(%a: !torch.vtensor<[],i1>, %b: !torch.vtensor<[?,4],i1>) -> !torch.vtensor<[?,4],i1> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[],i1>, !torch.vtensor<[?,4],i1> -> !torch.vtensor<[?,4],i1>
  return %r : !torch.vtensor<[?,4],i1>
}

// -----

// ui8 & si32 computes in si32: the ui8 operand converted first (code 3, zero-extended as torch does;
// torch-mlir's bitwise_and would sign-extend it).
// CHECK-LABEL: func.func @unsigned_byte_and_int
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[4],ui8>, %[[B:.+]]: !torch.vtensor<[4],si32>)
// CHECK: %[[AC:.+]] = torch.prims.convert_element_type %[[A]], %int3{{(_[0-9]+)?}} : !torch.vtensor<[4],ui8>, !torch.int -> !torch.vtensor<[4],si32>
// CHECK: %[[R:.+]] = torch.aten.bitwise_and.Tensor %[[AC]], %[[B]] : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
// CHECK: return %[[R]]
func.func @unsigned_byte_and_int(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// bool & si8 computes in si8: the bool operand converted first (code 1).
// CHECK-LABEL: func.func @bool_and_byte
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[4],si8>, %[[B:.+]]: !torch.vtensor<[4],i1>)
// CHECK: %[[BC:.+]] = torch.prims.convert_element_type %[[B]], %int1{{(_[0-9]+)?}} : !torch.vtensor<[4],i1>, !torch.int -> !torch.vtensor<[4],si8>
// CHECK: %[[R:.+]] = torch.aten.bitwise_and.Tensor %[[A]], %[[BC]] :
// CHECK: return %[[R]]
func.func @bool_and_byte(%a: !torch.vtensor<[4],si8>, %b: !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],si8> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[4],si8>, !torch.vtensor<[4],i1> -> !torch.vtensor<[4],si8>
  return %r : !torch.vtensor<[4],si8>
}

// -----

// si32 tensor & 0-d si64 computes in si32 (a 0-d operand of the same category does not promote):
// the 0-d operand is converted to si32.
// CHECK-LABEL: func.func @zero_d_of_a_wider_int
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[3],si32>, %[[B:.+]]: !torch.vtensor<[],si64>)
// CHECK: %[[BC:.+]] = torch.prims.convert_element_type %[[B]], %int3{{(_[0-9]+)?}} : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],si32>
// CHECK: %[[R:.+]] = torch.aten.bitwise_and.Tensor %[[A]], %[[BC]] : !torch.vtensor<[3],si32>, !torch.vtensor<[],si32> -> !torch.vtensor<[3],si32>
// CHECK: return %[[R]]
func.func @zero_d_of_a_wider_int(%a: !torch.vtensor<[3],si32>, %b: !torch.vtensor<[],si64>) -> !torch.vtensor<[3],si32> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[3],si32>, !torch.vtensor<[],si64> -> !torch.vtensor<[3],si32>
  return %r : !torch.vtensor<[3],si32>
}

// -----

// Negative: a float result (torch raises for & on floats).
// WHY: and_to_bitwise_and: no match on 'torch.aten.__and__.Tensor' at {{.*}}: a f32 result: not bool nor an integer of the promotion table (torch_ir)
// CHECK-LABEL: func.func @no_float_result
// CHECK: torch.aten.__and__.Tensor
func.func @no_float_result(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked operand (its dtype is unknown).
// WHY: and_to_bitwise_and: no match on 'torch.aten.__and__.Tensor' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_operand
// CHECK: torch.aten.__and__.Tensor
func.func @no_unranked_operand(%a: !torch.vtensor, %b: !torch.vtensor<[4],i1>) -> !torch.vtensor<[4],i1> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor, !torch.vtensor<[4],i1> -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// Negative: si32 & si64 typed si32, where torch computes in si64.
// WHY: and_to_bitwise_and: no match on 'torch.aten.__and__.Tensor' at {{.*}}: the result's dtype si32 is not torch's promotion of si32 and si64
// CHECK-LABEL: func.func @no_result_not_promotion
// CHECK: torch.aten.__and__.Tensor
func.func @no_result_not_promotion(%a: !torch.vtensor<[4],si32>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// Negative: a dtype outside the promotion table (ui16), even with a result of that dtype.
// WHY: and_to_bitwise_and: no match on 'torch.aten.__and__.Tensor' at {{.*}}: a ui16 result: not bool nor an integer of the promotion table (torch_ir)
// CHECK-LABEL: func.func @no_dtype_outside_table
// CHECK: torch.aten.__and__.Tensor
func.func @no_dtype_outside_table(%a: !torch.vtensor<[4],ui16>, %b: !torch.vtensor<[4],ui16>) -> !torch.vtensor<[4],ui16> {
  %r = torch.aten.__and__.Tensor %a, %b : !torch.vtensor<[4],ui16>, !torch.vtensor<[4],ui16> -> !torch.vtensor<[4],ui16>
  return %r : !torch.vtensor<[4],ui16>
}
