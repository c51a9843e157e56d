// RUN: opt-py %s --split-input-file -p torch-sdpa-agree-shapes | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-sdpa-agree-shapes --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// The fuzz campaign's seed 7: a [L,S] mask under a rank-3 query, unsqueezed to [1,L,S] (torch broadcasts it).
// CHECK-LABEL: func.func @lower_rank_mask
// CHECK-SAME: (%[[Q:.+]]: !torch.vtensor<[2,4,8],f32>, %[[K:.+]]: !torch.vtensor<[2,3,8],f32>, %[[M:.+]]: !torch.vtensor<[4,3],f32>)
// CHECK: %[[M1:.+]] = torch.aten.unsqueeze %[[M]], %int0{{(_[0-9]+)?}} : !torch.vtensor<[4,3],f32>, !torch.int -> !torch.vtensor<[1,4,3],f32>
// CHECK: %[[R:.+]] = torch.aten.scaled_dot_product_attention %[[Q]], %[[K]], %[[K]], %[[M1]], {{.*}} -> !torch.vtensor<[2,4,8],f32>
// CHECK: return %[[R]]
func.func @lower_rank_mask(%q: !torch.vtensor<[2,4,8],f32>, %k: !torch.vtensor<[2,3,8],f32>, %m: !torch.vtensor<[4,3],f32>) -> !torch.vtensor<[2,4,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %m, %f0, %false, %none, %false : !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[2,3,8],f32>, !torch.vtensor<[2,3,8],f32>, !torch.vtensor<[4,3],f32>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,8],f32>
  return %r : !torch.vtensor<[2,4,8],f32>
}

// -----

// Seeds 105 and 175: a dynamic query batch under a static result and key batch, a dynamic key head dim
// against the query's 8; the mask's dynamic key length takes the key's 7 (strict: it does not broadcast).
// CHECK-LABEL: func.func @static_sizes_proven
// CHECK-SAME: (%[[Q:.+]]: !torch.vtensor<[?,4,8],f32>, %[[K:.+]]: !torch.vtensor<[2,7,?],f32>, %[[M:.+]]: !torch.vtensor<[4,?],i1>)
// CHECK-DAG: %[[QC:.+]] = torch.tensor_static_info_cast %[[Q]] : !torch.vtensor<[?,4,8],f32> to !torch.vtensor<[2,4,8],f32>
// CHECK-DAG: %[[KC:.+]] = torch.tensor_static_info_cast %[[K]] : !torch.vtensor<[2,7,?],f32> to !torch.vtensor<[2,7,8],f32>
// CHECK-DAG: %[[M1:.+]] = torch.aten.unsqueeze %[[M]], %int0{{(_[0-9]+)?}} : !torch.vtensor<[4,?],i1>, !torch.int -> !torch.vtensor<[1,4,?],i1>
// CHECK-DAG: %[[MC:.+]] = torch.tensor_static_info_cast %[[M1]] : !torch.vtensor<[1,4,?],i1> to !torch.vtensor<[1,4,7],i1>
// CHECK: %[[R:.+]] = torch.aten.scaled_dot_product_attention %[[QC]], %[[KC]], %{{.+}}, %[[MC]], {{.*}} : !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[2,7,8],f32>, !torch.vtensor<[2,7,8],f32>, !torch.vtensor<[1,4,7],i1>, {{.*}} -> !torch.vtensor<[2,4,8],f32>
// CHECK: %[[RC:.+]] = torch.tensor_static_info_cast %[[R]] : !torch.vtensor<[2,4,8],f32> to !torch.vtensor<[2,?,8],f32>
// CHECK: return %[[RC]]
func.func @static_sizes_proven(%q: !torch.vtensor<[?,4,8],f32>, %k: !torch.vtensor<[2,7,?],f32>, %m: !torch.vtensor<[4,?],i1>) -> !torch.vtensor<[2,?,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %m, %f0, %false, %none, %false : !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[2,7,?],f32>, !torch.vtensor<[2,7,?],f32>, !torch.vtensor<[4,?],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,?,8],f32>
  return %r : !torch.vtensor<[2,?,8],f32>
}

// -----

