// RUN: opt-py %s --split-input-file -p torch-decompose-meshgrid | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-meshgrid --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch.meshgrid(a, b) (indexing "ij"): a viewed [3,1] and b [1,4], each expanded to [3,4]; meshgrid gone.
// CHECK-LABEL: func.func @ij_default
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[3],si64>, %[[B:.+]]: !torch.vtensor<[4],si64>)
// CHECK-DAG: %[[N3:.+]] = torch.constant.int 3
// CHECK-DAG: %[[N4:.+]] = torch.constant.int 4
// CHECK: %[[VA:.+]] = torch.aten.view %[[A]], %{{.+}} : !torch.vtensor<[3],si64>, !torch.list<int> -> !torch.vtensor<[3,1],si64>
// CHECK: %[[FULL:.+]] = torch.prim.ListConstruct %[[N3]], %[[N4]] :
// CHECK: %[[GA:.+]] = torch.aten.expand %[[VA]], %[[FULL]], %false{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[3,4],si64>
// CHECK: %[[VB:.+]] = torch.aten.view %[[B]], %{{.+}} : !torch.vtensor<[4],si64>, !torch.list<int> -> !torch.vtensor<[1,4],si64>
// CHECK: %[[GB:.+]] = torch.aten.expand %[[VB]], %{{.+}}, %false{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[3,4],si64>
// CHECK-NOT: torch.aten.meshgrid
// CHECK-NOT: torch.prim.ListUnpack
// CHECK: return %[[GA]], %[[GB]]
func.func @ij_default(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[4],si64>) -> (!torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],si64>) {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3],si64>, !torch.vtensor<[4],si64>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],si64>
  return %r#0, %r#1 : !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],si64>
}

// -----

// indexing "xy" over three inputs: the first two dims swap, so a varies along dim 1 ([1,3,1]) and b along
// dim 0 ([4,1,1]) of [4,3,5]; c keeps dim 2.
// CHECK-LABEL: func.func @xy_three
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[3],f32>, %[[B:.+]]: !torch.vtensor<[4],f32>, %[[C:.+]]: !torch.vtensor<[5],f32>)
// CHECK: %[[VA:.+]] = torch.aten.view %[[A]], %{{.+}} -> !torch.vtensor<[1,3,1],f32>
// CHECK: %[[GA:.+]] = torch.aten.expand %[[VA]], {{.*}} -> !torch.vtensor<[4,3,5],f32>
// CHECK: %[[VB:.+]] = torch.aten.view %[[B]], %{{.+}} -> !torch.vtensor<[4,1,1],f32>
// CHECK: %[[GB:.+]] = torch.aten.expand %[[VB]], {{.*}} -> !torch.vtensor<[4,3,5],f32>
// CHECK: %[[VC:.+]] = torch.aten.view %[[C]], %{{.+}} -> !torch.vtensor<[1,1,5],f32>
// CHECK: %[[GC:.+]] = torch.aten.expand %[[VC]], {{.*}} -> !torch.vtensor<[4,3,5],f32>
// CHECK: return %[[GA]], %[[GB]], %[[GC]]
func.func @xy_three(%a: !torch.vtensor<[3],f32>, %b: !torch.vtensor<[4],f32>, %c: !torch.vtensor<[5],f32>) -> (!torch.vtensor<[4,3,5],f32>, !torch.vtensor<[4,3,5],f32>, !torch.vtensor<[4,3,5],f32>) {
  %l = torch.prim.ListConstruct %a, %b, %c : (!torch.vtensor<[3],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[5],f32>) -> !torch.list<vtensor>
  %s = torch.constant.str "xy"
  %g = torch.aten.meshgrid.indexing %l, %s : !torch.list<vtensor>, !torch.str -> !torch.list<vtensor>
  %r:3 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[4,3,5],f32>, !torch.vtensor<[4,3,5],f32>, !torch.vtensor<[4,3,5],f32>
  return %r#0, %r#1, %r#2 : !torch.vtensor<[4,3,5],f32>, !torch.vtensor<[4,3,5],f32>, !torch.vtensor<[4,3,5],f32>
}

// -----

// Dynamic sizes come from aten.size.int of each input; a 0-d input counts as size 1.
// CHECK-LABEL: func.func @dynamic_and_zero_d
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[?],f32>, %[[B:.+]]: !torch.vtensor<[],f32>)
// CHECK: %[[NA:.+]] = torch.aten.size.int %[[A]], %int0{{(_[0-9]+)?}} :
// CHECK: torch.prim.ListConstruct %[[NA]], %int1{{(_[0-9]+)?}} :
// CHECK: %[[GA:.+]] = torch.aten.expand {{.*}} -> !torch.vtensor<[?,1],f32>
// CHECK: %[[VB:.+]] = torch.aten.view %[[B]], {{.*}} : !torch.vtensor<[],f32>, !torch.list<int> -> !torch.vtensor<[1,1],f32>
// CHECK: %[[GB:.+]] = torch.aten.expand %[[VB]], {{.*}} -> !torch.vtensor<[?,1],f32>
// CHECK: return %[[GA]], %[[GB]]
func.func @dynamic_and_zero_d(%a: !torch.vtensor<[?],f32>, %b: !torch.vtensor<[],f32>) -> (!torch.vtensor<[?,1],f32>, !torch.vtensor<[?,1],f32>) {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[?],f32>, !torch.vtensor<[],f32>) -> !torch.list<vtensor>
  %s = torch.constant.str "ij"
  %g = torch.aten.meshgrid.indexing %l, %s : !torch.list<vtensor>, !torch.str -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[?,1],f32>, !torch.vtensor<[?,1],f32>
  return %r#0, %r#1 : !torch.vtensor<[?,1],f32>, !torch.vtensor<[?,1],f32>
}

