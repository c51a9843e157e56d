// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic | filecheck %s
// Why each negative case is left alone (the precondition that failed):
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// partial=false: a reshape whose groups do not all qualify stays.
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-generic{partial=false}' | filecheck %s --check-prefix=WHOLE
// expand=false: only collapse_shape is folded.
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-generic{expand=false}' | filecheck %s --check-prefix=NOEXP

// The issue's shape: generic -> collapse_shape -> generic. The producer now
// runs over the collapsed loops on collapsed operands; the consumer reads it
// directly and no reshape sits between them.
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[A]] : tensor<32xf32>) outs(%{{.*}} : tensor<32xf32>)
// CHECK: arith.mulf
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<32xf32>)
// CHECK: return %[[C]]
func.func @chain(%a: tensor<4x8xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %c = tensor.collapse_shape %p [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e2 = tensor.empty() : tensor<32xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<32xf32>) outs(%e2 : tensor<32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  return %q : tensor<32xf32>
}

// -----

// A broadcast operand collapses with the group; linalg.index of the inner
// collapsed loop is the new index modulo its extent.
// CHECK-DAG: affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @broadcast_and_index
// CHECK-DAG: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
// CHECK-DAG: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<32x16xf32>, tensor<32xf32>)
// CHECK: %[[J:.*]] = linalg.index 0 : index
// CHECK: %[[I:.*]] = arith.remui %[[J]], %[[C8]] : index
// CHECK: arith.index_cast %[[I]] : index to i32
// CHECK: } -> tensor<32x16xf32>
// CHECK-NOT: tensor.collapse_shape
// CHECK: return %[[G]] : tensor<32x16xf32>
func.func @broadcast_and_index(%a: tensor<4x8x16xf32>, %b: tensor<4x8xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<4x8x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<4x8x16xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %f : f32
    linalg.yield %t : f32
  } -> tensor<4x8x16xf32>
  %c = tensor.collapse_shape %g [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  return %c : tensor<32x16xf32>
}

// -----

// Dynamic dims: three loops into one; each linalg.index is delinearized with
// the original extents, the dynamic one read with tensor.dim before the generic.
// CHECK-LABEL: func.func @dynamic_index
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<?x?x5xf32> into tensor<?xf32>
// CHECK: %[[O:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<?x?x5xf32> into tensor<?xf32>
// CHECK: %[[N1:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?x5xf32>
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[A]] : tensor<?xf32>) outs(%[[O]] : tensor<?xf32>)
// CHECK: %[[J0:.*]] = linalg.index 0 : index
// CHECK: %[[Q0:.*]] = arith.divui %[[J0]], %[[N1]] : index
// CHECK: %[[I0:.*]] = arith.divui %[[Q0]], %[[C5]] : index
// CHECK: %[[J1:.*]] = linalg.index 0 : index
// CHECK: %[[Q1:.*]] = arith.divui %[[J1]], %[[C5]] : index
// CHECK: %[[I1:.*]] = arith.remui %[[Q1]], %[[N1]] : index
// CHECK: %[[J2:.*]] = linalg.index 0 : index
// CHECK: %[[I2:.*]] = arith.remui %[[J2]], %[[C5]] : index
// CHECK: %[[S:.*]] = arith.addi %[[I0]], %[[I1]] : index
// CHECK: arith.addi %[[S]], %[[I2]] : index
// CHECK: return %[[G]] : tensor<?xf32>
func.func @dynamic_index(%a: tensor<?x?x5xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?x5xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?x5xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?x5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<?x?x5xf32>) outs(%e : tensor<?x?x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %s = arith.addi %i0, %i1 : index
    %t = arith.addi %s, %i2 : index
    %u = arith.index_cast %t : index to i32
    %f = arith.sitofp %u : i32 to f32
    %r = arith.addf %x, %f : f32
    linalg.yield %r : f32
  } -> tensor<?x?x5xf32>
  %c = tensor.collapse_shape %g [[0, 1, 2]] : tensor<?x?x5xf32> into tensor<?xf32>
  return %c : tensor<?xf32>
}

