// The GPU rule, with the composites materialized, as --fixes runs the pass for cuda and rocm: every
// form computes its composites by one parallel generic behind util.optimization_barrier (so no
// reduction reads linalg.index: cuda's VectorDistribute fails on one), and the rule avoids rounds (a GPU
// reduces each row serially, one dispatch per round): under 512 wide argmax or rank; from 512 chunks
// with rank picks; where no chunk size divides the width, argmax (k = 1), rank up to 4096 wide, rounds
// beyond. What the rule does not take, and what it does not admit, is left to the sort.
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true}' | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true form=topk}' | filecheck %s --check-prefix=GPUTOPK
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true}' --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// A narrow row (64, k = 4) with a dynamic batch: the rank form. The composites come from one parallel
// generic (the only reader of linalg.index) behind the barrier, the dynamic batch re-attached by
// flow.tensor.tie_shape. The count reads the composites twice (j and i); the pick reads the counts, the
// composites and the ranks r as a constant; neither reads linalg.index; the decode reads the pick.
// CHECK-LABEL: func.func @gpu_narrow_rank_dynamic_batch(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<?x64xf32>
// CHECK:         %[[C:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<?x64xf32>) outs(%{{.+}} : tensor<?x64xi64>)
// CHECK:           linalg.index 1
// CHECK:         %[[B:.+]] = util.optimization_barrier %[[C]] : tensor<?x64xi64>
// CHECK:         %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x64xf32>
// CHECK:         %[[T:.+]] = flow.tensor.tie_shape %[[B]] : tensor<?x64xi64>{%[[N]]}
// CHECK-NOT:     linalg.index
// CHECK:         %[[CNT:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[T]], %[[T]] : tensor<?x64xi64>, tensor<?x64xi64>) outs(%{{.+}} : tensor<?x64xi32>)
// CHECK:           arith.cmpi sgt
// CHECK:         %[[R:.+]] = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// CHECK:         %[[P:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CNT]], %[[T]], %[[R]] : tensor<?x64xi32>, tensor<?x64xi64>, tensor<4xi32>) outs(%{{.+}} : tensor<?x4xi64>)
// CHECK-NEXT:    ^bb0(%[[RANK:[a-zA-Z0-9_]+]]: i32, %[[COMP:[a-zA-Z0-9_]+]]: i64, %[[RR:[a-zA-Z0-9_]+]]: i32, %[[ACC:[a-zA-Z0-9_]+]]: i64):
// CHECK-NEXT:      %[[HIT:.+]] = arith.cmpi eq, %[[RANK]], %[[RR]] : i32
// CHECK-NEXT:      %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[ADD:.+]] = arith.select %[[HIT]], %[[COMP]], %[[ZERO]] : i64
// CHECK-NEXT:      arith.addi %[[ACC]], %[[ADD]] : i64
// CHECK-NOT:     linalg.index
// CHECK:         %[[IDX:.+]] = linalg.generic {{.*}} ins(%[[P]] : tensor<?x4xi64>) outs(%{{.+}} : tensor<?x4xi64>)
// CHECK-NOT:     iree_linalg_ext
// CHECK:         %[[K:.+]] = tensor.extract_slice %[[IDX]]
// CHECK:         return %[[K]]
// The rule does not admit the top-k op form (it does not compile for GPUs): forced, it is left alone.
// GPUTOPK-LABEL: func.func @gpu_narrow_rank_dynamic_batch(
// GPUTOPK:         %[[S:.+]]:2 = iree_linalg_ext.sort
// GPUTOPK-NOT:     iree_linalg_ext.topk
// GPUTOPK:         tensor.extract_slice %[[S]]#1
func.func @gpu_narrow_rank_dynamic_batch(%x: tensor<?x64xf32>) -> tensor<?x4xi64> {
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

// A wide row (2x1024, k = 8): the chunks form with its composites materialized and cut into chunks of
// 16 (the best of each in parallel); the 8 best chunk bests picked by rank (count, then pick); the
// candidates gathered from the composites by a parallel generic behind a second barrier, flattened,
// and ranked the same way; the values read by a generic of their own. No reduction reads linalg.index.
// CHECK-LABEL: func.func @gpu_wide_chunks(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<2x1024xf32>
// CHECK:           linalg.index 1
// CHECK:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<2x1024xi64>
// CHECK:         %[[S:.+]] = tensor.expand_shape %[[B]] {{.*}} into tensor<2x64x16xi64>
// CHECK-NOT:     linalg.index
// CHECK:         %[[BEST:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[S]] : tensor<2x64x16xi64>)
// CHECK-NOT:     linalg.index
// CHECK:         %[[CNT:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[BEST]], %[[BEST]] : tensor<2x64xi64>, tensor<2x64xi64>)
// CHECK:         %[[PICK:.+]] = linalg.generic {{.*}} ins(%[[CNT]], %[[BEST]], %{{.+}} : tensor<2x64xi32>, tensor<2x64xi64>, tensor<8xi32>)
// CHECK:         %[[FIRST:.+]] = linalg.generic {{.*}} ins(%[[PICK]] : tensor<2x8xi64>) outs(%{{.+}} : tensor<2x8xi32>)
// CHECK:           arith.divui
// CHECK:         %[[GATHERED:.+]] = linalg.generic {{.*}} ins(%[[FIRST]] : tensor<2x8xi32>) outs(%{{.+}} : tensor<2x8x16xi64>)
// CHECK:           tensor.extract %[[B]]
// CHECK:         %[[CAND:.+]] = util.optimization_barrier %[[GATHERED]] : tensor<2x8x16xi64>
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %[[CAND]] {{.*}} into tensor<2x128xi64>
// CHECK-NOT:     linalg.index
// CHECK:         %[[CNT2:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[FLAT]], %[[FLAT]] : tensor<2x128xi64>, tensor<2x128xi64>)
// CHECK:         %[[PICK2:.+]] = linalg.generic {{.*}} ins(%[[CNT2]], %[[FLAT]], %{{.+}} : tensor<2x128xi32>, tensor<2x128xi64>, tensor<8xi32>)
// CHECK:         %[[IDX:.+]] = linalg.generic {{.*}} ins(%[[PICK2]] : tensor<2x8xi64>) outs(%{{.+}} : tensor<2x8xi32>)
// CHECK:         %[[VALUES:.+]] = linalg.generic {{.*}} ins(%[[IDX]] : tensor<2x8xi32>) outs(%{{.+}} : tensor<2x8xf32>)
// CHECK:           tensor.extract %[[X]]
// CHECK-NOT:     iree_linalg_ext
// CHECK:         %[[K:.+]] = tensor.extract_slice %[[VALUES]]
// CHECK:         return %[[K]]
func.func @gpu_wide_chunks(%x: tensor<2x1024xf32>) -> tensor<2x8xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 8] [1, 1] : tensor<2x1024xf32> to tensor<2x8xf32>
  return %v : tensor<2x8xf32>
}