// -----

// A grid typed with less static information than the inputs give: the expand is cast to that type.
// CHECK-LABEL: func.func @result_less_static
// CHECK: %[[G:.+]] = torch.aten.expand {{.*}} -> !torch.vtensor<[2,3],si32>
// CHECK: %[[C:.+]] = torch.tensor_static_info_cast %[[G]] : !torch.vtensor<[2,3],si32> to !torch.vtensor<[?,?],si32>
// CHECK: return %[[C]]
func.func @result_less_static(%a: !torch.vtensor<[2],si32>, %b: !torch.vtensor<[3],si32>) -> !torch.vtensor<[?,?],si32> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],si32>, !torch.vtensor<[3],si32>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[?,?],si32>, !torch.vtensor<[?,?],si32>
  return %r#0 : !torch.vtensor<[?,?],si32>
}

// -----

// Negative: indexing not a constant "ij" or "xy".
// WHY: decompose_meshgrid_indexing: no match on 'torch.aten.meshgrid.indexing' at {{.*}}: indexing is not a constant 'ij' or 'xy'
// CHECK-LABEL: func.func @no_unknown_indexing
// CHECK: torch.aten.meshgrid.indexing
func.func @no_unknown_indexing(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[4],si64>, %s: !torch.str) -> !torch.vtensor<[3,4],si64> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3],si64>, !torch.vtensor<[4],si64>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid.indexing %l, %s : !torch.list<vtensor>, !torch.str -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],si64>
  return %r#0 : !torch.vtensor<[3,4],si64>
}

// -----

// Negative: the grids read by something other than one unpack.
// WHY: decompose_meshgrid: no match on 'torch.aten.meshgrid' at {{.*}}: the grids are not read by one torch.prim.ListUnpack alone
// CHECK-LABEL: func.func @no_list_read_otherwise
// CHECK: torch.aten.meshgrid
func.func @no_list_read_otherwise(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[4],si64>) -> !torch.list<vtensor> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3],si64>, !torch.vtensor<[4],si64>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  return %g : !torch.list<vtensor>
}

// -----

// Negative: the tensors are not a ListConstruct (a function argument).
// WHY: decompose_meshgrid: no match on 'torch.aten.meshgrid' at {{.*}}: the tensors are not a torch.prim.ListConstruct
// CHECK-LABEL: func.func @no_list_construct
// CHECK: torch.aten.meshgrid
func.func @no_list_construct(%l: !torch.list<vtensor>) -> !torch.vtensor<[3,4],si64> {
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],si64>
  return %r#0 : !torch.vtensor<[3,4],si64>
}

// -----

// Negative: a 2-d input (torch raises).
// WHY: decompose_meshgrid: no match on 'torch.aten.meshgrid' at {{.*}}: the tensors are not 0-d or 1-d ranked !torch.vtensor (torch raises for others)
// CHECK-LABEL: func.func @no_two_d_input
// CHECK: torch.aten.meshgrid
func.func @no_two_d_input(%a: !torch.vtensor<[3,2],si64>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[6,4],si64> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3,2],si64>, !torch.vtensor<[4],si64>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[6,4],si64>, !torch.vtensor<[6,4],si64>
  return %r#0 : !torch.vtensor<[6,4],si64>
}

// -----

// Negative: inputs of two dtypes (torch raises).
// WHY: decompose_meshgrid: no match on 'torch.aten.meshgrid' at {{.*}}: the tensors differ in dtype (torch raises)
// CHECK-LABEL: func.func @no_mixed_dtypes
// CHECK: torch.aten.meshgrid
func.func @no_mixed_dtypes(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4],si64> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3],si64>, !torch.vtensor<[4],f32>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],f32>
  return %r#0 : !torch.vtensor<[3,4],si64>
}

// -----

// Negative: an unpack of fewer results than tensors.
// WHY: decompose_meshgrid: no match on 'torch.aten.meshgrid' at {{.*}}: the unpack's result count is not the number of tensors
// CHECK-LABEL: func.func @no_count_mismatch
// CHECK: torch.aten.meshgrid
func.func @no_count_mismatch(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[3,4],si64> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3],si64>, !torch.vtensor<[4],si64>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  %r = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[3,4],si64>
  return %r : !torch.vtensor<[3,4],si64>
}

// -----

// Negative: a grid typed [4,3] where "ij" gives [3,4].
// WHY: decompose_meshgrid: no match on 'torch.aten.meshgrid' at {{.*}}: a grid is not typed as the !torch.vtensor<[3,4],si64> the tensors give
// CHECK-LABEL: func.func @no_grid_type_mismatch
// CHECK: torch.aten.meshgrid
func.func @no_grid_type_mismatch(%a: !torch.vtensor<[3],si64>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4,3],si64> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[3],si64>, !torch.vtensor<[4],si64>) -> !torch.list<vtensor>
  %g = torch.aten.meshgrid %l : !torch.list<vtensor> -> !torch.list<vtensor>
  %r:2 = torch.prim.ListUnpack %g : !torch.list<vtensor> -> !torch.vtensor<[4,3],si64>, !torch.vtensor<[4,3],si64>
  return %r#0 : !torch.vtensor<[4,3],si64>
}
