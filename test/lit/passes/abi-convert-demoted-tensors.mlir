// RUN: opt-py %s --split-input-file -p abi-convert-demoted-tensors | filecheck %s
// RUN: opt-py %s --split-input-file -p abi-convert-demoted-tensors --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// A torch program's f64 tanh(x) + y after IREE's input conversion (coarse-fences ABI), f64 demoted to f32: each
// argument imported as the f64 the caller passes and truncated; the result extended to f64 before the barrier
// that signals it ready, then exported as f64.
// CHECK-LABEL: util.func public @f64_program
// CHECK-SAME: (%[[X:[a-z0-9]+]]: !hal.buffer_view, %[[Y:[a-z0-9]+]]: !hal.buffer_view, %[[WAIT:[a-z0-9]+]]: !hal.fence, %[[SIGNAL:[a-z0-9]+]]: !hal.fence)
// CHECK: %[[XI:.+]] = hal.tensor.import wait(%[[WAIT]]) => %[[X]] : !hal.buffer_view -> tensor<3x4xf64>{{$}}
// CHECK: %[[XE:.+]] = tensor.empty() : tensor<3x4xf32>
// CHECK: %[[XF:.+]] = linalg.generic {{.*}} ins(%[[XI]] : tensor<3x4xf64>) outs(%[[XE]] : tensor<3x4xf32>)
// CHECK: arith.truncf %{{.+}} : f64 to f32
// CHECK: %[[YI:.+]] = hal.tensor.import wait(%[[WAIT]]) => %[[Y]] : !hal.buffer_view -> tensor<3x4xf64>{{$}}
// CHECK: %[[YF:.+]] = linalg.generic {{.*}} ins(%[[YI]] : tensor<3x4xf64>)
// CHECK: %[[T:.+]] = linalg.generic {{.*}} ins(%[[XF]] : tensor<3x4xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[T]], %[[YF]] : tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK: %[[OE:.+]] = tensor.empty() : tensor<3x4xf64>
// CHECK: %[[OUT:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<3x4xf32>) outs(%[[OE]] : tensor<3x4xf64>)
// CHECK: arith.extf %{{.+}} : f32 to f64
// CHECK: %[[READY:.+]] = hal.tensor.barrier join(%[[OUT]] : tensor<3x4xf64>) => %[[SIGNAL]] : !hal.fence
// CHECK: %[[BV:.+]] = hal.tensor.export %[[READY]] : tensor<3x4xf64> -> !hal.buffer_view
// CHECK: util.return %[[BV]]
#map = affine_map<(d0, d1) -> (d0, d1)>
util.func public @f64_program(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.fence, %arg3: !hal.fence) -> !hal.buffer_view {
  %0 = hal.tensor.import wait(%arg2) => %arg0 : !hal.buffer_view -> tensor<3x4xf64> as tensor<3x4xf32>
  %1 = hal.tensor.import wait(%arg2) => %arg1 : !hal.buffer_view -> tensor<3x4xf64> as tensor<3x4xf32>
  %2 = tensor.empty() : tensor<3x4xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<3x4xf32>) outs(%2 : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = math.tanh %in : f32
    linalg.yield %7 : f32
  } -> tensor<3x4xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %1 : tensor<3x4xf32>, tensor<3x4xf32>) outs(%2 : tensor<3x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %7 = arith.addf %in, %in_0 : f32
    linalg.yield %7 : f32
  } -> tensor<3x4xf32>
  %5 = hal.tensor.barrier join(%4 : tensor<3x4xf32>) => %arg3 : !hal.fence
  %6 = hal.tensor.export %5 : tensor<3x4xf64> as tensor<3x4xf32> -> !hal.buffer_view
  util.return %6 : !hal.buffer_view
}

// -----

// Dynamic sizes: the import keeps its dims, the conversions size themselves by tensor.dim; an export with no
// barrier (the synchronous ABI) converts right before it.
// CHECK-LABEL: util.func public @dynamic_no_barrier
// CHECK-SAME: (%[[BV:[a-z0-9]+]]: !hal.buffer_view, %[[N:[a-z0-9]+]]: index)
// CHECK: %[[I:.+]] = hal.tensor.import %[[BV]] : !hal.buffer_view -> tensor<?x4xf64>{%[[N]]}
// CHECK: %[[D:.+]] = tensor.dim %[[I]], %{{.+}} : tensor<?x4xf64>
// CHECK: %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK: %[[F:.+]] = linalg.generic {{.*}} ins(%[[I]] : tensor<?x4xf64>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: %[[D2:.+]] = tensor.dim %[[F]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[E2:.+]] = tensor.empty(%[[D2]]) : tensor<?x4xf64>
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[F]] : tensor<?x4xf32>) outs(%[[E2]] : tensor<?x4xf64>)
// CHECK: hal.tensor.export %[[G]] : tensor<?x4xf64>{%[[N]]} -> !hal.buffer_view
util.func public @dynamic_no_barrier(%bv: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %0 = hal.tensor.import %bv : !hal.buffer_view -> tensor<?x4xf64> as tensor<?x4xf32>{%n}
  %1 = hal.tensor.export %0 : tensor<?x4xf64> as tensor<?x4xf32>{%n} -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}

