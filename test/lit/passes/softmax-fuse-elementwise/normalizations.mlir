// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s

// Normalizations written as explicit generics (no linalg.softmax) get the same consumer
// merging and producer recomputation; generics with no statistic are left alone.

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
