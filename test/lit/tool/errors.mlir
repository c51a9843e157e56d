// Bad input: a located diagnostic, exit 1, no traceback, and no output file.
// RUN: rm -f %t.out
// RUN: not opt-py %inputs/malformed.mlir -o %t.out 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not ls %t.out
// RUN: not opt-py %s -p 'canonicalise' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not opt-py %s -p 'test-tag{count=lots}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not opt-py %s -p 'test-tag{colour=red}' 2>&1 | filecheck %s --check-prefix=NOOPTION
// RUN: not opt-py %s -p 'builtin.module(func.func(canonicalize)' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not opt-py %s -p 'builtin.module(test-tag-func)' 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: not opt-py %s -p 'test-raise-in-pattern' -o %t.out 2>&1 | filecheck %s --check-prefix=PATTERN
// RUN: not ls %t.out
// RUN: not opt-py %s -p 'test-raise-in-pass' --debug 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not opt-py %s -p 'test-broken-contract' 2>&1 | filecheck %s --check-prefix=CONTRACT
// RUN: not opt-py %t.does-not-exist 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not opt-py %inputs/unregistered.mlir 2>&1 | filecheck %s --check-prefix=UNREGISTERED
// RUN: opt-py %inputs/unregistered.mlir --allow-unregistered-dialect | filecheck %s --check-prefix=ALLOWED

// PARSE: malformed.mlir:3:26: error: expected ':'
// PARSE-NOT: Traceback
// UNKNOWN: error: pipeline:1:1: 'canonicalise' does not refer to a registered pass or pass pipeline; did you mean 'canonicalize'
// OPTION: pass 'test-tag': option 'count' expects an integer, got 'lots'
// NOOPTION: pass 'test-tag' has no option 'colour' (options: count, dims, flag, label, scale)
// SYNTAX: pipeline:1:1: unbalanced '(' in pipeline
// ANCHOR: pass 'test-tag-func' is restricted to 'func.func' and cannot run on 'builtin.module'
// PATTERN: errors.mlir:[[L:[0-9]+]]:8: error: pass 'test-raise-in-pattern' failed: pattern 'raise_value_error' raised ValueError: deliberate failure in a pattern (rewriting 'arith.addi')
// PATTERN-NEXT: %b = arith.addi %a, %c0 : i32
// PATTERN-NEXT: ^
// PASS: errors.mlir:{{[0-9]+}}:1: error: pass 'test-raise-in-pass' failed: RuntimeError: deliberate failure in a pass
// PASS: Traceback (most recent call last):
// PASS: RuntimeError: deliberate failure in a pass
// CONTRACT: PatternContractError: changed the IR (replace_op/erase_op) but returned no match
// MISSING: opt-py: error: cannot open input file
// UNREGISTERED: unregistered.mlir:2:20: error: operation being parsed with an unregistered dialect
// ALLOWED: "mydialect.thing"()

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}
