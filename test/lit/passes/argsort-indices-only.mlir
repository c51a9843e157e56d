// RUN: opt-py %s --split-input-file -p argsort-indices-only | filecheck %s

// An argsort over a dynamic length (torch.sort(x)[1]): only the i64 iota is sorted, and the
// comparator reads the values where each index points.
// CHECK-LABEL: func.func @argsort_1d_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>)
// CHECK: %[[IOTA:.*]] = linalg.generic
// CHECK: %[[S:.*]] = iree_linalg_ext.sort dimension(0) outs(%[[IOTA]] : tensor<?xi64>) {
// CHECK-NEXT: ^bb0(%[[P:.*]]: i64, %[[Q:.*]]: i64):
// CHECK-NEXT: %[[PI:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK-NEXT: %[[A:.*]] = tensor.extract %[[X]][%[[PI]]] : tensor<?xf32>
// CHECK-NEXT: %[[QI:.*]] = arith.index_cast %[[Q]] : i64 to index
// CHECK-NEXT: %[[B:.*]] = tensor.extract %[[X]][%[[QI]]] : tensor<?xf32>
// CHECK-NEXT: %[[R:.*]] = arith.cmpf olt, %[[A]], %[[B]] : f32
// CHECK-NEXT: iree_linalg_ext.yield %[[R]] : i1
// CHECK-NEXT: } -> tensor<?xi64>
// CHECK-NEXT: return %[[S]] : tensor<?xi64>
func.func @argsort_1d_dynamic(%x: tensor<?xf32>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?xi64>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?xf32>, tensor<?xi64>
  return %s#1 : tensor<?xi64>
}

// -----

// Rows of a 2-D tensor, i32 indices: the payload is each element's i64 row-major position in the
// collapsed values; the indices are the sorted positions mod the row length, cast as the iota casts.
// CHECK-LABEL: func.func @argsort_rows_i32
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf16>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<?x?xf16> into tensor<?xf16>
// CHECK: %[[POS:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[R:.*]] = linalg.index 0
// CHECK-NEXT: %[[RN:.*]] = arith.muli %[[R]], %[[N]]
// CHECK-NEXT: %[[C:.*]] = linalg.index 1
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[RN]], %[[C]]
// CHECK-NEXT: %[[L64:.*]] = arith.index_cast %[[L]] : index to i64
// CHECK-NEXT: linalg.yield %[[L64]]
// CHECK: %[[S:.*]] = iree_linalg_ext.sort dimension(1) outs(%[[POS]] : tensor<?x?xi64>) {
// CHECK: tensor.extract %[[FLAT]]
// CHECK: tensor.extract %[[FLAT]]
// CHECK: arith.cmpf oge
// CHECK: %[[I:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<?x?xi64>) outs(%{{.*}} : tensor<?x?xi32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i64
// CHECK-NEXT: %[[INI:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK-NEXT: %[[M:.*]] = arith.remui %[[INI]], %[[N]] : index
// CHECK-NEXT: %[[M32:.*]] = arith.index_cast %[[M]] : index to i32
// CHECK-NEXT: linalg.yield %[[M32]] : i32
// CHECK: return %[[I]] : tensor<?x?xi32>
func.func @argsort_rows_i32(%x: tensor<?x?xf16>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<?x?xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<?x?xf16>, tensor<?x?xi32>) {
  ^bb0(%a: f16, %b: f16, %p: i32, %q: i32):
    %r = arith.cmpf oge, %a, %b : f16
    iree_linalg_ext.yield %r : i1
  } -> tensor<?x?xf16>, tensor<?x?xi32>
  return %s#1 : tensor<?x?xi32>
}

// -----

// Along dim 0: the values are transposed so that the sorted dim is innermost (each sorted row of the
// payload contiguous), and the indices read the sorted payload transposed back.
// CHECK: #[[$T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @argsort_columns
// CHECK-SAME: (%[[X:.*]]: tensor<?x5xi32>)
// CHECK: %[[M:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<?x5xi32>) outs(%{{.*}} : tensor<5x?xi32>) permutation = [1, 0]
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1]] : tensor<5x?xi32> into tensor<?xi32>
// CHECK: %[[POS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<5x?xi64>)
// CHECK: %[[S:.*]] = iree_linalg_ext.sort dimension(1) outs(%[[POS]] : tensor<5x?xi64>) {
// CHECK: tensor.extract %[[FLAT]]
// CHECK: arith.cmpi slt
// CHECK: %[[I:.*]] = linalg.generic {indexing_maps = [#[[$T]], #{{.*}}], {{.*}} ins(%[[S]] : tensor<5x?xi64>) outs(%{{.*}} : tensor<?x5xi64>)
// CHECK: arith.remui %{{.*}}, %[[M]] : index
// CHECK: return %[[I]] : tensor<?x5xi64>
func.func @argsort_columns(%x: tensor<?x5xi32>) -> tensor<?x5xi64> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x5xi32>
  %e = tensor.empty(%m) : tensor<?x5xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x5xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?x5xi64>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<?x5xi32>, tensor<?x5xi64>) {
  ^bb0(%a: i32, %b: i32, %p: i64, %q: i64):
    %r = arith.cmpi slt, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?x5xi32>, tensor<?x5xi64>
  return %s#1 : tensor<?x5xi64>
}

