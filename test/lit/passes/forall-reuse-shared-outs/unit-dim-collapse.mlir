// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs | filecheck %s
// Why each empty was (not) rewritten: the empties carry named file locations.
// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// A tile collapsed before a rank-reducing insertion (IREE's one-row tiles): only a
// collapse that drops unit dims and is inserted directly keeps the tile in place.

// A unit-dim collapse before a rank-reducing insertion, as IREE's dispatch
// creation leaves a one-row tile: the slice takes the empty's unreduced type
// at the insertion's offsets, sizes and strides; the collapse stays. A second
// such tile of the same output (a dynamic one) is a write-only tile too, so
// both are rewritten.
// CHECK-LABEL: func.func @unit_dim_collapse
// CHECK-SAME: (%{{.+}}: tensor<8x128xf32>, %[[N:[a-z0-9_]+]]: index)
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) in (8) shared_outs(%[[O:[a-z0-9_]+]] = %{{.+}})
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [1, 64] [1, 1] : tensor<8x128xf32> to tensor<1x64xf32>
// CHECK: %[[G:[a-z0-9_]+]] = linalg.generic {{.*}} outs(%[[S]] : tensor<1x64xf32>)
// CHECK: %[[C:[a-z0-9_]+]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
// CHECK: %[[S2:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 64] [1, %[[N]]] [1, 1] : tensor<8x128xf32> to tensor<1x?xf32>
// CHECK: %[[G2:[a-z0-9_]+]] = linalg.generic {{.*}} outs(%[[S2]] : tensor<1x?xf32>)
// CHECK: %[[C2:[a-z0-9_]+]] = tensor.collapse_shape %[[G2]]
// CHECK: tensor.parallel_insert_slice %[[C]] into %[[O]][%[[I]], 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<8x128xf32>
// CHECK: tensor.parallel_insert_slice %[[C2]] into %[[O]][%[[I]], 64] [1, %[[N]]] [1, 1] : tensor<?xf32> into tensor<8x128xf32>
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
// CHECK-LABEL: func.func @no_collapse_merges_real_dims
// CHECK: tensor.empty() : tensor<2x64xf32>
// WHY: no match on 'tensor.empty' at no_collapse_merges_real_dims:1:1: the tile escapes: a tensor.collapse_shape in the chain merges dims of extent > 1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_collapse_merges_real_dims(%a: tensor<2x64xf32>) -> tensor<4x128xf32> {
  %out = tensor.empty() : tensor<4x128xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> (tensor<4x128xf32>) {
    %e = tensor.empty() : tensor<2x64xf32> loc("no_collapse_merges_real_dims":1:1)
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
// CHECK-LABEL: func.func @no_collapse_into_other_shape
// CHECK: tensor.empty() : tensor<1x64xf32>
// WHY: no match on 'tensor.empty' at no_collapse_into_other_shape:1:1: the empty's type tensor<1x64xf32> is not the inserted type tensor<64xf32> nor the shape of the insertion's sizes
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_collapse_into_other_shape(%a: tensor<1x64xf32>) -> tensor<64x8xf32> {
  %out = tensor.empty() : tensor<64x8xf32>
  %r = scf.forall (%j) in (8) shared_outs(%o = %out) -> (tensor<64x8xf32>) {
    %e = tensor.empty() : tensor<1x64xf32> loc("no_collapse_into_other_shape":1:1)
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
// CHECK-LABEL: func.func @no_collapse_not_inserted_directly
// CHECK: scf.forall (%[[I:[a-z0-9_]+]]) in (8) shared_outs(%[[O:[a-z0-9_]+]] = %{{.*}})
// CHECK: tensor.empty() : tensor<1x64xf32>
// CHECK: %[[C:[a-z0-9_]+]] = tensor.collapse_shape
// CHECK-NOT: tensor.empty
// CHECK: %[[S:[a-z0-9_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [1, 64] [1, 1] : tensor<8x64xf32> to tensor<64xf32>
// CHECK: %[[H:[a-z0-9_]+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<64xf32>) outs(%[[S]] : tensor<64xf32>)
// CHECK: tensor.parallel_insert_slice %[[H]] into %[[O]][%[[I]], 0] [1, 64] [1, 1]
// WHY: no match on 'tensor.empty' at no_collapse_not_inserted_directly:1:1: the tile escapes: a tensor.collapse_shape in the chain is not inserted directly
// WHY: applied to 'tensor.empty' at no_collapse_not_inserted_directly:2:1
#id1 = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_collapse_not_inserted_directly(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %out = tensor.empty() : tensor<8x64xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %out) -> (tensor<8x64xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [1, 64] [1, 1] : tensor<8x64xf32> to tensor<1x64xf32>
    %e = tensor.empty() : tensor<1x64xf32> loc("no_collapse_not_inserted_directly":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
    ^bb0(%x: f32, %z: f32):
      linalg.yield %x : f32
    } -> tensor<1x64xf32>
    %c = tensor.collapse_shape %g [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
    %e2 = tensor.empty() : tensor<64xf32> loc("no_collapse_not_inserted_directly":2:1)
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
