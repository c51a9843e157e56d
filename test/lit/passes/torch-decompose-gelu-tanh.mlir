// RUN: opt-py %s --split-input-file -p torch-decompose-gelu-tanh | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-gelu-tanh --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Gemma2's MLP: gelu(x, "tanh") on f32 over a dynamic sequence, written out in torch's order:
// 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x*x*x))), sqrt(2/pi) as the f64 the lowering rounds.
// CHECK-LABEL: func.func @tanh_f32
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[1,?,128],f32>)
// CHECK-DAG: %[[ONE:.+]] = torch.constant.int 1
// CHECK-DAG: %[[KAPPA:.+]] = torch.constant.float 4.471500e-02
// CHECK-DAG: %[[BETA:.+]] = torch.constant.float 0.79788456080286541
// CHECK-DAG: %[[FONE:.+]] = torch.constant.float 1.000000e+00
// CHECK-DAG: %[[HALF:.+]] = torch.constant.float 5.000000e-01
// CHECK: %[[SQ:.+]] = torch.aten.mul.Tensor %[[X]], %[[X]] :
// CHECK: %[[CUBE:.+]] = torch.aten.mul.Tensor %[[SQ]], %[[X]] :
// CHECK: %[[SCALED:.+]] = torch.aten.mul.Scalar %[[CUBE]], %[[KAPPA]] :
// CHECK: %[[SUM:.+]] = torch.aten.add.Tensor %[[X]], %[[SCALED]], %[[ONE]] :
// CHECK: %[[INNER:.+]] = torch.aten.mul.Scalar %[[SUM]], %[[BETA]] :
// CHECK: %[[TANH:.+]] = torch.aten.tanh %[[INNER]] :
// CHECK: %[[RIGHT:.+]] = torch.aten.add.Scalar %[[TANH]], %[[FONE]], %[[ONE]] :
// CHECK: %[[LEFT:.+]] = torch.aten.mul.Scalar %[[X]], %[[HALF]] :
// CHECK: %[[R:.+]] = torch.aten.mul.Tensor %[[LEFT]], %[[RIGHT]] : !torch.vtensor<[1,?,128],f32>, !torch.vtensor<[1,?,128],f32> -> !torch.vtensor<[1,?,128],f32>
// CHECK-NOT: torch.aten.gelu
// CHECK: return %[[R]]
func.func @tanh_f32(%x: !torch.vtensor<[1,?,128],f32>) -> !torch.vtensor<[1,?,128],f32> {
  %str = torch.constant.str "tanh"
  %r = torch.aten.gelu %x, %str : !torch.vtensor<[1,?,128],f32>, !torch.str -> !torch.vtensor<[1,?,128],f32>
  return %r : !torch.vtensor<[1,?,128],f32>
}

// -----

// f64, and a result more static than the input: computed in the input's type, then cast to the result's.
// CHECK-LABEL: func.func @tanh_f64_static_result
// CHECK: torch.constant.float 0.79788456080286541
// CHECK: torch.aten.tanh %{{.+}} : !torch.vtensor<[?],f64> -> !torch.vtensor<[?],f64>
// CHECK: %[[R:.+]] = torch.aten.mul.Tensor %{{.+}}, %{{.+}} : !torch.vtensor<[?],f64>, !torch.vtensor<[?],f64> -> !torch.vtensor<[?],f64>
// CHECK: %[[C:.+]] = torch.tensor_static_info_cast %[[R]] : !torch.vtensor<[?],f64> to !torch.vtensor<[5],f64>
// CHECK-NOT: torch.aten.gelu
// CHECK: return %[[C]]
func.func @tanh_f64_static_result(%x: !torch.vtensor<[?],f64>) -> !torch.vtensor<[5],f64> {
  %str = torch.constant.str "tanh"
  %r = torch.aten.gelu %x, %str : !torch.vtensor<[?],f64>, !torch.str -> !torch.vtensor<[5],f64>
  return %r : !torch.vtensor<[5],f64>
}

// -----

// Negative: the exact GELU (BERT, ViT): torch-mlir lowers it with erf, as torch computes it.
// WHY: decompose_gelu_tanh: no match on 'torch.aten.gelu' at {{.*}}: approximate is "none", not "tanh"
// CHECK-LABEL: func.func @no_exact_gelu
// CHECK: torch.aten.gelu
func.func @no_exact_gelu(%x: !torch.vtensor<[2,?,128],f32>) -> !torch.vtensor<[2,?,128],f32> {
  %str = torch.constant.str "none"
  %r = torch.aten.gelu %x, %str : !torch.vtensor<[2,?,128],f32>, !torch.str -> !torch.vtensor<[2,?,128],f32>
  return %r : !torch.vtensor<[2,?,128],f32>
}

// -----

// Negative: approximate not a constant (which form it is is not known).
// WHY: decompose_gelu_tanh: no match on 'torch.aten.gelu' at {{.*}}: approximate is not a torch.constant.str
// CHECK-LABEL: func.func @no_approximate_not_constant
// CHECK: torch.aten.gelu
func.func @no_approximate_not_constant(%x: !torch.vtensor<[4],f32>, %s: !torch.str) -> !torch.vtensor<[4],f32> {
  %r = torch.aten.gelu %x, %s : !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: f16 (torch computes f16 and bf16 in f32 and rounds once; in f16 every step would round).
// WHY: decompose_gelu_tanh: no match on 'torch.aten.gelu' at {{.*}}: a f16 input: torch computes in x's dtype only for f32, f64
// CHECK-LABEL: func.func @no_half
// CHECK: torch.aten.gelu
func.func @no_half(%x: !torch.vtensor<[4],f16>) -> !torch.vtensor<[4],f16> {
  %str = torch.constant.str "tanh"
  %r = torch.aten.gelu %x, %str : !torch.vtensor<[4],f16>, !torch.str -> !torch.vtensor<[4],f16>
  return %r : !torch.vtensor<[4],f16>
}

// -----

// Negative: bf16, as f16.
// WHY: decompose_gelu_tanh: no match on 'torch.aten.gelu' at {{.*}}: a bf16 input: torch computes in x's dtype only for f32, f64
// CHECK-LABEL: func.func @no_bfloat
// CHECK: torch.aten.gelu
func.func @no_bfloat(%x: !torch.vtensor<[4],bf16>) -> !torch.vtensor<[4],bf16> {
  %str = torch.constant.str "tanh"
  %r = torch.aten.gelu %x, %str : !torch.vtensor<[4],bf16>, !torch.str -> !torch.vtensor<[4],bf16>
  return %r : !torch.vtensor<[4],bf16>
}

// -----

// Negative: an unranked input (its dtype is unknown).
// WHY: decompose_gelu_tanh: no match on 'torch.aten.gelu' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.gelu
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor {
  %str = torch.constant.str "tanh"
  %r = torch.aten.gelu %x, %str : !torch.vtensor, !torch.str -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// Negative: a result of another dtype than the input's (not what torch gives).
// WHY: decompose_gelu_tanh: no match on 'torch.aten.gelu' at {{.*}}: the result's type is not the input's
// CHECK-LABEL: func.func @no_result_of_other_dtype
// CHECK: torch.aten.gelu
func.func @no_result_of_other_dtype(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f64> {
  %str = torch.constant.str "tanh"
  %r = torch.aten.gelu %x, %str : !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[4],f64>
  return %r : !torch.vtensor<[4],f64>
}
