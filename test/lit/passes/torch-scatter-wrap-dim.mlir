// RUN: opt-py %s --split-input-file -p torch-scatter-wrap-dim | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-scatter-wrap-dim --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// PhiMoE's router: scores.scatter(-1, index, -inf) over a dynamic token count. dim -1 of rank 2 is 1;
// only the dim changes.
// CHECK-LABEL: func.func @scatter_value
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,4],f32>, %[[I:.+]]: !torch.vtensor<[?,1],si64>)
// CHECK: %[[NINF:.+]] = torch.constant.float 0xFFF0000000000000
// CHECK: %[[DIM:.+]] = torch.constant.int 1
// CHECK: %[[R:.+]] = torch.aten.scatter.value %[[X]], %[[DIM]], %[[I]], %[[NINF]] : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,1],si64>, !torch.float -> !torch.vtensor<[?,4],f32>
// CHECK: return %[[R]]
func.func @scatter_value(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,1],si64>) -> !torch.vtensor<[?,4],f32> {
  %int-1 = torch.constant.int -1
  %ninf = torch.constant.float 0xFFF0000000000000
  %r = torch.aten.scatter.value %x, %int-1, %i, %ninf : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,1],si64>, !torch.float -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// scatter.src with dim -2 of rank 3: dim 1.
// CHECK-LABEL: func.func @scatter_src_rank3
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,5,3],si32>, %[[I:.+]]: !torch.vtensor<[2,2,3],si64>, %[[S:.+]]: !torch.vtensor<[2,2,3],si32>)
// CHECK: %[[DIM:.+]] = torch.constant.int 1
// CHECK: torch.aten.scatter.src %[[X]], %[[DIM]], %[[I]], %[[S]] :
func.func @scatter_src_rank3(%x: !torch.vtensor<[2,5,3],si32>, %i: !torch.vtensor<[2,2,3],si64>, %s: !torch.vtensor<[2,2,3],si32>) -> !torch.vtensor<[2,5,3],si32> {
  %int-2 = torch.constant.int -2
  %r = torch.aten.scatter.src %x, %int-2, %i, %s : !torch.vtensor<[2,5,3],si32>, !torch.int, !torch.vtensor<[2,2,3],si64>, !torch.vtensor<[2,2,3],si32> -> !torch.vtensor<[2,5,3],si32>
  return %r : !torch.vtensor<[2,5,3],si32>
}

// -----

// scatter_add and scatter_reduce.two share the one -1 constant: each gets its own wrapped dim; the
// reduction and include_self stay the op's own.
// CHECK-LABEL: func.func @scatter_add_and_reduce
// CHECK-DAG: %[[STR:.+]] = torch.constant.str "amax"
// CHECK-DAG: %[[TRUE:.+]] = torch.constant.bool true
// CHECK: %[[D1:.+]] = torch.constant.int 1
// CHECK: %[[A:.+]] = torch.aten.scatter_add %arg0, %[[D1]], %arg1, %arg2 :
// CHECK: %[[D2:.+]] = torch.constant.int 1
// CHECK: torch.aten.scatter_reduce.two %[[A]], %[[D2]], %arg1, %arg2, %[[STR]], %[[TRUE]] :
func.func @scatter_add_and_reduce(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,2],si64>, %s: !torch.vtensor<[?,2],f32>) -> !torch.vtensor<[?,4],f32> {
  %int-1 = torch.constant.int -1
  %str = torch.constant.str "amax"
  %true = torch.constant.bool true
  %a = torch.aten.scatter_add %x, %int-1, %i, %s : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,2],si64>, !torch.vtensor<[?,2],f32> -> !torch.vtensor<[?,4],f32>
  %r = torch.aten.scatter_reduce.two %a, %int-1, %i, %s, %str, %true : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,2],si64>, !torch.vtensor<[?,2],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// Negative: dim already non-negative.
// WHY: wrap_scatter_dim: no match on 'torch.aten.scatter.src' at {{.*}}: dim is not negative
// CHECK-LABEL: func.func @no_dim_not_negative
// CHECK: torch.aten.scatter.src %arg0, %int0, %arg1, %arg2 :
func.func @no_dim_not_negative(%x: !torch.vtensor<[4],f32>, %i: !torch.vtensor<[2],si64>, %s: !torch.vtensor<[2],f32>) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %r = torch.aten.scatter.src %x, %int0, %i, %s : !torch.vtensor<[4],f32>, !torch.int, !torch.vtensor<[2],si64>, !torch.vtensor<[2],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: dim is an argument, not a constant.
// WHY: wrap_scatter_dim: no match on 'torch.aten.scatter_add' at {{.*}}: dim is not a torch.constant.int
// CHECK-LABEL: func.func @no_dim_not_constant
// CHECK: torch.aten.scatter_add %arg0, %arg1,
func.func @no_dim_not_constant(%x: !torch.vtensor<[4],f32>, %d: !torch.int, %i: !torch.vtensor<[2],si64>, %s: !torch.vtensor<[2],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.scatter_add %x, %d, %i, %s : !torch.vtensor<[4],f32>, !torch.int, !torch.vtensor<[2],si64>, !torch.vtensor<[2],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: dim -3 of rank 2 (torch raises).
// WHY: wrap_scatter_dim: no match on 'torch.aten.scatter.src' at {{.*}}: dim -3 out of range for rank 2 (torch raises)
// CHECK-LABEL: func.func @no_dim_out_of_range
// CHECK: torch.aten.scatter.src %arg0, %int-3,
func.func @no_dim_out_of_range(%x: !torch.vtensor<[2,4],f32>, %i: !torch.vtensor<[2,1],si64>, %s: !torch.vtensor<[2,1],f32>) -> !torch.vtensor<[2,4],f32> {
  %int-3 = torch.constant.int -3
  %r = torch.aten.scatter.src %x, %int-3, %i, %s : !torch.vtensor<[2,4],f32>, !torch.int, !torch.vtensor<[2,1],si64>, !torch.vtensor<[2,1],f32> -> !torch.vtensor<[2,4],f32>
  return %r : !torch.vtensor<[2,4],f32>
}

// -----

// Negative: an unranked self.
// WHY: wrap_scatter_dim: no match on 'torch.aten.scatter.src' at {{.*}}: self is not a ranked !torch.vtensor of rank 1 or more
// CHECK-LABEL: func.func @no_unranked_self
// CHECK: torch.aten.scatter.src %arg0, %int-1,
func.func @no_unranked_self(%x: !torch.vtensor, %i: !torch.vtensor<[2],si64>, %s: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %int-1 = torch.constant.int -1
  %r = torch.aten.scatter.src %x, %int-1, %i, %s : !torch.vtensor, !torch.int, !torch.vtensor<[2],si64>, !torch.vtensor<[2],f32> -> !torch.vtensor
  return %r : !torch.vtensor
}
