// RUN: opt-py %s --split-input-file -p torch-topk-unsorted-as-sorted | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-topk-unsorted-as-sorted --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// DeepSeek-V3's grouped routing: topk(scores, k, dim=-1, largest=True, sorted=False). Only sorted
// changes, to a new true constant; input, k, dim and largest are the op's own.
// CHECK-LABEL: func.func @unsorted
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,8],f32>)
// CHECK-NOT: torch.constant.bool false
// CHECK: %[[V:.+]], %[[I:.+]] = torch.aten.topk %[[X]], %int2, %int-1, %true{{(_[0-9]+)?}}, %true{{(_[0-9]+)?}} : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[?,2],f32>, !torch.vtensor<[?,2],si64>
// CHECK: return %[[V]], %[[I]]
func.func @unsorted(%x: !torch.vtensor<[?,8],f32>) -> (!torch.vtensor<[?,2],f32>, !torch.vtensor<[?,2],si64>) {
  %int2 = torch.constant.int 2
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %values, %indices = torch.aten.topk %x, %int2, %int-1, %true, %false : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[?,2],f32>, !torch.vtensor<[?,2],si64>
  return %values, %indices : !torch.vtensor<[?,2],f32>, !torch.vtensor<[?,2],si64>
}

// -----

// The smallest k with one false constant for largest and sorted: largest stays false, only sorted
// becomes true.
// CHECK-LABEL: func.func @smallest_shares_the_false
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4,6],si32>)
// CHECK-DAG: %[[FALSE:.+]] = torch.constant.bool false
// CHECK-DAG: %[[TRUE:.+]] = torch.constant.bool true
// CHECK: torch.aten.topk %[[X]], %{{.+}}, %{{.+}}, %[[FALSE]], %[[TRUE]] :
func.func @smallest_shares_the_false(%x: !torch.vtensor<[4,6],si32>) -> (!torch.vtensor<[4,3],si32>, !torch.vtensor<[4,3],si64>) {
  %int3 = torch.constant.int 3
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %values, %indices = torch.aten.topk %x, %int3, %int1, %false, %false : !torch.vtensor<[4,6],si32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[4,3],si32>, !torch.vtensor<[4,3],si64>
  return %values, %indices : !torch.vtensor<[4,3],si32>, !torch.vtensor<[4,3],si64>
}

// -----

// Negative: sorted already true.
// WHY: topk_unsorted_as_sorted: no match on 'torch.aten.topk' at {{.*}}: sorted is true already
// CHECK-LABEL: func.func @no_sorted_already
// CHECK: torch.aten.topk %arg0, %{{.+}}, %{{.+}}, %[[T:.+]], %[[T]] :
func.func @no_sorted_already(%x: !torch.vtensor<[8],f32>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>) {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %values, %indices = torch.aten.topk %x, %int2, %int0, %true, %true : !torch.vtensor<[8],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
  return %values, %indices : !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
}

// -----

// Negative: sorted not a constant.
// WHY: topk_unsorted_as_sorted: no match on 'torch.aten.topk' at {{.*}}: sorted is not a torch.constant.bool
// CHECK-LABEL: func.func @no_sorted_not_constant
// CHECK-SAME: %[[S:[a-z0-9]+]]: !torch.bool)
// CHECK: torch.aten.topk %arg0, %{{.+}}, %{{.+}}, %{{.+}}, %[[S]] :
func.func @no_sorted_not_constant(%x: !torch.vtensor<[8],f32>, %sorted: !torch.bool) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>) {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %true = torch.constant.bool true
  %values, %indices = torch.aten.topk %x, %int2, %int0, %true, %sorted : !torch.vtensor<[8],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
  return %values, %indices : !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
}
