// RUN: opt-py %s --split-input-file -p torch-pixel-unshuffle-as-view | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-pixel-unshuffle-as-view --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Dynamic H and W, r = 2: view [4,1,6,H/2,2,W/2,2], permute [0,1,2,4,6,3,5], reshape [4,1,24,H/2,W/2], cast.
// CHECK-LABEL: func.func @unshuffle_dynamic
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4,1,6,?,?],si64>)
// CHECK: %[[H:.+]] = torch.aten.size.int %[[X]], %int3
// CHECK: %[[W:.+]] = torch.aten.size.int %[[X]], %int4
// CHECK: %[[HO:.+]] = torch.aten.floordiv.int %[[H]], %int2
// CHECK: %[[WO:.+]] = torch.aten.floordiv.int %[[W]], %int2
// CHECK: %[[S1:.+]] = torch.prim.ListConstruct %int4, %int1, %int6, %[[HO]], %int2{{(_[0-9]+)?}}, %[[WO]], %int2{{(_[0-9]+)?}} :
// CHECK: %[[V:.+]] = torch.aten.view %[[X]], %[[S1]] : {{.*}} -> !torch.vtensor<[4,1,6,?,2,?,2],si64>
// CHECK: %[[P:.+]] = torch.aten.permute %[[V]], %{{.+}} : {{.*}} -> !torch.vtensor<[4,1,6,2,2,?,?],si64>
// CHECK: %[[S2:.+]] = torch.prim.ListConstruct %int4, %int1, %int24, %[[HO]], %[[WO]] :
// CHECK: %[[R:.+]] = torch.aten.reshape %[[P]], %[[S2]] : {{.*}} -> !torch.vtensor<[4,1,24,?,?],si64>
// CHECK: %[[C:.+]] = torch.tensor_static_info_cast %[[R]] : !torch.vtensor<[4,1,24,?,?],si64> to !torch.vtensor<[4,1,?,?,?],si64>
// CHECK-NOT: torch.aten.pixel_unshuffle
// CHECK: return %[[C]]
func.func @unshuffle_dynamic(%x: !torch.vtensor<[4,1,6,?,?],si64>) -> !torch.vtensor<[4,1,?,?,?],si64> {
  %int2 = torch.constant.int 2
  %r = torch.aten.pixel_unshuffle %x, %int2 : !torch.vtensor<[4,1,6,?,?],si64>, !torch.int -> !torch.vtensor<[4,1,?,?,?],si64>
  return %r : !torch.vtensor<[4,1,?,?,?],si64>
}

// -----

// Dynamic channels: C * r * r by mul.int.
// CHECK-LABEL: func.func @unshuffle_dynamic_channels
// CHECK: %[[C:.+]] = torch.aten.size.int %{{.+}}, %int0
// CHECK: %[[CC:.+]] = torch.aten.mul.int %[[C]], %int9
// CHECK: torch.prim.ListConstruct %[[CC]], %int2{{(_[0-9]+)?}}, %int3{{(_[0-9]+)?}} :
// CHECK: torch.aten.reshape {{.*}} -> !torch.vtensor<[?,2,3],f32>
func.func @unshuffle_dynamic_channels(%x: !torch.vtensor<[?,6,9],f32>) -> !torch.vtensor<[?,2,3],f32> {
  %int3 = torch.constant.int 3
  %r = torch.aten.pixel_unshuffle %x, %int3 : !torch.vtensor<[?,6,9],f32>, !torch.int -> !torch.vtensor<[?,2,3],f32>
  return %r : !torch.vtensor<[?,2,3],f32>
}

// -----

// Negative: a factor that is not a constant.
// WHY: pixel_unshuffle_as_view: no match on 'torch.aten.pixel_unshuffle' at {{.*}}: the downscale factor is not a constant int >= 1
// CHECK-LABEL: func.func @no_runtime_factor
// CHECK: torch.aten.pixel_unshuffle
func.func @no_runtime_factor(%x: !torch.vtensor<[1,4,4],f32>, %f: !torch.int) -> !torch.vtensor<[?,?,?],f32> {
  %r = torch.aten.pixel_unshuffle %x, %f : !torch.vtensor<[1,4,4],f32>, !torch.int -> !torch.vtensor<[?,?,?],f32>
  return %r : !torch.vtensor<[?,?,?],f32>
}

// -----

