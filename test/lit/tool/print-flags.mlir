// Output printing flags, as mlir-opt spells them.
// RUN: opt-py %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: opt-py %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// RUN: opt-py %s --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: opt-py %s | filecheck %s --check-prefix=ALIAS
// Bytecode out, and back in through stdin.
// RUN: opt-py %s --emit-bytecode -p test-fold-addi-zero | opt-py - | filecheck %s --check-prefix=BYTECODE
// Threading off and verification off change nothing in the result.
// RUN: opt-py %s --mlir-disable-threading --verify-each=false -p 'canonicalize,test-fold-addi-zero' | filecheck %s --check-prefix=CANON

// GENERIC: "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}>
// GENERIC: "arith.addi"
// DEBUGINFO: loc("{{.*}}print-flags.mlir":{{[0-9]+}}:{{[0-9]+}})
// LOCAL: affine_map<(d0) -> (d0 + 1)>
// LOCAL-NOT: #map
// ALIAS: #map = affine_map<(d0) -> (d0 + 1)>
// A pattern pass leaves the dead ops it did not rewrite (here the affine.apply
// chain); the constant its rewrite left unused goes.
// BYTECODE: func.func @f(%arg0: i32) -> i32 {
// BYTECODE-NEXT: arith.constant 3 : index
// BYTECODE-NEXT: affine.apply
// BYTECODE-NEXT: return %arg0 : i32
// CANON: func.func @f(%arg0: i32) -> i32 {
// CANON-NEXT: return %arg0 : i32

#map = affine_map<(d0) -> (d0 + 1)>
func.func @f(%a: i32) -> i32 {
  %i = arith.constant 3 : index
  %j = affine.apply #map(%i)
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}
