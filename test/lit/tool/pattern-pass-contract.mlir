// A pattern pass changes only what its patterns rewrite: a function where no
// pattern applies keeps its dead ops (MLIR's greedy driver would erase them).
// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs | filecheck %s
// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-store | filecheck %s
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic | filecheck %s
// A bound on the greedy driver stops the pass, as canonicalize{max-iterations=1}
// does: exit 0, the rewrites made so far, no diagnostic.
// RUN: opt-py %s --split-input-file -p 'forall-reuse-shared-outs{max-iterations=1}' 2>&1 | filecheck %s --check-prefix=BOUND
// RUN: opt-py %s --split-input-file -p 'forall-reuse-shared-outs{max-num-rewrites=1}' 2>&1 | filecheck %s --check-prefix=BOUND

// CHECK-LABEL: func.func @dead_ops_without_forall
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: tensor.empty() : tensor<4x4xf32>
// CHECK: linalg.fill
// CHECK: linalg.matmul {{.*}}root_op
// CHECK: return %arg0
func.func @dead_ops_without_forall(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul {root_op} ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

// BOUND-NOT: error
// BOUND-LABEL: func.func @bounded
// BOUND: tensor.extract_slice
// BOUND-NOT: error
func.func @bounded(%a: tensor<64xf32>) -> tensor<64xf32> {
  %out = tensor.empty() : tensor<64xf32>
  %r = scf.forall (%i) = (0) to (64) step (16) shared_outs(%o = %out) -> (tensor<64xf32>) {
    %sa = tensor.extract_slice %a[%i] [16] [1] : tensor<64xf32> to tensor<16xf32>
    %e = tensor.empty() : tensor<16xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%sa : tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}
