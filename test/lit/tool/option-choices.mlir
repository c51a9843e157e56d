// A choice option (a field typed by an Enum) is checked when the pipeline is parsed: a value that is
// not one of its choices is an error located at its pass in the pipeline text (column 14 here), and
// it comes before the input is read (this input does not parse). Choices are spelled in any case.
// RUN: not opt-py %inputs/malformed.mlir -p 'canonicalize,test-fold-addi-zero{region-simplify=bogus}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not opt-py %s -p 'test-fold-addi-zero{region-simplify=}' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: opt-py %s -p 'test-fold-addi-zero{region-simplify=Aggressive}' | filecheck %s
// --list-passes shows a choice option's values and its default by name.
// RUN: opt-py --list-passes | filecheck %s --check-prefix=LIST

// BAD: opt-py: error: pipeline:1:14: pass 'test-fold-addi-zero': option 'region-simplify' expects one of disabled, normal, aggressive, got 'bogus'
// BAD-NEXT: canonicalize,test-fold-addi-zero{region-simplify=bogus}
// BAD-NEXT: ^
// BAD-NOT: malformed.mlir
// EMPTY: pipeline:1:1: pass 'test-fold-addi-zero': option 'region-simplify' expects one of disabled, normal, aggressive, got ''

// LIST: test-fold-addi-zero
// LIST: region-simplify=disabled|normal|aggressive (default 'disabled') - greedy driver: how far to simplify regions

// CHECK-LABEL: func.func @f
// CHECK-NEXT: return %arg0 : i32
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}