// Negative: a factor of 0.
// WHY: pixel_unshuffle_as_view: no match on 'torch.aten.pixel_unshuffle' at {{.*}}: the downscale factor is not a constant int >= 1
// CHECK-LABEL: func.func @no_zero_factor
// CHECK: torch.aten.pixel_unshuffle
func.func @no_zero_factor(%x: !torch.vtensor<[1,4,4],f32>) -> !torch.vtensor<[?,?,?],f32> {
  %int0 = torch.constant.int 0
  %r = torch.aten.pixel_unshuffle %x, %int0 : !torch.vtensor<[1,4,4],f32>, !torch.int -> !torch.vtensor<[?,?,?],f32>
  return %r : !torch.vtensor<[?,?,?],f32>
}

// -----

// Negative: rank under 3.
// WHY: pixel_unshuffle_as_view: no match on 'torch.aten.pixel_unshuffle' at {{.*}}: input rank 2 (f32) -> f32: not rank >= 3 of one dtype
// CHECK-LABEL: func.func @no_rank2
// CHECK: torch.aten.pixel_unshuffle
func.func @no_rank2(%x: !torch.vtensor<[4,4],f32>) -> !torch.vtensor<[?,?],f32> {
  %int2 = torch.constant.int 2
  %r = torch.aten.pixel_unshuffle %x, %int2 : !torch.vtensor<[4,4],f32>, !torch.int -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----

// Negative: a result of another dtype.
// WHY: pixel_unshuffle_as_view: no match on 'torch.aten.pixel_unshuffle' at {{.*}}: input rank 3 (f32) -> f16: not rank >= 3 of one dtype
// CHECK-LABEL: func.func @no_other_dtype
// CHECK: torch.aten.pixel_unshuffle
func.func @no_other_dtype(%x: !torch.vtensor<[1,4,4],f32>) -> !torch.vtensor<[4,2,2],f16> {
  %int2 = torch.constant.int 2
  %r = torch.aten.pixel_unshuffle %x, %int2 : !torch.vtensor<[1,4,4],f32>, !torch.int -> !torch.vtensor<[4,2,2],f16>
  return %r : !torch.vtensor<[4,2,2],f16>
}

// -----

// Negative: a static W that r does not divide (torch raises).
// WHY: pixel_unshuffle_as_view: no match on 'torch.aten.pixel_unshuffle' at {{.*}}: spatial sizes 4, 5 not divisible by 2 (torch raises)
// CHECK-LABEL: func.func @no_indivisible
// CHECK: torch.aten.pixel_unshuffle
func.func @no_indivisible(%x: !torch.vtensor<[1,4,5],f32>) -> !torch.vtensor<[?,?,?],f32> {
  %int2 = torch.constant.int 2
  %r = torch.aten.pixel_unshuffle %x, %int2 : !torch.vtensor<[1,4,5],f32>, !torch.int -> !torch.vtensor<[?,?,?],f32>
  return %r : !torch.vtensor<[?,?,?],f32>
}

// -----

// Negative: a result type that is not pixel_unshuffle's.
// WHY: pixel_unshuffle_as_view: no match on 'torch.aten.pixel_unshuffle' at {{.*}}: the result (4, 4, 1) is not pixel_unshuffle's (4, 2, 2)
// CHECK-LABEL: func.func @no_wrong_result
// CHECK: torch.aten.pixel_unshuffle
func.func @no_wrong_result(%x: !torch.vtensor<[1,4,4],f32>) -> !torch.vtensor<[4,4,1],f32> {
  %int2 = torch.constant.int 2
  %r = torch.aten.pixel_unshuffle %x, %int2 : !torch.vtensor<[1,4,4],f32>, !torch.int -> !torch.vtensor<[4,4,1],f32>
  return %r : !torch.vtensor<[4,4,1],f32>
}

// -----

// Negative: an unranked input.
// WHY: pixel_unshuffle_as_view: no match on 'torch.aten.pixel_unshuffle' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.pixel_unshuffle
func.func @no_unranked(%x: !torch.vtensor<*,f32>) -> !torch.vtensor<[?,?,?],f32> {
  %int2 = torch.constant.int 2
  %r = torch.aten.pixel_unshuffle %x, %int2 : !torch.vtensor<*,f32>, !torch.int -> !torch.vtensor<[?,?,?],f32>
  return %r : !torch.vtensor<[?,?,?],f32>
}
