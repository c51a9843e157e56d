// RUN: opt-py %s --split-input-file -p torch-clamp-convert-input | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-clamp-convert-input --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch-mlir's ElementwiseClampIntToFloatModule_basic: si64 clamped to [-2.5, 2.5] is f32. The input converted
// to f32 (dtype code 6) first, then the same clamp.
// CHECK-LABEL: func.func @clamp_int_to_float
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?],si64>)
// CHECK-DAG: %[[LO:.+]] = torch.constant.float -2.5
// CHECK-DAG: %[[HI:.+]] = torch.constant.float 2.5
// CHECK: %[[XF:.+]] = torch.prims.convert_element_type %[[X]], %int6{{(_[0-9]+)?}} : !torch.vtensor<[?,?],si64>, !torch.int -> !torch.vtensor<[?,?],f32>
// CHECK: %[[R:.+]] = torch.aten.clamp %[[XF]], %[[LO]], %[[HI]] : !torch.vtensor<[?,?],f32>, !torch.float, !torch.float -> !torch.vtensor<[?,?],f32>
// CHECK: return %[[R]]
func.func @clamp_int_to_float(%x: !torch.vtensor<[?,?],si64>) -> !torch.vtensor<[?,?],f32> {
  %lo = torch.constant.float -2.5
  %hi = torch.constant.float 2.5
  %r = torch.aten.clamp %x, %lo, %hi : !torch.vtensor<[?,?],si64>, !torch.float, !torch.float -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----

// clamp_min and clamp_max with a float bound, and a bool clamped by an int (si64, code 4).
// CHECK-LABEL: func.func @clamp_min_max_bool
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[4],si32>, %[[B:.+]]: !torch.vtensor<[4],ui8>, %[[C:.+]]: !torch.vtensor<[4],i1>)
// CHECK: %[[AF:.+]] = torch.prims.convert_element_type %[[A]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],f32>
// CHECK: torch.aten.clamp_min %[[AF]], %{{.+}} : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
// CHECK: %[[BF:.+]] = torch.prims.convert_element_type %[[B]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],f32>
// CHECK: torch.aten.clamp_max %[[BF]], %{{.+}} : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
// CHECK: %[[CI:.+]] = torch.prims.convert_element_type %[[C]], %int4{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: torch.aten.clamp %[[CI]], %{{.+}}, %{{.+}} : !torch.vtensor<[4],si64>, !torch.int, !torch.none -> !torch.vtensor<[4],si64>
func.func @clamp_min_max_bool(%a: !torch.vtensor<[4],si32>, %b: !torch.vtensor<[4],ui8>, %c: !torch.vtensor<[4],i1>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>) {
  %f = torch.constant.float 1.5
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.aten.clamp_min %a, %f : !torch.vtensor<[4],si32>, !torch.float -> !torch.vtensor<[4],f32>
  %1 = torch.aten.clamp_max %b, %f : !torch.vtensor<[4],ui8>, !torch.float -> !torch.vtensor<[4],f32>
  %2 = torch.aten.clamp %c, %int0, %none : !torch.vtensor<[4],i1>, !torch.int, !torch.none -> !torch.vtensor<[4],si64>
  return %0, %1, %2 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],si64>
}

// -----

// Tensor bounds: an si64 input and an f32 bound (clamp.Tensor, clamp_min.Tensor); an si32 input and a 0-d si64
// bound stay si32 (a 0-d bound of the same category does not promote: nothing to do there).
// CHECK-LABEL: func.func @clamp_tensor_bounds
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,3],si64>, %[[M:.+]]: !torch.vtensor<[1],f32>, %[[Y:.+]]: !torch.vtensor<[3],si32>, %[[Z:.+]]: !torch.vtensor<[],si64>)
// CHECK: %[[XF:.+]] = torch.prims.convert_element_type %[[X]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.clamp.Tensor %[[XF]], %[[M]], %{{.+}} : !torch.vtensor<[2,3],f32>, !torch.vtensor<[1],f32>, !torch.none -> !torch.vtensor<[2,3],f32>
// CHECK: %[[XF2:.+]] = torch.prims.convert_element_type %[[X]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.clamp_min.Tensor %[[XF2]], %[[M]] : !torch.vtensor<[2,3],f32>, !torch.vtensor<[1],f32> -> !torch.vtensor<[2,3],f32>
// CHECK: torch.aten.clamp.Tensor %[[Y]], %[[Z]], %{{.+}} : !torch.vtensor<[3],si32>, !torch.vtensor<[],si64>, !torch.none -> !torch.vtensor<[3],si32>
func.func @clamp_tensor_bounds(%x: !torch.vtensor<[2,3],si64>, %m: !torch.vtensor<[1],f32>, %y: !torch.vtensor<[3],si32>, %z: !torch.vtensor<[],si64>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],si32>) {
  %none = torch.constant.none
  %0 = torch.aten.clamp.Tensor %x, %m, %none : !torch.vtensor<[2,3],si64>, !torch.vtensor<[1],f32>, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.clamp_min.Tensor %x, %m : !torch.vtensor<[2,3],si64>, !torch.vtensor<[1],f32> -> !torch.vtensor<[2,3],f32>
  %2 = torch.aten.clamp.Tensor %y, %z, %none : !torch.vtensor<[3],si32>, !torch.vtensor<[],si64>, !torch.none -> !torch.vtensor<[3],si32>
  return %0, %1, %2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],si32>
}

