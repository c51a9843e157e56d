// RUN: opt-py %s --split-input-file -p gather-to-load | filecheck %s

// The lanes may run past a row: a contiguous base is read through a 1-D view
// at the linear position.
// CHECK-LABEL: func.func @step_plus_broadcast
// CHECK-SAME: (%[[B:.*]]: memref<?x?xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index)
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[D1:.*]] = memref.dim %[[B]], %[[ONE]] : memref<?x?xf32>
// CHECK: %[[F:.*]] = memref.collapse_shape %[[B]] {{\[}}[0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK: %[[R:.*]] = arith.muli %[[I]], %[[D1]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[R]], %[[J]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[LIN]], %[[K]] : index
// CHECK: %[[L:.*]] = vector.load %[[F]][%[[AT]]] : memref<?xf32>, vector<16xf32>
// CHECK: return %[[L]]
func.func @step_plus_broadcast(%base: memref<?x?xf32>, %i: index, %j: index, %k: index) -> vector<16xf32> {
  %step = vector.step : vector<16xindex>
  %kb = vector.broadcast %k : index to vector<16xindex>
  %idx = arith.addi %step, %kb : vector<16xindex>
  %m = arith.constant dense<true> : vector<16xi1>
  %p = arith.constant dense<0.0> : vector<16xf32>
  %g = vector.gather %base[%i, %j] [%idx], %m, %p : memref<?x?xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
  return %g : vector<16xf32>
}

// -----

