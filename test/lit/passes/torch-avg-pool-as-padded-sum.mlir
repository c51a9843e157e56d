// RUN: opt-py %s --split-input-file -p torch-avg-pool-as-padded-sum | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-avg-pool-as-padded-sum --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// torch-mlir's AvgPool2dDiffKernelsStridesNoPadCeilPadNotIncluded: H 3 -> 1 with kernel 3, which the lowering
// pads to 5 (ceil mode adds the stride). W padded to (2 - 1) * 3 + 2 = 5, nothing low; a sum pool (no padding, floor
// mode, divisor 1); divided by the windows' counts: 3 rows by 2 columns, then 3 by 1 (the second window overhangs).
// CHECK-LABEL: func.func @ceil_overhang
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[1,1,3,4],f32>)
// CHECK: %[[PADS:.+]] = torch.prim.ListConstruct %int0{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}} :
// CHECK: %[[XP:.+]] = torch.aten.constant_pad_nd %[[X]], %[[PADS]], %{{.+}} : {{.*}} -> !torch.vtensor<[1,1,3,5],f32>
// CHECK: %[[SUM:.+]] = torch.aten.avg_pool2d %[[XP]], %{{.+}}, %{{.+}}, %{{.+}}, %false, %true, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,1,1,2],f32>
// CHECK: %[[N:.+]] = torch.vtensor.literal(dense<{{\[\[}}6.000000e+00, 3.000000e+00]]> : tensor<1x2xf32>) : !torch.vtensor<[1,2],f32>
// CHECK: %[[R:.+]] = torch.aten.div.Tensor %[[SUM]], %[[N]] : {{.*}} -> !torch.vtensor<[1,1,1,2],f32>
// CHECK: return %[[R]]
func.func @ceil_overhang(%x: !torch.vtensor<[1,1,3,4],f32>) -> !torch.vtensor<[1,1,1,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1,2],f32>
  return %r : !torch.vtensor<[1,1,1,2],f32>
}

// -----

// Floor mode: H 4 -> 1 and W 7 -> 3 read 3 rows and 7 columns: the 4th row is cropped; nothing is padded. No
// window overhangs: each divides by 9.
// CHECK-LABEL: func.func @floor_cropped
// CHECK: %[[C:.+]] = torch.aten.slice.Tensor %arg0, %int2{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, %int3{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,2,3,7],f32>
// CHECK: torch.aten.constant_pad_nd %[[C]], {{.*}} -> !torch.vtensor<[2,2,3,7],f32>
// CHECK: torch.vtensor.literal(dense<9.000000e+00> : tensor<1x3xf32>)
func.func @floor_cropped(%x: !torch.vtensor<[2,2,4,7],f32>) -> !torch.vtensor<[2,2,1,3],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[2,2,4,7],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2,2,1,3],f32>
  return %r : !torch.vtensor<[2,2,1,3],f32>
}

// -----

// A divisor_override: torch divides every window by it; the sum pool takes it in place of 1, and nothing divides.
// CHECK-LABEL: func.func @override
// CHECK: %[[SUM:.+]] = torch.aten.avg_pool2d {{.*}}, %false, %true, %int2{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,2,1,1],f32>
// CHECK-NOT: torch.aten.div.Tensor
// CHECK: return %[[SUM]]
func.func @override(%x: !torch.vtensor<[1,2,4,4],f32>) -> !torch.vtensor<[1,2,1,1],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 3
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  %cip = torch.constant.bool true
  %d = torch.constant.int 2
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,2,4,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[1,2,1,1],f32>
  return %r : !torch.vtensor<[1,2,1,1],f32>
}

// -----

// A 3-d pool: D 3 -> 1 in ceil mode, H padded by 1 each side (5 + 2 = (3 - 1) * 2 + 2 + 1), W 4 -> 2 overhanging.
// Counts without the padding: D 3, H 1, 2, 2 (the padded rows are not counted), W 2, 1.
// CHECK-LABEL: func.func @pool3d_padded
// CHECK: torch.aten.constant_pad_nd {{.*}} -> !torch.vtensor<[1,2,3,6,5],f32>
// CHECK: torch.aten.avg_pool3d {{.*}} -> !torch.vtensor<[1,2,1,3,2],f32>
// CHECK: torch.vtensor.literal(dense<{{\[\[\[}}6.000000e+00, 3.000000e+00], [1.200000e+01, 6.000000e+00], [1.200000e+01, 6.000000e+00]]]> : tensor<1x3x2xf32>)
func.func @pool3d_padded(%x: !torch.vtensor<[1,2,3,5,4],f32>) -> !torch.vtensor<[1,2,1,3,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k2 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1, %k2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s2 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1, %s2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 1
  %p2 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1, %p2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool3d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,2,3,5,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,2,1,3,2],f32>
  return %r : !torch.vtensor<[1,2,1,3,2],f32>
}

// -----

