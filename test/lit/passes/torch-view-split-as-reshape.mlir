// RUN: opt-py %s --split-input-file -p torch-view-split-as-reshape | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-view-split-as-reshape --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// x.view(b, s, 12, 32) with b, s = x.size() (torch-mlir's ViewDynamicExpandWithAtenSizeIntModule): the split
// dims typed dynamic, the result cast back; x and the sizes untouched.
// CHECK-LABEL: func.func @head_split
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?,?],f32>)
// CHECK: %[[L:.+]] = torch.prim.ListConstruct
// CHECK: %[[V:.+]] = torch.aten.view %[[X]], %[[L]] : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,?,?],f32>
// CHECK: %[[R:.+]] = torch.tensor_static_info_cast %[[V]] : !torch.vtensor<[?,?,?,?],f32> to !torch.vtensor<[?,?,12,32],f32>
// CHECK: return %[[R]]
func.func @head_split(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?,12,32],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %1, %int12, %int32 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.view %x, %2 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,12,32],f32>
  return %3 : !torch.vtensor<[?,?,12,32],f32>
}

// -----

// _unsafe_view and reshape alike; a static kept dim (the same constant) and the group in the middle.
// CHECK-LABEL: func.func @unsafe_view_and_reshape
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,?,?],f32>, %[[Y:.+]]: !torch.vtensor<[?,?,?],f32>)
// CHECK: %[[U:.+]] = torch.aten._unsafe_view %[[X]], %{{.+}} -> !torch.vtensor<[2,?,?,?],f32>
// CHECK: %[[UC:.+]] = torch.tensor_static_info_cast %[[U]] : !torch.vtensor<[2,?,?,?],f32> to !torch.vtensor<[2,?,4,8],f32>
// CHECK: %[[R:.+]] = torch.aten.reshape %[[Y]], %{{.+}} -> !torch.vtensor<[?,?,?,?],f32>
// CHECK: %[[RC:.+]] = torch.tensor_static_info_cast %[[R]] : !torch.vtensor<[?,?,?,?],f32> to !torch.vtensor<[?,4,8,?],f32>
// CHECK: return %[[UC]], %[[RC]]
func.func @unsafe_view_and_reshape(%x: !torch.vtensor<[2,?,?],f32>, %y: !torch.vtensor<[?,?,?],f32>) -> (!torch.vtensor<[2,?,4,8],f32>, !torch.vtensor<[?,4,8,?],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int8 = torch.constant.int 8
  %0 = torch.aten.size.int %x, %int1 : !torch.vtensor<[2,?,?],f32>, !torch.int -> !torch.int
  %1 = torch.prim.ListConstruct %int2, %0, %int4, %int8 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.aten._unsafe_view %x, %1 : !torch.vtensor<[2,?,?],f32>, !torch.list<int> -> !torch.vtensor<[2,?,4,8],f32>
  %3 = torch.aten.size.int %y, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %4 = torch.aten.size.int %y, %int2 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %5 = torch.prim.ListConstruct %3, %int4, %int8, %4 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %6 = torch.aten.reshape %y, %5 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,4,8,?],f32>
  return %2, %6 : !torch.vtensor<[2,?,4,8],f32>, !torch.vtensor<[?,4,8,?],f32>
}

// -----

// x.unflatten(-1, (12, 32)) of a dynamic last dim fails the same lowering.
// CHECK-LABEL: func.func @unflatten_last
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?],f32>)
// CHECK: %[[U:.+]] = torch.aten.unflatten.int %[[X]], %{{.+}}, %{{.+}} : {{.*}} -> !torch.vtensor<[?,?,?],f32>
// CHECK: %[[R:.+]] = torch.tensor_static_info_cast %[[U]] : !torch.vtensor<[?,?,?],f32> to !torch.vtensor<[?,12,32],f32>
// CHECK: return %[[R]]
func.func @unflatten_last(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,12,32],f32> {
  %int-1 = torch.constant.int -1
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.prim.ListConstruct %int12, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.unflatten.int %x, %int-1, %0 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[?,12,32],f32>
  return %1 : !torch.vtensor<[?,12,32],f32>
}

// -----

// WHY: the split dim 2 is static: stock lowers it
// CHECK-LABEL: func.func @static_split_dim_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,?,12,32],f32>
func.func @static_split_dim_left_alone(%x: !torch.vtensor<[?,?,384],f32>) -> !torch.vtensor<[?,?,12,32],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,384],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,384],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %1, %int12, %int32 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.view %x, %2 : !torch.vtensor<[?,?,384],f32>, !torch.list<int> -> !torch.vtensor<[?,?,12,32],f32>
  return %3 : !torch.vtensor<[?,?,12,32],f32>
}

// -----

// WHY: a static result: stock refines the input and lowers it
// CHECK-LABEL: func.func @static_result_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[2,3,12,32],f32>
func.func @static_result_left_alone(%x: !torch.vtensor<[2,3,?],f32>) -> !torch.vtensor<[2,3,12,32],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.prim.ListConstruct %int2, %int3, %int12, %int32 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %x, %0 : !torch.vtensor<[2,3,?],f32>, !torch.list<int> -> !torch.vtensor<[2,3,12,32],f32>
  return %1 : !torch.vtensor<[2,3,12,32],f32>
}

// -----

