// RUN: opt-py %s --split-input-file -p linalg-empty-loop-to-init | filecheck %s
// RUN: opt-py %s --split-input-file -p linalg-empty-loop-to-init --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch.mm of a 5x0 by a 0x10 as IREE's torch frontend writes it: K = 0, so the result is the zero fill.
// CHECK-LABEL: util.func public @matmul_k0
// CHECK: %[[FILL:.+]] = linalg.fill
// CHECK-NOT: linalg.matmul
// CHECK: util.return %[[FILL]]
util.func public @matmul_k0(%a: tensor<5x0xf32>, %b: tensor<0x10xf32>) -> tensor<5x10xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<5x10xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<5x10xf32>) -> tensor<5x10xf32>
  %r = linalg.matmul ins(%a, %b : tensor<5x0xf32>, tensor<0x10xf32>) outs(%f : tensor<5x10xf32>) -> tensor<5x10xf32>
  util.return %r : tensor<5x10xf32>
}

// -----

// An accumulating batch matmul with K = 0 and dynamic M, N: the accumulator, whatever its values.
// CHECK-LABEL: func.func @batch_matmul_k0_accumulator
// CHECK-SAME: %[[ACC:[a-z0-9]+]]: tensor<2x?x?xi32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: return %[[ACC]]
func.func @batch_matmul_k0_accumulator(%a: tensor<2x?x0xi8>, %b: tensor<2x0x?xi8>, %acc: tensor<2x?x?xi32>) -> tensor<2x?x?xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x?x0xi8>, tensor<2x0x?xi8>) outs(%acc : tensor<2x?x?xi32>) -> tensor<2x?x?xi32>
  return %r : tensor<2x?x?xi32>
}

// -----

// A max over an empty dim: the init (the reduction's identity, as the frontend wrote it).
// CHECK-LABEL: func.func @reduce_empty_dim
// CHECK-SAME: %[[INIT:[a-z0-9]+]]: tensor<5xf32>
// CHECK-NOT: linalg.reduce
// CHECK: return %[[INIT]]
func.func @reduce_empty_dim(%a: tensor<5x0xf32>, %init: tensor<5xf32>) -> tensor<5xf32> {
  %r = linalg.reduce ins(%a : tensor<5x0xf32>) outs(%init : tensor<5xf32>) dimensions = [1]
    (%x: f32, %o: f32) {
      %m = arith.maximumf %x, %o : f32
      linalg.yield %m : f32
    }
  return %r : tensor<5xf32>
}

// -----

// A convolution over 0 input channels.
// CHECK-LABEL: func.func @conv_zero_channels
// CHECK-SAME: %[[INIT:[a-z0-9]+]]: tensor<1x4x6x6xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return %[[INIT]]
func.func @conv_zero_channels(%x: tensor<1x0x8x8xf32>, %w: tensor<4x0x3x3xf32>, %init: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x0x8x8xf32>, tensor<4x0x3x3xf32>) outs(%init : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}

// -----

// Negative: every range non-zero.
// WHY: empty_loop_to_init: no match on 'linalg.matmul' at {{.*}}: no loop of static range 0
// CHECK-LABEL: func.func @no_empty_loop
// CHECK: linalg.matmul
func.func @no_empty_loop(%a: tensor<5x3xf32>, %b: tensor<3x10xf32>, %c: tensor<5x10xf32>) -> tensor<5x10xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<5x3xf32>, tensor<3x10xf32>) outs(%c : tensor<5x10xf32>) -> tensor<5x10xf32>
  return %r : tensor<5x10xf32>
}

// -----

// Negative: K dynamic (0 only at run time, which IREE's cost model does not divide by).
// WHY: empty_loop_to_init: no match on 'linalg.matmul' at {{.*}}: no loop of static range 0
// CHECK-LABEL: func.func @no_dynamic_k
// CHECK: linalg.matmul
func.func @no_dynamic_k(%a: tensor<5x?xf32>, %b: tensor<?x10xf32>, %c: tensor<5x10xf32>) -> tensor<5x10xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<5x?xf32>, tensor<?x10xf32>) outs(%c : tensor<5x10xf32>) -> tensor<5x10xf32>
  return %r : tensor<5x10xf32>
}

// -----

// Negative: an empty result (M = 0 and K = 0), which IREE elides before dispatches are formed.
// WHY: empty_loop_to_init: no match on 'linalg.matmul' at {{.*}}: an empty result (IREE elides it before dispatches are formed)
// CHECK-LABEL: func.func @no_empty_result
// CHECK: linalg.matmul
func.func @no_empty_result(%a: tensor<0x0xf32>, %b: tensor<0x10xf32>, %c: tensor<0x10xf32>) -> tensor<0x10xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<0x0xf32>, tensor<0x10xf32>) outs(%c : tensor<0x10xf32>) -> tensor<0x10xf32>
  return %r : tensor<0x10xf32>
}

// -----

// Negative: buffer semantics (no result to replace).
// WHY: empty_loop_to_init: no match on 'linalg.matmul' at {{.*}}: not on tensors (buffer semantics, or no result)
// CHECK-LABEL: func.func @no_buffers
// CHECK: linalg.matmul
func.func @no_buffers(%a: memref<5x0xf32>, %b: memref<0x10xf32>, %c: memref<5x10xf32>) {
  linalg.matmul ins(%a, %b : memref<5x0xf32>, memref<0x10xf32>) outs(%c : memref<5x10xf32>)
  return
}

// -----

// Negative: a generic with K = 0 is not a root: IREE folds an empty generic to its init itself.
// CHECK-LABEL: func.func @no_generic
// CHECK: linalg.generic
func.func @no_generic(%a: tensor<5x0xf32>, %b: tensor<0x10xf32>, %c: tensor<5x10xf32>) -> tensor<5x10xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<5x0xf32>, tensor<0x10xf32>) outs(%c : tensor<5x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<5x10xf32>
  return %r : tensor<5x10xf32>
}