// Negative: no output dim of 1 (H 5 -> 2, W 4 -> 2): stock's lowering is right.
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: no unit output dim padded past the kernel: stock's lowering holds
// CHECK-LABEL: func.func @no_unit_dim
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_unit_dim(%x: !torch.vtensor<[1,1,5,4],f32>) -> !torch.vtensor<[1,1,2,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,5,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,2,2],f32>
  return %r : !torch.vtensor<[1,1,2,2],f32>
}

// -----

// Negative: H 3 -> 1 in floor mode reads exactly the kernel's 3 rows: stock's lowering is right.
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: no unit output dim padded past the kernel: stock's lowering holds
// CHECK-LABEL: func.func @no_unit_dim_past_kernel
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_unit_dim_past_kernel(%x: !torch.vtensor<[1,1,3,4],f32>) -> !torch.vtensor<[1,1,1,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 2
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool false
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1,2],f32>
  return %r : !torch.vtensor<[1,1,1,2],f32>
}

// -----

// Negative: an unbatched input (torch-pool-unbatched-as-batched makes it batched first).
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: a rank-3 input: not batched (rank 4)
// CHECK-LABEL: func.func @no_unbatched
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_unbatched(%x: !torch.vtensor<[1,3,4],f32>) -> !torch.vtensor<[1,1,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,2],f32>
  return %r : !torch.vtensor<[1,1,2],f32>
}

// -----

// Negative: an unranked input.
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[1,1,1,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1,2],f32>
  return %r : !torch.vtensor<[1,1,1,2],f32>
}

// -----

// Negative: f16 (torch divides in f32).
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: a f16 input: not f32 or f64
// CHECK-LABEL: func.func @no_f16
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_f16(%x: !torch.vtensor<[1,1,3,4],f16>) -> !torch.vtensor<[1,1,1,2],f16> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,3,4],f16>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1,2],f16>
  return %r : !torch.vtensor<[1,1,1,2],f16>
}

// -----

// Negative: a dynamic spatial size (the output size and counts are not known).
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: dynamic spatial sizes
// CHECK-LABEL: func.func @no_dynamic
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_dynamic(%x: !torch.vtensor<[1,1,?,4],f32>) -> !torch.vtensor<[1,1,?,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,?,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,?,2],f32>
  return %r : !torch.vtensor<[1,1,?,2],f32>
}

// -----

// Negative: padding 2 over a kernel of 3 (torch raises).
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: kernel or stride < 1, or padding negative or over half the kernel (torch raises)
// CHECK-LABEL: func.func @no_over_half_padding
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_over_half_padding(%x: !torch.vtensor<[1,1,3,4],f32>) -> !torch.vtensor<[1,1,2,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 2
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,2,2],f32>
  return %r : !torch.vtensor<[1,1,2,2],f32>
}

// -----

// Negative: a kernel of 3 over 2 rows (torch raises).
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: a window longer than the padded input (torch raises)
// CHECK-LABEL: func.func @no_window_past_input
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_window_past_input(%x: !torch.vtensor<[1,1,2,4],f32>) -> !torch.vtensor<[1,1,1,2],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,2,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1,2],f32>
  return %r : !torch.vtensor<[1,1,1,2],f32>
}

// -----

// Negative: a result typed otherwise than torch's output size.
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: the result is not !torch.vtensor<[1,1,1,2],f32>
// CHECK-LABEL: func.func @no_result_mismatch
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_result_mismatch(%x: !torch.vtensor<[1,1,3,4],f32>) -> !torch.vtensor<[1,1,1,3],f32> {
  %k0 = torch.constant.int 3
  %k1 = torch.constant.int 2
  %k = torch.prim.ListConstruct %k0, %k1 : (!torch.int, !torch.int) -> !torch.list<int>
  %s0 = torch.constant.int 2
  %s1 = torch.constant.int 3
  %s = torch.prim.ListConstruct %s0, %s1 : (!torch.int, !torch.int) -> !torch.list<int>
  %p0 = torch.constant.int 0
  %p1 = torch.constant.int 0
  %p = torch.prim.ListConstruct %p0, %p1 : (!torch.int, !torch.int) -> !torch.list<int>
  %ceil = torch.constant.bool true
  %cip = torch.constant.bool false
  %d = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %ceil, %cip, %d : !torch.vtensor<[1,1,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1,3],f32>
  return %r : !torch.vtensor<[1,1,1,3],f32>
}

// -----

// Negative: a kernel that is not a list of constants.
// WHY: avg_pool_as_padded_sum: no match on 'torch.aten.avg_pool2d' at {{.*}}: kernel, stride and padding are not constant lists of 2 ints, or the modes not constant
// CHECK-LABEL: func.func @no_runtime_kernel
// CHECK-NOT: torch.aten.constant_pad_nd
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_runtime_kernel(%x: !torch.vtensor<[1,1,3,4],f32>, %k: !torch.list<int>) -> !torch.vtensor<[1,1,1,2],f32> {
  %int0 = torch.constant.int 0
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %k, %p, %true, %false, %none : !torch.vtensor<[1,1,3,4],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,1,1,2],f32>
  return %r : !torch.vtensor<[1,1,1,2],f32>
}
