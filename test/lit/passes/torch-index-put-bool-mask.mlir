// RUN: opt-py %s --split-input-file -p torch-index-put-bool-mask | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-index-put-bool-mask --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// x[mask] = v with a full-shape mask and a 0-d v: where(mask, v viewed [1,1], x).
// CHECK-LABEL: func.func @full_mask_scalar
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4,6],f32>, %[[M:.+]]: !torch.vtensor<[4,6],i1>, %[[V:.+]]: !torch.vtensor<[],f32>)
// CHECK: %[[VV:.+]] = torch.aten.view %[[V]], %{{.+}} : !torch.vtensor<[],f32>, !torch.list<int> -> !torch.vtensor<[1,1],f32>
// CHECK: %[[R:.+]] = torch.aten.where.self %[[M]], %[[VV]], %[[X]] : {{.*}} -> !torch.vtensor<[4,6],f32>
// CHECK-NOT: torch.aten.index_put
// CHECK: return %[[R]]
func.func @full_mask_scalar(%x: !torch.vtensor<[4,6],f32>, %m: !torch.vtensor<[4,6],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[4,6],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[4,6],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[4,6],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[4,6],f32>
  return %r : !torch.vtensor<[4,6],f32>
}

// -----

// wav2vec2's h[mask_time_indices] = masked_spec_embed: a [B,T] mask over [B,T,D], v [D] reaches no count dim and
// broadcasts over the trailing dim as it is; the mask viewed [B,T,1]; accumulating adds first.
// CHECK-LABEL: func.func @row_mask_vector_accumulate
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,?,16],f32>, %[[M:.+]]: !torch.vtensor<[2,?],i1>, %[[V:.+]]: !torch.vtensor<[16],f32>)
// CHECK: %[[T:.+]] = torch.aten.size.int %[[M]], %int1{{(_[0-9]+)?}} :
// CHECK: %[[MV:.+]] = torch.aten.view %[[M]], %{{.+}} : {{.*}} -> !torch.vtensor<[2,?,1],i1>
// CHECK: %[[VV:.+]] = torch.aten.view %[[V]], %{{.+}} : {{.*}} -> !torch.vtensor<[1,1,16],f32>
// CHECK: %[[SUM:.+]] = torch.aten.add.Tensor %[[X]], %[[VV]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,?,16],f32>
// CHECK: %[[R:.+]] = torch.aten.where.self %[[MV]], %[[SUM]], %[[X]] :
// CHECK: return %[[R]]
func.func @row_mask_vector_accumulate(%x: !torch.vtensor<[2,?,16],f32>, %m: !torch.vtensor<[2,?],i1>, %v: !torch.vtensor<[16],f32>) -> !torch.vtensor<[2,?,16],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[2,?],i1>) -> !torch.list<optional<vtensor>>
  %true = torch.constant.bool true
  %r = torch.aten.index_put %x, %l, %v, %true : !torch.vtensor<[2,?,16],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[16],f32>, !torch.bool -> !torch.vtensor<[2,?,16],f32>
  return %r : !torch.vtensor<[2,?,16],f32>
}

// -----

