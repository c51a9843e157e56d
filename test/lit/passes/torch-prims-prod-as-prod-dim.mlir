// RUN: opt-py %s --split-input-file -p torch-prims-prod-as-prod-dim | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-prims-prod-as-prod-dim --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// dims [0, 1] of a dynamic f32 [?,?,?]: dim 1 first, then dim 0, keepdim false, dtype none.
// CHECK-LABEL: func.func @prod_two_dims
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?,?],f32>)
// CHECK: %[[P1:.+]] = torch.aten.prod.dim_int %[[X]], %int1{{(_[0-9]+)?}}, %false{{(_[0-9]+)?}}, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK: %[[P0:.+]] = torch.aten.prod.dim_int %[[P1]], %int0{{(_[0-9]+)?}}, %false{{(_[0-9]+)?}}, %none{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK-NOT: torch.prims.prod
// CHECK: return %[[P0]]
func.func @prod_two_dims(%x: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int0, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<[?,?,?],f32>, !torch.list<int>, !torch.none -> !torch.vtensor<[?],f32>
  return %r : !torch.vtensor<[?],f32>
}

// -----

// A result more static than the chain's: cast to it.
// CHECK-LABEL: func.func @prod_cast
// CHECK: %[[P:.+]] = torch.aten.prod.dim_int {{.*}} -> !torch.vtensor<[?],f64>
// CHECK: %[[R:.+]] = torch.tensor_static_info_cast %[[P]] : !torch.vtensor<[?],f64> to !torch.vtensor<[3],f64>
// CHECK: return %[[R]]
func.func @prod_cast(%x: !torch.vtensor<[?,4],f64>) -> !torch.vtensor<[3],f64> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<[?,4],f64>, !torch.list<int>, !torch.none -> !torch.vtensor<[3],f64>
  return %r : !torch.vtensor<[3],f64>
}

// -----

// Negative: a negative dim (prims assert on it).
// WHY: prims_prod_as_prod_dim: no match on 'torch.prims.prod' at {{.*}}: dims are not distinct constant ints in [0, rank)
// CHECK-LABEL: func.func @no_negative_dim
// CHECK: torch.prims.prod
func.func @no_negative_dim(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int-1 = torch.constant.int -1
  %dims = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.none -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}

// -----

// Negative: a repeated dim.
// WHY: prims_prod_as_prod_dim: no match on 'torch.prims.prod' at {{.*}}: dims are not distinct constant ints in [0, rank)
// CHECK-LABEL: func.func @no_repeated_dim
// CHECK: torch.prims.prod
func.func @no_repeated_dim(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.none -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}

// -----

// Negative: dims not constant.
// WHY: prims_prod_as_prod_dim: no match on 'torch.prims.prod' at {{.*}}: dims are not distinct constant ints in [0, rank)
// CHECK-LABEL: func.func @no_runtime_dims
// CHECK: torch.prims.prod
func.func @no_runtime_dims(%x: !torch.vtensor<[3,4],f32>, %dims: !torch.list<int>) -> !torch.vtensor<[3],f32> {
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.none -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}

// -----

// Negative: an output_dtype given.
// WHY: prims_prod_as_prod_dim: no match on 'torch.prims.prod' at {{.*}}: an output_dtype is given
// CHECK-LABEL: func.func @no_output_dtype
// CHECK: torch.prims.prod
func.func @no_output_dtype(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %int6 = torch.constant.int 6
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %r = torch.prims.prod %x, %dims, %int6 : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.int -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}

// -----

// Negative: an integer dtype (prod.dim_int with dtype none widens it to si64).
// WHY: prims_prod_as_prod_dim: no match on 'torch.prims.prod' at {{.*}}: dtypes si32 -> si32: not one float dtype
// CHECK-LABEL: func.func @no_integer
// CHECK: torch.prims.prod
func.func @no_integer(%x: !torch.vtensor<[3,4],si32>) -> !torch.vtensor<[3],si32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<[3,4],si32>, !torch.list<int>, !torch.none -> !torch.vtensor<[3],si32>
  return %r : !torch.vtensor<[3],si32>
}

// -----

// Negative: a result whose sizes are not the input's left by the dims.
// WHY: prims_prod_as_prod_dim: no match on 'torch.prims.prod' at {{.*}}: the result (5,) is not the input's sizes (3,) left by dims [1]
// CHECK-LABEL: func.func @no_wrong_result
// CHECK: torch.prims.prod
func.func @no_wrong_result(%x: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[5],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<[3,4],f32>, !torch.list<int>, !torch.none -> !torch.vtensor<[5],f32>
  return %r : !torch.vtensor<[5],f32>
}

// -----

// Negative: an unranked input.
// WHY: prims_prod_as_prod_dim: no match on 'torch.prims.prod' at {{.*}}: the input or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.prims.prod
func.func @no_unranked(%x: !torch.vtensor<*,f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %none = torch.constant.none
  %r = torch.prims.prod %x, %dims, %none : !torch.vtensor<*,f32>, !torch.list<int>, !torch.none -> !torch.vtensor<[3],f32>
  return %r : !torch.vtensor<[3],f32>
}