// Seed 121: is_causal over a dynamic key batch (stock: not converted at all); the head dims stay dynamic.
// CHECK-LABEL: func.func @causal_dynamic_key_batch
// CHECK-SAME: (%[[Q:.+]]: !torch.vtensor<[2,5,?],f32>, %[[K:.+]]: !torch.vtensor<[?,7,?],f32>)
// CHECK: %[[KC:.+]] = torch.tensor_static_info_cast %[[K]] : !torch.vtensor<[?,7,?],f32> to !torch.vtensor<[2,7,?],f32>
// CHECK: %[[R:.+]] = torch.aten.scaled_dot_product_attention %[[Q]], %[[KC]], %{{.+}}, %none, %{{.+}}, %true, {{.*}} -> !torch.vtensor<[2,5,?],f32>
// CHECK: return %[[R]]
func.func @causal_dynamic_key_batch(%q: !torch.vtensor<[2,5,?],f32>, %k: !torch.vtensor<[?,7,?],f32>) -> !torch.vtensor<[2,5,?],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %true, %none, %false : !torch.vtensor<[2,5,?],f32>, !torch.vtensor<[?,7,?],f32>, !torch.vtensor<[?,7,?],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,5,?],f32>
  return %r : !torch.vtensor<[2,5,?],f32>
}

// -----

// Without torch.assume_strict_symbolic_shapes a batch dim may broadcast: only the head dim (q's E against k's,
// which torch requires equal) is refined; the dynamic query batch stays.
// CHECK-LABEL: func.func @not_strict_head_dim_only
// CHECK: torch.tensor_static_info_cast %arg1 : !torch.vtensor<[2,7,?],f32> to !torch.vtensor<[2,7,8],f32>
// CHECK-NOT: to !torch.vtensor<[2,4,8],f32>
// CHECK: torch.aten.scaled_dot_product_attention %arg0, {{.*}} : !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[2,7,8],f32>, !torch.vtensor<[2,7,8],f32>, {{.*}} -> !torch.vtensor<[?,4,8],f32>
func.func @not_strict_head_dim_only(%q: !torch.vtensor<[?,4,8],f32>, %k: !torch.vtensor<[2,7,?],f32>) -> !torch.vtensor<[?,4,8],f32> {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %false : !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[2,7,?],f32>, !torch.vtensor<[2,7,?],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[?,4,8],f32>
  return %r : !torch.vtensor<[?,4,8],f32>
}

// -----

// Negative: the types agree already (and a [1,1,L,S] mask of the query's rank broadcasts as it is).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: the types agree already
// CHECK-LABEL: func.func @no_types_agree
// CHECK-NOT: torch.tensor_static_info_cast
// CHECK-NOT: torch.aten.unsqueeze
func.func @no_types_agree(%q: !torch.vtensor<[2,3,?,8],f32>, %k: !torch.vtensor<[2,3,?,8],f32>, %m: !torch.vtensor<[1,1,?,?],i1>) -> !torch.vtensor<[2,3,?,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %m, %f0, %false, %none, %false : !torch.vtensor<[2,3,?,8],f32>, !torch.vtensor<[2,3,?,8],f32>, !torch.vtensor<[2,3,?,8],f32>, !torch.vtensor<[1,1,?,?],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,3,?,8],f32>
  return %r : !torch.vtensor<[2,3,?,8],f32>
}

// -----

// Negative: an unranked query.
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: q, k, v or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_query
// CHECK-NOT: torch.tensor_static_info_cast
func.func @no_unranked_query(%q: !torch.vtensor, %k: !torch.vtensor<[2,7,?],f32>) -> !torch.vtensor<[2,4,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %false : !torch.vtensor, !torch.vtensor<[2,7,?],f32>, !torch.vtensor<[2,7,?],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,8],f32>
  return %r : !torch.vtensor<[2,4,8],f32>
}

// -----

// Negative: rank 2 (no batch dim: the lowering refuses it whatever the types).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: q, k, v and the result are not of one rank >= 3 (the lowering's batch dim)
// CHECK-LABEL: func.func @no_rank_two
// CHECK-NOT: torch.tensor_static_info_cast
func.func @no_rank_two(%q: !torch.vtensor<[4,8],f32>, %k: !torch.vtensor<[7,?],f32>) -> !torch.vtensor<[4,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %false : !torch.vtensor<[4,8],f32>, !torch.vtensor<[7,?],f32>, !torch.vtensor<[7,?],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[4,8],f32>
  return %r : !torch.vtensor<[4,8],f32>
}

// -----

