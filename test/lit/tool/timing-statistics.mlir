// Python passes appear in the timing report next to C++ passes, and report
// how often each pattern rewrote with the pass statistics.
// RUN: opt-py %s -p 'canonicalize,test-fold-addi-zero,cse' --mlir-timing -o /dev/null 2>&1 | filecheck %s --check-prefix=TIMING
// RUN: opt-py %s -p 'test-fold-addi-zero,cse' --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS

// TIMING: Execution time report
// TIMING: CanonicalizerPass
// TIMING-NEXT: TestFoldAddiZero
// TIMING-NEXT: CSEPass

// STATS-DAG: Pass statistics report
// STATS-DAG: (S) 2 fold_addi_of_zero - times the pattern rewrote the IR
// STATS-DAG: CSEPass

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  %c = arith.addi %b, %c0 : i32
  return %c : i32
}