// -----

// The other demotions: bf16 promoted to f32 (extended after import, truncated before export) and i64 demoted to
// i32 (truncated, sign-extended); a barrier joining a converted value and one left as it is.
// CHECK-LABEL: util.func public @bf16_promoted_i64_demoted
// CHECK: %[[B:.+]] = hal.tensor.import %{{.+}} : !hal.buffer_view -> tensor<8xbf16>{{$}}
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: %[[I:.+]] = hal.tensor.import %{{.+}} : !hal.buffer_view -> tensor<8xi64>{{$}}
// CHECK: %[[I32:.+]] = linalg.generic
// CHECK: arith.trunci %{{.+}} : i64 to i32
// CHECK: %[[K:.+]] = hal.tensor.import %{{.+}} : !hal.buffer_view -> tensor<8xi32>{{$}}
// CHECK: %[[BOUT:.+]] = linalg.generic
// CHECK: arith.truncf %{{.+}} : f32 to bf16
// CHECK: %[[IOUT:.+]] = linalg.generic {{.*}} ins(%[[I32]] : tensor<8xi32>)
// CHECK: arith.extsi %{{.+}} : i32 to i64
// CHECK: %[[R:.+]]:3 = hal.tensor.barrier join(%[[BOUT]], %[[IOUT]], %[[K]] : tensor<8xbf16>, tensor<8xi64>, tensor<8xi32>)
// CHECK: hal.tensor.export %[[R]]#0 : tensor<8xbf16> -> !hal.buffer_view
// CHECK: hal.tensor.export %[[R]]#1 : tensor<8xi64> -> !hal.buffer_view
// CHECK: hal.tensor.export %[[R]]#2 : tensor<8xi32> -> !hal.buffer_view
util.func public @bf16_promoted_i64_demoted(%a: !hal.buffer_view, %b: !hal.buffer_view, %c: !hal.buffer_view, %f: !hal.fence) -> (!hal.buffer_view, !hal.buffer_view, !hal.buffer_view) {
  %0 = hal.tensor.import %a : !hal.buffer_view -> tensor<8xbf16> as tensor<8xf32>
  %1 = hal.tensor.import %b : !hal.buffer_view -> tensor<8xi64> as tensor<8xi32>
  %2 = hal.tensor.import %c : !hal.buffer_view -> tensor<8xi32>
  %3:3 = hal.tensor.barrier join(%0, %1, %2 : tensor<8xf32>, tensor<8xi32>, tensor<8xi32>) => %f : !hal.fence
  %4 = hal.tensor.export %3#0 : tensor<8xbf16> as tensor<8xf32> -> !hal.buffer_view
  %5 = hal.tensor.export %3#1 : tensor<8xi64> as tensor<8xi32> -> !hal.buffer_view
  %6 = hal.tensor.export %3#2 : tensor<8xi32> -> !hal.buffer_view
  util.return %4, %5, %6 : !hal.buffer_view, !hal.buffer_view, !hal.buffer_view
}

// -----

// The export's dynamic sizes read from the barrier's result (torch.outer of an f32 and an f64 vector): the
// tensor.dim ops read the converted result.
// CHECK-LABEL: util.func public @sizes_read_after_the_barrier
// CHECK: %[[OUT:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?x?xf64>)
// CHECK: %[[READY:.+]] = hal.tensor.barrier join(%[[OUT]] : tensor<?x?xf64>)
// CHECK: %[[D0:.+]] = tensor.dim %[[READY]], %{{.+}} : tensor<?x?xf64>
// CHECK: %[[D1:.+]] = tensor.dim %[[READY]], %{{.+}} : tensor<?x?xf64>
// CHECK: hal.tensor.export %[[READY]] : tensor<?x?xf64>{%[[D0]], %[[D1]]} -> !hal.buffer_view
util.func public @sizes_read_after_the_barrier(%t: tensor<?x?xf32>, %f: !hal.fence) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = hal.tensor.barrier join(%t : tensor<?x?xf32>) => %f : !hal.fence
  %d0 = tensor.dim %0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x?xf32>
  %1 = hal.tensor.export %0 : tensor<?x?xf64> as tensor<?x?xf32>{%d0, %d1} -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}

