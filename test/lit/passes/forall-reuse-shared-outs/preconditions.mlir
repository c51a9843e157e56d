// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs | filecheck %s
// Why each empty was (not) rewritten: the empties carry named file locations.
// RUN: opt-py %s --split-input-file -p forall-reuse-shared-outs --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Each precondition of reuse_shared_out_for_empty (numbered as on its page,
// docs/passes/forall-reuse-shared-outs.md), refused with the reason --debug-patterns prints.

// Precondition 1: the empty must sit directly in an scf.forall body (here it
// is in a function body and in an scf.for inside the loop).
// CHECK-LABEL: func.func @no_forall
// CHECK: tensor.empty() : tensor<16xf32>
// CHECK: scf.for
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4xf32>)
// WHY: no match on 'tensor.empty' at no_forall_0:1:1: not directly in the body of an scf.forall
// WHY: no match on 'tensor.empty' at no_forall_1:1:1: not directly in the body of an scf.forall
func.func @no_forall(%init: tensor<64xf32>, %v: f32) -> (tensor<16xf32>, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<16xf32> loc("no_forall_0":1:1)
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %t = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %o) -> (tensor<64xf32>) {
      %e2 = tensor.empty() : tensor<4xf32> loc("no_forall_1":1:1)
      %f2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
      %ins = tensor.insert_slice %f2 into %acc[%k] [4] [1] : tensor<4xf32> into tensor<64xf32>
      scf.yield %ins : tensor<64xf32>
    }
    %s = tensor.extract_slice %t[0] [8] [1] : tensor<64xf32> to tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %f, %r : tensor<16xf32>, tensor<64xf32>
}

// -----

