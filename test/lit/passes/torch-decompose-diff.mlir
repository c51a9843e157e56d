// RUN: opt-py %s --split-input-file -p torch-decompose-diff | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-diff --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// transformers' mask code: diff(position_ids, prepend=position_ids[:, :1] - 1, dim=-1) over a dynamic
// sequence. Prepend and input concatenated along dim 1, then the upper slice [1:] minus the lower [:-1].
// CHECK-LABEL: func.func @prepend_last_dim
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,?],si64>, %[[P:.+]]: !torch.vtensor<[2,1],si64>)
// CHECK: %[[PARTS:.+]] = torch.prim.ListConstruct %[[P]], %[[X]] : (!torch.vtensor<[2,1],si64>, !torch.vtensor<[2,?],si64>) -> !torch.list<vtensor>
// CHECK: %[[CAT:.+]] = torch.aten.cat %[[PARTS]], %int1{{(_[0-9]+)?}} : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,?],si64>
// CHECK: %[[HI:.+]] = torch.aten.slice.Tensor %[[CAT]], %int1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, %int9223372036854775807{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,?],si64>
// CHECK: %[[LO:.+]] = torch.aten.slice.Tensor %[[CAT]], %int1{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, %int-1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,?],si64>
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor %[[HI]], %[[LO]], %int1{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,?],si64>
// CHECK-NOT: torch.operator
// CHECK: return %[[D]]
func.func @prepend_last_dim(%x: !torch.vtensor<[2,?],si64>, %p: !torch.vtensor<[2,1],si64>) -> !torch.vtensor<[2,?],si64> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int-1, %p, %none) : (!torch.vtensor<[2,?],si64>, !torch.int, !torch.int, !torch.vtensor<[2,1],si64>, !torch.none) -> !torch.vtensor<[2,?],si64>
  return %r : !torch.vtensor<[2,?],si64>
}

// -----

// Neither prepend nor append: no concatenation, the input's own slices along dim 0.
// CHECK-LABEL: func.func @input_alone
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4,5],f32>)
// CHECK-NOT: torch.aten.cat
// CHECK: %[[HI:.+]] = torch.aten.slice.Tensor %[[X]], %int0{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: %[[LO:.+]] = torch.aten.slice.Tensor %[[X]], %int0{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, %int-1{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor %[[HI]], %[[LO]], {{.*}} -> !torch.vtensor<[3,5],f32>
// CHECK: return %[[D]]
func.func @input_alone(%x: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[3,5],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %none, %none) : (!torch.vtensor<[4,5],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[3,5],f32>
  return %r : !torch.vtensor<[3,5],f32>
}

// -----

// n = 2 with an append: the second difference is taken of the first, each step one shorter (6, 5, 4).
// CHECK-LABEL: func.func @append_second_order
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[3,4],f16>, %[[A:.+]]: !torch.vtensor<[3,2],f16>)
// CHECK: %[[PARTS:.+]] = torch.prim.ListConstruct %[[X]], %[[A]] :
// CHECK: %[[CAT:.+]] = torch.aten.cat %[[PARTS]], {{.*}} -> !torch.vtensor<[3,6],f16>
// CHECK: %[[HI1:.+]] = torch.aten.slice.Tensor %[[CAT]], {{.*}} -> !torch.vtensor<[3,5],f16>
// CHECK: %[[LO1:.+]] = torch.aten.slice.Tensor %[[CAT]], {{.*}} -> !torch.vtensor<[3,5],f16>
// CHECK: %[[D1:.+]] = torch.aten.sub.Tensor %[[HI1]], %[[LO1]], {{.*}} -> !torch.vtensor<[3,5],f16>
// CHECK: %[[HI2:.+]] = torch.aten.slice.Tensor %[[D1]], %int1{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[3,4],f16>
// CHECK: %[[LO2:.+]] = torch.aten.slice.Tensor %[[D1]], %int1{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[3,4],f16>
// CHECK: %[[D2:.+]] = torch.aten.sub.Tensor %[[HI2]], %[[LO2]], {{.*}} -> !torch.vtensor<[3,4],f16>
// CHECK-NOT: torch.aten.sub.Tensor
// CHECK: return %[[D2]]
func.func @append_second_order(%x: !torch.vtensor<[3,4],f16>, %a: !torch.vtensor<[3,2],f16>) -> !torch.vtensor<[3,4],f16> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int2, %int1, %none, %a) : (!torch.vtensor<[3,4],f16>, !torch.int, !torch.int, !torch.none, !torch.vtensor<[3,2],f16>) -> !torch.vtensor<[3,4],f16>
  return %r : !torch.vtensor<[3,4],f16>
}