// -----

// Negative: no ABI type of its own.
// WHY: import_in_abi_type: no match on 'hal.tensor.import' at {{.*}}: no ABI type of its own
// WHY: export_in_abi_type: no match on 'hal.tensor.export' at {{.*}}: no ABI type of its own
// CHECK-LABEL: util.func public @no_abi_type
// CHECK-NEXT: hal.tensor.import
// CHECK-NEXT: hal.tensor.export
util.func public @no_abi_type(%bv: !hal.buffer_view) -> !hal.buffer_view {
  %0 = hal.tensor.import %bv : !hal.buffer_view -> tensor<4xf32>
  %1 = hal.tensor.export %0 : tensor<4xf32> -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}

// -----

// Negative: a same-width pair is the bitcast the op means (f16 bits read as bf16).
// WHY: import_in_abi_type: no match on 'hal.tensor.import' at {{.*}}: f16 as bf16: the same width (a bitcast)
// CHECK-LABEL: util.func public @no_same_width
// CHECK-NEXT: hal.tensor.import %{{.+}} : !hal.buffer_view -> tensor<4xf16> as tensor<4xbf16>
util.func public @no_same_width(%bv: !hal.buffer_view) -> tensor<4xbf16> {
  %0 = hal.tensor.import %bv : !hal.buffer_view -> tensor<4xf16> as tensor<4xbf16>
  util.return %0 : tensor<4xbf16>
}

// -----

// Negative: a float read as an integer of another width is no demotion.
// WHY: import_in_abi_type: no match on 'hal.tensor.import' at {{.*}}: f64 as i32: not two floats, complex or signless integers
// CHECK-LABEL: util.func public @no_float_as_integer
// CHECK-NEXT: hal.tensor.import %{{.+}} : !hal.buffer_view -> tensor<4xf64> as tensor<4xi32>
util.func public @no_float_as_integer(%bv: !hal.buffer_view) -> tensor<4xi32> {
  %0 = hal.tensor.import %bv : !hal.buffer_view -> tensor<4xf64> as tensor<4xi32>
  util.return %0 : tensor<4xi32>
}

// -----

// Negative: a bitcast between shapes (rank-0 as rank-1).
// WHY: import_in_abi_type: no match on 'hal.tensor.import' at {{.*}}: the two types differ in shape (a bitcast between ranks)
// CHECK-LABEL: util.func public @no_shape_change
// CHECK-NEXT: hal.tensor.import %{{.+}} : !hal.buffer_view -> tensor<f64> as tensor<1xf32>
util.func public @no_shape_change(%bv: !hal.buffer_view) -> tensor<1xf32> {
  %0 = hal.tensor.import %bv : !hal.buffer_view -> tensor<f64> as tensor<1xf32>
  util.return %0 : tensor<1xf32>
}

// -----

// Negative: a barrier result also used by something other than an export keeps its type (and so does the export,
// which cannot be converted behind the barrier).
// WHY: barrier_in_abi_type: no match on 'hal.tensor.barrier' at {{.*}}: no result used only by exports of a demoted type (and tensor.dim)
// WHY: export_in_abi_type: no match on 'hal.tensor.export' at {{.*}}: its source comes from a hal.tensor.barrier (barrier_in_abi_type converts before it)
// CHECK-LABEL: util.func public @no_barrier_result_used_elsewhere
// CHECK: hal.tensor.barrier join(%{{.+}} : tensor<4xf32>)
// CHECK: hal.tensor.export %{{.+}} : tensor<4xf64> as tensor<4xf32> -> !hal.buffer_view
util.func public @no_barrier_result_used_elsewhere(%t: tensor<4xf32>, %f: !hal.fence) -> (!hal.buffer_view, tensor<4xf32>) {
  %0 = hal.tensor.barrier join(%t : tensor<4xf32>) => %f : !hal.fence
  %1 = hal.tensor.export %0 : tensor<4xf64> as tensor<4xf32> -> !hal.buffer_view
  util.return %1, %0 : !hal.buffer_view, tensor<4xf32>
}
