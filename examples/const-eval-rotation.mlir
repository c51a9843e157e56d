// IREE #19898's form: a constant read through a rotation map, (d3 + 3) mod 6. IREE's const-eval hoists the
// generic into an initializer and compiles it in a compilation of its own, where stock's tiling fails;
// with --fixes opt-py evaluates it with rotation-map-to-slices inside (docs/reference/const-eval.md).
func.func @rotate_const(%y: tensor<1x1x1x6xf32>) -> tensor<1x1x1x6xf32> {
  %x = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]]]> : tensor<1x1x1x6xf32>
  %e = tensor.empty() : tensor<1x1x1x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, (d3 + 3) mod 6)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x1x6xf32>) outs(%e : tensor<1x1x1x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x6xf32>
  %z = arith.addf %r, %y : tensor<1x1x1x6xf32>
  return %z : tensor<1x1x1x6xf32>
}
