// RUN: opt-py %s --split-input-file -p torch-clip-as-clamp | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-clip-as-clamp --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch-mlir's IouOfModule_basic: an overlap clipped at 0 from below. The same operands, as aten.clamp.
// CHECK-LABEL: func.func @clip_min
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,2],f32>)
// CHECK-DAG: %[[ZERO:.+]] = torch.constant.int 0
// CHECK-DAG: %[[NONE:.+]] = torch.constant.none
// CHECK: %[[R:.+]] = torch.aten.clamp %[[X]], %[[ZERO]], %[[NONE]] : !torch.vtensor<[?,2],f32>, !torch.int, !torch.none -> !torch.vtensor<[?,2],f32>
// CHECK-NOT: torch.operator
// CHECK: return %[[R]]
func.func @clip_min(%x: !torch.vtensor<[?,2],f32>) -> !torch.vtensor<[?,2],f32> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.clip"(%x, %int0, %none) : (!torch.vtensor<[?,2],f32>, !torch.int, !torch.none) -> !torch.vtensor<[?,2],f32>
  return %r : !torch.vtensor<[?,2],f32>
}

// -----

// Float bounds on an integer tensor: the result type as torch promoted it, kept.
// CHECK-LABEL: func.func @clip_float_bounds
// CHECK: torch.aten.clamp %{{.+}}, %{{.+}}, %{{.+}} : !torch.vtensor<[4],si64>, !torch.float, !torch.float -> !torch.vtensor<[4],f32>
// CHECK-NOT: torch.operator
func.func @clip_float_bounds(%x: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32> {
  %lo = torch.constant.float -2.5
  %hi = torch.constant.float 2.5
  %r = torch.operator "torch.aten.clip"(%x, %lo, %hi) : (!torch.vtensor<[4],si64>, !torch.float, !torch.float) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// clip.Tensor: tensor bounds (one left out), as aten.clamp.Tensor.
// CHECK-LABEL: func.func @clip_tensor
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[3,4],f32>, %[[HI:.+]]: !torch.vtensor<[1,4],f32>)
// CHECK: %[[NONE:.+]] = torch.constant.none
// CHECK: %[[R:.+]] = torch.aten.clamp.Tensor %[[X]], %[[NONE]], %[[HI]] : !torch.vtensor<[3,4],f32>, !torch.none, !torch.vtensor<[1,4],f32> -> !torch.vtensor<[3,4],f32>
// CHECK-NOT: torch.operator
// CHECK: return %[[R]]
func.func @clip_tensor(%x: !torch.vtensor<[3,4],f32>, %hi: !torch.vtensor<[1,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %none = torch.constant.none
  %r = torch.operator "torch.aten.clip.Tensor"(%x, %none, %hi) : (!torch.vtensor<[3,4],f32>, !torch.none, !torch.vtensor<[1,4],f32>) -> !torch.vtensor<[3,4],f32>
  return %r : !torch.vtensor<[3,4],f32>
}

// -----

// Negative: another torch.operator.
// WHY: clip_as_clamp: no match on 'torch.operator' at {{.*}}: not torch.aten.clip nor torch.aten.clip.Tensor
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.aten.clamp_"
func.func @no_other_operator(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.clamp_"(%x, %int0, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.none) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: not (self, min, max) -> tensor.
// WHY: clip_as_clamp: no match on 'torch.operator' at {{.*}}: not (self, min, max) -> tensor
// CHECK-LABEL: func.func @no_two_operands
// CHECK: torch.operator "torch.aten.clip"
func.func @no_two_operands(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %r = torch.operator "torch.aten.clip"(%x, %int0) : (!torch.vtensor<[4],f32>, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked input.
// WHY: clip_as_clamp: no match on 'torch.operator' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.operator "torch.aten.clip"
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.clip"(%x, %int0, %none) : (!torch.vtensor, !torch.int, !torch.none) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: both bounds none (torch raises).
// WHY: clip_as_clamp: no match on 'torch.operator' at {{.*}}: both bounds are none (torch raises)
// CHECK-LABEL: func.func @no_bounds
// CHECK: torch.operator "torch.aten.clip"
func.func @no_bounds(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %r = torch.operator "torch.aten.clip"(%x, %none, %none) : (!torch.vtensor<[4],f32>, !torch.none, !torch.none) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a tensor bound under the scalar overload's name (not clamp's operands).
// WHY: clip_as_clamp: no match on 'torch.operator' at {{.*}}: a bound of type !torch.vtensor<[1],f32>: not one torch.aten.clip takes
// CHECK-LABEL: func.func @no_tensor_bound_of_clip
// CHECK: torch.operator "torch.aten.clip"
func.func @no_tensor_bound_of_clip(%x: !torch.vtensor<[4],f32>, %lo: !torch.vtensor<[1],f32>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %r = torch.operator "torch.aten.clip"(%x, %lo, %none) : (!torch.vtensor<[4],f32>, !torch.vtensor<[1],f32>, !torch.none) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: a scalar bound under clip.Tensor's name.
// WHY: clip_as_clamp: no match on 'torch.operator' at {{.*}}: a bound of type !torch.float: not one torch.aten.clip.Tensor takes
// CHECK-LABEL: func.func @no_scalar_bound_of_clip_tensor
// CHECK: torch.operator "torch.aten.clip.Tensor"
func.func @no_scalar_bound_of_clip_tensor(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %lo = torch.constant.float 0.5
  %none = torch.constant.none
  %r = torch.operator "torch.aten.clip.Tensor"(%x, %lo, %none) : (!torch.vtensor<[4],f32>, !torch.float, !torch.none) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}
