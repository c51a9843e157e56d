// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs | filecheck %s
// Why each empty was (not) rewritten: the empties carry named file locations.
// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// A C++ pass after the Python one in the same pipeline.
// RUN: opt-py %s --split-input-file -p 'forall-reuse-shared-outs,canonicalize,cse' | filecheck %s --check-prefix=PIPE

// The tile forms that are rewritten: a tensor.empty destination becomes a slice of the
// shared_out at the insertion's offsets, sizes and strides.

#id = affine_map<(d0, d1) -> (d0, d1)>

// The issue: an elementwise tile computed into a fresh empty and inserted
// into the shared_out. It becomes a slice of the shared_out at the insertion's
// offsets, sizes and strides.
// CHECK-LABEL: func.func @generic_static
// CHECK: %[[OUT:.+]] = tensor.empty() : tensor<64x128xf32>
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) = (0, 0) to (64, 128) step (16, 32) shared_outs(%[[O:[a-z0-9_]+]] = %[[OUT]])
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [16, 32] [1, 1] : tensor<64x128xf32> to tensor<16x32xf32>
// CHECK-NOT: tensor.empty
// CHECK: %[[G:[a-z0-9_]+]] = linalg.generic {{.*}} outs(%[[S]] : tensor<16x32xf32>)
// CHECK: tensor.parallel_insert_slice %[[G]] into %[[O]][%[[I]], %[[J]]] [16, 32] [1, 1]
// WHY: applied to 'tensor.empty' at generic_static:1:1
// PIPE-LABEL: func.func @generic_static
// PIPE: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) {{.*}} shared_outs(%[[O:[a-z0-9_]+]] = %{{.+}})
// PIPE-NOT: tensor.empty
// PIPE: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [16, 32] [1, 1]
// PIPE-NOT: tensor.empty
// PIPE: outs(%[[S]] : tensor<16x32xf32>)
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
// CHECK-SAME: (%[[INIT:[a-z0-9_]+]]: tensor<64x128xf32>, %[[V:[a-z0-9_]+]]: f32)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) {{.*}} shared_outs(%[[O:[a-z0-9_]+]] = %[[INIT]])
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [16, 128] [1, 1]
// CHECK: %[[F:[a-z0-9_]+]] = linalg.fill ins(%[[V]] : f32) outs(%[[S]] : tensor<16x128xf32>)
// CHECK: tensor.parallel_insert_slice %[[F]] into %[[O]][%[[I]], 0] [16, 128] [1, 1]
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
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[OUT:.+]] = tensor.empty() : tensor<128x256xf32>
// CHECK: scf.forall (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) {{.*}} shared_outs(%[[O:[a-z0-9_]+]] = %[[OUT]])
// CHECK: %[[SA:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0] [32, 64] [1, 1]
// CHECK: %[[SB:.+]] = tensor.extract_slice %{{.+}}[0, %[[J]]] [64, 64] [1, 1]
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [32, 64] [1, 1] : tensor<128x256xf32> to tensor<32x64xf32>
// CHECK: %[[F:[a-z0-9_]+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S]] : tensor<32x64xf32>)
// CHECK: %[[M:[a-z0-9_]+]] = linalg.matmul ins(%[[SA]], %[[SB]] : tensor<32x64xf32>, tensor<64x64xf32>) outs(%[[F]] : tensor<32x64xf32>)
// CHECK: tensor.parallel_insert_slice %[[M]] into %[[O]][%[[I]], %[[J]]] [32, 64] [1, 1]
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
// CHECK-SAME: (%{{.+}}: tensor<100x32xf32>, %[[INIT:[a-z0-9_]+]]: tensor<100x32xf32>)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) {{.*}} shared_outs(%[[O:[a-z0-9_]+]] = %[[INIT]])
// CHECK: %[[SZ:[a-z0-9_]+]] = affine.min #{{.+}}(%[[I]])
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [%[[SZ]], 32] [1, 1] : tensor<100x32xf32> to tensor<?x32xf32>
// CHECK: %[[G:[a-z0-9_]+]] = linalg.generic {{.*}} outs(%[[S]] : tensor<?x32xf32>)
// CHECK: tensor.parallel_insert_slice %[[G]] into %[[O]][%[[I]], 0] [%[[SZ]], 32] [1, 1]
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

