// RUN: opt-py %s --split-input-file -p torch-decompose-group-norm-backward | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-group-norm-backward --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// The suite's form (NativeGroupNormBackwardModule_basic): N=2, C=6, HxW=4, 3 groups, a weight, every result.
// ds, db: sums over HxW of [N, G, C/G, HxW]; grad_input = grad*rstd*gamma + x*c2 + c3; grad_weight, grad_bias: sums over N.
// CHECK-LABEL: func.func @with_weight
// CHECK-SAME: (%[[GO:.+]]: !torch.vtensor<[2,6,2,2],f32>, %[[X:.+]]: !torch.vtensor<[2,6,2,2],f32>, %[[MEAN:.+]]: !torch.vtensor<[2,3],f32>, %[[RSTD:.+]]: !torch.vtensor<[2,3],f32>, %[[W:.+]]: !torch.vtensor<[6],f32>)
// CHECK: %[[G4:.+]] = torch.aten.view %[[GO]], %{{.+}} -> !torch.vtensor<[2,3,2,4],f32>
// CHECK: %[[X4:.+]] = torch.aten.view %[[X]], %{{.+}} -> !torch.vtensor<[2,3,2,4],f32>
// CHECK: %[[M4:.+]] = torch.aten.view %[[MEAN]], %{{.+}} -> !torch.vtensor<[2,3,1,1],f32>
// CHECK: %[[R4:.+]] = torch.aten.view %[[RSTD]], %{{.+}} -> !torch.vtensor<[2,3,1,1],f32>
// CHECK: %[[W4:.+]] = torch.aten.view %[[W]], %{{.+}} -> !torch.vtensor<[1,3,2,1],f32>
// CHECK: %[[GX:.+]] = torch.aten.mul.Tensor %[[G4]], %[[X4]]
// CHECK: %[[DS:.+]] = torch.aten.sum.dim_IntList %[[GX]], {{.*}} -> !torch.vtensor<[2,3,2,1],f32>
// CHECK: %[[DB:.+]] = torch.aten.sum.dim_IntList %[[G4]], {{.*}} -> !torch.vtensor<[2,3,2,1],f32>
// CHECK: %[[DSW:.+]] = torch.aten.mul.Tensor %[[DS]], %[[W4]]
// CHECK: %[[DBW:.+]] = torch.aten.mul.Tensor %[[DB]], %[[W4]]
// CHECK: %[[DSG:.+]] = torch.aten.sum.dim_IntList %[[DSW]], {{.*}} -> !torch.vtensor<[2,3,1,1],f32>
// CHECK: %[[DBG:.+]] = torch.aten.sum.dim_IntList %[[DBW]], {{.*}} -> !torch.vtensor<[2,3,1,1],f32>
// CHECK: %[[S:.+]] = torch.constant.float 1.250000e-01
// CHECK: %[[C1:.+]] = torch.aten.mul.Tensor %[[R4]], %[[W4]] : {{.*}} -> !torch.vtensor<[2,3,2,1],f32>
// CHECK: %[[DBM:.+]] = torch.aten.mul.Tensor %[[DBG]], %[[M4]]
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor %[[DBM]], %[[DSG]]
// CHECK: %[[D1:.+]] = torch.aten.mul.Tensor %[[D]], %[[R4]]
// CHECK: %[[D2:.+]] = torch.aten.mul.Tensor %[[D1]], %[[R4]]
// CHECK: %[[D3:.+]] = torch.aten.mul.Tensor %[[D2]], %[[R4]]
// CHECK: %[[C2:.+]] = torch.aten.mul.Scalar %[[D3]], %[[S]]
// CHECK: %[[NC2:.+]] = torch.aten.neg %[[C2]]
// CHECK: %[[NC2M:.+]] = torch.aten.mul.Tensor %[[NC2]], %[[M4]]
// CHECK: %[[DBR:.+]] = torch.aten.mul.Tensor %[[DBG]], %[[R4]]
// CHECK: %[[DBRS:.+]] = torch.aten.mul.Scalar %[[DBR]], %[[S]]
// CHECK: %[[C3:.+]] = torch.aten.sub.Tensor %[[NC2M]], %[[DBRS]]
// CHECK: %[[T1:.+]] = torch.aten.mul.Tensor %[[G4]], %[[C1]] : {{.*}} -> !torch.vtensor<[2,3,2,4],f32>
// CHECK: %[[T2:.+]] = torch.aten.mul.Tensor %[[X4]], %[[C2]] : {{.*}} -> !torch.vtensor<[2,3,2,4],f32>
// CHECK: %[[T3:.+]] = torch.aten.add.Tensor %[[T1]], %[[T2]]
// CHECK: %[[GI4:.+]] = torch.aten.add.Tensor %[[T3]], %[[C3]]
// CHECK: %[[GI:.+]] = torch.aten.view %[[GI4]], %{{.+}} -> !torch.vtensor<[2,6,2,2],f32>
// CHECK: %[[DBM2:.+]] = torch.aten.mul.Tensor %[[DB]], %[[M4]]
// CHECK: %[[CEN:.+]] = torch.aten.sub.Tensor %[[DS]], %[[DBM2]]
// CHECK: %[[PN:.+]] = torch.aten.mul.Tensor %[[CEN]], %[[R4]]
// CHECK: %[[GW3:.+]] = torch.aten.sum.dim_IntList %[[PN]], {{.*}} -> !torch.vtensor<[3,2,1],f32>
// CHECK: %[[GW:.+]] = torch.aten.view %[[GW3]], %{{.+}} -> !torch.vtensor<[6],f32>
// CHECK: %[[GB3:.+]] = torch.aten.sum.dim_IntList %[[DB]], {{.*}} -> !torch.vtensor<[3,2,1],f32>
// CHECK: %[[GB:.+]] = torch.aten.view %[[GB3]], %{{.+}} -> !torch.vtensor<[6],f32>
// CHECK-NOT: torch.aten.native_group_norm_backward
// CHECK: return %[[GI]], %[[GW]], %[[GB]]
func.func @with_weight(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %mask = torch.prim.ListConstruct %true, %true, %true : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %int2, %int6, %int4, %int3, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// No weight, grad_weight masked out and typed !torch.none (as iree-turbine exports it): gamma is 1 (c1 is rstd,
// no product with a weight), grad_weight is torch.constant.none, grad_input and grad_bias are computed.
// CHECK-LABEL: func.func @no_weight_masked_none
// CHECK-SAME: (%[[GO:.+]]: !torch.vtensor<[2,6,2,2],f64>, %[[X:.+]]: !torch.vtensor<[2,6,2,2],f64>, %{{.+}}: !torch.vtensor<[2,3],f64>, %[[RSTD:.+]]: !torch.vtensor<[2,3],f64>)
// CHECK: %[[G4:.+]] = torch.aten.view %[[GO]], %{{.+}} -> !torch.vtensor<[2,3,2,4],f64>
// CHECK: %[[R4:.+]] = torch.aten.view %[[RSTD]], %{{.+}} -> !torch.vtensor<[2,3,1,1],f64>
// CHECK-NOT: -> !torch.vtensor<[1,3,2,1],f64>
// CHECK: %[[DB:.+]] = torch.aten.sum.dim_IntList %[[G4]], {{.*}} -> !torch.vtensor<[2,3,2,1],f64>
// CHECK: %[[T1:.+]] = torch.aten.mul.Tensor %[[G4]], %[[R4]] : {{.*}} -> !torch.vtensor<[2,3,2,4],f64>
// CHECK: %[[GI:.+]] = torch.aten.view %{{.+}}, %{{.+}} -> !torch.vtensor<[2,6,2,2],f64>
// CHECK: %[[NONE:.+]] = torch.constant.none
// CHECK: %[[GB3:.+]] = torch.aten.sum.dim_IntList %[[DB]], {{.*}} -> !torch.vtensor<[3,2,1],f64>
// CHECK: %[[GB:.+]] = torch.aten.view %[[GB3]], %{{.+}} -> !torch.vtensor<[6],f64>
// CHECK-NOT: torch.aten.native_group_norm_backward
// CHECK: return %[[GI]], %[[NONE]], %[[GB]] : !torch.vtensor<[2,6,2,2],f64>, !torch.none, !torch.vtensor<[6],f64>
func.func @no_weight_masked_none(%go: !torch.vtensor<[2,6,2,2],f64>, %x: !torch.vtensor<[2,6,2,2],f64>, %mean: !torch.vtensor<[2,3],f64>, %rstd: !torch.vtensor<[2,3],f64>) -> (!torch.vtensor<[2,6,2,2],f64>, !torch.none, !torch.vtensor<[6],f64>) {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %mask = torch.prim.ListConstruct %true, %false, %true : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %none, %int2, %int6, %int4, %int3, %mask : !torch.vtensor<[2,6,2,2],f64>, !torch.vtensor<[2,6,2,2],f64>, !torch.vtensor<[2,3],f64>, !torch.vtensor<[2,3],f64>, !torch.none, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f64>, !torch.none, !torch.vtensor<[6],f64>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f64>, !torch.none, !torch.vtensor<[6],f64>
}

// -----

// Dynamic N and spatial dims, the constants N=2, HxW=6 giving the view [2, 2, 2, 6]; grad_input is viewed back
// to the input's sizes (torch.aten.size.int where dynamic) and cast to the result's type. Only grad_input is wanted.
// CHECK-LABEL: func.func @dynamic_sizes
// CHECK-SAME: (%[[GO:.+]]: !torch.vtensor<[?,4,?,3],f32>, %[[X:.+]]: !torch.vtensor<[?,4,?,3],f32>
// CHECK: torch.aten.view %[[GO]], %{{.+}} -> !torch.vtensor<[2,2,2,6],f32>
// CHECK: torch.aten.view %[[X]], %{{.+}} -> !torch.vtensor<[2,2,2,6],f32>
// CHECK: %[[D0:.+]] = torch.aten.size.int %[[X]], %{{.+}} : !torch.vtensor<[?,4,?,3],f32>, !torch.int -> !torch.int
// CHECK: %[[D2:.+]] = torch.aten.size.int %[[X]], %{{.+}} : !torch.vtensor<[?,4,?,3],f32>, !torch.int -> !torch.int
// CHECK: %[[SIZES:.+]] = torch.prim.ListConstruct %[[D0]], %{{.+}}, %[[D2]], %{{.+}} :
// CHECK: %[[GI:.+]] = torch.aten.view %{{.+}}, %[[SIZES]] : {{.*}} -> !torch.vtensor<[?,4,?,3],f32>
// CHECK: %[[R:.+]] = torch.tensor_static_info_cast %[[GI]] : !torch.vtensor<[?,4,?,3],f32> to !torch.vtensor<[2,4,2,3],f32>
// CHECK-NOT: torch.aten.native_group_norm_backward
// CHECK: return %[[R]] :
func.func @dynamic_sizes(%go: !torch.vtensor<[?,4,?,3],f32>, %x: !torch.vtensor<[?,4,?,3],f32>, %mean: !torch.vtensor<[?,2],f32>, %rstd: !torch.vtensor<[?,2],f32>, %w: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2,4,2,3],f32> {
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %int6 = torch.constant.int 6
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %mask = torch.prim.ListConstruct %true, %false, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %int2, %int4, %int6, %int2, %mask : !torch.vtensor<[?,4,?,3],f32>, !torch.vtensor<[?,4,?,3],f32>, !torch.vtensor<[?,2],f32>, !torch.vtensor<[?,2],f32>, !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,4,2,3],f32>, !torch.none, !torch.none
  return %r0 : !torch.vtensor<[2,4,2,3],f32>
}

