// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s
// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise --mlir-print-local-scope | filecheck %s --check-prefix=MAPS

// fuse_consumers_into_normalization: elementwise consumers of a softmax merge into its
// final generic, one single use at a time; each reason the chain stops has a no_ case.

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
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]]
// CHECK-NEXT: %[[EX:.*]] = math.exp %[[D]]
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[EX]], %[[C]] : f32
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
// CHECK-SAME: (%{{.+}}: tensor<4x8xf32>, %[[W:[a-z0-9_]+]]: tensor<8x4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.reduce ins(%[[Y]] : tensor<4x8xf32>)
// CHECK: %[[Y2:.*]] = linalg.generic {{.*}}["parallel", "parallel"]}
// CHECK: linalg.matmul ins(%[[Y2]], %[[W]] : tensor<4x8xf32>, tensor<8x4xf32>)
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
