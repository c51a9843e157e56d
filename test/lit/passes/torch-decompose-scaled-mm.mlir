// RUN: opt-py %s --split-input-file -p torch-decompose-scaled-mm | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-scaled-mm --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Tensor-wise scales, out_dtype bf16 (code 15): each operand to f32 (code 6) times its scale, an f32 mm, bf16.
// CHECK-LABEL: func.func @tensorwise_bf16
// CHECK-SAME: (%[[A:.+]]: !torch.vtensor<[16,32],f8E4M3FN>, %[[B:.+]]: !torch.vtensor<[32,16],f8E4M3FN>, %[[SA:.+]]: !torch.vtensor<[],f32>, %[[SB:.+]]: !torch.vtensor<[],f32>)
// CHECK: %[[AF:.+]] = torch.prims.convert_element_type %[[A]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[16,32],f32>
// CHECK: %[[AS:.+]] = torch.aten.mul.Tensor %[[AF]], %[[SA]] : {{.*}} -> !torch.vtensor<[16,32],f32>
// CHECK: %[[BF:.+]] = torch.prims.convert_element_type %[[B]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[32,16],f32>
// CHECK: %[[BS:.+]] = torch.aten.mul.Tensor %[[BF]], %[[SB]] :
// CHECK: %[[MM:.+]] = torch.aten.mm %[[AS]], %[[BS]] : {{.*}} -> !torch.vtensor<[16,16],f32>
// CHECK: %[[R:.+]] = torch.prims.convert_element_type %[[MM]], %int15{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[16,16],bf16>
// CHECK-NOT: torch.aten._scaled_mm
// CHECK: return %[[R]]
func.func @tensorwise_bf16(%a: !torch.vtensor<[16,32],f8E4M3FN>, %b: !torch.vtensor<[32,16],f8E4M3FN>, %sa: !torch.vtensor<[],f32>, %sb: !torch.vtensor<[],f32>) -> !torch.vtensor<[16,16],bf16> {
  %none = torch.constant.none
  %dt = torch.constant.int 15
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %none, %none, %dt, %false : !torch.vtensor<[16,32],f8E4M3FN>, !torch.vtensor<[32,16],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[16,16],bf16>
  return %r : !torch.vtensor<[16,16],bf16>
}

// -----

// Row-wise scales ([M,1], [1,N]) with a bf16 bias (added to the f32 product), bf16 out; a dynamic M.
// CHECK-LABEL: func.func @rowwise_bias
// CHECK-SAME: %[[BIAS:[^:]+]]: !torch.vtensor<[16],bf16>
// CHECK: %[[MM:.+]] = torch.aten.mm {{.*}} -> !torch.vtensor<[?,16],f32>
// CHECK: %[[SUM:.+]] = torch.aten.add.Tensor %[[MM]], %[[BIAS]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,16],f32>
// CHECK: %[[R:.+]] = torch.prims.convert_element_type %[[SUM]], %int15{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,16],bf16>
// CHECK: return %[[R]]
func.func @rowwise_bias(%a: !torch.vtensor<[?,32],f8E5M2>, %b: !torch.vtensor<[32,16],f8E5M2>, %sa: !torch.vtensor<[?,1],f32>, %sb: !torch.vtensor<[1,16],f32>, %bias: !torch.vtensor<[16],bf16>) -> !torch.vtensor<[?,16],bf16> {
  %none = torch.constant.none
  %dt = torch.constant.int 15
  %true = torch.constant.bool true
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %bias, %none, %dt, %true : !torch.vtensor<[?,32],f8E5M2>, !torch.vtensor<[32,16],f8E5M2>, !torch.vtensor<[?,1],f32>, !torch.vtensor<[1,16],f32>, !torch.vtensor<[16],bf16>, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[?,16],bf16>
  return %r : !torch.vtensor<[?,16],bf16>
}

// -----

// Negative: block scales (e8m0; torch's CPU kernel raises).
// WHY: decompose_scaled_mm: no match on 'torch.aten._scaled_mm' at {{.*}}: scale_a is not an f32 ranked !torch.vtensor
// CHECK-LABEL: func.func @no_block_scales
// CHECK: torch.aten._scaled_mm
func.func @no_block_scales(%a: !torch.vtensor<[3,32],f8E4M3FN>, %b: !torch.vtensor<[32,64],f8E4M3FN>, %sa: !torch.vtensor<[512],f8E8M0FNU>, %sb: !torch.vtensor<[512],f8E8M0FNU>) -> !torch.vtensor<[3,64],bf16> {
  %none = torch.constant.none
  %dt = torch.constant.int 15
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %none, %none, %dt, %false : !torch.vtensor<[3,32],f8E4M3FN>, !torch.vtensor<[32,64],f8E4M3FN>, !torch.vtensor<[512],f8E8M0FNU>, !torch.vtensor<[512],f8E8M0FNU>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[3,64],bf16>
  return %r : !torch.vtensor<[3,64],bf16>
}

// -----

// Negative: f32 block scales ([M, K/128] and [K/128, N]).
// WHY: decompose_scaled_mm: no match on 'torch.aten._scaled_mm' at {{.*}}: scale_a !torch.vtensor<[16,2],f32> is neither tensor-wise nor row-wise (block scales: torch's CPU kernel raises)
// CHECK-LABEL: func.func @no_f32_block_scales
// CHECK: torch.aten._scaled_mm
func.func @no_f32_block_scales(%a: !torch.vtensor<[16,256],f8E4M3FN>, %b: !torch.vtensor<[256,16],f8E4M3FN>, %sa: !torch.vtensor<[16,2],f32>, %sb: !torch.vtensor<[2,16],f32>) -> !torch.vtensor<[16,16],f32> {
  %none = torch.constant.none
  %dt = torch.constant.int 6
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %none, %none, %dt, %false : !torch.vtensor<[16,256],f8E4M3FN>, !torch.vtensor<[256,16],f8E4M3FN>, !torch.vtensor<[16,2],f32>, !torch.vtensor<[2,16],f32>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[16,16],f32>
  return %r : !torch.vtensor<[16,16],f32>
}

