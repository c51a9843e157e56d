// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s
// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise --mlir-print-local-scope | filecheck %s --check-prefix=MAPS

// recompute_producer_in_normalization: an elementwise producer read only by a
// normalization's reductions and final generic is recomputed in each; each precondition
// has a no_ case.

// An elementwise producer of the softmax input (here a scale, f16 -> f32) is
// recomputed in the max, the sum and the final generic, and goes away.
// CHECK-LABEL: func.func @producer_fused
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf16>)
// CHECK: %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf16>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[F]], %[[SCALE]] : f32
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[S]], %[[O]] : f32
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<4x8xf16>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[B:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[F]], %[[SCALE]] : f32
// CHECK-NEXT: arith.subf %[[S]], %[[B]] : f32
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]], %[[SUM]] : tensor<4x8xf16>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[B:[a-z0-9_]+]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[F]], %[[SCALE]] : f32
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
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[Z]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: linalg.index 1 : index
// CHECK: arith.maximumf
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[Z]], %[[MAX]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>)
// CHECK: linalg.index 1 : index
// CHECK: math.exp
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[Z]], %[[MAX]], %[[SUM]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
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
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[STAT:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<4x8xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}}["parallel", "reduction"]} ins(%[[X]], %[[STAT]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[S:[a-z0-9_]+]]: f32, %[[O:[a-z0-9_]+]]: f32):
// CHECK-NEXT: %[[Q1:.*]] = arith.mulf %[[A]], %[[TWO]] : f32
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

// Producer whose body reads outside its operands (tensor.extract): never
// fused; the softmax reads its result.
// CHECK-LABEL: func.func @no_extract_producer
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: tensor.extract
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[P]], %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]], %[[MAX]], %[[SUM]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
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
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[P]], %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[MAX]], %[[SUM]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
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
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<8x4xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-SAME: ins(%[[X]] : tensor<8x4xf32>) outs(%[[E]] : tensor<4x8xf32>)
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
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<4x8xf32>, %[[B:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[P]] : tensor<4x8xf32>, tensor<4xf32>)
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

// Negative: the producer is also the init (outs) of a reduction: it is read
// there as the accumulator's start, so it stays a tensor.
// CHECK-LABEL: func.func @no_producer_is_an_init
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: outs(%[[P]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_producer_is_an_init(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
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

// Negative: the softmax's producer broadcasts along the softmax dimension
// (p[i, j] = b[j] + b[j], softmax over dim 0). Recomputed in the max and
// sum reductions, nothing would bound their reduction loop (only p's result
// did), so the producer stays a tensor; the softmax is still decomposed.
// CHECK-LABEL: func.func @no_producer_bounds_the_reduction
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x8xf32>)
// CHECK-NOT: linalg.softmax
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @no_producer_bounds_the_reduction(%b: tensor<8xf32>) -> tensor<4x8xf32> {
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
// CHECK-LABEL: func.func @no_user_body_with_region
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%[[P]], %arg0 : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: scf.if
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @no_user_body_with_region(%x: tensor<4x8xf32>) -> tensor<4xf32> {
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