// x[:, mask] = v (a None first, which torch-mlir's decomposition mismatches): the mask viewed [1,5].
// CHECK-LABEL: func.func @none_then_mask
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[3,5],f32>, %[[M:.+]]: !torch.vtensor<[5],i1>, %[[V:.+]]: !torch.vtensor<[],f32>)
// CHECK: %[[MV:.+]] = torch.aten.view %[[M]], %{{.+}} : {{.*}} -> !torch.vtensor<[1,5],i1>
// CHECK: %[[R:.+]] = torch.aten.where.self %[[MV]], %{{.+}}, %[[X]] : {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: return %[[R]]
func.func @none_then_mask(%x: !torch.vtensor<[3,5],f32>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[3,5],f32> {
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %none, %m : (!torch.none, !torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[3,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[3,5],f32>
  return %r : !torch.vtensor<[3,5],f32>
}

// -----

// x[mask] = feats with feats [3,3]: the mask's first 3 true positions, #{j : cumsum_j <= min(k, count - 1)},
// as an integer index; the values as they are.
// CHECK-LABEL: func.func @counted_values
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[5,3],f32>, %[[M:.+]]: !torch.vtensor<[5],i1>, %[[V:.+]]: !torch.vtensor<[3,3],f32>)
// CHECK: %[[ONES:.+]] = torch.prims.convert_element_type %[[M]], %int4{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[5],si64>
// CHECK: %[[CS:.+]] = torch.aten.cumsum %[[ONES]], %int0{{(_[0-9]+)?}}, %none{{(_[0-9]+)?}} :
// CHECK: %[[COUNT:.+]] = torch.aten.sum %[[ONES]], %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[],si64>
// CHECK: %[[K:.+]] = torch.aten.arange %int3{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[3],si64>
// CHECK: %[[LAST:.+]] = torch.aten.sub.Scalar %[[COUNT]], %int1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} :
// CHECK: %[[KK:.+]] = torch.aten.minimum %[[K]], %[[LAST]] :
// CHECK: %[[COL:.+]] = torch.aten.unsqueeze %[[KK]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[3,1],si64>
// CHECK: %[[LE:.+]] = torch.aten.le.Tensor %[[CS]], %[[COL]] : {{.*}} -> !torch.vtensor<[3,5],i1>
// CHECK: %[[POS:.+]] = torch.aten.sum.dim_IntList %[[LE]], {{.*}} -> !torch.vtensor<[3],si64>
// CHECK: %[[L:.+]] = torch.prim.ListConstruct %[[POS]] : (!torch.vtensor<[3],si64>) -> !torch.list<optional<vtensor>>
// CHECK: %[[R:.+]] = torch.aten.index_put %[[X]], %[[L]], %[[V]], %false{{(_[0-9]+)?}} :
// CHECK: return %[[R]]
func.func @counted_values(%x: !torch.vtensor<[5,3],f32>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[3,3],f32>) -> !torch.vtensor<[5,3],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,3],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3,3],f32>, !torch.bool -> !torch.vtensor<[5,3],f32>
  return %r : !torch.vtensor<[5,3],f32>
}

// -----

// An integer index of 3 beside the mask: the mask becomes 3 positions in its place.
// CHECK-LABEL: func.func @int_beside_mask
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[5,5],f32>, %[[I:.+]]: !torch.vtensor<[3],si64>, %[[M:.+]]: !torch.vtensor<[5],i1>, %[[V:.+]]: !torch.vtensor<[3],f32>)
// CHECK: %[[POS:.+]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[3],si64>
// CHECK: %[[L:.+]] = torch.prim.ListConstruct %[[I]], %[[POS]] :
// CHECK: torch.aten.index_put %[[X]], %[[L]], %[[V]],
func.func @int_beside_mask(%x: !torch.vtensor<[5,5],f32>, %i: !torch.vtensor<[3],si64>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %i, %m : (!torch.vtensor<[3],si64>, !torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// A [2,3] mask over [2,3,4] with values [2,4]: its flat positions over [6], unravelled into dim 0 (pos // 3)
// and dim 1 (pos % 3).
// CHECK-LABEL: func.func @rank_two_mask
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,3,4],f32>, %[[M:.+]]: !torch.vtensor<[2,3],i1>, %[[V:.+]]: !torch.vtensor<[2,4],f32>)
// CHECK: %[[FLAT:.+]] = torch.aten.view %[[M]], %{{.+}} : {{.*}} -> !torch.vtensor<[6],i1>
// CHECK: %[[POS:.+]] = torch.aten.sum.dim_IntList {{.*}} -> !torch.vtensor<[2],si64>
// CHECK: %[[D1:.+]] = torch.aten.remainder.Scalar %[[POS]], %int3{{(_[0-9]+)?}} :
// CHECK: %[[D0:.+]] = torch.aten.floor_divide.Scalar %[[POS]], %int3{{(_[0-9]+)?}} :
// CHECK: %[[L:.+]] = torch.prim.ListConstruct %[[D0]], %[[D1]] :
// CHECK: torch.aten.index_put %[[X]], %[[L]], %[[V]],
func.func @rank_two_mask(%x: !torch.vtensor<[2,3,4],f32>, %m: !torch.vtensor<[2,3],i1>, %v: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[2,3],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[2,3,4],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[2,4],f32>, !torch.bool -> !torch.vtensor<[2,3,4],f32>
  return %r : !torch.vtensor<[2,3,4],f32>
}

