// RUN: opt-py %s --split-input-file -p torch-zero-size-reshape-to-empty | filecheck %s

// onnx_ops' test_reshape_allowzero_reordered as imported: [0,3,4] to [3,4,0] (IREE's view lowering
// divides by zero on it). The shape operand is a runtime tensor; the result type says it all.
// CHECK-LABEL: func.func @onnx_reshape_allowzero_reordered
// CHECK-NOT: torch.operator
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x4x0xf32>
// CHECK: %[[R:.*]] = torch_c.from_builtin_tensor %[[E]] : tensor<3x4x0xf32> -> !torch.vtensor<[3,4,0],f32>
// CHECK: return %[[R]]
func.func @onnx_reshape_allowzero_reordered(%arg0: !torch.vtensor<[0,3,4],f32>, %arg1: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,4,0],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.Reshape"(%arg0, %arg1) {torch.onnx.allowzero = 1 : si64} : (!torch.vtensor<[0,3,4],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,4,0],f32>
  return %0 : !torch.vtensor<[3,4,0],f32>
}

// -----

// torch.aten.view, static: the empty result of its type.
// CHECK-LABEL: func.func @view_static
// CHECK-NOT: torch.aten.view
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x10xf32>
// CHECK: torch_c.from_builtin_tensor %[[E]] : tensor<0x10xf32> -> !torch.vtensor<[0,10],f32>
func.func @view_static(%x: !torch.vtensor<[2,0,5],f32>) -> !torch.vtensor<[0,10],f32> {
  %int0 = torch.constant.int 0
  %int10 = torch.constant.int 10
  %l = torch.prim.ListConstruct %int0, %int10 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.view %x, %l : !torch.vtensor<[2,0,5],f32>, !torch.list<int> -> !torch.vtensor<[0,10],f32>
  return %r : !torch.vtensor<[0,10],f32>
}

// -----

// A dynamic result dim whose size is a torch.aten.size.int: the empty tensor's size, via torch_c.to_i64;
// si64 is i64 as a builtin tensor.
// CHECK-LABEL: func.func @reshape_dynamic
// CHECK: %[[D:.*]] = torch.aten.size.int %arg0
// CHECK: %[[I:.*]] = torch_c.to_i64 %[[D]]
// CHECK: %[[N:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<3x?x0xi64>
// CHECK: torch_c.from_builtin_tensor %[[E]] : tensor<3x?x0xi64> -> !torch.vtensor<[3,?,0],si64>
// CHECK-NOT: torch.aten.reshape
func.func @reshape_dynamic(%x: !torch.vtensor<[?,3,0],si64>) -> !torch.vtensor<[3,?,0],si64> {
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %d = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,3,0],si64>, !torch.int -> !torch.int
  %l = torch.prim.ListConstruct %int3, %d, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.reshape %x, %l : !torch.vtensor<[?,3,0],si64>, !torch.list<int> -> !torch.vtensor<[3,?,0],si64>
  return %r : !torch.vtensor<[3,?,0],si64>
}

// -----

// Only the result has a static 0 (the input's dynamic dim must be 0 at run time): still empty. i1 as i1.
// CHECK-LABEL: func.func @unsafe_view_into_zero
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x2x2xi1>
// CHECK: torch_c.from_builtin_tensor %[[E]]
// CHECK-NOT: torch.aten._unsafe_view
func.func @unsafe_view_into_zero(%x: !torch.vtensor<[?,4],i1>) -> !torch.vtensor<[0,2,2],i1> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %l = torch.prim.ListConstruct %int0, %int2, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten._unsafe_view %x, %l : !torch.vtensor<[?,4],i1>, !torch.list<int> -> !torch.vtensor<[0,2,2],i1>
  return %r : !torch.vtensor<[0,2,2],i1>
}

// -----