// Precondition 1: the empty has other uses (a second op also writes into it).
// (An empty with no use at all is dead code, which the pass leaves alone.)
// CHECK-LABEL: func.func @no_empty_other_uses
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<16xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<16xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<16xf32>)
// WHY: no match on 'tensor.empty' at no_empty_other_uses:1:1: the empty has other uses
func.func @no_empty_other_uses(%init: tensor<64xf32>, %init2: tensor<64xf32>, %v: f32, %w: f32) -> (tensor<64xf32>, tensor<64xf32>) {
  %r:2 = scf.forall (%i) in (4) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64xf32>, tensor<64xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    %e = tensor.empty() : tensor<16xf32> loc("no_empty_other_uses":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %g = linalg.fill ins(%w : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off] [16] [1] : tensor<16xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %g into %o2[%off] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Precondition 1: the empty is an input of the op, not its destination.
// CHECK-LABEL: func.func @no_empty_as_input
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<16xf32>
// CHECK: linalg.copy ins(%[[E]] : tensor<16xf32>)
// WHY: no match on 'tensor.empty' at no_empty_as_input:1:1: the empty is an input, not a destination, of its user
func.func @no_empty_as_input(%init: tensor<64xf32>, %b: tensor<16xf32>) -> tensor<64xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %e = tensor.empty() : tensor<16xf32> loc("no_empty_as_input":1:1)
    %c = linalg.copy ins(%e : tensor<16xf32>) outs(%b : tensor<16xf32>) -> tensor<16xf32>
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[%off] [16] [1] : tensor<16xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}

// -----

// Precondition 1: the op is not a linalg op with a payload (linalg.softmax has
// none; nothing says which operand its result is tied to), or there is no op
// at all (the empty itself is inserted).
// CHECK-LABEL: func.func @no_linalg_payload
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<4x16xf32>
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<4x16xf32>) outs(%[[E]] : tensor<4x16xf32>)
// CHECK: %[[E2:[a-z0-9_]+]] = tensor.empty() : tensor<4x16xf32>
// CHECK: tensor.parallel_insert_slice %[[E2]]
// WHY: no match on 'tensor.empty' at not_linalg_payload_0:1:1: 'linalg.softmax' is not a linalg op with a payload
// WHY: no match on 'tensor.empty' at not_linalg_payload_1:1:1: the empty is not the destination of a linalg op
func.func @no_linalg_payload(%a: tensor<64x16xf32>, %init: tensor<64x16xf32>, %init2: tensor<64x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %r:2 = scf.forall (%i) = (0) to (64) step (4) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [4, 16] [1, 1] : tensor<64x16xf32> to tensor<4x16xf32>
    %e = tensor.empty() : tensor<4x16xf32> loc("not_linalg_payload_0":1:1)
    %s = linalg.softmax dimension(1) ins(%sa : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %e2 = tensor.empty() : tensor<4x16xf32> loc("not_linalg_payload_1":1:1)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %e2 into %o2[%i, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Precondition 1: linalg.softmax has no payload region, so nothing says
// whether it reads its destination: its empty stays.
// CHECK-LABEL: func.func @no_softmax_destination
// CHECK: tensor.empty() : tensor<4x32xf32>
// CHECK: linalg.softmax
// WHY: no match on 'tensor.empty' at no_softmax_destination:1:1: 'linalg.softmax' is not a linalg op with a payload
func.func @no_softmax_destination(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %out = tensor.empty() : tensor<64x32xf32>
  %r = scf.forall (%i) = (0) to (64) step (4) shared_outs(%o = %out) -> (tensor<64x32xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [4, 32] [1, 1] : tensor<64x32xf32> to tensor<4x32xf32>
    %e = tensor.empty() : tensor<4x32xf32> loc("no_softmax_destination":1:1)
    %s = linalg.softmax dimension(1) ins(%sa : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<64x32xf32>
    }
  }
  return %r : tensor<64x32xf32>
}

// -----

// Precondition 2: the op reads its destination (a generic whose payload uses
// the outs argument; a matmul accumulating straight into the empty).
// CHECK-LABEL: func.func @no_reads_destination
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<8x16xf32>)
// CHECK: %[[E2:[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.matmul {{.*}} outs(%[[E2]] : tensor<8x16xf32>)
// WHY: no match on 'tensor.empty' at reads_destination_0:1:1: 'linalg.generic' reads its destination
// WHY: no match on 'tensor.empty' at reads_destination_1:1:1: 'linalg.matmul' reads its destination
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_reads_destination(%a: tensor<64x16xf32>, %b: tensor<16x16xf32>, %init: tensor<64x16xf32>, %init2: tensor<64x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %r:2 = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %e = tensor.empty() : tensor<8x16xf32> loc("reads_destination_0":1:1)
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %z : f32
      linalg.yield %s : f32
    } -> tensor<8x16xf32>
    %e2 = tensor.empty() : tensor<8x16xf32> loc("reads_destination_1":1:1)
    %m = linalg.matmul ins(%sa, %b : tensor<8x16xf32>, tensor<16x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %m into %o2[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Precondition 2, unwritten part: the output map (d0) -> (d0, 0) writes
// column 0 only; column 1 keeps the destination's contents, which the empty
// leaves undefined and a slice of the output would define.
// CHECK-LABEL: func.func @no_partial_write
// CHECK: tensor.empty() : tensor<16x2xf32>
// WHY: no match on 'tensor.empty' at no_partial_write:1:1: 'linalg.generic' reads its destination, or leaves part of it unwritten
func.func @no_partial_write(%a: tensor<64xf32>, %out: tensor<64x2xf32>) -> tensor<64x2xf32> {
  %r = scf.forall (%i) = (0) to (64) step (16) shared_outs(%o = %out) -> (tensor<64x2xf32>) {
    %sa = tensor.extract_slice %a[%i] [16] [1] : tensor<64xf32> to tensor<16xf32>
    %e = tensor.empty() : tensor<16x2xf32> loc("no_partial_write":1:1)
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0, 0)>],
                         iterator_types = ["parallel"]}
        ins(%sa : tensor<16xf32>) outs(%e : tensor<16x2xf32>) {
    ^bb0(%x: f32, %z: f32):
      linalg.yield %x : f32
    } -> tensor<16x2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%i, 0] [16, 2] [1, 1] : tensor<16x2xf32> into tensor<64x2xf32>
    }
  }
  return %r : tensor<64x2xf32>
}

// -----

