// Python passes take part in MLIR's IR printing like C++ passes do.
// RUN: opt-py %s -p 'builtin.module(func.func(canonicalize,test-fold-addi-zero),cse)' --mlir-print-ir-before-all --mlir-print-ir-after-all -o /dev/null 2>&1 | filecheck %s --check-prefix=ALL
// RUN: opt-py %s -p 'test-tag-func,test-fold-addi-zero,test-tag-func' --mlir-print-ir-after-change -o /dev/null 2>&1 | filecheck %s --check-prefix=CHANGE
// RUN: not opt-py %s -p 'test-tag-func,test-raise-in-pattern' --mlir-print-ir-after-failure -o /dev/null 2>&1 | filecheck %s --check-prefix=FAILURE

// ALL: IR Dump Before CanonicalizerPass
// ALL: IR Dump After CanonicalizerPass
// ALL: IR Dump Before TestFoldAddiZero: test-fold-addi-zero
// ALL: IR Dump After TestFoldAddiZero: test-fold-addi-zero
// ALL-NEXT: module {
// ALL: IR Dump Before CSEPass: cse
// ALL: IR Dump After CSEPass: cse

// The second test-tag-func changes nothing, so only the first two are shown.
// CHANGE: IR Dump After TestTagFunc: test-tag-func
// CHANGE: IR Dump After TestFoldAddiZero: test-fold-addi-zero
// CHANGE-NOT: IR Dump After

// FAILURE: IR Dump After TestRaiseInPattern Failed: test-raise-in-pattern
// FAILURE: test.tag = "tagged

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}
