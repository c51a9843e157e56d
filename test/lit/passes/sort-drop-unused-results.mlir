// RUN: opt-py %s --split-input-file -p sort-drop-unused-results | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-drop-unused-results{copy-read-only=false}' | filecheck %s --check-prefix=NOCOPY

// Indices unused and never compared: dropped with their block arguments.
// CHECK-LABEL: func.func @drop_one
// CHECK: %[[S:.*]] = iree_linalg_ext.sort dimension(1) outs(%arg0 : tensor<4x8xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: arith.cmpf ogt, %[[A]], %[[B]]
// CHECK: } -> tensor<4x8xf32>
// CHECK: return %[[S]]
func.func @drop_one(%v: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> tensor<4x8xf32> {
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%v, %i : tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %cmp = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %cmp : i1
  } -> tensor<4x8xf32>, tensor<4x8xi32>
  return %s#0 : tensor<4x8xf32>
}

// -----

// Several at once; the dimension and the comparator stay.
// CHECK-LABEL: func.func @drop_several
// CHECK: %[[S:.*]] = iree_linalg_ext.sort dimension(0) outs(%arg1 : tensor<16xi32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT: arith.cmpi slt, %[[A]], %[[B]]
// CHECK: return %[[S]]
func.func @drop_several(%x: tensor<16xf32>, %k: tensor<16xi32>, %y: tensor<16xf16>) -> tensor<16xi32> {
  %s:3 = iree_linalg_ext.sort dimension(0) outs(%x, %k, %y : tensor<16xf32>, tensor<16xi32>, tensor<16xf16>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32, %e: f16, %f: f16):
    %cmp = arith.cmpi slt, %c, %d : i32
    iree_linalg_ext.yield %cmp : i1
  } -> tensor<16xf32>, tensor<16xi32>, tensor<16xf16>
  return %s#1 : tensor<16xi32>
}

// -----

// None droppable: both results are used.
// CHECK-LABEL: func.func @no_fold_all_used
// CHECK: iree_linalg_ext.sort dimension(1) outs(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xi32>)
func.func @no_fold_all_used(%v: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%v, %i : tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %cmp = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %cmp : i1
  } -> tensor<4x8xf32>, tensor<4x8xi32>
  return %s#0, %s#1 : tensor<4x8xf32>, tensor<4x8xi32>
}

// -----

// Unused but read by the comparator (values, when only indices are wanted),
// and not a read-only load: nothing to do.
// CHECK-LABEL: func.func @no_fold_compared
// CHECK: iree_linalg_ext.sort dimension(1) outs(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xi32>)
// CHECK-NOT: linalg.copy
func.func @no_fold_compared(%v: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%v, %i : tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %cmp = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %cmp : i1
  } -> tensor<4x8xf32>, tensor<4x8xi32>
  return %s#1 : tensor<4x8xi32>
}

// -----

// A result used only by another op in the function is used.
// CHECK-LABEL: func.func @no_fold_used_by_other_op
// CHECK: %[[S:.*]]:2 = iree_linalg_ext.sort
// CHECK: tensor.extract_slice %[[S]]#1
func.func @no_fold_used_by_other_op(%v: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> tensor<4x2xi32> {
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%v, %i : tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %cmp = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %cmp : i1
  } -> tensor<4x8xf32>, tensor<4x8xi32>
  %k = tensor.extract_slice %s#1[0, 0] [4, 2] [1, 1] : tensor<4x8xi32> to tensor<4x2xi32>
  return %k : tensor<4x2xi32>
}

// -----

// Buffer semantics: left alone.
// CHECK-LABEL: func.func @no_fold_buffers
// CHECK: iree_linalg_ext.sort dimension(0) outs(%arg0, %arg1 : memref<8xf32>, memref<8xi32>)
func.func @no_fold_buffers(%v: memref<8xf32>, %i: memref<8xi32>) {
  iree_linalg_ext.sort dimension(0) outs(%v, %i : memref<8xf32>, memref<8xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %cmp = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %cmp : i1
  }
  return
}

// -----

