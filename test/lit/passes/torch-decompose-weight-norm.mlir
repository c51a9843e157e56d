// RUN: opt-py %s --split-input-file -p torch-decompose-weight-norm | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-weight-norm --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// wav2vec2's positional convolution: _weight_norm(v [32,16,16], g [1,1,16], dim 2): the 2-norm over dims 0 and
// 1, kept ([1,1,16]), g divided by it, v times that.
// CHECK-LABEL: func.func @wav2vec2_conv
// CHECK-SAME: (%[[V:.+]]: !torch.vtensor<[32,16,16],f32>, %[[G:.+]]: !torch.vtensor<[1,1,16],f32>)
// CHECK: %[[DIMS:.+]] = torch.prim.ListConstruct %int0{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} :
// CHECK: %[[NORM:.+]] = torch.aten.linalg_vector_norm %[[V]], %int2{{(_[0-9]+)?}}, %[[DIMS]], %true{{(_[0-9]+)?}}, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[1,1,16],f32>
// CHECK: %[[SCALE:.+]] = torch.aten.div.Tensor %[[G]], %[[NORM]] : {{.*}} -> !torch.vtensor<[1,1,16],f32>
// CHECK: %[[W:.+]] = torch.aten.mul.Tensor %[[V]], %[[SCALE]] : {{.*}} -> !torch.vtensor<[32,16,16],f32>
// CHECK-NOT: torch.operator
// CHECK: return %[[W]]
func.func @wav2vec2_conv(%v: !torch.vtensor<[32,16,16],f32>, %g: !torch.vtensor<[1,1,16],f32>) -> !torch.vtensor<[32,16,16],f32> {
  %dim = torch.constant.int 2
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor<[32,16,16],f32>, !torch.vtensor<[1,1,16],f32>, !torch.int) -> !torch.vtensor<[32,16,16],f32>
  return %w : !torch.vtensor<[32,16,16],f32>
}

// -----

// weight_norm(dim=None): dim -1, a 0-d g, the norm over every dim.
// CHECK-LABEL: func.func @all_dims
// CHECK: %[[DIMS:.+]] = torch.prim.ListConstruct %int0{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} :
// CHECK: torch.aten.linalg_vector_norm %{{.+}}, %int2{{(_[0-9]+)?}}, %[[DIMS]], {{.*}} -> !torch.vtensor<[1,1],f64>
// CHECK: torch.aten.div.Tensor {{.*}} : !torch.vtensor<[],f64>, !torch.vtensor<[1,1],f64> -> !torch.vtensor<[1,1],f64>
func.func @all_dims(%v: !torch.vtensor<[4,5],f64>, %g: !torch.vtensor<[],f64>) -> !torch.vtensor<[4,5],f64> {
  %dim = torch.constant.int -1
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor<[4,5],f64>, !torch.vtensor<[],f64>, !torch.int) -> !torch.vtensor<[4,5],f64>
  return %w : !torch.vtensor<[4,5],f64>
}

// -----

// _weight_norm_interface returns the norm as well, typed as g (torch-mlir's decomposition types it as v).
// CHECK-LABEL: func.func @interface
// CHECK: %[[NORM:.+]] = torch.aten.linalg_vector_norm {{.*}} -> !torch.vtensor<[1,1,?],f32>
// CHECK: %[[W:.+]] = torch.aten.mul.Tensor {{.*}} -> !torch.vtensor<[?,?,?],f32>
// CHECK-NOT: torch.aten._weight_norm_interface
// CHECK: return %[[W]], %[[NORM]]
func.func @interface(%v: !torch.vtensor<[?,?,?],f32>, %g: !torch.vtensor<[1,1,?],f32>) -> (!torch.vtensor<[?,?,?],f32>, !torch.vtensor<[1,1,?],f32>) {
  %dim = torch.constant.int 2
  %w, %n = torch.aten._weight_norm_interface %v, %g, %dim : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[1,1,?],f32>, !torch.int -> !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[1,1,?],f32>
  return %w, %n : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[1,1,?],f32>
}

// -----

// Negative: another torch.operator.
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: not torch.aten._weight_norm
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.aten.something_else"
func.func @no_other_operator(%v: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %w = torch.operator "torch.aten.something_else"(%v) : (!torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32>
  return %w : !torch.vtensor<[4],f32>
}

// -----

// Negative: not (v, g, dim).
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: not _weight_norm(v, g, dim) -> its results
// CHECK-LABEL: func.func @no_two_operands
// CHECK: torch.operator "torch.aten._weight_norm"
func.func @no_two_operands(%v: !torch.vtensor<[4,5],f32>, %g: !torch.vtensor<[4,1],f32>) -> !torch.vtensor<[4,5],f32> {
  %w = torch.operator "torch.aten._weight_norm"(%v, %g) : (!torch.vtensor<[4,5],f32>, !torch.vtensor<[4,1],f32>) -> !torch.vtensor<[4,5],f32>
  return %w : !torch.vtensor<[4,5],f32>
}

// -----

// Negative: an unranked v.
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: v, g or a result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.operator "torch.aten._weight_norm"
func.func @no_unranked(%v: !torch.vtensor, %g: !torch.vtensor<[4,1],f32>) -> !torch.vtensor<[4,5],f32> {
  %dim = torch.constant.int 0
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor, !torch.vtensor<[4,1],f32>, !torch.int) -> !torch.vtensor<[4,5],f32>
  return %w : !torch.vtensor<[4,5],f32>
}

