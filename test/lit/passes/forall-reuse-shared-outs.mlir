// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs | filecheck %s
// Why each empty was (not) rewritten: the empties carry named file locations.
// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// A C++ pass after the Python one in the same pipeline.
// RUN: opt-py %s --split-input-file -p 'forall-reuse-shared-outs,canonicalize,cse' | filecheck %s --check-prefix=PIPE

#id = affine_map<(d0, d1) -> (d0, d1)>

// The issue: an elementwise tile computed into a fresh empty and inserted
// into the shared_out. It becomes a slice of the shared_out at the insertion's
// offsets, sizes and strides.
// CHECK-LABEL: func.func @generic_static
// CHECK: scf.forall ([[I:%[a-z0-9_]+]], [[J:%[a-z0-9_]+]]) = (0, 0) to (64, 128) step (16, 32) shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][[[I]], [[J]]] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
// CHECK-NOT: tensor.empty
// CHECK: [[G:%[a-z0-9_]+]] = linalg.generic {{.*}} outs([[S]] : tensor<16x32xf32>)
// CHECK: tensor.parallel_insert_slice [[G]] into [[O]][[[I]], [[J]]] [16, 32] [1, 1]
// WHY: applied to 'tensor.empty' at generic_static:1:1
// PIPE-LABEL: func.func @generic_static
// PIPE: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// PIPE-NOT: tensor.empty
// PIPE: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]]
// PIPE-NOT: tensor.empty
// PIPE: outs([[S]] : tensor<16x32xf32>)
func.func @generic_static(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %out = tensor.empty() : tensor<64x128xf32>
  %r = scf.forall (%i, %j) = (0, 0) to (64, 128) step (16, 32) shared_outs(%o = %out) -> (tensor<64x128xf32>) {
    %sa = tensor.extract_slice %a[%i, %j] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
    %sb = tensor.extract_slice %b[%i, %j] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
    %e = tensor.empty() : tensor<16x32xf32> loc("generic_static":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa, %sb : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<16x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, %j] [16, 32] [1, 1] : tensor<16x32xf32> into tensor<64x128xf32>
    }
  }
  return %r : tensor<64x128xf32>
}

// -----

// linalg.fill: its payload does not read the destination.
// CHECK-LABEL: func.func @fill
// CHECK: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 0] [16, 128] [1, 1]
// CHECK: [[F:%[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : f32) outs([[S]] : tensor<16x128xf32>)
// CHECK: tensor.parallel_insert_slice [[F]] into [[O]]
// WHY: applied to 'tensor.empty' at fill:1:1
func.func @fill(%init: tensor<64x128xf32>, %v: f32) -> tensor<64x128xf32> {
  %r = scf.forall (%i) = (0) to (64) step (16) shared_outs(%o = %init) -> (tensor<64x128xf32>) {
    %e = tensor.empty() : tensor<16x128xf32> loc("fill":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i, 0] [16, 128] [1, 1] : tensor<16x128xf32> into tensor<64x128xf32>
    }
  }
  return %r : tensor<64x128xf32>
}

// -----

// linalg.matmul accumulating into a linalg.fill of the empty (how tiling
// leaves a matmul): the chain empty -> fill -> matmul -> insert; the fill's
// destination becomes the slice and the matmul accumulates in place.
// CHECK-LABEL: func.func @fill_matmul
// CHECK: scf.forall ([[I:%[a-z0-9_]+]], [[J:%[a-z0-9_]+]]) {{.*}} shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][[[I]], [[J]]] [32, 64] [1, 1] : tensor<128x256xf32> to tensor<32x64xf32>
// CHECK: [[F:%[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : f32) outs([[S]] : tensor<32x64xf32>)
// CHECK: [[M:%[a-z0-9_]+]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x64xf32>) outs([[F]] : tensor<32x64xf32>)
// CHECK: tensor.parallel_insert_slice [[M]] into [[O]][[[I]], [[J]]] [32, 64] [1, 1]
// WHY: applied to 'tensor.empty' at fill_matmul:1:1
func.func @fill_matmul(%a: tensor<128x64xf32>, %b: tensor<64x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %out = tensor.empty() : tensor<128x256xf32>
  %r = scf.forall (%i, %j) = (0, 0) to (128, 256) step (32, 64) shared_outs(%o = %out) -> (tensor<128x256xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [32, 64] [1, 1] : tensor<128x64xf32> to tensor<32x64xf32>
    %sb = tensor.extract_slice %b[0, %j] [64, 64] [1, 1] : tensor<64x256xf32> to tensor<64x64xf32>
    %e = tensor.empty() : tensor<32x64xf32> loc("fill_matmul":1:1)
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
    %m = linalg.matmul ins(%sa, %sb : tensor<32x64xf32>, tensor<64x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[%i, %j] [32, 64] [1, 1] : tensor<32x64xf32> into tensor<128x256xf32>
    }
  }
  return %r : tensor<128x256xf32>
}

