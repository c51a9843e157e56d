// RUN: opt-py %s --split-input-file -p torch-decompose-histc | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-histc --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// transformers' grouped experts: histc(expert_ids.float(), bins=E, min=0, max=E - 1) over a dynamic count.
// In range where 0 <= x <= 3 (NaN never), elements outside replaced by min; the bin trunc(((x - 0) * 4) / 3)
// in f32, at most 3; one-hot against arange(4), masked, summed over the elements in f32.
// CHECK-LABEL: func.func @tokens_per_expert
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?],f32>)
// CHECK: %[[LO:.+]] = torch.constant.float 0.000000e+00
// CHECK: %[[GE:.+]] = torch.aten.ge.Scalar %[[X]], %[[LO]] : {{.*}} -> !torch.vtensor<[?],i1>
// CHECK: %[[HI:.+]] = torch.constant.float 3.000000e+00
// CHECK: %[[LE:.+]] = torch.aten.le.Scalar %[[X]], %[[HI]] : {{.*}} -> !torch.vtensor<[?],i1>
// CHECK: %[[IN:.+]] = torch.aten.bitwise_and.Tensor %[[GE]], %[[LE]] :
// CHECK: %[[CLEAN:.+]] = torch.aten.where.ScalarOther %[[IN]], %[[X]], %[[LO]] :
// CHECK: %[[SHIFT:.+]] = torch.aten.sub.Scalar %[[CLEAN]], %[[LO]], %int1{{(_[0-9]+)?}} :
// CHECK: %[[SCALE:.+]] = torch.aten.mul.Scalar %[[SHIFT]], %float4.000000e00{{(_[0-9]+)?}} :
// CHECK: %[[RATIO:.+]] = torch.aten.div.Scalar %[[SCALE]], %float3.000000e00{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: %[[POS:.+]] = torch.prims.convert_element_type %[[RATIO]], %int4{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?],si64>
// CHECK: %[[BIN:.+]] = torch.aten.clamp %[[POS]], %none{{(_[0-9]+)?}}, %int3{{(_[0-9]+)?}} :
// CHECK: %[[COL:.+]] = torch.aten.unsqueeze %[[BIN]], %int-1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,1],si64>
// CHECK: %[[INCOL:.+]] = torch.aten.unsqueeze %[[IN]], %int-1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,1],i1>
// CHECK: %[[BINS:.+]] = torch.aten.arange %int4{{(_[0-9]+)?}}, %int4{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: %[[EQ:.+]] = torch.aten.eq.Tensor %[[COL]], %[[BINS]] : {{.*}} -> !torch.vtensor<[?,4],i1>
// CHECK: %[[HOT:.+]] = torch.aten.bitwise_and.Tensor %[[EQ]], %[[INCOL]] : {{.*}} -> !torch.vtensor<[?,4],i1>
// CHECK: %[[ONES:.+]] = torch.prims.convert_element_type %[[HOT]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,4],f32>
// CHECK: %[[DIMS:.+]] = torch.prim.ListConstruct %int0{{(_[0-9]+)?}} :
// CHECK: %[[SUM:.+]] = torch.aten.sum.dim_IntList %[[ONES]], %[[DIMS]], %false{{(_[0-9]+)?}}, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[4],f32>
// CHECK-NOT: torch.operator
// CHECK: return %[[SUM]]
func.func @tokens_per_expert(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 0
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Float bounds in a rank-2 f32 input: min and max rounded to f32 first (0.1 is 0.10000000149011612), the width
// computed in f32 (0.89999997615814208), as torch's kernel has them; the sum runs over both input dims.
// CHECK-LABEL: func.func @float_bounds_rounded_to_f32
// CHECK: torch.constant.float 0.10000000149011612
// CHECK: torch.aten.mul.Scalar %{{.+}}, %float1.000000e01{{(_[0-9]+)?}} :
// CHECK: %[[W:.+]] = torch.constant.float 0.89999997615814208
// CHECK: torch.aten.div.Scalar %{{.+}}, %[[W]] :
// CHECK: %[[DIMS:.+]] = torch.prim.ListConstruct %int0{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} :
// CHECK: torch.aten.sum.dim_IntList %{{.+}}, %[[DIMS]], {{.*}} : !torch.vtensor<[2,?,10],f32>, {{.*}} -> !torch.vtensor<[10],f32>
func.func @float_bounds_rounded_to_f32(%x: !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[10],f32> {
  %bins = torch.constant.int 10
  %lo = torch.constant.float 1.000000e-01
  %hi = torch.constant.float 1.000000e+00
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[2,?],f32>, !torch.int, !torch.float, !torch.float) -> !torch.vtensor<[10],f32>
  return %r : !torch.vtensor<[10],f32>
}

// -----

// A 0-d f64 input: its one-hot row is the histogram, no sum (sum.dim_IntList of no dims would sum them all).
// CHECK-LABEL: func.func @zero_d_f64
// CHECK: torch.aten.eq.Tensor {{.*}} -> !torch.vtensor<[3],i1>
// CHECK: %[[ONES:.+]] = torch.prims.convert_element_type %{{.+}}, %int7{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[3],f64>
// CHECK-NOT: torch.aten.sum.dim_IntList
// CHECK: return %[[ONES]]
func.func @zero_d_f64(%x: !torch.vtensor<[],f64>) -> !torch.vtensor<[3],f64> {
  %bins = torch.constant.int 3
  %lo = torch.constant.float -1.500000e+00
  %hi = torch.constant.float 2.500000e+00
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[],f64>, !torch.int, !torch.float, !torch.float) -> !torch.vtensor<[3],f64>
  return %r : !torch.vtensor<[3],f64>
}

