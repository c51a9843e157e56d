// Each option controls one thing: rule picks the selection rule, materialize alone gives the composites
// a dispatch of their own, select how the materialized chunks form picks. Forced forms with the GPU rule
// (as tools/bench_topk_gpu.py measures them), and the two options apart.
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true form=rounds}' | filecheck %s --check-prefix=GPUROUNDS
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu materialize=true select=rounds}' | filecheck %s --check-prefix=GPUCR
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{materialize=true}' | filecheck %s --check-prefix=MAT
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{rule=gpu}' | filecheck %s --check-prefix=RULE

// 64 wide, k = 4, dynamic batch. Forced to rounds with the GPU rule, materialized: one masked reduction
// per round over the composites (behind the barrier, the batch tied back on), the winners stacked as
// rows [k, batch] (contiguous updates) and decoded.
// GPUROUNDS-LABEL: func.func @rounds_materialized_dynamic_batch(
// GPUROUNDS:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<?x64xi64>
// GPUROUNDS:         %[[T:.+]] = flow.tensor.tie_shape %[[B]]
// GPUROUNDS-NOT:     linalg.index
// GPUROUNDS:         %[[R1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[T]] : tensor<?x64xi64>)
// GPUROUNDS:         %[[R2:.+]] = linalg.generic {{.*}} ins(%[[T]], %[[R1]] : tensor<?x64xi64>, tensor<?xi64>)
// GPUROUNDS:         %[[R3:.+]] = linalg.generic {{.*}} ins(%[[T]], %[[R2]] : tensor<?x64xi64>, tensor<?xi64>)
// GPUROUNDS:         %[[R4:.+]] = linalg.generic {{.*}} ins(%[[T]], %[[R3]] : tensor<?x64xi64>, tensor<?xi64>)
// GPUROUNDS-NOT:     linalg.index
// GPUROUNDS:         %[[ROW0:.+]] = tensor.insert_slice %[[R1]] into %{{.+}}[0, 0] [1, %{{.+}}] [1, 1] : tensor<?xi64> into tensor<4x?xi64>
// GPUROUNDS:         %[[ROW1:.+]] = tensor.insert_slice %[[R2]] into %[[ROW0]][1, 0] [1, %{{.+}}] [1, 1] : tensor<?xi64> into tensor<4x?xi64>
// GPUROUNDS:         %[[ROW2:.+]] = tensor.insert_slice %[[R3]] into %[[ROW1]][2, 0] [1, %{{.+}}] [1, 1] : tensor<?xi64> into tensor<4x?xi64>
// GPUROUNDS:         %[[ROWS:.+]] = tensor.insert_slice %[[R4]] into %[[ROW2]][3, 0] [1, %{{.+}}] [1, 1] : tensor<?xi64> into tensor<4x?xi64>
// GPUROUNDS:         linalg.generic {{.*}} ins(%[[ROWS]] : tensor<4x?xi64>) outs(%{{.+}} : tensor<?x4xi64>)
// GPUROUNDS:         return
// materialize=true alone: the CPU rule's pick (rounds), with the composites in their own dispatch; the
// same IR as above.
// MAT-LABEL: func.func @rounds_materialized_dynamic_batch(
// MAT:         %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<?x64xi64>
// MAT:         %[[T:.+]] = flow.tensor.tie_shape %[[B]]
// MAT-NOT:     linalg.index
// MAT:         %[[R1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[T]] : tensor<?x64xi64>)
// MAT:         %[[R2:.+]] = linalg.generic {{.*}} ins(%[[T]], %[[R1]] : tensor<?x64xi64>, tensor<?xi64>)
// MAT:         return
// rule=gpu alone: the GPU rule's pick (rank), not materialized: the count reads the composites'
// generic directly, no barrier.
// RULE-LABEL: func.func @rounds_materialized_dynamic_batch(
// RULE-NOT:     util.optimization_barrier
// RULE:         %[[C:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<?x64xf32>) outs(%{{.+}} : tensor<?x64xi64>)
// RULE-NOT:     util.optimization_barrier
// RULE:         %[[CNT:.+]] = linalg.generic {{.*}} ins(%[[C]], %[[C]] : tensor<?x64xi64>, tensor<?x64xi64>)
// RULE:           arith.extui %{{.+}} : i1 to i32
// RULE:         linalg.generic {{.*}} ins(%[[CNT]] : tensor<?x64xi32>) outs(%{{.+}} : tensor<?x4xi64>)
// RULE-NOT:     util.optimization_barrier
// RULE:         return
func.func @rounds_materialized_dynamic_batch(%x: tensor<?x64xf32>) -> tensor<?x4xi64> {
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

// 2x1024, k = 8 with select=rounds: the same materialized chunks as the GPU rule's (gpu-rule.mlir),
// the best chunks and the candidates picked by 8 rounds each instead of by rank.
// GPUCR-LABEL: func.func @chunks_select_rounds(
// GPUCR:         %[[BEST:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}} : tensor<2x64x16xi64>)
// GPUCR:         %[[W1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[BEST]] : tensor<2x64xi64>)
// GPUCR:         linalg.generic {{.*}} ins(%[[BEST]], %[[W1]] : tensor<2x64xi64>, tensor<2xi64>)
// GPUCR-NOT:     arith.constant dense
// GPUCR:         %[[CAND:.+]] = util.optimization_barrier %{{.+}} : tensor<2x8x16xi64>
// GPUCR-NOT:     tensor.collapse_shape
// GPUCR:         %[[V1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[CAND]] : tensor<2x8x16xi64>)
// GPUCR:         linalg.generic {{.*}} ins(%[[CAND]], %[[V1]] : tensor<2x8x16xi64>, tensor<2xi64>)
// GPUCR-NOT:     arith.constant dense
// GPUCR:         return
func.func @chunks_select_rounds(%x: tensor<2x1024xf32>) -> tensor<2x8xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 8] [1, 1] : tensor<2x1024xf32> to tensor<2x8xf32>
  return %v : tensor<2x8xf32>
}