// -----

// A transposed output: the group is the loops (d1, d0) in map order, which the
// input lists in the same order; d1 leads the collapsed loop.
// CHECK-LABEL: func.func @transposed
// CHECK-DAG: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[A]] : tensor<32xf32>)
// CHECK: %[[J:.*]] = linalg.index 0 : index
// CHECK: %[[I:.*]] = arith.remui %[[J]], %[[C8]] : index
// CHECK: arith.index_cast %[[I]]
// CHECK: return %[[G]]
func.func @transposed(%a: tensor<4x8xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.addf %x, %f : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %c = tensor.collapse_shape %g [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// Partial fold: (d2, d3) is not preserved in %b's map (d3 alone), so only
// (d0, d1) collapses and a smaller collapse_shape merges the rest.
// CHECK-LABEL: func.func @partial
// CHECK-DAG: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
// CHECK-DAG: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : tensor<2x3x5xf32> into tensor<6x5xf32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<6x4x5xf32>, tensor<6x5xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2]] : tensor<6x4x5xf32> into tensor<6x20xf32>
// CHECK: return %[[R]]
// WHOLE-LABEL: func.func @partial
// WHOLE: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3x4x5xf32>, tensor<2x3x5xf32>)
// WHOLE: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
func.func @partial(%a: tensor<2x3x4x5xf32>, %b: tensor<2x3x5xf32>) -> tensor<6x20xf32> {
  %e = tensor.empty() : tensor<2x3x4x5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<2x3x4x5xf32>, tensor<2x3x5xf32>) outs(%e : tensor<2x3x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4x5xf32>
  %c = tensor.collapse_shape %g [[0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
  return %c : tensor<6x20xf32>
}

// -----

// Several results, and another use of the collapsed one: collapsing loops
// re-indexes the whole op; what else reads the old results gets them back
// through expand_shape (exact), the collapse reads the new result.
// CHECK-LABEL: func.func @multi_result
// CHECK: %[[G:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%{{.*}} : tensor<32xf32>) outs(%{{.*}}, %{{.*}} : tensor<32xf32>, tensor<32xf32>)
// CHECK: %[[E0:.*]] = tensor.expand_shape %[[G]]#0 {{\[\[}}0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
// CHECK: %[[E1:.*]] = tensor.expand_shape %[[G]]#1 {{\[\[}}0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
// CHECK: return %[[G]]#0, %[[E0]], %[[E1]]
func.func @multi_result(%a: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %g:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e, %e : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r, %x : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %c = tensor.collapse_shape %g#0 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c, %g#0, %g#1 : tensor<32xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The mirror: expand_shape feeding an input. The input becomes the expand's
// source, the other operands collapse, the result is expanded back.
// CHECK-LABEL: func.func @expand_elementwise
// CHECK-NOT: tensor.expand_shape %arg0
// CHECK: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[B]] : tensor<32x16xf32>, tensor<32xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1], [2]] output_shape [4, 8, 16] : tensor<32x16xf32> into tensor<4x8x16xf32>
// CHECK: return %[[E]]
// NOEXP-LABEL: func.func @expand_elementwise
// NOEXP: tensor.expand_shape %arg0
// NOEXP: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<4x8x16xf32>, tensor<4x8xf32>)
func.func @expand_elementwise(%a: tensor<32x16xf32>, %b: tensor<4x8xf32>) -> tensor<4x8x16xf32> {
  %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 16] : tensor<32x16xf32> into tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %b : tensor<4x8x16xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%xx: f32, %y: f32, %o: f32):
    %s = arith.addf %xx, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8x16xf32>
  return %g : tensor<4x8x16xf32>
}

// -----

// The mirror over reduction loops: consecutive, increasing reductions (d1, d2)
// collapse into one; the result's map does not hold them, so it keeps its type.
// CHECK-LABEL: func.func @expand_reduction
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x32xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[G]] : tensor<4xf32>
func.func @expand_reduction(%a: tensor<4x32xf32>) -> tensor<4xf32> {
  %x = tensor.expand_shape %a [[0], [1, 2]] output_shape [4, 4, 8] : tensor<4x32xf32> into tensor<4x4x8xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<4x4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// The mirror with dynamic sizes, partially: (d0, d1) mixes parallel and
// reduction and stays, (d2, d3) folds. The input becomes a smaller
// expand_shape of the source (output_shape from the original expand), the
// result comes back through expand_shape with tensor.dim of its init, and
// linalg.index of the inner folded loop is taken modulo 5.
// CHECK-LABEL: func.func @expand_partial_dynamic
// CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%arg2, 3, 20] : tensor<?x20xf32> into tensor<?x3x20xf32>
// CHECK: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<4x5xf32> into tensor<20xf32>
// CHECK: %[[O:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<?x4x5xf32> into tensor<?x20xf32>
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]], %[[B]] : tensor<?x3x20xf32>, tensor<20xf32>) outs(%[[O]] : tensor<?x20xf32>)
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: arith.remui %[[J]], %[[C5]] : index
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x4x5xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0], [1, 2]] output_shape [%[[N]], 4, 5] : tensor<?x20xf32> into tensor<?x4x5xf32>
// CHECK: return %[[E]]
// WHOLE-LABEL: func.func @expand_partial_dynamic
// WHOLE: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<?x3x4x5xf32>, tensor<4x5xf32>)
func.func @expand_partial_dynamic(%a: tensor<?x20xf32>, %b: tensor<4x5xf32>, %n: index) -> tensor<?x4x5xf32> {
  %x = tensor.expand_shape %a [[0, 1], [2, 3]] output_shape [%n, 3, 4, 5] : tensor<?x20xf32> into tensor<?x3x4x5xf32>
  %e0 = tensor.empty(%n) : tensor<?x4x5xf32>
  %cst = arith.constant 0.0 : f32
  %e = linalg.fill ins(%cst : f32) outs(%e0 : tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%x, %b : tensor<?x3x4x5xf32>, tensor<4x5xf32>) outs(%e : tensor<?x4x5xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %i3 = linalg.index 3 : index
    %u = arith.index_cast %i3 : index to i32
    %f = arith.sitofp %u : i32 to f32
    %m = arith.mulf %v, %w : f32
    %m2 = arith.addf %m, %f : f32
    %r = arith.addf %o, %m2 : f32
    linalg.yield %r : f32
  } -> tensor<?x4x5xf32>
  return %g : tensor<?x4x5xf32>
}

