// Each chunk is parsed and run on its own; outputs are joined by the marker,
// and diagnostics keep the line numbers of the whole file.
// RUN: opt-py %s --split-input-file -p 'test-fold-addi-zero' | filecheck %s
// RUN: not opt-py %s --split-input-file -p 'test-emit-error' 2>&1 | filecheck %s --check-prefix=LINES

// CHECK-LABEL: func.func @first
// CHECK-NEXT: return %arg0
// CHECK: // -----
// CHECK-LABEL: func.func @second
// CHECK-NEXT: return %arg0
// LINES: split-input-file.mlir:13:1: error: test-emit-error on "first"
// LINES: split-input-file.mlir:21:1: error: test-emit-error on "second"
func.func @first(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}

// -----

func.func @second(%a: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %b = arith.addi %a, %c0 : i64
  return %b : i64
}