// -----

// A result typed [?]: computed as [5], then cast.
// CHECK-LABEL: func.func @result_typed_dynamic
// CHECK: %[[SUM:.+]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[5],f32>
// CHECK: %[[C:.+]] = torch.tensor_static_info_cast %[[SUM]] : !torch.vtensor<[5],f32> to !torch.vtensor<[?],f32>
// CHECK: return %[[C]]
func.func @result_typed_dynamic(%x: !torch.vtensor<[7],f32>) -> !torch.vtensor<[?],f32> {
  %bins = torch.constant.int 5
  %lo = torch.constant.int 0
  %hi = torch.constant.int 10
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[7],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// Negative: bins is an argument, not a constant.
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: bins is not a torch.constant.int
// CHECK-LABEL: func.func @no_bins_not_constant
// CHECK: torch.operator "torch.aten.histc"
func.func @no_bins_not_constant(%x: !torch.vtensor<[?],f32>, %bins: !torch.int) -> !torch.vtensor<[4],f32> {
  %lo = torch.constant.int 0
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: min is an argument, not a constant.
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: min or max is not a torch.constant.int or torch.constant.float
// CHECK-LABEL: func.func @no_min_not_constant
// CHECK: torch.operator "torch.aten.histc"
func.func @no_min_not_constant(%x: !torch.vtensor<[?],f32>, %arg_lo: !torch.int) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %arg_lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: bins = 0 (torch raises).
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: bins = 0 (torch raises)
// CHECK-LABEL: func.func @no_zero_bins
// CHECK: torch.operator "torch.aten.histc"
func.func @no_zero_bins(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[0],f32> {
  %bins = torch.constant.int 0
  %lo = torch.constant.int 0
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[0],f32>
  return %r : !torch.vtensor<[0],f32>
}

// -----

// Negative: min == max (torch's default 0, 0): torch bins between the data's own minimum and maximum.
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: min == max: torch bins between the data's own minimum and maximum
// CHECK-LABEL: func.func @no_min_equal_to_max
// CHECK: torch.operator "torch.aten.histc"
func.func @no_min_equal_to_max(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 0
  %hi = torch.constant.int 0
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an infinite max (torch raises).
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: a bound that is not finite (torch raises)
// CHECK-LABEL: func.func @no_infinite_bound
// CHECK: torch.operator "torch.aten.histc"
func.func @no_infinite_bound(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 0
  %hi = torch.constant.float 0x7FF0000000000000
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.float) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: min > max (torch raises).
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: min > max (torch raises)
// CHECK-LABEL: func.func @no_min_above_max
// CHECK: torch.operator "torch.aten.histc"
func.func @no_min_above_max(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 3
  %hi = torch.constant.int 0
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked input.
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.operator "torch.aten.histc"
func.func @no_unranked(%x: !torch.vtensor) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 0
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an f16 input (torch's CPU kernel rounds each step and counts in f16; its CUDA kernel computes in f32).
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: a f16 input: torch's CPU kernel rounds each step and counts in f16 (inexact past 2048 or 256 a thread), its CUDA kernel computes in f32
// CHECK-LABEL: func.func @no_f16
// CHECK: torch.operator "torch.aten.histc"
func.func @no_f16(%x: !torch.vtensor<[?],f16>) -> !torch.vtensor<[4],f16> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 0
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f16>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f16>
  return %r : !torch.vtensor<[4],f16>
}

// -----

// Negative: an integer input (torch's CPU kernel raises).
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: a si64 input: torch's CPU kernel raises for integers (its CUDA kernel's arithmetic is not checked)
// CHECK-LABEL: func.func @no_integer
// CHECK: torch.operator "torch.aten.histc"
func.func @no_integer(%x: !torch.vtensor<[?],si64>) -> !torch.vtensor<[4],si64> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 0
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],si64>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// Negative: a result of 5 bins where bins = 4.
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: the result !torch.vtensor<[5],f32> is not [4] of the input's dtype
// CHECK-LABEL: func.func @no_result_other_size
// CHECK: torch.operator "torch.aten.histc"
func.func @no_result_other_size(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[5],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.int 0
  %hi = torch.constant.int 3
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[5],f32>
  return %r : !torch.vtensor<[5],f32>
}

// -----

// Negative: min < max, but both are 1.0 once rounded to f32 (torch divides by zero).
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: min and max meet once rounded to f32 (torch divides by zero)
// CHECK-LABEL: func.func @no_bounds_meet_in_f32
// CHECK: torch.operator "torch.aten.histc"
func.func @no_bounds_meet_in_f32(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.float 1.000000e+00
  %hi = torch.constant.float 1.00000001
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.float, !torch.float) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: (max - min) overflows f32 (torch's own arithmetic does).
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: (max - min) * bins overflows f32 (torch's own arithmetic does)
// CHECK-LABEL: func.func @no_width_overflows_f32
// CHECK: torch.operator "torch.aten.histc"
func.func @no_width_overflows_f32(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %bins = torch.constant.int 4
  %lo = torch.constant.float -3.000000e+38
  %hi = torch.constant.float 3.000000e+38
  %r = torch.operator "torch.aten.histc"(%x, %bins, %lo, %hi) : (!torch.vtensor<[?],f32>, !torch.int, !torch.float, !torch.float) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: another operator.
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: not torch.aten.histc
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.aten.histogram"
func.func @no_other_operator(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %int4 = torch.constant.int 4
  %r = torch.operator "torch.aten.histogram"(%x, %int4) : (!torch.vtensor<[?],f32>, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: not histc(self, bins, min, max): an operand missing.
// WHY: decompose_histc: no match on 'torch.operator' at {{.*}}: not histc(self, bins, min, max) -> tensor
// CHECK-LABEL: func.func @no_three_operands
// CHECK: torch.operator "torch.aten.histc"
func.func @no_three_operands(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[4],f32> {
  %int4 = torch.constant.int 4
  %int0 = torch.constant.int 0
  %r = torch.operator "torch.aten.histc"(%x, %int4, %int0) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}
