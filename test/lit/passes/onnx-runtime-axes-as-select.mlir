// RUN: opt-py %s --split-input-file -p onnx-runtime-axes-as-select | filecheck %s

// onnx_ops' test_reduce_l1_do_not_keepdims_example: [3,2,2] to [3,2] over one runtime axis is dim 1 or
// dim 2. One copy per candidate with an onnx.Constant axes; dim 1 is picked when an axis is 1 or -2.
// CHECK-LABEL: func.func @reduce_two_candidates
// CHECK: %[[C1:.*]] = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<1xsi64>}
// CHECK: %[[R1:.*]] = torch.operator "onnx.ReduceL1"(%arg0, %[[C1]]) {torch.onnx.keepdims = 0 : si64}
// CHECK: %[[C2:.*]] = torch.operator "onnx.Constant"() {torch.onnx.value = dense<2> : tensor<1xsi64>}
// CHECK: %[[R2:.*]] = torch.operator "onnx.ReduceL1"(%arg0, %[[C2]]) {torch.onnx.keepdims = 0 : si64}
// CHECK: %[[I1:.*]] = torch.constant.int 1
// CHECK: %[[E1:.*]] = torch.aten.eq.Scalar %arg1, %[[I1]] : !torch.vtensor<[1],si64>, !torch.int -> !torch.vtensor<[1],i1>
// CHECK: %[[IM2:.*]] = torch.constant.int -2
// CHECK: %[[E2:.*]] = torch.aten.eq.Scalar %arg1, %[[IM2]]
// CHECK: %[[OR:.*]] = torch.aten.logical_or %[[E1]], %[[E2]]
// CHECK: %[[ANY:.*]] = torch.aten.any %[[OR]] : !torch.vtensor<[1],i1> -> !torch.vtensor<[],i1>
// CHECK: %[[W:.*]] = torch.aten.where.self %[[ANY]], %[[R1]], %[[R2]]
// CHECK: return %[[W]]
func.func @reduce_two_candidates(%arg0: !torch.vtensor<[3,2,2],f32>, %arg1: !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,2],f32> {
  %0 = torch.operator "onnx.ReduceL1"(%arg0, %arg1) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// Two runtime axes of [2,3,4] to [2,1,1] (keepdims): only {1, 2}: the constant, no select.
// CHECK-LABEL: func.func @reduce_one_candidate
// CHECK: %[[C:.*]] = torch.operator "onnx.Constant"() {torch.onnx.value = dense<[1, 2]> : tensor<2xsi64>}
// CHECK: %[[R:.*]] = torch.operator "onnx.ReduceSum"(%arg0, %[[C]]) {torch.onnx.keepdims = 1 : si64}
// CHECK-NOT: torch.aten.where.self
// CHECK: return %[[R]]
func.func @reduce_one_candidate(%arg0: !torch.vtensor<[2,3,4],f32>, %arg1: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,1,1],f32> {
  %0 = torch.operator "onnx.ReduceSum"(%arg0, %arg1) {torch.onnx.keepdims = 1 : si64} : (!torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,1,1],f32>
  return %0 : !torch.vtensor<[2,1,1],f32>
}

// -----

// Two axes of [2,2,2] to [2] without keepdims: {0,1}, {0,2}, {1,2}. A candidate is picked when each of its
// axes is among the runtime ones (logical_and of the per-axis tests); the last is the default.
// CHECK-LABEL: func.func @reduce_two_axes_three_candidates
// CHECK-COUNT-3: torch.operator "onnx.ReduceMax"
// CHECK: torch.aten.any
// CHECK: torch.aten.any
// CHECK: %[[AND1:.*]] = torch.aten.logical_and
// CHECK: %[[W1:.*]] = torch.aten.where.self %[[AND1]]
// CHECK: torch.aten.any
// CHECK: torch.aten.any
// CHECK: %[[AND0:.*]] = torch.aten.logical_and
// CHECK: %[[W0:.*]] = torch.aten.where.self %[[AND0]], %{{.*}}, %[[W1]]
// CHECK: return %[[W0]]
func.func @reduce_two_axes_three_candidates(%arg0: !torch.vtensor<[2,2,2],si32>, %arg1: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2],si32> {
  %0 = torch.operator "onnx.ReduceMax"(%arg0, %arg1) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[2,2,2],si32>, !torch.vtensor<[2],si64>) -> !torch.vtensor<[2],si32>
  return %0 : !torch.vtensor<[2],si32>
}

// -----

