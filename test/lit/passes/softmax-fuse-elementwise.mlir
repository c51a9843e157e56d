// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s
// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise --mlir-print-local-scope | filecheck %s --check-prefix=MAPS

// ===========================================================================
// Positive: linalg.softmax
// ===========================================================================

// Softmax alone: max reduction, sum reduction computing exp(x - max) in its
// body, final generic recomputing exp(x - max) / sum. The numerator is never
// a tensor.
// CHECK-LABEL: func.func @softmax_alone
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[R:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[MI:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[R]] : tensor<4xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>) outs(%[[MI]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[A]], %[[O]] : f32
// CHECK-NEXT: linalg.yield %[[M]]
// CHECK: %[[SI:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[R]] : tensor<4xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>) outs(%[[SI]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[EX:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: %[[ACC:.*]] = arith.addf %[[EX]], %[[O]] : f32
// CHECK-NEXT: linalg.yield %[[ACC]]
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]], %[[SUM]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[C:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[EX:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[EX]], %[[C]] : f32
// CHECK-NEXT: linalg.yield %[[Q]]
// CHECK: return %[[Y]]
// CHECK-NOT: linalg.softmax
// MAPS-LABEL: func.func @softmax_alone
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
func.func @softmax_alone(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Softmax times another tensor: the multiply runs in the final generic.
// CHECK-LABEL: func.func @softmax_mul
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[W:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]], %[[SUM]], %[[W]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[C:[a-z0-9_]+]]: f32, %[[V:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[EX:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[EX]], %[[C]] : f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[Q]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[P]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
// MAPS-LABEL: func.func @softmax_mul
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax_mul(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// A chain: bias broadcast along rows, then truncf to f16. One generic, with
// the bias read through its broadcast map and the f16 init and result.
// CHECK-LABEL: func.func @softmax_bias_truncf
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[BIAS:[a-z0-9_]+]]: tensor<8xf32>)
// CHECK: %[[E16:.*]] = tensor.empty() : tensor<4x8xf16>
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]], %[[SUM]], %[[BIAS]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) outs(%[[E16]] : tensor<4x8xf16>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[C:[a-z0-9_]+]]: f32, %[[V:[a-z0-9_]+]]: f32, %{{.*}}: f16):
// CHECK-NEXT: arith.subf %[[A]], %[[B]]
// CHECK-NEXT: math.exp
// CHECK-NEXT: %[[Q:.*]] = arith.divf %{{.*}}, %[[C]] : f32
// CHECK-NEXT: %[[P:.*]] = arith.addf %[[Q]], %[[V]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK-NEXT: } -> tensor<4x8xf16>
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
// MAPS-LABEL: func.func @softmax_bias_truncf
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @softmax_bias_truncf(%x: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.addf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  return %t : tensor<4x8xf16>
}

// -----

// An elementwise producer of the softmax input (here a scale, f16 -> f32) is
// recomputed in the max, the sum and the final generic, and goes away.
// CHECK-LABEL: func.func @producer_fused
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf16>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[F]], %{{.*}} : f32
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[S]], %[[O]] : f32
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<4x8xf16>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[B:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[F]], %{{.*}} : f32
// CHECK-NEXT: arith.subf %[[S]], %[[B]] : f32
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]], %[[SUM]] : tensor<4x8xf16>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[B:[a-z0-9_]+]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[F]], %{{.*}} : f32
// CHECK-NEXT: arith.subf %[[S]], %[[B]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @producer_fused(%x: tensor<4x8xf16>) -> tensor<4x8xf32> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f16, %o: f32):
    %f = arith.extf %v : f16 to f32
    %r = arith.mulf %f, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// A chain of producers, one of them reading its init and using linalg.index:
