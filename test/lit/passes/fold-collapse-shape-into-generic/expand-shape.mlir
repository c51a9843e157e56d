// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic | filecheck %s
// Why each negative case is left alone (the precondition that failed):
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// partial=false: a reshape whose groups do not all qualify stays.
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-generic{partial=false}' | filecheck %s --check-prefix=WHOLE
// expand=false: only collapse_shape is folded.
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-generic{expand=false}' | filecheck %s --check-prefix=NOEXP

// fold_expand_shape_into_generic, the mirror: an expand_shape feeding a generic's input;
// the iterator-type preconditions and buffer semantics have their no_fold_ cases here.

// The mirror: expand_shape feeding an input. The input becomes the expand's
// source, the other operands collapse, the result is expanded back.
// CHECK-LABEL: func.func @expand_elementwise
// CHECK-NOT: tensor.expand_shape %arg0
// CHECK: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[B]] : tensor<32x16xf32>, tensor<32xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1], [2]] output_shape [4, 8, 16] : tensor<32x16xf32> into tensor<4x8x16xf32>
// CHECK: return %[[E]]
// NOEXP-LABEL: func.func @expand_elementwise
// NOEXP: %[[X:.+]] = tensor.expand_shape %arg0
// NOEXP: linalg.generic {{.*}} ins(%[[X]], %arg1 : tensor<4x8x16xf32>, tensor<4x8xf32>)
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
// CHECK: %[[FILL:.+]] = linalg.fill
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x32xf32>) outs(%[[FILL]] : tensor<4xf32>)
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
// CHECK: %[[FILL:.+]] = linalg.fill
// CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%arg2, 3, 20] : tensor<?x20xf32> into tensor<?x3x20xf32>
// CHECK: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<4x5xf32> into tensor<20xf32>
// CHECK: %[[O:.*]] = tensor.collapse_shape %[[FILL]] {{\[\[}}0], [1, 2]] : tensor<?x4x5xf32> into tensor<?x20xf32>
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]], %[[B]] : tensor<?x3x20xf32>, tensor<20xf32>) outs(%[[O]] : tensor<?x20xf32>)
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: arith.remui %[[J]], %[[C5]] : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[FILL]], %[[ZERO]] : tensor<?x4x5xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0], [1, 2]] output_shape [%[[N]], 4, 5] : tensor<?x20xf32> into tensor<?x4x5xf32>
// CHECK: return %[[E]]
// WHOLE-LABEL: func.func @expand_partial_dynamic
// WHOLE: %[[X:.+]] = tensor.expand_shape %arg0
// WHOLE: linalg.generic {{.*}} ins(%[[X]], %arg1 : tensor<?x3x4x5xf32>, tensor<4x5xf32>)
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
// CHECK: %[[INIT:.+]] = tensor.empty(%arg1) : tensor<?x8xi32>
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg0 : tensor<?xi32>)
// CHECK: %[[J:.*]] = linalg.index 0 : index
// CHECK: arith.divui %[[J]], %[[C8]] : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[INIT]], %[[ZERO]] : tensor<?x8xi32>
// CHECK: tensor.expand_shape %[[G]] {{\[\[}}0, 1]] output_shape [%[[N]], 8] : tensor<?xi32> into tensor<?x8xi32>
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

// Negative (buffer semantics): a generic on memrefs reads a memref.expand_shape, never a tensor one
// (the verifier rejects a generic mixing tensors and memrefs).
// CHECK-LABEL: func.func @no_fold_buffers
// CHECK: %[[X:.+]] = memref.expand_shape
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<4x8xf32>) outs(%arg1 : memref<4x8xf32>)
// WHY: fold_expand_shape_into_generic: no match on 'linalg.generic' at {{.*}}: no input is a tensor.expand_shape
func.func @no_fold_buffers(%a: memref<32xf32>, %o: memref<4x8xf32>) {
  %x = memref.expand_shape %a [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%o : memref<4x8xf32>) {
  ^bb0(%v: f32, %w: f32):
    linalg.yield %v : f32
  }
  return
}
