// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-store --mlir-print-local-scope | filecheck %s
// RUN: opt-py %s --split-input-file -p 'fold-collapse-shape-into-store{guard=false}' | filecheck %s --check-prefix=NOGUARD

// Stores whose fold cannot be proven: not folded, and given a linalg.copy so that IREE's
// C++ fold never sees the collapse (guard=false: left as they are).

// Negative: a static offset on a collapsed dim that is not a multiple of the inner extent (4) splits rows.
// CHECK-LABEL: func.func @no_fold_offset_not_multiple
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_offset_not_multiple
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_offset_not_multiple(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [2], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  return
}

// -----

// Negative: a dynamic offset not provably a multiple of the inner extent (x * 6 with inner 4).
// CHECK-LABEL: func.func @no_fold_offset_unprovable
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_offset_unprovable
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_offset_unprovable(%v: tensor<2x4xf32>) {
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

// Negative: an affine.apply offset that is not a multiple of the inner extent
// (d0 * 4 + 2, inner 4) is refused, and guarded.
// CHECK-LABEL: func.func @no_fold_affine_apply_offset_not_multiple
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_affine_apply_offset_not_multiple
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_affine_apply_offset_not_multiple(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %x = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %o = affine.apply affine_map<(d0) -> (d0 * 4 + 2)>(%x)
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<128xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [%o], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<128xf32>>
  return
}

// -----

// Negative: the binding's row (10) is not a multiple of the inner extent (4) and an outer dim depends on it.
// CHECK-LABEL: func.func @no_fold_extent_not_multiple
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_extent_not_multiple
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_extent_not_multiple(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<3x10xf32>>
  %d = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %d, %b, offsets = [1, 0], sizes = [1, 8], strides = [1, 1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<3x10xf32>>
  return
}

// -----

// Negative: a dynamic binding extent under an outer dim, stored partially: its divisibility is unknown (IREE 3.13's C++ fold gets this one wrong).
// CHECK-LABEL: func.func @no_fold_dynamic_extent_partial
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_dynamic_extent_partial
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_dynamic_extent_partial(%v: tensor<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5x?xf32>>{%n}
  %c = tensor.collapse_shape %v [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 4], sizes = [2, 12], strides = [1, 1] : tensor<2x12xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5x?xf32>>{%n}
  return
}

// -----

// Negative: two dynamic dims in one group cannot be recovered from the collapsed size.
// CHECK-LABEL: func.func @no_fold_two_dynamic_in_group
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_two_dynamic_in_group
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_two_dynamic_in_group(%v: tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [%n], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%n}
  return
}

// -----

// Negative: a strided store on a collapsed dim.
// CHECK-LABEL: func.func @no_fold_non_unit_stride
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_non_unit_stride
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_non_unit_stride(%v: tensor<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0], sizes = [8], strides = [2] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<16xf32>>
  return
}

// -----

// Negative: a dynamic inner extent (4 x ?) under a static row of 24 that the store may fill partially: divisibility unknown.
// CHECK-LABEL: func.func @no_fold_dynamic_value_static_extent
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_dynamic_value_static_extent
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD-NOT: linalg.copy
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_dynamic_value_static_extent(%v: tensor<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x24xf32>>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<4x?xf32> into tensor<?xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [1, 0], sizes = [1, %n], strides = [1, 1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x24xf32>>
  return
}

// -----

// Negative: the group's inner extent is dynamic (?x8) and the store covers
// the static binding (24 rows) only partly: the new outer extent would be
// 24 floordiv ?, a division by zero when that dim is 0.
// CHECK-LABEL: func.func @no_fold_dynamic_inner_partial_store
// CHECK-NOT: floordiv
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[COPY:.*]] = linalg.copy {{.*}} ins(%[[C]] :
// CHECK: iree_tensor_ext.dispatch.tensor.store %[[COPY]]
// NOGUARD-LABEL: func.func @no_fold_dynamic_inner_partial_store
// NOGUARD-NOT: floordiv
// NOGUARD: %[[C:.*]] = tensor.collapse_shape
// NOGUARD: iree_tensor_ext.dispatch.tensor.store %[[C]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_dynamic_inner_partial_store(%v: tensor<3x?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = hal.interface.constant.load layout(#pl) ordinal(0) : index
  %b = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x8xf32>>
  %c = tensor.collapse_shape %v [[0, 1], [2]] : tensor<3x?x8xf32> into tensor<?x8xf32>
  iree_tensor_ext.dispatch.tensor.store %c, %b, offsets = [0, 0], sizes = [%n, 8], strides = [1, 1] : tensor<?x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x8xf32>>
  return
}
