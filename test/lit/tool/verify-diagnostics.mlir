// mlir-opt's expected-* syntax, checked against diagnostics from C++ passes,
// Python passes and the parser.
// RUN: opt-py %s --split-input-file --verify-diagnostics -p 'test-emit-error'

// expected-error@+1 {{test-emit-error on "plus_one"}}
func.func @plus_one() {
  return
}

// -----

func.func @minus_one() {
// expected-error@-1 {{test-emit-error on "minus_one"}}
  return
}

// -----

func.func @above() {
  // expected-error@above {{on "above"}}
  return
}

// -----

// expected-error@below {{test-emit-error}}
func.func @below() {
  return
}

// -----

// expected-error-re@+1 {{test-emit-error on "{{[a-z_]+}}"}}
func.func @regex() {
  return
}

// -----

// Parser errors are diagnostics too.
func.func @bad() {
  // expected-error@+1 {{custom op 'no_such_op' is unknown}}
  no_such_op
}