// In a dispatch: the values are loaded from a read-only binding, unused, but
// compared. The sort gets a working copy, so it never writes the input.
// CHECK-LABEL: func.func @topk_indices_dispatch
// CHECK: %[[V:.*]] = iree_tensor_ext.dispatch.tensor.load {{.*}} -> tensor<4x64xf32>
// CHECK: %[[I:.*]] = iree_tensor_ext.dispatch.tensor.load {{.*}} -> tensor<4x64xi32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x64xf32>
// CHECK: %[[C:.*]] = linalg.copy {{.*}}ins(%[[V]] : tensor<4x64xf32>) outs(%[[E]] : tensor<4x64xf32>)
// CHECK: iree_linalg_ext.sort dimension(1) outs(%[[C]], %[[I]] : tensor<4x64xf32>, tensor<4x64xi32>)
// CHECK-NOT: linalg.copy
// NOCOPY-LABEL: func.func @topk_indices_dispatch
// NOCOPY-NOT: linalg.copy
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
func.func @topk_indices_dispatch() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x64xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4x64xi32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x64xf32>> -> tensor<4x64xf32>
  %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [4, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4x64xi32>> -> tensor<4x64xi32>
  %4:2 = iree_linalg_ext.sort dimension(1) outs(%2, %3 : tensor<4x64xf32>, tensor<4x64xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %5 = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %5 : i1
  } -> tensor<4x64xf32>, tensor<4x64xi32>
  iree_tensor_ext.dispatch.tensor.store %4#1, %1, offsets = [0, 0], sizes = [4, 64], strides = [1, 1] : tensor<4x64xi32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4x64xi32>>
  return
}

// -----

// Negative: the read-only input carries a tensor encoding; a working copy
// into a plain tensor.empty would drop it, so the sort is left alone.
// CHECK-LABEL: func.func @topk_indices_encoded
// CHECK-NOT: linalg.copy
// CHECK: iree_linalg_ext.sort dimension(1) outs(%{{.*}}, %{{.*}} : tensor<4x8xf32, #{{.*}}>, tensor<4x8xi32>)
#enc = #iree_encoding.testing<>
func.func @topk_indices_encoded() -> tensor<4x8xi32> {
  %c0 = arith.constant 0 : index
  %b = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf32, #enc>>
  %v = iree_tensor_ext.dispatch.tensor.load %b, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf32, #enc>> -> tensor<4x8xf32, #enc>
  %i = tensor.empty() : tensor<4x8xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%v, %i : tensor<4x8xf32, #enc>, tensor<4x8xi32>) {
  ^bb0(%x: f32, %y: f32, %c: i32, %d: i32):
    %cmp = arith.cmpf ogt, %x, %y : f32
    iree_linalg_ext.yield %cmp : i1
  } -> tensor<4x8xf32, #enc>, tensor<4x8xi32>
  return %s#1 : tensor<4x8xi32>
}

// -----

// Dynamic batch: the working copy's empty takes its size from the input.
// CHECK-LABEL: func.func @topk_indices_dispatch_dynamic
// CHECK: %[[V:.*]] = iree_tensor_ext.dispatch.tensor.load {{.*}} -> tensor<?x64xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[V]], %{{.*}} : tensor<?x64xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x64xf32>
// CHECK: linalg.copy {{.*}}ins(%[[V]] : tensor<?x64xf32>) outs(%[[E]] : tensor<?x64xf32>)
#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
func.func @topk_indices_dispatch_dynamic() {
  %c0 = arith.constant 0 : index
  %n0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %n = arith.index_castui %n0 : i32 to index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n}
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x64xi32>>{%n}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n} -> tensor<?x64xf32>
  %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x64xi32>>{%n} -> tensor<?x64xi32>
  %4:2 = iree_linalg_ext.sort dimension(1) outs(%2, %3 : tensor<?x64xf32>, tensor<?x64xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %5 = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %5 : i1
  } -> tensor<?x64xf32>, tensor<?x64xi32>
  iree_tensor_ext.dispatch.tensor.store %4#1, %1, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : tensor<?x64xi32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x64xi32>>{%n}
  return
}

// -----

// Negative: the sorted dimension is dynamic. A tile of the copy spans it, and
// GPU codegen sizes it by the dim's upper bound (2^55 bytes of shared memory),
// where stock compiles the sort: the sort is left alone.
// CHECK-LABEL: func.func @topk_indices_dispatch_dynamic_sorted_dim
// CHECK-NOT: linalg.copy
// CHECK: iree_linalg_ext.sort dimension(0)
#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
func.func @topk_indices_dispatch_dynamic_sorted_dim() {
  %c0 = arith.constant 0 : index
  %n0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %n = arith.index_castui %n0 : i32 to index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xi32>>{%n}
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xi32>>{%n}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xi32>>{%n} -> tensor<?xi32>
  %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xi32>>{%n} -> tensor<?xi32>
  %4:2 = iree_linalg_ext.sort dimension(0) outs(%2, %3 : tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%a: i32, %b: i32, %c: i32, %d: i32):
    %5 = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %5 : i1
  } -> tensor<?xi32>, tensor<?xi32>
  iree_tensor_ext.dispatch.tensor.store %4#1, %1, offsets = [0], sizes = [%n], strides = [1] : tensor<?xi32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xi32>>{%n}
  return
}