// all recomputed; the index keeps its loop (the maps are the identity).
// CHECK-LABEL: func.func @producer_chain
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[Z:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[Z]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: linalg.index 1 : index
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[Z]], %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>)
// CHECK: linalg.index 1 : index
// CHECK: math.exp
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[Z]], %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: linalg.index 1 : index
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @producer_chain(%x: tensor<4x8xf32>, %z: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %r = arith.addf %v, %jf : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%q : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Dimension 0 of a 3-D tensor: the reduced loop is d0, statistics are 2-D.
// CHECK-LABEL: func.func @dim0_rank3
// CHECK: tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]} ins(%{{.*}} : tensor<4x8x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-NOT: linalg.softmax
// MAPS-LABEL: func.func @dim0_rank3
// MAPS: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>]
// MAPS: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>]
// MAPS: indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
func.func @dim0_rank3(%x: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %e = tensor.empty() : tensor<4x8x16xf32>
  %s = linalg.softmax dimension(0) ins(%x : tensor<4x8x16xf32>) outs(%e : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %s : tensor<4x8x16xf32>
}

// -----

// Rank 1 (f16): the statistics are 0-D tensors; computed in f16, as IREE does.
// CHECK-LABEL: func.func @rank1_f16
// CHECK: arith.constant 0xFC00 : f16
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%{{.*}} : tensor<16xf16>) outs(%{{.*}} : tensor<f16>)
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f16
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]} {{.*}} outs(%{{.*}} : tensor<16xf16>)
// MAPS-LABEL: func.func @rank1_f16
// MAPS: indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>]
func.func @rank1_f16(%x: tensor<16xf16>) -> tensor<16xf16> {
  %e = tensor.empty() : tensor<16xf16>
  %s = linalg.softmax dimension(0) ins(%x : tensor<16xf16>) outs(%e : tensor<16xf16>) -> tensor<16xf16>
  return %s : tensor<16xf16>
}

// -----

// Rank 4, last dimension, bf16, with a multiply by a broadcast scale.
// CHECK-LABEL: func.func @rank4_last_bf16
// CHECK: tensor.empty() : tensor<2x3x4xbf16>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x4x5xbf16>, tensor<2x3x4xbf16>, tensor<2x3x4xbf16>, tensor<3xbf16>)
// CHECK: arith.divf %{{.*}}, %{{.*}} : bf16
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} : bf16
// CHECK-NOT: linalg.generic
// MAPS-LABEL: func.func @rank4_last_bf16
// MAPS: affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @rank4_last_bf16(%x: tensor<2x3x4x5xbf16>, %g: tensor<3xbf16>) -> tensor<2x3x4x5xbf16> {
  %e = tensor.empty() : tensor<2x3x4x5xbf16>
  %s = linalg.softmax dimension(3) ins(%x : tensor<2x3x4x5xbf16>) outs(%e : tensor<2x3x4x5xbf16>) -> tensor<2x3x4x5xbf16>
  %m = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %g : tensor<2x3x4x5xbf16>, tensor<3xbf16>) outs(%e : tensor<2x3x4x5xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %r = arith.mulf %a, %b : bf16
    linalg.yield %r : bf16
  } -> tensor<2x3x4x5xbf16>
  return %m : tensor<2x3x4x5xbf16>
}

// -----

// Dynamic shapes: the statistics' extents come from tensor.dim of the init
// (it has the input's shape).
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<?x?x?xf32>, %[[INIT:[a-z0-9_]+]]: tensor<?x?x?xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[D0:.*]] = tensor.dim %[[INIT]], %[[C0]]
// CHECK-DAG: %[[D2:.*]] = tensor.dim %[[INIT]], %[[C2]]
// CHECK: tensor.empty(%[[D0]], %[[D2]]) : tensor<?x?xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<?x?x?xf32>) outs(%{{.*}} : tensor<?x?xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} {{.*}} outs(%{{.*}} : tensor<?x?x?xf16>)
// CHECK: arith.truncf
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @dynamic(%x: tensor<?x?x?xf32>, %e: tensor<?x?x?xf32>, %e16: tensor<?x?x?xf16>) -> tensor<?x?x?xf16> {
  %s = linalg.softmax dimension(1) ins(%x : tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<?x?x?xf32>) outs(%e16 : tensor<?x?x?xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  } -> tensor<?x?x?xf16>
  return %t : tensor<?x?x?xf16>
}

// -----

