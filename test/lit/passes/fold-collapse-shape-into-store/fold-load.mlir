// RUN: opt-py %s --split-input-file -p fold-collapse-shape-into-store --mlir-print-local-scope | filecheck %s

// fold_expand_shape_into_load, the mirror: expand_shape of a load of a whole binding loads
// the binding retyped; partial, rank-reducing, encoded and non-binding loads stay.

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
// CHECK-LABEL: func.func @no_fold_expand_size_after_load
// CHECK: %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK: tensor.expand_shape %[[L]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_expand_size_after_load() -> tensor<?x4xf32> {
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
// CHECK-LABEL: func.func @no_fold_expand_of_partial_load
// CHECK: %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK: tensor.expand_shape %[[L]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_expand_of_partial_load() -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [8], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): a rank-reducing load is left alone.
// CHECK-LABEL: func.func @no_fold_expand_of_rank_reducing_load
// CHECK: %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK: tensor.expand_shape %[[L]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_expand_of_rank_reducing_load() -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x8xf32>>
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0, 0], sizes = [1, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x8xf32>> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): the expanded value is a function argument, not a load.
// CHECK-LABEL: func.func @no_fold_expand_of_argument
// CHECK: tensor.expand_shape %arg0
func.func @no_fold_expand_of_argument(%t: tensor<8xf32>) -> tensor<2x4xf32> {
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): the load reads a dispatch tensor passed in as an
// argument (a flow.dispatch.workgroups region), not a binding subspan.
// CHECK-LABEL: func.func @no_fold_expand_of_load_of_argument
// CHECK: %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK: tensor.expand_shape %[[L]]
func.func @no_fold_expand_of_load_of_argument(%b: !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>>) -> tensor<2x4xf32> {
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// Negative (mirror): an encoded binding is left alone.
// CHECK-LABEL: func.func @no_fold_expand_of_encoded_load
// CHECK: %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK: tensor.expand_shape %[[L]]
#pl = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @no_fold_expand_of_encoded_load() -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32, "enc">>
  %t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32, "enc">> -> tensor<8xf32>
  %e = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}