// -----

// Prepend and append in rank 4, dim -2 (dim 2 of 4), bf16, a dynamic length along dim.
// CHECK-LABEL: func.func @prepend_and_append_rank4
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,3,?,5],bf16>, %[[P:.+]]: !torch.vtensor<[2,3,1,5],bf16>, %[[A:.+]]: !torch.vtensor<[2,3,2,5],bf16>)
// CHECK: %[[PARTS:.+]] = torch.prim.ListConstruct %[[P]], %[[X]], %[[A]] :
// CHECK: %[[CAT:.+]] = torch.aten.cat %[[PARTS]], %int2{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[2,3,?,5],bf16>
// CHECK: %[[HI:.+]] = torch.aten.slice.Tensor %[[CAT]], %int2{{(_[0-9]+)?}}, %int1{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[2,3,?,5],bf16>
// CHECK: %[[LO:.+]] = torch.aten.slice.Tensor %[[CAT]], %int2{{(_[0-9]+)?}}, %int0{{(_[0-9]+)?}}, {{.*}} -> !torch.vtensor<[2,3,?,5],bf16>
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor %[[HI]], %[[LO]], {{.*}} -> !torch.vtensor<[2,3,?,5],bf16>
// CHECK: return %[[D]]
func.func @prepend_and_append_rank4(%x: !torch.vtensor<[2,3,?,5],bf16>, %p: !torch.vtensor<[2,3,1,5],bf16>, %a: !torch.vtensor<[2,3,2,5],bf16>) -> !torch.vtensor<[2,3,?,5],bf16> {
  %int1 = torch.constant.int 1
  %int-2 = torch.constant.int -2
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int-2, %p, %a) : (!torch.vtensor<[2,3,?,5],bf16>, !torch.int, !torch.int, !torch.vtensor<[2,3,1,5],bf16>, !torch.vtensor<[2,3,2,5],bf16>) -> !torch.vtensor<[2,3,?,5],bf16>
  return %r : !torch.vtensor<[2,3,?,5],bf16>
}

// -----

// Bool: torch takes logical_xor of the neighbours, not a subtraction.
// CHECK-LABEL: func.func @bool_xor
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[5],i1>)
// CHECK: %[[HI:.+]] = torch.aten.slice.Tensor %[[X]], {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[LO:.+]] = torch.aten.slice.Tensor %[[X]], {{.*}} -> !torch.vtensor<[4],i1>
// CHECK: %[[D:.+]] = torch.aten.logical_xor %[[HI]], %[[LO]] : {{.*}} -> !torch.vtensor<[4],i1>
// CHECK-NOT: torch.aten.sub.Tensor
// CHECK: return %[[D]]
func.func @bool_xor(%x: !torch.vtensor<[5],i1>) -> !torch.vtensor<[4],i1> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %none, %none) : (!torch.vtensor<[5],i1>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[4],i1>
  return %r : !torch.vtensor<[4],i1>
}

// -----

// An si32 input with an si64 prepend: torch computes in the promoted si64; the input is converted
// first (dtype code 4), explicitly, so that torch-mlir's cat does not convert it its own way.
// CHECK-LABEL: func.func @mixed_dtypes
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4],si32>, %[[P:.+]]: !torch.vtensor<[1],si64>)
// CHECK: %[[XC:.+]] = torch.prims.convert_element_type %[[X]], %int4{{(_[0-9]+)?}} : !torch.vtensor<[4],si32>, !torch.int -> !torch.vtensor<[4],si64>
// CHECK: %[[PARTS:.+]] = torch.prim.ListConstruct %[[P]], %[[XC]] :
// CHECK: %[[CAT:.+]] = torch.aten.cat %[[PARTS]], {{.*}} -> !torch.vtensor<[5],si64>
// CHECK: torch.aten.slice.Tensor %[[CAT]],
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[4],si64>
// CHECK: return %[[D]]
func.func @mixed_dtypes(%x: !torch.vtensor<[4],si32>, %p: !torch.vtensor<[1],si64>) -> !torch.vtensor<[4],si64> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %p, %none) : (!torch.vtensor<[4],si32>, !torch.int, !torch.int, !torch.vtensor<[1],si64>, !torch.none) -> !torch.vtensor<[4],si64>
  return %r : !torch.vtensor<[4],si64>
}

