// RUN: opt-py %s --split-input-file -p torch-int8-matmul-widened | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-int8-matmul-widened --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// si8 mm with dynamic sizes: both operands to si32 (code 3), the product there, back to si8 (code 1).
// CHECK-LABEL: func.func @mm_si8
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[?,?],si8>, %[[B:.+]]: !torch.vtensor<[?,?],si8>)
// CHECK: %[[AW:.+]] = torch.prims.convert_element_type %[[A]], %int3{{(_[0-9]+)?}} : !torch.vtensor<[?,?],si8>, !torch.int -> !torch.vtensor<[?,?],si32>
// CHECK: %[[BW:.+]] = torch.prims.convert_element_type %[[B]], %int3{{(_[0-9]+)?}} : !torch.vtensor<[?,?],si8>, !torch.int -> !torch.vtensor<[?,?],si32>
// CHECK: %[[P:.+]] = torch.aten.mm %[[AW]], %[[BW]] : !torch.vtensor<[?,?],si32>, !torch.vtensor<[?,?],si32> -> !torch.vtensor<[?,?],si32>
// CHECK: %[[R:.+]] = torch.prims.convert_element_type %[[P]], %int1{{(_[0-9]+)?}} : !torch.vtensor<[?,?],si32>, !torch.int -> !torch.vtensor<[?,?],si8>
// CHECK: return %[[R]]
func.func @mm_si8(%a: !torch.vtensor<[?,?],si8>, %b: !torch.vtensor<[?,?],si8>) -> !torch.vtensor<[?,?],si8> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[?,?],si8>, !torch.vtensor<[?,?],si8> -> !torch.vtensor<[?,?],si8>
  return %0 : !torch.vtensor<[?,?],si8>
}

// -----

// ui8 bmm: back to ui8 (code 0).
// CHECK-LABEL: func.func @bmm_ui8
// CHECK: %[[P:.+]] = torch.aten.bmm %{{.+}}, %{{.+}} : !torch.vtensor<[2,4,8],si32>, !torch.vtensor<[2,8,3],si32> -> !torch.vtensor<[2,4,3],si32>
// CHECK: %[[R:.+]] = torch.prims.convert_element_type %[[P]], %int0{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,4,3],ui8>
// CHECK: return %[[R]]
func.func @bmm_ui8(%a: !torch.vtensor<[2,4,8],ui8>, %b: !torch.vtensor<[2,8,3],ui8>) -> !torch.vtensor<[2,4,3],ui8> {
  %0 = torch.aten.bmm %a, %b : !torch.vtensor<[2,4,8],ui8>, !torch.vtensor<[2,8,3],ui8> -> !torch.vtensor<[2,4,3],ui8>
  return %0 : !torch.vtensor<[2,4,3],ui8>
}

// -----

// matmul of a vector and a matrix.
// CHECK-LABEL: func.func @matmul_si8
// CHECK: %[[P:.+]] = torch.aten.matmul %{{.+}}, %{{.+}} : !torch.vtensor<[5],si32>, !torch.vtensor<[5,3],si32> -> !torch.vtensor<[3],si32>
// CHECK: torch.prims.convert_element_type %[[P]]
func.func @matmul_si8(%a: !torch.vtensor<[5],si8>, %b: !torch.vtensor<[5,3],si8>) -> !torch.vtensor<[3],si8> {
  %0 = torch.aten.matmul %a, %b : !torch.vtensor<[5],si8>, !torch.vtensor<[5,3],si8> -> !torch.vtensor<[3],si8>
  return %0 : !torch.vtensor<[3],si8>
}

// -----

// WHY: not an 8-bit integer product (si32 x si32 -> si32)
// CHECK-LABEL: func.func @si32_left_alone
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: torch.aten.mm %arg0, %arg1 : !torch.vtensor<[4,5],si32>
func.func @si32_left_alone(%a: !torch.vtensor<[4,5],si32>, %b: !torch.vtensor<[5,3],si32>) -> !torch.vtensor<[4,3],si32> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[4,5],si32>, !torch.vtensor<[5,3],si32> -> !torch.vtensor<[4,3],si32>
  return %0 : !torch.vtensor<[4,3],si32>
}

// -----

// WHY: not an 8-bit integer product (si8 x si8 -> si32)
// CHECK-LABEL: func.func @mixed_result_left_alone
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: torch.aten.mm %arg0, %arg1 : !torch.vtensor<[4,5],si8>, !torch.vtensor<[5,3],si8> -> !torch.vtensor<[4,3],si32>
func.func @mixed_result_left_alone(%a: !torch.vtensor<[4,5],si8>, %b: !torch.vtensor<[5,3],si8>) -> !torch.vtensor<[4,3],si32> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[4,5],si8>, !torch.vtensor<[5,3],si8> -> !torch.vtensor<[4,3],si32>
  return %0 : !torch.vtensor<[4,3],si32>
}

// -----

// WHY: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @unranked_left_alone
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: torch.aten.mm %arg0, %arg1 : !torch.vtensor, !torch.vtensor<[5,3],si8>
func.func @unranked_left_alone(%a: !torch.vtensor, %b: !torch.vtensor<[5,3],si8>) -> !torch.vtensor<[4,3],si8> {
  %0 = torch.aten.mm %a, %b : !torch.vtensor, !torch.vtensor<[5,3],si8> -> !torch.vtensor<[4,3],si8>
  return %0 : !torch.vtensor<[4,3],si8>
}
