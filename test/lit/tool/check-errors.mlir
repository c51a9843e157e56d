// `opt-py check` refuses what it cannot check, naming the file and why (exit 2), and runs nothing.

// RUN: not opt-py check %s 2>&1 | filecheck %s --check-prefix=NOT-A-CHECK-TEST
// RUN: not opt-py check %inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=COMPILE
// RUN: not opt-py check %t.absent.mlir 2>&1 | filecheck %s --check-prefix=ABSENT
// RUN: not opt-py check --fixes=no-such-fix %s 2>&1 | filecheck %s --check-prefix=FIXES
// RUN: not opt-py check 2>&1 | filecheck %s --check-prefix=NO-FILE

// NOT-A-CHECK-TEST: opt-py check: error: {{.*}}check-errors.mlir: expected functions with no inputs or outputs, but export 'takes_an_argument' has signature '0i_i': not a check test
// NOT-A-CHECK-TEST: 0 functions in 0 files: 0 passed, 0 failed; 1 file not checked (errors above)

// COMPILE: opt-py check: error: {{.*}}malformed.mlir: compilation failed:
// COMPILE-NEXT: {{.*}}malformed.mlir:3:26: error: expected ':'

// ABSENT: opt-py check: error: {{.*}}.absent.mlir: cannot open input file

// FIXES: opt-py check: error: unknown fix(es) no-such-fix in --fixes (fixes: {{.*}}sort-slice-to-topk,
// FIXES-NOT: functions in

// NO-FILE: opt-py check: error: the following arguments are required: FILE.mlir

func.func @takes_an_argument(%a: i32) -> i32 {
  return %a : i32
}
