// RUN: opt-py %s --split-input-file -p torch-roll-shift-mod-size | filecheck %s

// torch.roll(x, (7, -9), (0, 1)) of a 5x4 tensor: stock returns x. The shifts mod the sizes: 2 and 3.
// CHECK-LABEL: func.func @roll_static_beyond_the_size
// CHECK: %[[S0:.*]] = torch.constant.int 2
// CHECK: %[[S1:.*]] = torch.constant.int 3
// CHECK: %[[SH:.*]] = torch.prim.ListConstruct %[[S0]], %[[S1]]
// CHECK: %[[D0:.*]] = torch.constant.int 0
// CHECK: %[[D1:.*]] = torch.constant.int 1
// CHECK: %[[DI:.*]] = torch.prim.ListConstruct %[[D0]], %[[D1]]
// CHECK: torch.aten.roll %arg0, %[[SH]], %[[DI]]
func.func @roll_static_beyond_the_size(%x: !torch.vtensor<[5,4],f32>) -> !torch.vtensor<[5,4],f32> {
  %s0 = torch.constant.int 7
  %s1 = torch.constant.int -9
  %d0 = torch.constant.int 0
  %d1 = torch.constant.int 1
  %shifts = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[5,4],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[5,4],f32>
  return %r : !torch.vtensor<[5,4],f32>
}

// -----

// A dynamic size: the remainder at run time, of the size or 1 when it is 0.
// CHECK-LABEL: func.func @roll_dynamic_beyond_one
// CHECK: %[[N:.*]] = torch.aten.size.int %arg0, %{{.*}} : !torch.vtensor<[?,3],f32>, !torch.int -> !torch.int
// CHECK: %[[M:.*]] = torch.prim.max.int %[[N]], %{{.*}}
// CHECK: %[[S:.*]] = torch.aten.remainder.int %{{.*}}, %[[M]]
// CHECK: %[[SH:.*]] = torch.prim.ListConstruct %[[S]]
// CHECK: torch.aten.roll %arg0, %[[SH]]
func.func @roll_dynamic_beyond_one(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %s0 = torch.constant.int -7
  %d0 = torch.constant.int 0
  %shifts = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[?,3],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[?,3],f32>
  return %r : !torch.vtensor<[?,3],f32>
}

// -----

// A negative dim counts from the end; a shift by a multiple of the size rolls nothing and goes.
// CHECK-LABEL: func.func @roll_drops_a_whole_turn
// CHECK: %[[S:.*]] = torch.constant.int 1
// CHECK: %[[SH:.*]] = torch.prim.ListConstruct %[[S]] : (!torch.int) -> !torch.list<int>
// CHECK: %[[D:.*]] = torch.constant.int 0
// CHECK: %[[DI:.*]] = torch.prim.ListConstruct %[[D]] : (!torch.int) -> !torch.list<int>
// CHECK: torch.aten.roll %arg0, %[[SH]], %[[DI]]
func.func @roll_drops_a_whole_turn(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %s0 = torch.constant.int -8
  %s1 = torch.constant.int 4
  %d0 = torch.constant.int -1
  %d1 = torch.constant.int -2
  %shifts = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[3,4],f32>
  return %r : !torch.vtensor<[3,4],f32>
}

// -----

// One element rolled by -1 (stock fails to compile it): nothing left to roll, the roll is x.
// CHECK-LABEL: func.func @roll_of_one_element
// CHECK-NOT: torch.aten.roll
// CHECK: return %arg0
func.func @roll_of_one_element(%x: !torch.vtensor<[1],f32>) -> !torch.vtensor<[1],f32> {
  %s0 = torch.constant.int -1
  %d0 = torch.constant.int 0
  %shifts = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[1],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[1],f32>
  return %r : !torch.vtensor<[1],f32>
}

// -----

// Shifts inside (0, n): what the decomposition gets right; left alone.
// CHECK-LABEL: func.func @no_fold_within_the_size
// CHECK: torch.aten.roll %arg0, %{{.*}}, %{{.*}}
// CHECK-NOT: torch.aten.remainder.int
func.func @no_fold_within_the_size(%x: !torch.vtensor<[5,?],f32>) -> !torch.vtensor<[5,?],f32> {
  %s0 = torch.constant.int 3
  %s1 = torch.constant.int 1
  %d0 = torch.constant.int 0
  %d1 = torch.constant.int 1
  %shifts = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0, %d1 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[5,?],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[5,?],f32>
  return %r : !torch.vtensor<[5,?],f32>
}

// -----

// A shift that is not a constant: its value is unknown here.
// CHECK-LABEL: func.func @no_fold_runtime_shift
// CHECK: torch.prim.ListConstruct %arg1
// CHECK-NOT: torch.aten.remainder.int
func.func @no_fold_runtime_shift(%x: !torch.vtensor<[5],f32>, %n: !torch.int) -> !torch.vtensor<[5],f32> {
  %d0 = torch.constant.int 0
  %shifts = torch.prim.ListConstruct %n : (!torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[5],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[5],f32>
  return %r : !torch.vtensor<[5],f32>
}

// -----

// No dims: torch rolls the flattened tensor (and the decomposition refuses it); left alone.
// CHECK-LABEL: func.func @no_fold_flattened_roll
// CHECK: torch.aten.roll
// CHECK-NOT: torch.aten.remainder.int
func.func @no_fold_flattened_roll(%x: !torch.vtensor<[5],f32>) -> !torch.vtensor<[5],f32> {
  %s0 = torch.constant.int 7
  %shifts = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct  : () -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[5],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[5],f32>
  return %r : !torch.vtensor<[5],f32>
}

// -----

// Unranked: no sizes.
// CHECK-LABEL: func.func @no_fold_unranked
// CHECK: torch.aten.roll
// CHECK-NOT: torch.aten.remainder.int
func.func @no_fold_unranked(%x: !torch.vtensor<*,f32>) -> !torch.vtensor<*,f32> {
  %s0 = torch.constant.int 7
  %d0 = torch.constant.int 0
  %shifts = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<*,f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<*,f32>
  return %r : !torch.vtensor<*,f32>
}

// -----

// A dim out of range: an invalid program, left as it is.
// CHECK-LABEL: func.func @no_fold_dim_out_of_range
// CHECK: torch.constant.int 7
// CHECK: torch.aten.roll
func.func @no_fold_dim_out_of_range(%x: !torch.vtensor<[5],f32>) -> !torch.vtensor<[5],f32> {
  %s0 = torch.constant.int 7
  %d0 = torch.constant.int 3
  %shifts = torch.prim.ListConstruct %s0 : (!torch.int) -> !torch.list<int>
  %dims = torch.prim.ListConstruct %d0 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.roll %x, %shifts, %dims : !torch.vtensor<[5],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[5],f32>
  return %r : !torch.vtensor<[5],f32>
}