// No static 0 on either side: the reshape may have elements.
// CHECK-LABEL: func.func @no_fold_has_elements
// CHECK: torch.aten.view %arg0
func.func @no_fold_has_elements(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[3,?],f32> {
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %d = torch.aten.size.int %x, %int0 : !torch.vtensor<[?,3],f32>, !torch.int -> !torch.int
  %l = torch.prim.ListConstruct %int3, %d : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.view %x, %l : !torch.vtensor<[?,3],f32>, !torch.list<int> -> !torch.vtensor<[3,?],f32>
  return %r : !torch.vtensor<[3,?],f32>
}

// -----

// A dynamic result dim sized -1 (inferred, and ambiguous with no elements): no size to give it.
// CHECK-LABEL: func.func @no_fold_inferred_size
// CHECK: torch.aten.view %arg0
func.func @no_fold_inferred_size(%x: !torch.vtensor<[0,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %int-1 = torch.constant.int -1
  %int3 = torch.constant.int 3
  %l = torch.prim.ListConstruct %int-1, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.view %x, %l : !torch.vtensor<[0,3],f32>, !torch.list<int> -> !torch.vtensor<[?,3],f32>
  return %r : !torch.vtensor<[?,3],f32>
}

// -----

// A dynamic result dim computed by arithmetic: not provably a size.
// CHECK-LABEL: func.func @no_fold_computed_size
// CHECK: torch.aten.view %arg0
func.func @no_fold_computed_size(%x: !torch.vtensor<[0,3],f32>, %n: !torch.int) -> !torch.vtensor<[?,3],f32> {
  %int3 = torch.constant.int 3
  %m = torch.aten.mul.int %n, %int3 : !torch.int, !torch.int -> !torch.int
  %l = torch.prim.ListConstruct %m, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.view %x, %l : !torch.vtensor<[0,3],f32>, !torch.list<int> -> !torch.vtensor<[?,3],f32>
  return %r : !torch.vtensor<[?,3],f32>
}

// -----

// An unknown dtype: no builtin tensor type to make.
// CHECK-LABEL: func.func @no_fold_unknown_dtype
// CHECK: torch.aten.view %arg0
func.func @no_fold_unknown_dtype(%x: !torch.vtensor<[0,3],unk>) -> !torch.vtensor<[3,0],unk> {
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %l = torch.prim.ListConstruct %int3, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.view %x, %l : !torch.vtensor<[0,3],unk>, !torch.list<int> -> !torch.vtensor<[3,0],unk>
  return %r : !torch.vtensor<[3,0],unk>
}

// -----

// ONNX: a dynamic result dim (its size is in a runtime tensor): left to the frontend.
// CHECK-LABEL: func.func @no_fold_onnx_dynamic_result
// CHECK: torch.operator "onnx.Reshape"
func.func @no_fold_onnx_dynamic_result(%arg0: !torch.vtensor<[0,3,4],f32>, %arg1: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,4,?],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.Reshape"(%arg0, %arg1) {torch.onnx.allowzero = 1 : si64} : (!torch.vtensor<[0,3,4],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,4,?],f32>
  return %0 : !torch.vtensor<[3,4,?],f32>
}

// -----

// ONNX: an input without elements and a result type with some: an invalid program, left as it is.
// CHECK-LABEL: func.func @no_fold_onnx_sizes_disagree
// CHECK: torch.operator "onnx.Reshape"
func.func @no_fold_onnx_sizes_disagree(%arg0: !torch.vtensor<[0,3],f32>, %arg1: !torch.vtensor<[1],si64>) -> !torch.vtensor<[4],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.Reshape"(%arg0, %arg1) : (!torch.vtensor<[0,3],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// Another ONNX operator with a 0-sized input: not a reshape.
// CHECK-LABEL: func.func @no_fold_other_onnx_op
// CHECK: torch.operator "onnx.Flatten"
func.func @no_fold_other_onnx_op(%arg0: !torch.vtensor<[0,3,4],f32>) -> !torch.vtensor<[0,12],f32> attributes {torch.onnx_meta.opset_version = 21 : si64} {
  %0 = torch.operator "onnx.Flatten"(%arg0) : (!torch.vtensor<[0,3,4],f32>) -> !torch.vtensor<[0,12],f32>
  return %0 : !torch.vtensor<[0,12],f32>
}

// -----

// Unranked: no sizes to reason about.
// CHECK-LABEL: func.func @no_fold_unranked
// CHECK: torch.aten.view %arg0
func.func @no_fold_unranked(%x: !torch.vtensor<*,f32>) -> !torch.vtensor<*,f32> {
  %int0 = torch.constant.int 0
  %l = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.view %x, %l : !torch.vtensor<*,f32>, !torch.list<int> -> !torch.vtensor<*,f32>
  return %r : !torch.vtensor<*,f32>
}
