// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s
// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise --mlir-print-local-scope | filecheck %s --check-prefix=MAPS

// decompose_softmax: linalg.softmax becomes a max reduction, a sum reduction computing
// exp(x - max) in its body and a final generic recomputing exp(x - max) / sum, for any
// rank, dimension, float type and dynamic shape; buffers and other element types stay.

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

// Dimension 0 of a 3-D tensor: the reduced loop is d0, statistics are 2-D.
// CHECK-LABEL: func.func @dim0_rank3
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8x16xf32>)
// CHECK: %[[STAT:.+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: %[[NINF:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[STAT]] : tensor<8x16xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[X]] : tensor<4x8x16xf32>) outs(%[[NINF]] : tensor<8x16xf32>)
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[STAT]] : tensor<8x16xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[X]], %[[MAX]] : {{.*}}) outs(%[[ZERO]] : tensor<8x16xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[MAX]], %[[SUM]] :
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
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<16xf16>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<16xf16>
// CHECK: %[[NINF:.+]] = arith.constant 0xFC00 : f16
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[NINF]] : f16)
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[X]] : tensor<16xf16>) outs(%[[FILL]] : tensor<f16>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %[[ACC:.+]]: f16):
// CHECK-NEXT: arith.maximumf %[[IN]], %[[ACC]] : f16
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[X]], %[[MAX]] :
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[X]], %[[MAX]], %[[SUM]] : {{.*}}) outs(%[[INIT]] : tensor<16xf16>)
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
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<2x3x4x5xbf16>, %[[G:[a-z0-9_]+]]: tensor<3xbf16>)
// CHECK: tensor.empty() : tensor<2x3x4xbf16>
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X]], %[[MAX]], %[[SUM]], %[[G]] : tensor<2x3x4x5xbf16>, tensor<2x3x4xbf16>, tensor<2x3x4xbf16>, tensor<3xbf16>)
// CHECK-NEXT: ^bb0(%{{.+}}: bf16, %{{.+}}: bf16, %[[S:.+]]: bf16, %[[GV:.+]]: bf16, %{{.+}}: bf16):
// CHECK: %[[Q:.+]] = arith.divf %{{.*}}, %[[S]] : bf16
// CHECK-NEXT: arith.mulf %[[Q]], %[[GV]] : bf16
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
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<?x?x?xf32>, %[[INIT:[a-z0-9_]+]]: tensor<?x?x?xf32>, %[[E16:[a-z0-9_]+]]: tensor<?x?x?xf16>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[D0:.*]] = tensor.dim %[[INIT]], %[[C0]]
// CHECK-DAG: %[[D2:.*]] = tensor.dim %[[INIT]], %[[C2]]
// CHECK: %[[STAT:.+]] = tensor.empty(%[[D0]], %[[D2]]) : tensor<?x?xf32>
// CHECK: %[[NINF:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[STAT]] : tensor<?x?xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<?x?x?xf32>) outs(%[[NINF]] : tensor<?x?xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]], %[[MAX]] :
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[MAX]], %[[SUM]] : {{.*}}) outs(%[[E16]] : tensor<?x?x?xf16>)
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
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x8xf32>)
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<?x8xf32>, tensor<?xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]], %[[SUM]] : tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>) outs(%[[E2]] : tensor<?x8xf32>)
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

// decompose_softmax: buffer semantics. Left alone.
// CHECK-LABEL: func.func @no_memref_softmax
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : memref<4x8xf32>)
// CHECK-NOT: linalg.generic
func.func @no_memref_softmax(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// Negative: a softmax on buffers is left alone.
// CHECK-LABEL: func.func @no_softmax_on_buffers
// CHECK: linalg.softmax
func.func @no_softmax_on_buffers(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
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
