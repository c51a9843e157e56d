// RUN: opt-py %s --split-input-file -p torch-decompose-kthvalue | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-kthvalue --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Integers, k = 4 along dim 1, keepdim false: the last of topk(x, 4, 1, largest=False), both results, squeezed.
// CHECK-LABEL: func.func @int_kthvalue
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,6,3],si32>)
// CHECK: %[[V:.+]], %[[I:.+]] = torch.aten.topk %[[X]], %int4{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %false{{(_[0-9]+)?}}, %true{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,4,3],si32>, !torch.vtensor<[2,4,3],si64>
// CHECK: %[[LV:.+]] = torch.aten.slice.Tensor %[[V]], %int1{{(_[0-9]+)?}}, %int3{{(_[0-9]+)?}}, %int4{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,1,3],si32>
// CHECK: %[[LI:.+]] = torch.aten.slice.Tensor %[[I]], %int1{{(_[0-9]+)?}}, %int3{{(_[0-9]+)?}}, %int4{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,1,3],si64>
// CHECK: %[[SV:.+]] = torch.aten.squeeze.dim %[[LV]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,3],si32>
// CHECK: %[[SI:.+]] = torch.aten.squeeze.dim %[[LI]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK-NOT: torch.aten.kthvalue
// CHECK: return %[[SV]], %[[SI]]
func.func @int_kthvalue(%x: !torch.vtensor<[2,6,3],si32>) -> (!torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],si64>) {
  %k = torch.constant.int 4
  %d = torch.constant.int 1
  %false = torch.constant.bool false
  %v, %i = torch.aten.kthvalue %x, %k, %d, %false : !torch.vtensor<[2,6,3],si32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],si64>
  return %v, %i : !torch.vtensor<[2,3],si32>, !torch.vtensor<[2,3],si64>
}

// -----

// Floats, k = 2 along a dynamic dim 0, keepdim: the top-k of x with NaN as +inf; NaN where fewer than 2 numbers;
// the index the first position holding that value (NaN matching NaN): min of where(match, arange(n), n); the
// value gathered from x there.
// CHECK-LABEL: func.func @float_kthvalue
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,3],f32>)
// CHECK: %[[NAN:.+]] = torch.aten.isnan %[[X]] : {{.*}} -> !torch.vtensor<[?,3],i1>
// CHECK: %[[INF:.+]] = torch.constant.float 0x7FF0000000000000
// CHECK: %[[KEY:.+]] = torch.aten.where.ScalarSelf %[[NAN]], %[[INF]], %[[X]] :
// CHECK: %[[V:.+]], %{{.+}} = torch.aten.topk %[[KEY]], %int2{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, %false{{(_[0-9]+)?}}, %true{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],si64>
// CHECK: %[[KTH:.+]] = torch.aten.slice.Tensor %[[V]], %int0{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %int2{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,3],f32>
// CHECK: %[[NUM:.+]] = torch.aten.bitwise_not %[[NAN]] :
// CHECK: %[[COUNT:.+]] = torch.aten.sum.dim_IntList %[[NUM]], {{.*}} -> !torch.vtensor<[1,3],si64>
// CHECK: %[[PAST:.+]] = torch.aten.lt.Scalar %[[COUNT]], %int2{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,3],i1>
// CHECK: %[[VAL:.+]] = torch.aten.where.ScalarSelf %[[PAST]], %float{{.+}}, %[[KTH]] :
// CHECK: %[[EQ:.+]] = torch.aten.eq.Tensor %[[X]], %[[VAL]] : {{.*}} -> !torch.vtensor<[?,3],i1>
// CHECK: %[[NP:.+]] = torch.aten.bitwise_and.Tensor %[[NAN]], %[[PAST]] :
// CHECK: %[[MATCH:.+]] = torch.aten.bitwise_or.Tensor %[[EQ]], %[[NP]] :
// CHECK: %[[N:.+]] = torch.aten.size.int %[[X]], %int0{{(_[0-9]+)?}} :
// CHECK: %[[AR:.+]] = torch.aten.arange %[[N]], {{.*}} -> !torch.vtensor<[?],si64>
// CHECK: %[[POS:.+]] = torch.aten.view %[[AR]], {{.*}} -> !torch.vtensor<[?,1],si64>
// CHECK: %[[CAND:.+]] = torch.aten.where.ScalarOther %[[MATCH]], %[[POS]], %[[N]] : {{.*}} -> !torch.vtensor<[?,3],si64>
// CHECK: %[[IDX:.+]] = torch.aten.amin %[[CAND]], {{.*}} -> !torch.vtensor<[1,3],si64>
// CHECK: %[[OUT:.+]] = torch.aten.gather %[[X]], %int0{{(_[0-9]+)?}}, %[[IDX]], %false{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,3],f32>
// CHECK: return %[[OUT]], %[[IDX]]
func.func @float_kthvalue(%x: !torch.vtensor<[?,3],f32>) -> (!torch.vtensor<[1,3],f32>, !torch.vtensor<[1,3],si64>) {
  %k = torch.constant.int 2
  %d = torch.constant.int 0
  %true = torch.constant.bool true
  %v, %i = torch.aten.kthvalue %x, %k, %d, %true : !torch.vtensor<[?,3],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[1,3],f32>, !torch.vtensor<[1,3],si64>
  return %v, %i : !torch.vtensor<[1,3],f32>, !torch.vtensor<[1,3],si64>
}

