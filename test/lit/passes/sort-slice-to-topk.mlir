// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{allow-unordered-ties=true}' | filecheck %s --check-prefix=TIES
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=rank}' | filecheck %s --check-prefix=RANK
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=topk}' | filecheck %s --check-prefix=TOPK
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=rounds}' | filecheck %s --check-prefix=ROUNDS
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=chunks}' | filecheck %s --check-prefix=CHUNKS
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true}' | filecheck %s --check-prefix=GPU
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true form=rounds}' | filecheck %s --check-prefix=GPUROUNDS
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true form=topk}' | filecheck %s --check-prefix=GPUTOPK
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true select=rounds}' | filecheck %s --check-prefix=GPUCR
// RUN: not opt-py %s -p 'sort-slice-to-topk{select=best}' 2>&1 | filecheck %s --check-prefix=BADSELECT
// BADSELECT: pipeline:1:1: pass 'sort-slice-to-topk': option 'select' expects one of rank, rounds, got 'best'
// RUN: not opt-py %s -p 'sort-slice-to-topk{form=sorted}' 2>&1 | filecheck %s --check-prefix=BADFORM
// BADFORM: pipeline:1:1: pass 'sort-slice-to-topk': option 'form' expects one of auto, topk, rank, argmax, rounds, chunks, got 'sorted'


// torch.topk as exported: oge over values and an i64 iota, indices sliced.
// k = 4 of 64: four rounds of arg-max over i64 composites (ordered key << 32 | 0x7FFFFFFE-index;
// the ordered key: -0.0 -> +0.0, NaN -> +qNaN, magnitude bits flipped when negative), each round
// keeping the best composite below the previous round's; round 0 keeps those below 0x7FFFFFFF7FFFFFFF
// (above every composite, behind a barrier), so the four rounds are alike. Then one generic decodes
// the four into indices.
// CHECK-LABEL: func.func @topk_indices
// CHECK-NOT: iree_linalg_ext
// CHECK: %[[TOP:.*]] = arith.constant 9223372034707292159 : i64
// CHECK: %[[F:.*]] = linalg.fill ins(%[[TOP]] : i64)
// CHECK: %[[R0:.*]] = util.optimization_barrier %[[F]] : tensor<37xi64>
// CHECK: %[[R1:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%arg0, %[[R0]] : tensor<37x64xf32>, tensor<37xi64>) outs(%{{.*}} : tensor<37xi64>)
// CHECK: arith.cmpf uno
// CHECK: arith.addf
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.shrsi
// CHECK: arith.xori
// CHECK: arith.constant 2147483646 : i64
// CHECK: arith.subi
// CHECK: arith.shli
// CHECK: %[[C:.*]] = arith.ori
// CHECK: %[[B:.*]] = arith.cmpi slt, %[[C]], %in
// CHECK: arith.select %[[B]], %[[C]]
// CHECK: arith.maxsi
// CHECK: %[[R2:.*]] = linalg.generic {{.*}} ins(%arg0, %[[R1]] : tensor<37x64xf32>, tensor<37xi64>)
// CHECK: %[[R3:.*]] = linalg.generic {{.*}} ins(%arg0, %[[R2]] : tensor<37x64xf32>, tensor<37xi64>)
// CHECK: %[[R4:.*]] = linalg.generic {{.*}} ins(%arg0, %[[R3]] : tensor<37x64xf32>, tensor<37xi64>)
// CHECK: linalg.generic {{.*}} ins(%[[R1]], %[[R2]], %[[R3]], %[[R4]] : {{.*}}) outs(%{{.*}} : tensor<37x4xi64>)
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.subi
// CHECK: arith.extui %{{.*}} : i32 to i64
// CHECK-NOT: iree_linalg_ext
// CHECK: return
// The top-k op form: the same ordered keys, the op, indices widened to i64.
// TOPK-LABEL: func.func @topk_indices
// TOPK: arith.xori
// TOPK: %[[T:.*]]:2 = iree_linalg_ext.topk dimension(1) ins(%{{.*}} : tensor<37x64xi32>) outs(%{{.*}}, %{{.*}} : tensor<37x4xi32>, tensor<37x4xi32>)
// TOPK: arith.cmpi sgt
// TOPK: arith.extsi %{{.*}} : i32 to i64
// TOPK-NOT: iree_linalg_ext.sort
// The rank form: an i64 composite (key << 32 | 0x7FFFFFFE-index) per element, a count of those that come
// before it, then the index of each rank r < k, written as i64 directly.
// RANK-LABEL: func.func @topk_indices
// RANK: arith.shli
// RANK: arith.ori
// RANK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// RANK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i64
// RANK: arith.extui %{{.*}} : i1 to i32
// RANK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<37x4xi64>)
// RANK-NOT: iree_linalg_ext
// RANK: return
func.func @topk_indices(%x: tensor<37x64xf32>) -> tensor<37x4xi64> {
  %e = tensor.empty() : tensor<37x64xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<37x64xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<37x64xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<37x64xf32>, tensor<37x64xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<37x64xf32>, tensor<37x64xi64>
  %k = tensor.extract_slice %s#1[0, 0] [37, 4] [1, 1] : tensor<37x64xi64> to tensor<37x4xi64>
  return %k : tensor<37x4xi64>
}