// Negative: enable_gqa (key and value heads fewer than the query's on purpose).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: enable_gqa is not the constant false (head counts differ on purpose)
// CHECK-LABEL: func.func @no_gqa
// CHECK-NOT: torch.tensor_static_info_cast
func.func @no_gqa(%q: !torch.vtensor<[1,4,5,8],f32>, %k: !torch.vtensor<[1,2,?,?],f32>) -> !torch.vtensor<[1,4,5,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %true : !torch.vtensor<[1,4,5,8],f32>, !torch.vtensor<[1,2,?,?],f32>, !torch.vtensor<[1,2,?,?],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,4,5,8],f32>
  return %r : !torch.vtensor<[1,4,5,8],f32>
}

// -----

// Negative: a mask of higher rank than the query (torch raises).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: the mask is not a ranked !torch.vtensor of at most the query's rank
// CHECK-LABEL: func.func @no_higher_rank_mask
// CHECK-NOT: torch.aten.unsqueeze
func.func @no_higher_rank_mask(%q: !torch.vtensor<[?,4,8],f32>, %k: !torch.vtensor<[2,7,8],f32>, %m: !torch.vtensor<[1,2,4,7],i1>) -> !torch.vtensor<[2,4,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %m, %f0, %false, %none, %false : !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[2,7,8],f32>, !torch.vtensor<[2,7,8],f32>, !torch.vtensor<[1,2,4,7],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,8],f32>
  return %r : !torch.vtensor<[2,4,8],f32>
}

// -----

// Negative: a mask with is_causal (torch refuses the pair).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: a mask with is_causal not the constant false (torch refuses it)
// CHECK-LABEL: func.func @no_causal_with_mask
// CHECK-NOT: torch.aten.unsqueeze
func.func @no_causal_with_mask(%q: !torch.vtensor<[2,4,8],f32>, %k: !torch.vtensor<[2,4,8],f32>, %m: !torch.vtensor<[4,4],i1>) -> !torch.vtensor<[2,4,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %m, %f0, %true, %none, %false : !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[4,4],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,8],f32>
  return %r : !torch.vtensor<[2,4,8],f32>
}

// -----

// Negative: static sizes that disagree (the key's head dim 6 against the query's 8: torch raises).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: static sizes [6, 8] of one dim disagree (torch raises)
// CHECK-LABEL: func.func @no_sizes_disagree
// CHECK-NOT: torch.tensor_static_info_cast
func.func @no_sizes_disagree(%q: !torch.vtensor<[?,4,8],f32>, %k: !torch.vtensor<[2,7,6],f32>) -> !torch.vtensor<[2,4,6],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %false : !torch.vtensor<[?,4,8],f32>, !torch.vtensor<[2,7,6],f32>, !torch.vtensor<[2,7,6],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,6],f32>
  return %r : !torch.vtensor<[2,4,6],f32>
}

// -----

// Negative: a query batch of 1 broadcast against the key's (the lowering does not broadcast q, k, v).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: batch dim 0 is broadcast among q, k, v ([1, None, None]): the lowering does not broadcast them
// CHECK-LABEL: func.func @no_batch_broadcast
// CHECK-NOT: torch.tensor_static_info_cast
func.func @no_batch_broadcast(%q: !torch.vtensor<[1,4,8],f32>, %k: !torch.vtensor<[?,7,?],f32>) -> !torch.vtensor<[?,4,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %false : !torch.vtensor<[1,4,8],f32>, !torch.vtensor<[?,7,?],f32>, !torch.vtensor<[?,7,?],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[?,4,8],f32>
  return %r : !torch.vtensor<[?,4,8],f32>
}

// -----

// Negative: only the result is less static than the operands prove (stock's lowering casts it).
// WHY: agree_shapes: no match on 'torch.aten.scaled_dot_product_attention' at {{.*}}: only the result is less static than q, k, v prove (the lowering casts it)
// CHECK-LABEL: func.func @no_result_only
// CHECK-NOT: torch.tensor_static_info_cast
func.func @no_result_only(%q: !torch.vtensor<[2,4,8],f32>, %k: !torch.vtensor<[2,7,8],f32>) -> !torch.vtensor<[2,?,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
  %f0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %f0, %false, %none, %false : !torch.vtensor<[2,4,8],f32>, !torch.vtensor<[2,7,8],f32>, !torch.vtensor<[2,7,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,?,8],f32>
  return %r : !torch.vtensor<[2,?,8],f32>
}
