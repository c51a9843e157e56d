// The IR is verified after every pass, Python passes included, whether or not
// MLIR's instrumentation is on (two execution paths); --verify-each=false
// turns it off and the broken IR is printed.
// RUN: not opt-py %s -p 'test-break-ir,canonicalize' 2>&1 | filecheck %s --check-prefix=DEFAULT
// RUN: not opt-py %s -p 'test-break-ir,canonicalize' --mlir-timing 2>&1 | filecheck %s --check-prefix=TIMING
// RUN: opt-py %s -p 'test-break-ir' --verify-each=false | filecheck %s --check-prefix=OFF

// DEFAULT: error: empty block: expect at least a terminator
// DEFAULT: error: IR verification failed after pass 'test-break-ir'
// TIMING: error: empty block: expect at least a terminator
// OFF: "func.func"() <{function_type = () -> (), sym_name = "f"}>
// OFF-NOT: func.return

func.func @f() {
  return
}