// -----

// grad_bias masked out yet typed as a tensor, unused: computed all the same (dead), so the op goes.
// CHECK-LABEL: func.func @masked_tensor_unused
// CHECK-NOT: torch.aten.native_group_norm_backward
// CHECK: return
func.func @masked_tensor_unused(%go: !torch.vtensor<[2,6,4],f32>, %x: !torch.vtensor<[2,6,4],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,4],f32>, !torch.vtensor<[6],f32>) {
  %int2 = torch.constant.int 2
  %int6 = torch.constant.int 6
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %mask = torch.prim.ListConstruct %true, %true, %false : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %int2, %int6, %int4, %int3, %mask : !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1 : !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: grad_out, input, mean, rstd or weight is not a ranked !torch.vtensor
// An unranked input.
// CHECK-LABEL: func.func @unranked_input
// CHECK: torch.aten.native_group_norm_backward
func.func @unranked_input(%go: !torch.vtensor<*,f32>, %x: !torch.vtensor<*,f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<*,f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<*,f32>, !torch.vtensor<*,f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<*,f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<*,f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: an input of rank 1 (group norm takes [N, C, ...])
// A 1-d input.
// CHECK-LABEL: func.func @rank_1
// CHECK: torch.aten.native_group_norm_backward
func.func @rank_1(%go: !torch.vtensor<[6],f32>, %x: !torch.vtensor<[6],f32>, %mean: !torch.vtensor<[1,3],f32>, %rstd: !torch.vtensor<[1,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 1
  %cC = torch.constant.int 6
  %hH = torch.constant.int 1
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[1,3],f32>, !torch.vtensor<[1,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: a f16 input: not f32 nor f64
// f16 (the CPU kernel computes it in f32 with f32 statistics).
// CHECK-LABEL: func.func @f16
// CHECK: torch.aten.native_group_norm_backward
func.func @f16(%go: !torch.vtensor<[2,6,2,2],f16>, %x: !torch.vtensor<[2,6,2,2],f16>, %mean: !torch.vtensor<[2,3],f16>, %rstd: !torch.vtensor<[2,3],f16>, %w: !torch.vtensor<[6],f16>) -> (!torch.vtensor<[2,6,2,2],f16>, !torch.vtensor<[6],f16>, !torch.vtensor<[6],f16>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f16>, !torch.vtensor<[2,6,2,2],f16>, !torch.vtensor<[2,3],f16>, !torch.vtensor<[2,3],f16>, !torch.vtensor<[6],f16>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f16>, !torch.vtensor<[6],f16>, !torch.vtensor<[6],f16>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f16>, !torch.vtensor<[6],f16>, !torch.vtensor<[6],f16>
}

// -----

// WHY: grad_out, input, mean, rstd and weight are not of one dtype
// f64 statistics for an f32 input.
// CHECK-LABEL: func.func @mixed_dtypes
// CHECK: torch.aten.native_group_norm_backward
func.func @mixed_dtypes(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f64>, %rstd: !torch.vtensor<[2,3],f64>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f64>, !torch.vtensor<[2,3],f64>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: N, C, HxW or group is not a constant int
// N an argument.
// CHECK-LABEL: func.func @n_not_constant
// CHECK: torch.aten.native_group_norm_backward
func.func @n_not_constant(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>, %n: !torch.int) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %n, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: N=2, C=6, HxW=4, group=4: not positive, or C not divisible by group
// 6 channels in 4 groups.
// CHECK-LABEL: func.func @c_not_divisible
// CHECK: torch.aten.native_group_norm_backward
func.func @c_not_divisible(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,4],f32>, %rstd: !torch.vtensor<[2,4],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 4
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: N=2, C=6, HxW=0, group=3: not positive, or C not divisible by group
// HxW 0.
// CHECK-LABEL: func.func @zero_hxw
// CHECK: torch.aten.native_group_norm_backward
func.func @zero_hxw(%go: !torch.vtensor<[2,6,0],f32>, %x: !torch.vtensor<[2,6,0],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,0],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 0
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,0],f32>, !torch.vtensor<[2,6,0],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,0],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,0],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: an input !torch.vtensor<[2,8,2,2],f32> that is not [N=2, C=6, ...]
// C = 6 for an input of 8 channels.
// CHECK-LABEL: func.func @channels_contradict
// CHECK: torch.aten.native_group_norm_backward
func.func @channels_contradict(%go: !torch.vtensor<[2,8,2,2],f32>, %x: !torch.vtensor<[2,8,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,8,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,8,2,2],f32>, !torch.vtensor<[2,8,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,8,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,8,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: an input !torch.vtensor<[2,6,3,?],f32> whose spatial dims do not hold HxW = 4 elements
// A spatial dim of 3 for HxW = 4.
// CHECK-LABEL: func.func @spatial_contradict
// CHECK: torch.aten.native_group_norm_backward
func.func @spatial_contradict(%go: !torch.vtensor<[2,6,3,?],f32>, %x: !torch.vtensor<[2,6,3,?],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,3,?],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,3,?],f32>, !torch.vtensor<[2,6,3,?],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,3,?],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,3,?],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: grad_out !torch.vtensor<[2,6,4],f32> is not the input's shape !torch.vtensor<[2,6,2,2],f32>
// grad_out of another rank.
// CHECK-LABEL: func.func @grad_out_shape
// CHECK: torch.aten.native_group_norm_backward
func.func @grad_out_shape(%go: !torch.vtensor<[2,6,4],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,4],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: mean !torch.vtensor<[2,2],f32> or rstd !torch.vtensor<[2,3],f32> is not !torch.vtensor<[2,3],f32>
// mean of 2 groups for group = 3.
// CHECK-LABEL: func.func @mean_shape
// CHECK: torch.aten.native_group_norm_backward
func.func @mean_shape(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,2],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: a weight !torch.vtensor<[3],f32> that is not [6]
// A weight of 3 for 6 channels.
// CHECK-LABEL: func.func @weight_shape
// CHECK: torch.aten.native_group_norm_backward
func.func @weight_shape(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[3],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: an output_mask that is not a list of 3 constant bools
// A mask bit an argument.
// CHECK-LABEL: func.func @mask_not_constant
// CHECK: torch.aten.native_group_norm_backward
func.func @mask_not_constant(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>, %b: !torch.bool) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %b, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: result 1 is masked out (undefined in PyTorch) yet has uses
// grad_weight masked yet typed as a tensor and returned.
// CHECK-LABEL: func.func @masked_tensor_used
// CHECK: torch.aten.native_group_norm_backward
func.func @masked_tensor_used(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool false
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: result 2 is !torch.none but its output_mask bit is true
// grad_bias typed !torch.none with its bit true.
// CHECK-LABEL: func.func @none_result_unmasked
// CHECK: torch.aten.native_group_norm_backward
func.func @none_result_unmasked(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>, !torch.none
  return %r0, %r1 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: result 1 !torch.vtensor<[3],f32> is not !torch.vtensor<[6],f32>
// grad_weight of 3 for 6 channels.
// CHECK-LABEL: func.func @result_shape
// CHECK: torch.aten.native_group_norm_backward
func.func @result_shape(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[3],f32>, !torch.vtensor<[6],f32>
}

// -----

// WHY: result 0 is not a ranked !torch.vtensor
// grad_input unranked.
// CHECK-LABEL: func.func @unranked_result
// CHECK: torch.aten.native_group_norm_backward
func.func @unranked_result(%go: !torch.vtensor<[2,6,2,2],f32>, %x: !torch.vtensor<[2,6,2,2],f32>, %mean: !torch.vtensor<[2,3],f32>, %rstd: !torch.vtensor<[2,3],f32>, %w: !torch.vtensor<[6],f32>) -> (!torch.vtensor<*,f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>) {
  %nN = torch.constant.int 2
  %cC = torch.constant.int 6
  %hH = torch.constant.int 4
  %gG = torch.constant.int 3
  %m0 = torch.constant.bool true
  %m1 = torch.constant.bool true
  %m2 = torch.constant.bool true
  %mask = torch.prim.ListConstruct %m0, %m1, %m2 : (!torch.bool, !torch.bool, !torch.bool) -> !torch.list<bool>
  %r0, %r1, %r2 = torch.aten.native_group_norm_backward %go, %x, %mean, %rstd, %w, %nN, %cC, %hH, %gG, %mask : !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,6,2,2],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],f32>, !torch.int, !torch.int, !torch.int, !torch.int, !torch.list<bool> -> !torch.vtensor<*,f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
  return %r0, %r1, %r2 : !torch.vtensor<*,f32>, !torch.vtensor<[6],f32>, !torch.vtensor<[6],f32>
}
