// Input for examples/fold_addi_zero.py; see the README.
func.func @add_zero(%x: i32, %y: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %a = arith.addi %x, %zero : i32
  %b = arith.addi %zero, %y : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
