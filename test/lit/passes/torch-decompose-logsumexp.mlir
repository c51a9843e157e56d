// RUN: opt-py %s --split-input-file -p torch-decompose-logsumexp | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-logsumexp --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// keepdim false (the fuzz campaign's reproducer, a row per slice): the finite max kept as [3,1] for the
// subtraction, squeezed for the addition.
// CHECK-LABEL: func.func @keepdim_false
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[3,7],f32>)
// CHECK: %[[DIMS:.+]] = torch.prim.ListConstruct
// CHECK: %[[M:.+]] = torch.aten.amax %[[X]], %[[DIMS]], %true{{(_[0-9]+)?}} : !torch.vtensor<[3,7],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3,1],f32>
// CHECK: %[[ABS:.+]] = torch.aten.abs %[[M]] : !torch.vtensor<[3,1],f32> -> !torch.vtensor<[3,1],f32>
// CHECK: %[[INF:.+]] = torch.constant.float 0x7FF0000000000000
// CHECK: %[[ISINF:.+]] = torch.aten.eq.Scalar %[[ABS]], %[[INF]] : !torch.vtensor<[3,1],f32>, !torch.float -> !torch.vtensor<[3,1],i1>
// CHECK: %[[FM:.+]] = torch.aten.masked_fill.Scalar %[[M]], %[[ISINF]], %{{.+}} : !torch.vtensor<[3,1],f32>, !torch.vtensor<[3,1],i1>, !torch.float -> !torch.vtensor<[3,1],f32>
// CHECK: %[[SH:.+]] = torch.aten.sub.Tensor %[[X]], %[[FM]], %{{.+}} : !torch.vtensor<[3,7],f32>, !torch.vtensor<[3,1],f32>, !torch.int -> !torch.vtensor<[3,7],f32>
// CHECK: %[[E:.+]] = torch.aten.exp %[[SH]]
// CHECK: %[[S:.+]] = torch.aten.sum.dim_IntList %[[E]], %[[DIMS]], %false{{(_[0-9]+)?}}, %none : !torch.vtensor<[3,7],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[3],f32>
// CHECK: %[[L:.+]] = torch.aten.log %[[S]] : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
// CHECK: %[[MS:.+]] = torch.aten.squeeze.dim %[[FM]], %int1{{(_[0-9]+)?}} : !torch.vtensor<[3,1],f32>, !torch.int -> !torch.vtensor<[3],f32>
// CHECK: %[[R:.+]] = torch.aten.add.Tensor %[[L]], %[[MS]], %{{.+}} : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32>, !torch.int -> !torch.vtensor<[3],f32>
// CHECK-NOT: torch.aten.logsumexp
// CHECK: return %[[R]]
func.func @keepdim_false(%x: !torch.vtensor<[3,7],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[3,7],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}

// -----

// keepdim true, two dims (one negative), a dynamic size: the max is added as it is, no squeeze.
// CHECK-LABEL: func.func @keepdim_true_two_dims
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,4,5],f32>)
// CHECK: %[[M:.+]] = torch.aten.amax %[[X]], %{{.+}}, %true{{(_[0-9]+)?}} : !torch.vtensor<[?,4,5],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,4,1],f32>
// CHECK: %[[FM:.+]] = torch.aten.masked_fill.Scalar %[[M]]
// CHECK: %[[S:.+]] = torch.aten.sum.dim_IntList %{{.+}} -> !torch.vtensor<[1,4,1],f32>
// CHECK: %[[L:.+]] = torch.aten.log %[[S]]
// CHECK-NOT: torch.aten.squeeze.dim
// CHECK: %[[R:.+]] = torch.aten.add.Tensor %[[L]], %[[FM]], %{{.+}} : !torch.vtensor<[1,4,1],f32>, !torch.vtensor<[1,4,1],f32>, !torch.int -> !torch.vtensor<[1,4,1],f32>
// CHECK: return %[[R]]
func.func @keepdim_true_two_dims(%x: !torch.vtensor<[?,4,5],f32>) -> !torch.vtensor<[1,4,1],f32> {
  %int0 = torch.constant.int 0
  %intm1 = torch.constant.int -1
  %dims = torch.prim.ListConstruct %int0, %intm1 : (!torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %r = torch.aten.logsumexp %x, %dims, %true : !torch.vtensor<[?,4,5],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,4,1],f32>
  return %r : !torch.vtensor<[1,4,1],f32>
}

// -----