// -----

// k = 1 on a wide row (2x1024): chunks of 32, the best of each, then the best of those bests is the
// answer (no candidates, no second barrier).
// CHECK-LABEL: func.func @gpu_wide_argmax_chunks(
// CHECK:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<2x1024xi64>
// CHECK:         %[[S:.+]] = tensor.expand_shape %[[B]] {{.*}} into tensor<2x32x32xi64>
// CHECK:         %[[BEST:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[S]] : tensor<2x32x32xi64>)
// CHECK:         %[[W:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[BEST]] : tensor<2x32xi64>)
// CHECK-NOT:     arith.divui
// CHECK-NOT:     util.optimization_barrier
// CHECK:         linalg.generic {{.*}} ins(%[[W]] : tensor<2xi64>)
// CHECK:         return
func.func @gpu_wide_argmax_chunks(%x: tensor<2x1024xf32>) -> tensor<2x1xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 1] [1, 1] : tensor<2x1024xf32> to tensor<2x1xf32>
  return %v : tensor<2x1xf32>
}

// -----

// k = 1 on a narrow row (64): the one-reduction argmax over the materialized composites.
// CHECK-LABEL: func.func @gpu_narrow_argmax(
// CHECK:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<2x64xi64>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[B]] : tensor<2x64xi64>)
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         return
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

// Where no chunk size divides the width (odd widths, a 50257-token vocabulary), k = 1 takes the
// one-reduction argmax at any width.
// CHECK-LABEL: func.func @gpu_odd_width_argmax(
// CHECK:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<2x50257xi64>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[B]] : tensor<2x50257xi64>)
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         return
func.func @gpu_odd_width_argmax(%x: tensor<2x50257xf32>) -> tensor<2x1xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x50257xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x50257xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 1] [1, 1] : tensor<2x50257xf32> to tensor<2x1xf32>
  return %v : tensor<2x1xf32>
}

// -----