// Dynamic sizes that are different SSA values but constants of the same
// value are equal; a shared_out of dynamic shape.
// CHECK-LABEL: func.func @dynamic_equal_constants
// CHECK-SAME: (%{{.+}}: tensor<?x8xf32>, %[[INIT:[a-z0-9_]+]]: tensor<?x8xf32>, %{{.+}}: index)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) {{.*}} shared_outs(%[[O:[a-z0-9_]+]] = %[[INIT]])
// CHECK: arith.constant 4 : index
// CHECK: %[[C4B:.+]] = arith.constant 4 : index
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [%[[C4B]], 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
// CHECK: %[[G:.+]] = linalg.generic {{.*}} outs(%[[S]] : tensor<?x8xf32>)
// CHECK: tensor.parallel_insert_slice %[[G]] into %[[O]][%[[I]], 0] [%[[C4B]], 8] [1, 1]
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
// CHECK-SAME: (%{{.+}}: tensor<64x16xf32>, %[[I0:[a-z0-9_]+]]: tensor<64x16xf32>, %[[I1:[a-z0-9_]+]]: tensor<64x16xi32>, %[[I2:[a-z0-9_]+]]: tensor<16x64xf32>)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) {{.*}} shared_outs(%[[O0:[a-z0-9_]+]] = %[[I0]], %[[O1:[a-z0-9_]+]] = %[[I1]], %[[O2:[a-z0-9_]+]] = %[[I2]])
// CHECK: %[[SA:[a-z0-9_]+]] = tensor.extract_slice
// CHECK-NOT: tensor.empty
// CHECK: %[[S0:[a-z0-9_]+]] = tensor.extract_slice %[[O0]][%[[I]], 0] [8, 16] [1, 1]
// CHECK: %[[S1:[a-z0-9_]+]] = tensor.extract_slice %[[O1]][%[[I]], 0] [8, 16] [1, 1]
// CHECK: %[[G:[a-z0-9_]+]]:2 = linalg.generic {{.*}} outs(%[[S0]], %[[S1]] : tensor<8x16xf32>, tensor<8x16xi32>)
// CHECK-NOT: tensor.empty
// CHECK: %[[S2:[a-z0-9_]+]] = tensor.extract_slice %[[O2]][0, %[[I]]] [16, 8] [1, 1]
// CHECK: %[[T:[a-z0-9_]+]] = linalg.transpose ins(%[[SA]] : tensor<8x16xf32>) outs(%[[S2]] : tensor<16x8xf32>)
// CHECK: tensor.parallel_insert_slice %[[G]]#0 into %[[O0]][%[[I]], 0] [8, 16] [1, 1]
// CHECK: tensor.parallel_insert_slice %[[G]]#1 into %[[O1]][%[[I]], 0] [8, 16] [1, 1]
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[O2]][0, %[[I]]] [16, 8] [1, 1]
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
// CHECK-SAME: (%[[INIT:[a-z0-9_]+]]: tensor<64x32xf32>, %[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) {{.*}} shared_outs(%[[O:[a-z0-9_]+]] = %[[INIT]])
// CHECK-NOT: tensor.empty
// CHECK: %[[S0:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [8, 16] [1, 1]
// CHECK: %[[F0:.+]] = linalg.fill ins(%[[A]] : f32) outs(%[[S0]] : tensor<8x16xf32>)
// CHECK: %[[S1:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 16] [8, 16] [1, 1]
// CHECK: %[[F1:.+]] = linalg.fill ins(%[[B]] : f32) outs(%[[S1]] : tensor<8x16xf32>)
// CHECK: tensor.parallel_insert_slice %[[F0]] into %[[O]][%[[I]], 0] [8, 16] [1, 1]
// CHECK: tensor.parallel_insert_slice %[[F1]] into %[[O]][%[[I]], 16] [8, 16] [1, 1]
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
// CHECK-SAME: (%{{.+}}: tensor<64x32xf32>, %[[INIT:[a-z0-9_]+]]: tensor<64x32xf32>)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) in (64) shared_outs(%[[O:[a-z0-9_]+]] = %[[INIT]])
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [1, 32] [1, 1] : tensor<64x32xf32> to tensor<32xf32>
// CHECK: %[[G:.+]] = linalg.generic {{.*}} outs(%[[S]] : tensor<32xf32>)
// CHECK: tensor.parallel_insert_slice %[[G]] into %[[O]][%[[I]], 0] [1, 32] [1, 1]
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
// CHECK-SAME: (%[[INIT:[a-z0-9_]+]]: tensor<64x16xf32>, %[[V:[a-z0-9_]+]]: f32)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) in (4) shared_outs(%[[O:[a-z0-9_]+]] = %[[INIT]])
// CHECK: %[[OFF:[a-z0-9_]+]] = affine.apply #{{.+}}(%[[I]])
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[OFF]], 0] [8, 16] [2, 1] : tensor<64x16xf32> to tensor<8x16xf32>
// CHECK-NEXT: %[[F:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[S]] : tensor<8x16xf32>)
// CHECK: tensor.parallel_insert_slice %[[F]] into %[[O]][%[[OFF]], 0] [8, 16] [2, 1]
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