// -----

// Dynamic tiles: the last tile is smaller (affine.min). The empty's dynamic
// size is the insertion's size operand.
// CHECK-LABEL: func.func @dynamic_tile
// CHECK: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK: [[SZ:%[a-z0-9_]+]] = affine.min
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 0] [[[SZ]], 32] [1, 1] : tensor<100x32xf32> to tensor<?x32xf32>
// CHECK: [[G:%[a-z0-9_]+]] = linalg.generic {{.*}} outs([[S]] : tensor<?x32xf32>)
// CHECK: tensor.parallel_insert_slice [[G]] into [[O]][%{{.*}}, 0] [[[SZ]], 32] [1, 1]
// WHY: applied to 'tensor.empty' at dynamic_tile:1:1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_tile(%a: tensor<100x32xf32>, %init: tensor<100x32xf32>) -> tensor<100x32xf32> {
  %r = scf.forall (%i) = (0) to (100) step (16) shared_outs(%o = %init) -> (tensor<100x32xf32>) {
    %sz = affine.min affine_map<(d0) -> (16, 100 - d0)>(%i)
    %sa = tensor.extract_slice %a[%i, 0] [%sz, 32] [1, 1] : tensor<100x32xf32> to tensor<?x32xf32>
    %e = tensor.empty(%sz) : tensor<?x32xf32> loc("dynamic_tile":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<?x32xf32>) outs(%e : tensor<?x32xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<?x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, 0] [%sz, 32] [1, 1] : tensor<?x32xf32> into tensor<100x32xf32>
    }
  }
  return %r : tensor<100x32xf32>
}

// -----

// A unit-dim collapse before a rank-reducing insertion, as IREE's dispatch
// creation leaves a one-row tile: the slice takes the empty's unreduced type
// at the insertion's offsets, sizes and strides; the collapse stays. A second
// such tile of the same output (a dynamic one) is a write-only tile too, so
// both are rewritten.
// CHECK-LABEL: func.func @unit_dim_collapse
// CHECK: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 0] [1, 64] [1, 1] : tensor<8x128xf32> to tensor<1x64xf32>
// CHECK: [[G:%[a-z0-9_]+]] = linalg.generic {{.*}} outs([[S]] : tensor<1x64xf32>)
// CHECK: [[C:%[a-z0-9_]+]] = tensor.collapse_shape [[G]] {{\[}}[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
// CHECK: [[S2:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 64] [1, %{{.*}}] [1, 1] : tensor<8x128xf32> to tensor<1x?xf32>
// CHECK: [[G2:%[a-z0-9_]+]] = linalg.generic {{.*}} outs([[S2]] : tensor<1x?xf32>)
// CHECK: tensor.parallel_insert_slice [[C]] into [[O]][%{{.*}}, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<8x128xf32>
// WHY: applied to 'tensor.empty' at unit_dim_collapse:1:1
// WHY: applied to 'tensor.empty' at unit_dim_collapse:2:1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @unit_dim_collapse(%a: tensor<8x128xf32>, %n: index) -> tensor<8x128xf32> {
  %out = tensor.empty() : tensor<8x128xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %out) -> (tensor<8x128xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [1, 64] [1, 1] : tensor<8x128xf32> to tensor<1x64xf32>
    %e = tensor.empty() : tensor<1x64xf32> loc("unit_dim_collapse":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<1x64xf32>
    %c = tensor.collapse_shape %g [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
    %sb = tensor.extract_slice %a[%i, 64] [1, %n] [1, 1] : tensor<8x128xf32> to tensor<1x?xf32>
    %e2 = tensor.empty(%n) : tensor<1x?xf32> loc("unit_dim_collapse":2:1)
    %g2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sb : tensor<1x?xf32>) outs(%e2 : tensor<1x?xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.negf %x : f32
      linalg.yield %s : f32
    } -> tensor<1x?xf32>
    %c2 = tensor.collapse_shape %g2 [[0, 1]] : tensor<1x?xf32> into tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[%i, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<8x128xf32>
      tensor.parallel_insert_slice %c2 into %o[%i, 64] [1, %n] [1, 1] : tensor<?xf32> into tensor<8x128xf32>
    }
  }
  return %r : tensor<8x128xf32>
}

// -----