// -----

// A comparator breaking ties by index reads each payload's index (its position mod the row length).
// CHECK-LABEL: func.func @comparator_reads_indices
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: iree_linalg_ext.sort dimension(1) outs(%{{.*}} : tensor<2x?xi64>) {
// CHECK-NEXT: ^bb0(%[[P:.*]]: i64, %[[Q:.*]]: i64):
// CHECK: %[[A:.*]] = tensor.extract
// CHECK: %[[B:.*]] = tensor.extract
// CHECK: %[[PI:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK-NEXT: %[[PM:.*]] = arith.remui %[[PI]], %[[N]] : index
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[PM]] : index to i64
// CHECK-NEXT: %[[QI:.*]] = arith.index_cast %[[Q]] : i64 to index
// CHECK-NEXT: %[[QM:.*]] = arith.remui %[[QI]], %[[N]] : index
// CHECK-NEXT: %[[J:.*]] = arith.index_cast %[[QM]] : index to i64
// CHECK-NEXT: arith.cmpf olt, %[[A]], %[[B]]
// CHECK-NEXT: arith.cmpf oeq, %[[A]], %[[B]]
// CHECK-NEXT: arith.cmpi slt, %[[I]], %[[J]] : i64
func.func @comparator_reads_indices(%x: tensor<2x?xf32>) -> tensor<2x?xi64> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<2x?xf32>
  %e = tensor.empty(%n) : tensor<2x?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<2x?xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<2x?xf32>, tensor<2x?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %lt = arith.cmpf olt, %a, %b : f32
    %eq = arith.cmpf oeq, %a, %b : f32
    %first = arith.cmpi slt, %p, %q : i64
    %tie = arith.andi %eq, %first : i1
    %r = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x?xf32>, tensor<2x?xi64>
  return %s#1 : tensor<2x?xi64>
}

// -----

// A batch of 1 as IREE leaves it: the iota computed 1-D and expanded with a unit dim.
// CHECK-LABEL: func.func @iota_through_unit_expand
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[S:.*]] = iree_linalg_ext.sort dimension(1) outs(%{{.*}} : tensor<1x?xi64>) {
// CHECK: tensor.extract
// CHECK: arith.cmpf ole
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<1x?xi64>)
func.func @iota_through_unit_expand(%x: tensor<1x?xf32>) -> tensor<1x?xi64> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?xf32>
  %e = tensor.empty(%n) : tensor<?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?xi64>
  %ex = tensor.expand_shape %iota [[0, 1]] output_shape [1, %n] : tensor<?xi64> into tensor<1x?xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %ex : tensor<1x?xf32>, tensor<1x?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf ole, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x?xf32>, tensor<1x?xi64>
  return %s#1 : tensor<1x?xi64>
}

// -----

// A static row too long for the stack (8193 x 4 bytes > 32 KiB, stock: "exceeded stack allocation
// limit"): rewritten like a dynamic one.
// CHECK-LABEL: func.func @long_static_row
// CHECK: iree_linalg_ext.sort dimension(0) outs(%{{.*}} : tensor<8193xi64>)
// CHECK: tensor.extract
func.func @long_static_row(%x: tensor<8193xf32>) -> tensor<8193xi64> {
  %e = tensor.empty() : tensor<8193xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<8193xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<8193xi64>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<8193xf32>, tensor<8193xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<8193xf32>, tensor<8193xi64>
  return %s#1 : tensor<8193xi64>
}

// -----

// The limit is the target's: 64 x 64 x 4 bytes fit IREE's default 32 KiB, not this target's 1 KiB.
// CHECK-LABEL: func.func @stack_limit_of_the_target
// CHECK: iree_linalg_ext.sort dimension(1) outs(%{{.*}} : tensor<64x64xi64>)
// CHECK: tensor.extract
module attributes {hal.device.targets = [#hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {max_stack_allocation_size = 1024 : i64}>]> : !hal.device]} {
func.func @stack_limit_of_the_target(%x: tensor<64x64xf32>) -> tensor<64x64xi64> {
  %e = tensor.empty() : tensor<64x64xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x64xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<64x64xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<64x64xf32>, tensor<64x64xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<64x64xf32>, tensor<64x64xi64>
  return %s#1 : tensor<64x64xi64>
}
}

// -----

// The copy fits the stack for any tile IREE picks (at most 64 rows: 64 x 128 x 4 bytes = 32 KiB):
// stock compiles it, and its sort of the values in place is left to it.
// CHECK-LABEL: func.func @no_fold_copy_fits_the_stack
// CHECK: iree_linalg_ext.sort dimension(1) outs(%arg0, %{{.*}} : tensor<?x128xf32>, tensor<?x128xi64>)
func.func @no_fold_copy_fits_the_stack(%x: tensor<?x128xf32>) -> tensor<?x128xi64> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%m) : tensor<?x128xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x128xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?x128xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<?x128xf32>, tensor<?x128xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?x128xf32>, tensor<?x128xi64>
  return %s#1 : tensor<?x128xi64>
}