// Dynamic, with a tensor.empty init: its size operands are used directly. The
// producer's result also feeds a tensor.dim, which reads only its shape: it
// is redirected to the producer's init and the producer is still recomputed.
// CHECK-LABEL: func.func @dynamic_empty_init
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<?x8xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %[[C0]]
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x8xf32>
// CHECK: %[[D2:.*]] = tensor.dim %[[E]], %[[C0]]
// CHECK: %[[E2:.*]] = tensor.empty(%[[D2]]) : tensor<?x8xf32>
// CHECK: tensor.empty(%[[D2]]) : tensor<?xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<?x8xf32>)
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[X]], %{{.*}} : tensor<?x8xf32>, tensor<?xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>) outs(%[[E2]] : tensor<?x8xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_empty_init(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%d) : tensor<?x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  %d2 = tensor.dim %p, %c0 : tensor<?x8xf32>
  %e2 = tensor.empty(%d2) : tensor<?x8xf32>
  %s = linalg.softmax dimension(1) ins(%p : tensor<?x8xf32>) outs(%e2 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %s : tensor<?x8xf32>
}

// -----

// The chain stops at a result with two uses: the multiply is merged, the
// final result is also returned, so the truncf stays a separate generic.
// CHECK-LABEL: func.func @chain_stops_at_second_use
// CHECK: linalg.generic {{.*}}"reduction"
// CHECK: linalg.generic {{.*}}"reduction"
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.truncf
// CHECK: return %[[Y]], %[[T]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain_stops_at_second_use(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf16>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %e16 = tensor.empty() : tensor<4x8xf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x8xf32>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  return %m, %t : tensor<4x8xf32>, tensor<4x8xf16>
}

// -----

// A reduction generic over the softmax is not merged into the final generic
// (not elementwise); instead the final generic, whose only use it is, is
// recomputed in it as a producer: nothing of row size is stored.
// CHECK-LABEL: func.func @softmax_then_row_sum
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: %[[R:.*]] = linalg.generic {{.*}}["parallel", "reduction"]} ins(%[[X]], %[[MAX]], %[[SUM]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: math.exp
// CHECK-NEXT: arith.divf
// CHECK-NEXT: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_then_row_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.addf %a, %o : f32
    linalg.yield %q : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A consumer reading the softmax transposed (y[i, j] = s[j, i] * w[i, j]):
// merged in the consumer's loops; x is read transposed and the statistics by
// the consumer's d1 (the softmax's row is the consumer's column).
// CHECK-LABEL: func.func @transposed_consumer
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<8x8xf32>, %[[W:[a-z0-9_]+]]: tensor<8x8xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]], %[[SUM]], %[[W]] :
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
// MAPS-LABEL: func.func @transposed_consumer
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_consumer(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.generic {indexing_maps = [#tr, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// ===========================================================================
// Positive: normalizations written as explicit generics
// ===========================================================================

// -----

// Group-norm style: mean, centred x - mean (read by the variance reduction
// and the final generic), variance, (x - mean) * rstd, then * gamma and
// truncf. The scale chain goes into the final generic; x - mean and its
// square are recomputed in the variance reduction and the final generic:
// the only tensors left are the statistics and the f16 result.
// CHECK-LABEL: func.func @group_norm
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[G:[a-z0-9_]+]]: tensor<8xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>)
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}}["parallel"]} ins(%[[SUM]] : tensor<4xf32>)
// CHECK: %[[VAR:.*]] = linalg.generic {{.*}}["parallel", "reduction"]} ins(%[[X]], %[[MEAN]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[M:[a-z0-9_]+]]: f32, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[A]], %[[M]] : f32
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[C]], %[[C]] : f32
// CHECK-NEXT: %[[ACC:.*]] = arith.addf %[[SQ]], %[[O]] : f32
// CHECK: %[[RSTD:.*]] = linalg.generic {{.*}}["parallel"]} ins(%[[VAR]] : tensor<4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]} ins(%[[X]], %[[MEAN]], %[[RSTD]], %[[G]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[M:[a-z0-9_]+]]: f32, %[[R:[a-z0-9_]+]]: f32, %[[S:[a-z0-9_]+]]: f32, %{{.*}}: f16):
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[A]], %[[M]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[C]], %[[R]] : f32
// CHECK-NEXT: %[[SC:.*]] = arith.mulf %[[N]], %[[S]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[SC]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @group_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf16> {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4x8xf16>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%sum : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %cen = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mean : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %r = arith.subf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%cen : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %vs = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%vs : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %a, %n : f32
    %p = arith.addf %d, %eps : f32
    %r = math.rsqrt %p : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %norm = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%cen, %rstd : tensor<4x8xf32>, tensor<4xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.mulf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sc = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%norm, %g : tensor<4x8xf32>, tensor<8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.mulf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sc : tensor<4x8xf32>) outs(%e3 : tensor<4x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  return %out : tensor<4x8xf16>
}

// -----

