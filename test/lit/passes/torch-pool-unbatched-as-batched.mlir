// RUN: opt-py %s --split-input-file -p torch-pool-unbatched-as-batched | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-pool-unbatched-as-batched --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch-mlir's AvgPool2dCHWModule: a (C, H, W) input with dynamic sizes. A batch of one at dim 0, the pool
// with the op's own arguments, dim 0 squeezed from the result.
// CHECK-LABEL: func.func @avg_pool2d_chw
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?,?],f32>)
// CHECK: %[[X4:.+]] = torch.aten.unsqueeze %[[X]], %[[D:.+]] : {{.*}} -> !torch.vtensor<[1,?,?,?],f32>
// CHECK: %[[P:.+]] = torch.aten.avg_pool2d %[[X4]], %[[K:.+]], %[[S:.+]], %[[PAD:.+]], %false, %true, %none : {{.*}} -> !torch.vtensor<[1,?,?,?],f32>
// CHECK: %[[R:.+]] = torch.aten.squeeze.dim %[[P]], %[[D]] : {{.*}} -> !torch.vtensor<[?,?,?],f32>
// CHECK: return %[[R]]
func.func @avg_pool2d_chw(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,?,?],f32> {
  %int6 = torch.constant.int 6
  %int8 = torch.constant.int 8
  %k = torch.prim.ListConstruct %int6, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %false, %true, %none : !torch.vtensor<[?,?,?],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[?,?,?],f32>
  return %r : !torch.vtensor<[?,?,?],f32>
}

// -----

// A max pool of a static (C, L) input: the same form, static sizes kept.
// CHECK-LABEL: func.func @max_pool1d_cl
// CHECK: torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[1,4,20],f32>
// CHECK: %[[P:.+]] = torch.aten.max_pool1d {{.*}} -> !torch.vtensor<[1,4,10],f32>
// CHECK: %[[R:.+]] = torch.aten.squeeze.dim %[[P]], {{.*}} -> !torch.vtensor<[4,10],f32>
// CHECK: return %[[R]]
func.func @max_pool1d_cl(%x: !torch.vtensor<[4,20],f32>) -> !torch.vtensor<[4,10],f32> {
  %int3 = torch.constant.int 3
  %k = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.max_pool1d %x, %k, %s, %p, %d, %false : !torch.vtensor<[4,20],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[4,10],f32>
  return %r : !torch.vtensor<[4,10],f32>
}

// -----

// Negative: a batched input; stock lowers it as it is.
// WHY: pool_unbatched_as_batched: no match on 'torch.aten.avg_pool2d' at {{.*}}: a rank-4 input: not unbatched (rank 3)
// CHECK-LABEL: func.func @no_batched
// CHECK-NOT: torch.aten.unsqueeze
// CHECK: torch.aten.avg_pool2d %arg0
func.func @no_batched(%x: !torch.vtensor<[1,4,20,20],f32>) -> !torch.vtensor<[1,4,8,7],f32> {
  %int6 = torch.constant.int 6
  %int8 = torch.constant.int 8
  %k = torch.prim.ListConstruct %int6, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %p = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %r = torch.aten.avg_pool2d %x, %k, %s, %p, %false, %true, %none : !torch.vtensor<[1,4,20,20],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[1,4,8,7],f32>
  return %r : !torch.vtensor<[1,4,8,7],f32>
}

// -----

// Negative: an unranked input.
// WHY: pool_unbatched_as_batched: no match on 'torch.aten.max_pool2d' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK-NOT: torch.aten.unsqueeze
// CHECK: torch.aten.max_pool2d %arg0
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[4,9,9],f32> {
  %int3 = torch.constant.int 3
  %k = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %s = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %int1 = torch.constant.int 1
  %p = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %d = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %r = torch.aten.max_pool2d %x, %k, %s, %p, %d, %false : !torch.vtensor, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[4,9,9],f32>
  return %r : !torch.vtensor<[4,9,9],f32>
}

// -----

// Negative: a result of another rank than the input.
// WHY: pool_unbatched_as_batched: no match on 'torch.aten.avg_pool1d' at {{.*}}: the result is not a rank-2 f32 tensor
// CHECK-LABEL: func.func @no_result_rank
// CHECK-NOT: torch.aten.unsqueeze
// CHECK: torch.aten.avg_pool1d %arg0
func.func @no_result_rank(%x: !torch.vtensor<[4,20],f32>) -> !torch.vtensor<[1,4,9],f32> {
  %int3 = torch.constant.int 3
  %k = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %int2 = torch.constant.int 2
  %s = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %int0 = torch.constant.int 0
  %p = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %r = torch.aten.avg_pool1d %x, %k, %s, %p, %false, %true : !torch.vtensor<[4,20],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[1,4,9],f32>
  return %r : !torch.vtensor<[1,4,9],f32>
}