// -----

// The sorted values are used: they must be sorted in place anyway (and then have a buffer of their own).
// CHECK-LABEL: func.func @no_fold_values_used
// CHECK: iree_linalg_ext.sort dimension(0) outs(%arg0, %{{.*}} : tensor<?xf32>, tensor<?xi64>)
func.func @no_fold_values_used(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?xi64>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?xf32>, tensor<?xi64>
  return %s#0, %s#1 : tensor<?xf32>, tensor<?xi64>
}

// -----

// Nothing of the sort is used: left to dead-code elimination.
// CHECK-LABEL: func.func @no_fold_indices_unused
// CHECK: iree_linalg_ext.sort dimension(0) outs(%arg0, %{{.*}} : tensor<?xf32>, tensor<?xi64>)
func.func @no_fold_indices_unused(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?xi64>
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?xf32>, tensor<?xi64>
  return %x : tensor<?xf32>
}

// -----

// Indices that are not an iota (an argument): the payload's positions would not be them.
// CHECK-LABEL: func.func @no_fold_indices_not_an_iota
// CHECK: iree_linalg_ext.sort dimension(0) outs(%arg0, %arg1 : tensor<?xf32>, tensor<?xi64>)
func.func @no_fold_indices_not_an_iota(%x: tensor<?xf32>, %k: tensor<?xi64>) -> tensor<?xi64> {
  %s:2 = iree_linalg_ext.sort dimension(0) outs(%x, %k : tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?xf32>, tensor<?xi64>
  return %s#1 : tensor<?xi64>
}

// -----

// An iota along the other dim: each row's indices are all equal, not positions along the sorted dim.
// CHECK-LABEL: func.func @no_fold_iota_along_another_dim
// CHECK: iree_linalg_ext.sort dimension(1) outs(%arg0, %{{.*}} : tensor<4x?xf32>, tensor<4x?xi64>)
func.func @no_fold_iota_along_another_dim(%x: tensor<4x?xf32>) -> tensor<4x?xi64> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<4x?xf32>
  %e = tensor.empty(%n) : tensor<4x?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<4x?xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<4x?xf32>, tensor<4x?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x?xf32>, tensor<4x?xi64>
  return %s#1 : tensor<4x?xi64>
}

// -----

// An iota expanded into a non-unit dim along with the sorted one: its values are not the positions.
// CHECK-LABEL: func.func @no_fold_iota_expanded_with_a_non_unit_dim
// CHECK: iree_linalg_ext.sort dimension(1) outs(%arg0, %{{.*}} : tensor<2x?xf32>, tensor<2x?xi64>)
func.func @no_fold_iota_expanded_with_a_non_unit_dim(%x: tensor<2x?xf32>, %n2: index) -> tensor<2x?xi64> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<2x?xf32>
  %e = tensor.empty(%n2) : tensor<?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?xi64>
  %ex = tensor.expand_shape %iota [[0, 1]] output_shape [2, %n] : tensor<?xi64> into tensor<2x?xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %ex : tensor<2x?xf32>, tensor<2x?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x?xf32>, tensor<2x?xi64>
  return %s#1 : tensor<2x?xi64>
}

// -----

// Three outs: not the values-and-indices pair this rewrite reasons about.
// CHECK-LABEL: func.func @no_fold_three_outs
// CHECK: iree_linalg_ext.sort dimension(0) outs(%arg0, %{{.*}}, %arg1 : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>)
func.func @no_fold_three_outs(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?xi64>
  %s:3 = iree_linalg_ext.sort dimension(0) outs(%x, %iota, %y : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64, %u: f32, %v: f32):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  return %s#1 : tensor<?xi64>
}

// -----

// Buffer semantics (no results): nothing to reason about uses with.
// CHECK-LABEL: func.func @no_fold_buffers
// CHECK: iree_linalg_ext.sort dimension(0) outs(%arg0, %arg1 : memref<?xf32>, memref<?xi64>)
func.func @no_fold_buffers(%x: memref<?xf32>, %k: memref<?xi64>) {
  iree_linalg_ext.sort dimension(0) outs(%x, %k : memref<?xf32>, memref<?xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  }
  return
}