// -----

// A negative dim counts from the end (dim -1 of rank 2 is 1).
// CHECK-LABEL: func.func @negative_dim
// CHECK: torch.aten.topk %{{.+}}, %int1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %false{{(_[0-9]+)?}}, %true{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4,1],si64>, !torch.vtensor<[4,1],si64>
func.func @negative_dim(%x: !torch.vtensor<[4,5],si64>) -> (!torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>) {
  %k = torch.constant.int 1
  %d = torch.constant.int -1
  %false = torch.constant.bool false
  %v, %i = torch.aten.kthvalue %x, %k, %d, %false : !torch.vtensor<[4,5],si64>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>
  return %v, %i : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>
}

// -----

// Negative: k not a constant.
// WHY: decompose_kthvalue: no match on 'torch.aten.kthvalue' at {{.*}}: k, dim or keepdim is not a constant
// CHECK-LABEL: func.func @no_runtime_k
// CHECK: torch.aten.kthvalue
func.func @no_runtime_k(%x: !torch.vtensor<[4,5],f32>, %k: !torch.int) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %d = torch.constant.int 1
  %false = torch.constant.bool false
  %v, %i = torch.aten.kthvalue %x, %k, %d, %false : !torch.vtensor<[4,5],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
  return %v, %i : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}

// -----

// Negative: k = 0 over a dynamic dim (torch raises).
// WHY: decompose_kthvalue: no match on 'torch.aten.kthvalue' at {{.*}}: k = 0 over a dynamic size (torch raises)
// CHECK-LABEL: func.func @no_k_zero
// CHECK: torch.aten.kthvalue
func.func @no_k_zero(%x: !torch.vtensor<[4,?],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %k = torch.constant.int 0
  %d = torch.constant.int 1
  %false = torch.constant.bool false
  %v, %i = torch.aten.kthvalue %x, %k, %d, %false : !torch.vtensor<[4,?],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
  return %v, %i : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}

// -----

// Negative: results typed as if keepdim were true.
// WHY: decompose_kthvalue: no match on 'torch.aten.kthvalue' at {{.*}}: the results are not !torch.vtensor<[4],f32> and its si64 indices
// CHECK-LABEL: func.func @no_result_mismatch
// CHECK: torch.aten.kthvalue
func.func @no_result_mismatch(%x: !torch.vtensor<[4,5],f32>) -> (!torch.vtensor<[4,1],f32>, !torch.vtensor<[4,1],si64>) {
  %k = torch.constant.int 1
  %d = torch.constant.int 1
  %false = torch.constant.bool false
  %v, %i = torch.aten.kthvalue %x, %k, %d, %false : !torch.vtensor<[4,5],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[4,1],f32>, !torch.vtensor<[4,1],si64>
  return %v, %i : !torch.vtensor<[4,1],f32>, !torch.vtensor<[4,1],si64>
}

// -----

// Negative: a dtype outside the table.
// WHY: decompose_kthvalue: no match on 'torch.aten.kthvalue' at {{.*}}: a ui16 input: not an integer nor a float of the table (torch_ir)
// CHECK-LABEL: func.func @no_dtype_outside_table
// CHECK: torch.aten.kthvalue
func.func @no_dtype_outside_table(%x: !torch.vtensor<[4,5],ui16>) -> (!torch.vtensor<[4],ui16>, !torch.vtensor<[4],si64>) {
  %k = torch.constant.int 1
  %d = torch.constant.int 1
  %false = torch.constant.bool false
  %v, %i = torch.aten.kthvalue %x, %k, %d, %false : !torch.vtensor<[4,5],ui16>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[4],ui16>, !torch.vtensor<[4],si64>
  return %v, %i : !torch.vtensor<[4],ui16>, !torch.vtensor<[4],si64>
}

// -----

// Negative: an unranked input.
// WHY: decompose_kthvalue: no match on 'torch.aten.kthvalue' at {{.*}}: the input or a result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.kthvalue
func.func @no_unranked(%x: !torch.vtensor) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %k = torch.constant.int 1
  %d = torch.constant.int 1
  %false = torch.constant.bool false
  %v, %i = torch.aten.kthvalue %x, %k, %d, %false : !torch.vtensor, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
  return %v, %i : !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}
