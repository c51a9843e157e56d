// A Python pass that crashes the process is named as the culprit, with Python's stack, not blamed
// on IREE; the run exits non-zero (128 + SIGSEGV, test/unit/test_crash.py) and prints no IR.
// RUN: not opt-py --load-pass-plugin=%inputs/crash_pass.py -p 'canonicalize,test-crash' %s 2>&1 | filecheck %s

// CHECK: opt-py: error: Python pass 'test-crash' crashed (SIGSEGV: segmentation fault) in pipeline 'canonicalize,test-crash'
// CHECK-NEXT: opt-py: note: Python's stack (innermost first):
// CHECK: crash_pass.py", line {{[0-9]+}} in run
// CHECK-NOT: func.func
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