// A collapse (the reverse), and sizes of another tensor: no dim of x is split into several, the others kept.
// WHY: not a split of one of the input's dims into several, the others kept
// WHY: not a split of one of the input's dims into several, the others kept
// CHECK-LABEL: func.func @not_a_split_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,?,384],f32>
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,?,12,32],f32>
func.func @not_a_split_left_alone(%x: !torch.vtensor<[?,?,12,32],f32>, %y: !torch.vtensor<[?,?,?],f32>, %z: !torch.vtensor<[?,?,?],f32>) -> (!torch.vtensor<[?,?,384],f32>, !torch.vtensor<[?,?,12,32],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %int384 = torch.constant.int 384
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,12,32],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,12,32],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %1, %int384 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.view %x, %2 : !torch.vtensor<[?,?,12,32],f32>, !torch.list<int> -> !torch.vtensor<[?,?,384],f32>
  %4 = torch.aten.size.int %z, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %5 = torch.aten.size.int %z, %int1 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %6 = torch.prim.ListConstruct %4, %5, %int12, %int32 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %7 = torch.aten.view %y, %6 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,12,32],f32>
  return %3, %7 : !torch.vtensor<[?,?,384],f32>, !torch.vtensor<[?,?,12,32],f32>
}

// -----

// x.view(b, s, 12, -1) typed with a static last dim: the -1 is not a size the rewrite can state.
// WHY: a split size that is not a constant >= 0 (-1 or computed)
// CHECK-LABEL: func.func @inferred_size_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,?,12,32],f32>
func.func @inferred_size_left_alone(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?,12,32],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int12 = torch.constant.int 12
  %int-1 = torch.constant.int -1
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %1, %int12, %int-1 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.view %x, %2 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,12,32],f32>
  return %3 : !torch.vtensor<[?,?,12,32],f32>
}

// -----

// WHY: the result type's dims 2.. are not the split sizes [12, 32]
// CHECK-LABEL: func.func @result_not_the_sizes_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[?,?,12,?],f32>
func.func @result_not_the_sizes_left_alone(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?,12,?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %x, %int1 : !torch.vtensor<[?,?,?],f32>, !torch.int -> !torch.int
  %2 = torch.prim.ListConstruct %0, %1, %int12, %int32 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %3 = torch.aten.view %x, %2 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,12,?],f32>
  return %3 : !torch.vtensor<[?,?,12,?],f32>
}

// -----

// WHY: the sizes are not a torch.prim.ListConstruct of the result's rank
// CHECK-LABEL: func.func @sizes_not_a_list_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
func.func @sizes_not_a_list_left_alone(%x: !torch.vtensor<[?,?,?],f32>, %sizes: !torch.list<int>) -> !torch.vtensor<[?,?,12,32],f32> {
  %0 = torch.aten.view %x, %sizes : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,?,12,32],f32>
  return %0 : !torch.vtensor<[?,?,12,32],f32>
}

// -----

// WHY: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @unranked_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
func.func @unranked_left_alone(%x: !torch.vtensor, %a: !torch.int, %b: !torch.int) -> !torch.vtensor<[?,?,12,32],f32> {
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.prim.ListConstruct %a, %b, %int12, %int32 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.view %x, %0 : !torch.vtensor, !torch.list<int> -> !torch.vtensor<[?,?,12,32],f32>
  return %1 : !torch.vtensor<[?,?,12,32],f32>
}

// -----

// WHY: the dim is not a constant
// CHECK-LABEL: func.func @unflatten_dynamic_dim_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
func.func @unflatten_dynamic_dim_left_alone(%x: !torch.vtensor<[?,?],f32>, %d: !torch.int) -> !torch.vtensor<[?,12,32],f32> {
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.prim.ListConstruct %int12, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.unflatten.int %x, %d, %0 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[?,12,32],f32>
  return %1 : !torch.vtensor<[?,12,32],f32>
}

// -----

// WHY: dim 2 out of range for rank 2 (torch raises)
// CHECK-LABEL: func.func @unflatten_dim_out_of_range_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
func.func @unflatten_dim_out_of_range_left_alone(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,12,32],f32> {
  %int2 = torch.constant.int 2
  %int12 = torch.constant.int 12
  %int32 = torch.constant.int 32
  %0 = torch.prim.ListConstruct %int12, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.unflatten.int %x, %int2, %0 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[?,12,32],f32>
  return %1 : !torch.vtensor<[?,12,32],f32>
}

// -----

// WHY: the sizes are not a torch.prim.ListConstruct of two or more, the result's rank
// CHECK-LABEL: func.func @unflatten_one_size_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
func.func @unflatten_one_size_left_alone(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,384],f32> {
  %int1 = torch.constant.int 1
  %int384 = torch.constant.int 384
  %0 = torch.prim.ListConstruct %int384 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.unflatten.int %x, %int1, %0 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[?,384],f32>
  return %1 : !torch.vtensor<[?,384],f32>
}

// -----

// WHY: two sizes, one of them 1: torch-mlir's canonicalizer makes it an unsqueeze, which stock lowers
// CHECK-LABEL: func.func @unflatten_unit_size_left_alone
// CHECK-NOT: torch.tensor_static_info_cast
func.func @unflatten_unit_size_left_alone(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,1,384],f32> {
  %int1 = torch.constant.int 1
  %int384 = torch.constant.int 384
  %0 = torch.prim.ListConstruct %int1, %int384 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.unflatten.int %x, %int1, %0 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.list<int> -> !torch.vtensor<[?,1,384],f32>
  return %1 : !torch.vtensor<[?,1,384],f32>
}
