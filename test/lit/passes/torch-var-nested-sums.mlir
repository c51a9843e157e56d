// RUN: opt-py %s --split-input-file -p torch-var-nested-sums | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-var-nested-sums --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// torch-mlir's VarCorrectionLargeInputModule: dynamic sizes, dims [2, 3], correction 2. Each sum nested, dim 3
// then dim 2; N the product of the sizes; the denominator max(N - 2, 0); the reduced dims squeezed.
// CHECK-LABEL: func.func @var_large_input
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?,?,?],f32>)
// CHECK: %[[H:.+]] = torch.aten.size.int %[[X]], %int2 :
// CHECK: %[[W:.+]] = torch.aten.size.int %[[X]], %int3 :
// CHECK: %[[N:.+]] = torch.aten.mul.int %[[H]], %[[W]] :
// CHECK: %[[S1:.+]] = torch.aten.sum.dim_IntList %[[X]], %{{.+}}, %true, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,?,?,1],f32>
// CHECK: %[[S2:.+]] = torch.aten.sum.dim_IntList %[[S1]], %{{.+}}, %true, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,?,1,1],f32>
// CHECK: %[[MEAN:.+]] = torch.aten.div.Scalar %[[S2]], %[[N]] :
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor %[[X]], %[[MEAN]], %int1 :
// CHECK: %[[SQ:.+]] = torch.aten.mul.Tensor %[[D]], %[[D]] :
// CHECK: %[[V1:.+]] = torch.aten.sum.dim_IntList %[[SQ]], {{.*}} -> !torch.vtensor<[?,?,?,1],f32>
// CHECK: %[[V2:.+]] = torch.aten.sum.dim_IntList %[[V1]], {{.*}} -> !torch.vtensor<[?,?,1,1],f32>
// CHECK: %[[NC:.+]] = torch.aten.sub.int %[[N]], %int2{{(_[0-9]+)?}} :
// CHECK: %[[DEN:.+]] = torch.prim.max.int %[[NC]], %int0 :
// CHECK: %[[VAR:.+]] = torch.aten.div.Scalar %[[V2]], %[[DEN]] :
// CHECK: %[[Q1:.+]] = torch.aten.squeeze.dim %[[VAR]], %int3{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,?,1],f32>
// CHECK: %[[Q2:.+]] = torch.aten.squeeze.dim %[[Q1]], %int2{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK-NOT: torch.aten.var.correction
// CHECK: return %[[Q2]]
func.func @var_large_input(%x: !torch.vtensor<[?,?,?,?],f32>) -> !torch.vtensor<[?,?],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %dims = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %int2, %false : !torch.vtensor<[?,?,?,?],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----
// std, static sizes (131072 elements reduced), negative dims, keepdim, correction None (1): the square root of
// the variance, no squeeze.
// CHECK-LABEL: func.func @std_keepdim
// CHECK: %[[S2:.+]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,1,1],f32>
// CHECK: %[[MEAN:.+]] = torch.aten.div.Scalar %[[S2]], %{{.+}} :
// CHECK: %[[V2:.+]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2,1,1],f32>
// CHECK: %[[NC:.+]] = torch.aten.sub.int %{{.+}}, %int1{{(_[0-9]+)?}} :
// CHECK: %[[DEN:.+]] = torch.prim.max.int %[[NC]], %int0 :
// CHECK: %[[VAR:.+]] = torch.aten.div.Scalar %[[V2]], %[[DEN]] :
// CHECK: %[[STD:.+]] = torch.aten.sqrt %[[VAR]] : !torch.vtensor<[2,1,1],f32> -> !torch.vtensor<[2,1,1],f32>
// CHECK-NOT: torch.aten.squeeze.dim
// CHECK-NOT: torch.aten.std.correction
// CHECK: return %[[STD]]
func.func @std_keepdim(%x: !torch.vtensor<[2,256,512],f32>) -> !torch.vtensor<[2,1,1],f32> {
  %m1 = torch.constant.int -1
  %m2 = torch.constant.int -2
  %dims = torch.prim.ListConstruct %m1, %m2 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %true = torch.constant.bool true
  %r = torch.aten.std.correction %x, %dims, %none, %true : !torch.vtensor<[2,256,512],f32>, !torch.list<int>, !torch.none, !torch.bool -> !torch.vtensor<[2,1,1],f32>
  return %r : !torch.vtensor<[2,1,1],f32>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: dims that are not a constant list of two or more distinct dims in range
// CHECK-LABEL: func.func @no_one_dim
// CHECK: torch.aten.var.correction
func.func @no_one_dim(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %int1, %false : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: dims that are not a constant list of two or more distinct dims in range
// CHECK-LABEL: func.func @no_dims_none
// CHECK: torch.aten.var.correction
func.func @no_dims_none(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %none, %int1, %false : !torch.vtensor<[?,?],f32>, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----
// WHY: std_nested_sums: no match on 'torch.aten.std.correction' at {{.*}}: dims that are not a constant list of two or more distinct dims in range
// CHECK-LABEL: func.func @no_repeated_dim
// CHECK: torch.aten.std.correction
func.func @no_repeated_dim(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.std.correction %x, %dims, %int1, %false : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: dims that are not a constant list of two or more distinct dims in range
// CHECK-LABEL: func.func @no_dim_out_of_range
// CHECK: torch.aten.var.correction
func.func @no_dim_out_of_range(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %dims = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %int1, %false : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: 4096 elements reduced, under 65536: one accumulator is accurate
// CHECK-LABEL: func.func @no_short
// CHECK: torch.aten.var.correction
func.func @no_short(%x: !torch.vtensor<[2,64,64],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %dims = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %int1, %false : !torch.vtensor<[2,64,64],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[2],f32>
  return %r : !torch.vtensor<[2],f32>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: a f64 input and f64 result, not f32
// CHECK-LABEL: func.func @no_f64
// CHECK: torch.aten.var.correction
func.func @no_f64(%x: !torch.vtensor<[?,?],f64>) -> !torch.vtensor<[],f64> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %int1, %false : !torch.vtensor<[?,?],f64>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[],f64>
  return %r : !torch.vtensor<[],f64>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.var.correction
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %int1, %false : !torch.vtensor, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: a correction that is not a constant int or None
// CHECK-LABEL: func.func @no_float_correction
// CHECK: torch.aten.var.correction
func.func @no_float_correction(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %c = torch.constant.float 5.000000e-01
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %c, %false : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.float, !torch.bool -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: a keepdim that is not a constant
// CHECK-LABEL: func.func @no_keepdim_argument
// CHECK: torch.aten.var.correction
func.func @no_keepdim_argument(%x: !torch.vtensor<[?,?],f32>, %keep: !torch.bool) -> !torch.vtensor<[?,?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %r = torch.aten.var.correction %x, %dims, %int1, %keep : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----
// WHY: var_nested_sums: no match on 'torch.aten.var.correction' at {{.*}}: a result of type !torch.vtensor<[?,?],f32>, not the reduction's !torch.vtensor<[?],f32>
// CHECK-LABEL: func.func @no_result_rank
// CHECK: torch.aten.var.correction
func.func @no_result_rank(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.var.correction %x, %dims, %int1, %false : !torch.vtensor<[?,?,?],f32>, !torch.list<int>, !torch.int, !torch.bool -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}
