// RUN: opt-py %s --split-input-file -p torch-decompose-cross-entropy-loss | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-decompose-cross-entropy-loss --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// The suite's CrossEntropyLossModule: [?,?] logits, [?] targets, mean over the targets not ignored (-100).
// CHECK-LABEL: func.func @mean_2d
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[?,?],f32>, %[[T:.+]]: !torch.vtensor<[?],si64>)
// CHECK: %[[LOGP:.+]] = torch.aten.log_softmax.int %[[X]], %[[ONE:.+]], %{{.+}} : {{.*}} -> !torch.vtensor<[?,?],f32>
// CHECK: %[[IGN:.+]] = torch.constant.int -100
// CHECK: %[[KEEP:.+]] = torch.aten.ne.Scalar %[[T]], %[[IGN]] : {{.*}} -> !torch.vtensor<[?],i1>
// CHECK: %[[ZERO:.+]] = torch.constant.int 0
// CHECK: %[[SAFE:.+]] = torch.aten.where.ScalarOther %[[KEEP]], %[[T]], %[[ZERO]] : {{.*}} -> !torch.vtensor<[?],si64>
// CHECK: %[[IDX:.+]] = torch.aten.unsqueeze %[[SAFE]], %[[ONE]] : {{.*}} -> !torch.vtensor<[?,1],si64>
// CHECK: %[[G:.+]] = torch.aten.gather %[[LOGP]], %[[ONE]], %[[IDX]], %{{.+}} : {{.*}} -> !torch.vtensor<[?,1],f32>
// CHECK: %[[SQ:.+]] = torch.aten.squeeze.dim %[[G]], %[[ONE]] : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: %[[NEG:.+]] = torch.aten.neg %[[SQ]]
// CHECK: %[[LOSS:.+]] = torch.aten.where.ScalarOther %[[KEEP]], %[[NEG]], %{{.+}} : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: %[[SUM:.+]] = torch.aten.sum %[[LOSS]], %{{.+}} : {{.*}} -> !torch.vtensor<[],f32>
// CHECK: %[[ONES:.+]] = torch.prims.convert_element_type %[[KEEP]], %int6{{(_[0-9]+)?}} : {{.*}} -> !torch.vtensor<[?],f32>
// CHECK: %[[COUNT:.+]] = torch.aten.sum %[[ONES]], %{{.+}} : {{.*}} -> !torch.vtensor<[],f32>
// CHECK: %[[MEAN:.+]] = torch.aten.div.Tensor %[[SUM]], %[[COUNT]] : {{.*}} -> !torch.vtensor<[],f32>
// CHECK-NOT: torch.aten.cross_entropy_loss
// CHECK: return %[[MEAN]]
func.func @mean_2d(%x: !torch.vtensor<[?,?],f32>, %t: !torch.vtensor<[?],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// reduction none on a 1-d input (no batch): the class dim is 0, the target and the loss 0-d.
// CHECK-LABEL: func.func @none_1d
// CHECK-SAME: (%[[X:.+]]: !torch.vtensor<[5],f64>, %[[T:.+]]: !torch.vtensor<[],si64>)
// CHECK: %[[ZERO:.+]] = torch.constant.int 0
// CHECK: %[[LOGP:.+]] = torch.aten.log_softmax.int %[[X]], %[[ZERO]], %{{.+}} : {{.*}} -> !torch.vtensor<[5],f64>
// CHECK: %[[IDX:.+]] = torch.aten.unsqueeze %{{.+}}, %[[ZERO]] : {{.*}} -> !torch.vtensor<[1],si64>
// CHECK: %[[G:.+]] = torch.aten.gather %[[LOGP]], %[[ZERO]], %[[IDX]], %{{.+}} : {{.*}} -> !torch.vtensor<[1],f64>
// CHECK: torch.aten.squeeze.dim %[[G]], %[[ZERO]] : {{.*}} -> !torch.vtensor<[],f64>
// CHECK: %[[LOSS:.+]] = torch.aten.where.ScalarOther {{.*}} -> !torch.vtensor<[],f64>
// CHECK-NOT: torch.aten.sum
// CHECK: return %[[LOSS]]
func.func @none_1d(%x: !torch.vtensor<[5],f64>, %t: !torch.vtensor<[],si64>) -> !torch.vtensor<[],f64> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int0, %int-100, %ls : !torch.vtensor<[5],f64>, !torch.vtensor<[],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f64>
  return %r : !torch.vtensor<[],f64>
}

// -----