// -----

// n = 0: at::diff returns the input; the prepend is not even concatenated.
// CHECK-LABEL: func.func @order_zero
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2,3],si64>, %[[P:.+]]: !torch.vtensor<[2,1],si64>)
// CHECK-NOT: torch.aten.cat
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK-NOT: torch.operator
// CHECK: return %[[X]]
func.func @order_zero(%x: !torch.vtensor<[2,3],si64>, %p: !torch.vtensor<[2,1],si64>) -> !torch.vtensor<[2,3],si64> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int0, %int1, %p, %none) : (!torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.vtensor<[2,1],si64>, !torch.none) -> !torch.vtensor<[2,3],si64>
  return %r : !torch.vtensor<[2,3],si64>
}

// -----

// n = 0 where the result is typed with less static information than the input: a static info cast.
// CHECK-LABEL: func.func @order_zero_less_static
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[4],f32>)
// CHECK: %[[C:.+]] = torch.tensor_static_info_cast %[[X]] : !torch.vtensor<[4],f32> to !torch.vtensor<[?],f32>
// CHECK: return %[[C]]
func.func @order_zero_less_static(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int0, %int0, %none, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// n = 5 over a static length 2: two steps reach an empty tensor, which further steps leave as it
// is, so two are written out (torch gives the same empty [0]).
// CHECK-LABEL: func.func @order_beyond_length
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[2],si32>)
// CHECK: %[[HI1:.+]] = torch.aten.slice.Tensor %[[X]], {{.*}} -> !torch.vtensor<[1],si32>
// CHECK: %[[LO1:.+]] = torch.aten.slice.Tensor %[[X]], {{.*}} -> !torch.vtensor<[1],si32>
// CHECK: %[[D1:.+]] = torch.aten.sub.Tensor %[[HI1]], %[[LO1]], {{.*}} -> !torch.vtensor<[1],si32>
// CHECK: %[[HI2:.+]] = torch.aten.slice.Tensor %[[D1]], {{.*}} -> !torch.vtensor<[0],si32>
// CHECK: %[[LO2:.+]] = torch.aten.slice.Tensor %[[D1]], {{.*}} -> !torch.vtensor<[0],si32>
// CHECK: %[[D2:.+]] = torch.aten.sub.Tensor %[[HI2]], %[[LO2]], {{.*}} -> !torch.vtensor<[0],si32>
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: return %[[D2]]
func.func @order_beyond_length(%x: !torch.vtensor<[2],si32>) -> !torch.vtensor<[0],si32> {
  %int5 = torch.constant.int 5
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int5, %int0, %none, %none) : (!torch.vtensor<[2],si32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[0],si32>
  return %r : !torch.vtensor<[0],si32>
}

// -----

// n = 3 over a dynamic length: three steps, every size along dim stays dynamic.
// CHECK-LABEL: func.func @dynamic_third_order
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,2],f32>)
// CHECK: %[[D1:.+]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[?,2],f32>
// CHECK: torch.aten.slice.Tensor %[[D1]],
// CHECK: %[[D2:.+]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[?,2],f32>
// CHECK: torch.aten.slice.Tensor %[[D2]],
// CHECK: %[[D3:.+]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[?,2],f32>
// CHECK-NOT: torch.aten.sub.Tensor
// CHECK: return %[[D3]]
func.func @dynamic_third_order(%x: !torch.vtensor<[?,2],f32>) -> !torch.vtensor<[?,2],f32> {
  %int3 = torch.constant.int 3
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int3, %int0, %none, %none) : (!torch.vtensor<[?,2],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[?,2],f32>
  return %r : !torch.vtensor<[?,2],f32>
}

