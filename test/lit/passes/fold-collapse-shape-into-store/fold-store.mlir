// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-store --mlir-print-local-scope | filecheck %s
// A C++ pass after it in the same pipeline:
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-store,canonicalize' | filecheck %s --check-prefix=CANON

// fold_collapse_shape_into_store: a collapse stored into a binding is stored as its source
// into a retyped subspan; collapses with nothing to prove are left alone, unguarded.

// CANON-LABEL: func.func @static_full
// CANON-NOT: tensor.collapse_shape
// CANON: iree_tensor_ext.dispatch.tensor.store %arg0

// All static, full store: the binding takes the source's shape.
// CHECK-LABEL: func.func @static_full
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x3x4xf32>>
// CHECK-NOT: tensor.collapse_shape
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0, %[[B]], offsets = [0, 0, 0], sizes = [2, 3, 4], strides = [1, 1, 1] : tensor<2x3x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x3x4xf32>>
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @static_full(%v: tensor<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x4xf32>>
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 0], sizes = [6, 4], strides = [1, 1] : tensor<6x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x4xf32>>
  return
}

// -----

// One dynamic dim in the group, full store: it is the store's size over the group's static dims.
// CHECK-LABEL: func.func @dynamic_group_full
// CHECK: %[[N:.*]] = hal.interface.constant.load
// CHECK: %[[D:.*]] = affine.apply affine_map<()[s0] -> (s0 floordiv 12)>()[%[[N]]]
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x?x4xf32>>{%[[D]]}
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0, %[[B]], offsets = [0, 0, 0], sizes = [3, %[[D]], 4], strides = [1, 1, 1] : tensor<3x?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x?x4xf32>>{%[[D]]}
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dynamic_group_full(%v: tensor<3x?x4xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
  %c = tensor.collapse_shape %v [[0, 1, 2]] : tensor<3x?x4xf32> into tensor<?xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [%n], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
  return
}

// -----

