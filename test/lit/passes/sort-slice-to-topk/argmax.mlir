// The argmax form (k = 1): one reduction of the composites, with no mask and no round before it, and
// a decode of the index. Taken by the CPU rule whenever k = 1 on a static width; forced with
// form=argmax, which computes only k = 1.
// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=argmax}' | filecheck %s --check-prefix=ARGMAX
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=argmax}' --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// k = 1 with values: the reduction, the decode, the index expanded back to [2, 1], then one generic
// that reads the value at the index and passes the index through (IREE fuses all three into one
// dispatch). The slice reads that generic's values.
// CHECK-LABEL: func.func @auto_argmax_values(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<2x64xf32>
// CHECK-NOT:     util.optimization_barrier
// CHECK:         %[[BEST:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x64xf32>)
// CHECK:           %[[COMP:.+]] = arith.ori
// CHECK-NEXT:      %[[MAX:.+]] = arith.maxsi %[[COMP]], %{{.+}} : i64
// CHECK-NEXT:      linalg.yield %[[MAX]] : i64
// CHECK:         %[[I:.+]] = linalg.generic {{.*}} ins(%[[BEST]] : tensor<2xi64>) outs(%{{.+}} : tensor<2xi32>)
// CHECK:           arith.trunci
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[I]] {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xi32> into tensor<2x1xi32>
// CHECK:         %[[VI:.+]]:2 = linalg.generic {{.*}} ins(%[[E]] : tensor<2x1xi32>) outs(%{{.+}}, %{{.+}} : tensor<2x1xf32>, tensor<2x1xi32>)
// CHECK:           tensor.extract %[[X]]
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[VI]]#0[0, 0] [2, 1] [1, 1]
// CHECK:         return %[[S]]
func.func @auto_argmax_values(%x: tensor<2x64xf32>) -> tensor<2x1xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 1] [1, 1] : tensor<2x64xf32> to tensor<2x1xf32>
  return %v : tensor<2x1xf32>
}

// -----

// Precondition: k = 1. Forced to argmax, k = 4 is left alone.
// ARGMAX-LABEL: func.func @argmax_no_k_over_1(
// ARGMAX:         %[[S:.+]] = iree_linalg_ext.sort
// ARGMAX:         tensor.extract_slice %[[S]][0, 0] [2, 4] [1, 1]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the argmax form computes only k = 1
func.func @argmax_no_k_over_1(%x: tensor<2x64xf32>) -> tensor<2x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x64xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}
