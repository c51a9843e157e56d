// --debug-patterns: one line per Python pattern application and per reported
// match failure, with the pattern, the root op and its location.
// RUN: opt-py %s -p 'test-fold-addi-zero,test-walk-mul-to-add' --debug-patterns -o /dev/null 2>&1 | filecheck %s

// CHECK: [test-fold-addi-zero] fold_addi_of_zero: applied to 'arith.addi' at {{.*}}debug-patterns.mlir:12:8
// CHECK: [test-fold-addi-zero] fold_addi_of_zero: no match on 'arith.addi' at {{.*}}debug-patterns.mlir:14:8: rhs is not the constant 0
// CHECK: [test-walk-mul-to-add] mul_by_two_to_add: applied to 'arith.muli' at {{.*}}debug-patterns.mlir:13:8

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %b = arith.addi %a, %c0 : i32
  %m = arith.muli %b, %c2 : i32
  %n = arith.addi %m, %c2 : i32
  return %n : i32
}
