// RUN: opt-py %s --split-input-file -p torch-decompose-grouped-mm | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-grouped-mm --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// transformers' fallback for f32 weights, as Mixtral's experts call it: rows sorted by expert, S dynamic.
// Python's slice bounds on the offsets (negative ends wrap by S, then clamped to [0, S]), each group starting
// where the previous ends; each row's 1 + last group holding it (0: none) as the max of [S, E] tags; the
// group's [K, M] matrix gathered per row, a [S, 1, K] x [S, K, M] bmm, rows of no group set to 0.
// CHECK-LABEL: func.func @fallback_dynamic_rows
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,64],f32>, %[[W:.+]]: !torch.vtensor<[4,64,256],f32>, %[[OFFS:.+]]: !torch.vtensor<[4],si32>)
// CHECK: %[[S:.+]] = torch.aten.size.int %[[X]], %int0{{(_[0-9]+)?}} :
// CHECK: %[[O64:.+]] = torch.prims.convert_element_type %[[OFFS]], %int4{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[NEG:.+]] = torch.aten.lt.Scalar %[[O64]], %int0{{(_[0-9]+)?}} :
// CHECK: %[[WRAP:.+]] = torch.aten.add.Scalar %[[O64]], %[[S]], %int1{{(_[0-9]+)?}} :
// CHECK: %[[SEL:.+]] = torch.aten.where.self %[[NEG]], %[[WRAP]], %[[O64]] :
// CHECK: %[[ENDS:.+]] = torch.aten.clamp %[[SEL]], %int0{{(_[0-9]+)?}}, %[[S]] :
// CHECK: %[[HEAD:.+]] = torch.aten.slice.Tensor %[[ENDS]], %int0{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, %int-1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[3],si64>
// CHECK: %[[STARTS:.+]] = torch.aten.constant_pad_nd %[[HEAD]], {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[ROWS:.+]] = torch.aten.arange %[[S]], {{.*}} -> !torch.vtensor<[?],si64>
// CHECK: %[[ROW:.+]] = torch.aten.unsqueeze %[[ROWS]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,1],si64>
// CHECK: %[[GE:.+]] = torch.aten.ge.Tensor %[[ROW]], %[[STARTS]] : {{.*}} -> !torch.vtensor<[?,4],i1>
// CHECK: %[[LT:.+]] = torch.aten.lt.Tensor %[[ROW]], %[[ENDS]] : {{.*}} -> !torch.vtensor<[?,4],i1>
// CHECK: %[[IN:.+]] = torch.aten.bitwise_and.Tensor %[[GE]], %[[LT]] :
// CHECK: %[[NUMBERS:.+]] = torch.aten.arange.start %int1{{(_[0-9]+)?}}, %int5{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[IN64:.+]] = torch.prims.convert_element_type %[[IN]], %int4{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,4],si64>
// CHECK: %[[TAGS:.+]] = torch.aten.mul.Tensor %[[IN64]], %[[NUMBERS]] :
// CHECK: %[[TAG:.+]] = torch.aten.amax %[[TAGS]], {{.*}} -> !torch.vtensor<[?],si64>
// CHECK: %[[SOME:.+]] = torch.aten.gt.Scalar %[[TAG]], %int0{{(_[0-9]+)?}} :
// CHECK: %[[MINUS:.+]] = torch.aten.sub.Scalar %[[TAG]], %int1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} :
// CHECK: %[[GROUP:.+]] = torch.aten.clamp %[[MINUS]], %int0{{(_[0-9]+)?}}, %none{{(_[0-9]+)?}} :
// CHECK: %[[IDX:.+]] = torch.prim.ListConstruct %[[GROUP]] :
// CHECK: %[[WR:.+]] = torch.aten.index.Tensor %[[W]], %[[IDX]] : {{.*}} -> !torch.vtensor<[?,64,256],f32>
// CHECK: %[[XR:.+]] = torch.aten.unsqueeze %[[X]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,1,64],f32>
// CHECK: %[[MM:.+]] = torch.aten.bmm %[[XR]], %[[WR]] : {{.*}} -> !torch.vtensor<[?,1,256],f32>
// CHECK: %[[Y:.+]] = torch.aten.squeeze.dim %[[MM]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,256],f32>
// CHECK: %[[SOMECOL:.+]] = torch.aten.unsqueeze %[[SOME]], %int1{{(_[0-9]+)?}} :
// CHECK: %[[OUT:.+]] = torch.aten.where.ScalarOther %[[SOMECOL]], %[[Y]], %float0.000000e00{{(_[0-9]+)?}} :
// CHECK-NOT: torch.operator
// CHECK: return %[[OUT]]
func.func @fallback_dynamic_rows(%x: !torch.vtensor<[?,64],f32>, %w: !torch.vtensor<[4,64,256],f32>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,256],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,64],f32>, !torch.vtensor<[4,64,256],f32>, !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,256],f32>
  return %r : !torch.vtensor<[?,256],f32>
}

