// The lit test of examples/fold_addi_zero.py: positive and negative cases side by side.
// RUN: opt-py --load-pass-plugin=%S/fold_addi_zero.py -p fold-addi-zero %s --split-input-file | filecheck %s

// CHECK-LABEL: func.func @zero_on_the_right
// CHECK-NEXT: return %arg0 : i32
func.func @zero_on_the_right(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %a = arith.addi %x, %zero : i32
  return %a : i32
}

// -----

// A constant that is not zero stays.
// CHECK-LABEL: func.func @no_fold_nonzero
// CHECK: arith.addi %arg0, %{{.*}} : i32
func.func @no_fold_nonzero(%x: i32) -> i32 {
  %one = arith.constant 1 : i32
  %a = arith.addi %x, %one : i32
  return %a : i32
}

// -----

// Neither operand is a constant: nothing to fold.
// CHECK-LABEL: func.func @no_fold_no_constant
// CHECK: arith.addi %arg0, %arg1 : i32
func.func @no_fold_no_constant(%x: i32, %y: i32) -> i32 {
  %a = arith.addi %x, %y : i32
  return %a : i32
}