// -----

// Values and i32 indices, ascending, dynamic batch and width, two slice lengths:
// one top-k of the longer, both slices read it; float values gathered from the keys.
// CHECK-LABEL: func.func @both_asc_dynamic
// GPU precondition: a static width (dynamic widths take the top-k op on the CPU): left alone.
// GPU-LABEL: func.func @both_asc_dynamic
// GPU: iree_linalg_ext.sort
// Forced to rounds, a dynamic width is left alone (the composites hold the index in 32 bits).
// ROUNDS-LABEL: func.func @both_asc_dynamic
// ROUNDS: iree_linalg_ext.sort
// CHECK: arith.bitcast %{{.*}} : f16 to i16
// CHECK: %[[T:.*]]:2 = iree_linalg_ext.topk dimension(1) ins(%{{.*}} : tensor<?x?xi16>) outs(%{{.*}}, %{{.*}} : tensor<?x5xi16>, tensor<?x5xi32>)
// CHECK: arith.cmpi slt
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: tensor.extract %arg0
// CHECK: tensor.extract_slice %[[G]][0, 0] [%{{.*}}, 2] [1, 1] : tensor<?x5xf16> to tensor<?x2xf16>
// CHECK: tensor.extract_slice %[[T]]#1[0, 0] [%{{.*}}, 5] [1, 1] : tensor<?x5xi32> to tensor<?x5xi32>
func.func @both_asc_dynamic(%x: tensor<?x?xf16>) -> (tensor<?x2xf16>, tensor<?x5xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf16>
  %w = tensor.dim %x, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%n, %w) : tensor<?x?xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<?x?xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<?x?xf16>, tensor<?x?xi32>) {
  ^bb0(%a: f16, %b: f16, %p: i32, %q: i32):
    %r = arith.cmpf ole, %a, %b : f16
    iree_linalg_ext.yield %r : i1
  } -> tensor<?x?xf16>, tensor<?x?xi32>
  %v = tensor.extract_slice %s#0[0, 0] [%n, 2] [1, 1] : tensor<?x?xf16> to tensor<?x2xf16>
  %i = tensor.extract_slice %s#1[0, 0] [%n, 5] [1, 1] : tensor<?x?xi32> to tensor<?x5xi32>
  return %v, %i : tensor<?x2xf16>, tensor<?x5xi32>
}

// -----

