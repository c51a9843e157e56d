// RUN: opt-py %s --split-input-file -p torch-view-as-complex-static-pair | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-view-as-complex-static-pair --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Every dim dynamic (torch-mlir's AtenComplexViewModule exports so): the last typed as the pair it must be.
// CHECK-LABEL: func.func @dynamic_pair
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?],f32>)
// CHECK: %[[P:.+]] = torch.tensor_static_info_cast %[[X]] : !torch.vtensor<[?,?],f32> to !torch.vtensor<[?,2],f32>
// CHECK: %[[R:.+]] = torch.aten.view_as_complex %[[P]] : !torch.vtensor<[?,2],f32> -> !torch.vtensor<[?],complex<f32>>
// CHECK: return %[[R]]
func.func @dynamic_pair(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?],complex<f32>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor<[?,?],f32> -> !torch.vtensor<[?],complex<f32>>
  return %r : !torch.vtensor<[?],complex<f32>>
}

// -----

// f64, static leading dims: only the last changes.
// CHECK-LABEL: func.func @f64_static_lead
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[3,4,?],f64>)
// CHECK: %[[P:.+]] = torch.tensor_static_info_cast %[[X]] : !torch.vtensor<[3,4,?],f64> to !torch.vtensor<[3,4,2],f64>
// CHECK: %[[R:.+]] = torch.aten.view_as_complex %[[P]] : !torch.vtensor<[3,4,2],f64> -> !torch.vtensor<[3,4],complex<f64>>
// CHECK: return %[[R]]
func.func @f64_static_lead(%x: !torch.vtensor<[3,4,?],f64>) -> !torch.vtensor<[3,4],complex<f64>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor<[3,4,?],f64> -> !torch.vtensor<[3,4],complex<f64>>
  return %r : !torch.vtensor<[3,4],complex<f64>>
}

// -----

// WHY: the last dim is static (2): stock lowers it
// CHECK-LABEL: func.func @static_pair_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view_as_complex %arg0 : !torch.vtensor<[?,2],f32>
func.func @static_pair_left_alone(%x: !torch.vtensor<[?,2],f32>) -> !torch.vtensor<[?],complex<f32>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor<[?,2],f32> -> !torch.vtensor<[?],complex<f32>>
  return %r : !torch.vtensor<[?],complex<f32>>
}

// -----

// WHY: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @unranked_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view_as_complex %arg0 : !torch.vtensor -> !torch.vtensor<[?],complex<f32>>
func.func @unranked_left_alone(%x: !torch.vtensor) -> !torch.vtensor<[?],complex<f32>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor -> !torch.vtensor<[?],complex<f32>>
  return %r : !torch.vtensor<[?],complex<f32>>
}

// -----

// WHY: a 0-d input (torch raises)
// CHECK-LABEL: func.func @zero_d_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view_as_complex %arg0 : !torch.vtensor<[],f32>
func.func @zero_d_left_alone(%x: !torch.vtensor<[],f32>) -> !torch.vtensor<[],complex<f32>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor<[],f32> -> !torch.vtensor<[],complex<f32>>
  return %r : !torch.vtensor<[],complex<f32>>
}

// -----

// WHY: dtype bf16 is not one torch views as complex
// CHECK-LABEL: func.func @bf16_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view_as_complex %arg0 : !torch.vtensor<[?,?],bf16>
func.func @bf16_left_alone(%x: !torch.vtensor<[?,?],bf16>) -> !torch.vtensor<[?],complex<bf16>> {
  %r = torch.aten.view_as_complex %x : !torch.vtensor<[?,?],bf16> -> !torch.vtensor<[?],complex<bf16>>
  return %r : !torch.vtensor<[?],complex<bf16>>
}
