// The rank form: every composite's rank (how many composites come before it: one vectorized O(width^2)
// reduction), then out[r] = the index of rank r, written in the index type directly. Taken by the CPU
// rule when 2k >= width, or k > 64 and 8k >= width; forced with form=rank.
// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=rank}' | filecheck %s --check-prefix=RANK
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=rank}' --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Forced on torch.topk's export, k = 4 of 64: one parallel generic computes the composites (key << 32 |
// 0x7FFFFFFE - index, descending); the count compares composite j (the reduced loop) with composite i;
// the pick adds up the index i of the composite whose rank is the output position r.
// RANK-LABEL: func.func @rank_indices(
// RANK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<37x64xf32>
// RANK:         %[[COMPS:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<37x64xf32>) outs(%{{.+}} : tensor<37x64xi64>)
// RANK:           %[[SHIFTED:.+]] = arith.shli
// RANK:           %[[COMP:.+]] = arith.ori %[[SHIFTED]], %{{.+}} : i64
// RANK:           linalg.yield %[[COMP]] : i64
// RANK:         %[[ZERO:.+]] = linalg.fill
// RANK:         %[[COUNTS:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[COMPS]], %[[COMPS]] : tensor<37x64xi64>, tensor<37x64xi64>) outs(%[[ZERO]] : tensor<37x64xi32>)
// RANK-NEXT:    ^bb0(%[[CJ:[a-zA-Z0-9_]+]]: i64, %[[CI:[a-zA-Z0-9_]+]]: i64, %[[N:[a-zA-Z0-9_]+]]: i32):
// RANK-NEXT:      %[[BEFORE:.+]] = arith.cmpi sgt, %[[CJ]], %[[CI]] : i64
// RANK-NEXT:      %[[ONE:.+]] = arith.extui %[[BEFORE]] : i1 to i32
// RANK-NEXT:      %[[SUM:.+]] = arith.addi %[[N]], %[[ONE]] : i32
// RANK-NEXT:      linalg.yield %[[SUM]] : i32
// RANK:         %[[PICK:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[COUNTS]] : tensor<37x64xi32>) outs(%{{.+}} : tensor<37x4xi64>)
// RANK-NEXT:    ^bb0(%[[RANKI:[a-zA-Z0-9_]+]]: i32, %[[ACC:[a-zA-Z0-9_]+]]: i64):
// RANK:           %[[R:.+]] = arith.index_cast %{{.+}} : index to i32
// RANK:           %[[I:.+]] = arith.index_cast %{{.+}} : index to i64
// RANK:           %[[HIT:.+]] = arith.cmpi eq, %[[RANKI]], %[[R]] : i32
// RANK:           %[[ADD:.+]] = arith.select %[[HIT]], %[[I]], %{{.+}} : i64
// RANK:           arith.addi %[[ACC]], %[[ADD]] : i64
// RANK-NOT:     iree_linalg_ext
// RANK:         %[[K:.+]] = tensor.extract_slice %[[PICK]][0, 0] [37, 4] [1, 1]
// RANK:         return %[[K]]
func.func @rank_indices(%x: tensor<37x64xf32>) -> tensor<37x4xi64> {
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

// Forced on integer keys sorted alone along dim 0: the values are read by one generic that also passes
// the picked indices through (their one user, so IREE fuses it into the pick's dispatch).
// RANK-LABEL: func.func @rank_int_values_dim0(
// RANK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<16x3xi32>
// RANK:         arith.cmpi sgt, %{{.+}}, %{{.+}} : i64
// RANK:         arith.extui %{{.+}} : i1 to i32
// RANK:         %[[SEL:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]}{{.*}} outs(%{{.+}} : tensor<4x3xi32>)
// RANK:         %[[VI:.+]]:2 = linalg.generic {{.*}} ins(%[[SEL]] : tensor<4x3xi32>) outs(%{{.+}}, %{{.+}} : tensor<4x3xi32>, tensor<4x3xi32>)
// RANK:           tensor.extract %[[X]]
// RANK:         tensor.extract_slice %[[VI]]#0[0, 1] [4, 2] [1, 1]
func.func @rank_int_values_dim0(%x: tensor<16x3xi32>) -> tensor<4x2xi32> {
  %s = iree_linalg_ext.sort dimension(0) outs(%x : tensor<16x3xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<16x3xi32>
  %v = tensor.extract_slice %s[0, 1] [4, 2] [1, 1] : tensor<16x3xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// A static width makes a use of the whole result the top-k of k = width: a full sort, by counting (2k
// >= width). Ascending (ole): the composites hold index + 0x80000001 and the count compares with slt.
// The slice and the whole use both read the values generic.
// CHECK-LABEL: func.func @auto_rank_whole_use(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<4x8xf32>
// CHECK-NOT:     iree_linalg_ext.sort
// CHECK:         arith.constant 2147483649 : i64
// CHECK:         %[[COUNTS:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT:    ^bb0(%[[CJ:[a-zA-Z0-9_]+]]: i64, %[[CI:[a-zA-Z0-9_]+]]: i64, %{{.+}}: i32):
// CHECK-NEXT:      arith.cmpi slt, %[[CJ]], %[[CI]] : i64
// CHECK:         %[[PICK:.+]] = linalg.generic {{.*}} ins(%[[COUNTS]] : tensor<4x8xi32>) outs(%{{.+}} : tensor<4x8xi32>)
// CHECK:         %[[VI:.+]]:2 = linalg.generic {{.*}} ins(%[[PICK]] : tensor<4x8xi32>) outs(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<4x8xi32>)
// CHECK:           tensor.extract %[[X]]
// CHECK:         %[[K:.+]] = tensor.extract_slice %[[VI]]#0[0, 0] [4, 2] [1, 1]
// CHECK:         return %[[K]], %[[VI]]#0
func.func @auto_rank_whole_use(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ole, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v, %s : tensor<4x2xf32>, tensor<4x8xf32>
}

// -----

// Precondition of the composite forms: a width below 2^31. At 2^31, forced to rank, the sort is left
// alone.
// RANK-LABEL: func.func @rank_no_width_2_pow_31(
// RANK:         %[[S:.+]] = iree_linalg_ext.sort
// RANK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the rank form needs a static width below 2^31 and keys of at most 32 bits
func.func @rank_no_width_2_pow_31(%x: tensor<1x2147483648xf32>) -> tensor<1x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<1x2147483648xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2147483648xf32>
  %v = tensor.extract_slice %s[0, 0] [1, 4] [1, 1] : tensor<1x2147483648xf32> to tensor<1x4xf32>
  return %v : tensor<1x4xf32>
}