// Negative: the collapse merges two dims of extent > 1 (a 2x64 tile
// inserted as 128 contiguous elements): more than a view of the slice.
// CHECK-LABEL: func.func @collapse_merges_real_dims
// CHECK: tensor.empty() : tensor<2x64xf32>
// WHY: no match on 'tensor.empty' at collapse_merges_real_dims:1:1: the tile escapes: a tensor.collapse_shape in the chain merges dims of extent > 1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @collapse_merges_real_dims(%a: tensor<2x64xf32>) -> tensor<4x128xf32> {
  %out = tensor.empty() : tensor<4x128xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> (tensor<4x128xf32>) {
    %e = tensor.empty() : tensor<2x64xf32> loc("collapse_merges_real_dims":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<2x64xf32>) outs(%e : tensor<2x64xf32>) {
    ^bb0(%x: f32, %z: f32):
      linalg.yield %x : f32
    } -> tensor<2x64xf32>
    %c = tensor.collapse_shape %g [[0, 1]] : tensor<2x64xf32> into tensor<128xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[%i, 0] [1, 128] [1, 1] : tensor<128xf32> into tensor<4x128xf32>
    }
  }
  return %r : tensor<4x128xf32>
}

// -----

// Negative: a row tile (1x64) collapsed and inserted as a column ([64, 1]):
// the collapse only drops a unit dim, but a slice at the insertion's sizes
// is 64x1, not the empty's 1x64.
// CHECK-LABEL: func.func @collapse_into_other_shape
// CHECK: tensor.empty() : tensor<1x64xf32>
// WHY: no match on 'tensor.empty' at collapse_into_other_shape:1:1: the empty's type tensor<1x64xf32> is not the inserted type tensor<64xf32> nor the shape of the insertion's sizes
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @collapse_into_other_shape(%a: tensor<1x64xf32>) -> tensor<64x8xf32> {
  %out = tensor.empty() : tensor<64x8xf32>
  %r = scf.forall (%j) in (8) shared_outs(%o = %out) -> (tensor<64x8xf32>) {
    %e = tensor.empty() : tensor<1x64xf32> loc("collapse_into_other_shape":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
    ^bb0(%x: f32, %z: f32):
      linalg.yield %x : f32
    } -> tensor<1x64xf32>
    %c = tensor.collapse_shape %g [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[0, %j] [64, 1] [1, 1] : tensor<64xf32> into tensor<64x8xf32>
    }
  }
  return %r : tensor<64x8xf32>
}

// -----

// Negative: the collapsed tile is used again before it is inserted (by a
// generic writing it into another empty), so the collapse is not inserted
// directly; that second empty's chain has no collapse and is rewritten.
// CHECK-LABEL: func.func @collapse_not_inserted_directly
// CHECK: scf.forall ([[I:%[a-z0-9_]+]]) in (8) shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK: tensor.empty() : tensor<1x64xf32>
// CHECK: [[C:%[a-z0-9_]+]] = tensor.collapse_shape
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][[[I]], 0] [1, 64] [1, 1] : tensor<8x64xf32> to tensor<64xf32>
// CHECK: [[H:%[a-z0-9_]+]] = linalg.generic {{.*}} ins([[C]] : tensor<64xf32>) outs([[S]] : tensor<64xf32>)
// CHECK: tensor.parallel_insert_slice [[H]] into [[O]][[[I]], 0] [1, 64] [1, 1]
// WHY: no match on 'tensor.empty' at collapse_not_inserted_directly:1:1: the tile escapes: a tensor.collapse_shape in the chain is not inserted directly
// WHY: applied to 'tensor.empty' at collapse_not_inserted_directly:2:1
#id1 = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @collapse_not_inserted_directly(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %out = tensor.empty() : tensor<8x64xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %out) -> (tensor<8x64xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [1, 64] [1, 1] : tensor<8x64xf32> to tensor<1x64xf32>
    %e = tensor.empty() : tensor<1x64xf32> loc("collapse_not_inserted_directly":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
    ^bb0(%x: f32, %z: f32):
      linalg.yield %x : f32
    } -> tensor<1x64xf32>
    %c = tensor.collapse_shape %g [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
    %e2 = tensor.empty() : tensor<64xf32> loc("collapse_not_inserted_directly":2:1)
    %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%c : tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %h into %o[%i, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<8x64xf32>
    }
  }
  return %r : tensor<8x64xf32>
}

// -----

// Dynamic sizes that are different SSA values but constants of the same
// value are equal; a shared_out of dynamic shape.
// CHECK-LABEL: func.func @dynamic_equal_constants
// CHECK: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 0] [%{{.*}}, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
// CHECK: linalg.generic {{.*}} outs([[S]] : tensor<?x8xf32>)
// WHY: applied to 'tensor.empty' at dynamic_equal_constants:1:1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_equal_constants(%a: tensor<?x8xf32>, %init: tensor<?x8xf32>, %n: index) -> tensor<?x8xf32> {
  %r = scf.forall (%i) = (0) to (%n) step (4) shared_outs(%o = %init) -> (tensor<?x8xf32>) {
    %c4 = arith.constant 4 : index
    %c4b = arith.constant 4 : index
    %sa = tensor.extract_slice %a[%i, 0] [%c4, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
    %e = tensor.empty(%c4) : tensor<?x8xf32> loc("dynamic_equal_constants":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.negf %x : f32
      linalg.yield %s : f32
    } -> tensor<?x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, 0] [%c4b, 8] [1, 1] : tensor<?x8xf32> into tensor<?x8xf32>
    }
  }
  return %r : tensor<?x8xf32>
}

