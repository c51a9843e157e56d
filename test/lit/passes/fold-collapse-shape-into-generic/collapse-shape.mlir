// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic | filecheck %s
// Why each negative case is left alone (the precondition that failed):
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// partial=false: a reshape whose groups do not all qualify stays.
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-generic{partial=false}' | filecheck %s --check-prefix=WHOLE

// fold_collapse_shape_into_generic: collapse_shape(generic) becomes a generic over the
// collapsed loops; each precondition (--debug-patterns names it) has a no_fold_ case.

// The issue's shape: generic -> collapse_shape -> generic. The producer now
// runs over the collapsed loops on collapsed operands; the consumer reads it
// directly and no reshape sits between them.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[ARG:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[A:.*]] = tensor.collapse_shape %[[ARG]] {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: %[[EC:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[A]] : tensor<32xf32>) outs(%[[EC]] : tensor<32xf32>)
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
// CHECK-SAME: (%[[ARG:[a-z0-9_]+]]: tensor<?x?x5xf32>)
// CHECK: %[[E:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x5xf32>
// CHECK: %[[A:.*]] = tensor.collapse_shape %[[ARG]] {{\[\[}}0, 1, 2]] : tensor<?x?x5xf32> into tensor<?xf32>
// CHECK: %[[O:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1, 2]] : tensor<?x?x5xf32> into tensor<?xf32>
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[N1:.*]] = tensor.dim %[[ARG]], %[[ONE]] : tensor<?x?x5xf32>
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
// WHOLE: %[[G:.+]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3x4x5xf32>, tensor<2x3x5xf32>)
// WHOLE: tensor.collapse_shape %[[G]] {{\[\[}}0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
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
// CHECK-SAME: (%[[ARG:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[A:.+]] = tensor.collapse_shape %[[ARG]] {{\[\[}}0, 1]]
// CHECK: %[[O0:.+]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1]]
// CHECK: %[[O1:.+]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1]]
// CHECK: %[[G:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[A]] : tensor<32xf32>) outs(%[[O0]], %[[O1]] : tensor<32xf32>, tensor<32xf32>)
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
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x8x3xf32>
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x10xf32>) outs(%[[E]] : tensor<4x8x3xf32>)
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0, 1], [2]]
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
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<8x4xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0, 1]]
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
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<8x4xf32>
// CHECK: %[[G:.+]]:2 = linalg.generic {{.*}} outs(%[[E0]], %[[E1]] : tensor<4x8xf32>, tensor<8x4xf32>)
// CHECK: tensor.collapse_shape %[[G]]#0 {{\[\[}}0, 1]]
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
// CHECK: %[[G:.+]] = linalg.generic
// CHECK: tensor.collapse_shape %[[G]] [] : tensor<1x1xf32> into tensor<f32>
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
