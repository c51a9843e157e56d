// RUN: opt-py %s --split-input-file -p torch-decompose-isfinite | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-isfinite --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// isfinite of f32 (torch-mlir's IsInfiniteModule_basic): abs(x) < inf, an ordered compare (false for NaN).
// CHECK-LABEL: func.func @isfinite_f32
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?],f32>)
// CHECK: %[[ABS:.+]] = torch.aten.abs %[[X]] : !torch.vtensor<[?],f32> -> !torch.vtensor<[?],f32>
// CHECK: %[[INF:.+]] = torch.constant.float 0x7FF0000000000000
// CHECK: %[[R:.+]] = torch.aten.lt.Scalar %[[ABS]], %[[INF]] : !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?],i1>
// CHECK-NOT: torch.aten.isfinite
// CHECK: return %[[R]]
func.func @isfinite_f32(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],i1> {
  %r = torch.aten.isfinite %x : !torch.vtensor<[?],f32> -> !torch.vtensor<[?],i1>
  return %r : !torch.vtensor<[?],i1>
}

// -----

// f16, bf16 and f64 alike, each compared in its own dtype.
// CHECK-LABEL: func.func @isfinite_other_floats
// CHECK: torch.aten.lt.Scalar %{{.+}}, %{{.+}} : !torch.vtensor<[4],f16>, !torch.float -> !torch.vtensor<[4],i1>
// CHECK: torch.aten.lt.Scalar %{{.+}}, %{{.+}} : !torch.vtensor<[4],bf16>, !torch.float -> !torch.vtensor<[4],i1>
// CHECK: torch.aten.lt.Scalar %{{.+}}, %{{.+}} : !torch.vtensor<[2,2],f64>, !torch.float -> !torch.vtensor<[2,2],i1>
// CHECK-NOT: torch.aten.isfinite
func.func @isfinite_other_floats(%h: !torch.vtensor<[4],f16>, %b: !torch.vtensor<[4],bf16>, %d: !torch.vtensor<[2,2],f64>) -> (!torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>, !torch.vtensor<[2,2],i1>) {
  %0 = torch.aten.isfinite %h : !torch.vtensor<[4],f16> -> !torch.vtensor<[4],i1>
  %1 = torch.aten.isfinite %b : !torch.vtensor<[4],bf16> -> !torch.vtensor<[4],i1>
  %2 = torch.aten.isfinite %d : !torch.vtensor<[2,2],f64> -> !torch.vtensor<[2,2],i1>
  return %0, %1, %2 : !torch.vtensor<[4],i1>, !torch.vtensor<[4],i1>, !torch.vtensor<[2,2],i1>
}

// -----

// An integer input is finite everywhere: ones_like(x, dtype=bool (code 11)), x's sizes, dynamic ones included.
// CHECK-LABEL: func.func @isfinite_integer
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,3],si32>)
// CHECK-DAG: %[[NONE:.+]] = torch.constant.none
// CHECK-DAG: %[[BOOL:.+]] = torch.constant.int 11
// CHECK: %[[R:.+]] = torch.aten.ones_like %[[X]], %[[BOOL]], %[[NONE]], %[[NONE]], %[[NONE]], %[[NONE]] : {{.*}} -> !torch.vtensor<[?,3],i1>
// CHECK-NOT: torch.aten.isfinite
// CHECK: return %[[R]]
func.func @isfinite_integer(%x: !torch.vtensor<[?,3],si32>) -> !torch.vtensor<[?,3],i1> {
  %r = torch.aten.isfinite %x : !torch.vtensor<[?,3],si32> -> !torch.vtensor<[?,3],i1>
  return %r : !torch.vtensor<[?,3],i1>
}

// -----

// A bool input likewise.
// CHECK-LABEL: func.func @isfinite_bool
// CHECK: torch.aten.ones_like %{{.+}}, %int11{{.*}} : !torch.vtensor<[5],i1>, {{.*}} -> !torch.vtensor<[5],i1>
// CHECK-NOT: torch.aten.isfinite
func.func @isfinite_bool(%x: !torch.vtensor<[5],i1>) -> !torch.vtensor<[5],i1> {
  %r = torch.aten.isfinite %x : !torch.vtensor<[5],i1> -> !torch.vtensor<[5],i1>
  return %r : !torch.vtensor<[5],i1>
}

// -----

// Negative: a complex input (torch asks both parts).
// WHY: decompose_isfinite: no match on 'torch.aten.isfinite' at {{.*}}: a complex<f32> input: not an integer, bool, f16, bf16, f32 nor f64
// CHECK-LABEL: func.func @no_complex
// CHECK: torch.aten.isfinite
func.func @no_complex(%x: !torch.vtensor<[4],complex<f32>>) -> !torch.vtensor<[4],i1> {
  %r = torch.aten.isfinite %x : !torch.vtensor<[4],complex<f32>> -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// Negative: an unranked input.
// WHY: decompose_isfinite: no match on 'torch.aten.isfinite' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.isfinite
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[4],i1> {
  %r = torch.aten.isfinite %x : !torch.vtensor -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// Negative: a result that is not bool.
// WHY: decompose_isfinite: no match on 'torch.aten.isfinite' at {{.*}}: a f32 result: torch's isfinite is bool
// CHECK-LABEL: func.func @no_non_bool_result
// CHECK: torch.aten.isfinite
func.func @no_non_bool_result(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.isfinite %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}
