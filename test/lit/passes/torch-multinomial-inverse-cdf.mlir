// RUN: opt-py %s --split-input-file -p torch-multinomial-inverse-cdf | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-multinomial-inverse-cdf --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// A dynamic batch of f32 weights, 16 draws a row: cumulative sums, the row's total their last, 16 uniform
// draws a row scaled by it, per draw the count of cumulative sums at or below it, clamped to the last positive weight;
// counts and indices in si32 (code 3), the samples widened to si64 (code 4) at the end.
// CHECK-LABEL: func.func @rows_f32
// CHECK-SAME: (%[[P:.+]]: !torch.vtensor<[?,?],f32>)
// CHECK: %[[CDF:.+]] = torch.aten.cumsum %[[P]], %int1{{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK: %[[TOTAL:.+]] = torch.aten.slice.Tensor %[[CDF]], %int1{{.*}}, %int-1, %none{{.*}}, %int1{{.*}} -> !torch.vtensor<[?,1],f32>
// CHECK: %[[B:.+]] = torch.aten.size.int %[[P]], %int0
// CHECK: %[[SHAPE:.+]] = torch.prim.ListConstruct %[[B]], %int16
// CHECK: %[[EMPTY:.+]] = torch.aten.empty.memory_format %[[SHAPE]], %int6{{.*}} -> !torch.vtensor<[?,16],f32>
// CHECK: %[[U:.+]] = torch.aten.uniform %[[EMPTY]], %float0.{{.+}}, %float1.{{.+}} -> !torch.vtensor<[?,16],f32>
// CHECK: %[[THR:.+]] = torch.aten.mul.Tensor %[[U]], %[[TOTAL]] : {{.*}} -> !torch.vtensor<[?,16],f32>
// CHECK: %[[CDF3:.+]] = torch.aten.unsqueeze %[[CDF]], %int1{{.*}} -> !torch.vtensor<[?,1,?],f32>
// CHECK: %[[THR3:.+]] = torch.aten.unsqueeze %[[THR]], %int2{{.*}} -> !torch.vtensor<[?,16,1],f32>
// CHECK: %[[LE:.+]] = torch.aten.le.Tensor %[[CDF3]], %[[THR3]] : {{.*}} -> !torch.vtensor<[?,16,?],i1>
// CHECK: %[[COUNT:.+]] = torch.aten.sum.dim_IntList %[[LE]], %{{.+}}, %false, %int3{{.*}} -> !torch.vtensor<[?,16],si32>
// CHECK: %[[K:.+]] = torch.aten.size.int %[[P]], %int1
// CHECK: %[[IDS:.+]] = torch.aten.arange %[[K]], %int3{{.*}} -> !torch.vtensor<[?],si32>
// CHECK: %[[POS:.+]] = torch.aten.gt.Scalar %[[P]], %float0.{{.+}} -> !torch.vtensor<[?,?],i1>
// CHECK: %[[W:.+]] = torch.aten.where.ScalarOther %[[POS]], %[[IDS]], %int0{{.*}} -> !torch.vtensor<[?,?],si32>
// CHECK: %[[LAST:.+]] = torch.aten.amax %[[W]], %{{.+}}, %true{{.*}} -> !torch.vtensor<[?,1],si32>
// CHECK: %[[MIN:.+]] = torch.aten.minimum %[[COUNT]], %[[LAST]] : {{.*}} -> !torch.vtensor<[?,16],si32>
// CHECK: %[[S:.+]] = torch.prims.convert_element_type %[[MIN]], %int4{{.*}} -> !torch.vtensor<[?,16],si64>
// CHECK-NOT: torch.aten.multinomial
// CHECK: return %[[S]]
func.func @rows_f32(%p: !torch.vtensor<[?,?],f32>) -> !torch.vtensor<[?,16],si64> {
  %n = torch.constant.int 16
  %true = torch.constant.bool true
  %none = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %true, %none : !torch.vtensor<[?,?],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[?,16],si64>
  return %r : !torch.vtensor<[?,16],si64>
}

// -----

// One f16 row, one draw without replacement (the same as with): computed in f32 (code 6), the result cast
// to the static type the op declared.
// CHECK-LABEL: func.func @row_f16_one_draw
// CHECK-SAME: (%[[P:.+]]: !torch.vtensor<[5],f16>)
// CHECK: %[[PF:.+]] = torch.prims.convert_element_type %[[P]], %int6{{.*}} -> !torch.vtensor<[5],f32>
// CHECK: torch.aten.cumsum %[[PF]], %int0{{.*}} -> !torch.vtensor<[5],f32>
// CHECK: %[[SHAPE:.+]] = torch.prim.ListConstruct %int1{{.*}} : (!torch.int) -> !torch.list<int>
// CHECK: torch.aten.le.Tensor {{.*}} -> !torch.vtensor<[1,5],i1>
// CHECK: %[[S:.+]] = torch.prims.convert_element_type {{.*}} -> !torch.vtensor<[1],si64>
// CHECK-NOT: torch.aten.multinomial
// CHECK: return %[[S]]
func.func @row_f16_one_draw(%p: !torch.vtensor<[5],f16>) -> !torch.vtensor<[1],si64> {
  %n = torch.constant.int 1
  %false = torch.constant.bool false
  %none = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %false, %none : !torch.vtensor<[5],f16>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[1],si64>
  return %r : !torch.vtensor<[1],si64>
}

// -----

