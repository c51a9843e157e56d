// Explicit nesting runs a pass on the direct children its path names, as a
// nested C++ pass manager would; Python and C++ passes interleave in order.
// RUN: opt-py %s -p 'builtin.module(func.func(test-tag-func{label=a},canonicalize),test-tag{label=root})' | filecheck %s --check-prefix=EXPLICIT
// A bare list nests each pass to its anchor wherever it is, including the
// functions inside hal.executable variants.
// RUN: opt-py %s -p 'test-tag-func{label=b},canonicalize' | filecheck %s --check-prefix=BARE
// RUN: opt-py %s -p 'builtin.module(hal.executable(hal.executable.variant(builtin.module(func.func(test-tag-func{label=deep})))))' | filecheck %s --check-prefix=DEEP
// A bare `X(...)` element runs its inner pipeline on every X, wherever it is.
// RUN: opt-py %s -p 'hal.executable.variant(builtin.module(test-tag{label=inner}))' | filecheck %s --check-prefix=ANYWHERE
// A C++ pass restricted to func.func in a bare list also reaches nested functions.
// RUN: opt-py %s -p 'affine-loop-invariant-code-motion,test-tag-func{label=c}' --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=CPPBARE

// EXPLICIT: module attributes {test.tag = "root:1:0.5:False:[]"}
// EXPLICIT: func.func @top
// EXPLICIT-SAME: test.tag = "a:1:0.5:False:[]"
// EXPLICIT-NOT: arith.addi
// EXPLICIT: hal.executable
// EXPLICIT: func.func @in_executable
// EXPLICIT-NOT: test.tag
// EXPLICIT: arith.addi

// BARE-LABEL: func.func @top
// BARE-SAME: test.tag = "b:1:0.5:False:[]"
// BARE: func.func @in_executable
// BARE-SAME: test.tag = "b:1:0.5:False:[]"
// BARE-NOT: arith.addi

// DEEP: func.func @top() -> i32 {
// DEEP: func.func @in_executable
// DEEP-SAME: test.tag = "deep:1:0.5:False:[]"

// ANYWHERE: hal.executable.variant
// ANYWHERE: builtin.module attributes {test.tag = "inner:1:0.5:False:[]"}

// CPPBARE: IR Dump After AffineLoopInvariantCodeMotion
// CPPBARE-NEXT: func.func @top
// CPPBARE: IR Dump After AffineLoopInvariantCodeMotion
// CPPBARE-NEXT: func.func @in_executable
// CPPBARE: IR Dump After TestTagFunc: test-tag-func
// CPPBARE: func.func @top
// CPPBARE-SAME: test.tag = "c:1:0.5:False:[]"
// CPPBARE: func.func @in_executable
// CPPBARE-SAME: test.tag = "c:1:0.5:False:[]"

func.func @top() -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %c1, %c0 : i32
  return %0 : i32
}
hal.executable private @ex {
  hal.executable.variant public @v target(#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">) {
    builtin.module {
      func.func @in_executable() -> i32 {
        %c0 = arith.constant 0 : i32
        %c1 = arith.constant 1 : i32
        %0 = arith.addi %c1, %c0 : i32
        return %0 : i32
      }
    }
  }
}
