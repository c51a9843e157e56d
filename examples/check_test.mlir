// A check test as IREE writes them (its tests/e2e/**/*.mlir): functions with no arguments and no
// results, inputs from util.unfoldable_constant (the compiler cannot fold them), expectations
// from the check dialect. Run it with: opt-py check examples/check_test.mlir

func.func @cumulative_sum() {
  %input = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<4xf32>
  %zero = util.unfoldable_constant dense<0.0> : tensor<f32>
  %sum:2 = iree_linalg_ext.scan dimension(0) inclusive(true)
      ins(%input : tensor<4xf32>) outs(%init, %zero : tensor<4xf32>, tensor<f32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      iree_linalg_ext.yield %s : f32
  } -> tensor<4xf32>, tensor<f32>
  check.expect_almost_eq_const(%sum#0, dense<[1.0, 3.0, 6.0, 10.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%sum#1, dense<10.0> : tensor<f32>) : tensor<f32>
  return
}

// Sorting an unfoldable constant in place: IREE binds the constant read-write (IREE #12233), so
// the module writes its own constant pool. Loaded read-only, as opt-py check loads it, it faults.
func.func @sort_in_place() {
  %input = util.unfoldable_constant dense<[4, 1, 3, 2]> : tensor<4xi32>
  %sorted = iree_linalg_ext.sort dimension(0) outs(%input : tensor<4xi32>) {
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      iree_linalg_ext.yield %lt : i1
  } -> tensor<4xi32>
  check.expect_eq_const(%sorted, dense<[1, 2, 3, 4]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @doubles() {
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %y = arith.addi %x, %x : tensor<3xi32>
  check.expect_eq_const(%y, dense<[2, 4, 6]> : tensor<3xi32>) : tensor<3xi32>
  return
}
