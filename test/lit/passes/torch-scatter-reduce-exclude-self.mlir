// RUN: opt-py %s --split-input-file -p torch-scatter-reduce-exclude-self | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-scatter-reduce-exclude-self --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Integer mean: the identity 0 scattered from an index-fed where, a sum with include_self, divided (floor) by
// the scatter_add count of index-fed ones where 0 reads 1.
// CHECK-LABEL: func.func @mean_si32
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,4],si32>, %[[I:.+]]: !torch.vtensor<[?,4],si64>, %[[S:.+]]: !torch.vtensor<[?,4],si32>)
// CHECK: %[[DIM:.+]] = torch.constant.int 0
// CHECK: %[[VALID:.+]] = torch.aten.ge.Scalar %[[I]], %{{.+}} : !torch.vtensor<[?,4],si64>, !torch.int -> !torch.vtensor<[?,4],i1>
// CHECK: %[[ZERO:.+]] = torch.constant.int 0
// CHECK: %[[INIT:.+]] = torch.aten.where.Scalar %[[VALID]], %[[ZERO]], %{{.+}} : {{.+}} -> !torch.vtensor<[?,4],si32>
// CHECK: %[[CLEARED:.+]] = torch.aten.scatter.src %[[X]], %[[DIM]], %[[I]], %[[INIT]] :
// CHECK: %[[SUMSTR:.+]] = torch.constant.str "sum"
// CHECK: %[[TRUE:.+]] = torch.constant.bool true
// CHECK: %[[SUM:.+]] = torch.aten.scatter_reduce.two %[[CLEARED]], %[[DIM]], %[[I]], %[[S]], %[[SUMSTR]], %[[TRUE]] :
// CHECK: %[[ZEROS:.+]] = torch.aten.zeros_like %[[X]]
// CHECK: %[[ONE:.+]] = torch.constant.int 1
// CHECK: %[[ONES:.+]] = torch.aten.where.Scalar %[[VALID]], %[[ONE]], %{{.+}} :
// CHECK: %[[COUNT:.+]] = torch.aten.scatter_add %[[ZEROS]], %[[DIM]], %[[I]], %[[ONES]] :
// CHECK: %[[EMPTY:.+]] = torch.aten.eq.Scalar %[[COUNT]], %{{.+}} :
// CHECK: %[[COUNT1:.+]] = torch.aten.masked_fill.Scalar %[[COUNT]], %[[EMPTY]], %{{.+}} :
// CHECK: %[[FLOOR:.+]] = torch.constant.str "floor"
// CHECK: %[[R:.+]] = torch.aten.div.Tensor_mode %[[SUM]], %[[COUNT1]], %[[FLOOR]] :
// CHECK: return %[[R]]
func.func @mean_si32(%x: !torch.vtensor<[?,4],si32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],si32>) -> !torch.vtensor<[?,4],si32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "mean"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],si32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],si32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],si32>
  return %r : !torch.vtensor<[?,4],si32>
}

// -----

// Float amax with dim -1: the wrapped dim 1, the identity -inf, then amax with include_self; no count.
// CHECK-LABEL: func.func @amax_f32_negative_dim
// CHECK: %[[DIM:.+]] = torch.constant.int 1
// CHECK: %[[VALID:.+]] = torch.aten.ge.Scalar %arg1
// CHECK: %[[NINF:.+]] = torch.constant.float 0xFFF0000000000000
// CHECK: %[[INIT:.+]] = torch.aten.where.Scalar %[[VALID]], %[[NINF]], %{{.+}} :
// CHECK: %[[CLEARED:.+]] = torch.aten.scatter.src %arg0, %[[DIM]], %arg1, %[[INIT]] :
// CHECK: %[[AMAX:.+]] = torch.constant.str "amax"
// CHECK: %[[R:.+]] = torch.aten.scatter_reduce.two %[[CLEARED]], %[[DIM]], %arg1, %arg2, %[[AMAX]], %{{.+}} :
// CHECK-NOT: scatter_add
// CHECK: return %[[R]]
func.func @amax_f32_negative_dim(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int -1
  %str = torch.constant.str "amax"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// si8 amin: the identity is the dtype's highest, 127.
// CHECK-LABEL: func.func @amin_si8
// CHECK: %[[HIGH:.+]] = torch.constant.int 127
// CHECK: torch.aten.where.Scalar %{{.+}}, %[[HIGH]], %{{.+}} : {{.+}} -> !torch.vtensor<[?,4],si8>
func.func @amin_si8(%x: !torch.vtensor<[?,4],si8>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],si8>) -> !torch.vtensor<[?,4],si8> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "amin"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],si8>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],si8>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],si8>
  return %r : !torch.vtensor<[?,4],si8>
}