// onnx_ops' CumSum: a 0-d si32 axis of a rank-2 tensor, either axis; the axis keeps its type, no `any`.
// CHECK-LABEL: func.func @cumsum_scalar_axis
// CHECK: %[[C0:.*]] = torch.operator "onnx.Constant"() {torch.onnx.value = dense<0> : tensor<si32>} : () -> !torch.vtensor<[],si32>
// CHECK: %[[R0:.*]] = torch.operator "onnx.CumSum"(%arg0, %[[C0]]) {torch.onnx.exclusive = 1 : si64}
// CHECK: %[[C1:.*]] = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<si32>}
// CHECK: %[[R1:.*]] = torch.operator "onnx.CumSum"(%arg0, %[[C1]]) {torch.onnx.exclusive = 1 : si64}
// CHECK: %[[E0:.*]] = torch.aten.eq.Scalar %arg1, %{{.*}} : !torch.vtensor<[],si32>, !torch.int -> !torch.vtensor<[],i1>
// CHECK: %[[E1:.*]] = torch.aten.eq.Scalar %arg1
// CHECK: %[[OR:.*]] = torch.aten.logical_or %[[E0]], %[[E1]]
// CHECK-NOT: torch.aten.any
// CHECK: torch.aten.where.self %[[OR]], %[[R0]], %[[R1]]
func.func @cumsum_scalar_axis(%arg0: !torch.vtensor<[2,3],f64>, %arg1: !torch.vtensor<[],si32>) -> !torch.vtensor<[2,3],f64> {
  %0 = torch.operator "onnx.CumSum"(%arg0, %arg1) {torch.onnx.exclusive = 1 : si64} : (!torch.vtensor<[2,3],f64>, !torch.vtensor<[],si32>) -> !torch.vtensor<[2,3],f64>
  return %0 : !torch.vtensor<[2,3],f64>
}

// -----

// A statically empty axes tensor means what no axes operand means (noop_with_empty_axes decides): dropped.
// CHECK-LABEL: func.func @reduce_empty_axes
// CHECK: %[[R:.*]] = torch.operator "onnx.ReduceSum"(%arg0) {torch.onnx.keepdims = 1 : si64} : (!torch.vtensor<[3,2],f32>) -> !torch.vtensor<[1,1],f32>
// CHECK: return %[[R]]
func.func @reduce_empty_axes(%arg0: !torch.vtensor<[3,2],f32>, %arg1: !torch.vtensor<[0],si64>) -> !torch.vtensor<[1,1],f32> {
  %0 = torch.operator "onnx.ReduceSum"(%arg0, %arg1) {torch.onnx.keepdims = 1 : si64} : (!torch.vtensor<[3,2],f32>, !torch.vtensor<[0],si64>) -> !torch.vtensor<[1,1],f32>
  return %0 : !torch.vtensor<[1,1],f32>
}

// -----

// Constant axes already (as imported, and as a literal): left alone.
// CHECK-LABEL: func.func @no_select_constant_axes
// CHECK-COUNT-2: torch.operator "onnx.ReduceMean"
// CHECK-NOT: torch.aten.where.self
func.func @no_select_constant_axes(%arg0: !torch.vtensor<[3,2,2],f32>) -> (!torch.vtensor<[3,2],f32>, !torch.vtensor<[3,2],f32>) {
  %c = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
  %l = torch.vtensor.literal(dense<2> : tensor<1xsi64>) : !torch.vtensor<[1],si64>
  %0 = torch.operator "onnx.ReduceMean"(%arg0, %c) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,2],f32>
  %1 = torch.operator "onnx.ReduceMean"(%arg0, %l) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3,2],f32>
  return %0, %1 : !torch.vtensor<[3,2],f32>, !torch.vtensor<[3,2],f32>
}

// -----

