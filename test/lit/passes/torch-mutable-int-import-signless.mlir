// RUN: opt-py %s --split-input-file -p torch-mutable-int-import-signless | filecheck %s
// RUN: opt-py %s --split-input-file -p torch-mutable-int-import-signless --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// What torch-iree-func-conversion makes of a mutable si32 argument (x.zero_()): the import made signless, its
// wait fence, dims and the torch value it feeds kept.
// CHECK-LABEL: func.func @mutable_si32
// CHECK-SAME: (%[[ARG:.+]]: !hal.buffer_view, %[[FENCE:.+]]: !hal.fence)
// CHECK: %[[D0:.+]] = hal.buffer_view.dim<%[[ARG]] : !hal.buffer_view>[0] : index
// CHECK: %[[D1:.+]] = hal.buffer_view.dim<%[[ARG]] : !hal.buffer_view>[1] : index
// CHECK: %[[T:.+]] = hal.tensor.import wait(%[[FENCE]]) => %[[ARG]] : !hal.buffer_view -> tensor<?x?xi32>{%[[D0]], %[[D1]]}
// CHECK: %[[V:.+]] = torch_c.from_builtin_tensor %[[T]] : tensor<?x?xi32> -> !torch.vtensor<[?,?],si32>
// CHECK: return %[[V]]
func.func @mutable_si32(%arg0: !hal.buffer_view, %fence: !hal.fence) -> !torch.vtensor<[?,?],si32> {
  %d0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %d1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %t = hal.tensor.import wait(%fence) => %arg0 : !hal.buffer_view -> tensor<?x?xsi32>{%d0, %d1}
  %v = torch_c.from_builtin_tensor %t : tensor<?x?xsi32> -> !torch.vtensor<[?,?],si32>
  return %v : !torch.vtensor<[?,?],si32>
}

// -----

// Two torch values read one si64 import: both rebuilt on the signless one.
// CHECK-LABEL: func.func @two_readers
// CHECK: %[[T:.+]] = hal.tensor.import wait(%{{.+}}) => %{{.+}} : !hal.buffer_view -> tensor<4xi64>
// CHECK: %[[A:.+]] = torch_c.from_builtin_tensor %[[T]] : tensor<4xi64> -> !torch.vtensor<[4],si64>
// CHECK: %[[B:.+]] = torch_c.from_builtin_tensor %[[T]] : tensor<4xi64> -> !torch.vtensor<[4],si64>
// CHECK: return %[[A]], %[[B]]
func.func @two_readers(%arg0: !hal.buffer_view, %fence: !hal.fence) -> (!torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>) {
  %t = hal.tensor.import wait(%fence) => %arg0 : !hal.buffer_view -> tensor<4xsi64>
  %a = torch_c.from_builtin_tensor %t : tensor<4xsi64> -> !torch.vtensor<[4],si64>
  %b = torch_c.from_builtin_tensor %t : tensor<4xsi64> -> !torch.vtensor<[4],si64>
  return %a, %b : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64>
}

// -----

// Negative: a signless import (what every immutable argument gets).
// WHY: import_signless: no match on 'hal.tensor.import' at {{.*}}: not an import of a signed or unsigned integer tensor
// CHECK-LABEL: func.func @no_signless
// CHECK: hal.tensor.import {{.*}} -> tensor<4xi32>
func.func @no_signless(%arg0: !hal.buffer_view, %fence: !hal.fence) -> !torch.vtensor<[4],si32> {
  %t = hal.tensor.import wait(%fence) => %arg0 : !hal.buffer_view -> tensor<4xi32>
  %v = torch_c.from_builtin_tensor %t : tensor<4xi32> -> !torch.vtensor<[4],si32>
  return %v : !torch.vtensor<[4],si32>
}

// -----

// Negative: a float import.
// WHY: import_signless: no match on 'hal.tensor.import' at {{.*}}: not an import of a signed or unsigned integer tensor
// CHECK-LABEL: func.func @no_float
// CHECK: hal.tensor.import {{.*}} -> tensor<4xf32>
func.func @no_float(%arg0: !hal.buffer_view, %fence: !hal.fence) -> !torch.vtensor<[4],f32> {
  %t = hal.tensor.import wait(%fence) => %arg0 : !hal.buffer_view -> tensor<4xf32>
  %v = torch_c.from_builtin_tensor %t : tensor<4xf32> -> !torch.vtensor<[4],f32>
  return %v : !torch.vtensor<[4],f32>
}

// -----

// Negative: a signed import read by something else than the torch bridge.
// WHY: import_signless: no match on 'hal.tensor.import' at {{.*}}: read by something other than torch_c.from_builtin_tensor
// CHECK-LABEL: func.func @no_other_reader
// CHECK: hal.tensor.import {{.*}} -> tensor<4xsi32>
func.func @no_other_reader(%arg0: !hal.buffer_view, %fence: !hal.fence) -> tensor<4xsi32> {
  %t = hal.tensor.import wait(%fence) => %arg0 : !hal.buffer_view -> tensor<4xsi32>
  return %t : tensor<4xsi32>
}
