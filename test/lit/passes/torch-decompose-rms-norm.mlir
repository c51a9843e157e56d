// RUN: opt-py %s --split-input-file -p torch-decompose-rms-norm | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-rms-norm --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// f32 over the last 2 dims, a dynamic weight: x * rsqrt(mean(x^2, [1,2], keepdim) + eps) * w, cast to the result.
// CHECK-LABEL: func.func @rms_f32
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,?,?],f32>, %[[W:.+]]: !torch.vtensor<[?,?],f32>)
// CHECK-NOT: torch.prims.convert_element_type
// CHECK: %[[SQ:.+]] = torch.aten.mul.Tensor %[[X]], %[[X]] : {{.*}} -> !torch.vtensor<[2,?,?],f32>
// CHECK: %[[DIMS:.+]] = torch.prim.ListConstruct %int1, %int2 :
// CHECK: %[[MEAN:.+]] = torch.aten.mean.dim %[[SQ]], %[[DIMS]], %true, %none : {{.*}} -> !torch.vtensor<[2,1,1],f32>
// CHECK: %[[EPS:.+]] = torch.constant.float 5.000000e-01
// CHECK: %[[ADD:.+]] = torch.aten.add.Scalar %[[MEAN]], %[[EPS]], %{{.+}} : {{.*}} -> !torch.vtensor<[2,1,1],f32>
// CHECK: %[[RS:.+]] = torch.aten.rsqrt %[[ADD]] : {{.*}} -> !torch.vtensor<[2,1,1],f32>
// CHECK: %[[N:.+]] = torch.aten.mul.Tensor %[[X]], %[[RS]] : {{.*}} -> !torch.vtensor<[2,?,?],f32>
// CHECK: %[[Y:.+]] = torch.aten.mul.Tensor %[[N]], %[[W]] : {{.*}} -> !torch.vtensor<[2,?,?],f32>
// CHECK: %[[R:.+]] = torch.tensor_static_info_cast %[[Y]] : !torch.vtensor<[2,?,?],f32> to !torch.vtensor<[2,3,4],f32>
// CHECK-NOT: torch.aten.rms_norm
// CHECK: return %[[R]]
func.func @rms_f32(%x: !torch.vtensor<[2,?,?],f32>, %w: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int3, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %eps = torch.constant.float 5.000000e-01
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<[2,?,?],f32>, !torch.list<int>, !torch.vtensor<[?,?],f32>, !torch.float -> !torch.vtensor<[2,3,4],f32>
  return %r : !torch.vtensor<[2,3,4],f32>
}

// -----

// bf16 with eps None: computed in f32 (code 6) with f32's epsilon 2^-23, rounded to bf16 (code 15), then times w.
// CHECK-LABEL: func.func @rms_bf16_no_eps
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,8],bf16>, %[[W:.+]]: !torch.vtensor<[?],bf16>)
// CHECK: %[[XF:.+]] = torch.prims.convert_element_type %[[X]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK: torch.aten.mean.dim {{.*}} -> !torch.vtensor<[?,1],f32>
// CHECK: %[[EPS:.+]] = torch.constant.float 1.1920928955078125E-7
// CHECK: torch.aten.add.Scalar %{{.+}}, %[[EPS]]
// CHECK: %[[N:.+]] = torch.aten.mul.Tensor %[[XF]], %{{.+}} : {{.*}} -> !torch.vtensor<[?,8],f32>
// CHECK: %[[NB:.+]] = torch.prims.convert_element_type %[[N]], %int15{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,8],bf16>
// CHECK: %[[R:.+]] = torch.aten.mul.Tensor %[[NB]], %[[W]] : {{.*}} -> !torch.vtensor<[?,8],bf16>
// CHECK: return %[[R]]
func.func @rms_bf16_no_eps(%x: !torch.vtensor<[?,8],bf16>, %w: !torch.vtensor<[?],bf16>) -> !torch.vtensor<[?,8],bf16> {
  %int8 = torch.constant.int 8
  %shape = torch.prim.ListConstruct %int8 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.aten.rms_norm %x, %shape, %w, %none : !torch.vtensor<[?,8],bf16>, !torch.list<int>, !torch.vtensor<[?],bf16>, !torch.none -> !torch.vtensor<[?,8],bf16>
  return %r : !torch.vtensor<[?,8],bf16>
}