// A CumSum over dynamic sizes: every axis is still a candidate (the result has the data's shape whatever the
// axis), each copy a CumSum with a constant axis.
// CHECK-LABEL: func.func @cumsum_dynamic_dims
// CHECK: %[[C0:.*]] = torch.operator "onnx.Constant"() {torch.onnx.value = dense<0> : tensor<si64>}
// CHECK: %[[R0:.*]] = torch.operator "onnx.CumSum"(%arg0, %[[C0]]) {torch.onnx.reverse = 1 : si64} : (!torch.vtensor<[?,?],f32>, !torch.vtensor<[],si64>) -> !torch.vtensor<[?,?],f32>
// CHECK: %[[C1:.*]] = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<si64>}
// CHECK: %[[R1:.*]] = torch.operator "onnx.CumSum"(%arg0, %[[C1]])
// CHECK: torch.aten.where.self %{{.*}}, %[[R0]], %[[R1]]
func.func @cumsum_dynamic_dims(%arg0: !torch.vtensor<[?,?],f32>, %arg1: !torch.vtensor<[],si64>) -> !torch.vtensor<[?,?],f32> {
  %0 = torch.operator "onnx.CumSum"(%arg0, %arg1) {torch.onnx.reverse = 1 : si64} : (!torch.vtensor<[?,?],f32>, !torch.vtensor<[],si64>) -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

// A reduction over a dynamic data size: the types no longer bound the axes.
// CHECK-LABEL: func.func @no_select_dynamic_dim
// CHECK: torch.operator "onnx.ReduceSum"(%arg0, %arg1)
// CHECK-NOT: onnx.Constant
func.func @no_select_dynamic_dim(%arg0: !torch.vtensor<[?,2,2],f32>, %arg1: !torch.vtensor<[1],si64>) -> !torch.vtensor<[?,2],f32> {
  %0 = torch.operator "onnx.ReduceSum"(%arg0, %arg1) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[?,2,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[?,2],f32>
  return %0 : !torch.vtensor<[?,2],f32>
}

// -----

// A dynamic number of axes.
// CHECK-LABEL: func.func @no_select_dynamic_axes_length
// CHECK: torch.operator "onnx.ReduceSum"(%arg0, %arg1)
// CHECK-NOT: onnx.Constant
func.func @no_select_dynamic_axes_length(%arg0: !torch.vtensor<[3,2,2],f32>, %arg1: !torch.vtensor<[?],si64>) -> !torch.vtensor<[3,2],f32> {
  %0 = torch.operator "onnx.ReduceSum"(%arg0, %arg1) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[?],si64>) -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

// Three axes of six 2-sized dims to [2,2,2]: 20 candidates, more than 8 copies of the op's work.
// CHECK-LABEL: func.func @no_select_too_many_candidates
// CHECK: torch.operator "onnx.ReduceProd"(%arg0, %arg1)
// CHECK-NOT: onnx.Constant
func.func @no_select_too_many_candidates(%arg0: !torch.vtensor<[2,2,2,2,2,2],f32>, %arg1: !torch.vtensor<[3],si64>) -> !torch.vtensor<[2,2,2],f32> {
  %0 = torch.operator "onnx.ReduceProd"(%arg0, %arg1) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[2,2,2,2,2,2],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[2,2,2],f32>
  return %0 : !torch.vtensor<[2,2,2],f32>
}

// -----

// No axes set the types allow (an ill-formed program): left for IREE to refuse.
// CHECK-LABEL: func.func @no_select_no_candidate
// CHECK: torch.operator "onnx.ReduceSum"(%arg0, %arg1)
// CHECK-NOT: onnx.Constant
func.func @no_select_no_candidate(%arg0: !torch.vtensor<[3,2,2],f32>, %arg1: !torch.vtensor<[1],si64>) -> !torch.vtensor<[5],f32> {
  %0 = torch.operator "onnx.ReduceSum"(%arg0, %arg1) {torch.onnx.keepdims = 0 : si64} : (!torch.vtensor<[3,2,2],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}

// -----

// Another ONNX op with a runtime axes operand (Squeeze; Slice is another story): left alone.
// CHECK-LABEL: func.func @no_select_other_op
// CHECK: torch.operator "onnx.Squeeze"(%arg0, %arg1)
// CHECK-NOT: onnx.Constant
func.func @no_select_other_op(%arg0: !torch.vtensor<[3,1],f32>, %arg1: !torch.vtensor<[1],si64>) -> !torch.vtensor<[3],f32> {
  %0 = torch.operator "onnx.Squeeze"(%arg0, %arg1) : (!torch.vtensor<[3,1],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

// ReduceL2 (LogSum, LogSumExp) with keepdims over a size-1 dim only: IREE aborts on it with constant axes
// (a dialect conversion replacing a root op without a parent block), stock fails cleanly: left alone.
// CHECK-LABEL: func.func @no_select_abort_over_unit_dims
// CHECK: torch.operator "onnx.ReduceL2"(%arg0, %arg1)
// CHECK-NOT: onnx.Constant
func.func @no_select_abort_over_unit_dims(%arg0: !torch.vtensor<[2,1,3],f32>, %arg1: !torch.vtensor<[1],si64>) -> !torch.vtensor<[2,1,3],f32> {
  %0 = torch.operator "onnx.ReduceL2"(%arg0, %arg1) {torch.onnx.keepdims = 1 : si64} : (!torch.vtensor<[2,1,3],f32>, !torch.vtensor<[1],si64>) -> !torch.vtensor<[2,1,3],f32>
  return %0 : !torch.vtensor<[2,1,3],f32>
}