// Integer keys sorted alone along dim 0. k = 4 of 16: auto takes rounds (the rank form only from
// k = width/2); forced to the top-k op, the values are the op's (integer keys need no gathering back).
// CHECK-LABEL: func.func @int_values_dim0
// CHECK-NOT: iree_linalg_ext.topk
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: arith.maxsi
// CHECK: outs(%{{.*}}, %{{.*}} : tensor<4x3xi32>, tensor<4x3xi32>)
// CHECK: tensor.extract %arg0
// RANK-LABEL: func.func @int_values_dim0
// RANK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i64
// RANK: arith.extui %{{.*}} : i1 to i32
// The values read by one generic that also passes the indices through (the selection's one user, so
// IREE fuses it into the selection's dispatch).
// RANK: %[[SEL:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<4x3xi32>)
// RANK: %[[VI:.*]]:2 = linalg.generic {{.*}} ins(%[[SEL]] : tensor<4x3xi32>) outs(%{{.*}}, %{{.*}} : tensor<4x3xi32>, tensor<4x3xi32>)
// RANK: tensor.extract %arg0
// RANK: tensor.extract_slice %[[VI]]#0[0, 1] [4, 2] [1, 1]
// TOPK-LABEL: func.func @int_values_dim0
// TOPK: %[[T:.*]]:2 = iree_linalg_ext.topk dimension(0) ins(%arg0 : tensor<16x3xi32>)
// TOPK: arith.cmpi sgt
// TOPK: tensor.extract_slice %[[T]]#0[0, 1] [4, 2] [1, 1]
func.func @int_values_dim0(%x: tensor<16x3xi32>) -> tensor<4x2xi32> {
  %s = iree_linalg_ext.sort dimension(0) outs(%x : tensor<16x3xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<16x3xi32>
  %v = tensor.extract_slice %s[0, 1] [4, 2] [1, 1] : tensor<16x3xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// Strict comparator: ties unordered, stock IREE's order is a bubble-sort artifact.
// CHECK-LABEL: func.func @unsupported_strict
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
// TIES-LABEL: func.func @unsupported_strict
// TIES-NOT: iree_linalg_ext.sort
// TIES: arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// TIES: arith.maxsi
func.func @unsupported_strict(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// A predicate that is not an order of the keys (une).
// CHECK-LABEL: func.func @unsupported_predicate
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_predicate(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf une, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// Keys compared in reverse block order (b, a): not the single-key form matched.
// CHECK-LABEL: func.func @unsupported_swapped_compare
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_swapped_compare(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %b, %a : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// A comparator with more than one op (a second key).
// CHECK-LABEL: func.func @unsupported_two_keys
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_two_keys(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) -> tensor<4x2xf32> {
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %y : tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: f32, %b: f32, %p: i32, %q: i32):
    %r = arith.cmpf oge, %a, %b : f32
    %t = arith.cmpi slt, %p, %q : i32
    %u = arith.andi %r, %t : i1
    iree_linalg_ext.yield %u : i1
  } -> tensor<4x8xf32>, tensor<4x8xi32>
  %v = tensor.extract_slice %s#0[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// The second operand is not an iota (an argument): its order is data.
// CHECK-LABEL: func.func @unsupported_not_iota
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_not_iota(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) -> tensor<4x2xi32> {
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %y : tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: f32, %b: f32, %p: i32, %q: i32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>, tensor<4x8xi32>
  %v = tensor.extract_slice %s#1[0, 0] [4, 2] [1, 1] : tensor<4x8xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// An iota along the other dimension.
// CHECK-LABEL: func.func @unsupported_iota_other_dim
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_iota_other_dim(%x: tensor<4x8xf32>) -> tensor<4x2xi32> {
  %e = tensor.empty() : tensor<4x8xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<4x8xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: f32, %b: f32, %p: i32, %q: i32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>, tensor<4x8xi32>
  %v = tensor.extract_slice %s#1[0, 0] [4, 2] [1, 1] : tensor<4x8xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// i64 indices over a dynamic width: the top-k op counts in i32.
// CHECK-LABEL: func.func @unsupported_i64_dynamic_width
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_i64_dynamic_width(%x: tensor<4x?xf32>, %w: index) -> tensor<4x2xi64> {
  %e = tensor.empty(%w) : tensor<4x?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<4x?xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<4x?xf32>, tensor<4x?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>, tensor<4x?xi64>
  %v = tensor.extract_slice %s#1[0, 0] [4, 2] [1, 1] : tensor<4x?xi64> to tensor<4x2xi64>
  return %v : tensor<4x2xi64>
}

// -----

// A slice that does not start at 0 along the sorted dimension (dynamic width: no k = width).
// CHECK-LABEL: func.func @unsupported_offset
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_offset(%x: tensor<4x?xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>
  %v = tensor.extract_slice %s[0, 1] [4, 2] [1, 1] : tensor<4x?xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// A stride along the sorted dimension (dynamic width).
// CHECK-LABEL: func.func @unsupported_stride
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_stride(%x: tensor<4x?xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 2] : tensor<4x?xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// A dynamic slice length (dynamic width).
// CHECK-LABEL: func.func @unsupported_dynamic_k
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_dynamic_k(%x: tensor<4x?xf32>, %k: index) -> tensor<4x?xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>
  %v = tensor.extract_slice %s[0, 0] [4, %k] [1, 1] : tensor<4x?xf32> to tensor<4x?xf32>
  return %v : tensor<4x?xf32>
}

// -----

// The whole sorted result is also read and the width is dynamic: not a top-k of a known k.
// CHECK-LABEL: func.func @unsupported_full_use
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_full_use(%x: tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x?xf32>) {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x?xf32> to tensor<4x2xf32>
  return %v, %s : tensor<4x2xf32>, tensor<4x?xf32>
}

// -----

// Unsigned compare of integer keys.
// CHECK-LABEL: func.func @unsupported_unsigned
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_unsigned(%x: tensor<4x8xi32>) -> tensor<4x2xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi uge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xi32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// Static width: a use of the whole result is the top-k of k = width (a full sort, by counting).
// CHECK-LABEL: func.func @whole_use_static
// For GPUs, k = width = 8 (a full sort, the slice of 2 read from it): the rank form, materialized.
// GPU-LABEL: func.func @whole_use_static
// GPU-NOT: iree_linalg_ext.sort
// GPU: util.optimization_barrier %{{.*}} : tensor<4x8xi64>
// GPU: arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
// GPU: return
// CHECK-NOT: iree_linalg_ext.sort
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: return
func.func @whole_use_static(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ole, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v, %s : tensor<4x2xf32>, tensor<4x8xf32>
}

// -----

// Precondition of the rounds form: at most 64 rounds (one dispatch each). Forced to it, k = 65 is
// left alone; auto takes the top-k op there.
// ROUNDS-LABEL: func.func @rounds_too_many
// ROUNDS: iree_linalg_ext.sort
// ROUNDS: tensor.extract_slice
// CHECK-LABEL: func.func @rounds_too_many
// For GPUs k = 65 is past the chunks form's 64; the rank form takes it (width <= 4096).
// GPU-LABEL: func.func @rounds_too_many
// GPU-NOT: iree_linalg_ext.sort
// GPU: util.optimization_barrier %{{.*}} : tensor<2x1024xi64>
// GPU-NOT: tensor.expand_shape
// GPU: return
// CHECK-NOT: iree_linalg_ext.sort
// CHECK: iree_linalg_ext.topk
func.func @rounds_too_many(%x: tensor<2x1024xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x1024xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// GPU precondition: k > 64 on rows wider than 4096 (chunks stop at 64, the rank form's count is
// O(width^2)): left alone.
// GPU-LABEL: func.func @gpu_too_wide_for_rank
// GPU: iree_linalg_ext.sort
// GPU: tensor.extract_slice
func.func @gpu_too_wide_for_rank(%x: tensor<2x8192xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x8192xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8192xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x8192xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// Precondition of the rounds form: keys of at most 32 bits (the composite holds key and index in
// 64). Forced to it, f64 keys are left alone; auto takes the top-k op.
// ROUNDS-LABEL: func.func @rounds_wide_keys
// ROUNDS: iree_linalg_ext.sort
// CHECK-LABEL: func.func @rounds_wide_keys
// GPU precondition: keys of at most 32 bits: left alone.
// GPU-LABEL: func.func @rounds_wide_keys
// GPU: iree_linalg_ext.sort
// CHECK: iree_linalg_ext.topk
func.func @rounds_wide_keys(%x: tensor<2x64xf64>) -> tensor<2x4xf64> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x64xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.cmpf oge, %a, %b : f64
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf64>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x64xf64> to tensor<2x4xf64>
  return %v : tensor<2x4xf64>
}

// -----

// Precondition of the rounds form: k >= 1. Forced to it, a zero-width sort used whole (k = 0) is
// left alone.
// ROUNDS-LABEL: func.func @rounds_zero_width
// ROUNDS: iree_linalg_ext.sort
func.func @rounds_zero_width(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x0xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x0xf32>
  return %s : tensor<4x0xf32>
}

// -----

// The chunks form, 2x64 k=4: chunks of C=4 (sqrt(2*64/4) rounded down to a power of two); each
// chunk's best composite with its global index (chunk * 4 + lane), four rounds over the 16 chunk
// bests, the four chosen chunks' first positions, their 16 composites gathered with global indices,
// four rounds over those reducing both dims, then the decode. Both first rounds keep the composites
// below one constant above all of them (behind a barrier), as the later rounds keep those below the
// previous winner.
// CHUNKS-LABEL: func.func @chunks_indices
// CHUNKS: %[[X:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [2, 16, 4] : tensor<2x64xf32> into tensor<2x16x4xf32>
// CHUNKS: %[[B:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x16x4xf32>) outs(%{{.*}} : tensor<2x16xi64>)
// CHUNKS: linalg.index 1
// CHUNKS: arith.muli
// CHUNKS: linalg.index 2
// CHUNKS: arith.shli
// CHUNKS: arith.maxsi
// CHUNKS: %[[T1:.*]] = util.optimization_barrier %{{.*}} : tensor<2xi64>
// CHUNKS: %[[W1:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[B]], %[[T1]] : tensor<2x16xi64>, tensor<2xi64>) outs(%{{.*}} : tensor<2xi64>)
// CHUNKS-NOT: linalg.index
// CHUNKS: %[[W2:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[W1]] : tensor<2x16xi64>, tensor<2xi64>)
// CHUNKS: arith.cmpi slt
// CHUNKS: %[[W3:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[W2]] : tensor<2x16xi64>, tensor<2xi64>)
// CHUNKS: %[[W4:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[W3]] : tensor<2x16xi64>, tensor<2xi64>)
// CHUNKS: %[[F:.*]] = linalg.generic {{.*}} ins(%[[W1]], %[[W2]], %[[W3]], %[[W4]] : {{.*}}) outs(%{{.*}} : tensor<2x4xi32>)
// CHUNKS: arith.divui
// CHUNKS: %[[C:.*]] = linalg.generic {{.*}} ins(%[[F]] : tensor<2x4xi32>) outs(%{{.*}} : tensor<2x4x4xi64>)
// CHUNKS: tensor.extract %arg0
// CHUNKS-NOT: util.optimization_barrier
// CHUNKS: %[[V1:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[C]], %[[T1]] : tensor<2x4x4xi64>, tensor<2xi64>) outs(%{{.*}} : tensor<2xi64>)
// CHUNKS: %[[V2:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[V1]] : tensor<2x4x4xi64>, tensor<2xi64>)
// CHUNKS: %[[V3:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[V2]] : tensor<2x4x4xi64>, tensor<2xi64>)
// CHUNKS: %[[V4:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[V3]] : tensor<2x4x4xi64>, tensor<2xi64>)
// CHUNKS: linalg.generic {{.*}} ins(%[[V1]], %[[V2]], %[[V3]], %[[V4]] : {{.*}}) outs(%{{.*}} : tensor<2x4xi64>)
// CHUNKS: arith.trunci
// CHUNKS-NOT: iree_linalg_ext
// CHUNKS: return
func.func @chunks_indices(%x: tensor<2x64xf32>) -> tensor<2x4xi64> {
  %e = tensor.empty() : tensor<2x64xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x64xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<2x64xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<2x64xf32>, tensor<2x64xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf32>, tensor<2x64xi64>
  %k = tensor.extract_slice %s#1[0, 0] [2, 4] [1, 1] : tensor<2x64xi64> to tensor<2x4xi64>
  return %k : tensor<2x4xi64>
}

// -----

// Precondition of the chunks form: a power-of-two chunk size C >= 2 that cuts the width into at
// least k chunks. Width 63 is odd: forced to it, the sort is left alone.
// CHUNKS-LABEL: func.func @chunks_odd_width
// CHUNKS: iree_linalg_ext.sort
// CHUNKS: tensor.extract_slice
func.func @chunks_odd_width(%x: tensor<2x63xi32>) -> tensor<2x4xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x63xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x63xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x63xi32> to tensor<2x4xi32>
  return %v : tensor<2x4xi32>
}

// -----

// Precondition of the chunks form: at least k chunks. Width 8, k = 5: chunks of 2 give 4 < 5 chunks.
// CHUNKS-LABEL: func.func @chunks_too_few
// CHUNKS: iree_linalg_ext.sort
// CHUNKS: tensor.extract_slice
func.func @chunks_too_few(%x: tensor<2x8xi32>) -> tensor<2x5xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x8xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 5] [1, 1] : tensor<2x8xi32> to tensor<2x5xi32>
  return %v : tensor<2x5xi32>
}

// -----

// Precondition of the chunks form: k <= 64 (rounds over the chunk bests and the candidates).
// CHUNKS-LABEL: func.func @chunks_too_many
// CHUNKS: iree_linalg_ext.sort
// CHUNKS: tensor.extract_slice
func.func @chunks_too_many(%x: tensor<2x32768xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x32768xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x32768xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x32768xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// Precondition of the composite forms (argmax, rounds, chunks, rank): a width below 2^31, since a
// composite holds its index in 31 bits beside the constant round 0 starts after. At 2^31, auto takes
// the top-k op (its i32 indices reach 2^31-1), a forced composite form and the GPU rule leave the
// sort; one wider, the top-k op is refused too.
// CHECK-LABEL: func.func @width_2_pow_31
// CHECK: iree_linalg_ext.topk
// ROUNDS-LABEL: func.func @width_2_pow_31
// ROUNDS: iree_linalg_ext.sort
// RANK-LABEL: func.func @width_2_pow_31
// RANK: iree_linalg_ext.sort
// GPU-LABEL: func.func @width_2_pow_31
// GPU: iree_linalg_ext.sort
func.func @width_2_pow_31(%x: tensor<1x2147483648xf32>) -> tensor<1x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<1x2147483648xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2147483648xf32>
  %v = tensor.extract_slice %s[0, 0] [1, 4] [1, 1] : tensor<1x2147483648xf32> to tensor<1x4xf32>
  return %v : tensor<1x4xf32>
}
// CHECK-LABEL: func.func @width_over_2_pow_31
// CHECK: iree_linalg_ext.sort
// TOPK-LABEL: func.func @width_over_2_pow_31
// TOPK: iree_linalg_ext.sort
func.func @width_over_2_pow_31(%x: tensor<1x2147483649xf32>) -> tensor<1x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<1x2147483649xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2147483649xf32>
  %v = tensor.extract_slice %s[0, 0] [1, 4] [1, 1] : tensor<1x2147483649xf32> to tensor<1x4xf32>
  return %v : tensor<1x4xf32>
}

// -----

// Precondition of the chunks form: a static width, and keys of at most 32 bits.
// CHUNKS-LABEL: func.func @chunks_dynamic_width
// CHUNKS: iree_linalg_ext.sort
// CHUNKS-LABEL: func.func @chunks_wide_keys
// CHUNKS: iree_linalg_ext.sort
func.func @chunks_dynamic_width(%x: tensor<2x?xf32>) -> tensor<2x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x?xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x?xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}
func.func @chunks_wide_keys(%x: tensor<2x1024xf64>) -> tensor<2x4xf64> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.cmpf oge, %a, %b : f64
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf64>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x1024xf64> to tensor<2x4xf64>
  return %v : tensor<2x4xf64>
}

// -----

// The cost rule: rows of at least 512 whose chunks form makes at most 0.6 of the rounds form's
// compares take the chunks form (here 1024 wide, k = 8, chunks of 16); 64 wide stays rounds
// (@topk_indices above).
// CHECK-LABEL: func.func @auto_chunks
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [2, 64, 16]
// CHECK-NOT: iree_linalg_ext.sort
// CHECK: return
func.func @auto_chunks(%x: tensor<2x1024xf32>) -> tensor<2x8xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 8] [1, 1] : tensor<2x1024xf32> to tensor<2x8xf32>
  return %v : tensor<2x8xf32>
}

