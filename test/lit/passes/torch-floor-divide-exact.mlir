// RUN: opt-py %s --split-input-file -p torch-floor-divide-exact | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-floor-divide-exact --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// si64 floor division by a 0-d tensor (how torch exports `torch.div(a, 2**30, rounding_mode="floor")`): a truncating
// division, its remainder, and one less where the remainder is non-zero with the divisor's opposite sign.
// CHECK-LABEL: func.func @si64_by_zero_d
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[4],si64>, %[[B:.+]]: !torch.vtensor<[],si64>)
// CHECK-DAG: %[[ONE:.+]] = torch.constant.int 1
// CHECK-DAG: %[[ZERO:.+]] = torch.constant.int 0
// CHECK-DAG: %[[TRUNC:.+]] = torch.constant.str "trunc"
// CHECK: %[[Q:.+]] = torch.aten.div.Tensor_mode %[[A]], %[[B]], %[[TRUNC]] : {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[QB:.+]] = torch.aten.mul.Tensor %[[Q]], %[[B]] : {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[R:.+]] = torch.aten.sub.Tensor %[[A]], %[[QB]], %[[ONE]] : {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[INEXACT:.+]] = torch.aten.ne.Scalar %[[R]], %[[ZERO]] : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[RNEG:.+]] = torch.aten.lt.Scalar %[[R]], %[[ZERO]] : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[BNEG:.+]] = torch.aten.lt.Scalar %[[B]], %[[ZERO]] : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],i1>
// CHECK: %[[DIFFER:.+]] = torch.aten.ne.Tensor %[[RNEG]], %[[BNEG]] : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[DOWN:.+]] = torch.aten.logical_and %[[INEXACT]], %[[DIFFER]] : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[QM1:.+]] = torch.aten.sub.Scalar %[[Q]], %[[ONE]], %[[ONE]] : {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[OUT:.+]] = torch.aten.where.self %[[DOWN]], %[[QM1]], %[[Q]] : {{.*}} -> !torch.vtensor<[4],si64>
// CHECK-NOT: "floor"
// CHECK: return %[[OUT]]
func.func @si64_by_zero_d(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[],si64>) -> !torch.vtensor<[4],si64> {
  %str = torch.constant.str "floor"
  %r = torch.aten.div.Tensor_mode %a, %b, %str : !torch.vtensor<[4],si64>, !torch.vtensor<[],si64>, !torch.str -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// si32 by a 0-d si64 is si32 in torch: the divisor converted to si32 first (torch's common dtype); dynamic sizes.
// CHECK-LABEL: func.func @si32_by_si64_scalar_dynamic
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[?,3],si32>, %[[B:.+]]: !torch.vtensor<[],si64>)
// CHECK: %[[CODE:.+]] = torch.constant.int 3
// CHECK: %[[B32:.+]] = torch.prims.convert_element_type %[[B]], %[[CODE]] : !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],si32>
// CHECK: %[[Q:.+]] = torch.aten.div.Tensor_mode %[[A]], %[[B32]], %{{.+}} : {{.*}} -> !torch.vtensor<[?,3],si32>
// CHECK: torch.aten.lt.Scalar %[[B32]], %{{.+}} : !torch.vtensor<[],si32>, !torch.int -> !torch.vtensor<[],i1>
// CHECK: %[[OUT:.+]] = torch.aten.where.self %{{.+}}, %{{.+}}, %[[Q]] : {{.*}} -> !torch.vtensor<[?,3],si32>
// CHECK: return %[[OUT]]
func.func @si32_by_si64_scalar_dynamic(%a: !torch.vtensor<[?,3],si32>, %b: !torch.vtensor<[],si64>) -> !torch.vtensor<[?,3],si32> {
  %str = torch.constant.str "floor"
  %r = torch.aten.div.Tensor_mode %a, %b, %str : !torch.vtensor<[?,3],si32>, !torch.vtensor<[],si64>, !torch.str -> !torch.vtensor<[?,3],si32>
  return %r : !torch.vtensor<[?,3],si32>
}

// -----

// torch.floor_divide broadcasting [2,1] against [3]: the result's shape for the full-size values, b's for its sign.
// CHECK-LABEL: func.func @floor_divide_broadcast
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[2,1],si64>, %[[B:.+]]: !torch.vtensor<[3],si64>)
// CHECK: %[[Q:.+]] = torch.aten.div.Tensor_mode %[[A]], %[[B]], %{{.+}} : {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK: torch.aten.lt.Scalar %[[B]], %{{.+}} : !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor<[3],i1>
// CHECK: %[[OUT:.+]] = torch.aten.where.self {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK-NOT: torch.aten.floor_divide
// CHECK: return %[[OUT]]
func.func @floor_divide_broadcast(%a: !torch.vtensor<[2,1],si64>, %b: !torch.vtensor<[3],si64>) -> !torch.vtensor<[2,3],si64> {
  %r = torch.aten.floor_divide %a, %b : !torch.vtensor<[2,1],si64>, !torch.vtensor<[3],si64> -> !torch.vtensor<[2,3],si64>
  return %r : !torch.vtensor<[2,3],si64>
}

// -----

