// The top-k op form: iree_linalg_ext.topk over the integer keys (floats as ordered integers), its
// outputs started at the worst key with index INT32_MAX (a real key equal to it still wins, by index).
// Taken by the CPU rule for dynamic widths, keys over 32 bits, widths of 2^31, and k > 64 with 8k <
// width; forced with form=topk.
// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=topk}' | filecheck %s --check-prefix=TOPK
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=topk}' --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Forced on torch.topk's export: the ordered f32 keys (-0.0 -> +0.0, NaN -> +qNaN, magnitude bits
// flipped when negative), the op over them, its i32 indices widened to the sort's i64 by a generic.
// TOPK-LABEL: func.func @topk_indices_i64(
// TOPK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<37x64xf32>
// TOPK:         %[[KEYS:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<37x64xf32>) outs(%{{.+}} : tensor<37x64xi32>)
// TOPK:           %[[BITS:.+]] = arith.bitcast %{{.+}} : f32 to i32
// TOPK:           %[[ORDERED:.+]] = arith.xori %[[BITS]], %{{.+}} : i32
// TOPK:           linalg.yield %[[ORDERED]] : i32
// TOPK:         %[[WORST:.+]] = arith.constant -2147483648 : i32
// TOPK:         %[[V0:.+]] = linalg.fill ins(%[[WORST]] : i32) outs(%{{.+}} : tensor<37x4xi32>)
// TOPK:         %[[LAST:.+]] = arith.constant 2147483647 : i32
// TOPK:         %[[I0:.+]] = linalg.fill ins(%[[LAST]] : i32) outs(%{{.+}} : tensor<37x4xi32>)
// TOPK:         %[[T:.+]]:2 = iree_linalg_ext.topk dimension(1) ins(%[[KEYS]] : tensor<37x64xi32>) outs(%[[V0]], %[[I0]] : tensor<37x4xi32>, tensor<37x4xi32>)
// TOPK-NEXT:    ^bb0(%[[A:[a-zA-Z0-9_]+]]: i32, %[[B:[a-zA-Z0-9_]+]]: i32):
// TOPK-NEXT:      %[[GT:.+]] = arith.cmpi sgt, %[[A]], %[[B]] : i32
// TOPK-NEXT:      iree_linalg_ext.yield %[[GT]] : i1
// TOPK:         %[[WIDE:.+]] = linalg.generic {{.*}} ins(%[[T]]#1 : tensor<37x4xi32>) outs(%{{.+}} : tensor<37x4xi64>)
// TOPK:           arith.extsi %{{.+}} : i32 to i64
// TOPK-NOT:     iree_linalg_ext.sort
// TOPK:         %[[K:.+]] = tensor.extract_slice %[[WIDE]][0, 0] [37, 4] [1, 1]
// TOPK:         return %[[K]]
func.func @topk_indices_i64(%x: tensor<37x64xf32>) -> tensor<37x4xi64> {
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

// Forced on integer keys sorted alone along dim 0: the op reads the keys themselves and its values are
// the result (integer keys need no gathering back).
// TOPK-LABEL: func.func @topk_int_values_dim0(
// TOPK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<16x3xi32>
// TOPK:         %[[T:.+]]:2 = iree_linalg_ext.topk dimension(0) ins(%[[X]] : tensor<16x3xi32>)
// TOPK:           arith.cmpi sgt
// TOPK:         %[[K:.+]] = tensor.extract_slice %[[T]]#0[0, 1] [4, 2] [1, 1]
// TOPK:         return %[[K]]
func.func @topk_int_values_dim0(%x: tensor<16x3xi32>) -> tensor<4x2xi32> {
  %s = iree_linalg_ext.sort dimension(0) outs(%x : tensor<16x3xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<16x3xi32>
  %v = tensor.extract_slice %s[0, 1] [4, 2] [1, 1] : tensor<16x3xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// A dynamic width: values and i32 indices, ascending, dynamic batch, two slice lengths. One top-k of
// the longer (5) over the ordered f16 keys; the f16 values are read from the keys at its indices, and
// both slices read the results.
// CHECK-LABEL: func.func @auto_topk_dynamic_width(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<?x?xf16>
// CHECK:         %[[KEYS:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf16>) outs(%{{.+}} : tensor<?x?xi16>)
// CHECK:           arith.bitcast %{{.+}} : f16 to i16
// CHECK:         %[[T:.+]]:2 = iree_linalg_ext.topk dimension(1) ins(%[[KEYS]] : tensor<?x?xi16>) outs(%{{.+}}, %{{.+}} : tensor<?x5xi16>, tensor<?x5xi32>)
// CHECK:           arith.cmpi slt
// CHECK:         %[[G:.+]] = linalg.generic {{.*}} ins(%[[T]]#1 : tensor<?x5xi32>) outs(%{{.+}} : tensor<?x5xf16>)
// CHECK:           tensor.extract %[[X]]
// CHECK:         %[[V:.+]] = tensor.extract_slice %[[G]][0, 0] [%{{.+}}, 2] [1, 1] : tensor<?x5xf16> to tensor<?x2xf16>
// CHECK:         %[[I:.+]] = tensor.extract_slice %[[T]]#1[0, 0] [%{{.+}}, 5] [1, 1] : tensor<?x5xi32> to tensor<?x5xi32>
// CHECK:         return %[[V]], %[[I]]
func.func @auto_topk_dynamic_width(%x: tensor<?x?xf16>) -> (tensor<?x2xf16>, tensor<?x5xi32>) {
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

// k = 65 of 1024: past the rounds form's 64, and 8k < width, so the CPU rule takes the top-k op.
// CHECK-LABEL: func.func @auto_topk_k_over_64(
// CHECK-NOT:     iree_linalg_ext.sort
// CHECK:         %[[T:.+]]:2 = iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[T]]#0[0, 0] [2, 65] [1, 1]
func.func @auto_topk_k_over_64(%x: tensor<2x1024xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x1024xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// f64 keys do not fit a composite: the CPU rule takes the top-k op, over 64-bit ordered keys.
// CHECK-LABEL: func.func @auto_topk_wide_keys(
// CHECK-NOT:     iree_linalg_ext.sort
// CHECK:         arith.bitcast %{{.+}} : f64 to i64
// CHECK:         iree_linalg_ext.topk dimension(1) ins(%{{.+}} : tensor<2x64xi64>)
func.func @auto_topk_wide_keys(%x: tensor<2x64xf64>) -> tensor<2x4xf64> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x64xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.cmpf oge, %a, %b : f64
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf64>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x64xf64> to tensor<2x4xf64>
  return %v : tensor<2x4xf64>
}

// -----

// A width of 2^31 is past the composites' 31 index bits: the CPU rule takes the top-k op, whose i32
// indices reach 2^31-1 (the composite forms refuse it: rounds.mlir, rank.mlir).
// CHECK-LABEL: func.func @auto_topk_width_2_pow_31(
// CHECK-NOT:     iree_linalg_ext.sort
// CHECK:         iree_linalg_ext.topk dimension(1) ins(%{{.+}} : tensor<1x2147483648xi32>)
func.func @auto_topk_width_2_pow_31(%x: tensor<1x2147483648xf32>) -> tensor<1x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<1x2147483648xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2147483648xf32>
  %v = tensor.extract_slice %s[0, 0] [1, 4] [1, 1] : tensor<1x2147483648xf32> to tensor<1x4xf32>
  return %v : tensor<1x4xf32>
}

// -----

// Precondition of the top-k op: i32 indices. One wider than 2^31, the sort is left alone, by the CPU
// rule and forced alike.
// CHECK-LABEL: func.func @topk_no_width_over_2_pow_31(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// TOPK-LABEL: func.func @topk_no_width_over_2_pow_31(
// TOPK:         %[[S:.+]] = iree_linalg_ext.sort
// TOPK-NOT:     iree_linalg_ext.topk
// TOPK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the top-k op's indices are i32: a width over 2^31 is left alone
func.func @topk_no_width_over_2_pow_31(%x: tensor<1x2147483649xf32>) -> tensor<1x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<1x2147483649xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2147483649xf32>
  %v = tensor.extract_slice %s[0, 0] [1, 4] [1, 1] : tensor<1x2147483649xf32> to tensor<1x4xf32>
  return %v : tensor<1x4xf32>
}