// -----

// Static S (6, a constant) and si64 offsets (no conversion), f16; a result typed [?, 5] is cast.
// CHECK-LABEL: func.func @fallback_static_rows_si64_offsets
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[6,8],f16>, %[[W:.+]]: !torch.vtensor<[3,8,5],f16>, %[[OFFS:.+]]: !torch.vtensor<[3],si64>)
// CHECK-NOT: torch.aten.size.int
// CHECK-NOT: torch.prims.convert_element_type %[[OFFS]]
// CHECK: torch.aten.lt.Scalar %[[OFFS]], %int0{{(_[0-9]+)?}} :
// CHECK: torch.aten.arange %int6{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[6],si64>
// CHECK: torch.aten.bmm {{.*}} -> !torch.vtensor<[6,1,5],f16>
// CHECK: %[[OUT:.+]] = torch.aten.where.ScalarOther {{.*}} -> !torch.vtensor<[6,5],f16>
// CHECK: %[[C:.+]] = torch.tensor_static_info_cast %[[OUT]] : !torch.vtensor<[6,5],f16> to !torch.vtensor<[?,5],f16>
// CHECK: return %[[C]]
func.func @fallback_static_rows_si64_offsets(%x: !torch.vtensor<[6,8],f16>, %w: !torch.vtensor<[3,8,5],f16>, %offs: !torch.vtensor<[3],si64>) -> !torch.vtensor<[?,5],f16> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[6,8],f16>, !torch.vtensor<[3,8,5],f16>, !torch.vtensor<[3],si64>) -> !torch.vtensor<[?,5],f16>
  return %r : !torch.vtensor<[?,5],f16>
}

// -----

// torch.nn.functional.grouped_mm, what transformers calls for bf16 weights: aten._grouped_mm(x, w, offs,
// bias=None, out_dtype=None). A dynamic number of groups: arange(1, E + 1) from the offsets' size.
// CHECK-LABEL: func.func @aten_grouped_mm_dynamic_groups
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,8],bf16>, %[[W:.+]]: !torch.vtensor<[?,8,5],bf16>, %[[OFFS:.+]]: !torch.vtensor<[?],si32>)
// CHECK: torch.aten.slice.Tensor {{.*}} -> !torch.vtensor<[?],si64>
// CHECK: %[[E:.+]] = torch.aten.size.int %[[OFFS]], %int0{{(_[0-9]+)?}} :
// CHECK: %[[E1:.+]] = torch.aten.add.int %[[E]], %int1{{(_[0-9]+)?}} :
// CHECK: torch.aten.arange.start %int1{{(_[0-9]+)?}}, %[[E1]], {{.*}} -> !torch.vtensor<[?],si64>
// CHECK: torch.aten.index.Tensor %[[W]], {{.*}} -> !torch.vtensor<[?,8,5],bf16>
// CHECK: torch.aten.bmm {{.*}} -> !torch.vtensor<[?,1,5],bf16>
// CHECK-NOT: torch.operator
func.func @aten_grouped_mm_dynamic_groups(%x: !torch.vtensor<[?,8],bf16>, %w: !torch.vtensor<[?,8,5],bf16>, %offs: !torch.vtensor<[?],si32>) -> !torch.vtensor<[?,5],bf16> {
  %none = torch.constant.none
  %r = torch.operator "torch.aten._grouped_mm"(%x, %w, %offs, %none, %none) : (!torch.vtensor<[?,8],bf16>, !torch.vtensor<[?,8,5],bf16>, !torch.vtensor<[?],si32>, !torch.none, !torch.none) -> !torch.vtensor<[?,5],bf16>
  return %r : !torch.vtensor<[?,5],bf16>
}

// -----

// aten._grouped_mm with out_dtype the input's own (bf16, code 15): the same computation.
// CHECK-LABEL: func.func @aten_grouped_mm_out_dtype_same
// CHECK: torch.aten.bmm
// CHECK-NOT: torch.operator
func.func @aten_grouped_mm_out_dtype_same(%x: !torch.vtensor<[?,8],bf16>, %w: !torch.vtensor<[2,8,5],bf16>, %offs: !torch.vtensor<[2],si32>) -> !torch.vtensor<[?,5],bf16> {
  %none = torch.constant.none
  %int15 = torch.constant.int 15
  %r = torch.operator "torch.aten._grouped_mm"(%x, %w, %offs, %none, %int15) : (!torch.vtensor<[?,8],bf16>, !torch.vtensor<[2,8,5],bf16>, !torch.vtensor<[2],si32>, !torch.none, !torch.int) -> !torch.vtensor<[?,5],bf16>
  return %r : !torch.vtensor<[?,5],bf16>
}