// -----

// A static computation whose result is typed dynamic: computed in static types, cast at the end.
// CHECK-LABEL: func.func @static_result_typed_dynamic
// CHECK: %[[CAT:.+]] = torch.aten.cat {{.*}} -> !torch.vtensor<[2,4],si64>
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor {{.*}} -> !torch.vtensor<[2,3],si64>
// CHECK: %[[C:.+]] = torch.tensor_static_info_cast %[[D]] : !torch.vtensor<[2,3],si64> to !torch.vtensor<[2,?],si64>
// CHECK: return %[[C]]
func.func @static_result_typed_dynamic(%x: !torch.vtensor<[2,3],si64>, %p: !torch.vtensor<[2,1],si64>) -> !torch.vtensor<[2,?],si64> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int1, %p, %none) : (!torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.vtensor<[2,1],si64>, !torch.none) -> !torch.vtensor<[2,?],si64>
  return %r : !torch.vtensor<[2,?],si64>
}

// -----

// A statically empty prepend adds nothing: left out, no concatenation (torch-mlir's cat fails when
// every part is empty).
// CHECK-LABEL: func.func @empty_prepend_left_out
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?],f32>, %[[P:.+]]: !torch.vtensor<[0],f32>)
// CHECK-NOT: torch.aten.cat
// CHECK: %[[HI:.+]] = torch.aten.slice.Tensor %[[X]],
// CHECK: %[[LO:.+]] = torch.aten.slice.Tensor %[[X]],
// CHECK: %[[D:.+]] = torch.aten.sub.Tensor %[[HI]], %[[LO]],
// CHECK: return %[[D]]
func.func @empty_prepend_left_out(%x: !torch.vtensor<[?],f32>, %p: !torch.vtensor<[0],f32>) -> !torch.vtensor<[?],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %p, %none) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.vtensor<[0],f32>, !torch.none) -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// Negative: another operator.
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: not torch.aten.diff
// CHECK-LABEL: func.func @no_other_operator
// CHECK: torch.operator "torch.aten.something_else"
func.func @no_other_operator(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.something_else"(%x, %int1, %int0, %none, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}

// -----

// Negative: n not a constant (how many steps is unknown).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: n is not a torch.constant.int
// CHECK-LABEL: func.func @no_constant_n
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_constant_n(%x: !torch.vtensor<[4],f32>, %n: !torch.int) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %n, %int0, %none, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// Negative: dim not a constant.
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: dim is not a torch.constant.int
// CHECK-LABEL: func.func @no_constant_dim
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_constant_dim(%x: !torch.vtensor<[4,4],f32>, %dim: !torch.int) -> !torch.vtensor<[?,?],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %dim, %none, %none) : (!torch.vtensor<[4,4],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}

// -----

// Negative: a negative n (torch raises).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: n is negative (torch raises)
// CHECK-LABEL: func.func @no_negative_n
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_negative_n(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int-1, %int0, %none, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: an unranked input (neither the rank nor dim's place is known).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked_input
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_unranked_input(%x: !torch.vtensor) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int1, %none, %none) : (!torch.vtensor, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor
  return %r : !torch.vtensor
}

// -----

// Negative: a 0-d input (torch raises).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: a 0-d input (torch raises)
// CHECK-LABEL: func.func @no_zero_d_input
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_zero_d_input(%x: !torch.vtensor<[],f32>) -> !torch.vtensor<[],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %none, %none) : (!torch.vtensor<[],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: dim 2 of a rank-2 input (torch raises).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: dim 2 out of range for rank 2 (torch raises)
// CHECK-LABEL: func.func @no_dim_out_of_range
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_dim_out_of_range(%x: !torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,3],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int2, %none, %none) : (!torch.vtensor<[4,4],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[4,3],f32>
  return %r : !torch.vtensor<[4,3],f32>
}

// -----