// The scalar forms take the scalar as a 0-d si64 tensor.
// CHECK-LABEL: func.func @scalar_forms
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[5],si64>)
// CHECK: %[[S:.+]] = torch.constant.int -7
// CHECK: %[[T:.+]] = torch.prim.NumToTensor.Scalar %[[S]] : !torch.int -> !torch.vtensor<[],si64>
// CHECK: torch.aten.div.Tensor_mode %[[A]], %[[T]], %{{.+}} : {{.*}} -> !torch.vtensor<[5],si64>
// CHECK: %[[X:.+]] = torch.aten.where.self
// CHECK: %[[T2:.+]] = torch.prim.NumToTensor.Scalar %[[S]] : !torch.int -> !torch.vtensor<[],si64>
// CHECK: torch.aten.div.Tensor_mode %[[X]], %[[T2]], %{{.+}} : {{.*}} -> !torch.vtensor<[5],si64>
// CHECK: %[[Y:.+]] = torch.aten.where.self
// CHECK-NOT: torch.aten.floor_divide.Scalar
// CHECK-NOT: torch.aten.div.Scalar_mode
// CHECK: return %[[Y]]
func.func @scalar_forms(%a: !torch.vtensor<[5],si64>) -> !torch.vtensor<[5],si64> {
  %s = torch.constant.int -7
  %floor = torch.constant.str "floor"
  %x = torch.aten.div.Scalar_mode %a, %s, %floor : !torch.vtensor<[5],si64>, !torch.int, !torch.str -> !torch.vtensor<[5],si64>
  %y = torch.aten.floor_divide.Scalar %x, %s : !torch.vtensor<[5],si64>, !torch.int -> !torch.vtensor<[5],si64>
  return %y : !torch.vtensor<[5],si64>
}

// -----

// Negative: the "trunc" mode, which torch-mlir lowers to arith.divsi (right).
// WHY: div_floor_in_integers: no match on 'torch.aten.div.Tensor_mode' at {{.*}}: rounding mode 'trunc': only 'floor' goes through f32
// CHECK-LABEL: func.func @no_trunc_mode
// CHECK-NEXT: torch.constant.str "trunc"
// CHECK-NEXT: torch.aten.div.Tensor_mode
// CHECK-NEXT: return
func.func @no_trunc_mode(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %str = torch.constant.str "trunc"
  %r = torch.aten.div.Tensor_mode %a, %b, %str : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>, !torch.str -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// Negative: a mode that is not a constant.
// WHY: div_floor_in_integers: no match on 'torch.aten.div.Tensor_mode' at {{.*}}: rounding mode None: only 'floor' goes through f32
// CHECK-LABEL: func.func @no_mode_not_constant
// CHECK: torch.aten.div.Tensor_mode
// CHECK-NEXT: return
func.func @no_mode_not_constant(%a: !torch.vtensor<[4],si64>, %b: !torch.vtensor<[4],si64>, %mode: !torch.str) -> !torch.vtensor<[4],si64> {
  %r = torch.aten.div.Tensor_mode %a, %b, %mode : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>, !torch.str -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// Negative: an si16 result, every quotient of which f32 holds exactly (stock is right and vectorizes).
// WHY: floor_divide_in_integers: no match on 'torch.aten.floor_divide' at {{.*}}: a si16 result: f32 holds every such quotient exactly (only si32, si64 are rewritten)
// CHECK-LABEL: func.func @no_si16
// CHECK-NEXT: torch.aten.floor_divide
// CHECK-NEXT: return
func.func @no_si16(%a: !torch.vtensor<[4],si16>, %b: !torch.vtensor<[4],si16>) -> !torch.vtensor<[4],si16> {
  %r = torch.aten.floor_divide %a, %b : !torch.vtensor<[4],si16>, !torch.vtensor<[4],si16> -> !torch.vtensor<[4],si16>
  return %r : !torch.vtensor<[4],si16>
}

// -----

// Negative: a float division (floor of a true float quotient is what torch computes there).
// WHY: floor_divide_in_integers: no match on 'torch.aten.floor_divide' at {{.*}}: a f32 result: f32 holds every such quotient exactly (only si32, si64 are rewritten)
// CHECK-LABEL: func.func @no_float
// CHECK-NEXT: torch.aten.floor_divide
// CHECK-NEXT: return
func.func @no_float(%a: !torch.vtensor<[4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.floor_divide %a, %b : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a float scalar divisor makes the quotient a float.
// WHY: floor_divide_scalar_in_integers: no match on 'torch.aten.floor_divide.Scalar' at {{.*}}: a !torch.float divisor: only an integer scalar keeps the division integral
// CHECK-LABEL: func.func @no_float_scalar
// CHECK: torch.aten.floor_divide.Scalar
// CHECK-NEXT: return
func.func @no_float_scalar(%a: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %s = torch.constant.float 2.500000e+00
  %r = torch.aten.floor_divide.Scalar %a, %s : !torch.vtensor<[4],si64>, !torch.float -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// Negative: an unranked operand (its dtype is unknown).
// WHY: floor_divide_in_integers: no match on 'torch.aten.floor_divide' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK-NEXT: torch.aten.floor_divide
func.func @no_unranked(%a: !torch.vtensor, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %r = torch.aten.floor_divide %a, %b : !torch.vtensor, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// Negative: si32 by si64 (1-d) typed si32, where torch computes in si64.
// WHY: floor_divide_in_integers: no match on 'torch.aten.floor_divide' at {{.*}}: the result's dtype si32 is not torch's promotion of si32 and si64
// CHECK-LABEL: func.func @no_result_not_promotion
// CHECK-NEXT: torch.aten.floor_divide
func.func @no_result_not_promotion(%a: !torch.vtensor<[4],si32>, %b: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si32> {
  %r = torch.aten.floor_divide %a, %b : !torch.vtensor<[4],si32>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}