// -----

// The GPU rule on a narrow row (64, k = 4, dynamic batch): the rank form, materialized. The composites come
// from one parallel generic (the only reader of linalg.index) behind util.optimization_barrier, which
// IREE's dispatch formation does not fuse across (fused, the linalg.index in a reduction fails cuda's
// VectorDistribute); the dynamic batch re-attached by flow.tensor.tie_shape. The count reads the
// composites twice (j and i), the pick reads the counts, the composites and the ranks r as a constant;
// neither reads linalg.index. No round follows another (IREE's GPU code reduces each row serially).
// GPU-LABEL: func.func @gpu_rank_dynamic_batch
// GPU: %[[C:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<?x64xf32>) outs(%{{.*}} : tensor<?x64xi64>)
// GPU: linalg.index 1
// GPU: %[[B:.*]] = util.optimization_barrier %[[C]] : tensor<?x64xi64>
// GPU: %[[T:.*]] = flow.tensor.tie_shape %[[B]] : tensor<?x64xi64>{%{{.*}}}
// GPU-NOT: linalg.index
// GPU: %[[N:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[T]], %[[T]] : tensor<?x64xi64>, tensor<?x64xi64>) outs(%{{.*}} : tensor<?x64xi32>)
// GPU: arith.cmpi sgt
// GPU: %[[R:.*]] = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// GPU: %[[P:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[N]], %[[T]], %[[R]] : tensor<?x64xi32>, tensor<?x64xi64>, tensor<4xi32>) outs(%{{.*}} : tensor<?x4xi64>)
// GPU-NOT: linalg.index
// GPU: linalg.generic {{.*}} ins(%[[P]] : tensor<?x4xi64>) outs(%{{.*}} : tensor<?x4xi64>)
// GPU-NOT: iree_linalg_ext
// GPU: return
// form=rounds with the GPU rule, materialized: the materialized rounds (one masked reduction per round over the composites),
// the winners stacked as rows [k, batch] and decoded.
// GPUROUNDS-LABEL: func.func @gpu_rank_dynamic_batch
// GPUROUNDS: %[[B:.*]] = util.optimization_barrier %{{.*}} : tensor<?x64xi64>
// GPUROUNDS: %[[T:.*]] = flow.tensor.tie_shape %[[B]]
// GPUROUNDS-NOT: linalg.index
// GPUROUNDS: %[[R1:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[T]] : tensor<?x64xi64>)
// GPUROUNDS: %[[R2:.*]] = linalg.generic {{.*}} ins(%[[T]], %[[R1]] : tensor<?x64xi64>, tensor<?xi64>)
// GPUROUNDS: %[[R3:.*]] = linalg.generic {{.*}} ins(%[[T]], %[[R2]] : tensor<?x64xi64>, tensor<?xi64>)
// GPUROUNDS: %[[R4:.*]] = linalg.generic {{.*}} ins(%[[T]], %[[R3]] : tensor<?x64xi64>, tensor<?xi64>)
// GPUROUNDS-NOT: linalg.index
// GPUROUNDS: tensor.insert_slice %[[R1]] into %{{.*}}[0, 0] [1, %{{.*}}] [1, 1] : tensor<?xi64> into tensor<4x?xi64>
// GPUROUNDS: tensor.insert_slice %[[R4]] into %{{.*}}[3, 0] [1, %{{.*}}] [1, 1] : tensor<?xi64> into tensor<4x?xi64>
// GPUROUNDS: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4xi64>)
// GPUROUNDS: return
// The GPU rule with the top-k op form (it does not compile for GPUs): left alone.
// GPUTOPK-LABEL: func.func @gpu_rank_dynamic_batch
// GPUTOPK: iree_linalg_ext.sort
func.func @gpu_rank_dynamic_batch(%x: tensor<?x64xf32>) -> tensor<?x4xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x64xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?x64xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<?x64xf32>, tensor<?x64xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?x64xf32>, tensor<?x64xi64>
  %k = tensor.extract_slice %s#1[0, 0] [%n, 4] [1, 1] : tensor<?x64xi64> to tensor<?x4xi64>
  return %k : tensor<?x4xi64>
}

