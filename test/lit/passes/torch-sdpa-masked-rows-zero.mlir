// RUN: opt-py %s --split-input-file -p torch-sdpa-masked-rows-zero | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-sdpa-masked-rows-zero --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// torch-mlir's ScaledDotProductAttentionBoolMaskModule: a row with no visible key is unmasked for the attention,
// then given 0 times its output; rows with a visible key keep the attention's output.
// CHECK-LABEL: func.func @bool_mask
// CHECK-SAME: (%[[Q:.+]]: !torch.vtensor<[2,3,8,16],f32>, %[[K:.+]]: !torch.vtensor<[2,3,12,16],f32>, %[[V:.+]]: !torch.vtensor<[2,3,12,20],f32>, %[[M:.+]]: !torch.vtensor<[2,3,8,12],i1>)
// CHECK: %[[ANY:.+]] = torch.aten.any.dim %[[M]], %int-1, %true : !torch.vtensor<[2,3,8,12],i1>, !torch.int, !torch.bool -> !torch.vtensor<[2,3,8,1],i1>
// CHECK: %[[HIDDEN:.+]] = torch.aten.logical_not %[[ANY]] : !torch.vtensor<[2,3,8,1],i1> -> !torch.vtensor<[2,3,8,1],i1>
// CHECK: %[[UNMASKED:.+]] = torch.aten.logical_or %[[M]], %[[HIDDEN]] : {{.*}} -> !torch.vtensor<[2,3,8,12],i1>
// CHECK: %[[ATTN:.+]] = torch.aten.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]], %[[UNMASKED]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} :
// CHECK: %[[ZERO:.+]] = torch.aten.mul.Scalar %[[ATTN]], %int0 : {{.*}} -> !torch.vtensor<[2,3,8,20],f32>
// CHECK: %[[OUT:.+]] = torch.aten.where.self %[[ANY]], %[[ATTN]], %[[ZERO]] : !torch.vtensor<[2,3,8,1],i1>, !torch.vtensor<[2,3,8,20],f32>, !torch.vtensor<[2,3,8,20],f32> -> !torch.vtensor<[2,3,8,20],f32>
// CHECK: return %[[OUT]]
func.func @bool_mask(%q: !torch.vtensor<[2,3,8,16],f32>, %k: !torch.vtensor<[2,3,12,16],f32>, %v: !torch.vtensor<[2,3,12,20],f32>, %m: !torch.vtensor<[2,3,8,12],i1>) -> !torch.vtensor<[2,3,8,20],f32> {
  %dropout = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %false, %none, %false : !torch.vtensor<[2,3,8,16],f32>, !torch.vtensor<[2,3,12,16],f32>, !torch.vtensor<[2,3,12,20],f32>, !torch.vtensor<[2,3,8,12],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,3,8,20],f32>
  return %r : !torch.vtensor<[2,3,8,20],f32>
}

// -----

// A float mask broadcast over heads, dynamic lengths: a row is hidden where every entry is -inf; it gets 0 in
// place of -inf for the attention. The scale and enable_gqa operands are passed on.
// CHECK-LABEL: func.func @float_mask_dynamic
// CHECK-SAME: %[[M:[a-z0-9]+]]: !torch.vtensor<[1,1,?,?],f32>
// CHECK: %[[NEGINF:.+]] = torch.constant.float 0xFFF0000000000000
// CHECK: %[[VISIBLE:.+]] = torch.aten.ne.Scalar %[[M]], %[[NEGINF]] : {{.*}} -> !torch.vtensor<[1,1,?,?],i1>
// CHECK: %[[ANY:.+]] = torch.aten.any.dim %[[VISIBLE]], %{{.+}}, %{{.+}} : {{.*}} -> !torch.vtensor<[1,1,?,1],i1>
// CHECK: %[[ZERO:.+]] = torch.constant.float 0.000000e+00
// CHECK: %[[UNMASKED:.+]] = torch.aten.where.ScalarOther %[[ANY]], %[[M]], %[[ZERO]] : {{.*}} -> !torch.vtensor<[1,1,?,?],f32>
// CHECK: %[[ATTN:.+]] = torch.aten.scaled_dot_product_attention %{{.+}}, %{{.+}}, %{{.+}}, %[[UNMASKED]], %{{.+}}, %{{.+}}, %[[SCALE:.+]], %[[GQA:.+]] :
// CHECK: torch.aten.where.self %[[ANY]], %[[ATTN]], %{{.+}} : {{.*}} -> !torch.vtensor<[1,4,?,8],f32>
func.func @float_mask_dynamic(%q: !torch.vtensor<[1,4,?,8],f32>, %k: !torch.vtensor<[1,2,?,8],f32>, %v: !torch.vtensor<[1,2,?,8],f32>, %m: !torch.vtensor<[1,1,?,?],f32>) -> !torch.vtensor<[1,4,?,8],f32> {
  %dropout = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %scale = torch.constant.float 2.500000e-01
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %false, %scale, %true : !torch.vtensor<[1,4,?,8],f32>, !torch.vtensor<[1,2,?,8],f32>, !torch.vtensor<[1,2,?,8],f32>, !torch.vtensor<[1,1,?,?],f32>, !torch.float, !torch.bool, !torch.float, !torch.bool -> !torch.vtensor<[1,4,?,8],f32>
  return %r : !torch.vtensor<[1,4,?,8],f32>
}

