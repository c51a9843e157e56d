// RUN: opt-py %s --split-input-file -p torch-decompose-conv-tbc | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-conv-tbc --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// The suite's ConvTbcModule: dynamic operands, the result typed [7,4,6] (T 9, K 3, pad 0).
// The convolution is typed (B, O, T') = [4,6,7] from the result; permuted back, it is the result's type.
// CHECK-LABEL: func.func @dynamic_operands
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?,?],f32>, %[[W:.+]]: !torch.vtensor<[?,?,?],f32>, %[[B:.+]]: !torch.vtensor<[?],f32>)
// CHECK: %[[XP:.+]] = torch.prim.ListConstruct %int1{{(_[0-9]+)?}}, %int2{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}
// CHECK: %[[BCT:.+]] = torch.aten.permute %[[X]], %[[XP]] : {{.*}} -> !torch.vtensor<[?,?,?],f32>
// CHECK: %[[WP:.+]] = torch.prim.ListConstruct %int2{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}
// CHECK: %[[OCK:.+]] = torch.aten.permute %[[W]], %[[WP]] : {{.*}} -> !torch.vtensor<[?,?,?],f32>
// CHECK: %[[CONV:.+]] = torch.aten.convolution %[[BCT]], %[[OCK]], %[[B]], {{.*}} -> !torch.vtensor<[4,6,7],f32>
// CHECK: %[[RP:.+]] = torch.prim.ListConstruct %int2{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}
// CHECK: %[[R:.+]] = torch.aten.permute %[[CONV]], %[[RP]] : {{.*}} -> !torch.vtensor<[7,4,6],f32>
// CHECK-NOT: torch.aten.conv_tbc
// CHECK: return %[[R]]
func.func @dynamic_operands(%x: !torch.vtensor<[?,?,?],f32>, %w: !torch.vtensor<[?,?,?],f32>, %b: !torch.vtensor<[?],f32>) -> !torch.vtensor<[7,4,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[7,4,6],f32>
  return %r : !torch.vtensor<[7,4,6],f32>
}

// -----

// Static operands, pad 2, a result typed [?,4,6]: T' = 9 + 2 * 2 - 3 + 1 = 11 from the operands, the padding
// [2], the permuted result cast to the declared type.
// CHECK-LABEL: func.func @pad_two
// CHECK: %[[PAD:.+]] = torch.prim.ListConstruct %int2{{(_[0-9]+)?}} : (!torch.int) -> !torch.list<int>
// CHECK: %[[CONV:.+]] = torch.aten.convolution %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[PAD]], {{.*}} -> !torch.vtensor<[4,6,11],f64>
// CHECK: %[[P:.+]] = torch.aten.permute %[[CONV]], {{.*}} -> !torch.vtensor<[11,4,6],f64>
// CHECK: %[[R:.+]] = torch.tensor_static_info_cast %[[P]] : !torch.vtensor<[11,4,6],f64> to !torch.vtensor<[?,4,6],f64>
// CHECK: return %[[R]]
func.func @pad_two(%x: !torch.vtensor<[9,4,5],f64>, %w: !torch.vtensor<[3,5,6],f64>, %b: !torch.vtensor<[6],f64>) -> !torch.vtensor<[?,4,6],f64> {
  %pad = torch.constant.int 2
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[9,4,5],f64>, !torch.vtensor<[3,5,6],f64>, !torch.vtensor<[6],f64>, !torch.int -> !torch.vtensor<[?,4,6],f64>
  return %r : !torch.vtensor<[?,4,6],f64>
}

// -----

// Negative: pad is an argument.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: pad is not a torch.constant.int
// CHECK-LABEL: func.func @no_pad_not_constant
// CHECK: torch.aten.conv_tbc
func.func @no_pad_not_constant(%x: !torch.vtensor<[?,?,?],f32>, %w: !torch.vtensor<[?,?,?],f32>, %b: !torch.vtensor<[?],f32>, %pad: !torch.int) -> !torch.vtensor<[?,?,6],f32> {
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?,?,6],f32>
  return %r : !torch.vtensor<[?,?,6],f32>
}

// -----

// Negative: a negative pad.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: pad = -1 (negative)
// CHECK-LABEL: func.func @no_negative_pad
// CHECK: torch.aten.conv_tbc
func.func @no_negative_pad(%x: !torch.vtensor<[?,?,?],f32>, %w: !torch.vtensor<[?,?,?],f32>, %b: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?,6],f32> {
  %pad = torch.constant.int -1
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?,?,6],f32>
  return %r : !torch.vtensor<[?,?,6],f32>
}

// -----

// Negative: a 2-d input.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: ranks 2, 3, 1 -> 3: not (T, B, C), (K, C, O), (O) -> (T', B, O) (torch raises)
// CHECK-LABEL: func.func @no_rank
// CHECK: torch.aten.conv_tbc
func.func @no_rank(%x: !torch.vtensor<[?,?],f32>, %w: !torch.vtensor<[?,?,?],f32>, %b: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?,?,6],f32>
  return %r : !torch.vtensor<[?,?,6],f32>
}

// -----

// Negative: integers.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: dtypes si32, si32, si32 -> si32: not one float dtype
// CHECK-LABEL: func.func @no_integer_dtype
// CHECK: torch.aten.conv_tbc
func.func @no_integer_dtype(%x: !torch.vtensor<[?,?,?],si32>, %w: !torch.vtensor<[?,?,?],si32>, %b: !torch.vtensor<[?],si32>) -> !torch.vtensor<[?,?,6],si32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[?,?,?],si32>, !torch.vtensor<[?,?,?],si32>, !torch.vtensor<[?],si32>, !torch.int -> !torch.vtensor<[?,?,6],si32>
  return %r : !torch.vtensor<[?,?,6],si32>
}

