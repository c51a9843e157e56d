// RUN: opt-py %s --split-input-file -p torch-adaptive-max-pool2d-as-3d | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-adaptive-max-pool2d-as-3d --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// [1,512,10,16] to (7,13): 10 -> 7 has windows of sizes 2 and 3, so stock's max_pool2d is wrong-sized. A unit
// depth at dim -3, the 3-d pool to (1,7,13), that dim squeezed from both results.
// CHECK-LABEL: func.func @varying_windows
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[1,512,10,16],f32>)
// CHECK: %[[D:.+]] = torch.constant.int -3
// CHECK: %[[X5:.+]] = torch.aten.unsqueeze %[[X]], %[[D]] : {{.*}} -> !torch.vtensor<[1,512,1,10,16],f32>
// CHECK: %[[SIZE:.+]] = torch.prim.ListConstruct %int1{{(_[0-9]+)?}}, %int7{{(_[0-9]+)?}}, %int13{{(_[0-9]+)?}} :
// CHECK: %[[V:.+]], %[[I:.+]] = torch.aten.adaptive_max_pool3d %[[X5]], %[[SIZE]] : {{.*}} -> !torch.vtensor<[1,512,1,7,13],f32>, !torch.vtensor<[1,512,1,7,13],si64>
// CHECK: %[[SV:.+]] = torch.aten.squeeze.dim %[[V]], %[[D]] : {{.*}} -> !torch.vtensor<[1,512,7,13],f32>
// CHECK: %[[SI:.+]] = torch.aten.squeeze.dim %[[I]], %[[D]] : {{.*}} -> !torch.vtensor<[1,512,7,13],si64>
// CHECK-NOT: torch.aten.adaptive_max_pool2d
// CHECK: return %[[SV]], %[[SI]]
func.func @varying_windows(%x: !torch.vtensor<[1,512,10,16],f32>) -> (!torch.vtensor<[1,512,7,13],f32>, !torch.vtensor<[1,512,7,13],si64>) {
  %i7 = torch.constant.int 7
  %i13 = torch.constant.int 13
  %s = torch.prim.ListConstruct %i7, %i13 : (!torch.int, !torch.int) -> !torch.list<int>
  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : !torch.vtensor<[1,512,10,16],f32>, !torch.list<int> -> !torch.vtensor<[1,512,7,13],f32>, !torch.vtensor<[1,512,7,13],si64>
  return %v, %i : !torch.vtensor<[1,512,7,13],f32>, !torch.vtensor<[1,512,7,13],si64>
}

// -----

// A rank-3 input with dynamic sizes (stock's max_pool2d would have a dynamic kernel); W 9 -> 13 upsamples.
// CHECK-LABEL: func.func @dynamic_no_batch
// CHECK: torch.aten.unsqueeze %{{.+}}, %{{.+}} : {{.*}} -> !torch.vtensor<[?,1,?,?],f32>
// CHECK: torch.aten.adaptive_max_pool3d {{.*}} -> !torch.vtensor<[?,1,7,13],f32>, !torch.vtensor<[?,1,7,13],si64>
// CHECK: %[[R:.+]] = torch.aten.squeeze.dim {{.*}} -> !torch.vtensor<[?,7,13],f32>
// CHECK: return %[[R]]
func.func @dynamic_no_batch(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,7,13],f32> {
  %i7 = torch.constant.int 7
  %i13 = torch.constant.int 13
  %s = torch.prim.ListConstruct %i7, %i13 : (!torch.int, !torch.int) -> !torch.list<int>
  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,7,13],f32>, !torch.vtensor<[?,7,13],si64>
  return %v : !torch.vtensor<[?,7,13],f32>
}

// -----

