// A missing, an unexpected and a mismatched diagnostic each fail verification.
// RUN: not opt-py %s --split-input-file --verify-diagnostics -p 'test-emit-error' 2>&1 | filecheck %s

// CHECK: verify-diagnostics-failures.mlir:5:1: error: unexpected error: test-emit-error on "unexpected"
func.func @unexpected() {
  return
}

// -----

// CHECK: error: unexpected error: test-emit-error on "wrong_text"
// expected-error@+2 {{this text is not emitted}}
// CHECK: verify-diagnostics-failures.mlir:12:4: error: expected error "this text is not emitted" was not produced
func.func @wrong_text() {
  return
}

// -----

// CHECK: verify-diagnostics-failures.mlir:22:1: error: 'error' diagnostic emitted when expecting a 'warning'
// expected-warning@+1 {{test-emit-error on "wrong_severity"}}
func.func @wrong_severity() {
  return
}
