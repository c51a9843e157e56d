// RUN: opt-py %s --split-input-file -p torch-split-dynamic-as-slices | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-split-dynamic-as-slices --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// x.chunk(3, 1) on a dynamic dim: split size (d + 2) // 3, three chunks, the last to the end.
// CHECK-LABEL: func.func @chunk3
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?],f32>, %[[S:.+]]: !torch.int)
// CHECK-NOT: torch.aten.split.Tensor
// CHECK: %[[S0:.+]] = torch.aten.mul.int %[[S]], %int0
// CHECK: %[[E0:.+]] = torch.aten.mul.int %[[S]], %int1
// CHECK: %[[C0:.+]] = torch.aten.slice.Tensor %[[X]], %[[DIM:.+]], %[[S0]], %[[E0]], %{{.+}} : {{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK: %[[S1:.+]] = torch.aten.mul.int %[[S]], %int1
// CHECK: %[[E1:.+]] = torch.aten.mul.int %[[S]], %int2
// CHECK: %[[C1:.+]] = torch.aten.slice.Tensor %[[X]], %[[DIM]], %[[S1]], %[[E1]]
// CHECK: %[[S2:.+]] = torch.aten.mul.int %[[S]], %int2
// CHECK: %[[C2:.+]] = torch.aten.slice.Tensor %[[X]], %[[DIM]], %[[S2]], %int9223372036854775807
// CHECK-NOT: torch.prim.ListUnpack
// CHECK: return %[[C0]], %[[C1]], %[[C2]]
func.func @chunk3(%x: !torch.vtensor<[?,?],f32>, %s: !torch.int) -> (!torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>) {
  %int1 = torch.constant.int 1
  %0 = torch.aten.split.Tensor %x, %s, %int1 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:3 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>
  return %1#0, %1#1, %1#2 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>
}

// -----

// WHY: a constant split size (torch-mlir decomposes it)
// CHECK-LABEL: func.func @constant_size_left_alone
// CHECK: torch.aten.split.Tensor
// CHECK: torch.prim.ListUnpack
func.func @constant_size_left_alone(%x: !torch.vtensor<[?,6],f32>) -> (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>) {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %0 = torch.aten.split.Tensor %x, %int3, %int1 : !torch.vtensor<[?,6],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>
  return %1#0, %1#1 : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>
}

// -----

// WHY: the split's dim is not a constant
// CHECK-LABEL: func.func @dynamic_dim_left_alone
// CHECK: torch.aten.split.Tensor
func.func @dynamic_dim_left_alone(%x: !torch.vtensor<[?,?],f32>, %s: !torch.int, %d: !torch.int) -> (!torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>) {
  %0 = torch.aten.split.Tensor %x, %s, %d : !torch.vtensor<[?,?],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>
  return %1#0, %1#1 : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>
}

// -----

// WHY: the split is read by something besides this unpack
// CHECK-LABEL: func.func @shared_split_left_alone
// CHECK: torch.aten.split.Tensor
// CHECK: torch.prim.ListUnpack
func.func @shared_split_left_alone(%x: !torch.vtensor<[?,?],f32>, %s: !torch.int) -> (!torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.int) {
  %int1 = torch.constant.int 1
  %0 = torch.aten.split.Tensor %x, %s, %int1 : !torch.vtensor<[?,?],f32>, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>
  %n = torch.aten.len.t %0 : !torch.list<vtensor> -> !torch.int
  return %1#0, %1#1, %n : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?],f32>, !torch.int
}

// -----

// WHY: not an unpack of torch.aten.split.Tensor
// CHECK-LABEL: func.func @unbind_left_alone
// CHECK: torch.aten.unbind.int
func.func @unbind_left_alone(%x: !torch.vtensor<[2,?],f32>) -> (!torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>) {
  %int0 = torch.constant.int 0
  %0 = torch.aten.unbind.int %x, %int0 : !torch.vtensor<[2,?],f32>, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>
  return %1#0, %1#1 : !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>
}

// -----

// WHY: the input or a chunk is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @unranked_left_alone
// CHECK: torch.aten.split.Tensor
func.func @unranked_left_alone(%x: !torch.vtensor, %s: !torch.int) -> (!torch.vtensor, !torch.vtensor) {
  %int1 = torch.constant.int 1
  %0 = torch.aten.split.Tensor %x, %s, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.list<vtensor>
  %1:2 = torch.prim.ListUnpack %0 : !torch.list<vtensor> -> !torch.vtensor, !torch.vtensor
  return %1#0, %1#1 : !torch.vtensor, !torch.vtensor
}