// Several dynamic groups, and a dynamic binding dim that is not collapsed.
// CHECK-LABEL: func.func @several_dynamic_groups
// CHECK-DAG: %[[N0:.*]] = hal.interface.constant.load {{.*}} ordinal(0)
// CHECK-DAG: %[[N1:.*]] = hal.interface.constant.load {{.*}} ordinal(1)
// CHECK-DAG: %[[N2:.*]] = hal.interface.constant.load {{.*}} ordinal(2)
// CHECK-DAG: %[[D0:.*]] = affine.apply affine_map<()[s0] -> (s0 floordiv 2)>()[%[[N0]]]
// CHECK-DAG: %[[D2:.*]] = affine.apply affine_map<()[s0] -> (s0 floordiv 5)>()[%[[N2]]]
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x2x?x5x?xf32>>{%[[D0]], %[[N1]], %[[D2]]}
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0, %[[B]], offsets = [0, 0, 0, 0, 0], sizes = [%[[D0]], 2, %[[N1]], 5, %[[D2]]], strides = [1, 1, 1, 1, 1]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @several_dynamic_groups(%v: tensor<?x2x?x5x?xf32>) {
  %c0 = arith.constant 0 : index
  %n0 = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %n1 = hal.interface.constant.load layout(#pl) ordinal(1) : index
  %n2 = hal.interface.constant.load layout(#pl) ordinal(2) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x?xf32>>{%n0, %n1, %n2}
  %c = tensor.collapse_shape %v [[0, 1], [2], [3, 4]] : tensor<?x2x?x5x?xf32> into tensor<?x?x?xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 0, 0], sizes = [%n0, %n1, %n2], strides = [1, 1, 1] : tensor<?x?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x?xf32>>{%n0, %n1, %n2}
  return
}

// -----

// Rank-reducing store: unit dims dropped leading, between and trailing, static and dynamic extents, keep their offsets.
// CHECK-LABEL: func.func @rank_reducing
// CHECK: %[[N:.*]] = hal.interface.constant.load
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<3x2x4x?x6x2xf32>>{%[[N]]}
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0, %[[B]], offsets = [2, 0, 0, 1, 0, 1], sizes = [1, 2, 4, 1, 6, 1], strides = [1, 1, 1, 1, 1, 1] : tensor<2x4x6xf32>
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @rank_reducing(%v: tensor<2x4x6xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<3x8x?x6x2xf32>>{%n}
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<2x4x6xf32> into tensor<8x6xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [2, 0, 1, 0, 1], sizes = [1, 8, 1, 6, 1], strides = [1, 1, 1, 1, 1] : tensor<8x6xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<3x8x?x6x2xf32>>{%n}
  return
}

// -----

// Partial store: static offsets on other dims, a dynamic offset proven a multiple of the inner extent (x * 24, inner 12), a dynamic outermost extent divided down.
// CHECK-LABEL: func.func @partial_dynamic_offset
// CHECK: %[[C24:.*]] = arith.constant 24 : index
// CHECK: %[[N:.*]] = hal.interface.constant.load {{.*}} ordinal(0)
// CHECK: %[[X:.*]] = hal.interface.constant.load {{.*}} ordinal(1)
// CHECK: %[[O:.*]] = arith.muli %[[X]], %[[C24]] : index
// CHECK-DAG: %[[E:.*]] = affine.apply affine_map<()[s0] -> (s0 floordiv 12)>()[%[[N]]]
// CHECK-DAG: %[[R:.*]] = affine.apply affine_map<()[s0] -> (s0 floordiv 12)>()[%[[O]]]
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x3x4x5xf32>>{%[[E]]}
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0, %[[B]], offsets = [%[[R]], 0, 0, 2], sizes = [2, 3, 4, 3], strides = [1, 1, 1, 1]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @partial_dynamic_offset(%v: tensor<2x3x4x3xf32>) {
  %c0 = arith.constant 0 : index
  %c24 = arith.constant 24 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %x = hal.interface.constant.load layout(#pl) ordinal(1) : index
  %o = arith.muli %x, %c24 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x5xf32>>{%n}
  %c = tensor.collapse_shape %v [[0, 1, 2], [3]] : tensor<2x3x4x3xf32> into tensor<24x3xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [%o, 2], sizes = [24, 3], strides = [1, 1] : tensor<24x3xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x5xf32>>{%n}
  return
}

// -----

// Partial store along an inner collapsed dim: static offset a multiple of the inner extent, static extent divisible by it; an affine.apply offset on the outer dim.
// CHECK-LABEL: func.func @partial_inner_static
// CHECK: %[[X:.*]] = hal.interface.constant.load
// CHECK: %[[A:.*]] = affine.apply
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<7x5x4xf32>>
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0, %[[B]], offsets = [%[[A]], 2, 0], sizes = [2, 3, 4], strides = [1, 1, 1]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @partial_inner_static(%v: tensor<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %x = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %a = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%x]
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<7x20xf32>>
  %c = tensor.collapse_shape %v [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [%a, 8], sizes = [2, 12], strides = [1, 1] : tensor<2x12xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<7x20xf32>>
  return
}

// -----

// An offset on a collapsed dim computed by affine.apply (x * 8 + 16, inner
// extent 4): proven a multiple, so the store folds (the proof walks the
// affine expression).
// CHECK-LABEL: func.func @affine_apply_offset
// CHECK: %[[X:.*]] = hal.interface.constant.load
// CHECK: %[[O:.*]] = affine.apply affine_map<()[s0] -> (s0 * 8 + 16)>()[%[[X]]]
// CHECK: %[[R:.*]] = affine.apply affine_map<()[s0] -> (s0 floordiv 4)>()[%[[O]]]
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<32x4xf32>>
// CHECK-NOT: tensor.collapse_shape
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0, %[[B]], offsets = [%[[R]], 0], sizes = [2, 4], strides = [1, 1]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @affine_apply_offset(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %x = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %o = affine.apply affine_map<()[s0] -> (s0 * 8 + 16)>()[%x]
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<128xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [%o], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<128xf32>>
  return
}

// -----

// A readwrite binding also loaded: the load keeps the old subspan, the store gets a new one.
// CHECK-LABEL: func.func @readwrite_load_and_store
// CHECK-SAME: (%[[V:[a-z0-9_]+]]: tensor<2x3x4xf32>)
// CHECK: %[[OLD:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6x4xf32>>
// CHECK: %[[L:.*]] = iree_tensor_ext.dispatch.tensor.load %[[OLD]]
// CHECK: %[[NEW:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x3x4xf32>>
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[V]], %[[NEW]]
// CHECK: return %[[L]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @readwrite_load_and_store(%v: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6x4xf32>>
  %old = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0, 0], sizes = [6, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6x4xf32>> -> tensor<6x4xf32>
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 0], sizes = [6, 4], strides = [1, 1] : tensor<6x4xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6x4xf32>>
  return %old : tensor<6x4xf32>
}

// -----

// Negative (left alone): a collapse to rank 0.
// CHECK-LABEL: func.func @no_fold_rank0
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_rank0(%v: tensor<1x1xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1xf32>>
  %c = tensor.collapse_shape %v [] : tensor<1x1xf32> into tensor<f32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [1], strides = [1] : tensor<f32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1xf32>>
  return
}

// -----

// Negative: a zero-extent collapse stores nothing; left alone (no guard copy
// either: no address can be wrong).
// CHECK-LABEL: func.func @no_fold_zero_extent
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[C]]
func.func @no_fold_zero_extent(%v: tensor<4x0xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer>]>) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<4x0xf32> into tensor<0xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [3], sizes = [0], strides = [1] : tensor<0xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>
  return
}

// -----

// Negative (left alone): the target is not a binding subspan (a flow dispatch region argument).
// CHECK-LABEL: func.func @no_fold_not_a_subspan
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_not_a_subspan(%v: tensor<2x4xf32>, %b: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>) {
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
  return
}

// -----

// Negative (left alone): a binding of an encoded tensor.
// CHECK-LABEL: func.func @no_fold_encoded
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_encoded(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32, "enc">>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32, "enc">>
  return
}