// -----

// The mirror, all groups folded with a dynamic size: the input is the
// source itself; linalg.index of the leading loop is the index divided by 8.
// CHECK-LABEL: func.func @expand_dynamic_index
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg0 : tensor<?xi32>)
// CHECK: %[[J:.*]] = linalg.index 0 : index
// CHECK: arith.divui %[[J]], %[[C8]] : index
// CHECK: tensor.expand_shape %[[G]] {{\[\[}}0, 1]] output_shape [%{{.*}}, 8] : tensor<?xi32> into tensor<?x8xi32>
func.func @expand_dynamic_index(%a: tensor<?xi32>, %n: index) -> tensor<?x8xi32> {
  %x = tensor.expand_shape %a [[0, 1]] output_shape [%n, 8] : tensor<?xi32> into tensor<?x8xi32>
  %e = tensor.empty(%n) : tensor<?x8xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x8xi32>) outs(%e : tensor<?x8xi32>) {
  ^bb0(%v: i32, %o: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %r = arith.addi %v, %ii : i32
    linalg.yield %r : i32
  } -> tensor<?x8xi32>
  return %g : tensor<?x8xi32>
}

// -----

// The mirror, the same expand read twice the same way: both reads become the
// source (no collapse_shape of the expand is left behind).
// CHECK-LABEL: func.func @expand_read_twice
// CHECK-NOT: tensor.expand_shape %arg0
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%arg0, %arg0 : tensor<32xf32>, tensor<32xf32>)
// CHECK: tensor.expand_shape %[[G]] {{\[\[}}0, 1]] output_shape [4, 8]
func.func @expand_read_twice(%a: tensor<32xf32>) -> tensor<4x8xf32> {
  %x = tensor.expand_shape %a [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.mulf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// Negative (source): the collapsed value is not a generic result.
// CHECK-LABEL: func.func @no_fold_not_generic
// CHECK: tensor.collapse_shape %arg0
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: source is not a linalg.generic result
func.func @no_fold_not_generic(%a: tensor<4x8xf32>) -> tensor<32xf32> {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// Negative (projected permutations): a convolution-like map (d1 + d2) cannot
// be written over a collapsed loop.
// CHECK-LABEL: func.func @no_fold_not_projected_permutation
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4x10xf32>) outs(%{{.*}} : tensor<4x8x3xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]]
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: indexing map (d0, d1, d2) -> (d0, d1 + d2) is not a projected permutation
func.func @no_fold_not_projected_permutation(%a: tensor<4x10xf32>) -> tensor<32x3xf32> {
  %e = tensor.empty() : tensor<4x8x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<4x10xf32>) outs(%e : tensor<4x8x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8x3xf32>
  %c = tensor.collapse_shape %g [[0, 1], [2]] : tensor<4x8x3xf32> into tensor<32x3xf32>
  return %c : tensor<32x3xf32>
}

// -----

// Negative (same order in every map): the input lists the group as (d1, d0).
// CHECK-LABEL: func.func @no_fold_permuted
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: tensor.collapse_shape
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: loops [0, 1] are not preserved (contiguous, same order) in the map of operand #0
func.func @no_fold_permuted(%a: tensor<8x4xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %c = tensor.collapse_shape %g [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// Negative (contiguous in every map): the input interleaves d2 into the group.
// CHECK-LABEL: func.func @no_fold_not_contiguous
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4x3x8xf32>)
// CHECK: tensor.collapse_shape
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: loops [0, 1] are not preserved (contiguous, same order) in the map of operand #0
func.func @no_fold_not_contiguous(%a: tensor<4x3x8xf32>) -> tensor<32x3xf32> {
  %e = tensor.empty() : tensor<4x8x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<4x3x8xf32>) outs(%e : tensor<4x8x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8x3xf32>
  %c = tensor.collapse_shape %g [[0, 1], [2]] : tensor<4x8x3xf32> into tensor<32x3xf32>
  return %c : tensor<32x3xf32>
}

// -----

// Negative (all of the group or none in every map): %b is read along d1 only.
// CHECK-LABEL: func.func @no_fold_partly_present
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: tensor.collapse_shape
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: loops [0, 1] are not preserved (contiguous, same order) in the map of operand #1
func.func @no_fold_partly_present(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %c = tensor.collapse_shape %g [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// Negative (several results): the second result is written transposed, so the
// group is not preserved in its map; folding one result must not break another.
// CHECK-LABEL: func.func @no_fold_other_result_permuted
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
// CHECK: tensor.collapse_shape
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: loops [0, 1] are not preserved (contiguous, same order) in the map of operand #2
func.func @no_fold_other_result_permuted(%a: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = tensor.empty() : tensor<8x4xf32>
  %g:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e, %t : tensor<4x8xf32>, tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    linalg.yield %x, %x : f32, f32
  } -> (tensor<4x8xf32>, tensor<8x4xf32>)
  %c = tensor.collapse_shape %g#0 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c, %g#1 : tensor<32xf32>, tensor<8x4xf32>
}

// -----

// Negative (one iterator type per group): the expanded input's group is a
// parallel loop and a reduction loop.
// CHECK-LABEL: func.func @no_fold_mixed_iterators
// CHECK: tensor.expand_shape %arg0
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// WHY: fold_expand_shape_into_generic: no match on 'linalg.generic' at {{.*}}: input #0: loops [0, 1] mix iterator types ['parallel', 'reduction']
func.func @no_fold_mixed_iterators(%a: tensor<32xf32>) -> tensor<4xf32> {
  %x = tensor.expand_shape %a [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// Negative (reductions consecutive): the group is the reductions d0 and d2,
// with the parallel d1 between them in the loop nest.
// CHECK-LABEL: func.func @no_fold_reduction_not_consecutive
// CHECK: tensor.expand_shape %arg0
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]}
// WHY: fold_expand_shape_into_generic: no match on 'linalg.generic' at {{.*}}: input #0: reduction loops [0, 2] are not consecutive loops in increasing order
func.func @no_fold_reduction_not_consecutive(%a: tensor<5x12xf32>) -> tensor<5xf32> {
  %x = tensor.expand_shape %a [[0], [1, 2]] output_shape [5, 3, 4] : tensor<5x12xf32> into tensor<5x3x4xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<5x3x4xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %g : tensor<5xf32>
}

// -----

// Negative (reductions in increasing order): the group lists the reductions
// as (d2, d1); collapsing would change the order the sum visits elements.
// CHECK-LABEL: func.func @no_fold_reduction_reversed
// CHECK: tensor.expand_shape %arg0
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]}
// WHY: fold_expand_shape_into_generic: no match on 'linalg.generic' at {{.*}}: input #0: reduction loops [2, 1] are not consecutive loops in increasing order
func.func @no_fold_reduction_reversed(%a: tensor<5x12xf32>) -> tensor<5xf32> {
  %x = tensor.expand_shape %a [[0], [1, 2]] output_shape [5, 3, 4] : tensor<5x12xf32> into tensor<5x3x4xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<5x3x4xf32>) outs(%z : tensor<5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %g : tensor<5xf32>
}

// -----

// Negative (buffer semantics): a generic on memrefs has no tensor results.
// CHECK-LABEL: func.func @no_fold_buffers
// CHECK: memref.expand_shape
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<4x8xf32>) outs(%arg1 : memref<4x8xf32>)
// WHY: fold_expand_shape_into_generic: no match on 'linalg.generic' at {{.*}}: generic has buffer semantics (no tensor results)
func.func @no_fold_buffers(%a: memref<32xf32>, %o: memref<4x8xf32>) {
  %x = memref.expand_shape %a [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%o : memref<4x8xf32>) {
  ^bb0(%v: f32, %w: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

// Negative (attributes): a library_call names a function of the old operands.
// CHECK-LABEL: func.func @no_fold_library_call
// CHECK: linalg.generic {{.*}} library_call = "f"
// CHECK: tensor.collapse_shape
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: generic carries attribute 'library_call', which may describe its iteration space
func.func @no_fold_library_call(%a: tensor<4x8xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], library_call = "f"} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %c = tensor.collapse_shape %g [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// Negative (no encodings): reshaping an encoded tensor may not be row-major.
// CHECK-LABEL: func.func @no_fold_encoding
// CHECK: linalg.generic
// CHECK: tensor.collapse_shape
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: generic has an operand with a tensor encoding
func.func @no_fold_encoding(%a: tensor<4x8xf32, "enc">) -> tensor<32xf32, "enc"> {
  %e = tensor.empty() : tensor<4x8xf32, "enc">
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32, "enc">) outs(%e : tensor<4x8xf32, "enc">) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32, "enc">
  %c = tensor.collapse_shape %g [[0, 1]] : tensor<4x8xf32, "enc"> into tensor<32xf32, "enc">
  return %c : tensor<32xf32, "enc">
}

// -----

// Negative (something to fold): a collapse to rank 0 has no group of two dims.
// CHECK-LABEL: func.func @no_fold_rank0
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
// WHY: fold_collapse_shape_into_generic: no match on 'tensor.collapse_shape' at {{.*}}: no group of two or more dims to fold
func.func @no_fold_rank0(%a: tensor<1x1xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<1x1xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1x1xf32>
  %c = tensor.collapse_shape %g [] : tensor<1x1xf32> into tensor<f32>
  return %c : tensor<f32>
}