// -----

// Negative: no mask (no row can be hidden).
// WHY: fully_masked_rows_zero: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: no mask
// CHECK-LABEL: func.func @no_mask
// CHECK-NOT: torch.aten.any.dim
// CHECK: torch.aten.scaled_dot_product_attention
func.func @no_mask(%q: !torch.vtensor<[1,2,4,8],f32>, %k: !torch.vtensor<[1,2,4,8],f32>, %v: !torch.vtensor<[1,2,4,8],f32>) -> !torch.vtensor<[1,2,4,8],f32> {
  %dropout = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %none, %dropout, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %r : !torch.vtensor<[1,2,4,8],f32>
}

// -----

// Negative: the pattern's own mask (mask | !any(mask)): nothing left to unmask (the pattern applies once).
// WHY: fully_masked_rows_zero: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: its fully masked rows are unmasked already (this pattern's own mask)
// CHECK-LABEL: func.func @no_unmasked_already
// CHECK-COUNT-1: torch.aten.any.dim
// CHECK-NOT: torch.aten.any.dim
func.func @no_unmasked_already(%q: !torch.vtensor<[1,2,4,8],f32>, %k: !torch.vtensor<[1,2,4,8],f32>, %v: !torch.vtensor<[1,2,4,8],f32>, %m: !torch.vtensor<[1,1,4,4],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %any = torch.aten.any.dim %m, %int-1, %true : !torch.vtensor<[1,1,4,4],i1>, !torch.int, !torch.bool -> !torch.vtensor<[1,1,4,1],i1>
  %hidden = torch.aten.logical_not %any : !torch.vtensor<[1,1,4,1],i1> -> !torch.vtensor<[1,1,4,1],i1>
  %m2 = torch.aten.logical_or %m, %hidden : !torch.vtensor<[1,1,4,4],i1>, !torch.vtensor<[1,1,4,1],i1> -> !torch.vtensor<[1,1,4,4],i1>
  %dropout = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m2, %dropout, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,1,4,4],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %r : !torch.vtensor<[1,2,4,8],f32>
}

// -----

// Negative: dropout (random).
// WHY: fully_masked_rows_zero: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: dropout_p is not the constant 0 (random)
// CHECK-LABEL: func.func @no_dropout
// CHECK-NOT: torch.aten.any.dim
func.func @no_dropout(%q: !torch.vtensor<[1,2,4,8],f32>, %k: !torch.vtensor<[1,2,4,8],f32>, %v: !torch.vtensor<[1,2,4,8],f32>, %m: !torch.vtensor<[1,1,4,4],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %dropout = torch.constant.float 1.000000e-01
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,1,4,4],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %r : !torch.vtensor<[1,2,4,8],f32>
}

// -----

// Negative: is_causal with a mask (torch refuses the pair).
// WHY: fully_masked_rows_zero: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: is_causal is not the constant false (torch refuses a mask with it)
// CHECK-LABEL: func.func @no_causal
// CHECK-NOT: torch.aten.any.dim
func.func @no_causal(%q: !torch.vtensor<[1,2,4,8],f32>, %k: !torch.vtensor<[1,2,4,8],f32>, %v: !torch.vtensor<[1,2,4,8],f32>, %m: !torch.vtensor<[1,1,4,4],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %dropout = torch.constant.float 0.000000e+00
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %true, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,1,4,4],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %r : !torch.vtensor<[1,2,4,8],f32>
}

// -----

// Negative: an integer mask (torch takes bool or float masks).
// WHY: fully_masked_rows_zero: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: a si64 mask (torch takes bool or float masks)
// CHECK-LABEL: func.func @no_integer_mask
// CHECK-NOT: torch.aten.any.dim
func.func @no_integer_mask(%q: !torch.vtensor<[1,2,4,8],f32>, %k: !torch.vtensor<[1,2,4,8],f32>, %v: !torch.vtensor<[1,2,4,8],f32>, %m: !torch.vtensor<[1,1,4,4],si64>) -> !torch.vtensor<[1,2,4,8],f32> {
  %dropout = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,1,4,4],si64>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %r : !torch.vtensor<[1,2,4,8],f32>
}

// -----

// Negative: a 0-d mask (no key dim to reduce over).
// WHY: fully_masked_rows_zero: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: the mask is not a ranked !torch.vtensor of rank >= 1
// CHECK-LABEL: func.func @no_zero_d_mask
// CHECK-NOT: torch.aten.any.dim
func.func @no_zero_d_mask(%q: !torch.vtensor<[1,2,4,8],f32>, %k: !torch.vtensor<[1,2,4,8],f32>, %v: !torch.vtensor<[1,2,4,8],f32>, %m: !torch.vtensor<[],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %dropout = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %r : !torch.vtensor<[1,2,4,8],f32>
}

// -----

// Negative: an unranked query.
// WHY: fully_masked_rows_zero: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: q, k, v or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK-NOT: torch.aten.any.dim
func.func @no_unranked(%q: !torch.vtensor, %k: !torch.vtensor<[1,2,4,8],f32>, %v: !torch.vtensor<[1,2,4,8],f32>, %m: !torch.vtensor<[1,1,4,4],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %dropout = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %dropout, %false, %none, %false : !torch.vtensor, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,1,4,4],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %r : !torch.vtensor<[1,2,4,8],f32>
}