// -----

// Negative: a bias (torch raises: not supported).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: a bias (torch raises: not supported)
// CHECK-LABEL: func.func @no_bias
// CHECK: torch.operator "torch.aten._grouped_mm"
func.func @no_bias(%x: !torch.vtensor<[?,8],bf16>, %w: !torch.vtensor<[4,8,5],bf16>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],bf16> {
  %none = torch.constant.none
  %bias = torch.vtensor.literal(dense<0.0> : tensor<4x5xbf16>) : !torch.vtensor<[4,5],bf16>
  %r = torch.operator "torch.aten._grouped_mm"(%x, %w, %offs, %bias, %none) : (!torch.vtensor<[?,8],bf16>, !torch.vtensor<[4,8,5],bf16>, !torch.vtensor<[4],si32>, !torch.vtensor<[4,5],bf16>, !torch.none) -> !torch.vtensor<[?,5],bf16>
  return %r : !torch.vtensor<[?,5],bf16>
}

// -----

// Negative: an f32 out_dtype for bf16 operands (torch raises).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: an out_dtype that is not a constant equal to the input's dtype (torch raises)
// CHECK-LABEL: func.func @no_out_dtype_f32
// CHECK: torch.operator "torch.aten._grouped_mm"
func.func @no_out_dtype_f32(%x: !torch.vtensor<[?,8],bf16>, %w: !torch.vtensor<[4,8,5],bf16>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f32> {
  %none = torch.constant.none
  %int6 = torch.constant.int 6
  %r = torch.operator "torch.aten._grouped_mm"(%x, %w, %offs, %none, %int6) : (!torch.vtensor<[?,8],bf16>, !torch.vtensor<[4,8,5],bf16>, !torch.vtensor<[4],si32>, !torch.none, !torch.int) -> !torch.vtensor<[?,5],f32>
  return %r : !torch.vtensor<[?,5],f32>
}

// -----

// Negative: a 3-d input (a batched form, not what MoE layers call).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: ranks 3, 3, 1 -> 3: only [S, K] x [E, K, M] by [E] -> [S, M]
// CHECK-LABEL: func.func @no_3d_input
// CHECK: torch.operator "torch.aten._grouped_mm"
func.func @no_3d_input(%x: !torch.vtensor<[4,3,8],bf16>, %w: !torch.vtensor<[4,8,5],bf16>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4,3,5],bf16> {
  %none = torch.constant.none
  %r = torch.operator "torch.aten._grouped_mm"(%x, %w, %offs, %none, %none) : (!torch.vtensor<[4,3,8],bf16>, !torch.vtensor<[4,8,5],bf16>, !torch.vtensor<[4],si32>, !torch.none, !torch.none) -> !torch.vtensor<[4,3,5],bf16>
  return %r : !torch.vtensor<[4,3,5],bf16>
}

// -----

// Negative: si64 offsets for aten._grouped_mm (torch raises).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: si64 offsets (torch takes si32)
// CHECK-LABEL: func.func @no_si64_offsets_for_aten
// CHECK: torch.operator "torch.aten._grouped_mm"
func.func @no_si64_offsets_for_aten(%x: !torch.vtensor<[?,8],bf16>, %w: !torch.vtensor<[4,8,5],bf16>, %offs: !torch.vtensor<[4],si64>) -> !torch.vtensor<[?,5],bf16> {
  %none = torch.constant.none
  %r = torch.operator "torch.aten._grouped_mm"(%x, %w, %offs, %none, %none) : (!torch.vtensor<[?,8],bf16>, !torch.vtensor<[4,8,5],bf16>, !torch.vtensor<[4],si64>, !torch.none, !torch.none) -> !torch.vtensor<[?,5],bf16>
  return %r : !torch.vtensor<[?,5],bf16>
}

// -----

// Negative: integer operands.
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: input si32, weight si32, result si32: not one of f16, bf16, f32, f64
// CHECK-LABEL: func.func @no_integer_dtype
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_integer_dtype(%x: !torch.vtensor<[?,8],si32>, %w: !torch.vtensor<[4,8,5],si32>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],si32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,8],si32>, !torch.vtensor<[4,8,5],si32>, !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],si32>
  return %r : !torch.vtensor<[?,5],si32>
}

// -----

