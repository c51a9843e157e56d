// RUN: opt-py %s --split-input-file -p torch-decompose-reflection-pad3d | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-reflection-pad3d --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Pads (w: 1, 2; h: 0, 0; d: 3, 0) on [1,2,4,5,6]: the last dim first (x[1:2], one element, its own flip, and
// x[3:5] flipped around x), then the depth on that result (x[1:4] flipped before it); h untouched.
// CHECK-LABEL: func.func @pad3d_static
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[1,2,4,5,6],f32>)
// CHECK: %[[L:.+]] = torch.aten.slice.Tensor %[[X]], %int4{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %int2{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,2,4,5,1],f32>
// CHECK: %[[R:.+]] = torch.aten.slice.Tensor %[[X]], %int4{{(_[0-9]+)?}}, %int3{{(_[0-9]+)?}}, %int5{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,2,4,5,2],f32>
// CHECK: %[[RF:.+]] = torch.aten.flip %[[R]], %{{.+}} :
// CHECK: %[[PARTS:.+]] = torch.prim.ListConstruct %[[L]], %[[X]], %[[RF]] :
// CHECK: %[[W:.+]] = torch.aten.cat %[[PARTS]], %int4{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,2,4,5,9],f32>
// CHECK: %[[F:.+]] = torch.aten.slice.Tensor %[[W]], %int2{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %int4{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,2,3,5,9],f32>
// CHECK: %[[FF:.+]] = torch.aten.flip %[[F]], %{{.+}} :
// CHECK: %[[PARTS2:.+]] = torch.prim.ListConstruct %[[FF]], %[[W]] :
// CHECK: %[[D:.+]] = torch.aten.cat %[[PARTS2]], %int2{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,2,7,5,9],f32>
// CHECK-NOT: torch.aten.reflection_pad3d
// CHECK: return %[[D]]
func.func @pad3d_static(%x: !torch.vtensor<[1,2,4,5,6],f32>) -> !torch.vtensor<[1,2,7,5,9],f32> {
  %i0 = torch.constant.int 0
  %i1 = torch.constant.int 1
  %i2 = torch.constant.int 2
  %i3 = torch.constant.int 3
  %p = torch.prim.ListConstruct %i1, %i2, %i0, %i0, %i3, %i0 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[1,2,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[1,2,7,5,9],f32>
  return %r : !torch.vtensor<[1,2,7,5,9],f32>
}

// -----

// F.pad(x, pads, mode="reflect") on a 4-d (C, D, H, W) input, what a Conv3d with padding_mode="reflect" exports;
// a dynamic W is sliced from its end (x[-2:-1] after it).
// CHECK-LABEL: func.func @pad_reflect_dynamic
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,3,4,?],f32>)
// CHECK: torch.aten.slice.Tensor %[[X]], %int3{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %int2{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} :
// CHECK: torch.aten.slice.Tensor %[[X]], %int3{{(_[0-9]+)?}}, %int-2{{(_[0-9]+)?}}, %int-1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,3,4,1],f32>
// CHECK: torch.aten.cat {{.*}} -> !torch.vtensor<[2,3,4,?],f32>
// CHECK: torch.aten.cat {{.*}} -> !torch.vtensor<[2,3,6,?],f32>
// CHECK: %[[D:.+]] = torch.aten.cat {{.*}} -> !torch.vtensor<[2,5,6,?],f32>
// CHECK-NOT: torch.aten.pad
// CHECK: return %[[D]]
func.func @pad_reflect_dynamic(%x: !torch.vtensor<[2,3,4,?],f32>) -> !torch.vtensor<[2,5,6,?],f32> {
  %i1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %i1, %i1, %i1, %i1, %i1, %i1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %mode = torch.constant.str "reflect"
  %none = torch.constant.none
  %r = torch.aten.pad %x, %p, %mode, %none : !torch.vtensor<[2,3,4,?],f32>, !torch.list<int>, !torch.str, !torch.none -> !torch.vtensor<[2,5,6,?],f32>
  return %r : !torch.vtensor<[2,5,6,?],f32>
}

// -----

// Negative: four pads (reflection_pad2d, which torch-mlir lowers).
// WHY: decompose_pad_reflect: no match on 'torch.aten.pad' at {{.*}}: pads are not six torch.constant.int
// CHECK-LABEL: func.func @no_four_pads
// CHECK: torch.aten.pad
func.func @no_four_pads(%x: !torch.vtensor<[1,2,4,5],f32>) -> !torch.vtensor<[1,2,6,7],f32> {
  %i1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %i1, %i1, %i1, %i1 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %mode = torch.constant.str "reflect"
  %none = torch.constant.none
  %r = torch.aten.pad %x, %p, %mode, %none : !torch.vtensor<[1,2,4,5],f32>, !torch.list<int>, !torch.str, !torch.none -> !torch.vtensor<[1,2,6,7],f32>
  return %r : !torch.vtensor<[1,2,6,7],f32>
}

// -----

// Negative: a constant pad.
// WHY: decompose_pad_reflect: no match on 'torch.aten.pad' at {{.*}}: not aten.pad with mode 'reflect'
// CHECK-LABEL: func.func @no_constant_mode
// CHECK: torch.aten.pad
func.func @no_constant_mode(%x: !torch.vtensor<[1,2,4,5,6],f32>, %v: !torch.float) -> !torch.vtensor<[1,2,6,7,8],f32> {
  %i1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %i1, %i1, %i1, %i1, %i1, %i1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %mode = torch.constant.str "constant"
  %r = torch.aten.pad %x, %p, %mode, %v : !torch.vtensor<[1,2,4,5,6],f32>, !torch.list<int>, !torch.str, !torch.float -> !torch.vtensor<[1,2,6,7,8],f32>
  return %r : !torch.vtensor<[1,2,6,7,8],f32>
}

