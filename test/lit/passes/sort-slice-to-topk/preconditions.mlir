// What the pattern leaves alone: sorts that are not a top-k, with why (--debug-patterns). Each
// precondition of the match has its negative case here; each form's own preconditions are in its file.
// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p sort-slice-to-topk --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{allow-unordered-ties=true}' | filecheck %s --check-prefix=TIES

// A strict comparator (ogt): ties unordered, stock IREE's order is a bubble-sort artifact. Left alone
// unless allow-unordered-ties, which rewrites it (rounds, ties lowest index first).
// CHECK-LABEL: func.func @no_strict_compare(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: 'ogt' leaves ties unordered (allow-unordered-ties rewrites it)
// TIES-LABEL: func.func @no_strict_compare(
// TIES-NOT:     iree_linalg_ext.sort
// TIES:         %[[COMP:.+]] = arith.ori
// TIES-NEXT:    %[[AFTER:.+]] = arith.cmpi slt, %[[COMP]], %{{.+}} : i64
// TIES-NEXT:    %[[MASKED:.+]] = arith.select %[[AFTER]], %[[COMP]], %{{.+}} : i64
// TIES-NEXT:    arith.maxsi %[[MASKED]], %{{.+}} : i64
func.func @no_strict_compare(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
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
// CHECK-LABEL: func.func @no_predicate_une(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: predicate 'une' is not a total order of the keys
func.func @no_predicate_une(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf une, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// Keys compared in reverse block order (b, a).
// CHECK-LABEL: func.func @no_swapped_compare(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the comparator does not compare the first operand's two keys in order
func.func @no_swapped_compare(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
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
// CHECK-LABEL: func.func @no_two_keys(
// CHECK:         %[[S:.+]]:2 = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]#0
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the comparator is not a single compare
func.func @no_two_keys(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) -> tensor<4x2xf32> {
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
// CHECK-LABEL: func.func @no_second_operand_not_iota(
// CHECK:         %[[S:.+]]:2 = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]#1
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the second operand is not an iota along the sorted dimension
func.func @no_second_operand_not_iota(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) -> tensor<4x2xi32> {
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
// CHECK-LABEL: func.func @no_iota_along_other_dim(
// CHECK:         %[[S:.+]]:2 = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]#1
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the second operand is not an iota along the sorted dimension
func.func @no_iota_along_other_dim(%x: tensor<4x8xf32>) -> tensor<4x2xi32> {
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

// Indices of neither i32 nor i64.
// CHECK-LABEL: func.func @no_i16_indices(
// CHECK:         %[[S:.+]]:2 = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]#1
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: indices are not i32 or i64
func.func @no_i16_indices(%x: tensor<4x8xf32>) -> tensor<4x2xi16> {
  %e = tensor.empty() : tensor<4x8xi16>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xi16>) {
  ^bb0(%o: i16):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i16
    linalg.yield %c : i16
  } -> tensor<4x8xi16>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<4x8xf32>, tensor<4x8xi16>) {
  ^bb0(%a: f32, %b: f32, %p: i16, %q: i16):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>, tensor<4x8xi16>
  %v = tensor.extract_slice %s#1[0, 0] [4, 2] [1, 1] : tensor<4x8xi16> to tensor<4x2xi16>
  return %v : tensor<4x2xi16>
}

// -----

// i64 indices over a dynamic width: the top-k op counts in i32.
// CHECK-LABEL: func.func @no_i64_indices_dynamic_width(
// CHECK:         %[[S:.+]]:2 = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]#1
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: i64 indices over a width not known to fit in i32
func.func @no_i64_indices_dynamic_width(%x: tensor<4x?xf32>, %w: index) -> tensor<4x2xi64> {
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
// CHECK-LABEL: func.func @no_slice_offset(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]][0, 1] [4, 2] [1, 1]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: result 0 is used other than through a leading slice, and the sorted dimension is dynamic
func.func @no_slice_offset(%x: tensor<4x?xf32>) -> tensor<4x2xf32> {
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
// CHECK-LABEL: func.func @no_slice_stride(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]][0, 0] [4, 2] [1, 2]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: result 0 is used other than through a leading slice, and the sorted dimension is dynamic
func.func @no_slice_stride(%x: tensor<4x?xf32>) -> tensor<4x2xf32> {
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
// CHECK-LABEL: func.func @no_dynamic_slice_length(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]][0, 0] [4, %{{.+}}] [1, 1]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: result 0 is used other than through a leading slice, and the sorted dimension is dynamic
func.func @no_dynamic_slice_length(%x: tensor<4x?xf32>, %k: index) -> tensor<4x?xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>
  %v = tensor.extract_slice %s[0, 0] [4, %k] [1, 1] : tensor<4x?xf32> to tensor<4x?xf32>
  return %v : tensor<4x?xf32>
}

// -----

// The whole sorted result is also read and the width is dynamic: not a top-k of a known k (with a
// static width it is k = width: rank.mlir).
// CHECK-LABEL: func.func @no_whole_use_of_dynamic_width(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         %[[V:.+]] = tensor.extract_slice %[[S]]
// CHECK:         return %[[V]], %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: result 0 is used other than through a leading slice, and the sorted dimension is dynamic
func.func @no_whole_use_of_dynamic_width(%x: tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x?xf32>) {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x?xf32> to tensor<4x2xf32>
  return %v, %s : tensor<4x2xf32>, tensor<4x?xf32>
}

// -----

// An unsigned compare of integer keys.
// CHECK-LABEL: func.func @no_unsigned_compare(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: predicate 'uge' is not a total order of the keys
func.func @no_unsigned_compare(%x: tensor<4x8xi32>) -> tensor<4x2xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi uge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xi32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xi32> to tensor<4x2xi32>
  return %v : tensor<4x2xi32>
}

// -----

// Keys that are neither floats nor integers (index).
// CHECK-LABEL: func.func @no_index_keys(
// CHECK:         %[[S:.+]] = iree_linalg_ext.sort
// CHECK-NOT:     iree_linalg_ext.topk
// CHECK:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: keys are neither floats nor integers
func.func @no_index_keys(%x: tensor<4x8xindex>) -> tensor<4x2xindex> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xindex>) {
  ^bb0(%a: index, %b: index):
    %r = arith.cmpi sge, %a, %b : index
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xindex>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xindex> to tensor<4x2xindex>
  return %v : tensor<4x2xindex>
}