// Negative: a prepend of another rank (torch raises).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: a prepend or append that is not a ranked !torch.vtensor of the input's rank (torch raises)
// CHECK-LABEL: func.func @no_prepend_of_another_rank
// CHECK-NOT: torch.aten.cat
// CHECK: torch.operator "torch.aten.diff"
func.func @no_prepend_of_another_rank(%x: !torch.vtensor<[2,3],si64>, %p: !torch.vtensor<[2],si64>) -> !torch.vtensor<[2,3],si64> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int1, %p, %none) : (!torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.vtensor<[2],si64>, !torch.none) -> !torch.vtensor<[2,3],si64>
  return %r : !torch.vtensor<[2,3],si64>
}

// -----

// Negative: an append whose size off dim (3) is not the input's (2) (torch raises).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: prepend or append sizes off dim disagree with the input's (torch raises)
// CHECK-LABEL: func.func @no_append_sizes_disagree
// CHECK-NOT: torch.aten.cat
// CHECK: torch.operator "torch.aten.diff"
func.func @no_append_sizes_disagree(%x: !torch.vtensor<[2,3],si64>, %a: !torch.vtensor<[3,1],si64>) -> !torch.vtensor<[2,3],si64> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int1, %none, %a) : (!torch.vtensor<[2,3],si64>, !torch.int, !torch.int, !torch.none, !torch.vtensor<[3,1],si64>) -> !torch.vtensor<[2,3],si64>
  return %r : !torch.vtensor<[2,3],si64>
}

// -----

// Negative: a result dtype (si32) that is not torch's promotion of the parts' (si64).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: the result's dtype si32 is not torch's promotion of the parts' (si64)
// CHECK-LABEL: func.func @no_result_dtype_not_promotion
// CHECK-NOT: torch.aten.cat
// CHECK: torch.operator "torch.aten.diff"
func.func @no_result_dtype_not_promotion(%x: !torch.vtensor<[4],si32>, %p: !torch.vtensor<[1],si64>) -> !torch.vtensor<[4],si32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %p, %none) : (!torch.vtensor<[4],si32>, !torch.int, !torch.int, !torch.vtensor<[1],si64>, !torch.none) -> !torch.vtensor<[4],si32>
  return %r : !torch.vtensor<[4],si32>
}

// -----

// Negative: a dtype outside the promotion table (complex).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: a dtype outside the promotion table (torch_ir): ['complex<f32>']
// CHECK-LABEL: func.func @no_dtype_outside_table
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_dtype_outside_table(%x: !torch.vtensor<[4],complex<f32>>) -> !torch.vtensor<[3],complex<f32>> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %none, %none) : (!torch.vtensor<[4],complex<f32>>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[3],complex<f32>>
  return %r : !torch.vtensor<[3],complex<f32>>
}

// -----

// Negative: a result typed [2] where torch gives [3].
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: the result's static sizes are not the ones torch gives
// CHECK-LABEL: func.func @no_result_sizes_disagree
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_result_sizes_disagree(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[2],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int1, %int0, %none, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[2],f32>
  return %r : !torch.vtensor<[2],f32>
}

// -----

// Negative: n = 0 with a result of another dtype than the input's (torch returns the input).
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: n is 0 but the result's type is not the input's
// CHECK-LABEL: func.func @no_order_zero_of_another_dtype
// CHECK: torch.operator "torch.aten.diff"
func.func @no_order_zero_of_another_dtype(%x: !torch.vtensor<[4],si64>, %p: !torch.vtensor<[1],f32>) -> !torch.vtensor<[4],f32> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int0, %int0, %p, %none) : (!torch.vtensor<[4],si64>, !torch.int, !torch.int, !torch.vtensor<[1],f32>, !torch.none) -> !torch.vtensor<[4],f32>
  return %r : !torch.vtensor<[4],f32>
}

// -----

// Negative: n = 17 over a dynamic length: more steps than MAX_DYNAMIC_ORDER (16) to write out.
// WHY: decompose_diff: no match on 'torch.operator' at {{.*}}: n = 17 over a dynamic length: more than 16 differences to write out
// CHECK-LABEL: func.func @no_high_order_over_dynamic_length
// CHECK-NOT: torch.aten.slice.Tensor
// CHECK: torch.operator "torch.aten.diff"
func.func @no_high_order_over_dynamic_length(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %int17 = torch.constant.int 17
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %r = torch.operator "torch.aten.diff"(%x, %int17, %int0, %none, %none) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.none, !torch.none) -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}