// -----

// Negative: a weight of another dtype.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: dtypes f32, f16, f32 -> f32: not one float dtype
// CHECK-LABEL: func.func @no_mixed_dtypes
// CHECK: torch.aten.conv_tbc
func.func @no_mixed_dtypes(%x: !torch.vtensor<[?,?,?],f32>, %w: !torch.vtensor<[?,?,?],f16>, %b: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f16>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?,?,6],f32>
  return %r : !torch.vtensor<[?,?,6],f32>
}

// -----

// Negative: input channels that are not the weight's.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: the input's 5 channels are not the weight's 4 (torch raises)
// CHECK-LABEL: func.func @no_channels_mismatch
// CHECK: torch.aten.conv_tbc
func.func @no_channels_mismatch(%x: !torch.vtensor<[9,4,5],f32>, %w: !torch.vtensor<[3,4,6],f32>, %b: !torch.vtensor<[6],f32>) -> !torch.vtensor<[7,4,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[9,4,5],f32>, !torch.vtensor<[3,4,6],f32>, !torch.vtensor<[6],f32>, !torch.int -> !torch.vtensor<[7,4,6],f32>
  return %r : !torch.vtensor<[7,4,6],f32>
}

// -----

// Negative: a result length that is not T + 2 pad - K + 1.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: the result !torch.vtensor<[8,4,6],f32> contradicts the operands' sizes (T + 2 pad - K + 1, B, O)
// CHECK-LABEL: func.func @no_result_contradicts
// CHECK: torch.aten.conv_tbc
func.func @no_result_contradicts(%x: !torch.vtensor<[9,4,5],f32>, %w: !torch.vtensor<[3,5,6],f32>, %b: !torch.vtensor<[6],f32>) -> !torch.vtensor<[8,4,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[9,4,5],f32>, !torch.vtensor<[3,5,6],f32>, !torch.vtensor<[6],f32>, !torch.int -> !torch.vtensor<[8,4,6],f32>
  return %r : !torch.vtensor<[8,4,6],f32>
}

// -----

// Negative: a bias whose size is not the weight's output channels.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: the bias's 5 are not the weight's 6 output channels (torch raises)
// CHECK-LABEL: func.func @no_bias_size
// CHECK: torch.aten.conv_tbc
func.func @no_bias_size(%x: !torch.vtensor<[9,4,5],f32>, %w: !torch.vtensor<[3,5,6],f32>, %b: !torch.vtensor<[5],f32>) -> !torch.vtensor<[7,4,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[9,4,5],f32>, !torch.vtensor<[3,5,6],f32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[7,4,6],f32>
  return %r : !torch.vtensor<[7,4,6],f32>
}

// -----

// Negative: a kernel longer than the padded input.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: an output length of 0 (torch raises)
// CHECK-LABEL: func.func @no_empty_output
// CHECK: torch.aten.conv_tbc
func.func @no_empty_output(%x: !torch.vtensor<[2,4,5],f32>, %w: !torch.vtensor<[3,5,6],f32>, %b: !torch.vtensor<[6],f32>) -> !torch.vtensor<[?,4,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[2,4,5],f32>, !torch.vtensor<[3,5,6],f32>, !torch.vtensor<[6],f32>, !torch.int -> !torch.vtensor<[?,4,6],f32>
  return %r : !torch.vtensor<[?,4,6],f32>
}

// -----

// Negative: a result whose sizes are all dynamic: stock types and computes it right.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: the result !torch.vtensor<[?,?,?],f32>: sizes all alike, which IREE's own decomposition types right
// CHECK-LABEL: func.func @no_uniform_result
// CHECK: torch.aten.conv_tbc
func.func @no_uniform_result(%x: !torch.vtensor<[?,?,?],f32>, %w: !torch.vtensor<[?,?,?],f32>, %b: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?,?],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?,?,?],f32>
  return %r : !torch.vtensor<[?,?,?],f32>
}

// -----

// Negative: a result [4,4,4]: stock types and computes it right.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: the result !torch.vtensor<[4,4,4],f32>: sizes all alike, which IREE's own decomposition types right
// CHECK-LABEL: func.func @no_square_result
// CHECK: torch.aten.conv_tbc
func.func @no_square_result(%x: !torch.vtensor<[4,4,4],f32>, %w: !torch.vtensor<[1,4,4],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4,4,4],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor<[4,4,4],f32>, !torch.vtensor<[1,4,4],f32>, !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[4,4,4],f32>
  return %r : !torch.vtensor<[4,4,4],f32>
}

// -----

// Negative: an unranked input.
// WHY: decompose_conv_tbc: no match on 'torch.aten.conv_tbc' at {{.*}}: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.conv_tbc
func.func @no_unranked(%x: !torch.vtensor, %w: !torch.vtensor<[?,?,?],f32>, %b: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?,6],f32> {
  %pad = torch.constant.int 0
  %r = torch.aten.conv_tbc %x, %w, %b, %pad : !torch.vtensor, !torch.vtensor<[?,?,?],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?,?,6],f32>
  return %r : !torch.vtensor<[?,?,6],f32>
}
