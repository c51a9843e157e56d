// RUN: opt-py %s --split-input-file -p attention-add-zero-mask | filecheck %s

// A dynamic key length without a mask (nn.MultiheadAttention's form: V read transposed, (d0, d2, d4)):
// a zero mask over the key dim alone, sized by the keys, its map placed before the output's.
// CHECK-LABEL: func.func @dynamic_keys
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<8x?x16xf32>, %[[K:[a-z0-9_]+]]: tensor<8x?x16xf32>, %[[V:[a-z0-9_]+]]: tensor<8x16x?xf32>)
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[OUT:.*]] = tensor.empty(%{{.+}}) : tensor<8x?x16xf32>
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = tensor.dim %[[K]], %[[ONE]]
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[M:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<?xf32>) -> tensor<?xf32>
// CHECK: iree_linalg_ext.attention <indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}, #[[MASK:map[0-9]*]], #{{.*}}]> ins(%[[Q]], %[[K]], %[[V]], %[[SCALE]], %[[M]] : tensor<8x?x16xf32>, tensor<8x?x16xf32>, tensor<8x16x?xf32>, f32, tensor<?xf32>) outs(%[[OUT]] :
// CHECK-NEXT: ^bb0(%[[S:[a-z0-9_]+]]: f32):
// CHECK-NEXT: iree_linalg_ext.yield %[[S]]
func.func @dynamic_keys(%q: tensor<8x?x16xf32>, %k: tensor<8x?x16xf32>, %v: tensor<8x16x?xf32>) -> tensor<8x?x16xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %q, %c1 : tensor<8x?x16xf32>
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty(%n) : tensor<8x?x16xf32>
  %r = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]> ins(%q, %k, %v, %scale : tensor<8x?x16xf32>, tensor<8x?x16xf32>, tensor<8x16x?xf32>, f32) outs(%e : tensor<8x?x16xf32>) {
  ^bb0(%a: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8x?x16xf32>
  return %r : tensor<8x?x16xf32>
}

// -----

// Four dims (batch, heads, seq, head dim) in f16, scores in f32, queries of a static length: the mask
// follows the key dim (d5, K's third dim) and takes the scores' type.
// CHECK: #[[KEYS:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d5)>
// CHECK-LABEL: func.func @four_dims_f16
// CHECK-SAME: (%{{.+}}: tensor<2x4x7x32xf16>, %[[K:[a-z0-9_]+]]: tensor<2x4x?x32xf16>, %{{.+}}: tensor<2x4x?x32xf16>)
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[N:.*]] = tensor.dim %[[K]], %[[TWO]]
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[M:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK: iree_linalg_ext.attention <indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}, #[[KEYS]], #{{.*}}]>
// CHECK-SAME: %[[M]] : {{.*}}tensor<2x4x?x32xf16>, f16, tensor<?xf32>)
func.func @four_dims_f16(%q: tensor<2x4x7x32xf16>, %k: tensor<2x4x?x32xf16>, %v: tensor<2x4x?x32xf16>) -> tensor<2x4x7x32xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<2x4x7x32xf16>
  %r = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>]> ins(%q, %k, %v, %scale : tensor<2x4x7x32xf16>, tensor<2x4x?x32xf16>, tensor<2x4x?x32xf16>, f16) outs(%e : tensor<2x4x7x32xf16>) {
  ^bb0(%a: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<2x4x7x32xf16>
  return %r : tensor<2x4x7x32xf16>
}

// -----

// Integer queries and keys (quantized): the mask still takes the scores' type (f32 here).
// CHECK-LABEL: func.func @int_query
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%{{.+}}) : tensor<?xf32>
// CHECK: %[[M:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK: iree_linalg_ext.attention
// CHECK-SAME: %[[M]] : {{.*}}f32, tensor<?xf32>)
func.func @int_query(%q: tensor<8x4x16xi8>, %k: tensor<8x?x16xi8>, %v: tensor<8x?x16xf32>) -> tensor<8x4x16xf32> {
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<8x4x16xf32>
  %r = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]> ins(%q, %k, %v, %scale : tensor<8x4x16xi8>, tensor<8x?x16xi8>, tensor<8x?x16xf32>, f32) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%a: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8x4x16xf32>
  return %r : tensor<8x4x16xf32>
}

// -----

// Negative: a static key length (queries dynamic): IREE pads that right; left alone.
// CHECK-LABEL: func.func @no_zero_mask_static_keys
// CHECK-NOT: linalg.fill
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NOT: linalg.fill
// CHECK: iree_linalg_ext.attention
// CHECK-SAME: ins(%arg0, %arg1, %arg2, %[[SCALE]] : tensor<8x?x16xf32>, tensor<8x21x16xf32>, tensor<8x21x16xf32>, f32)
func.func @no_zero_mask_static_keys(%q: tensor<8x?x16xf32>, %k: tensor<8x21x16xf32>, %v: tensor<8x21x16xf32>) -> tensor<8x?x16xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %q, %c1 : tensor<8x?x16xf32>
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty(%n) : tensor<8x?x16xf32>
  %r = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]> ins(%q, %k, %v, %scale : tensor<8x?x16xf32>, tensor<8x21x16xf32>, tensor<8x21x16xf32>, f32) outs(%e : tensor<8x?x16xf32>) {
  ^bb0(%a: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8x?x16xf32>
  return %r : tensor<8x?x16xf32>
}

// -----

// Negative: a mask already (a causal one, as torch exports is_causal=True): left alone.
// CHECK-LABEL: func.func @no_zero_mask_has_mask
// CHECK-NOT: linalg.fill
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NOT: linalg.fill
// CHECK: iree_linalg_ext.attention
// CHECK-SAME: ins(%arg0, %arg1, %arg2, %[[SCALE]], %arg3 :
func.func @no_zero_mask_has_mask(%q: tensor<8x?x16xf32>, %k: tensor<8x?x16xf32>, %v: tensor<8x?x16xf32>, %m: tensor<8x?x?xi1>) -> tensor<8x?x16xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %q, %c1 : tensor<8x?x16xf32>
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty(%n) : tensor<8x?x16xf32>
  %r = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]> ins(%q, %k, %v, %scale, %m : tensor<8x?x16xf32>, tensor<8x?x16xf32>, tensor<8x?x16xf32>, f32, tensor<8x?x?xi1>) outs(%e : tensor<8x?x16xf32>) {
  ^bb0(%a: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8x?x16xf32>
  return %r : tensor<8x?x16xf32>
}

// -----

// Negative: buffer semantics (no result to replace): left alone.
// CHECK-LABEL: func.func @no_zero_mask_on_memrefs
// CHECK-NOT: linalg.fill
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NOT: linalg.fill
// CHECK: iree_linalg_ext.attention
// CHECK-SAME: ins(%arg0, %arg1, %arg2, %[[SCALE]] : memref<8x4x16xf32>, memref<8x?x16xf32>, memref<8x?x16xf32>, f32)
func.func @no_zero_mask_on_memrefs(%q: memref<8x4x16xf32>, %k: memref<8x?x16xf32>, %v: memref<8x?x16xf32>, %o: memref<8x4x16xf32>) {
  %scale = arith.constant 0.25 : f32
  iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]> ins(%q, %k, %v, %scale : memref<8x4x16xf32>, memref<8x?x16xf32>, memref<8x?x16xf32>, f32) outs(%o : memref<8x4x16xf32>) {
  ^bb0(%a: f32):
    iree_linalg_ext.yield %a : f32
  }
  return
}