// f16: the sum accumulates in f32 (dtype code 6) and rounds once to f16 (code 5), as torch's CPU sum does.
// CHECK-LABEL: func.func @half_sums_in_f32
// CHECK: %[[S:.+]] = torch.aten.sum.dim_IntList %{{.+}}, %{{.+}}, %{{.+}}, %int6{{(_[0-9]+)?}} : !torch.vtensor<[6,14,2],f16>, !torch.list<int>, !torch.bool, !torch.int -> !torch.vtensor<[6,14],f32>
// CHECK: %[[H:.+]] = torch.prims.convert_element_type %[[S]], %int5{{(_[0-9]+)?}} : !torch.vtensor<[6,14],f32>, !torch.int -> !torch.vtensor<[6,14],f16>
// CHECK: torch.aten.log %[[H]] : !torch.vtensor<[6,14],f16> -> !torch.vtensor<[6,14],f16>
func.func @half_sums_in_f32(%x: !torch.vtensor<[6,14,2],f16>) -> !torch.vtensor<[6,14],f16> {
  %int2 = torch.constant.int 2
  %dims = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[6,14,2],f16>, !torch.list<int>, !torch.bool -> !torch.vtensor<[6,14],f16>
  return %r : !torch.vtensor<[6,14],f16>
}

// -----

// Negative: an integer input (torch computes it in the default float, a result of another dtype).
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: a si32 input: torch computes it in the default float
// CHECK-LABEL: func.func @no_integer_input
// CHECK: torch.aten.logsumexp
func.func @no_integer_input(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[],f32> {
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4],si32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a result of another dtype than the input's.
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: a f64 result of a f32 input
// CHECK-LABEL: func.func @no_result_of_another_dtype
// CHECK: torch.aten.logsumexp
func.func @no_result_of_another_dtype(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[],f64> {
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f64>
  return %r : !torch.vtensor<[],f64>
}

// -----

// Negative: an unranked input.
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_input
// CHECK: torch.aten.logsumexp
func.func @no_unranked_input(%x: !torch.vtensor) -> !torch.vtensor<[],f32> {
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a 0-d input.
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: a 0-d input
// CHECK-LABEL: func.func @no_zero_d_input
// CHECK: torch.aten.logsumexp
func.func @no_zero_d_input(%x: !torch.vtensor<[],f32>) -> !torch.vtensor<[],f32> {
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: dims not a list construct (a function argument).
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: dims are not a torch.prim.ListConstruct
// CHECK-LABEL: func.func @no_dims_argument
// CHECK: torch.aten.logsumexp
func.func @no_dims_argument(%x: !torch.vtensor<[4],f32>, %dims: !torch.list<int>) -> !torch.vtensor<[],f32> {
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a dim that is not a constant.
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: a dim is not a constant int
// CHECK-LABEL: func.func @no_dynamic_dim
// CHECK: torch.aten.logsumexp
func.func @no_dynamic_dim(%x: !torch.vtensor<[4],f32>, %d: !torch.int) -> !torch.vtensor<[],f32> {
  %dims = torch.prim.ListConstruct %d : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: an empty dim list.
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: an empty dim list (torch's decomposition raises on it)
// CHECK-LABEL: func.func @no_empty_dims
// CHECK: torch.aten.logsumexp
func.func @no_empty_dims(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[],f32> {
  %dims = torch.prim.ListConstruct : () -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a dim out of range.
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: a dim out of range for rank 1 (torch raises)
// CHECK-LABEL: func.func @no_dim_out_of_range
// CHECK: torch.aten.logsumexp
func.func @no_dim_out_of_range(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a dim repeated (0 and -2 of a rank-2 input).
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: a dim repeated (torch raises)
// CHECK-LABEL: func.func @no_repeated_dim
// CHECK: torch.aten.logsumexp
func.func @no_repeated_dim(%x: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[3],f32> {
  %int0 = torch.constant.int 0
  %intm2 = torch.constant.int -2
  %dims = torch.prim.ListConstruct %int0, %intm2 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4,3],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}

// -----

// Negative: keepdim not a constant.
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: keepdim is not a constant bool
// CHECK-LABEL: func.func @no_dynamic_keepdim
// CHECK: torch.aten.logsumexp
func.func @no_dynamic_keepdim(%x: !torch.vtensor<[4],f32>, %keep: !torch.bool) -> !torch.vtensor<[],f32> {
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.logsumexp %x, %dims, %keep : !torch.vtensor<[4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a result shape that is not the reduction's (keepdim false typed as if kept).
// WHY: decompose_logsumexp: no match on 'torch.aten.logsumexp' at {{.*}}: the result's shape is not the reduction's
// CHECK-LABEL: func.func @no_result_not_reduction
// CHECK: torch.aten.logsumexp
func.func @no_result_not_reduction(%x: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[1,3],f32> {
  %int0 = torch.constant.int 0
  %dims = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.logsumexp %x, %dims, %false : !torch.vtensor<[4,3],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,3],f32>
  return %r : !torch.vtensor<[1,3],f32>
}