// Broadcast first, then step; and a chain of adds with a splat constant.
// CHECK-LABEL: func.func @broadcast_plus_step_chain
// CHECK-SAME: (%[[B:.*]]: memref<128xf32>, %[[J:.*]]: index, %[[K:.*]]: index)
// CHECK: %[[A1:.*]] = arith.addi %[[J]], %[[K]] : index
// CHECK: %[[C:.*]] = arith.constant 3 : index
// CHECK: %[[A2:.*]] = arith.addi %[[A1]], %[[C]] : index
// CHECK: vector.load %[[B]][%[[A2]]] : memref<128xf32>, vector<8xf32>
func.func @broadcast_plus_step_chain(%base: memref<128xf32>, %j: index, %k: index) -> vector<8xf32> {
  %step = vector.step : vector<8xindex>
  %kb = vector.broadcast %k : index to vector<8xindex>
  %three = arith.constant dense<3> : vector<8xindex>
  %a = arith.addi %kb, %step : vector<8xindex>
  %idx = arith.addi %three, %a : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<128xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

// -----

// A constant range [5, 6, 7, 8] and a constant_mask covering every lane.
// CHECK-LABEL: func.func @constant_range
// CHECK: %[[C:.*]] = arith.constant 5 : index
// CHECK: %[[AT:.*]] = arith.addi %arg1, %[[C]] : index
// CHECK: vector.load %arg0[%[[AT]]] : memref<32xi32>, vector<4xi32>
func.func @constant_range(%base: memref<32xi32>, %j: index) -> vector<4xi32> {
  %idx = arith.constant dense<[5, 6, 7, 8]> : vector<4xindex>
  %m = vector.constant_mask [4] : vector<4xi1>
  %p = arith.constant dense<0> : vector<4xi32>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<32xi32>, vector<4xindex>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  return %g : vector<4xi32>
}

// -----

// A partial or unknown mask: a masked load with the pass-through.
// CHECK-LABEL: func.func @masked
// CHECK-SAME: (%[[B:.*]]: memref<64xf16>, %[[J:.*]]: index, %[[M:.*]]: vector<8xi1>, %[[P:.*]]: vector<8xf16>)
// CHECK: vector.maskedload %[[B]][%[[J]]], %[[M]], %[[P]] : memref<64xf16>, vector<8xi1>, vector<8xf16> into vector<8xf16>
// CHECK-LABEL: func.func @partial_constant_mask
// CHECK: %[[M2:.*]] = vector.constant_mask [5] : vector<8xi1>
// CHECK: vector.maskedload %arg0[%arg1], %[[M2]], %arg2
func.func @masked(%base: memref<64xf16>, %j: index, %m: vector<8xi1>, %p: vector<8xf16>) -> vector<8xf16> {
  %idx = vector.step : vector<8xindex>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<64xf16>, vector<8xindex>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  return %g : vector<8xf16>
}
func.func @partial_constant_mask(%base: memref<64xf16>, %j: index, %p: vector<8xf16>) -> vector<8xf16> {
  %idx = vector.step : vector<8xindex>
  %m = vector.constant_mask [5] : vector<8xi1>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<64xf16>, vector<8xindex>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  return %g : vector<8xf16>
}

// -----

// 2-D: one contiguous row broadcast to every row reads the same row: one load.
// CHECK-LABEL: func.func @rows_broadcast
// CHECK-SAME: (%{{.+}}: memref<4x64xf32>, %[[I:[a-z0-9_]+]]: index, %[[J:[a-z0-9_]+]]: index, %[[K:[a-z0-9_]+]]: index)
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[F:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<4x64xf32> into memref<256xf32>
// CHECK: %[[R:.*]] = arith.muli %[[I]], %[[C64]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[R]], %[[J]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[LIN]], %[[K]] : index
// CHECK: %[[L:.*]] = vector.load %[[F]][%[[AT]]] : memref<256xf32>, vector<8xf32>
// CHECK: vector.broadcast %[[L]] : vector<8xf32> to vector<3x8xf32>
func.func @rows_broadcast(%base: memref<4x64xf32>, %i: index, %j: index, %k: index) -> vector<3x8xf32> {
  %step = vector.step : vector<8xindex>
  %kb = vector.broadcast %k : index to vector<8xindex>
  %row = arith.addi %step, %kb : vector<8xindex>
  %idx = vector.broadcast %row : vector<8xindex> to vector<3x8xindex>
  %m = arith.constant dense<true> : vector<3x8xi1>
  %p = arith.constant dense<0.0> : vector<3x8xf32>
  %g = vector.gather %base[%i, %j] [%idx], %m, %p : memref<4x64xf32>, vector<3x8xindex>, vector<3x8xi1>, vector<3x8xf32> into vector<3x8xf32>
  return %g : vector<3x8xf32>
}

// -----

// Several lanes over a non-contiguous 2-D base (rows 32 apart, 16 long) could
// run past a row into memory the gather does not read: left alone.
// CHECK-LABEL: func.func @no_fold_lanes_over_strided_rows
// CHECK: vector.gather
func.func @no_fold_lanes_over_strided_rows(%base: memref<8x16xf32, strided<[32, 1], offset: ?>>, %i: index, %j: index) -> vector<4xf32> {
  %idx = vector.step : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %base[%i, %j] [%idx], %m, %p : memref<8x16xf32, strided<[32, 1], offset: ?>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @no_fold_inner_stride
// CHECK: vector.gather
func.func @no_fold_inner_stride(%base: memref<8x16xf32, strided<[32, 2]>>, %i: index, %j: index) -> vector<4xf32> {
  %idx = vector.step : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %base[%i, %j] [%idx], %m, %p : memref<8x16xf32, strided<[32, 2]>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @no_fold_not_contiguous
// CHECK: vector.gather
func.func @no_fold_not_contiguous(%base: memref<32xf32>, %j: index) -> vector<4xf32> {
  %idx = arith.constant dense<[0, 2, 4, 6]> : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<32xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// An added vector that is not uniform breaks contiguity.
// CHECK-LABEL: func.func @no_fold_non_uniform_shift
// CHECK: vector.gather
func.func @no_fold_non_uniform_shift(%base: memref<32xf32>, %j: index, %v: vector<4xindex>) -> vector<4xf32> {
  %step = vector.step : vector<4xindex>
  %idx = arith.addi %step, %v : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<32xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @no_fold_tensor_base
// CHECK: vector.gather
func.func @no_fold_tensor_base(%base: tensor<32xf32>, %j: index) -> vector<4xf32> {
  %idx = vector.step : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %base[%j] [%idx], %m, %p : tensor<32xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @no_fold_2d_partial_mask
// CHECK: vector.gather
func.func @no_fold_2d_partial_mask(%base: memref<4x64xf32>, %i: index, %j: index, %m: vector<2x8xi1>) -> vector<2x8xf32> {
  %step = vector.step : vector<8xindex>
  %idx = vector.broadcast %step : vector<8xindex> to vector<2x8xindex>
  %p = arith.constant dense<0.0> : vector<2x8xf32>
  %g = vector.gather %base[%i, %j] [%idx], %m, %p : memref<4x64xf32>, vector<2x8xindex>, vector<2x8xi1>, vector<2x8xf32> into vector<2x8xf32>
  return %g : vector<2x8xf32>
}

// -----

// A row-major contiguous base with an offset (a subview of whole rows) is
// collapsible too.
// CHECK-LABEL: func.func @contiguous_with_offset
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<16x32xf32, strided<[32, 1], offset: ?>> into memref<512xf32, strided<[1], offset: ?>>
// CHECK: vector.load
func.func @contiguous_with_offset(%base: memref<16x32xf32, strided<[32, 1], offset: ?>>, %i: index, %j: index, %k: index) -> vector<8xf32> {
  %step = vector.step : vector<8xindex>
  %kb = vector.broadcast %k : index to vector<8xindex>
  %idx = arith.addi %kb, %step : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %g = vector.gather %base[%i, %j] [%idx], %m, %p : memref<16x32xf32, strided<[32, 1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

// -----

// Zero-based on a contiguous 2-D base: loaded at the base position, as upstream does.
// CHECK-LABEL: func.func @zero_based_2d
// CHECK-NOT: collapse_shape
// CHECK: vector.load %arg0[%arg1, %arg2] : memref<4x64xf32>, vector<8xf32>
func.func @zero_based_2d(%base: memref<4x64xf32>, %i: index, %j: index) -> vector<8xf32> {
  %idx = vector.step : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %g = vector.gather %base[%i, %j] [%idx], %m, %p : memref<4x64xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

// -----

// One lane (what GPU codegen emits per thread) on a strided base: its position
// is delinearized over the base's shape, whatever the index holds.
// CHECK-LABEL: func.func @single_lane_strided
// CHECK-SAME: (%[[B:.*]]: memref<8x16xf32, strided<[32, 1], offset: ?>>, %[[I:.*]]: index, %[[J:.*]]: index, %[[X:.*]]: vector<1x1xindex>)
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[R:.*]] = arith.muli %[[I]], %[[C16]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[R]], %[[J]] : index
// CHECK: %[[LANE:.*]] = vector.extract %[[X]][0, 0] : index from vector<1x1xindex>
// CHECK: %[[POS:.*]] = arith.addi %[[LIN]], %[[LANE]] : index
// CHECK: %[[COL:.*]] = arith.remui %[[POS]], %[[C16]] : index
// CHECK: %[[ROW:.*]] = arith.divui %[[POS]], %[[C16]] : index
// CHECK: %[[L:.*]] = vector.load %[[B]][%[[ROW]], %[[COL]]] : memref<8x16xf32, strided<[32, 1], offset: ?>>, vector<1xf32>
// CHECK: vector.shape_cast %[[L]] : vector<1xf32> to vector<1x1xf32>
func.func @single_lane_strided(%base: memref<8x16xf32, strided<[32, 1], offset: ?>>, %i: index, %j: index, %x: vector<1x1xindex>) -> vector<1x1xf32> {
  %m = arith.constant dense<true> : vector<1x1xi1>
  %p = arith.constant dense<0.0> : vector<1x1xf32>
  %g = vector.gather %base[%i, %j] [%x], %m, %p : memref<8x16xf32, strided<[32, 1], offset: ?>>, vector<1x1xindex>, vector<1x1xi1>, vector<1x1xf32> into vector<1x1xf32>
  return %g : vector<1x1xf32>
}

// -----

// IREE's vectorizer form: a [1, n] index from shape_cast(step) plus broadcasts
// of one-element vectors.
// CHECK-LABEL: func.func @iree_row_like
// CHECK: %[[F:.*]] = memref.collapse_shape %arg0
// CHECK: %[[LANE:.*]] = vector.extract %arg1[0] : index from vector<1xindex>
// CHECK: %[[AT:.*]] = arith.addi %{{.+}}, %[[LANE]] : index
// CHECK: %[[L:.*]] = vector.load %[[F]][%[[AT]]] : memref<2048xf32>, vector<8xf32>
// CHECK: vector.shape_cast %[[L]] : vector<8xf32> to vector<1x8xf32>
func.func @iree_row_like(%base: memref<64x32xf32>, %row: vector<1xindex>) -> vector<1x8xf32> {
  %c0 = arith.constant 0 : index
  %s = vector.step : vector<8xindex>
  %s2 = vector.shape_cast %s : vector<8xindex> to vector<1x8xindex>
  %b = vector.broadcast %row : vector<1xindex> to vector<1x8xindex>
  %idx = arith.addi %b, %s2 : vector<1x8xindex>
  %m = arith.constant dense<true> : vector<1x8xi1>
  %p = arith.constant dense<0.0> : vector<1x8xf32>
  %g = vector.gather %base[%c0, %c0] [%idx], %m, %p : memref<64x32xf32>, vector<1x8xindex>, vector<1x8xi1>, vector<1x8xf32> into vector<1x8xf32>
  return %g : vector<1x8xf32>
}

// -----

// Negative: an i32 index vector. Its lanes are i32 sums that may wrap, and
// the load's position would be computed in index: left alone.
// CHECK-LABEL: func.func @no_fold_i32_indices
// CHECK: vector.gather
// CHECK-NOT: vector.load
func.func @no_fold_i32_indices(%base: memref<64xf32>, %j: index, %s: i32) -> vector<4xf32> {
  %r = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
  %sb = vector.broadcast %s : i32 to vector<4xi32>
  %idx = arith.addi %r, %sb : vector<4xi32>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<64xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// Negative: a base whose layout is an affine map with no strides (not an
// error: the gather stays).
// CHECK-LABEL: func.func @no_fold_non_strided_layout
// CHECK: vector.gather
func.func @no_fold_non_strided_layout(%base: memref<64xf32, affine_map<(d0) -> (d0 floordiv 2)>>, %j: index) -> vector<4xf32> {
  %idx = vector.step : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %base[%j] [%idx], %m, %p : memref<64xf32, affine_map<(d0) -> (d0 floordiv 2)>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}