// -----

// The GPU rule on a wide row (2x1024, k = 8): the chunks form with its composites materialized behind a
// barrier and cut into chunks of 16 (the best of each in parallel); the 8 best chunk bests picked by
// rank (count, then pick); the candidates gathered from the composites by a parallel generic behind a
// second barrier, flattened, and ranked the same way. No reduction reads linalg.index.
// GPU-LABEL: func.func @gpu_wide_takes_chunks
// GPU: linalg.index 1
// GPU: %[[B:.*]] = util.optimization_barrier %{{.*}} : tensor<2x1024xi64>
// GPU: %[[S:.*]] = tensor.expand_shape %[[B]] {{.*}} into tensor<2x64x16xi64>
// GPU-NOT: linalg.index
// GPU: %[[BEST:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[S]] : tensor<2x64x16xi64>)
// GPU-NOT: linalg.index
// GPU: %[[CNT:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[BEST]], %[[BEST]] : tensor<2x64xi64>, tensor<2x64xi64>)
// GPU: linalg.generic {{.*}} ins(%[[CNT]], %[[BEST]], %{{.*}} : tensor<2x64xi32>, tensor<2x64xi64>, tensor<8xi32>)
// GPU: arith.divui
// GPU: tensor.extract %[[B]]
// GPU: %[[CAND:.*]] = util.optimization_barrier %{{.*}} : tensor<2x8x16xi64>
// GPU: %[[FLAT:.*]] = tensor.collapse_shape %[[CAND]] {{.*}} into tensor<2x128xi64>
// GPU-NOT: linalg.index
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[FLAT]], %[[FLAT]] : tensor<2x128xi64>, tensor<2x128xi64>)
// GPU-NOT: iree_linalg_ext
// GPU: return
// select=rounds: the same chunks, the best chunks and candidates picked by 8 rounds each.
// GPUCR-LABEL: func.func @gpu_wide_takes_chunks
// GPUCR: %[[BEST:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<2x64x16xi64>)
// GPUCR: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[BEST]] : tensor<2x64xi64>)
// GPUCR: %[[CAND:.*]] = util.optimization_barrier %{{.*}} : tensor<2x8x16xi64>
// GPUCR-NOT: tensor.collapse_shape
// GPUCR: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[CAND]] : tensor<2x8x16xi64>)
// GPUCR: return
func.func @gpu_wide_takes_chunks(%x: tensor<2x1024xf32>) -> tensor<2x8xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 8] [1, 1] : tensor<2x1024xf32> to tensor<2x8xf32>
  return %v : tensor<2x8xf32>
}

