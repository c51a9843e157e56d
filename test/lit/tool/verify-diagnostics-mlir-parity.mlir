// --verify-diagnostics sees what mlir-opt's sees: no "see current operation"
// note on an op's errors (mlir-opt turns them off in that mode, the bindings
// cannot, so opt-py drops them), notes of the diagnostic itself kept, and the
// errors a C++ pass emits while still succeeding (the bindings drop those
// unless they are sent to the handler).
// RUN: opt-py %s --split-input-file --verify-diagnostics -p 'builtin.module(func.func(iree-llvmcpu-check-ir-before-llvm-conversion))'
// Without --verify-diagnostics the note is printed, as mlir-opt prints it.
// RUN: not opt-py %s --split-input-file -p 'builtin.module(func.func(iree-llvmcpu-check-ir-before-llvm-conversion))' 2>&1 | filecheck %s
// The error of a pass that succeeds is printed, and the exit status is 0, as with iree-opt.
// RUN: echo 'func.func @f() { return }' | opt-py - -p "builtin.module(func.func(iree-linalg-ext-decompose-aggregated-ops{filter-ops='arith.negf'}))" -o /dev/null 2>&1 | filecheck %s --check-prefix=KEPT

// CHECK: error: 'func.return' op has 1 operands, but enclosing function (@one_result) returns 2
// CHECK-NEXT: func.return
// CHECK: note: see current operation: "func.return"
// CHECK: error: 'func.func' op exceeded stack allocation limit of 32768 bytes for function. Got 131072 bytes
// CHECK: note: see current operation:
// CHECK-NEXT: "func.func"() <{function_type = () -> (), sym_name = "big_stack"}>
// KEPT: <stdin>:1:1: error: operation 'arith.negf' does not implement AggregatedOpInterface

// A verifier error found by the parser.
func.func @one_result(%x: f32) -> (f32, f32) {
  // expected-error@+1 {{'func.return' op has 1 operands, but enclosing function (@one_result) returns 2}}
  func.return %x : f32
}

// -----

// A C++ pass's error on an op.
// expected-error@+1 {{exceeded stack allocation limit of 32768 bytes for function. Got 131072 bytes}}
func.func @big_stack() {
  %buf = memref.alloca() : memref<128x256xf32>
  return
}

// -----

// A verifier error with a note of its own: that note must be expected.
func.func @twice() {
  return
}
// expected-error@+2 {{redefinition of symbol named 'twice'}}
// expected-note@-4 {{see existing symbol definition here}}
func.func @twice() {
  return
}