// -----

// Negative: the input already of the result's dtype (every clamp stock lowers).
// WHY: convert_clamp_input: no match on 'torch.aten.clamp' at {{.*}}: the input is already f32, the result's dtype
// CHECK-LABEL: func.func @no_same_dtype
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: torch.aten.clamp %arg0
func.func @no_same_dtype(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %f = torch.constant.float 1.5
  %none = torch.constant.none
  %r = torch.aten.clamp %x, %f, %none : !torch.vtensor<[4],f32>, !torch.float, !torch.none -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked input.
// WHY: convert_clamp_min_input: no match on 'torch.aten.clamp_min' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK-NOT: torch.prims.convert_element_type
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[4],f32> {
  %f = torch.constant.float 1.5
  %r = torch.aten.clamp_min %x, %f : !torch.vtensor, !torch.float -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a dtype outside torch_ir's table.
// WHY: convert_clamp_input: no match on 'torch.aten.clamp' at {{.*}}: ui16 -> f32: a dtype outside torch_ir's table
// CHECK-LABEL: func.func @no_unknown_dtype
// CHECK-NOT: torch.prims.convert_element_type
func.func @no_unknown_dtype(%x: !torch.vtensor<[4],ui16>) -> !torch.vtensor<[4],f32> {
  %f = torch.constant.float 1.5
  %none = torch.constant.none
  %r = torch.aten.clamp %x, %f, %none : !torch.vtensor<[4],ui16>, !torch.float, !torch.none -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a result dtype scalars cannot give (an int bound keeps an si32 input si32).
// WHY: convert_clamp_input: no match on 'torch.aten.clamp' at {{.*}}: the result's dtype f32 is not torch's for a si32 input
// CHECK-LABEL: func.func @no_scalar_promotion
// CHECK-NOT: torch.prims.convert_element_type
func.func @no_scalar_promotion(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.aten.clamp %x, %int1, %none : !torch.vtensor<[4],si32>, !torch.int, !torch.none -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a scalar bound that is neither an int nor a float.
// WHY: convert_clamp_max_input: no match on 'torch.aten.clamp_max' at {{.*}}: a bound that is not a !torch.int nor a !torch.float
// CHECK-LABEL: func.func @no_number_bound
// CHECK-NOT: torch.prims.convert_element_type
func.func @no_number_bound(%x: !torch.vtensor<[4],si32>, %n: !torch.number) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.clamp_max %x, %n : !torch.vtensor<[4],si32>, !torch.number -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a result dtype that is not the promotion of the tensors (si64 and f16 give f16, not f32).
// WHY: convert_clamp_tensor_input: no match on 'torch.aten.clamp.Tensor' at {{.*}}: the result's dtype f32 is not torch's f16
// CHECK-LABEL: func.func @no_tensor_promotion
// CHECK-NOT: torch.prims.convert_element_type
func.func @no_tensor_promotion(%x: !torch.vtensor<[4],si64>, %m: !torch.vtensor<[4],f16>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %r = torch.aten.clamp.Tensor %x, %m, %none : !torch.vtensor<[4],si64>, !torch.vtensor<[4],f16>, !torch.none -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked bound tensor.
// WHY: convert_clamp_min_tensor_input: no match on 'torch.aten.clamp_min.Tensor' at {{.*}}: a bound is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_bound
// CHECK-NOT: torch.prims.convert_element_type
func.func @no_unranked_bound(%x: !torch.vtensor<[4],si64>, %m: !torch.vtensor) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.clamp_min.Tensor %x, %m : !torch.vtensor<[4],si64>, !torch.vtensor -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}