// Softmax written as explicit generics with the numerator materialized (the
// shape of IREE's decompose-softmax{use-fusion=false}): the numerator is
// recomputed in the sum and the final generic, and the multiply is merged.
// CHECK-LABEL: func.func @explicit_softmax
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[W:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}["parallel", "reduction"]} ins(%[[X]], %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: math.exp
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]} ins(%[[X]], %[[MAX]], %[[SUM]], %[[W]] :
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @explicit_softmax(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = tensor.empty() : tensor<4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%mi : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %num = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<4x8xf32>
  %si = linalg.fill ins(%cst : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%num : tensor<4x8xf32>) outs(%si : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%num, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%sm, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A producer read through a transposed (permutation) map by a reduction, its
// only user: recomputed there, its linalg.index renumbered to the user's loop.
// CHECK-LABEL: func.func @producer_transposed_read
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}}["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: linalg.index 0 : index
// CHECK: return %[[S]]
// MAPS-LABEL: func.func @producer_transposed_read
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @producer_transposed_read(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %r = arith.mulf %v, %jf : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<4x8xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// Producers reading each other (a diamond: p = (2x - stat) * 2x, summed by
// rows). The normalization final 2x - stat takes in its consumer p; then
// 2x is recomputed in it and in the reduction, and that one in the
// reduction: a single generic reads x and the statistic.
// CHECK-LABEL: func.func @producer_diamond
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[Y:[a-z0-9_]+]]: tensor<4x8xf32>)
// CHECK: %[[STAT:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<4x8xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}}["parallel", "reduction"]} ins(%[[X]], %[[STAT]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[S:[a-z0-9_]+]]: f32, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: %[[Q1:.*]] = arith.mulf %[[A]], %{{.*}} : f32
// CHECK-NEXT: %[[Q2:.*]] = arith.subf %[[Q1]], %[[S]] : f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[Q2]], %[[Q1]] : f32
// CHECK-NEXT: %[[ACC:.*]] = arith.addf %[[P]], %[[O]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @producer_diamond(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %stat = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %q1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %q2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%q1, %stat : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.subf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%q2, %q1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %red = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %red : tensor<4xf32>
}

// ===========================================================================
// Negative: each precondition
// ===========================================================================

// -----

// decompose_softmax: buffer semantics. Left alone.
// CHECK-LABEL: func.func @no_memref_softmax
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : memref<4x8xf32>)
// CHECK-NOT: linalg.generic
func.func @no_memref_softmax(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// decompose_softmax: element type not f16/bf16/f32/f64 (f8, integers).
// CHECK-LABEL: func.func @no_f8_softmax
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<4x8xf8E4M3FN>)
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<4x8xi32>)
// CHECK-NOT: linalg.generic
func.func @no_f8_softmax(%x: tensor<4x8xf8E4M3FN>, %i: tensor<4x8xi32>) -> (tensor<4x8xf8E4M3FN>, tensor<4x8xi32>) {
  %e = tensor.empty() : tensor<4x8xf8E4M3FN>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf8E4M3FN>) outs(%e : tensor<4x8xf8E4M3FN>) -> tensor<4x8xf8E4M3FN>
  %ei = tensor.empty() : tensor<4x8xi32>
  %si = linalg.softmax dimension(1) ins(%i : tensor<4x8xi32>) outs(%ei : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %s, %si : tensor<4x8xf8E4M3FN>, tensor<4x8xi32>
}

// -----

