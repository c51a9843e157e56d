// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-store --mlir-print-local-scope | filecheck %s
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-store{guard=false}' | filecheck %s --check-prefix=NOGUARD
// A C++ pass after it in the same pipeline:
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-store,canonicalize' | filecheck %s --check-prefix=CANON
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
// CHECK: %[[N:.*]] = hal.interface.constant.load {{.*}} ordinal(0)
// CHECK: %[[X:.*]] = hal.interface.constant.load {{.*}} ordinal(1)
// CHECK: %[[O:.*]] = arith.muli %[[X]], %{{.*}} : index
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

// A readwrite binding also loaded: the load keeps the old subspan, the store gets a new one.
// CHECK-LABEL: func.func @readwrite_load_and_store
// CHECK: %[[OLD:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6x4xf32>>
// CHECK: iree_tensor_ext.dispatch.tensor.load %[[OLD]]
// CHECK: %[[NEW:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x3x4xf32>>
// CHECK: iree_tensor_ext.dispatch.tensor.store %{{.*}}, %[[NEW]]
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

// Negative: a static offset on a collapsed dim that is not a multiple of the inner extent (4) splits rows.
// CHECK-LABEL: func.func @offset_not_multiple
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @offset_not_multiple
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @offset_not_multiple(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [2], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  return
}

// -----

// Negative: a dynamic offset not provably a multiple of the inner extent (x * 6 with inner 4).
// CHECK-LABEL: func.func @offset_unprovable
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @offset_unprovable
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @offset_unprovable(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %x = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %o = arith.muli %x, %c6 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<64xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [%o], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<64xf32>>
  return
}

// -----

// Negative: the binding's row (10) is not a multiple of the inner extent (4) and an outer dim depends on it.
// CHECK-LABEL: func.func @extent_not_multiple
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @extent_not_multiple
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @extent_not_multiple(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<3x10xf32>>
  %d = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %d, %b, offsets = [1, 0], sizes = [1, 8], strides = [1, 1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<3x10xf32>>
  return
}

// -----

// Negative: a dynamic binding extent under an outer dim, stored partially: its divisibility is unknown (IREE 3.13's C++ fold gets this one wrong).
// CHECK-LABEL: func.func @dynamic_extent_partial
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @dynamic_extent_partial
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dynamic_extent_partial(%v: tensor<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5x?xf32>>{%n}
  %c = tensor.collapse_shape %v [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 4], sizes = [2, 12], strides = [1, 1] : tensor<2x12xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5x?xf32>>{%n}
  return
}

// -----

// Negative: two dynamic dims in one group cannot be recovered from the collapsed size.
// CHECK-LABEL: func.func @two_dynamic_in_group
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @two_dynamic_in_group
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @two_dynamic_in_group(%v: tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [%n], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
  return
}

// -----

// Negative: a strided store on a collapsed dim.
// CHECK-LABEL: func.func @non_unit_stride
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @non_unit_stride
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @non_unit_stride(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [8], strides = [2] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  return
}

// -----

// Negative: a dynamic inner extent (4 x ?) under a static row of 24 that the store may fill partially: divisibility unknown.
// CHECK-LABEL: func.func @dynamic_value_static_extent
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @dynamic_value_static_extent
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dynamic_value_static_extent(%v: tensor<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x24xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<4x?xf32> into tensor<?xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [1, 0], sizes = [1, %n], strides = [1, 1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x24xf32>>
  return
}

// -----

// Negative (left alone): a collapse to rank 0.
// CHECK-LABEL: func.func @rank0
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store %collapsed
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @rank0(%v: tensor<1x1xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1xf32>>
  %c = tensor.collapse_shape %v [] : tensor<1x1xf32> into tensor<f32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [1], strides = [1] : tensor<f32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1xf32>>
  return
}

// -----

// Negative (left alone): the target is not a binding subspan (a flow dispatch region argument).
// CHECK-LABEL: func.func @not_a_subspan
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store %collapsed
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @not_a_subspan(%v: tensor<2x4xf32>, %b: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>) {
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
  return
}

// -----

// Negative (left alone): a binding of an encoded tensor.
// CHECK-LABEL: func.func @encoded
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store %collapsed
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @encoded(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32, "enc">>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32, "enc">>
  return
}

// -----

// The mirror: expand_shape of a load of the whole binding becomes a load of the expanded binding.
// CHECK-LABEL: func.func @expand_of_load
// CHECK: %[[B:.*]] = hal.interface.binding.subspan {{.*}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%arg0}
// CHECK: %[[L:.*]] = iree_tensor_ext.dispatch.tensor.load %[[B]], offsets = [0, 0], sizes = [%arg0, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%arg0} -> tensor<?x4xf32>
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[L]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @expand_of_load(%n: index) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %m = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%m}
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [%m], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%m} -> tensor<?xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// -----

