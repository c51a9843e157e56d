// RUN: opt-py %s --split-input-file -p math-inline-libm-calls | filecheck %s
// RUN: opt-py %s --split-input-file -p math-inline-libm-calls --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// log10 on f32, x86_64 (the embedded ELF has no log10f): musl's f64 log of the value times 1/ln 10, rounded once.
// CHECK-LABEL: util.func public @log10_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[W:.+]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[L:.+]] = math.log %[[W]] : f64
// CHECK: %[[C:.+]] = arith.constant 0.43429448190325182 : f64
// CHECK: %[[M:.+]] = arith.mulf %[[L]], %[[C]] : f64
// CHECK: %[[R:.+]] = arith.truncf %[[M]] : f64 to f32
// CHECK: linalg.yield %[[R]] : f32
// CHECK-NOT: math.log10
util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+sse4.1,+avx2,+fma", target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
util.func public @log10_f32(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.log10 %a : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  util.return %r : tensor<8xf32>
}

// -----

// f64 (the demotion off): sin reduced by pi/2 in five parts, quadrant-selected polynomials, NaN beyond 2^26;
// tanh, atan2, cbrt, erf written out alike; fmod in integers (a loop of 10-bit shifts).
// CHECK-LABEL: util.func public @f64_functions
// CHECK-NOT: math.sin
// CHECK-NOT: math.tanh
// CHECK-NOT: math.atan2
// CHECK-NOT: math.cbrt
// CHECK-NOT: math.erf
// CHECK-NOT: arith.remf
// CHECK: math.floor
// CHECK: arith.constant 1.5707963109016418 : f64
// CHECK: arith.constant 0x4190000000000000 : f64
// CHECK: math.exp
// CHECK: scf.while
// CHECK: arith.remui
util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+sse4.1", target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
util.func public @f64_functions(%x: tensor<8xf64>, %y: tensor<8xf64>) -> tensor<8xf64> {
  %e = tensor.empty() : tensor<8xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<8xf64>, tensor<8xf64>) outs(%e : tensor<8xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %s = math.sin %a : f64
    %t = math.tanh %s : f64
    %u = math.atan2 %t, %b : f64
    %c = math.cbrt %u : f64
    %f = math.erf %c : f64
    %g = arith.remf %f, %b : f64
    linalg.yield %g : f64
  } -> tensor<8xf64>
  util.return %r : tensor<8xf64>
}

// -----

// trunc where x86_64 has no SSE4.1 (IREE's default CPU): from floor, the negative side by -floor(-x).
// CHECK-LABEL: util.func public @trunc_without_sse41
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[DOWN:.+]] = math.floor %[[X]] : f32
// CHECK: %[[NEG:.+]] = arith.negf %[[X]] : f32
// CHECK: %[[F:.+]] = math.floor %[[NEG]] : f32
// CHECK: %[[UP:.+]] = arith.negf %[[F]] : f32
// CHECK: %[[LT:.+]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
// CHECK: %[[R:.+]] = arith.select %[[LT]], %[[UP]], %[[DOWN]] : f32
// CHECK: linalg.yield %[[R]]
util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "", cpu_features = "", target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
util.func public @trunc_without_sse41(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.trunc %a : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  util.return %r : tensor<8xf32>
}

// -----

// A GPU program: log10 of a constant is written out (IREE's const-eval compiles it for the host's llvm-cpu);
// log10 of the input is left to the GPU's math library.
// WHY: inline_libm_call: no match on 'math.log10' at {{.*}}: a GPU (or non-embedded) target compiles it with its own math library, and it is not a constant
// CHECK-LABEL: util.func public @gpu_constant_only
// CHECK: %[[CST:.+]] = arith.constant dense<
// CHECK: linalg.generic {{.*}} ins(%[[CST]] : tensor<4xf32>)
// CHECK: math.log %{{.+}} : f64
// CHECK: linalg.generic
// CHECK: math.log10 %{{.+}} : f32
util.global private @__device_0 = #hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", {iree.gpu.target = "sm_80"}>]> : !hal.device
util.func public @gpu_constant_only(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<[1.0, 10.0, 100.0, 3.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %l = math.log10 %v : f32
    linalg.yield %l : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %l = math.log10 %v : f32
    linalg.yield %l : f32
  } -> tensor<4xf32>
  util.return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// Negative: log10 f32 links on aarch64; sin f32 (IREE's polynomial) and trunc f32 with SSE4.1 link on x86_64.
// WHY: inline_libm_call: no match on 'math.log10' at {{.*}}: math.log10 on f32 links on every target of the module
// WHY: inline_libm_call: no match on 'math.sin' at {{.*}}: math.sin on f32 links on every target of the module
// CHECK-LABEL: util.func public @no_links_here
// CHECK: math.log10 %{{.+}} : f32
util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-arm_64", {cpu_features = "+neon", target_triple = "aarch64-unknown-unknown-eabi-elf"}>]> : !hal.device
util.func public @no_links_here(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.log10 %a : f32
    %s = math.sin %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  util.return %r : tensor<8xf32>
}

// -----

// Negative: trunc f32 with SSE4.1 (roundps).
// WHY: inline_libm_call: no match on 'math.trunc' at {{.*}}: math.trunc on f32 links on every target of the module
// CHECK-LABEL: util.func public @no_trunc_with_sse41
// CHECK: math.trunc
util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+sse4.1", target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
util.func public @no_trunc_with_sse41(%x: f32) -> f32 {
  %v = math.trunc %x : f32
  util.return %v : f32
}

// -----

// Negative: no device target (nothing says what links).
// WHY: inline_libm_call: no match on 'math.log10' at {{.*}}: no device target in the module
// CHECK-LABEL: func.func @no_target
// CHECK: math.log10
func.func @no_target(%x: f32) -> f32 {
  %v = math.log10 %x : f32
  return %v : f32
}

// -----

// Negative: a tensor operand (the pass rewrites scalars, as they are in linalg bodies).
// WHY: inline_libm_call: no match on 'math.log10' at {{.*}}: a tensor<4xf32> result: not a scalar f16, bf16, f32 or f64
// CHECK-LABEL: util.func public @no_tensor_operand
// CHECK: math.log10 %{{.+}} : tensor<4xf32>
util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "", target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
util.func public @no_tensor_operand(%x: tensor<4xf32>) -> tensor<4xf32> {
  %v = math.log10 %x : tensor<4xf32>
  util.return %v : tensor<4xf32>
}