// -----

// Negative: dim not a constant.
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: dim is not a torch.constant.int
// CHECK-LABEL: func.func @no_runtime_dim
// CHECK: torch.operator "torch.aten._weight_norm"
func.func @no_runtime_dim(%v: !torch.vtensor<[4,5],f32>, %g: !torch.vtensor<[4,1],f32>, %dim: !torch.int) -> !torch.vtensor<[4,5],f32> {
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor<[4,5],f32>, !torch.vtensor<[4,1],f32>, !torch.int) -> !torch.vtensor<[4,5],f32>
  return %w : !torch.vtensor<[4,5],f32>
}

// -----

// Negative: a dim past v's rank.
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: dim 2: neither -1 (all dims) nor a dim of a rank-2 v
// CHECK-LABEL: func.func @no_dim_out_of_range
// CHECK: torch.operator "torch.aten._weight_norm"
func.func @no_dim_out_of_range(%v: !torch.vtensor<[4,5],f32>, %g: !torch.vtensor<[4,1],f32>) -> !torch.vtensor<[4,5],f32> {
  %dim = torch.constant.int 2
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor<[4,5],f32>, !torch.vtensor<[4,1],f32>, !torch.int) -> !torch.vtensor<[4,5],f32>
  return %w : !torch.vtensor<[4,5],f32>
}

// -----

// Negative: f16 (torch computes the composite in f16).
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: v f16, g f16, result f16: not one dtype of f32 and f64
// CHECK-LABEL: func.func @no_f16
// CHECK: torch.operator "torch.aten._weight_norm"
func.func @no_f16(%v: !torch.vtensor<[4,5],f16>, %g: !torch.vtensor<[4,1],f16>) -> !torch.vtensor<[4,5],f16> {
  %dim = torch.constant.int 0
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor<[4,5],f16>, !torch.vtensor<[4,1],f16>, !torch.int) -> !torch.vtensor<[4,5],f16>
  return %w : !torch.vtensor<[4,5],f16>
}

// -----

// Negative: a g of another rank than v.
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: g of rank 1, v of rank 2
// CHECK-LABEL: func.func @no_g_rank_mismatch
// CHECK: torch.operator "torch.aten._weight_norm"
func.func @no_g_rank_mismatch(%v: !torch.vtensor<[4,5],f32>, %g: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4,5],f32> {
  %dim = torch.constant.int 0
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor<[4,5],f32>, !torch.vtensor<[4],f32>, !torch.int) -> !torch.vtensor<[4,5],f32>
  return %w : !torch.vtensor<[4,5],f32>
}

// -----

// Negative: a result typed otherwise than v.
// WHY: decompose_weight_norm: no match on 'torch.operator' at {{.*}}: the result !torch.vtensor<[5,4],f32> is not typed as v
// CHECK-LABEL: func.func @no_result_mismatch
// CHECK: torch.operator "torch.aten._weight_norm"
func.func @no_result_mismatch(%v: !torch.vtensor<[4,5],f32>, %g: !torch.vtensor<[4,1],f32>) -> !torch.vtensor<[5,4],f32> {
  %dim = torch.constant.int 0
  %w = torch.operator "torch.aten._weight_norm"(%v, %g, %dim) : (!torch.vtensor<[4,5],f32>, !torch.vtensor<[4,1],f32>, !torch.int) -> !torch.vtensor<[5,4],f32>
  return %w : !torch.vtensor<[5,4],f32>
}

// -----

// Negative: the interface with dim -1.
// WHY: decompose_weight_norm_interface: no match on 'torch.aten._weight_norm_interface' at {{.*}}: dim -1 in _weight_norm_interface (torch's fused kernel takes the first or last dim)
// CHECK-LABEL: func.func @no_interface_all_dims
// CHECK: torch.aten._weight_norm_interface
func.func @no_interface_all_dims(%v: !torch.vtensor<[4,5],f32>, %g: !torch.vtensor<[1,1],f32>) -> !torch.vtensor<[4,5],f32> {
  %dim = torch.constant.int -1
  %w, %n = torch.aten._weight_norm_interface %v, %g, %dim : !torch.vtensor<[4,5],f32>, !torch.vtensor<[1,1],f32>, !torch.int -> !torch.vtensor<[4,5],f32>, !torch.vtensor<[1,1],f32>
  return %w : !torch.vtensor<[4,5],f32>
}

// -----

// Negative: the interface's norm typed as v (what torch-mlir's own decomposition would make of it).
// WHY: decompose_weight_norm_interface: no match on 'torch.aten._weight_norm_interface' at {{.*}}: the norm is not typed as !torch.vtensor<[4,1],f32>
// CHECK-LABEL: func.func @no_interface_norm_mismatch
// CHECK: torch.aten._weight_norm_interface
func.func @no_interface_norm_mismatch(%v: !torch.vtensor<[4,5],f32>, %g: !torch.vtensor<[4,1],f32>) -> !torch.vtensor<[4,5],f32> {
  %dim = torch.constant.int 0
  %w, %n = torch.aten._weight_norm_interface %v, %g, %dim : !torch.vtensor<[4,5],f32>, !torch.vtensor<[4,1],f32>, !torch.int -> !torch.vtensor<[4,5],f32>, !torch.vtensor<[4,5],f32>
  return %w : !torch.vtensor<[4,5],f32>
}
