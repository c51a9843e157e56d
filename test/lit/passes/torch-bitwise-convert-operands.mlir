// RUN: opt-py %s --split-input-file -p torch-bitwise-convert-operands | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-bitwise-convert-operands --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// ui8 | si32 (a | b as torch exports it): the ui8 operand converted to si32 first (code 3), then bitwise_or.
// CHECK-LABEL: func.func @unsigned_byte_or_int
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[4],ui8>, %[[B:.+]]: !torch.vtensor<[4],si32>)
// CHECK: %[[AC:.+]] = torch.prims.convert_element_type %[[A]], %int3{{(_[0-9]+)?}} : !torch.vtensor<[4],ui8>, !torch.int -> !torch.vtensor<[4],si32>
// CHECK: %[[R:.+]] = torch.aten.bitwise_or.Tensor %[[AC]], %[[B]] : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
// CHECK-NOT: torch.aten.__or__.Tensor
// CHECK: return %[[R]]
func.func @unsigned_byte_or_int(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.__or__.Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// si8 & ui8 computes in si16: both operands converted (code 2), broadcasting and dynamic dims as they are.
// CHECK-LABEL: func.func @signed_and_unsigned_byte
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[?,3],si8>, %[[B:.+]]: !torch.vtensor<[3],ui8>)
// CHECK-DAG: %[[AC:.+]] = torch.prims.convert_element_type %[[A]], %int2{{(_[0-9]+)?}} : !torch.vtensor<[?,3],si8>, !torch.int -> !torch.vtensor<[?,3],si16>
// CHECK-DAG: %[[BC:.+]] = torch.prims.convert_element_type %[[B]], %int2{{(_[0-9]+)?}} : !torch.vtensor<[3],ui8>, !torch.int -> !torch.vtensor<[3],si16>
// CHECK: %[[R:.+]] = torch.aten.bitwise_and.Tensor %[[AC]], %[[BC]] : !torch.vtensor<[?,3],si16>, !torch.vtensor<[3],si16> -> !torch.vtensor<[?,3],si16>
// CHECK: return %[[R]]
func.func @signed_and_unsigned_byte(%a: !torch.vtensor<[?,3],si8>, %b: !torch.vtensor<[3],ui8>) -> !torch.vtensor<[?,3],si16> {
  %r = torch.aten.bitwise_and.Tensor %a, %b : !torch.vtensor<[?,3],si8>, !torch.vtensor<[3],ui8> -> !torch.vtensor<[?,3],si16>
  return %r : !torch.vtensor<[?,3],si16>
}

// -----

// bool ^ ui8 is ui8: the bool converted (code 0), which torch-mlir's lowering refuses to do itself.
// CHECK-LABEL: func.func @bool_xor_unsigned_byte
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[5],i1>, %[[B:.+]]: !torch.vtensor<[5],ui8>)
// CHECK: %[[AC:.+]] = torch.prims.convert_element_type %[[A]], %int0{{(_[0-9]+)?}} : !torch.vtensor<[5],i1>, !torch.int -> !torch.vtensor<[5],ui8>
// CHECK: %[[R:.+]] = torch.aten.bitwise_xor.Tensor %[[AC]], %[[B]] : !torch.vtensor<[5],ui8>, !torch.vtensor<[5],ui8> -> !torch.vtensor<[5],ui8>
// CHECK: return %[[R]]
func.func @bool_xor_unsigned_byte(%a: !torch.vtensor<[5],i1>, %b: !torch.vtensor<[5],ui8>) -> !torch.vtensor<[5],ui8> {
  %r = torch.aten.bitwise_xor.Tensor %a, %b : !torch.vtensor<[5],i1>, !torch.vtensor<[5],ui8> -> !torch.vtensor<[5],ui8>
  return %r : !torch.vtensor<[5],ui8>
}

// -----

// Negative: si8 | si32, sign extension is right.
// WHY: convert_or_operands: no match on 'torch.aten.bitwise_or.Tensor' at {{.*}}: si8, si32 -> si32: no ui8 operand widened, no 8-bit result converted into
// CHECK-LABEL: func.func @no_signed_widening
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: torch.aten.bitwise_or.Tensor %arg0, %arg1
func.func @no_signed_widening(%a: !torch.vtensor<[4],si8>, %b: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.bitwise_or.Tensor %a, %b : !torch.vtensor<[4],si8>, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// Negative: ui8 | ui8, nothing converted.
// WHY: convert_or_dunder_operands: no match on 'torch.aten.__or__.Tensor' at {{.*}}: ui8, ui8 -> ui8: no ui8 operand widened, no 8-bit result converted into
// CHECK-LABEL: func.func @no_same_dtype
// CHECK: torch.aten.__or__.Tensor %arg0, %arg1
func.func @no_same_dtype(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],ui8>) -> !torch.vtensor<[4],ui8> {
  %r = torch.aten.__or__.Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],ui8> -> !torch.vtensor<[4],ui8>
  return %r : !torch.vtensor<[4],ui8>
}

// -----

// Negative: an unranked operand (its dtype is unknown).
// WHY: convert_and_operands: no match on 'torch.aten.bitwise_and.Tensor' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_operand
// CHECK: torch.aten.bitwise_and.Tensor %arg0, %arg1
func.func @no_unranked_operand(%a: !torch.vtensor, %b: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.bitwise_and.Tensor %a, %b : !torch.vtensor, !torch.vtensor<[4],si32> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// Negative: a float result (torch raises for bitwise ops on floats).
// WHY: convert_xor_operands: no match on 'torch.aten.bitwise_xor.Tensor' at {{.*}}: a f32 result: not bool nor an integer of the promotion table (torch_ir)
// CHECK-LABEL: func.func @no_float_result
// CHECK: torch.aten.bitwise_xor.Tensor %arg0, %arg1
func.func @no_float_result(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.bitwise_xor.Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: ui8 | si64 typed si32, where torch computes in si64.
// WHY: convert_or_operands: no match on 'torch.aten.bitwise_or.Tensor' at {{.*}}: the result's dtype si32 is not torch's promotion of ui8 and si64
// CHECK-LABEL: func.func @no_result_not_promotion
// CHECK: torch.aten.bitwise_or.Tensor %arg0, %arg1
func.func @no_result_not_promotion(%a: !torch.vtensor<[4],ui8>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.bitwise_or.Tensor %a, %b : !torch.vtensor<[4],ui8>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}
