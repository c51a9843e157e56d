// A pattern pass changes only what its patterns rewrite: a function where no
// pattern applies keeps its dead ops (MLIR's greedy driver would erase them).
// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs | filecheck %s
// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-store | filecheck %s
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-generic | filecheck %s
// In a function a pattern does rewrite, the dead ops it did not touch stay too; ops its own
// rewrite left without uses go.
// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs | filecheck %s --check-prefix=FORALL
// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-store | filecheck %s --check-prefix=STORE
// Payload bodies are left to the driver: a dead op in a consumer's body does not stop a fusion.
// RUN: opt-py %s --split-input-file -p softmax-fuse-elementwise | filecheck %s --check-prefix=PAYLOAD
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

// -----

// FORALL-LABEL: func.func @dead_ops_beside_a_rewrite
// FORALL: arith.constant 7.0
// FORALL: tensor.empty() : tensor<8xf32>
// FORALL: scf.for
// FORALL-NEXT: }
// FORALL: scf.forall
// FORALL-NEXT: arith.constant 3 : index
// FORALL-NEXT: tensor.extract_slice
// FORALL-NEXT: linalg.fill
// FORALL-NOT: tensor.empty() : tensor<16xf32>
// FORALL: return
func.func @dead_ops_beside_a_rewrite(%v: f32) -> tensor<64xf32> {
  %seven = arith.constant 7.0 : f32
  %dead = tensor.empty() : tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %c4 step %c1 {
  }
  %init = tensor.empty() : tensor<64xf32>
  %r = scf.forall (%i) = (0) to (64) step (16) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %c = arith.constant 3 : index
    %e = tensor.empty() : tensor<16xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}

// -----

// STORE-LABEL: func.func @dead_ops_beside_a_store_fold
// STORE: arith.constant 5 : index
// STORE: tensor.collapse_shape %arg1
// STORE-NOT: tensor.collapse_shape %arg0
// STORE: iree_tensor_ext.dispatch.tensor.store %arg0, {{.*}} : tensor<2x3x4xf32>
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dead_ops_beside_a_store_fold(%v: tensor<2x3x4xf32>, %w: tensor<2x3xf32>) {
  %c0 = arith.constant 0 : index
  %five = arith.constant 5 : index
  %dead = tensor.collapse_shape %w [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x4xf32>>
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 0], sizes = [6, 4], strides = [1, 1] : tensor<6x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x4xf32>>
  return
}

// -----

// PAYLOAD-LABEL: func.func @dead_op_in_a_payload
// PAYLOAD: arith.divf
// PAYLOAD-NEXT: arith.mulf
// PAYLOAD-NEXT: linalg.yield
// PAYLOAD-NEXT: } -> tensor<4x8xf32>
// PAYLOAD-NEXT: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dead_op_in_a_payload(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %unused = arith.addf %a, %b : f32
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