// An odd width up to 4096, k = 4: the rank count.
// CHECK-LABEL: func.func @gpu_odd_width_rank(
// CHECK:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<2x1001xi64>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[CNT:.+]] = linalg.generic {{.*}} ins(%[[B]], %[[B]] : tensor<2x1001xi64>, tensor<2x1001xi64>)
// CHECK:         %[[R:.+]] = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// CHECK:         linalg.generic {{.*}} ins(%[[CNT]], %[[B]], %[[R]] :
// CHECK:         return
func.func @gpu_odd_width_rank(%x: tensor<2x1001xf32>) -> tensor<2x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1001xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1001xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x1001xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}

// -----

// An odd width beyond 4096, k = 4: the materialized rounds, each reading the composites and the
// previous winner.
// CHECK-LABEL: func.func @gpu_odd_wide_rounds(
// CHECK:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<2x8191xi64>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[R1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[B]] : tensor<2x8191xi64>)
// CHECK:         %[[R2:.+]] = linalg.generic {{.*}} ins(%[[B]], %[[R1]] : tensor<2x8191xi64>, tensor<2xi64>)
// CHECK:         %[[R3:.+]] = linalg.generic {{.*}} ins(%[[B]], %[[R2]] : tensor<2x8191xi64>, tensor<2xi64>)
// CHECK:         %[[R4:.+]] = linalg.generic {{.*}} ins(%[[B]], %[[R3]] : tensor<2x8191xi64>, tensor<2xi64>)
// CHECK-NOT:     arith.constant dense
// CHECK:         linalg.generic {{.*}} ins(%[[R1]], %[[R2]], %[[R3]], %[[R4]] :
// CHECK-NOT:     arith.constant dense
// CHECK:         return
func.func @gpu_odd_wide_rounds(%x: tensor<2x8191xf32>) -> tensor<2x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x8191xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8191xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x8191xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}

// -----

// k = width = 8 (a full sort, the slice of 2 read from it): the rank form.
// CHECK-LABEL: func.func @gpu_whole_use_rank(
// CHECK-NOT:     iree_linalg_ext.sort
// CHECK:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<4x8xi64>
// CHECK:         arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
// CHECK:         return
func.func @gpu_whole_use_rank(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ole, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v, %s : tensor<4x2xf32>, tensor<4x8xf32>
}

// -----

// k = 65 is past the chunks form's 64; 1024 <= 4096 wide, so the rank form takes it.
// CHECK-LABEL: func.func @gpu_k_over_64_rank(
// CHECK-NOT:     iree_linalg_ext.sort
// CHECK:         util.optimization_barrier %{{.+}} : tensor<2x1024xi64>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         arith.constant dense<{{.*}}> : tensor<65xi32>
// CHECK:         return
func.func @gpu_k_over_64_rank(%x: tensor<2x1024xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x1024xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// k > 64 on rows wider than 4096 (chunks stop at 64, the rank form's count is O(width^2)): left alone.
// CHECK-LABEL: func.func @gpu_no_k_over_64_over_4096_wide(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: for GPUs only the materialized argmax, rounds, chunks and rank forms
func.func @gpu_no_k_over_64_over_4096_wide(%x: tensor<2x8192xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x8192xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8192xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x8192xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// A dynamic width (the CPU rule takes the top-k op there): left alone.
// CHECK-LABEL: func.func @gpu_no_dynamic_width(
// CHECK:         %[[S:.+]]:2 = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]#0
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: for GPUs only the materialized argmax, rounds, chunks and rank forms
func.func @gpu_no_dynamic_width(%x: tensor<?x?xf16>) -> (tensor<?x2xf16>, tensor<?x5xi32>) {
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

// Keys of more than 32 bits: left alone.
// CHECK-LABEL: func.func @gpu_no_wide_keys(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: for GPUs only the materialized argmax, rounds, chunks and rank forms
func.func @gpu_no_wide_keys(%x: tensor<2x64xf64>) -> tensor<2x4xf64> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x64xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.cmpf oge, %a, %b : f64
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf64>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x64xf64> to tensor<2x4xf64>
  return %v : tensor<2x4xf64>
}

// -----

// A width of 2^31 (past the composites' 31 index bits): left alone.
// CHECK-LABEL: func.func @gpu_no_width_2_pow_31(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: for GPUs only the materialized argmax, rounds, chunks and rank forms
func.func @gpu_no_width_2_pow_31(%x: tensor<1x2147483648xf32>) -> tensor<1x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<1x2147483648xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2147483648xf32>
  %v = tensor.extract_slice %s[0, 0] [1, 4] [1, 1] : tensor<1x2147483648xf32> to tensor<1x4xf32>
  return %v : tensor<1x4xf32>
}