// -----

// Several shared_outs, each with its own tile; and one multi-result generic
// whose destinations are tied to the results inserted into the matching outputs.
// CHECK-LABEL: func.func @several_shared_outs
// CHECK: shared_outs([[O0:%[a-z0-9_]+]] = %{{.*}}, [[O1:%[a-z0-9_]+]] = %{{.*}}, [[O2:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S0:%[a-z0-9_]+]] = tensor.extract_slice [[O0]][%{{.*}}, 0] [8, 16] [1, 1]
// CHECK: [[S1:%[a-z0-9_]+]] = tensor.extract_slice [[O1]][%{{.*}}, 0] [8, 16] [1, 1]
// CHECK: [[G:%[a-z0-9_]+]]:2 = linalg.generic {{.*}} outs([[S0]], [[S1]] : tensor<8x16xf32>, tensor<8x16xi32>)
// CHECK-NOT: tensor.empty
// CHECK: [[S2:%[a-z0-9_]+]] = tensor.extract_slice [[O2]][0, %{{.*}}] [16, 8] [1, 1]
// CHECK: [[T:%[a-z0-9_]+]] = linalg.transpose ins(%{{.*}} : tensor<8x16xf32>) outs([[S2]] : tensor<16x8xf32>)
// CHECK: tensor.parallel_insert_slice [[G]]#0 into [[O0]]
// CHECK: tensor.parallel_insert_slice [[G]]#1 into [[O1]]
// CHECK: tensor.parallel_insert_slice [[T]] into [[O2]]
// WHY: applied to 'tensor.empty' at several_shared_outs_0:1:1
// WHY: applied to 'tensor.empty' at several_shared_outs_1:1:1
// WHY: applied to 'tensor.empty' at several_shared_outs_2:1:1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @several_shared_outs(%a: tensor<64x16xf32>, %i0: tensor<64x16xf32>, %i1: tensor<64x16xi32>, %i2: tensor<16x64xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xi32>, tensor<16x64xf32>) {
  %r:3 = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o0 = %i0, %o1 = %i1, %o2 = %i2)
      -> (tensor<64x16xf32>, tensor<64x16xi32>, tensor<16x64xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %e0 = tensor.empty() : tensor<8x16xf32> loc("several_shared_outs_0":1:1)
    %e1 = tensor.empty() : tensor<8x16xi32> loc("several_shared_outs_1":1:1)
    %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<8x16xf32>) outs(%e0, %e1 : tensor<8x16xf32>, tensor<8x16xi32>) {
    ^bb0(%x: f32, %z0: f32, %z1: i32):
      %s = arith.addf %x, %x : f32
      %t = arith.fptosi %x : f32 to i32
      linalg.yield %s, %t : f32, i32
    } -> (tensor<8x16xf32>, tensor<8x16xi32>)
    %e2 = tensor.empty() : tensor<16x8xf32> loc("several_shared_outs_2":1:1)
    %t = linalg.transpose ins(%sa : tensor<8x16xf32>) outs(%e2 : tensor<16x8xf32>) permutation = [1, 0]
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g#0 into %o0[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %g#1 into %o1[%i, 0] [8, 16] [1, 1] : tensor<8x16xi32> into tensor<64x16xi32>
      tensor.parallel_insert_slice %t into %o2[0, %i] [16, 8] [1, 1] : tensor<16x8xf32> into tensor<16x64xf32>
    }
  }
  return %r#0, %r#1, %r#2 : tensor<64x16xf32>, tensor<64x16xi32>, tensor<16x64xf32>
}

// -----

// Two tiles of one shared_out (two halves of a row block): after the first is
// rewritten, its slice is a write-only tile, which does not stop the second.
// CHECK-LABEL: func.func @two_tiles_one_out
// CHECK: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S0:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 0] [8, 16] [1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[S0]] : tensor<8x16xf32>)
// CHECK: [[S1:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 16] [8, 16] [1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[S1]] : tensor<8x16xf32>)
// WHY: applied to 'tensor.empty' at two_tiles_one_out_0:1:1
// WHY: applied to 'tensor.empty' at two_tiles_one_out_1:1:1
func.func @two_tiles_one_out(%init: tensor<64x32xf32>, %v: f32, %w: f32) -> tensor<64x32xf32> {
  %r = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o = %init) -> (tensor<64x32xf32>) {
    %e0 = tensor.empty() : tensor<8x16xf32> loc("two_tiles_one_out_0":1:1)
    %f0 = linalg.fill ins(%v : f32) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %e1 = tensor.empty() : tensor<8x16xf32> loc("two_tiles_one_out_1":1:1)
    %f1 = linalg.fill ins(%w : f32) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f0 into %o[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x32xf32>
      tensor.parallel_insert_slice %f1 into %o[%i, 16] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x32xf32>
    }
  }
  return %r : tensor<64x32xf32>
}