// Negative: fixed windows (7 -> 2 is kernel 4, stride 3): stock's max_pool2d is right.
// WHY: adaptive_max_pool2d_as_3d: no match on 'torch.aten.adaptive_max_pool2d' at {{.*}}: static sizes with fixed windows: stock's max_pool2d decomposition holds
// CHECK-LABEL: func.func @no_fixed_windows
// CHECK: torch.aten.adaptive_max_pool2d
func.func @no_fixed_windows(%x: !torch.vtensor<[1,3,7,8],f32>) -> !torch.vtensor<[1,3,2,4],f32> {
  %i2 = torch.constant.int 2
  %i4 = torch.constant.int 4
  %s = torch.prim.ListConstruct %i2, %i4 : (!torch.int, !torch.int) -> !torch.list<int>
  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : !torch.vtensor<[1,3,7,8],f32>, !torch.list<int> -> !torch.vtensor<[1,3,2,4],f32>, !torch.vtensor<[1,3,2,4],si64>
  return %v : !torch.vtensor<[1,3,2,4],f32>
}

// -----

// Negative: an output size that is not constant.
// WHY: adaptive_max_pool2d_as_3d: no match on 'torch.aten.adaptive_max_pool2d' at {{.*}}: the output size is not two constant ints >= 1
// CHECK-LABEL: func.func @no_runtime_size
// CHECK: torch.aten.adaptive_max_pool2d
func.func @no_runtime_size(%x: !torch.vtensor<[1,3,10,9],f32>, %s: !torch.list<int>) -> !torch.vtensor<[1,3,?,?],f32> {
  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : !torch.vtensor<[1,3,10,9],f32>, !torch.list<int> -> !torch.vtensor<[1,3,?,?],f32>, !torch.vtensor<[1,3,?,?],si64>
  return %v : !torch.vtensor<[1,3,?,?],f32>
}

// -----

// Negative: a rank-2 input (torch takes rank 3 or 4).
// WHY: adaptive_max_pool2d_as_3d: no match on 'torch.aten.adaptive_max_pool2d' at {{.*}}: a rank-2 input (torch takes rank 3 or 4)
// CHECK-LABEL: func.func @no_rank_two
// CHECK: torch.aten.adaptive_max_pool2d
func.func @no_rank_two(%x: !torch.vtensor<[10,9],f32>) -> !torch.vtensor<[7,13],f32> {
  %i7 = torch.constant.int 7
  %i13 = torch.constant.int 13
  %s = torch.prim.ListConstruct %i7, %i13 : (!torch.int, !torch.int) -> !torch.list<int>
  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : !torch.vtensor<[10,9],f32>, !torch.list<int> -> !torch.vtensor<[7,13],f32>, !torch.vtensor<[7,13],si64>
  return %v : !torch.vtensor<[7,13],f32>
}

// -----

// Negative: an unranked input.
// WHY: adaptive_max_pool2d_as_3d: no match on 'torch.aten.adaptive_max_pool2d' at {{.*}}: the input or a result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.adaptive_max_pool2d
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[1,3,7,13],f32> {
  %i7 = torch.constant.int 7
  %i13 = torch.constant.int 13
  %s = torch.prim.ListConstruct %i7, %i13 : (!torch.int, !torch.int) -> !torch.list<int>
  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : !torch.vtensor, !torch.list<int> -> !torch.vtensor<[1,3,7,13],f32>, !torch.vtensor<[1,3,7,13],si64>
  return %v : !torch.vtensor<[1,3,7,13],f32>
}

// -----

// Negative: results typed otherwise than the output size.
// WHY: adaptive_max_pool2d_as_3d: no match on 'torch.aten.adaptive_max_pool2d' at {{.*}}: the results are not !torch.vtensor<[1,3,7,13],f32> and its si64 indices
// CHECK-LABEL: func.func @no_result_mismatch
// CHECK: torch.aten.adaptive_max_pool2d
func.func @no_result_mismatch(%x: !torch.vtensor<[1,3,10,9],f32>) -> !torch.vtensor<[1,3,7,12],f32> {
  %i7 = torch.constant.int 7
  %i13 = torch.constant.int 13
  %s = torch.prim.ListConstruct %i7, %i13 : (!torch.int, !torch.int) -> !torch.list<int>
  %v, %i = torch.aten.adaptive_max_pool2d %x, %s : !torch.vtensor<[1,3,10,9],f32>, !torch.list<int> -> !torch.vtensor<[1,3,7,12],f32>, !torch.vtensor<[1,3,7,12],si64>
  return %v : !torch.vtensor<[1,3,7,12],f32>
}