// -----

// Negative: a scale_result (fp8 outputs).
// WHY: decompose_scaled_mm: no match on 'torch.aten._scaled_mm' at {{.*}}: a scale_result (fp8 outputs)
// CHECK-LABEL: func.func @no_scale_result
// CHECK: torch.aten._scaled_mm
func.func @no_scale_result(%a: !torch.vtensor<[16,32],f8E4M3FN>, %b: !torch.vtensor<[32,16],f8E4M3FN>, %sa: !torch.vtensor<[],f32>, %sb: !torch.vtensor<[],f32>, %sr: !torch.vtensor<[],f32>) -> !torch.vtensor<[16,16],f8E4M3FN> {
  %none = torch.constant.none
  %dt = torch.constant.int 24
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %none, %sr, %dt, %false : !torch.vtensor<[16,32],f8E4M3FN>, !torch.vtensor<[32,16],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.none, !torch.vtensor<[],f32>, !torch.int, !torch.bool -> !torch.vtensor<[16,16],f8E4M3FN>
  return %r : !torch.vtensor<[16,16],f8E4M3FN>
}

// -----

// Negative: out_dtype None (the result keeps the fp8 dtype).
// WHY: decompose_scaled_mm: no match on 'torch.aten._scaled_mm' at {{.*}}: out_dtype is not a constant f32, f16 or bf16
// CHECK-LABEL: func.func @no_fp8_out
// CHECK: torch.aten._scaled_mm
func.func @no_fp8_out(%a: !torch.vtensor<[16,32],f8E4M3FN>, %b: !torch.vtensor<[32,16],f8E4M3FN>, %sa: !torch.vtensor<[],f32>, %sb: !torch.vtensor<[],f32>) -> !torch.vtensor<[16,16],f8E4M3FN> {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %none, %none, %none, %false : !torch.vtensor<[16,32],f8E4M3FN>, !torch.vtensor<[32,16],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.none, !torch.none, !torch.none, !torch.bool -> !torch.vtensor<[16,16],f8E4M3FN>
  return %r : !torch.vtensor<[16,16],f8E4M3FN>
}

// -----

// Negative: an unranked operand.
// WHY: decompose_scaled_mm: no match on 'torch.aten._scaled_mm' at {{.*}}: a or b is not a 2-d fp8 ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_operand
// CHECK: torch.aten._scaled_mm
func.func @no_unranked_operand(%a: !torch.vtensor, %b: !torch.vtensor<[32,16],f8E4M3FN>, %sa: !torch.vtensor<[],f32>, %sb: !torch.vtensor<[],f32>) -> !torch.vtensor<[16,16],f32> {
  %none = torch.constant.none
  %dt = torch.constant.int 6
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %none, %none, %dt, %false : !torch.vtensor, !torch.vtensor<[32,16],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[16,16],f32>
  return %r : !torch.vtensor<[16,16],f32>
}

// -----

// Negative: a bias that is not [N] (N dynamic in b, 16 in the result; torch-mlir's verifier reads b).
// WHY: decompose_scaled_mm: no match on 'torch.aten._scaled_mm' at {{.*}}: a bias !torch.vtensor<[8],bf16> that is not [N]
// CHECK-LABEL: func.func @no_bias_mismatch
// CHECK: torch.aten._scaled_mm
func.func @no_bias_mismatch(%a: !torch.vtensor<[16,32],f8E4M3FN>, %b: !torch.vtensor<[32,?],f8E4M3FN>, %sa: !torch.vtensor<[],f32>, %sb: !torch.vtensor<[],f32>, %bias: !torch.vtensor<[8],bf16>) -> !torch.vtensor<[16,16],bf16> {
  %none = torch.constant.none
  %dt = torch.constant.int 15
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %bias, %none, %dt, %false : !torch.vtensor<[16,32],f8E4M3FN>, !torch.vtensor<[32,?],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.vtensor<[8],bf16>, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[16,16],bf16>
  return %r : !torch.vtensor<[16,16],bf16>
}

// -----

// Negative: a result typed with another dtype than out_dtype.
// WHY: decompose_scaled_mm: no match on 'torch.aten._scaled_mm' at {{.*}}: the result is not [M, N] of f32
// CHECK-LABEL: func.func @no_result_mismatch
// CHECK: torch.aten._scaled_mm
func.func @no_result_mismatch(%a: !torch.vtensor<[16,32],f8E4M3FN>, %b: !torch.vtensor<[32,16],f8E4M3FN>, %sa: !torch.vtensor<[],f32>, %sb: !torch.vtensor<[],f32>) -> !torch.vtensor<[16,16],f16> {
  %none = torch.constant.none
  %dt = torch.constant.int 6
  %false = torch.constant.bool false
  %r = torch.aten._scaled_mm %a, %b, %sa, %sb, %none, %none, %dt, %false : !torch.vtensor<[16,32],f8E4M3FN>, !torch.vtensor<[32,16],f8E4M3FN>, !torch.vtensor<[],f32>, !torch.vtensor<[],f32>, !torch.none, !torch.none, !torch.int, !torch.bool -> !torch.vtensor<[16,16],f16>
  return %r : !torch.vtensor<[16,16],f16>
}