// -----

// Rank-reducing insertion (one row per iteration): the slice is the same
// rank-reducing extraction, of the empty's type.
// CHECK-LABEL: func.func @rank_reducing
// CHECK: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][%{{.*}}, 0] [1, 32] [1, 1] : tensor<64x32xf32> to tensor<32xf32>
// CHECK: linalg.generic {{.*}} outs([[S]] : tensor<32xf32>)
// WHY: applied to 'tensor.empty' at rank_reducing:1:1
func.func @rank_reducing(%a: tensor<64x32xf32>, %init: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = scf.forall (%i) in (64) shared_outs(%o = %init) -> (tensor<64x32xf32>) {
    %row = tensor.extract_slice %a[%i, 0] [1, 32] [1, 1] : tensor<64x32xf32> to tensor<32xf32>
    %e = tensor.empty() : tensor<32xf32> loc("rank_reducing":1:1)
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%row : tensor<32xf32>) outs(%e : tensor<32xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = math.exp %x : f32
      linalg.yield %s : f32
    } -> tensor<32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, 0] [1, 32] [1, 1] : tensor<32xf32> into tensor<64x32xf32>
    }
  }
  return %r : tensor<64x32xf32>
}

// -----

// Strided slices, and offsets computed after the empty: the slice goes right
// before the op that uses the empty, where the offsets exist.
// CHECK-LABEL: func.func @strided_offsets_after_empty
// CHECK: shared_outs([[O:%[a-z0-9_]+]] = %{{.*}})
// CHECK: [[OFF:%[a-z0-9_]+]] = affine.apply
// CHECK-NOT: tensor.empty
// CHECK: [[S:%[a-z0-9_]+]] = tensor.extract_slice [[O]][[[OFF]], 0] [8, 16] [2, 1] : tensor<64x16xf32> to tensor<8x16xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs([[S]] : tensor<8x16xf32>)
// WHY: applied to 'tensor.empty' at strided_offsets_after_empty:1:1
func.func @strided_offsets_after_empty(%init: tensor<64x16xf32>, %v: f32) -> tensor<64x16xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<64x16xf32>) {
    %e = tensor.empty() : tensor<8x16xf32> loc("strided_offsets_after_empty":1:1)
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off, 0] [8, 16] [2, 1] : tensor<8x16xf32> into tensor<64x16xf32>
    }
  }
  return %r : tensor<64x16xf32>
}

// -----

// Precondition 1: the empty must sit directly in an scf.forall body (here it
// is in a function body and in an scf.for inside the loop).
// CHECK-LABEL: func.func @no_forall
// CHECK: tensor.empty() : tensor<16xf32>
// CHECK: scf.for
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<4xf32>)
// WHY: no match on 'tensor.empty' at no_forall_0:1:1: not directly in the body of an scf.forall
// WHY: no match on 'tensor.empty' at no_forall_1:1:1: not directly in the body of an scf.forall
func.func @no_forall(%init: tensor<64xf32>, %v: f32) -> (tensor<16xf32>, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<16xf32> loc("no_forall_0":1:1)
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %t = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %o) -> (tensor<64xf32>) {
      %e2 = tensor.empty() : tensor<4xf32> loc("no_forall_1":1:1)
      %f2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
      %ins = tensor.insert_slice %f2 into %acc[%k] [4] [1] : tensor<4xf32> into tensor<64xf32>
      scf.yield %ins : tensor<64xf32>
    }
    %s = tensor.extract_slice %t[0] [8] [1] : tensor<64xf32> to tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %f, %r : tensor<16xf32>, tensor<64xf32>
}

// -----