// -----

// Negative: values whose count dim is dynamic (stock's nonzero and scatter take them as they are).
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: the values carry the count dim (the positions form takes a static one)
// WHY: mask_as_positions: no match on 'torch.aten.index_put' at {{.*}}: no static length for the count (stock lowers a dynamic one; the where form takes a broadcast)
// CHECK-LABEL: func.func @no_dynamic_count
// CHECK: torch.aten.index_put %arg0
func.func @no_dynamic_count(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[?,5],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[?,5],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: integer indices alone (no mask: stock's own case).
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: 0 bool masks among the indices (one handled)
// CHECK-LABEL: func.func @no_mask
// CHECK: torch.aten.index_put %arg0
func.func @no_mask(%x: !torch.vtensor<[5,5],f32>, %i: !torch.vtensor<[3],si64>, %v: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %i : (!torch.vtensor<[3],si64>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3,5],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: two masks.
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: 2 bool masks among the indices (one handled)
// CHECK-LABEL: func.func @no_two_masks
// CHECK: torch.aten.index_put %arg0
func.func @no_two_masks(%x: !torch.vtensor<[5,5],f32>, %a: !torch.vtensor<[5],i1>, %b: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[5],i1>, !torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: indices that are not a ListConstruct.
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: the indices are not a torch.prim.ListConstruct
// CHECK-LABEL: func.func @no_list_construct
// CHECK: torch.aten.index_put %arg0
func.func @no_list_construct(%x: !torch.vtensor<[5,5],f32>, %l: !torch.list<optional<vtensor>>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[5,5],f32> {
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: accumulate not a constant.
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: accumulate is not a torch.constant.bool
// CHECK-LABEL: func.func @no_runtime_accumulate
// CHECK: torch.aten.index_put %arg0
func.func @no_runtime_accumulate(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[],f32>, %acc: !torch.bool) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %r = torch.aten.index_put %x, %l, %v, %acc : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: an unranked index.
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: an index is neither None nor a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_index
// CHECK: torch.aten.index_put %arg0
func.func @no_unranked_index(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: an index that is neither bool nor si64/si32 (ui8: a deprecated mask spelling).
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: an index that is neither a bool mask nor si64/si32
// CHECK-LABEL: func.func @no_byte_index
// CHECK: torch.aten.index_put %arg0
func.func @no_byte_index(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor<[5],i1>, %b: !torch.vtensor<[5],ui8>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %m, %b : (!torch.vtensor<[5],i1>, !torch.vtensor<[5],ui8>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: values of another dtype than x (torch raises).
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: values or result of another type than self (torch raises on a dtype mismatch)
// CHECK-LABEL: func.func @no_dtype_mismatch
// CHECK: torch.aten.index_put %arg0
func.func @no_dtype_mismatch(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[],f64>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f64>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: a bool self accumulated.
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: a bool self accumulated
// CHECK-LABEL: func.func @no_bool_accumulate
// CHECK: torch.aten.index_put %arg0
func.func @no_bool_accumulate(%x: !torch.vtensor<[5],i1>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[],i1>) -> !torch.vtensor<[5],i1> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %true = torch.constant.bool true
  %r = torch.aten.index_put %x, %l, %v, %true : !torch.vtensor<[5],i1>, !torch.list<optional<vtensor>>, !torch.vtensor<[],i1>, !torch.bool -> !torch.vtensor<[5],i1>
  return %r : !torch.vtensor<[5],i1>
}

// -----

// Negative: indices covering more dims than x has (torch raises).
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: the indices cover 3 dims of a rank-2 self (torch raises)
// CHECK-LABEL: func.func @no_too_many_indices
// CHECK: torch.aten.index_put %arg0
func.func @no_too_many_indices(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor<[5,5],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[5,5],f32> {
  %none = torch.constant.none
  %l = torch.prim.ListConstruct %none, %m : (!torch.none, !torch.vtensor<[5,5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: a 0-d mask.
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: a 0-d mask
// CHECK-LABEL: func.func @no_zero_d_mask
// CHECK: torch.aten.index_put %arg0
func.func @no_zero_d_mask(%x: !torch.vtensor<[5],f32>, %m: !torch.vtensor<[],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[5],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5],f32>
  return %r : !torch.vtensor<[5],f32>
}

// -----

// Negative: a mask sized otherwise than the dims it covers (torch raises).
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: the mask !torch.vtensor<[4],i1> is not sized as the dims of self it covers (torch raises)
// CHECK-LABEL: func.func @no_mask_size_mismatch
// CHECK: torch.aten.index_put %arg0
func.func @no_mask_size_mismatch(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor<[4],i1>, %v: !torch.vtensor<[],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[4],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: values of more dims than the indexed shape [count, 5].
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: values of more dims than the indexed shape
// CHECK-LABEL: func.func @no_values_too_deep
// CHECK: torch.aten.index_put %arg0
func.func @no_values_too_deep(%x: !torch.vtensor<[5,5],f32>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[1,1,5],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[1,1,5],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative: an integer index of rank 2.
// WHY: mask_put_as_where: no match on 'torch.aten.index_put' at {{.*}}: an integer index of rank > 1 (the indexed shape would have more than one broadcast dim)
// CHECK-LABEL: func.func @no_rank_two_int_index
// CHECK: torch.aten.index_put %arg0
func.func @no_rank_two_int_index(%x: !torch.vtensor<[5,5],f32>, %i: !torch.vtensor<[3,1],si64>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[3,3],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %i, %m : (!torch.vtensor<[3,1],si64>, !torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3,3],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative (positions): an integer index of dynamic size.
// WHY: mask_as_positions: no match on 'torch.aten.index_put' at {{.*}}: an integer index of dynamic size
// CHECK-LABEL: func.func @no_dynamic_int_index
// CHECK: torch.aten.index_put %arg0
func.func @no_dynamic_int_index(%x: !torch.vtensor<[5,5],f32>, %i: !torch.vtensor<[?],si64>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[3],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %i, %m : (!torch.vtensor<[?],si64>, !torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative (positions): an integer index of 3 and values of 4 (torch raises).
// WHY: mask_as_positions: no match on 'torch.aten.index_put' at {{.*}}: indices and values that do not broadcast (torch raises)
// CHECK-LABEL: func.func @no_index_values_mismatch
// CHECK: torch.aten.index_put %arg0
func.func @no_index_values_mismatch(%x: !torch.vtensor<[5,5],f32>, %i: !torch.vtensor<[3],si64>, %m: !torch.vtensor<[5],i1>, %v: !torch.vtensor<[4],f32>) -> !torch.vtensor<[5,5],f32> {
  %l = torch.prim.ListConstruct %i, %m : (!torch.vtensor<[3],si64>, !torch.vtensor<[5],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[5,5],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[4],f32>, !torch.bool -> !torch.vtensor<[5,5],f32>
  return %r : !torch.vtensor<[5,5],f32>
}

// -----

// Negative (positions): a rank-2 mask with a dynamic size (its positions cannot be unravelled by constants).
// WHY: mask_as_positions: no match on 'torch.aten.index_put' at {{.*}}: a mask of rank > 1 with a dynamic size
// CHECK-LABEL: func.func @no_dynamic_rank_two_mask
// CHECK: torch.aten.index_put %arg0
func.func @no_dynamic_rank_two_mask(%x: !torch.vtensor<[2,?,4],f32>, %m: !torch.vtensor<[2,?],i1>, %v: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[2,?,4],f32> {
  %l = torch.prim.ListConstruct %m : (!torch.vtensor<[2,?],i1>) -> !torch.list<optional<vtensor>>
  %false = torch.constant.bool false
  %r = torch.aten.index_put %x, %l, %v, %false : !torch.vtensor<[2,?,4],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[3,4],f32>, !torch.bool -> !torch.vtensor<[2,?,4],f32>
  return %r : !torch.vtensor<[2,?,4],f32>
}