// -----

// The GPU rule, k = 1 on a wide row (2x1024): chunks of 32, the best of each, then the best of those bests
// is the answer (no candidates); a narrow row (64) keeps the one-reduction argmax.
// GPU-LABEL: func.func @gpu_wide_argmax_takes_chunks
// GPU: %[[B:.*]] = util.optimization_barrier %{{.*}} : tensor<2x1024xi64>
// GPU: %[[S:.*]] = tensor.expand_shape %[[B]] {{.*}} into tensor<2x32x32xi64>
// GPU: %[[BEST:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[S]] : tensor<2x32x32xi64>)
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[BEST]] : tensor<2x32xi64>)
// GPU-NOT: arith.divui
// GPU-NOT: util.optimization_barrier
// GPU: return
func.func @gpu_wide_argmax_takes_chunks(%x: tensor<2x1024xf32>) -> tensor<2x1xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 1] [1, 1] : tensor<2x1024xf32> to tensor<2x1xf32>
  return %v : tensor<2x1xf32>
}

// -----

// On the CPU, k = 1 with values: the reduction, the decode, then one generic that reads the value at
// the index and passes the index through (IREE fuses all three into one dispatch).
// CHECK-LABEL: func.func @gpu_narrow_argmax
// CHECK: %[[BEST:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x64xf32>)
// CHECK: %[[I:.*]] = linalg.generic {{.*}} ins(%[[BEST]] : tensor<2xi64>) outs(%{{.*}} : tensor<2xi32>)
// CHECK: arith.trunci
// CHECK: %[[E:.*]] = tensor.expand_shape %[[I]] {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xi32> into tensor<2x1xi32>
// CHECK: %[[VI:.*]]:2 = linalg.generic {{.*}} ins(%[[E]] : tensor<2x1xi32>) outs(%{{.*}}, %{{.*}} : tensor<2x1xf32>, tensor<2x1xi32>)
// CHECK: tensor.extract %arg0
// CHECK: %[[S:.*]] = tensor.extract_slice %[[VI]]#0[0, 0] [2, 1] [1, 1]
// CHECK: return %[[S]]
// GPU-LABEL: func.func @gpu_narrow_argmax
// GPU: util.optimization_barrier %{{.*}} : tensor<2x64xi64>
// GPU-NOT: tensor.expand_shape
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]}
// GPU-NOT: iterator_types = ["parallel", "reduction"]
// GPU: return
func.func @gpu_narrow_argmax(%x: tensor<2x64xf32>) -> tensor<2x1xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 1] [1, 1] : tensor<2x64xf32> to tensor<2x1xf32>
  return %v : tensor<2x1xf32>
}

