// RUN: opt-py %s --split-input-file -p torch-instance-norm-blocked-stats | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-instance-norm-blocked-stats --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY
// torch-mlir's AtenInstanceNormModuleFp16: 8M elements a channel, viewed as 2048 blocks of 4096 (2048 the largest
// divisor up to sqrt(8M)). Each sum along the block, then across; the norm in f32, rounded once to f16.
// CHECK-LABEL: func.func @fp16_8m
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[1,32,8388608],f16>, %[[W:.+]]: !torch.vtensor<[32],f16>, %[[B:.+]]: !torch.vtensor<[32],f16>)
// CHECK: %[[XF:.+]] = torch.prims.convert_element_type %[[X]], %int6 : {{.*}} -> !torch.vtensor<[1,32,8388608],f32>
// CHECK: %[[XB:.+]] = torch.aten.view %[[XF]], %{{.+}} : {{.*}} -> !torch.vtensor<[1,32,2048,4096],f32>
// CHECK: %[[S1:.+]] = torch.aten.sum.dim_IntList %[[XB]], %{{.+}}, %true, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,32,2048,1],f32>
// CHECK: %[[S2:.+]] = torch.aten.sum.dim_IntList %[[S1]], %{{.+}}, %true, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,32,1,1],f32>
// CHECK: %[[MEAN:.+]] = torch.aten.div.Scalar %[[S2]], %int8388608 :
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor %[[XB]], %[[MEAN]], %int1 :
// CHECK: %[[SQ:.+]] = torch.aten.mul.Tensor %[[D]], %[[D]] :
// CHECK: %[[V1:.+]] = torch.aten.sum.dim_IntList %[[SQ]], {{.*}} -> !torch.vtensor<[1,32,2048,1],f32>
// CHECK: %[[V2:.+]] = torch.aten.sum.dim_IntList %[[V1]], {{.*}} -> !torch.vtensor<[1,32,1,1],f32>
// CHECK: %[[VAR:.+]] = torch.aten.div.Scalar %[[V2]], %int8388608{{(_[0-9]+)?}} :
// CHECK: %[[VE:.+]] = torch.aten.add.Scalar %[[VAR]], %float1.000000e-05, %int1 :
// CHECK: %[[INV:.+]] = torch.aten.rsqrt %[[VE]] :
// CHECK: %[[N:.+]] = torch.aten.mul.Tensor %[[D]], %[[INV]] :
// CHECK: %[[Y:.+]] = torch.aten.view %[[N]], {{.*}} -> !torch.vtensor<[1,32,8388608],f32>
// CHECK: %[[WF:.+]] = torch.prims.convert_element_type %[[W]], {{.*}} -> !torch.vtensor<[32],f32>
// CHECK: %[[WV:.+]] = torch.aten.view %[[WF]], {{.*}} -> !torch.vtensor<[32,1],f32>
// CHECK: %[[YW:.+]] = torch.aten.mul.Tensor %[[Y]], %[[WV]] :
// CHECK: %[[BF:.+]] = torch.prims.convert_element_type %[[B]], {{.*}} -> !torch.vtensor<[32],f32>
// CHECK: %[[BV:.+]] = torch.aten.view %[[BF]], {{.*}} -> !torch.vtensor<[32,1],f32>
// CHECK: %[[YB:.+]] = torch.aten.add.Tensor %[[YW]], %[[BV]], %int1 :
// CHECK: %[[R:.+]] = torch.prims.convert_element_type %[[YB]], %int5 : {{.*}} -> !torch.vtensor<[1,32,8388608],f16>
// CHECK-NOT: torch.aten.instance_norm
// CHECK: return %[[R]]
func.func @fp16_8m(%x: !torch.vtensor<[1,32,8388608],f16>, %w: !torch.vtensor<[32],f16>, %b: !torch.vtensor<[32],f16>) -> !torch.vtensor<[1,32,8388608],f16> {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %none, %none, %use, %m, %eps, %false : !torch.vtensor<[1,32,8388608],f16>, !torch.vtensor<[32],f16>, !torch.vtensor<[32],f16>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,32,8388608],f16>
  return %r : !torch.vtensor<[1,32,8388608],f16>
}

// -----

// f32 without weight or bias, 2-d spatial: 131072 elements a channel as 256 blocks of 512; no conversion.
// CHECK-LABEL: func.func @f32_no_affine
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: torch.aten.view {{.*}} -> !torch.vtensor<[2,3,256,512],f32>
// CHECK: %[[Y:.+]] = torch.aten.view {{.*}} -> !torch.vtensor<[2,3,256,512],f32>
// CHECK-NOT: torch.aten.add.Tensor
// CHECK: return %[[Y]]
func.func @f32_no_affine(%x: !torch.vtensor<[2,3,256,512],f32>) -> !torch.vtensor<[2,3,256,512],f32> {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %none, %none, %none, %none, %use, %m, %eps, %false : !torch.vtensor<[2,3,256,512],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,3,256,512],f32>
  return %r : !torch.vtensor<[2,3,256,512],f32>
}