// Negative: an f32 input with f16 weights (torch.mm raises).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: input f32, weight f16, result f32: not one of f16, bf16, f32, f64
// CHECK-LABEL: func.func @no_mixed_dtypes
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_mixed_dtypes(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,8,5],f16>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,5],f16>, !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f32>
  return %r : !torch.vtensor<[?,5],f32>
}

// -----

// Negative: f64 operands for aten._grouped_mm (torch raises: f32, bf16 or f16 only).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: input f64, weight f64, result f64: not one of f32, bf16, f16
// CHECK-LABEL: func.func @no_f64_for_aten
// CHECK: torch.operator "torch.aten._grouped_mm"
func.func @no_f64_for_aten(%x: !torch.vtensor<[?,8],f64>, %w: !torch.vtensor<[4,8,5],f64>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f64> {
  %none = torch.constant.none
  %r = torch.operator "torch.aten._grouped_mm"(%x, %w, %offs, %none, %none) : (!torch.vtensor<[?,8],f64>, !torch.vtensor<[4,8,5],f64>, !torch.vtensor<[4],si32>, !torch.none, !torch.none) -> !torch.vtensor<[?,5],f64>
  return %r : !torch.vtensor<[?,5],f64>
}

// -----

// Negative: f32 offsets (torch takes si32 or si64).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: f32 offsets (torch takes si32 or si64)
// CHECK-LABEL: func.func @no_float_offsets
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_float_offsets(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,8,5],f32>, %offs: !torch.vtensor<[4],f32>) -> !torch.vtensor<[?,5],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,5],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor<[?,5],f32>
  return %r : !torch.vtensor<[?,5],f32>
}

// -----

// Negative: K 8 against 7.
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: input [?,8] and weight [4,7,5] disagree on K
// CHECK-LABEL: func.func @no_k_mismatch
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_k_mismatch(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,7,5],f32>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,7,5],f32>, !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f32>
  return %r : !torch.vtensor<[?,5],f32>
}

// -----

// Negative: 3 offsets for 4 groups.
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: offsets [3] and weight [4,8,5] disagree on the number of groups
// CHECK-LABEL: func.func @no_groups_mismatch
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_groups_mismatch(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,8,5],f32>, %offs: !torch.vtensor<[3],si32>) -> !torch.vtensor<[?,5],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,5],f32>, !torch.vtensor<[3],si32>) -> !torch.vtensor<[?,5],f32>
  return %r : !torch.vtensor<[?,5],f32>
}

// -----

// Negative: a result of 6 columns where M = 5.
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: the result [?,6] is not [S, M] of input [?,8] and weight [4,8,5]
// CHECK-LABEL: func.func @no_result_other_m
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_result_other_m(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,8,5],f32>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,6],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,5],f32>, !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,6],f32>
  return %r : !torch.vtensor<[?,6],f32>
}

// -----

// Negative: an unranked input.
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_unranked(%x: !torch.vtensor, %w: !torch.vtensor<[4,8,5],f32>, %offs: !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w, %offs) : (!torch.vtensor, !torch.vtensor<[4,8,5],f32>, !torch.vtensor<[4],si32>) -> !torch.vtensor<[?,5],f32>
  return %r : !torch.vtensor<[?,5],f32>
}

// -----

// Negative: the fallback with an operand missing.
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: not (input, weight, offs) -> tensor
// CHECK-LABEL: func.func @no_two_operands
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback"
func.func @no_two_operands(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,8,5],f32>) -> !torch.vtensor<[?,5],f32> {
  %r = torch.operator "torch.transformers.grouped_mm_fallback"(%x, %w) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,5],f32>) -> !torch.vtensor<[?,5],f32>
  return %r : !torch.vtensor<[?,5],f32>
}

// -----

// Negative: another operator (transformers' backward twin).
// WHY: decompose_grouped_mm: no match on 'torch.operator' at {{.*}}: not torch.transformers.grouped_mm_fallback nor torch.aten._grouped_mm
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.transformers.grouped_mm_fallback_backward"
func.func @no_other_operator(%x: !torch.vtensor<[?,8],f32>, %w: !torch.vtensor<[4,8,5],f32>, %offs: !torch.vtensor<[4],si32>, %g: !torch.vtensor<[?,5],f32>) -> !torch.vtensor<[?,8],f32> {
  %r:2 = torch.operator "torch.transformers.grouped_mm_fallback_backward"(%x, %w, %offs, %g) : (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,5],f32>, !torch.vtensor<[4],si32>, !torch.vtensor<[?,5],f32>) -> (!torch.vtensor<[?,8],f32>, !torch.vtensor<[4,8,5],f32>)
  return %r#0 : !torch.vtensor<[?,8],f32>
}