// -----

// GPU rule where no chunk size divides the width (odd widths, a 50257-token vocabulary): k = 1 takes
// the one-reduction argmax at any width; k = 4 the rank count up to 4096 wide and materialized rounds
// beyond (each still far cheaper than the sort).
// GPU-LABEL: func.func @gpu_odd_vocab_argmax
// GPU: util.optimization_barrier %{{.*}} : tensor<2x50257xi64>
// GPU-NOT: tensor.expand_shape
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]}
// GPU-NOT: iterator_types = ["parallel", "reduction"]
// GPU: return
func.func @gpu_odd_vocab_argmax(%x: tensor<2x50257xf32>) -> tensor<2x1xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x50257xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x50257xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 1] [1, 1] : tensor<2x50257xf32> to tensor<2x1xf32>
  return %v : tensor<2x1xf32>
}

// -----

// GPU-LABEL: func.func @gpu_odd_rank
// GPU: util.optimization_barrier %{{.*}} : tensor<2x1001xi64>
// GPU-NOT: tensor.expand_shape
// GPU: arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// GPU: return
func.func @gpu_odd_rank(%x: tensor<2x1001xf32>) -> tensor<2x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1001xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1001xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x1001xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}

// -----

// GPU-LABEL: func.func @gpu_odd_wide_rounds
// GPU: %[[B:.*]] = util.optimization_barrier %{{.*}} : tensor<2x8191xi64>
// GPU-NOT: tensor.expand_shape
// GPU: %[[R1:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[B]] : tensor<2x8191xi64>)
// GPU: %[[R2:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[R1]] : tensor<2x8191xi64>, tensor<2xi64>)
// GPU: %[[R3:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[R2]] : tensor<2x8191xi64>, tensor<2xi64>)
// GPU: %[[R4:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[R3]] : tensor<2x8191xi64>, tensor<2xi64>)
// GPU-NOT: arith.constant dense
// GPU: return
func.func @gpu_odd_wide_rounds(%x: tensor<2x8191xf32>) -> tensor<2x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x8191xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8191xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x8191xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}