// -----

// Negative: 4096 elements a channel: stock's sums are accurate.
// WHY: instance_norm_blocked_stats: no match on 'torch.aten.instance_norm' at {{.*}}: a spatial size of 4096, under 65536: one accumulator is accurate
// CHECK-LABEL: func.func @no_short
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: torch.aten.instance_norm %arg0
func.func @no_short(%x: !torch.vtensor<[1,4,64,64],f16>, %w: !torch.vtensor<[4],f16>, %b: !torch.vtensor<[4],f16>) -> !torch.vtensor<[1,4,64,64],f16> {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %none, %none, %use, %m, %eps, %false : !torch.vtensor<[1,4,64,64],f16>, !torch.vtensor<[4],f16>, !torch.vtensor<[4],f16>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,64,64],f16>
  return %r : !torch.vtensor<[1,4,64,64],f16>
}

// -----

// Negative: a prime spatial size (no blocks).
// WHY: instance_norm_blocked_stats: no match on 'torch.aten.instance_norm' at {{.*}}: a spatial size of 65537 without a divisor making blocks of at most 65536
// CHECK-LABEL: func.func @no_divisor
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: torch.aten.instance_norm %arg0
func.func @no_divisor(%x: !torch.vtensor<[1,4,65537],f32>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,65537],f32> {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %none, %none, %use, %m, %eps, %false : !torch.vtensor<[1,4,65537],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,65537],f32>
  return %r : !torch.vtensor<[1,4,65537],f32>
}

// -----

// Negative: a dynamic spatial size.
// WHY: instance_norm_blocked_stats: no match on 'torch.aten.instance_norm' at {{.*}}: non-static sizes or a rank under 3
// CHECK-LABEL: func.func @no_dynamic
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: torch.aten.instance_norm %arg0
func.func @no_dynamic(%x: !torch.vtensor<[1,4,?],f32>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,?],f32> {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %none, %none, %use, %m, %eps, %false : !torch.vtensor<[1,4,?],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,?],f32>
  return %r : !torch.vtensor<[1,4,?],f32>
}

// -----

// Negative: an unranked input.
// WHY: instance_norm_blocked_stats: no match on 'torch.aten.instance_norm' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: torch.aten.instance_norm %arg0
func.func @no_unranked(%x: !torch.vtensor, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %none, %none, %use, %m, %eps, %false : !torch.vtensor, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// Negative: f64 (IREE demotes it to f32 by default; its own accuracy is not measured here).
// WHY: instance_norm_blocked_stats: no match on 'torch.aten.instance_norm' at {{.*}}: a f64 input and f64 result: not one of f16, bf16, f32 alike
// CHECK-LABEL: func.func @no_f64
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: torch.aten.instance_norm %arg0
func.func @no_f64(%x: !torch.vtensor<[1,4,65536],f64>, %w: !torch.vtensor<[4],f64>, %b: !torch.vtensor<[4],f64>) -> !torch.vtensor<[1,4,65536],f64> {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %none, %none, %use, %m, %eps, %false : !torch.vtensor<[1,4,65536],f64>, !torch.vtensor<[4],f64>, !torch.vtensor<[4],f64>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,65536],f64>
  return %r : !torch.vtensor<[1,4,65536],f64>
}

// -----

// Negative: an f32 weight and bias for an f16 input.
// WHY: instance_norm_blocked_stats: no match on 'torch.aten.instance_norm' at {{.*}}: a weight or bias that is not a [4] f16 tensor
// CHECK-LABEL: func.func @no_weight_dtype
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: torch.aten.instance_norm %arg0
func.func @no_weight_dtype(%x: !torch.vtensor<[1,4,65536],f16>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,65536],f16> {
  %none = torch.constant.none
  %use = torch.constant.bool true
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %none, %none, %use, %m, %eps, %false : !torch.vtensor<[1,4,65536],f16>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.none, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,65536],f16>
  return %r : !torch.vtensor<[1,4,65536],f16>
}

// -----

// Negative: use_input_stats false (the running statistics normalize).
// WHY: instance_norm_blocked_stats: no match on 'torch.aten.instance_norm' at {{.*}}: statistics not computed from the input alone (use_input_stats, running stats)
// CHECK-LABEL: func.func @no_running_stats
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: torch.aten.instance_norm %arg0
func.func @no_running_stats(%x: !torch.vtensor<[1,4,65536],f32>, %w: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>, %rm: !torch.vtensor<[4],f32>) -> !torch.vtensor<[1,4,65536],f32> {
  %none = torch.constant.none
  %use = torch.constant.bool false
  %m = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %r = torch.aten.instance_norm %x, %w, %b, %rm, %none, %use, %m, %eps, %false : !torch.vtensor<[1,4,65536],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.none, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,65536],f32>
  return %r : !torch.vtensor<[1,4,65536],f32>
}