// Precondition 3: the tile escapes: its result is also read by another op
// (here a reduction), or the chain continues as an input, not a destination.
// CHECK-LABEL: func.func @no_escapes
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8x16xf32>)
// CHECK: %[[E2:[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<8x16xf32>)
// WHY: no match on 'tensor.empty' at escapes_0:1:1: the tile escapes: a result in the chain to parallel_insert_slice has other uses
// WHY: no match on 'tensor.empty' at escapes_1:1:1: the tile escapes: a result in the chain is an input of another op
func.func @no_escapes(%init: tensor<64x16xf32>, %init2: tensor<64xf32>, %init3: tensor<64x16xf32>, %v: f32)
    -> (tensor<64x16xf32>, tensor<64xf32>, tensor<64x16xf32>) {
  %r:3 = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o = %init, %o2 = %init2, %o3 = %init3)
      -> (tensor<64x16xf32>, tensor<64xf32>, tensor<64x16xf32>) {
    %e = tensor.empty() : tensor<8x16xf32> loc("escapes_0":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    %acc = tensor.extract_slice %o2[%i] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %sum = linalg.reduce { arith.addf } ins(%f : tensor<8x16xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    %e2 = tensor.empty() : tensor<8x16xf32> loc("escapes_1":1:1)
    %f2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %dst = tensor.extract_slice %o3[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %c = linalg.copy ins(%f2 : tensor<8x16xf32>) outs(%dst : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %sum into %o2[%i] [8] [1] : tensor<8xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %c into %o3[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1, %r#2 : tensor<64x16xf32>, tensor<64xf32>, tensor<64x16xf32>
}

// -----

// Precondition 3 (multi-result op): the empty is the destination of result 0,
// but only result 1 is inserted; the other empty's result is inserted, but
// also read by a later op.
// CHECK-LABEL: func.func @no_multi_result_wrong_destination
// CHECK: %[[E0:[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: %[[E1:[a-z0-9_]+]] = tensor.empty() : tensor<8x16xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E0]], %[[E1]] : tensor<8x16xf32>, tensor<8x16xf32>)
// WHY: no match on 'tensor.empty' at multi_result_0:1:1: the result tied to the destination is unused: nothing is written back
// WHY: no match on 'tensor.empty' at multi_result_1:1:1: the tile escapes: a result in the chain to parallel_insert_slice has other uses
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_multi_result_wrong_destination(%a: tensor<64x16xf32>, %init: tensor<64x16xf32>, %init2: tensor<64x16xf32>)
    -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %r:2 = scf.forall (%i) = (0) to (64) step (8) shared_outs(%o = %init, %o2 = %init2) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
    %sa = tensor.extract_slice %a[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %e0 = tensor.empty() : tensor<8x16xf32> loc("multi_result_0":1:1)
    %e1 = tensor.empty() : tensor<8x16xf32> loc("multi_result_1":1:1)
    %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sa : tensor<8x16xf32>) outs(%e0, %e1 : tensor<8x16xf32>, tensor<8x16xf32>) {
    ^bb0(%x: f32, %z0: f32, %z1: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s, %x : f32, f32
    } -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %dst = tensor.extract_slice %o2[%i, 0] [8, 16] [1, 1] : tensor<64x16xf32> to tensor<8x16xf32>
    %c = linalg.copy ins(%g#1 : tensor<8x16xf32>) outs(%dst : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g#1 into %o[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
      tensor.parallel_insert_slice %c into %o2[%i, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<64x16xf32>
    }
  }
  return %r#0, %r#1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Precondition 4: the tile is inserted by another scf.forall (an inner one),
// not by the loop whose body holds the empty.
// CHECK-LABEL: func.func @no_inserted_by_another_forall
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at no_inserted_by_another_forall:1:1: the parallel_insert_slice is not in this scf.forall's terminator
func.func @no_inserted_by_another_forall(%init: tensor<64xf32>, %inner: tensor<32xf32>, %v: f32) -> (tensor<64xf32>, tensor<32xf32>) {
  %r:2 = scf.forall (%i) in (2) shared_outs(%o = %init, %q = %inner) -> (tensor<64xf32>, tensor<32xf32>) {
    %e = tensor.empty() : tensor<8xf32> loc("no_inserted_by_another_forall":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %n = scf.forall (%j) in (4) shared_outs(%p = %q) -> (tensor<32xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %f into %p[%off] [8] [1] : tensor<8xf32> into tensor<32xf32>
      }
    }
    %off2 = affine.apply affine_map<(d0) -> (d0 * 32)>(%i)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %n into %o[%off2] [32] [1] : tensor<32xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1 : tensor<64xf32>, tensor<32xf32>
}

// -----

// Precondition 5: the empty's dynamic size is not the insertion's size (a
// different value, not provably equal).
// CHECK-LABEL: func.func @no_dynamic_size_mismatch
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?xf32>)
// WHY: no match on 'tensor.empty' at no_dynamic_size_mismatch:1:1: the empty's dynamic sizes are not the sizes of the parallel_insert_slice
func.func @no_dynamic_size_mismatch(%init: tensor<64xf32>, %v: f32, %n: index, %m: index) -> tensor<64xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %e = tensor.empty(%n) : tensor<?xf32> loc("no_dynamic_size_mismatch":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [%m] [1] : tensor<?xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}

// -----

// Precondition 6: the shared_out is read elsewhere in the loop: a neighbour's
// slice (a halo) read by the tile computation, which writing the tile in
// place could clobber.
// CHECK-LABEL: func.func @no_shared_out_read
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at no_shared_out_read:1:1: the shared_out is read elsewhere in the loop body (by 'tensor.extract_slice')
func.func @no_shared_out_read(%init: tensor<72xf32>) -> tensor<72xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<72xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %next = affine.apply affine_map<(d0) -> (d0 * 8 + 1)>(%i)
    %halo = tensor.extract_slice %o[%next] [8] [1] : tensor<72xf32> to tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32> loc("no_shared_out_read":1:1)
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%halo : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%off] [8] [1] : tensor<8xf32> into tensor<72xf32>
    }
  }
  return %r : tensor<72xf32>
}

// -----

// Precondition 6, conservatively: any other use of the shared_out counts as a
// read (a tensor.dim), and so does a write-only-looking slice that is inserted
// back at other offsets than it was taken from.
// CHECK-LABEL: func.func @no_shared_out_other_uses
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK: %[[E2:[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at shared_out_dim:1:1: the shared_out is read elsewhere in the loop body (by 'tensor.dim')
// WHY: no match on 'tensor.empty' at shared_out_mismatched_slice:1:1: the shared_out is read elsewhere in the loop body (by 'tensor.extract_slice')
func.func @no_shared_out_other_uses(%init: tensor<?xf32>, %init2: tensor<64xf32>, %v: f32) -> (tensor<?xf32>, tensor<64xf32>) {
  %r:2 = scf.forall (%i) in (4) shared_outs(%o = %init, %o2 = %init2) -> (tensor<?xf32>, tensor<64xf32>) {
    %c0 = arith.constant 0 : index
    %d = tensor.dim %o, %c0 : tensor<?xf32>
    %e = tensor.empty(%d) : tensor<?xf32> loc("shared_out_dim":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    %off8 = affine.apply affine_map<(d0) -> (d0 * 16 + 8)>(%i)
    %s = tensor.extract_slice %o2[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %f1 = linalg.fill ins(%v : f32) outs(%s : tensor<8xf32>) -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32> loc("shared_out_mismatched_slice":1:1)
    %f2 = linalg.fill ins(%v : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[0] [%d] [1] : tensor<?xf32> into tensor<?xf32>
      tensor.parallel_insert_slice %f1 into %o2[%off8] [8] [1] : tensor<8xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %f2 into %o2[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<64xf32>
}

// -----

// Precondition 7: the shared_out's initial value is read inside the loop (it
// is the same buffer once bufferized in place), or starts two shared_outs.
// CHECK-LABEL: func.func @no_initial_value_read
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
// CHECK: %[[E2:[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at no_initial_value_read:1:1: the shared_out's initial value is used inside the loop (by 'tensor.extract_slice')
// WHY: no match on 'tensor.empty' at initial_value_twice:1:1: the shared_out's initial value is also the initial value of another shared_out
func.func @no_initial_value_read(%init: tensor<64xf32>, %init2: tensor<64xf32>, %v: f32) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %r:3 = scf.forall (%i) in (8) shared_outs(%o = %init, %p = %init2, %q = %init2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %rev = affine.apply affine_map<(d0) -> (56 - d0 * 8)>(%i)
    %src = tensor.extract_slice %init[%rev] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32> loc("no_initial_value_read":1:1)
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32> loc("initial_value_twice":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %f into %p[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %r#0, %r#1, %r#2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Precondition 8: the insertion's offset is computed after the op that uses
// the empty, so no slice can be taken before that op.
// CHECK-LABEL: func.func @no_offsets_defined_late
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty() : tensor<8xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8xf32>)
// WHY: no match on 'tensor.empty' at no_offsets_defined_late:1:1: the slice's offsets, sizes or strides are defined after the op using the empty
func.func @no_offsets_defined_late(%init: tensor<64xf32>, %v: f32) -> tensor<64xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<64xf32>) {
    %e = tensor.empty() : tensor<8xf32> loc("no_offsets_defined_late":1:1)
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}