// Producer whose body reads outside its operands (tensor.extract): never
// fused; the softmax reads its result.
// CHECK-LABEL: func.func @no_extract_producer
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: tensor.extract
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_extract_producer(%x: tensor<4x8xf32>, %t: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %j = linalg.index 1 : index
    %w = tensor.extract %t[%j] : tensor<8xf32>
    %r = arith.addf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Producer with another use (returned): it is materialized for that use
// anyway, so it is not recomputed in the softmax.
// CHECK-LABEL: func.func @no_producer_other_use
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: return %[[Y]], %[[P]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_producer_other_use(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %p : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Producer read by more than 3 generics (two softmaxes: 6 uses): recomputing
// it in each would cost 6x its body; left materialized.
// CHECK-LABEL: func.func @no_producer_too_many_uses
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// CHECK-COUNT-6: ins(%[[P]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_producer_too_many_uses(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = linalg.softmax dimension(0) ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %t : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Producer that is not elementwise (its output map is a transpose): left alone.
// CHECK-LABEL: func.func @no_transposing_producer
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_transposing_producer(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Producer read by a reduction through a broadcast map (each element read
// once per d1): recomputing would repeat it 8 times. Left alone.
// CHECK-LABEL: func.func @no_broadcast_read_producer
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[P]] : tensor<4x8xf32>, tensor<4xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
func.func @no_broadcast_read_producer(%x: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%b : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %p : tensor<4x8xf32>, tensor<4xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %q: f32, %o: f32):
    %m = arith.mulf %a, %q : f32
    %r = arith.addf %m, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Producer used as a user's init (outs): left alone.
// CHECK-LABEL: func.func @no_init_producer
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// CHECK: linalg.generic {{.*}} outs(%[[P]] : tensor<4xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
func.func @no_init_producer(%x: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e1 = tensor.empty() : tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%b : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%p : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Producer read by a reduction and by an elementwise generic that is not a
// normalization final: not the normalization shape, left alone.
// CHECK-LABEL: func.func @no_producer_plain_user
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @no_producer_plain_user(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %s, %d : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// Producer outside the block of its users (the softmax is inside scf.if):
// not moved into another block.
// CHECK-LABEL: func.func @no_producer_other_block
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// CHECK: scf.if
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_producer_other_block(%x: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %r = scf.if %c -> tensor<4x8xf32> {
    %s = linalg.softmax dimension(1) ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  } else {
    scf.yield %x : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Consumer in another block (inside scf.if): not moved out of it.
// CHECK-LABEL: func.func @no_consumer_other_block
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: scf.if
// CHECK: linalg.generic {{.*}} ins(%[[Y]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_consumer_other_block(%x: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = scf.if %c -> tensor<4x8xf32> {
    %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %q = arith.mulf %v, %v : f32
      linalg.yield %q : f32
    } -> tensor<4x8xf32>
    scf.yield %m : tensor<4x8xf32>
  } else {
    scf.yield %x : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Consumer whose softmax operand has another use (also returned; or the
// consumer reads it twice): the softmax result must stay a tensor.
// CHECK-LABEL: func.func @no_consumer_other_use
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<4x8xf32>)
// CHECK: %[[Y2:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.generic {{.*}} ins(%[[Y2]], %[[Y2]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: return %[[M]], %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_consumer_other_use(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  %s2 = linalg.softmax dimension(0) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s2, %s2 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %q = arith.mulf %v, %w : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  return %m, %s, %m2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Non-elementwise consumers: a linalg.reduce and a matmul (not generics; a
// consumer is merged only when it is an elementwise generic).
// CHECK-LABEL: func.func @no_non_elementwise_consumer
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.reduce ins(%[[Y]] : tensor<4x8xf32>)
// CHECK: %[[Y2:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.matmul ins(%[[Y2]], %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
func.func @no_non_elementwise_consumer(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.reduce ins(%s : tensor<4x8xf32>) outs(%z : tensor<4xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %q = arith.addf %a, %o : f32
      linalg.yield %q : f32
    }
  %s2 = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e44 = tensor.empty() : tensor<4x4xf32>
  %z44 = linalg.fill ins(%c0 : f32) outs(%e44 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%s2, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z44 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r, %mm : tensor<4xf32>, tensor<4x4xf32>
}

// -----

// Consumer reading the softmax through a broadcast along the reduced
// dimension (element (i, j) needs s[i, 0], for every j) or along a new
// dimension (s[i, j] for every k): each element of the softmax would be
// recomputed for every j or k. Not merged.
// CHECK-LABEL: func.func @no_broadcast_read
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.generic {{.*}} ins(%[[Y]] : tensor<8x8xf32>)
// CHECK: %[[Y2:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.generic {{.*}} ins(%[[Y2]] : tensor<8x8xf32>)
// MAPS-LABEL: func.func @no_broadcast_read
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>]
// MAPS: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_broadcast_read(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8x3xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    linalg.yield %q : f32
  } -> tensor<8x8xf32>
  %s2 = linalg.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<8x8x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s2 : tensor<8x8xf32>) outs(%e3 : tensor<8x8x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    linalg.yield %q : f32
  } -> tensor<8x8x3xf32>
  return %b, %t : tensor<8x8xf32>, tensor<8x8x3xf32>
}

// -----

// Consumer taking the softmax as its init (outs): not merged.
// CHECK-LABEL: func.func @no_consumer_init
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.generic {{.*}} outs(%[[Y]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_consumer_init(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x8xf32>) outs(%s : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %q = arith.mulf %v, %o : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Consumers that are not elementwise generics in other ways: a transposing
// output map, two results, a body op outside arith/math (func.call), an
// operand read through a map that is not a projected permutation (a diagonal).
// CHECK-LABEL: func.func @no_odd_consumers
// CHECK-COUNT-4: linalg.generic {{.*}}["parallel", "parallel"]} ins(%{{[0-9]+[^:]*}} : tensor<8x8xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#diag = affine_map<(d0, d1) -> (d1, d1)>
func.func private @f(f32) -> f32
func.func @no_odd_consumers(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %s1 = linalg.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%s1 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %s2 = linalg.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %two:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s2 : tensor<8x8xf32>) outs(%e, %e : tensor<8x8xf32>, tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32, %o2: f32):
    %n = arith.negf %v : f32
    linalg.yield %v, %n : f32, f32
  } -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %s3 = linalg.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s3 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %q = func.call @f(%v) : (f32) -> f32
    linalg.yield %q : f32
  } -> tensor<8x8xf32>
  %s5 = linalg.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %d = linalg.generic {indexing_maps = [#id, #diag, #id], iterator_types = ["parallel", "parallel"]} ins(%s5, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %q = arith.mulf %v, %w : f32
    linalg.yield %q : f32
  } -> tensor<8x8xf32>
  return %t, %two#0, %two#1, %c, %d : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Explicit generics with no statistic: a bias add followed by a scale is not
// a normalization; the pass leaves plain elementwise chains alone.
// CHECK-LABEL: func.func @no_statistic
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @no_statistic(%x: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.addf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// A producer with no inputs (its value is its row index) read twice by one
// reduction, once transposed: each read is recomputed with its own
// linalg.index renumbering (index 0 for the direct read, index 1 for the
// transposed one), not one shared value.
// CHECK-LABEL: func.func @index_producer_read_twice
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-DAG: linalg.index 0 : index
// CHECK-DAG: linalg.index 1 : index
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @index_producer_read_twice(%w: tensor<4x4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %c10 = arith.constant 10.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #tr, #id, #row], iterator_types = ["parallel", "reduction"]} ins(%p, %p, %w : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c10 : f32
    %s = arith.addf %m, %b : f32
    %t = arith.mulf %c, %s : f32
    %u = arith.addf %o, %t : f32
    linalg.yield %u : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Negative: the softmax's producer broadcasts along the softmax dimension
// (p[i, j] = b[j] + b[j], softmax over dim 0). Recomputed in the max and
// sum reductions, nothing would bound their reduction loop (only p's result
// did), so the producer stays a tensor; the softmax is still decomposed.
// CHECK-LABEL: func.func @producer_bounds_the_reduction
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
// CHECK-NOT: linalg.softmax
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @producer_bounds_the_reduction(%b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.addf %a, %a : f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(0) ins(%p : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Negative: the reduction using the producer has an scf.if in its body; the
// inliner remaps top-level ops only, so the producer is not recomputed there.
// CHECK-LABEL: func.func @user_body_with_region
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%[[P]], %arg0 : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: scf.if
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @user_body_with_region(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]} ins(%p, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.cmpf ogt, %b, %z : f32
    %v = scf.if %c -> f32 {
      scf.yield %a : f32
    } else {
      scf.yield %b : f32
    }
    %u = arith.addf %o, %v : f32
    linalg.yield %u : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A merged consumer keeps its own attributes (a discardable tag, library_call).
// CHECK-LABEL: func.func @consumer_attributes_kept
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic {{.*}}library_call = "keep_me"{{.*}}my.tag = 7 : i32
// CHECK-NOT: linalg.generic
func.func @consumer_attributes_kept(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], library_call = "keep_me"} ins(%s, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {my.tag = 7 : i32} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Negative: the producer is also the init (outs) of a reduction: it is read
// there as the accumulator's start, so it stays a tensor.
// CHECK-LABEL: func.func @producer_is_an_init
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: outs(%[[P]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @producer_is_an_init(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %a : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%p : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Negative: a softmax on buffers is left alone.
// CHECK-LABEL: func.func @softmax_on_buffers
// CHECK: linalg.softmax
func.func @softmax_on_buffers(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}