// Precondition 1: the empty has other uses (a second op also writes into it).
// (An empty with no use at all is dead code, which the pass leaves alone.)
// CHECK-LABEL: func.func @empty_other_uses
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<16xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<16xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<16xf32>)
// WHY: no match on 'tensor.empty' at empty_other_uses:1:1: the empty has other uses
func.func @empty_other_uses(%init: tensor<64xf32>, %init2: tensor<64xf32>, %v: f32, %w: f32) -> (tensor<64xf32>, tensor<64xf32>) {
  %r:2 = scf.forall (%i) in (4) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64xf32>, tensor<64xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    %e = tensor.empty() : tensor<16xf32> loc("empty_other_uses":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %g = linalg.fill ins(%w : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off] [16] [1] : tensor<16xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %g into %o2[%off] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Precondition 1: the empty is an input of the op, not its destination.
// CHECK-LABEL: func.func @empty_as_input
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<16xf32>
// CHECK: linalg.copy ins([[E]] : tensor<16xf32>)
// WHY: no match on 'tensor.empty' at empty_as_input:1:1: the empty is an input, not a destination, of its user
func.func @empty_as_input(%init: tensor<64xf32>, %b: tensor<16xf32>) -> tensor<64xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %e = tensor.empty() : tensor<16xf32> loc("empty_as_input":1:1)
    %c = linalg.copy ins(%e : tensor<16xf32>) outs(%b : tensor<16xf32>) -> tensor<16xf32>
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[%off] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}

// -----

// Precondition 1: the op is not a linalg op with a payload (linalg.softmax has
// none; nothing says which operand its result is tied to), or there is no op
// at all (the empty itself is inserted).
// CHECK-LABEL: func.func @not_linalg_payload
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<4x16xf32>
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<4x16xf32>) outs([[E]] : tensor<4x16xf32>)
// CHECK: [[E2:%[a-z0-9_]+]] = tensor.empty() : tensor<4x16xf32>
// CHECK: tensor.parallel_insert_slice [[E2]]
// WHY: no match on 'tensor.empty' at not_linalg_payload_0:1:1: 'linalg.softmax' is not a linalg op with a payload
// WHY: no match on 'tensor.empty' at not_linalg_payload_1:1:1: the empty is not the destination of a linalg op
func.func @not_linalg_payload(%a: tensor<64x16xf32>, %init: tensor<64x16xf32>, %init2: tensor<64x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %r:2 = scf.forall (%i) = (0) to (64) step (4) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [4, 16] [1, 1] : tensor<64x16xf32> to tensor<4x16xf32>
    %e = tensor.empty() : tensor<4x16xf32> loc("not_linalg_payload_0":1:1)
    %s = linalg.softmax dimension(1) ins(%sa : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %e2 = tensor.empty() : tensor<4x16xf32> loc("not_linalg_payload_1":1:1)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %e2 into %o2[%i, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Precondition 2: the op reads its destination (a generic whose payload uses
// the outs argument; a matmul accumulating straight into the empty).
// CHECK-LABEL: func.func @reads_destination
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.generic {{.*}} outs([[E]] : tensor<8x16xf32>)
// CHECK: [[E2:%[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.matmul {{.*}} outs([[E2]] : tensor<8x16xf32>)
// WHY: no match on 'tensor.empty' at reads_destination_0:1:1: 'linalg.generic' reads its destination
// WHY: no match on 'tensor.empty' at reads_destination_1:1:1: 'linalg.matmul' reads its destination
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reads_destination(%a: tensor<64x16xf32>, %b: tensor<16x16xf32>, %init: tensor<64x16xf32>, %init2: tensor<64x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %r:2 = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %e = tensor.empty() : tensor<8x16xf32> loc("reads_destination_0":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %z : f32
      linalg.yield %s : f32
    } -> tensor<8x16xf32>
    %e2 = tensor.empty() : tensor<8x16xf32> loc("reads_destination_1":1:1)
    %m = linalg.matmul ins(%sa, %b : tensor<8x16xf32>, tensor<16x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %m into %o2[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Precondition 2, unwritten part: the output map (d0) -> (d0, 0) writes
// column 0 only; column 1 keeps the destination's contents, which the empty
// leaves undefined and a slice of the output would define.
// CHECK-LABEL: func.func @partial_write
// CHECK: tensor.empty() : tensor<16x2xf32>
// WHY: no match on 'tensor.empty' at partial_write:1:1: 'linalg.generic' reads its destination, or leaves part of it unwritten
func.func @partial_write(%a: tensor<64xf32>, %out: tensor<64x2xf32>) -> tensor<64x2xf32> {
  %r = scf.forall (%i) = (0) to (64) step (16) shared_outs(%o = %out) -> (tensor<64x2xf32>) {
    %sa = tensor.extract_slice %a[%i] [16] [1] : tensor<64xf32> to tensor<16xf32>
    %e = tensor.empty() : tensor<16x2xf32> loc("partial_write":1:1)
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0, 0)>],
                         iterator_types = ["parallel"]}
        ins(%sa : tensor<16xf32>) outs(%e : tensor<16x2xf32>) {
    ^bb0(%x: f32, %z: f32):
      linalg.yield %x : f32
    } -> tensor<16x2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, 0] [16, 2] [1, 1] : tensor<16x2xf32> into tensor<64x2xf32>
    }
  }
  return %r : tensor<64x2xf32>
}

// -----

// Precondition 3: the tile escapes: its result is also read by another op
// (here a reduction), or the chain continues as an input, not a destination.
// CHECK-LABEL: func.func @escapes
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<8x16xf32>)
// CHECK: [[E2:%[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E2]] : tensor<8x16xf32>)
// WHY: no match on 'tensor.empty' at escapes_0:1:1: the tile escapes: a result in the chain to parallel_insert_slice has other uses
// WHY: no match on 'tensor.empty' at escapes_1:1:1: the tile escapes: a result in the chain is an input of another op
func.func @escapes(%init: tensor<64x16xf32>, %init2: tensor<64xf32>, %init3: tensor<64x16xf32>, %v: f32)
    -> (tensor<64x16xf32>, tensor<64xf32>, tensor<64x16xf32>) {
  %r:3 = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o = %init, %o2 = %init2, %o3 = %init3)
      -> (tensor<64x16xf32>, tensor<64xf32>, tensor<64x16xf32>) {
    %e = tensor.empty() : tensor<8x16xf32> loc("escapes_0":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    %acc = tensor.extract_slice %o2[%i] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %sum = linalg.reduce { arith.addf } ins(%f : tensor<8x16xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    %e2 = tensor.empty() : tensor<8x16xf32> loc("escapes_1":1:1)
    %f2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %dst = tensor.extract_slice %o3[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %c = linalg.copy ins(%f2 : tensor<8x16xf32>) outs(%dst : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %sum into %o2[%i] [8] [1] : tensor<8xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %c into %o3[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1, %r#2 : tensor<64x16xf32>, tensor<64xf32>, tensor<64x16xf32>
}

// -----

// Precondition 3 (multi-result op): the empty is the destination of result 0,
// but only result 1 is inserted; the other empty's result is inserted, but
// also read by a later op.
// CHECK-LABEL: func.func @multi_result_wrong_destination
// CHECK: [[E0:%[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: [[E1:%[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.generic {{.*}} outs([[E0]], [[E1]] : tensor<8x16xf32>, tensor<8x16xf32>)
// WHY: no match on 'tensor.empty' at multi_result_0:1:1: the result tied to the destination is unused: nothing is written back
// WHY: no match on 'tensor.empty' at multi_result_1:1:1: the tile escapes: a result in the chain to parallel_insert_slice has other uses
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @multi_result_wrong_destination(%a: tensor<64x16xf32>, %init: tensor<64x16xf32>, %init2: tensor<64x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %r:2 = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %e0 = tensor.empty() : tensor<8x16xf32> loc("multi_result_0":1:1)
    %e1 = tensor.empty() : tensor<8x16xf32> loc("multi_result_1":1:1)
    %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<8x16xf32>) outs(%e0, %e1 : tensor<8x16xf32>, tensor<8x16xf32>) {
    ^bb0(%x: f32, %z0: f32, %z1: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s, %x : f32, f32
    } -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %dst = tensor.extract_slice %o2[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %c = linalg.copy ins(%g#1 : tensor<8x16xf32>) outs(%dst : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g#1 into %o[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %c into %o2[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Precondition 4: the tile is inserted by another scf.forall (an inner one),
// not by the loop whose body holds the empty.
// CHECK-LABEL: func.func @inserted_by_another_forall
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at inserted_by_another_forall:1:1: the parallel_insert_slice is not in this scf.forall's terminator
func.func @inserted_by_another_forall(%init: tensor<64xf32>, %inner: tensor<32xf32>, %v: f32) -> (tensor<64xf32>, tensor<32xf32>) {
  %r:2 = scf.forall (%i) in (2) shared_outs(%o = %init, %q = %inner) -> (tensor<64xf32>, tensor<32xf32>) {
    %e = tensor.empty() : tensor<8xf32> loc("inserted_by_another_forall":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %n = scf.forall (%j) in (4) shared_outs(%p = %q) -> (tensor<32xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %f into %p[%off] [8] [1] : tensor<8xf32> into tensor<32xf32>
      }
    }
    %off2 = affine.apply affine_map<(d0) -> (d0 * 32)>(%i)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %n into %o[%off2] [32] [1] : tensor<32xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1 : tensor<64xf32>, tensor<32xf32>
}

// -----

// Precondition 5: the empty's dynamic size is not the insertion's size (a
// different value, not provably equal).
// CHECK-LABEL: func.func @dynamic_size_mismatch
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<?xf32>)
// WHY: no match on 'tensor.empty' at dynamic_size_mismatch:1:1: the empty's dynamic sizes are not the sizes of the parallel_insert_slice
func.func @dynamic_size_mismatch(%init: tensor<64xf32>, %v: f32, %n: index, %m: index) -> tensor<64xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32> loc("dynamic_size_mismatch":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [%m] [1] : tensor<?xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}

// -----

// Precondition 6: the shared_out is read elsewhere in the loop: a neighbour's
// slice (a halo) read by the tile computation, which writing the tile in
// place could clobber.
// CHECK-LABEL: func.func @shared_out_read
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.generic {{.*}} outs([[E]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at shared_out_read:1:1: the shared_out is read elsewhere in the loop body (by 'tensor.extract_slice')
func.func @shared_out_read(%init: tensor<72xf32>) -> tensor<72xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<72xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %next = affine.apply affine_map<(d0) -> (d0 * 8 + 1)>(%i)
    %halo = tensor.extract_slice %o[%next] [8] [1] : tensor<72xf32> to tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32> loc("shared_out_read":1:1)
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%halo : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%off] [8] [1] : tensor<8xf32> into tensor<72xf32>
    }
  }
  return %r : tensor<72xf32>
}

// -----

// Precondition 6, conservatively: any other use of the shared_out counts as a
// read (a tensor.dim), and so does a write-only-looking slice that is inserted
// back at other offsets than it was taken from.
// CHECK-LABEL: func.func @shared_out_other_uses
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<?xf32>)
// CHECK: [[E2:%[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E2]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at shared_out_dim:1:1: the shared_out is read elsewhere in the loop body (by 'tensor.dim')
// WHY: no match on 'tensor.empty' at shared_out_mismatched_slice:1:1: the shared_out is read elsewhere in the loop body (by 'tensor.extract_slice')
func.func @shared_out_other_uses(%init: tensor<?xf32>, %init2: tensor<64xf32>, %v: f32) -> (tensor<?xf32>, tensor<64xf32>) {
  %r:2 = scf.forall (%i) in (4) shared_outs(%o = %init, %o2 = %init2) -> (tensor<?xf32>, tensor<64xf32>) {
    %c0 = arith.constant 0 : index
    %d = tensor.dim %o, %c0 : tensor<?xf32>
    %e = tensor.empty(%d) : tensor<?xf32> loc("shared_out_dim":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    %off8 = affine.apply affine_map<(d0) -> (d0 * 16 + 8)>(%i)
    %s = tensor.extract_slice %o2[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %f1 = linalg.fill ins(%v : f32) outs(%s : tensor<8xf32>) -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32> loc("shared_out_mismatched_slice":1:1)
    %f2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[0] [%d] [1] : tensor<?xf32> into tensor<?xf32>
      tensor.parallel_insert_slice %f1 into %o2[%off8] [8] [1] : tensor<8xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %f2 into %o2[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<64xf32>
}

// -----

// Precondition 7: the shared_out's initial value is read inside the loop (it
// is the same buffer once bufferized in place), or starts two shared_outs.
// CHECK-LABEL: func.func @initial_value_read
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.generic {{.*}} outs([[E]] : tensor<8xf32>)
// CHECK: [[E2:%[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E2]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at initial_value_read:1:1: the shared_out's initial value is used inside the loop (by 'tensor.extract_slice')
// WHY: no match on 'tensor.empty' at initial_value_twice:1:1: the shared_out's initial value is also the initial value of another shared_out
func.func @initial_value_read(%init: tensor<64xf32>, %init2: tensor<64xf32>, %v: f32) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %r:3 = scf.forall (%i) in (8) shared_outs(%o = %init, %p = %init2, %q = %init2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %rev = affine.apply affine_map<(d0) -> (56 - d0 * 8)>(%i)
    %src = tensor.extract_slice %init[%rev] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32> loc("initial_value_read":1:1)
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32> loc("initial_value_twice":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %f into %p[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1, %r#2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Precondition 8: the insertion's offset is computed after the op that uses
// the empty, so no slice can be taken before that op.
// CHECK-LABEL: func.func @offsets_defined_late
// CHECK: [[E:%[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs([[E]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at offsets_defined_late:1:1: the slice's offsets, sizes or strides are defined after the op using the empty
func.func @offsets_defined_late(%init: tensor<64xf32>, %v: f32) -> tensor<64xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %e = tensor.empty() : tensor<8xf32> loc("offsets_defined_late":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}

// -----

// Precondition 1: linalg.softmax has no payload region, so nothing says
// whether it reads its destination: its empty stays.
// CHECK-LABEL: func.func @softmax_destination
// CHECK: tensor.empty() : tensor<4x32xf32>
// CHECK: linalg.softmax
// WHY: no match on 'tensor.empty' at softmax_destination:1:1: 'linalg.softmax' is not a linalg op with a payload
func.func @softmax_destination(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %out = tensor.empty() : tensor<64x32xf32>
  %r = scf.forall (%i) = (0) to (64) step (4) shared_outs(%o = %out) -> (tensor<64x32xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [4, 32] [1, 1] : tensor<64x32xf32> to tensor<4x32xf32>
    %e = tensor.empty() : tensor<4x32xf32> loc("softmax_destination":1:1)
    %s = linalg.softmax dimension(1) ins(%sa : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<64x32xf32>
    }
  }
  return %r : tensor<64x32xf32>
}
