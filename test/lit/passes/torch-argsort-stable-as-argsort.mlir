// RUN: opt-py %s --split-input-file -p torch-argsort-stable-as-argsort | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-argsort-stable-as-argsort --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch.argsort(x, dim=-1, stable=True) as torch 2.13 exports it: aten.argsort with the op's own dim
// and descending (stable is what its lowering gives).
// CHECK-LABEL: func.func @stable_last_dim
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4,?],f32>)
// CHECK-DAG: %[[DIM:.+]] = torch.constant.int -1
// CHECK-DAG: %[[FALSE:.+]] = torch.constant.bool false
// CHECK: %[[R:.+]] = torch.aten.argsort %[[X]], %[[DIM]], %[[FALSE]] : !torch.vtensor<[4,?],f32>, !torch.int, !torch.bool -> !torch.vtensor<[4,?],si64>
// CHECK-NOT: torch.operator
// CHECK: return %[[R]]
func.func @stable_last_dim(%x: !torch.vtensor<[4,?],f32>) -> !torch.vtensor<[4,?],si64> {
  %true = torch.constant.bool true
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int-1, %false) : (!torch.vtensor<[4,?],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[4,?],si64>
  return %0 : !torch.vtensor<[4,?],si64>
}

// -----

// Descending along dim 0, one true constant for stable and descending (as torch exports it): descending stays true.
// CHECK-LABEL: func.func @descending_dim_zero
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,3],si32>)
// CHECK-DAG: %[[DIM:.+]] = torch.constant.int 0
// CHECK-DAG: %[[TRUE:.+]] = torch.constant.bool true
// CHECK: %[[R:.+]] = torch.aten.argsort %[[X]], %[[DIM]], %[[TRUE]] : !torch.vtensor<[?,3],si32>, !torch.int, !torch.bool -> !torch.vtensor<[?,3],si64>
// CHECK: return %[[R]]
func.func @descending_dim_zero(%x: !torch.vtensor<[?,3],si32>) -> !torch.vtensor<[?,3],si64> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %true) : (!torch.vtensor<[?,3],si32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[?,3],si64>
  return %0 : !torch.vtensor<[?,3],si64>
}

// -----

// stable=False: the stable order is one torch allows.
// CHECK-LABEL: func.func @not_stable
// CHECK: torch.aten.argsort %{{.+}}, %{{.+}}, %{{.+}} : !torch.vtensor<[2,3,5],f16>, !torch.int, !torch.bool -> !torch.vtensor<[2,3,5],si64>
// CHECK-NOT: torch.operator
func.func @not_stable(%x: !torch.vtensor<[2,3,5],f16>) -> !torch.vtensor<[2,3,5],si64> {
  %false = torch.constant.bool false
  %int-2 = torch.constant.int -2
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %false, %int-2, %false) : (!torch.vtensor<[2,3,5],f16>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[2,3,5],si64>
  return %0 : !torch.vtensor<[2,3,5],si64>
}

// -----

// Negative: another torch.operator.
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: not torch.aten.argsort.stable
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.aten.msort"
func.func @no_other_operator(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.operator "torch.aten.msort"(%x) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// Negative: bool keys (torch-mlir's comparator compares i1 as signed: true, -1, would sort first).
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: a i1 input: torch-mlir's sort compares only si8, si16, si32, si64, f16, bf16, f32, f64 in their own order
// CHECK-LABEL: func.func @no_bool
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_bool(%x: !torch.vtensor<[8],i1>) -> !torch.vtensor<[8],si64> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %false) : (!torch.vtensor<[8],i1>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  return %0 : !torch.vtensor<[8],si64>
}

// -----

// Negative: ui8 keys (compared as signed by torch-mlir's comparator: 200 would sort before 1).
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: a ui8 input: torch-mlir's sort compares only
// CHECK-LABEL: func.func @no_unsigned_byte
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_unsigned_byte(%x: !torch.vtensor<[8],ui8>) -> !torch.vtensor<[8],si64> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %false) : (!torch.vtensor<[8],ui8>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  return %0 : !torch.vtensor<[8],si64>
}

// -----

// Negative: stable not a constant.
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: stable is not a torch.constant.bool
// CHECK-LABEL: func.func @no_stable_not_constant
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_stable_not_constant(%x: !torch.vtensor<[8],f32>, %stable: !torch.bool) -> !torch.vtensor<[8],si64> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %stable, %int0, %false) : (!torch.vtensor<[8],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  return %0 : !torch.vtensor<[8],si64>
}

// -----

// Negative: descending not a constant (torch-mlir's sort needs one).
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: descending is not a torch.constant.bool
// CHECK-LABEL: func.func @no_descending_not_constant
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_descending_not_constant(%x: !torch.vtensor<[8],f32>, %descending: !torch.bool) -> !torch.vtensor<[8],si64> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %descending) : (!torch.vtensor<[8],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  return %0 : !torch.vtensor<[8],si64>
}

// -----

// Negative: dim not a constant.
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: dim is not a torch.constant.int
// CHECK-LABEL: func.func @no_dim_not_constant
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_dim_not_constant(%x: !torch.vtensor<[8],f32>, %dim: !torch.int) -> !torch.vtensor<[8],si64> {
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %dim, %false) : (!torch.vtensor<[8],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  return %0 : !torch.vtensor<[8],si64>
}

// -----

// Negative: dim out of range for the rank.
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: dim -3 out of range for rank 2 (torch raises)
// CHECK-LABEL: func.func @no_dim_out_of_range
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_dim_out_of_range(%x: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],si64> {
  %true = torch.constant.bool true
  %int-3 = torch.constant.int -3
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int-3, %false) : (!torch.vtensor<[2,8],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[2,8],si64>
  return %0 : !torch.vtensor<[2,8],si64>
}

// -----

// Negative: a 0-d input (torch-mlir's sort has no dim to sort along).
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: a 0-d input (torch-mlir's sort needs a dim)
// CHECK-LABEL: func.func @no_zero_d
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_zero_d(%x: !torch.vtensor<[],f32>) -> !torch.vtensor<[],si64> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %false) : (!torch.vtensor<[],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[],si64>
  return %0 : !torch.vtensor<[],si64>
}

// -----

// Negative: an unranked input.
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[8],si64> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %false) : (!torch.vtensor, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si64>
  return %0 : !torch.vtensor<[8],si64>
}

// -----

// Negative: a result that is not si64 (what torch gives).
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: the result is not si64 of the input's sizes
// CHECK-LABEL: func.func @no_result_not_si64
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_result_not_si64(%x: !torch.vtensor<[8],f32>) -> !torch.vtensor<[8],si32> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %false) : (!torch.vtensor<[8],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[8],si32>
  return %0 : !torch.vtensor<[8],si32>
}

// -----

// Negative: a result of other sizes than the input's.
// WHY: argsort_stable_as_argsort: no match on 'torch.operator' at {{.*}}: the result is not si64 of the input's sizes
// CHECK-LABEL: func.func @no_result_other_sizes
// CHECK: torch.operator "torch.aten.argsort.stable"
func.func @no_result_other_sizes(%x: !torch.vtensor<[8],f32>) -> !torch.vtensor<[7],si64> {
  %true = torch.constant.bool true
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %0 = torch.operator "torch.aten.argsort.stable"(%x, %true, %int0, %false) : (!torch.vtensor<[8],f32>, !torch.bool, !torch.int, !torch.bool) -> !torch.vtensor<[7],si64>
  return %0 : !torch.vtensor<[7],si64>
}
