// RUN: opt-py %s --split-input-file -p scan-fill-input-as-generic | filecheck %s

// torch.cumsum(torch.ones(1, n), 1) (OPT's positions): the scan reads the splat as a generic, which writes
// the fill's value over the fill's init; the scan keeps its dims, inclusiveness, inits and body.
// CHECK: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @cumsum_of_ones
// CHECK-SAME: (%[[N:[a-z0-9_]+]]: index)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<1x?xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<1x?xf32>)
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<1xf32>)
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<1x?xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[ONE]] : f32
// CHECK: %[[S:.*]]:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%[[G]] : tensor<1x?xf32>) outs(%[[Z]], %[[ACC]] : tensor<1x?xf32>, tensor<1xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: iree_linalg_ext.yield %[[SUM]] : f32
// CHECK: return %[[S]]#0
// CHECK-NOT: linalg.fill ins(%[[ONE]]
func.func @cumsum_of_ones(%n: index) -> tensor<1x?xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%n) : tensor<1x?xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<1x?xf32>) -> tensor<1x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?xf32>) -> tensor<1x?xf32>
  %ea = tensor.empty() : tensor<1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<1xf32>) -> tensor<1xf32>
  %s:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%ones : tensor<1x?xf32>) outs(%z, %acc : tensor<1x?xf32>, tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    iree_linalg_ext.yield %sum : f32
  } -> tensor<1x?xf32>, tensor<1xf32>
  return %s#0 : tensor<1x?xf32>
}

// -----

// An exclusive cumprod over dim 0 of a ?x3 i64 splat whose value is a runtime scalar: the generic yields that
// value; the fill stays for its other user (the add).
// CHECK-LABEL: func.func @exclusive_cumprod_dim0_runtime_value
// CHECK-SAME: (%[[N:[a-z0-9_]+]]: index, %[[V:[a-z0-9_]+]]: i64)
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3xi64>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[V]] : i64) outs(%[[E]] : tensor<?x3xi64>)
// CHECK: %[[G:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<?x3xi64>) {
// CHECK-NEXT: ^bb0(%{{.*}}: i64):
// CHECK-NEXT: linalg.yield %[[V]] : i64
// CHECK: %[[S:.*]]:2 = iree_linalg_ext.scan dimension(0) inclusive(false) ins(%[[G]] : tensor<?x3xi64>)
// CHECK: arith.muli
// CHECK: linalg.generic {{.*}} ins(%[[S]]#0, %[[F]] :
func.func @exclusive_cumprod_dim0_runtime_value(%n: index, %v: i64) -> tensor<?x3xi64> {
  %one = arith.constant 1 : i64
  %e = tensor.empty(%n) : tensor<?x3xi64>
  %f = linalg.fill ins(%v : i64) outs(%e : tensor<?x3xi64>) -> tensor<?x3xi64>
  %init = linalg.fill ins(%one : i64) outs(%e : tensor<?x3xi64>) -> tensor<?x3xi64>
  %ea = tensor.empty() : tensor<3xi64>
  %acc = linalg.fill ins(%one : i64) outs(%ea : tensor<3xi64>) -> tensor<3xi64>
  %s:2 = iree_linalg_ext.scan dimension(0) inclusive(false) ins(%f : tensor<?x3xi64>) outs(%init, %acc : tensor<?x3xi64>, tensor<3xi64>) {
  ^bb0(%a: i64, %b: i64):
    %p = arith.muli %a, %b : i64
    iree_linalg_ext.yield %p : i64
  } -> tensor<?x3xi64>, tensor<3xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s#0, %f : tensor<?x3xi64>, tensor<?x3xi64>) outs(%e : tensor<?x3xi64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %sum = arith.addi %a, %b : i64
    linalg.yield %sum : i64
  } -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}

// -----

// A static scan dimension with a dynamic one beside it (the scan tiles the dynamic dim, the fill's temporary
// is still a whole row per tile): rewritten.
// CHECK-LABEL: func.func @static_scan_dim_dynamic_rows
// CHECK: %[[G:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x20000xf32>)
// CHECK: iree_linalg_ext.scan dimension(1) inclusive(true) ins(%[[G]] : tensor<?x20000xf32>)
func.func @static_scan_dim_dynamic_rows(%n: index) -> tensor<?x20000xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%n) : tensor<?x20000xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<?x20000xf32>) -> tensor<?x20000xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x20000xf32>) -> tensor<?x20000xf32>
  %ea = tensor.empty(%n) : tensor<?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<?xf32>) -> tensor<?xf32>
  %s:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%ones : tensor<?x20000xf32>) outs(%z, %acc : tensor<?x20000xf32>, tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    iree_linalg_ext.yield %sum : f32
  } -> tensor<?x20000xf32>, tensor<?xf32>
  return %s#0 : tensor<?x20000xf32>
}

// -----

// The scan reads an argument (a binding, no temporary): left alone.
// CHECK-LABEL: func.func @no_rewrite_input_not_a_fill
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<1x?xf32>
// CHECK-NOT: linalg.generic
// CHECK: iree_linalg_ext.scan dimension(1) inclusive(true) ins(%[[X]] : tensor<1x?xf32>)
func.func @no_rewrite_input_not_a_fill(%x: tensor<1x?xf32>, %n: index) -> tensor<1x?xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<1x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?xf32>) -> tensor<1x?xf32>
  %ea = tensor.empty() : tensor<1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<1xf32>) -> tensor<1xf32>
  %s:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<1x?xf32>) outs(%z, %acc : tensor<1x?xf32>, tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    iree_linalg_ext.yield %sum : f32
  } -> tensor<1x?xf32>, tensor<1xf32>
  return %s#0 : tensor<1x?xf32>
}

// -----

// A static fill: IREE makes it a constant the scan reads from memory. Left alone.
// CHECK-LABEL: func.func @no_rewrite_static_fill
// CHECK-NOT: linalg.generic
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x16xf32>)
// CHECK-NOT: linalg.generic
// CHECK: iree_linalg_ext.scan dimension(1) inclusive(true) ins(%[[F]] : tensor<1x16xf32>)
func.func @no_rewrite_static_fill() -> tensor<1x16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x16xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<1x16xf32>) -> tensor<1x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16xf32>) -> tensor<1x16xf32>
  %ea = tensor.empty() : tensor<1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<1xf32>) -> tensor<1xf32>
  %s:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%ones : tensor<1x16xf32>) outs(%z, %acc : tensor<1x16xf32>, tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    iree_linalg_ext.yield %sum : f32
  } -> tensor<1x16xf32>, tensor<1xf32>
  return %s#0 : tensor<1x16xf32>
}

// -----

// A scan on buffers (after bufferization): left alone.
// CHECK-LABEL: func.func @no_rewrite_buffers
// CHECK-NOT: linalg.generic
// CHECK: iree_linalg_ext.scan dimension(1) inclusive(true) ins(%{{.*}} : memref<1x?xf32>)
func.func @no_rewrite_buffers(%in: memref<1x?xf32>, %out: memref<1x?xf32>, %acc: memref<1xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%in : memref<1x?xf32>)
  iree_linalg_ext.scan dimension(1) inclusive(true) ins(%in : memref<1x?xf32>) outs(%out, %acc : memref<1x?xf32>, memref<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    iree_linalg_ext.yield %sum : f32
  }
  return
}