// -----

// Negative: a reflect pad given a value (torch raises).
// WHY: decompose_pad_reflect: no match on 'torch.aten.pad' at {{.*}}: a value given (torch raises for a reflect pad with one)
// CHECK-LABEL: func.func @no_reflect_with_value
// CHECK: torch.aten.pad
func.func @no_reflect_with_value(%x: !torch.vtensor<[1,2,4,5,6],f32>, %v: !torch.float) -> !torch.vtensor<[1,2,6,7,8],f32> {
  %i1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %i1, %i1, %i1, %i1, %i1, %i1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %mode = torch.constant.str "reflect"
  %r = torch.aten.pad %x, %p, %mode, %v : !torch.vtensor<[1,2,4,5,6],f32>, !torch.list<int>, !torch.str, !torch.float -> !torch.vtensor<[1,2,6,7,8],f32>
  return %r : !torch.vtensor<[1,2,6,7,8],f32>
}

// -----

// Negative: pads that are not constants.
// WHY: decompose_reflection_pad3d: no match on 'torch.aten.reflection_pad3d' at {{.*}}: pads are not six torch.constant.int
// CHECK-LABEL: func.func @no_runtime_pads
// CHECK: torch.aten.reflection_pad3d
func.func @no_runtime_pads(%x: !torch.vtensor<[1,2,4,5,6],f32>, %p: !torch.list<int>) -> !torch.vtensor<[?,?,?,?,?],f32> {
  %r = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[1,2,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[?,?,?,?,?],f32>
  return %r : !torch.vtensor<[?,?,?,?,?],f32>
}

// -----

// Negative: a negative pad.
// WHY: decompose_reflection_pad3d: no match on 'torch.aten.reflection_pad3d' at {{.*}}: a negative pad
// CHECK-LABEL: func.func @no_negative_pad
// CHECK: torch.aten.reflection_pad3d
func.func @no_negative_pad(%x: !torch.vtensor<[1,2,4,5,6],f32>) -> !torch.vtensor<[1,2,4,5,5],f32> {
  %i0 = torch.constant.int 0
  %m1 = torch.constant.int -1
  %p = torch.prim.ListConstruct %m1, %i0, %i0, %i0, %i0, %i0 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[1,2,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[1,2,4,5,5],f32>
  return %r : !torch.vtensor<[1,2,4,5,5],f32>
}

// -----

// Negative: a pad as large as its dim (torch raises).
// WHY: decompose_reflection_pad3d: no match on 'torch.aten.reflection_pad3d' at {{.*}}: a pad of 4 on a dim of size 4 (torch raises)
// CHECK-LABEL: func.func @no_pad_past_dim
// CHECK: torch.aten.reflection_pad3d
func.func @no_pad_past_dim(%x: !torch.vtensor<[1,2,4,5,6],f32>) -> !torch.vtensor<[1,2,12,5,6],f32> {
  %i0 = torch.constant.int 0
  %i4 = torch.constant.int 4
  %p = torch.prim.ListConstruct %i0, %i0, %i0, %i0, %i4, %i4 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[1,2,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[1,2,12,5,6],f32>
  return %r : !torch.vtensor<[1,2,12,5,6],f32>
}

// -----

// Negative: a rank-3 input (torch takes rank 4 or 5).
// WHY: decompose_reflection_pad3d: no match on 'torch.aten.reflection_pad3d' at {{.*}}: a rank-3 input (torch takes rank 4 or 5)
// CHECK-LABEL: func.func @no_rank_three
// CHECK: torch.aten.reflection_pad3d
func.func @no_rank_three(%x: !torch.vtensor<[4,5,6],f32>) -> !torch.vtensor<[6,7,8],f32> {
  %i1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %i1, %i1, %i1, %i1, %i1, %i1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[6,7,8],f32>
  return %r : !torch.vtensor<[6,7,8],f32>
}

// -----

// Negative: an unranked input.
// WHY: decompose_reflection_pad3d: no match on 'torch.aten.reflection_pad3d' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.reflection_pad3d
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[1,2,6,7,8],f32> {
  %i1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %i1, %i1, %i1, %i1, %i1, %i1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.reflection_pad3d %x, %p : !torch.vtensor, !torch.list<int> -> !torch.vtensor<[1,2,6,7,8],f32>
  return %r : !torch.vtensor<[1,2,6,7,8],f32>
}

// -----

// Negative: a result typed otherwise than the padded shape.
// WHY: decompose_reflection_pad3d: no match on 'torch.aten.reflection_pad3d' at {{.*}}: the result !torch.vtensor<[1,2,6,7,9],f32> is not the padded !torch.vtensor<[1,2,6,7,8],f32>
// CHECK-LABEL: func.func @no_result_mismatch
// CHECK: torch.aten.reflection_pad3d
func.func @no_result_mismatch(%x: !torch.vtensor<[1,2,4,5,6],f32>) -> !torch.vtensor<[1,2,6,7,9],f32> {
  %i1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %i1, %i1, %i1, %i1, %i1, %i1 : (!torch.int, !torch.int, !torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.reflection_pad3d %x, %p : !torch.vtensor<[1,2,4,5,6],f32>, !torch.list<int> -> !torch.vtensor<[1,2,6,7,9],f32>
  return %r : !torch.vtensor<[1,2,6,7,9],f32>
}