// reduction sum on [N, C, d] logits (a target per position), ignore_index 2: the class dim is 1.
// CHECK-LABEL: func.func @sum_3d
// CHECK: torch.aten.log_softmax.int {{.*}} -> !torch.vtensor<[2,4,3],f32>
// CHECK: torch.aten.ne.Scalar %{{.+}}, %[[IGN:.+]] : {{.*}} -> !torch.vtensor<[2,3],i1>
// CHECK: torch.aten.unsqueeze {{.*}} -> !torch.vtensor<[2,1,3],si64>
// CHECK: torch.aten.gather {{.*}} -> !torch.vtensor<[2,1,3],f32>
// CHECK: %[[LOSS:.+]] = torch.aten.where.ScalarOther {{.*}} -> !torch.vtensor<[2,3],f32>
// CHECK: %[[SUM:.+]] = torch.aten.sum %[[LOSS]], %{{.+}} : {{.*}} -> !torch.vtensor<[],f32>
// CHECK-NOT: torch.aten.div.Tensor
// CHECK: return %[[SUM]]
func.func @sum_3d(%x: !torch.vtensor<[2,4,3],f32>, %t: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int2, %int2, %ls : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,3],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: class weights.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: class weights (weight is not torch.constant.none)
// CHECK-LABEL: func.func @no_weight
// CHECK: torch.aten.cross_entropy_loss
func.func @no_weight(%x: !torch.vtensor<[?,3],f32>, %t: !torch.vtensor<[?],si64>, %w: !torch.vtensor<[3],f32>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %w, %int1, %int-100, %ls : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?],si64>, !torch.vtensor<[3],f32>, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: reduction is an argument.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: reduction, ignore_index or label_smoothing is not a constant
// CHECK-LABEL: func.func @no_reduction_not_constant
// CHECK: torch.aten.cross_entropy_loss
func.func @no_reduction_not_constant(%x: !torch.vtensor<[?,3],f32>, %t: !torch.vtensor<[?],si64>, %red: !torch.int) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %red, %int-100, %ls : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: ignore_index is an argument.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: reduction, ignore_index or label_smoothing is not a constant
// CHECK-LABEL: func.func @no_ignore_index_not_constant
// CHECK: torch.aten.cross_entropy_loss
func.func @no_ignore_index_not_constant(%x: !torch.vtensor<[?,3],f32>, %t: !torch.vtensor<[?],si64>, %ign: !torch.int) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %ign, %ls : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: reduction 3 (at::Reduction has 0, 1, 2).
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: reduction = 3 (torch raises)
// CHECK-LABEL: func.func @no_reduction_3
// CHECK: torch.aten.cross_entropy_loss
func.func @no_reduction_3(%x: !torch.vtensor<[?,3],f32>, %t: !torch.vtensor<[?],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int3 = torch.constant.int 3
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int3, %int-100, %ls : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: label smoothing.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: label_smoothing = 0.1
// CHECK-LABEL: func.func @no_label_smoothing
// CHECK: torch.aten.cross_entropy_loss
func.func @no_label_smoothing(%x: !torch.vtensor<[?,3],f32>, %t: !torch.vtensor<[?],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 1.000000e-01
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: an f16 input (torch's accumulation in f16 is not checked here).
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: a f16 input (f32 and f64 only)
// CHECK-LABEL: func.func @no_f16_input
// CHECK: torch.aten.cross_entropy_loss
func.func @no_f16_input(%x: !torch.vtensor<[?,3],f16>, %t: !torch.vtensor<[?],si64>) -> !torch.vtensor<[],f16> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor<[?,3],f16>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f16>
  return %r : !torch.vtensor<[],f16>
}

// -----

// Negative: si32 targets.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: a si32 target (si64 class indices only)
// CHECK-LABEL: func.func @no_si32_target
// CHECK: torch.aten.cross_entropy_loss
func.func @no_si32_target(%x: !torch.vtensor<[?,3],f32>, %t: !torch.vtensor<[?],si32>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?],si32>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: class probabilities as the target.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: a f32 target (si64 class indices only)
// CHECK-LABEL: func.func @no_probability_target
// CHECK: torch.aten.cross_entropy_loss
func.func @no_probability_target(%x: !torch.vtensor<[?,3],f32>, %t: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a 0-d input.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: a 0-d input (torch raises)
// CHECK-LABEL: func.func @no_zero_d_input
// CHECK: torch.aten.cross_entropy_loss
func.func @no_zero_d_input(%x: !torch.vtensor<[],f32>, %t: !torch.vtensor<[],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor<[],f32>, !torch.vtensor<[],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: a target whose batch is not the input's.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: the target !torch.vtensor<[4],si64> is not the input's shape without its class dim 1
// CHECK-LABEL: func.func @no_target_shape
// CHECK: torch.aten.cross_entropy_loss
func.func @no_target_shape(%x: !torch.vtensor<[3,5],f32>, %t: !torch.vtensor<[4],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor<[3,5],f32>, !torch.vtensor<[4],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: reduction none typed 0-d, as iree-turbine exports it (torch's ref for aten.nll_loss reads the reduction as size_average).
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: the result !torch.vtensor<[],f32> is not !torch.vtensor<[?],f32>, reduction none's
// CHECK-LABEL: func.func @no_result_not_reductions
// CHECK: torch.aten.cross_entropy_loss
func.func @no_result_not_reductions(%x: !torch.vtensor<[?,?],f32>, %t: !torch.vtensor<[?],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int0, %int-100, %ls : !torch.vtensor<[?,?],f32>, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}

// -----

// Negative: an unranked input.
// WHY: decompose_cross_entropy_loss: no match on 'torch.aten.cross_entropy_loss' at {{.*}}: the input, the target or the result is not a ranked !torch.vtensor
// CHECK-LABEL: func.func @no_unranked
// CHECK: torch.aten.cross_entropy_loss
func.func @no_unranked(%x: !torch.vtensor, %t: !torch.vtensor<[?],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %ls = torch.constant.float 0.000000e+00
  %r = torch.aten.cross_entropy_loss %x, %t, %none, %int1, %int-100, %ls : !torch.vtensor, !torch.vtensor<[?],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %r : !torch.vtensor<[],f32>
}
