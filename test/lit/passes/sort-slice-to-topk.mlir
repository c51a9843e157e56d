// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{allow-unordered-ties=true}' | filecheck %s --check-prefix=TIES


// torch.topk as exported: oge over values and an i64 iota, indices sliced.
// CHECK-LABEL: func.func @topk_indices
// CHECK-NOT: iree_linalg_ext.sort
// CHECK: %[[T:.*]]:2 = iree_linalg_ext.topk dimension(1) ins(%arg0 : tensor<37x64xf32>) outs(%{{.*}}, %{{.*}} : tensor<37x4xf32>, tensor<37x4xi32>)
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK-NOT: iree_linalg_ext.sort
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
// CHECK: %[[T:.*]]:2 = iree_linalg_ext.topk dimension(1) ins(%arg0 : tensor<?x?xf16>) outs(%{{.*}}, %{{.*}} : tensor<?x5xf16>, tensor<?x5xi32>)
// CHECK: arith.cmpf olt
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

// Integer keys sorted alone along dim 0, values taken from the top-k op.
// CHECK-LABEL: func.func @int_values_dim0
// CHECK: %[[T:.*]]:2 = iree_linalg_ext.topk dimension(0) ins(%arg0 : tensor<16x3xi32>)
// CHECK: arith.cmpi sgt
// CHECK: tensor.extract_slice %[[T]]#0[0, 1] [4, 2] [1, 1]
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
// TIES: iree_linalg_ext.topk
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

// A slice that does not start at 0 along the sorted dimension.
// CHECK-LABEL: func.func @unsupported_offset
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_offset(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 1] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// A stride along the sorted dimension.
// CHECK-LABEL: func.func @unsupported_stride
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_stride(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 2] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}

// -----

// A dynamic slice length.
// CHECK-LABEL: func.func @unsupported_dynamic_k
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_dynamic_k(%x: tensor<4x8xf32>, %k: index) -> tensor<4x?xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, %k] [1, 1] : tensor<4x8xf32> to tensor<4x?xf32>
  return %v : tensor<4x?xf32>
}

// -----

// The whole sorted result is also read: not a top-k.
// CHECK-LABEL: func.func @unsupported_full_use
// CHECK: iree_linalg_ext.sort
// CHECK-NOT: iree_linalg_ext.topk
func.func @unsupported_full_use(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x8xf32>
  %v = tensor.extract_slice %s[0, 0] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  return %v, %s : tensor<4x2xf32>, tensor<4x8xf32>
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