// A result typed less precisely than what is built: cast to it.
// CHECK-LABEL: func.func @result_dynamic
// CHECK: %[[S:.+]] = torch.prims.convert_element_type {{.*}} -> !torch.vtensor<[3,4],si64>
// CHECK: %[[R:.+]] = torch.tensor_static_info_cast %[[S]] : !torch.vtensor<[3,4],si64> to !torch.vtensor<[?,?],si64>
// CHECK: return %[[R]]
func.func @result_dynamic(%p: !torch.vtensor<[3,7],f64>) -> !torch.vtensor<[?,?],si64> {
  %n = torch.constant.int 4
  %true = torch.constant.bool true
  %none = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %true, %none : !torch.vtensor<[3,7],f64>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[?,?],si64>
  return %r : !torch.vtensor<[?,?],si64>
}

// -----

// WHY: a generator given
// CHECK-LABEL: func.func @generator
// CHECK: torch.aten.multinomial
func.func @generator(%p: !torch.vtensor<[3,7],f32>, %gen: !torch.Generator) -> !torch.vtensor<[3,4],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.Generator -> !torch.vtensor<[3,4],si64>
  return %r : !torch.vtensor<[3,4],si64>
}

// -----

// WHY: an operand or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @unranked
// CHECK: torch.aten.multinomial
func.func @unranked(%p: !torch.vtensor<*,f32>) -> !torch.vtensor<[3,4],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<*,f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,4],si64>
  return %r : !torch.vtensor<[3,4],si64>
}

// -----

// WHY: an input of rank 3 (torch takes rank 1 or 2)
// CHECK-LABEL: func.func @rank3
// CHECK: torch.aten.multinomial
func.func @rank3(%p: !torch.vtensor<[2,3,7],f32>) -> !torch.vtensor<[2,3,4],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[2,3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[2,3,4],si64>
  return %r : !torch.vtensor<[2,3,4],si64>
}

// -----

// WHY: a si64 input: not f16, bf16, f32 nor f64
// CHECK-LABEL: func.func @int_weights
// CHECK: torch.aten.multinomial
func.func @int_weights(%p: !torch.vtensor<[3,7],si64>) -> !torch.vtensor<[3,4],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],si64>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,4],si64>
  return %r : !torch.vtensor<[3,4],si64>
}

// -----

// WHY: a si32 result of rank 2: not si64 of the input's rank
// CHECK-LABEL: func.func @si32_result
// CHECK: torch.aten.multinomial
func.func @si32_result(%p: !torch.vtensor<[3,7],f32>) -> !torch.vtensor<[3,4],si32> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,4],si32>
  return %r : !torch.vtensor<[3,4],si32>
}

// -----

// WHY: num_samples not a constant above 0
// CHECK-LABEL: func.func @dynamic_count
// CHECK: torch.aten.multinomial
func.func @dynamic_count(%p: !torch.vtensor<[3,7],f32>, %n: !torch.int) -> !torch.vtensor<[3,?],si64> {
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,?],si64>
  return %r : !torch.vtensor<[3,?],si64>
}

// -----

// WHY: num_samples not a constant above 0
// CHECK-LABEL: func.func @zero_count
// CHECK: torch.aten.multinomial
func.func @zero_count(%p: !torch.vtensor<[3,7],f32>) -> !torch.vtensor<[3,0],si64> {
  %n = torch.constant.int 0
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,0],si64>
  return %r : !torch.vtensor<[3,0],si64>
}

// -----

// WHY: a result [3, 5] that cannot hold 4 samples a row of [3] rows
// CHECK-LABEL: func.func @count_mismatch
// CHECK: torch.aten.multinomial
func.func @count_mismatch(%p: !torch.vtensor<[3,7],f32>) -> !torch.vtensor<[3,5],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,5],si64>
  return %r : !torch.vtensor<[3,5],si64>
}

// -----

// WHY: replacement not a constant
// CHECK-LABEL: func.func @dynamic_replacement
// CHECK: torch.aten.multinomial
func.func @dynamic_replacement(%p: !torch.vtensor<[3,7],f32>, %rep: !torch.bool) -> !torch.vtensor<[3,4],si64> {
  %n = torch.constant.int 4
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,4],si64>
  return %r : !torch.vtensor<[3,4],si64>
}

// -----

// WHY: sampling without replacement (more than one sample a row)
// CHECK-LABEL: func.func @without_replacement
// CHECK: torch.aten.multinomial
func.func @without_replacement(%p: !torch.vtensor<[3,7],f32>) -> !torch.vtensor<[3,4],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool false
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,4],si64>
  return %r : !torch.vtensor<[3,4],si64>
}

// -----

// WHY: a result [5, 4] that cannot hold 4 samples a row of [3] rows
// CHECK-LABEL: func.func @rows_mismatch
// CHECK: torch.aten.multinomial
func.func @rows_mismatch(%p: !torch.vtensor<[3,7],f32>) -> !torch.vtensor<[5,4],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,7],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[5,4],si64>
  return %r : !torch.vtensor<[5,4],si64>
}

// -----

// WHY: no categories (torch raises)
// CHECK-LABEL: func.func @no_categories
// CHECK: torch.aten.multinomial
func.func @no_categories(%p: !torch.vtensor<[3,0],f32>) -> !torch.vtensor<[3,4],si64> {
  %n = torch.constant.int 4
  %rep = torch.constant.bool true
  %gen = torch.constant.none
  %r = torch.aten.multinomial %p, %n, %rep, %gen : !torch.vtensor<[3,0],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,4],si64>
  return %r : !torch.vtensor<[3,4],si64>
}
