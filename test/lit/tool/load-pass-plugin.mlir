// --load-pass-plugin imports a Python file and registers its passes; this is
// the README's first command, on the example shipped in the repository.
// RUN: opt-py --load-pass-plugin=%S/../../../examples/fold_addi_zero.py --pipeline='fold-addi-zero,cse' %S/../../../examples/addi.mlir | filecheck %s
// RUN: opt-py --load-pass-plugin=%S/../../../examples/fold_addi_zero.py --list-passes | filecheck %s --check-prefix=LIST
// RUN: not opt-py --load-pass-plugin=%t.missing.py %s 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not opt-py --load-pass-plugin=%inputs/not_a_pass.py %s 2>&1 | filecheck %s --check-prefix=NOPASS
// RUN: not opt-py --load-pass-plugin=%inputs/collides.py %s 2>&1 | filecheck %s --check-prefix=COLLIDES

// CHECK-LABEL: func.func @add_zero(%arg0: i32, %arg1: i32) -> i32
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT: return %[[SUM]] : i32
// LIST: fold-addi-zero{{ +}}- Fold 'arith.addi %x, 0' (either operand order) into %x   [anchor: any]
// MISSING: opt-py: error: cannot load pass plugin '{{.*}}.missing.py': no such file
// NOPASS: opt-py: error: pass plugin '{{.*}}not_a_pass.py' declares no pass
// COLLIDES: opt-py: error: pass name 'cse' is already taken by a registered pass

func.func @f() {
  return
}
