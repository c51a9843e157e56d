// RUN: opt-py %s --split-input-file -p fold-subview-into-gather | filecheck %s
// The pipeline of issue 7: no subview and no contiguous gather is left.
// RUN: opt-py %s --split-input-file -p 'gather-to-load,fold-subview-into-gather,fold-memref-alias-ops' | filecheck %s --check-prefix=PIPE

// CHECK-DAG: #[[$DYN:.*]] = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-DAG: #[[$PLUS4:.*]] = affine_map<(d0) -> (d0 + 4)>
// CHECK-LABEL: func.func @dynamic_and_static_offsets
// CHECK-SAME: (%[[B:.*]]: memref<64x64xf32>, %[[O:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NOT: memref.subview
// CHECK: %[[R:.*]] = affine.apply #[[$DYN]](%[[I]])[%[[O]]]
// CHECK: %[[C:.*]] = affine.apply #[[$PLUS4]](%[[J]])
// CHECK: vector.gather %[[B]][%[[R]], %[[C]]] [%{{.*}}], %{{.*}}, %{{.*}} : memref<64x64xf32>
// PIPE-LABEL: func.func @dynamic_and_static_offsets
// PIPE-NOT: memref.subview
// PIPE: vector.gather %arg0
func.func @dynamic_and_static_offsets(%base: memref<64x64xf32>, %o: index, %i: index, %j: index) -> vector<8xf32> {
  %s = memref.subview %base[%o, 4] [16, 32] [1, 1] : memref<64x64xf32> to memref<16x32xf32, strided<[64, 1], offset: ?>>
  %idx = arith.constant dense<[1, 5, 2, 3, 0, 7, 6, 4]> : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %g = vector.gather %s[%i, %j] [%idx], %m, %p : memref<16x32xf32, strided<[64, 1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

// -----

// Static strides: base indices scale; a non-unit innermost stride scales the
// index vector as well.
// CHECK-DAG: #[[$S3:.*]] = affine_map<(d0) -> (d0 * 3 + 2)>
// CHECK-DAG: #[[$S2:.*]] = affine_map<(d0) -> (d0 * 2 + 1)>
// CHECK-LABEL: func.func @strided
// CHECK: %[[R:.*]] = affine.apply #[[$S3]](%arg1)
// CHECK: %[[C:.*]] = affine.apply #[[$S2]](%arg2)
// CHECK: %[[F:.*]] = arith.constant dense<2> : vector<4xindex>
// CHECK: %[[X:.*]] = arith.muli %{{.*}}, %[[F]] : vector<4xindex>
// CHECK: vector.gather %arg0[%[[R]], %[[C]]] [%[[X]]]
// PIPE-LABEL: func.func @strided
// PIPE-NOT: memref.subview
// PIPE: vector.gather %arg0
func.func @strided(%base: memref<64x64xf32>, %i: index, %j: index) -> vector<4xf32> {
  %s = memref.subview %base[2, 1] [8, 8] [3, 2] : memref<64x64xf32> to memref<8x8xf32, strided<[192, 2], offset: 129>>
  %idx = vector.step : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %g = vector.gather %s[%i, %j] [%idx], %m, %p : memref<8x8xf32, strided<[192, 2], offset: 129>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// A contiguous gather through a subview: gather-to-load turns it into a load,
// which fold-memref-alias-ops then folds; no subview, no gather.
// PIPE-LABEL: func.func @contiguous_through_subview
// PIPE-NOT: memref.subview
// PIPE-NOT: vector.gather
// PIPE: vector.load %arg0[
func.func @contiguous_through_subview(%base: memref<64x64xf32>, %o: index, %i: index, %k: index) -> vector<8xf32> {
  %s = memref.subview %base[%o, 8] [16, 32] [1, 1] : memref<64x64xf32> to memref<16x32xf32, strided<[64, 1], offset: ?>>
  %step = vector.step : vector<8xindex>
  %kb = vector.broadcast %k : index to vector<8xindex>
  %idx = arith.addi %step, %kb : vector<8xindex>
  %m = arith.constant dense<true> : vector<8xi1>
  %p = arith.constant dense<0.0> : vector<8xf32>
  %c0 = arith.constant 0 : index
  %g = vector.gather %s[%i, %c0] [%idx], %m, %p : memref<16x32xf32, strided<[64, 1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
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
