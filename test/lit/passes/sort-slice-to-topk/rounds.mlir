// The rounds form: k masked arg-max reductions over i64 composites, then one generic decoding the k
// winners. Taken by the CPU rule for 2 <= k <= 64 and 2k < width on rows where chunks do not pay, and
// forced with form=rounds, which leaves alone what it cannot compute.
// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=rounds}' | filecheck %s --check-prefix=ROUNDS
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=rounds}' --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch.topk as exported (oge over the values and an i64 iota, the indices sliced), k = 4 of 64: four
// rounds, each keeping the best composite that comes after the previous round's winner. A composite is
// the ordered key << 32 | (0x7FFFFFFE - index); the ordered key: +0.0 added (-0.0 -> +0.0), NaN ->
// +qNaN, magnitude bits flipped when negative. Round 0 keeps those after 0x7FFFFFFF7FFFFFFF (above
// every composite, behind a barrier), so the four rounds are alike. The decode reads all four winners.
// CHECK-LABEL: func.func @auto_rounds_indices(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<37x64xf32>
// CHECK-NOT:     iree_linalg_ext
// CHECK:         %[[TOP:.+]] = arith.constant 9223372034707292159 : i64
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[TOP]] : i64)
// CHECK:         %[[R0:.+]] = util.optimization_barrier %[[F]] : tensor<37xi64>
// CHECK:         %[[WORST:.+]] = arith.constant -9223372036854775808 : i64
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[WORST]] : i64)
// CHECK:         %[[R1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[R0]] : tensor<37x64xf32>, tensor<37xi64>) outs(%[[INIT]] : tensor<37xi64>)
// CHECK-NEXT:    ^bb0(%[[KEY:[a-zA-Z0-9_]+]]: f32, %[[PREV:[a-zA-Z0-9_]+]]: i64, %[[ACC:[a-zA-Z0-9_]+]]: i64):
// CHECK-NEXT:      %[[POS:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[ISNAN:.+]] = arith.cmpf uno, %[[KEY]], %[[KEY]] : f32
// CHECK-NEXT:      %[[QNAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:      %[[PLUS0:.+]] = arith.addf %[[KEY]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[CANON:.+]] = arith.select %[[ISNAN]], %[[QNAN]], %[[PLUS0]] : f32
// CHECK-NEXT:      %[[BITS:.+]] = arith.bitcast %[[CANON]] : f32 to i32
// CHECK-NEXT:      %[[C31:.+]] = arith.constant 31 : i32
// CHECK-NEXT:      %[[SIGN:.+]] = arith.shrsi %[[BITS]], %[[C31]] : i32
// CHECK-NEXT:      %[[MAGMASK:.+]] = arith.constant 2147483647 : i32
// CHECK-NEXT:      %[[FLIP:.+]] = arith.andi %[[SIGN]], %[[MAGMASK]] : i32
// CHECK-NEXT:      %[[ORDERED:.+]] = arith.xori %[[BITS]], %[[FLIP]] : i32
// CHECK-NEXT:      %[[HIGH:.+]] = arith.extsi %[[ORDERED]] : i32 to i64
// CHECK-NEXT:      %[[I:.+]] = arith.index_cast %[[POS]] : index to i64
// CHECK-NEXT:      %[[LOWDESC:.+]] = arith.constant 2147483646 : i64
// CHECK-NEXT:      %[[LOW:.+]] = arith.subi %[[LOWDESC]], %[[I]] : i64
// CHECK-NEXT:      %[[C32:.+]] = arith.constant 32 : i64
// CHECK-NEXT:      %[[SHIFTED:.+]] = arith.shli %[[HIGH]], %[[C32]] : i64
// CHECK-NEXT:      %[[COMP:.+]] = arith.ori %[[SHIFTED]], %[[LOW]] : i64
// CHECK-NEXT:      %[[AFTER:.+]] = arith.cmpi slt, %[[COMP]], %[[PREV]] : i64
// CHECK-NEXT:      %[[MASKED:.+]] = arith.select %[[AFTER]], %[[COMP]], %[[WORST]] : i64
// CHECK-NEXT:      %[[BEST:.+]] = arith.maxsi %[[MASKED]], %[[ACC]] : i64
// CHECK-NEXT:      linalg.yield %[[BEST]] : i64
// CHECK:         %[[R2:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[R1]] : tensor<37x64xf32>, tensor<37xi64>)
// CHECK:         %[[R3:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[R2]] : tensor<37x64xf32>, tensor<37xi64>)
// CHECK:         %[[R4:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[R3]] : tensor<37x64xf32>, tensor<37xi64>)
// CHECK:         %[[OUT:.+]] = tensor.empty() : tensor<37x4xi64>
// CHECK:         %[[IDX:.+]] = linalg.generic {{.*}} ins(%[[R1]], %[[R2]], %[[R3]], %[[R4]] : {{.*}}) outs(%[[OUT]] : tensor<37x4xi64>)
// CHECK:           %[[LOW32:.+]] = arith.trunci %{{.+}} : i64 to i32
// CHECK:           %[[INDEX32:.+]] = arith.subi %{{.+}}, %[[LOW32]] : i32
// CHECK:           %[[INDEX64:.+]] = arith.extui %[[INDEX32]] : i32 to i64
// CHECK:           linalg.yield %[[INDEX64]] : i64
// CHECK-NOT:     iree_linalg_ext
// CHECK:         %[[K:.+]] = tensor.extract_slice %[[IDX]][0, 0] [37, 4] [1, 1]
// CHECK:         return %[[K]]
func.func @auto_rounds_indices(%x: tensor<37x64xf32>) -> tensor<37x4xi64> {
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

// Integer keys sorted alone along dim 0, k = 4 of 16 (the rank form only from k = width/2): the
// composites hold the i32 key itself; the values are read from the keys at the decoded indices by one
// generic that also passes the indices through (their one user, so IREE fuses it into the decode's
// dispatch); the slice of the other dimension reads that generic's values.
// CHECK-LABEL: func.func @auto_rounds_int_values_dim0(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<16x3xi32>
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         %[[R1:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]} ins(%[[X]], %{{.+}} : tensor<16x3xi32>, tensor<3xi64>)
// CHECK-NEXT:    ^bb0(%[[KEY:[a-zA-Z0-9_]+]]: i32, %[[PREV:[a-zA-Z0-9_]+]]: i64, %{{.+}}: i64):
// CHECK:           %[[HIGH:.+]] = arith.extsi %[[KEY]] : i32 to i64
// CHECK:           %[[SHIFTED:.+]] = arith.shli %[[HIGH]], %{{.+}} : i64
// CHECK:           %[[COMP:.+]] = arith.ori %[[SHIFTED]], %{{.+}} : i64
// CHECK:           arith.cmpi slt, %[[COMP]], %[[PREV]] : i64
// CHECK:           arith.maxsi
// CHECK:         %[[R2:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[R1]] : tensor<16x3xi32>, tensor<3xi64>)
// CHECK:         %[[R3:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[R2]] : tensor<16x3xi32>, tensor<3xi64>)
// CHECK:         %[[R4:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[R3]] : tensor<16x3xi32>, tensor<3xi64>)
// CHECK:         %[[IDX:.+]] = linalg.generic {{.*}} ins(%[[R1]], %[[R2]], %[[R3]], %[[R4]] : {{.*}}) outs(%{{.+}} : tensor<4x3xi32>)
// CHECK:         %[[VI:.+]]:2 = linalg.generic {{.*}} ins(%[[IDX]] : tensor<4x3xi32>) outs(%{{.+}}, %{{.+}} : tensor<4x3xi32>, tensor<4x3xi32>)
// CHECK-NEXT:    ^bb0(%[[AT:[a-zA-Z0-9_]+]]: i32, %{{.+}}: i32, %{{.+}}: i32):
// CHECK-NEXT:      %[[COL:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.index_cast %[[AT]] : i32 to index
// CHECK-NEXT:      %[[V:.+]] = tensor.extract %[[X]][%[[ROW]], %[[COL]]] : tensor<16x3xi32>
// CHECK-NEXT:      linalg.yield %[[V]], %[[AT]] : i32, i32
// CHECK:         %[[K:.+]] = tensor.extract_slice %[[VI]]#0[0, 1] [4, 2] [1, 1] : tensor<4x3xi32> to tensor<4x2xi32>
// CHECK:         return %[[K]]
func.func @auto_rounds_int_values_dim0(%x: tensor<16x3xi32>) -> tensor<4x2xi32> {
  %s = iree_linalg_ext.sort dimension(0) outs(%x : tensor<16x3xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<16x3xi32>
  %v = tensor.extract_slice %s[0, 1] [4, 2] [1, 1] : tensor<16x3xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// Precondition: a static width (a composite holds the index in 32 bits). Forced to rounds, a dynamic
// width is left alone (the CPU rule takes the top-k op there: topk-op.mlir).
// ROUNDS-LABEL: func.func @rounds_no_dynamic_width(
// ROUNDS:         %[[S:.+]]:2 = iree_linalg_ext.sort dimension(1)
// ROUNDS:         tensor.extract_slice %[[S]]#0
// ROUNDS:         tensor.extract_slice %[[S]]#1
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the rounds form needs a static width below 2^31 and keys of at most 32 bits
func.func @rounds_no_dynamic_width(%x: tensor<?x?xf16>) -> (tensor<?x2xf16>, tensor<?x5xi32>) {
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

// Precondition: at most 64 rounds (one dispatch each). Forced to rounds, k = 65 is left alone.
// ROUNDS-LABEL: func.func @rounds_no_k_over_64(
// ROUNDS:         %[[S:.+]] = iree_linalg_ext.sort
// ROUNDS:         tensor.extract_slice %[[S]][0, 0] [2, 65] [1, 1]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the rounds form computes 1 <= k <= 64
func.func @rounds_no_k_over_64(%x: tensor<2x1024xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x1024xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// Precondition: keys of at most 32 bits (the composite holds key and index in 64). Forced to rounds,
// f64 keys are left alone.
// ROUNDS-LABEL: func.func @rounds_no_wide_keys(
// ROUNDS:         %[[S:.+]] = iree_linalg_ext.sort
// ROUNDS:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the rounds form needs a static width below 2^31 and keys of at most 32 bits
func.func @rounds_no_wide_keys(%x: tensor<2x64xf64>) -> tensor<2x4xf64> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x64xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.cmpf oge, %a, %b : f64
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf64>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x64xf64> to tensor<2x4xf64>
  return %v : tensor<2x4xf64>
}

// -----

// Precondition: k >= 1. Forced to rounds, a zero-width sort used whole (k = 0) is left alone.
// ROUNDS-LABEL: func.func @rounds_no_zero_width(
// ROUNDS:         %[[S:.+]] = iree_linalg_ext.sort
// ROUNDS:         return %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the rounds form computes 1 <= k <= 64
func.func @rounds_no_zero_width(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x0xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x0xf32>
  return %s : tensor<4x0xf32>
}

// -----

// Precondition of the composite forms: a width below 2^31, since a composite holds its index in 31
// bits beside the constant round 0 starts after. At 2^31, forced to rounds, the sort is left alone.
// ROUNDS-LABEL: func.func @rounds_no_width_2_pow_31(
// ROUNDS:         %[[S:.+]] = iree_linalg_ext.sort
// ROUNDS:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the rounds form needs a static width below 2^31 and keys of at most 32 bits
func.func @rounds_no_width_2_pow_31(%x: tensor<1x2147483648xf32>) -> tensor<1x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<1x2147483648xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2147483648xf32>
  %v = tensor.extract_slice %s[0, 0] [1, 4] [1, 1] : tensor<1x2147483648xf32> to tensor<1x4xf32>
  return %v : tensor<1x4xf32>
}
