// RUN: opt-py %s --split-input-file -p fold-subview-into-gather | filecheck %s
// The pipeline of issue 7: no subview and no contiguous gather is left where
// the meaning can be kept.
// RUN: opt-py %s --split-input-file -p 'gather-to-load,fold-subview-into-gather,fold-memref-alias-ops' | filecheck %s --check-prefix=PIPE

// A rank-1 subview with a static offset and stride: the base index composes,
// the index vector scales by the stride.
// CHECK-DAG: #[[$S2:.*]] = affine_map<(d0) -> (d0 * 2 + 4)>
// CHECK-LABEL: func.func @rank1_strided
// CHECK-NOT: memref.subview
// CHECK: %[[IDX:.*]] = arith.constant dense<[3, 1, 2, 0]> : vector<4xindex>
// CHECK: %[[O:.*]] = affine.apply #[[$S2]](%arg1)
// CHECK: %[[F:.*]] = arith.constant dense<2> : vector<4xindex>
// CHECK: %[[X:.*]] = arith.muli %[[IDX]], %[[F]] : vector<4xindex>
// CHECK: vector.gather %arg0[%[[O]]] [%[[X]]]
// PIPE-LABEL: func.func @rank1_strided
// PIPE-NOT: memref.subview
// PIPE: vector.gather %arg0
func.func @rank1_strided(%base: memref<64xf32>, %j: index) -> vector<4xf32> {
  %s = memref.subview %base[4] [16] [2] : memref<64xf32> to memref<16xf32, strided<[2], offset: 4>>
  %idx = arith.constant dense<[3, 1, 2, 0]> : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %s[%j] [%idx], %m, %p : memref<16xf32, strided<[2], offset: 4>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// A rank-1 subview with a dynamic offset.
// CHECK-DAG: #[[$DYN:.*]] = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-LABEL: func.func @rank1_dynamic_offset
// CHECK: %[[IDX:.*]] = arith.addi
// CHECK: %[[O:.*]] = affine.apply #[[$DYN]](%arg2)[%arg1]
// CHECK: vector.gather %arg0[%[[O]]] [%[[IDX]]]
// PIPE-LABEL: func.func @rank1_dynamic_offset
// PIPE-NOT: memref.subview
// PIPE-NOT: vector.gather
// PIPE: vector.load %arg0[
func.func @rank1_dynamic_offset(%base: memref<128xf32>, %o: index, %j: index, %k: index) -> vector<8xf32> {
  %s = memref.subview %base[%o] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: ?>>
  %step = vector.step : vector<8xindex>
  %kb = vector.broadcast %k : index to vector<8xindex>
  %idx = arith.addi %step, %kb : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %g = vector.gather %s[%j] [%idx], %m, %p : memref<64xf32, strided<[1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

// -----

// A subview of whole rows: only the outer offset moves.
// CHECK-LABEL: func.func @whole_rows
// CHECK: %[[STEP:.*]] = vector.step : vector<8xindex>
// CHECK: %[[R:.*]] = affine.apply #{{.*}}(%arg2)[%arg1]
// CHECK: vector.gather %arg0[%[[R]], %arg3] [%[[STEP]]], {{.*}} : memref<64x32xf32>
// PIPE-LABEL: func.func @whole_rows
// PIPE-NOT: memref.subview
// PIPE-NOT: vector.gather
// PIPE: vector.load %arg0[
func.func @whole_rows(%base: memref<64x32xf32>, %o: index, %i: index, %j: index) -> vector<8xf32> {
  %s = memref.subview %base[%o, 0] [16, 32] [1, 1] : memref<64x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
  %idx = vector.step : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %g = vector.gather %s[%i, %j] [%idx], %m, %p : memref<16x32xf32, strided<[32, 1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

// -----

// One lane through a subview of partial rows (the GPU form of a read out of a
// slice): its position is delinearized over the subview and mapped to the source.
// CHECK-DAG: #[[$R16:.*]] = affine_map<(d0) -> (d0 + 16)>
// CHECK-DAG: #[[$C8:.*]] = affine_map<(d0) -> (d0 + 8)>
// CHECK-LABEL: func.func @single_lane_partial_rows
// CHECK: %[[C24:.*]] = arith.constant 24 : index
// CHECK: %[[LANE:.*]] = vector.extract %arg1[0, 0] : index from vector<1x1xindex>
// CHECK: %[[POS:.*]] = arith.addi %{{.*}}, %[[LANE]] : index
// CHECK: %[[COL:.*]] = arith.remui %[[POS]], %[[C24]] : index
// CHECK: %[[ROW:.*]] = arith.divui %[[POS]], %[[C24]] : index
// CHECK: %[[R:.*]] = affine.apply #[[$R16]](%[[ROW]])
// CHECK: %[[C:.*]] = affine.apply #[[$C8]](%[[COL]])
// CHECK: %[[Z:.*]] = arith.constant dense<0> : vector<1x1xindex>
// CHECK: vector.gather %arg0[%[[R]], %[[C]]] [%[[Z]]]
// PIPE-LABEL: func.func @single_lane_partial_rows
// PIPE-NOT: memref.subview
// PIPE-NOT: vector.gather
func.func @single_lane_partial_rows(%base: memref<64x32xf32>, %x: vector<1x1xindex>) -> vector<1x1xf32> {
  %c0 = arith.constant 0 : index
  %s = memref.subview %base[16, 8] [32, 24] [1, 1] : memref<64x32xf32> to memref<32x24xf32, strided<[32, 1], offset: 520>>
  %m = arith.constant dense<true> : vector<1x1xi1>
  %p = arith.constant dense<0.0> : vector<1x1xf32>
  %g = vector.gather %s[%c0, %c0] [%x], %m, %p : memref<32x24xf32, strided<[32, 1], offset: 520>>, vector<1x1xindex>, vector<1x1xi1>, vector<1x1xf32> into vector<1x1xf32>
  return %g : vector<1x1xf32>
}

// -----

// Several lanes through partial rows could cross from one row of the slice to
// the next, which is not the next row of the source: left alone.
// CHECK-LABEL: func.func @no_fold_lanes_partial_rows
// CHECK: memref.subview
// CHECK: vector.gather
// PIPE-LABEL: func.func @no_fold_lanes_partial_rows
// PIPE: vector.gather
func.func @no_fold_lanes_partial_rows(%base: memref<64x32xf32>, %i: index, %j: index) -> vector<8xf32> {
  %s = memref.subview %base[16, 8] [32, 24] [1, 1] : memref<64x32xf32> to memref<32x24xf32, strided<[32, 1], offset: 520>>
  %idx = vector.step : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %g = vector.gather %s[%i, %j] [%idx], %m, %p : memref<32x24xf32, strided<[32, 1], offset: 520>>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

// -----

// A rank-reducing subview, and a dynamic stride: left alone.
// CHECK-LABEL: func.func @no_fold_rank_reducing
// CHECK: memref.subview
// CHECK: vector.gather
// CHECK-LABEL: func.func @no_fold_dynamic_stride
// CHECK: memref.subview
// CHECK: vector.gather
func.func @no_fold_rank_reducing(%base: memref<4x64xf32>, %r: index, %j: index) -> vector<4xf32> {
  %s = memref.subview %base[%r, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
  %idx = arith.constant dense<[3, 1, 2, 0]> : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %s[%j] [%idx], %m, %p : memref<64xf32, strided<[1], offset: ?>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}
func.func @no_fold_dynamic_stride(%base: memref<64xf32>, %st: index, %j: index) -> vector<4xf32> {
  %s = memref.subview %base[0] [16] [%st] : memref<64xf32> to memref<16xf32, strided<[?]>>
  %idx = arith.constant dense<[3, 1, 2, 0]> : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %s[%j] [%idx], %m, %p : memref<16xf32, strided<[?]>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// Negative: a rank-1 strided subview with an i32 index vector. Scaling the
// lanes by the stride in i32 could wrap where the original access does not.
// CHECK-LABEL: func.func @no_fold_rank1_strided_i32
// CHECK: %[[S:.*]] = memref.subview
// CHECK: vector.gather %[[S]][%arg1] [%arg2], {{.*}} : memref<16xf32, strided<[2], offset: 4>>, vector<4xi32>
func.func @no_fold_rank1_strided_i32(%base: memref<64xf32>, %j: index, %idx: vector<4xi32>) -> vector<4xf32> {
  %s = memref.subview %base[4] [16] [2] : memref<64xf32> to memref<16xf32, strided<[2], offset: 4>>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %s[%j] [%idx], %m, %p : memref<16xf32, strided<[2], offset: 4>>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}