// The mirror on a readwrite binding stored to between the load and the
// expand: the new load is made where the old one was, before the store, so
// it still reads the binding's old contents.
// CHECK-LABEL: func.func @expand_of_load_before_store
// CHECK: %[[L:.*]] = iree_tensor_ext.dispatch.tensor.load {{.*}} -> tensor<2x4xf32>
// CHECK: iree_tensor_ext.dispatch.tensor.store %arg0
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[L]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @expand_of_load_before_store(%v: tensor<8xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>> -> tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %v, %b, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): an expanded size defined after the load; a load made at
// the expand could read a later store, so the expand stays.
// CHECK-LABEL: func.func @expand_size_after_load
// CHECK: tensor.expand_shape
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @expand_size_after_load() -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %m = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%m}
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [%m], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%m} -> tensor<?xf32>
  %n = hal.interface.constant.load layout(#pl) ordinal(1) : index
  %e = tensor.expand_shape %t [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// -----

// Negative (mirror): a load of part of the binding is left alone.
// CHECK-LABEL: func.func @expand_of_partial_load
// CHECK: tensor.expand_shape
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @expand_of_partial_load() -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [8], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): a rank-reducing load is left alone.
// CHECK-LABEL: func.func @expand_of_rank_reducing_load
// CHECK: tensor.expand_shape
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @expand_of_rank_reducing_load() -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x8xf32>>
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0, 0], sizes = [1, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x8xf32>> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative: a zero-extent collapse stores nothing; left alone (no guard copy
// either: no address can be wrong).
// CHECK-LABEL: func.func @zero_extent
// CHECK: tensor.collapse_shape
// CHECK-NOT: linalg.copy
// CHECK: iree_tensor_ext.dispatch.tensor.store
func.func @zero_extent(%v: tensor<4x0xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer>]>) binding(0) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<4x0xf32> into tensor<0xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [3], sizes = [0], strides = [1] : tensor<0xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>
  return
}

// -----

// Negative (mirror): the expanded value is a function argument, not a load.
// CHECK-LABEL: func.func @expand_of_argument
// CHECK: tensor.expand_shape %arg0
func.func @expand_of_argument(%t: tensor<8xf32>) -> tensor<2x4xf32> {
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): the load reads a dispatch tensor passed in as an
// argument (a flow.dispatch.workgroups region), not a binding subspan.
// CHECK-LABEL: func.func @expand_of_load_of_argument
// CHECK: tensor.expand_shape
func.func @expand_of_load_of_argument(%b: !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>>) -> tensor<2x4xf32> {
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): an encoded binding is left alone.
// CHECK-LABEL: func.func @expand_of_encoded_load
// CHECK: tensor.expand_shape
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @expand_of_encoded_load() -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32, "enc">>
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32, "enc">> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
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

// Negative: an affine.apply offset that is not a multiple of the inner extent
// (d0 * 4 + 2, inner 4) is refused, and guarded.
// CHECK-LABEL: func.func @affine_apply_offset_not_multiple
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @affine_apply_offset_not_multiple
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @affine_apply_offset_not_multiple(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %x = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %o = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%x)
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<128xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [%o], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<128xf32>>
  return
}

// -----

// Negative: the group's inner extent is dynamic (?x8) and the store covers
// the static binding (24 rows) only partly: the new outer extent would be
// 24 floordiv ?, a division by zero when that dim is 0.
// CHECK-LABEL: func.func @dynamic_inner_partial_store
// CHECK-NOT: floordiv
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @dynamic_inner_partial_store
// NOGUARD-NOT: floordiv
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @dynamic_inner_partial_store(%v: tensor<3x?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x8xf32>>
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<3x?x8xf32> into tensor<?x8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 0], sizes = [%n, 8], strides = [1, 1] : tensor<?x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x8xf32>>
  return
}