// -----

// WHY: a weight of static shape (torch-mlir decomposes it)
// CHECK-LABEL: func.func @static_weight
// CHECK: torch.aten.rms_norm
func.func @static_weight(%x: !torch.vtensor<[?,4],f32>, %w: !torch.vtensor<[4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %eps = torch.constant.float 1.000000e-05
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<[?,4],f32>, !torch.list<int>, !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// WHY: a None weight (torch-mlir decomposes it)
// CHECK-LABEL: func.func @no_weight
// CHECK: torch.aten.rms_norm
func.func @no_weight(%x: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,?],f32> {
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %eps = torch.constant.float 1.000000e-05
  %r = torch.aten.rms_norm %x, %shape, %none, %eps : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.none, !torch.float -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----

// WHY: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @unranked
// CHECK: torch.aten.rms_norm
func.func @unranked(%x: !torch.vtensor<*,f32>, %w: !torch.vtensor<[?],f32>) -> !torch.vtensor<*,f32> {
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %eps = torch.constant.float 1.000000e-05
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<*,f32>, !torch.list<int>, !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<*,f32>
  return %r : !torch.vtensor<*,f32>
}

// -----

// WHY: a normalized_shape that is not a list of constant ints
// CHECK-LABEL: func.func @shape_not_constant
// CHECK: torch.aten.rms_norm
func.func @shape_not_constant(%x: !torch.vtensor<[?,?],f32>, %w: !torch.vtensor<[?],f32>, %n: !torch.int) -> !torch.vtensor<[?,?],f32> {
  %shape = torch.prim.ListConstruct %n : (!torch.int) -> !torch.list<int>
  %eps = torch.constant.float 1.000000e-05
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----

// WHY: a normalized_shape of 2 dims for an input of rank 2 and a weight of 1
// CHECK-LABEL: func.func @weight_rank
// CHECK: torch.aten.rms_norm
func.func @weight_rank(%x: !torch.vtensor<[?,?],f32>, %w: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?],f32> {
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int4, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %eps = torch.constant.float 1.000000e-05
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----

// WHY: an eps that is neither a constant number nor None
// CHECK-LABEL: func.func @eps_not_constant
// CHECK: torch.aten.rms_norm
func.func @eps_not_constant(%x: !torch.vtensor<[?,?],f32>, %w: !torch.vtensor<[?],f32>, %eps: !torch.float) -> !torch.vtensor<[?,?],f32> {
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<[?,?],f32>, !torch.list<int>, !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----

// WHY: a si32 input: not f16, bf16, f32 nor f64
// CHECK-LABEL: func.func @int_input
// CHECK: torch.aten.rms_norm
func.func @int_input(%x: !torch.vtensor<[?,?],si32>, %w: !torch.vtensor<[?],si32>) -> !torch.vtensor<[?,?],si32> {
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %eps = torch.constant.float 1.000000e-05
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<[?,?],si32>, !torch.list<int>, !torch.vtensor<[?],si32>, !torch.float -> !torch.vtensor<[?,?],si32>
  return %r : !torch.vtensor<[?,?],si32>
}

// -----

// WHY: input f16, weight f32 and result f32: not one dtype and rank
// CHECK-LABEL: func.func @mixed_dtypes
// CHECK: torch.aten.rms_norm
func.func @mixed_dtypes(%x: !torch.vtensor<[?,?],f16>, %w: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?],f32> {
  %int4 = torch.constant.int 4
  %shape = torch.prim.ListConstruct %int4 : (!torch.int) -> !torch.list<int>
  %eps = torch.constant.float 1.000000e-05
  %r = torch.aten.rms_norm %x, %shape, %w, %eps : !torch.vtensor<[?,?],f16>, !torch.list<int>, !torch.vtensor<[?],f32>, !torch.float -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}
