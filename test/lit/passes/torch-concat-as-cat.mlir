// RUN: opt-py %s --split-input-file -p torch-concat-as-cat | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-concat-as-cat --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// PhiMoE's router: torch.concat of two [?, 1] scores along -1. The same list and dim, as aten.cat.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[?,1],f32>, %[[B:.+]]: !torch.vtensor<[?,1],f32>)
// CHECK: %[[L:.+]] = torch.prim.ListConstruct %[[A]], %[[B]] :
// CHECK: %[[C:.+]] = torch.aten.cat %[[L]], %int-1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,2],f32>
// CHECK-NOT: torch.operator
// CHECK: return %[[C]]
func.func @concat(%a: !torch.vtensor<[?,1],f32>, %b: !torch.vtensor<[?,1],f32>) -> !torch.vtensor<[?,2],f32> {
  %int-1 = torch.constant.int -1
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[?,1],f32>, !torch.vtensor<[?,1],f32>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.concat"(%l, %int-1) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[?,2],f32>
  return %r : !torch.vtensor<[?,2],f32>
}

// -----

// torch.concatenate, the other alias.
// CHECK-LABEL: func.func @concatenate
// CHECK: torch.aten.cat %{{.+}}, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[5],si64>
// CHECK-NOT: torch.operator
func.func @concatenate(%a: !torch.vtensor<[2],si64>, %b: !torch.vtensor<[3],si64>) -> !torch.vtensor<[5],si64> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],si64>, !torch.vtensor<[3],si64>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.concatenate"(%l, %int0) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[5],si64>
  return %r : !torch.vtensor<[5],si64>
}

// -----

// Parts of mixed dtypes (ui8 and si8, promoted to si16): each converted first (dtype code 2), in a new list,
// since torch-mlir's cat would sign-extend the ui8 part.
// CHECK-LABEL: func.func @mixed_dtypes
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[2],ui8>, %[[B:.+]]: !torch.vtensor<[3],si8>)
// CHECK: %[[AC:.+]] = torch.prims.convert_element_type %[[A]], %int2{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2],si16>
// CHECK: %[[BC:.+]] = torch.prims.convert_element_type %[[B]], %int2{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[3],si16>
// CHECK: %[[L:.+]] = torch.prim.ListConstruct %[[AC]], %[[BC]] :
// CHECK: %[[C:.+]] = torch.aten.cat %[[L]], %int0 : {{.*}} -> !torch.vtensor<[5],si16>
// CHECK: return %[[C]]
func.func @mixed_dtypes(%a: !torch.vtensor<[2],ui8>, %b: !torch.vtensor<[3],si8>) -> !torch.vtensor<[5],si16> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2],ui8>, !torch.vtensor<[3],si8>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.concat"(%l, %int0) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[5],si16>
  return %r : !torch.vtensor<[5],si16>
}

// -----

// Negative: the tensors are an argument, not a torch.prim.ListConstruct.
// WHY: concat_as_cat: no match on 'torch.operator' at {{.*}}: the tensors are not a torch.prim.ListConstruct
// CHECK-LABEL: func.func @no_list_construct
// CHECK: torch.operator "torch.aten.concat"
func.func @no_list_construct(%l: !torch.list<vtensor>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %r = torch.operator "torch.aten.concat"(%l, %int0) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// Negative: a result dtype that is not torch's promotion of the parts' (f16 parts, an f32 result).
// WHY: concat_as_cat: no match on 'torch.operator' at {{.*}}: the result's dtype f32 is not torch's promotion of the parts'
// CHECK-LABEL: func.func @no_result_not_promoted
// CHECK: torch.operator "torch.aten.concat"
func.func @no_result_not_promoted(%a: !torch.vtensor<[2],f16>) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %a : (!torch.vtensor<[2],f16>, !torch.vtensor<[2],f16>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.concat"(%l, %int0) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked part.
// WHY: concat_as_cat: no match on 'torch.operator' at {{.*}}: a part or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_part
// CHECK: torch.operator "torch.aten.concat"
func.func @no_unranked_part(%a: !torch.vtensor, %b: !torch.vtensor<[2],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor, !torch.vtensor<[2],f32>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.concat"(%l, %int0) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// Negative: the Dimname form (a dim named by a string).
// WHY: concat_as_cat: no match on 'torch.operator' at {{.*}}: not (tensors, dim: int) -> tensor
// CHECK-LABEL: func.func @no_dimname
// CHECK: torch.operator "torch.aten.concat"
func.func @no_dimname(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[4],f32> {
  %n = torch.constant.str "x"
  %l = torch.prim.ListConstruct %a, %a : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.concat"(%l, %n) : (!torch.list<vtensor>, !torch.str) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: another operator.
// WHY: concat_as_cat: no match on 'torch.operator' at {{.*}}: not torch.aten.concat nor torch.aten.concatenate
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.aten.hstack"
func.func @no_other_operator(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[4],f32> {
  %l = torch.prim.ListConstruct %a, %a : (!torch.vtensor<[2],f32>, !torch.vtensor<[2],f32>) -> !torch.list<vtensor>
  %r = torch.operator "torch.aten.hstack"(%l) : (!torch.list<vtensor>) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}