// -----

// Left alone: include_self is true.
// CHECK-LABEL: func.func @include_self_true
// CHECK: torch.aten.scatter_reduce.two %arg0
// CHECK-NOT: torch.aten.scatter.src
// WHY: exclude_self_as_init_scatter: no match on 'torch.aten.scatter_reduce.two' at {{.*}}: include_self is true (torch-mlir's lowering compiles)
func.func @include_self_true(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "sum"
  %false = torch.constant.bool true
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// Left alone: include_self is not a torch.constant.bool.
// CHECK-LABEL: func.func @include_self_not_constant
// CHECK: torch.aten.scatter_reduce.two %arg0
// CHECK-NOT: torch.aten.scatter.src
// WHY: exclude_self_as_init_scatter: no match on 'torch.aten.scatter_reduce.two' at {{.*}}: include_self is not a torch.constant.bool
func.func @include_self_not_constant(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],f32>, %false: !torch.bool) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "sum"
  
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// Left alone: reduce is not a torch.constant.str among sum, prod, amax, amin, mean.
// CHECK-LABEL: func.func @reduce_unknown
// CHECK: torch.aten.scatter_reduce.two %arg0
// CHECK-NOT: torch.aten.scatter.src
// WHY: exclude_self_as_init_scatter: no match on 'torch.aten.scatter_reduce.two' at {{.*}}: reduce is not a torch.constant.str among sum, prod, amax, amin, mean
func.func @reduce_unknown(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "max"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// Left alone: dim is not a torch.constant.int.
// CHECK-LABEL: func.func @dim_not_constant
// CHECK: torch.aten.scatter_reduce.two %arg0
// CHECK-NOT: torch.aten.scatter.src
// WHY: exclude_self_as_init_scatter: no match on 'torch.aten.scatter_reduce.two' at {{.*}}: dim is not a torch.constant.int
func.func @dim_not_constant(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],f32>, %int0: !torch.int) -> !torch.vtensor<[?,4],f32> {
  
  %str = torch.constant.str "sum"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// Left alone: dim 2 out of range for rank 2.
// CHECK-LABEL: func.func @dim_out_of_range
// CHECK: torch.aten.scatter_reduce.two %arg0
// CHECK-NOT: torch.aten.scatter.src
// WHY: exclude_self_as_init_scatter: no match on 'torch.aten.scatter_reduce.two' at {{.*}}: dim 2 out of range for rank 2 (torch raises)
func.func @dim_out_of_range(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int 2
  %str = torch.constant.str "sum"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],f32>
  return %r : !torch.vtensor<[?,4],f32>
}

// -----

// Left alone: self and src not of one int or float dtype, or index not si64.
// CHECK-LABEL: func.func @bool_dtype
// CHECK: torch.aten.scatter_reduce.two %arg0
// CHECK-NOT: torch.aten.scatter.src
// WHY: exclude_self_as_init_scatter: no match on 'torch.aten.scatter_reduce.two' at {{.*}}: self and src not of one int or float dtype, or index not si64
func.func @bool_dtype(%x: !torch.vtensor<[?,4],i1>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],i1>) -> !torch.vtensor<[?,4],i1> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "sum"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],i1>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],i1>, !torch.str, !torch.bool -> !torch.vtensor<[?,4],i1>
  return %r : !torch.vtensor<[?,4],i1>
}

// -----

// Left alone: the result !torch.vtensor<[?,?],f32> is not self's type.
// CHECK-LABEL: func.func @result_not_self
// CHECK: torch.aten.scatter_reduce.two %arg0
// CHECK-NOT: torch.aten.scatter.src
// WHY: exclude_self_as_init_scatter: no match on 'torch.aten.scatter_reduce.two' at {{.*}}: the result !torch.vtensor<[?,?],f32> is not self's type
func.func @result_not_self(%x: !torch.vtensor<[?,4],f32>, %i: !torch.vtensor<[?,4],si64>, %s: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,?],f32> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "sum"
  %false = torch.constant.bool false
  %r = torch.aten.scatter_reduce.two %x, %int0, %i, %s, %str, %false : !torch.vtensor<[?,4],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32>, !torch.str, !torch.bool -> !torch.vtensor<[?,?],f32>
  return %r : !torch.vtensor<[?,?],f32>
}
