// RUN: opt-py %s --split-input-file -p arg-compare-dynamic-as-generic | filecheck %s

// torch.argmax(x, -1) over a dynamic length (CLIP's pooling): a reduction over d1 into the value and index
// accumulators; the comparator runs on (element, value so far), the index is linalg.index 1 cast to i32.
// CHECK: #[[IN:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[OUT:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax_dynamic_row
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<2x?xf32>, %[[V0:[a-z0-9_]+]]: tensor<2xf32>, %[[I0:[a-z0-9_]+]]: tensor<2xi32>)
// CHECK: %[[G:.*]]:2 = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x?xf32>) outs(%[[V0]], %[[I0]] : tensor<2xf32>, tensor<2xi32>) {
// CHECK-NEXT: ^bb0(%[[E:.*]]: f32, %[[BEST:.*]]: f32, %[[BI:.*]]: i32):
// CHECK-NEXT: %[[K:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[E]], %[[BEST]] : f32
// CHECK-NEXT: %[[NV:.*]] = arith.select %[[GT]], %[[E]], %[[BEST]] : f32
// CHECK-NEXT: %[[NI:.*]] = arith.select %[[GT]], %[[KI]], %[[BI]] : i32
// CHECK-NEXT: linalg.yield %[[NV]], %[[NI]] : f32, i32
// CHECK: return %[[G]]#1
// CHECK-NOT: iree_linalg_ext.arg_compare
func.func @argmax_dynamic_row(%x: tensor<2x?xf32>, %v0: tensor<2xf32>, %i0: tensor<2xi32>) -> tensor<2xi32> {
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<2x?xf32>) outs(%v0, %i0 : tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2xf32>, tensor<2xi32>
  return %r#1 : tensor<2xi32>
}

// -----

// An argmin over dim 0 of a ?x3 i32 tensor with an index_base and index-typed indices: the base is added,
// no cast; the comparator's ops (two of them) are cloned in order.
// CHECK: #[[IN:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[OUT:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @argmin_dim0_index_base
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<?x3xi32>, %{{.*}}: tensor<3xi32>, %{{.*}}: tensor<3xindex>, %[[BASE:[a-z0-9_]+]]: index)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]], #[[OUT]]], iterator_types = ["reduction", "parallel"]} ins(%[[X]] : tensor<?x3xi32>)
// CHECK-NEXT: ^bb0(%[[E:.*]]: i32, %[[BEST:.*]]: i32, %[[BI:.*]]: index):
// CHECK-NEXT: %[[K:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[KB:.*]] = arith.addi %[[BASE]], %[[K]] : index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[NEGA:.*]] = arith.subi %[[ZERO]], %[[E]] : i32
// CHECK-NEXT: %[[NEGB:.*]] = arith.subi %[[ZERO]], %[[BEST]] : i32
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi sgt, %[[NEGA]], %[[NEGB]] : i32
// CHECK-NEXT: arith.select %[[LT]], %[[E]], %[[BEST]] : i32
// CHECK-NEXT: arith.select %[[LT]], %[[KB]], %[[BI]] : index
func.func @argmin_dim0_index_base(%x: tensor<?x3xi32>, %v0: tensor<3xi32>, %i0: tensor<3xindex>, %base: index) -> tensor<3xindex> {
  %r:2 = iree_linalg_ext.arg_compare dimension(0) ins(%x : tensor<?x3xi32>) outs(%v0, %i0 : tensor<3xi32>, tensor<3xindex>) index_base(%base : index) {
  ^bb0(%a: i32, %b: i32):
    %zero = arith.constant 0 : i32
    %nega = arith.subi %zero, %a : i32
    %negb = arith.subi %zero, %b : i32
    %lt = arith.cmpi sgt, %nega, %negb : i32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<3xi32>, tensor<3xindex>
  return %r#1 : tensor<3xindex>
}

// -----

// A static reduced dim: IREE's tiling is right there. Left alone.
// CHECK-LABEL: func.func @no_rewrite_static_dim
// CHECK-NOT: linalg.generic
// CHECK: iree_linalg_ext.arg_compare dimension(1)
func.func @no_rewrite_static_dim(%x: tensor<?x40xf32>, %v0: tensor<?xf32>, %i0: tensor<?xi32>) -> tensor<?xi32> {
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<?x40xf32>) outs(%v0, %i0 : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?xf32>, tensor<?xi32>
  return %r#1 : tensor<?xi32>
}

// -----

// Explicit indices (an input of indices, the form IREE's own tiling and merges make): left alone.
// CHECK-LABEL: func.func @no_rewrite_explicit_indices
// CHECK-NOT: linalg.generic
// CHECK: iree_linalg_ext.arg_compare dimension(1) ins(%{{.*}}, %{{.*}} : tensor<2x?xf32>, tensor<2x?xi32>)
func.func @no_rewrite_explicit_indices(%x: tensor<2x?xf32>, %ix: tensor<2x?xi32>, %v0: tensor<2xf32>, %i0: tensor<2xi32>) -> tensor<2xi32> {
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x, %ix : tensor<2x?xf32>, tensor<2x?xi32>) outs(%v0, %i0 : tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2xf32>, tensor<2xi32>
  return %r#1 : tensor<2xi32>
}

// -----

// A comparator with a region (an scf.if): left alone.
// CHECK-LABEL: func.func @no_rewrite_comparator_with_regions
// CHECK-NOT: linalg.generic
// CHECK: iree_linalg_ext.arg_compare dimension(1)
func.func @no_rewrite_comparator_with_regions(%x: tensor<2x?xf32>, %v0: tensor<2xf32>, %i0: tensor<2xi32>, %flag: i1) -> tensor<2xi32> {
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<2x?xf32>) outs(%v0, %i0 : tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = scf.if %flag -> (i1) {
      %gt = arith.cmpf ogt, %a, %b : f32
      scf.yield %gt : i1
    } else {
      %lt = arith.cmpf olt, %a, %b : f32
      scf.yield %lt : i1
    }
    iree_linalg_ext.yield %c : i1
  } -> tensor<2xf32>, tensor<2xi32>
  return %r#1 : tensor<2xi32>
}

// -----

// On buffers: left alone.
// CHECK-LABEL: func.func @no_rewrite_buffers
// CHECK-NOT: linalg.generic
// CHECK: iree_linalg_ext.arg_compare dimension(1) ins(%{{.*}} : memref<2x?xf32>)
func.func @no_rewrite_buffers(%x: memref<2x?xf32>, %v0: memref<2xf32>, %i0: memref<2xi32>) {
  iree_linalg_ext.arg_compare dimension(1) ins(%x : memref<2x?xf32>) outs(%v0, %i0 : memref<2xf32>, memref<2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }
  return
}
