// RUN: opt-py %s --split-input-file -p copy-tied-operand-through-barrier | filecheck %s

// A constant reaches a sort through a barrier (util.unfoldable_constant): the
// sort writes a copy made by a new executable, not the constant.
// CHECK-LABEL: flow.executable private @__copy_through_barrier_0 {
// CHECK: flow.executable.export public @__copy_through_barrier_0 workgroups()
// CHECK: func.func @__copy_through_barrier_0(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6xi32>>)
// CHECK: linalg.generic
// CHECK: iree_tensor_ext.dispatch.tensor.store
// CHECK-LABEL: util.func public @constant_through_barrier
// CHECK: %[[G:.*]] = util.global.load immutable @__constant_6xi32
// CHECK: %[[B:.*]] = util.optimization_barrier %[[G]]
// CHECK: %[[C:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0(%[[B]]) : (tensor<6xi32>) -> tensor<6xi32>
// CHECK: %[[S:.*]] = flow.dispatch @sort::@sort(%[[C]]) : (tensor<6xi32>) -> %[[C]]
// CHECK: util.return %[[S]]
util.global private @__constant_6xi32 = dense<[3, 1, 4, 1, 5, 9]> : tensor<6xi32>
flow.executable private @sort {
  flow.executable.export public @sort workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sort(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xi32>>) {
      return
    }
  }
}
util.func public @constant_through_barrier() -> tensor<6xi32> {
  %g = util.global.load immutable @__constant_6xi32 : tensor<6xi32>
  %b = util.optimization_barrier %g : tensor<6xi32>
  %s = flow.dispatch @sort::@sort(%b) : (tensor<6xi32>) -> %b
  util.return %s : tensor<6xi32>
}

// -----

// A mutable global never stored, through a barrier and a reshape, into a
// scatter: the global's storage is every call's, so it gets a copy too.
// CHECK-LABEL: util.func public @mutable_global_through_barrier_and_reshape
// CHECK: %[[G:.*]] = util.global.load @m
// CHECK: %[[B:.*]] = util.optimization_barrier %[[G]]
// CHECK: %[[R:.*]] = flow.tensor.reshape %[[B]]
// CHECK: %[[C:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0(%[[R]])
// CHECK: flow.dispatch @scat::@scat(%arg0, %[[C]]) {{.*}} -> %[[C]]
util.global private mutable @m = dense<[[3, 1, 4], [1, 5, 9]]> : tensor<2x3xi32>
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xi32>>) {
      return
    }
  }
}
util.func public @mutable_global_through_barrier_and_reshape(%u: tensor<2xi32>) -> tensor<6xi32> {
  %g = util.global.load @m : tensor<2x3xi32>
  %b = util.optimization_barrier %g : tensor<2x3xi32>
  %r = flow.tensor.reshape %b : tensor<2x3xi32> -> tensor<6xi32>
  %s = flow.dispatch @scat::@scat(%u, %r) : (tensor<2xi32>, tensor<6xi32>) -> %r
  util.return %s : tensor<6xi32>
}

// -----

// A barrier of several values: result 1 is the constant's; the matmul
// accumulating into it gets a copy.
// CHECK-LABEL: util.func public @constant_through_multi_barrier
// CHECK: %[[B:.*]]:2 = util.optimization_barrier %arg0, %cst
// CHECK: %[[C:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0(%[[B]]#1)
// CHECK: flow.dispatch @mm::@mm(%[[B]]#0, %[[C]]) {{.*}} -> %[[C]]
flow.executable private @mm {
  flow.executable.export public @mm workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @mm(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x2xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x2xf32>>) {
      return
    }
  }
}
util.func public @constant_through_multi_barrier(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b:2 = util.optimization_barrier %a, %cst : tensor<2x2xf32>, tensor<2x2xf32>
  %s = flow.dispatch @mm::@mm(%b#0, %b#1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> %b#1
  util.return %s : tensor<2x2xf32>
}

// -----

// A constant through a barrier as the target of flow.tensor.update
// (tensor.insert_slice): the target gets a copy; the update is only read.
// CHECK-LABEL: util.func public @constant_update_target
// CHECK: %[[B:.*]] = util.optimization_barrier
// CHECK: %[[C:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0(%[[B]])
// CHECK: flow.tensor.update %arg0, %[[C]][%c1] : tensor<2xi32> -> %[[C]] as tensor<6xi32>
util.global private @__constant_6xi32 = dense<[3, 1, 4, 1, 5, 9]> : tensor<6xi32>
util.func public @constant_update_target(%u: tensor<2xi32>) -> tensor<6xi32> {
  %c1 = arith.constant 1 : index
  %g = util.global.load immutable @__constant_6xi32 : tensor<6xi32>
  %b = util.optimization_barrier %g : tensor<6xi32>
  %s = flow.tensor.update %u, %b[%c1] : tensor<2xi32> -> %b as tensor<6xi32>
  util.return %s : tensor<6xi32>
}

// -----

// A dynamic argument written through a barrier and also returned (the ABI
// returns its buffer view): the copy takes its dims as workload.
// CHECK-LABEL: util.func public @argument_returned_through_barrier
// CHECK: %[[N:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
// CHECK: %[[X:.*]] = hal.tensor.import %arg0
// CHECK: %[[B:.*]] = util.optimization_barrier %[[X]]
// CHECK: %[[C:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0[%[[N]]](%[[B]], %[[N]]) : (tensor<?xi32>{%[[N]]}, index) -> tensor<?xi32>{%[[N]]}
// CHECK: flow.dispatch @scatd::@scatd[%[[N]]](%arg1, %[[C]], %[[N]]) {{.*}} -> %[[C]]{%[[N]]}
// CHECK: util.return %arg0,
flow.executable private @scatd {
  flow.executable.export public @scatd workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scatd(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xi32>>, %arg2: index) {
      return
    }
  }
}
util.func public @argument_returned_through_barrier(%arg0: !hal.buffer_view, %arg1: tensor<2xi32>) -> (!hal.buffer_view, tensor<?xi32>) {
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %x = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?xi32>{%n}
  %b = util.optimization_barrier %x : tensor<?xi32>
  %s = flow.dispatch @scatd::@scatd[%n](%arg1, %b, %n) : (tensor<2xi32>, tensor<?xi32>{%n}, index) -> %b{%n}
  util.return %arg0, %s : !hal.buffer_view, tensor<?xi32>
}

// -----

// A value computed here, read by the return and written through a barrier:
// the writer gets a copy.
// CHECK-LABEL: util.func public @value_read_elsewhere
// CHECK: %[[V:.*]] = flow.dispatch @plus::@plus
// CHECK: %[[B:.*]] = util.optimization_barrier %[[V]]
// CHECK: %[[C:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0(%[[B]])
// CHECK: %[[S:.*]] = flow.dispatch @sort::@sort(%[[C]])
// CHECK: util.return %[[V]], %[[S]]
flow.executable private @plus {
  flow.executable.export public @plus workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @plus(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6xi32>>) {
      return
    }
  }
}
flow.executable private @sort {
  flow.executable.export public @sort workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sort(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xi32>>) {
      return
    }
  }
}
util.func public @value_read_elsewhere(%x: tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
  %v = flow.dispatch @plus::@plus(%x, %x) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %b = util.optimization_barrier %v : tensor<6xi32>
  %s = flow.dispatch @sort::@sort(%b) : (tensor<6xi32>) -> %b
  util.return %v, %s : tensor<6xi32>, tensor<6xi32>
}

// -----

// One splat (two unfoldable_constant folded into one by CSE) written through
// two barriers: stream makes one splat for both writers, so each gets a copy.
// CHECK-LABEL: util.func public @splat_through_two_barriers
// CHECK: %[[B0:.*]] = util.optimization_barrier %cst
// CHECK: %[[B1:.*]] = util.optimization_barrier %cst
// CHECK: %[[C0:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0(%[[B0]])
// CHECK: %[[S0:.*]] = flow.dispatch @mm::@mm(%arg0, %[[C0]]) {{.*}} -> %[[C0]]
// CHECK: %[[C1:.*]] = flow.dispatch @__copy_through_barrier_1::@__copy_through_barrier_1(%[[B1]])
// CHECK: flow.dispatch @mm::@mm(%[[S0]], %[[C1]]) {{.*}} -> %[[C1]]
flow.executable private @mm {
  flow.executable.export public @mm workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @mm(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x2xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x2xf32>>) {
      return
    }
  }
}
util.func public @splat_through_two_barriers(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %cst = arith.constant dense<1.0> : tensor<2x2xf32>
  %b0 = util.optimization_barrier %cst : tensor<2x2xf32>
  %b1 = util.optimization_barrier %cst : tensor<2x2xf32>
  %s0 = flow.dispatch @mm::@mm(%a, %b0) : (tensor<2x2xf32>, tensor<2x2xf32>) -> %b0
  %s1 = flow.dispatch @mm::@mm(%s0, %b1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> %b1
  util.return %s0, %s1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// A constant bitcast before the barrier, reshaped after it: the way back to
// the root goes through both views and the barrier.
// CHECK-LABEL: util.func public @constant_through_bitcast_barrier_reshape
// CHECK: %[[G:.*]] = util.global.load immutable @__constant_6xi32
// CHECK: %[[F:.*]] = flow.tensor.bitcast %[[G]]
// CHECK: %[[B:.*]] = util.optimization_barrier %[[F]]
// CHECK: %[[R:.*]] = flow.tensor.reshape %[[B]]
// CHECK: %[[C:.*]] = flow.dispatch @__copy_through_barrier_0::@__copy_through_barrier_0(%[[R]]) : (tensor<6xf32>) -> tensor<6xf32>
// CHECK: flow.dispatch @sortf::@sortf(%[[C]]) : (tensor<6xf32>) -> %[[C]]
util.global private @__constant_6xi32 = dense<[3, 1, 4, 1, 5, 9]> : tensor<6xi32>
flow.executable private @sortf {
  flow.executable.export public @sortf workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sortf(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xf32>>) {
      return
    }
  }
}
util.func public @constant_through_bitcast_barrier_reshape() -> tensor<6xf32> {
  %g = util.global.load immutable @__constant_6xi32 : tensor<6xi32>
  %f = flow.tensor.bitcast %g : tensor<6xi32> -> tensor<2x3xf32>
  %b = util.optimization_barrier %f : tensor<2x3xf32>
  %r = flow.tensor.reshape %b : tensor<2x3xf32> -> tensor<6xf32>
  %s = flow.dispatch @sortf::@sortf(%r) : (tensor<6xf32>) -> %r
  util.return %s : tensor<6xf32>
}

// -----

// Negative: a constant written with no barrier between: stream's copy-on-write
// sees the write and copies the constant itself.
// CHECK-LABEL: util.func public @no_copy_without_barrier
// CHECK-NOT: __copy_through_barrier
// CHECK: %[[G:.*]] = util.global.load immutable @__constant_6xi32
// CHECK-NOT: __copy_through_barrier
// CHECK: flow.dispatch @sort::@sort(%[[G]]) : (tensor<6xi32>) -> %[[G]]
util.global private @__constant_6xi32 = dense<[3, 1, 4, 1, 5, 9]> : tensor<6xi32>
flow.executable private @sort {
  flow.executable.export public @sort workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sort(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xi32>>) {
      return
    }
  }
}
util.func public @no_copy_without_barrier() -> tensor<6xi32> {
  %g = util.global.load immutable @__constant_6xi32 : tensor<6xi32>
  %s = flow.dispatch @sort::@sort(%g) : (tensor<6xi32>) -> %g
  util.return %s : tensor<6xi32>
}

// -----

// Negative: a value computed here, written through a barrier and used nowhere
// else: it is the writer's alone.
// CHECK-LABEL: util.func public @no_copy_fresh_value
// CHECK-NOT: __copy_through_barrier
// CHECK: %[[B:.*]] = util.optimization_barrier
// CHECK: flow.dispatch @sort::@sort(%[[B]]) : (tensor<6xi32>) -> %[[B]]
flow.executable private @plus {
  flow.executable.export public @plus workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @plus(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6xi32>>) {
      return
    }
  }
}
flow.executable private @sort {
  flow.executable.export public @sort workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sort(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xi32>>) {
      return
    }
  }
}
util.func public @no_copy_fresh_value(%x: tensor<6xi32>) -> tensor<6xi32> {
  %v = flow.dispatch @plus::@plus(%x, %x) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %b = util.optimization_barrier %v : tensor<6xi32>
  %s = flow.dispatch @sort::@sort(%b) : (tensor<6xi32>) -> %b
  util.return %s : tensor<6xi32>
}

// -----

// Negative: a splat constant written through one barrier: stream makes the
// splat afresh on each call, nothing else reads it.
// CHECK-LABEL: util.func public @no_copy_single_splat
// CHECK-NOT: __copy_through_barrier
// CHECK: %[[B:.*]] = util.optimization_barrier %cst
// CHECK: flow.dispatch @mm::@mm(%arg0, %[[B]]) {{.*}} -> %[[B]]
flow.executable private @mm {
  flow.executable.export public @mm workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @mm(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x2xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x2xf32>>) {
      return
    }
  }
}
util.func public @no_copy_single_splat(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant dense<1.0> : tensor<2x2xf32>
  %b = util.optimization_barrier %cst : tensor<2x2xf32>
  %s = flow.dispatch @mm::@mm(%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> %b
  util.return %s : tensor<2x2xf32>
}

// -----

// Negative: a constant through a barrier that is only read (no tied operand).
// CHECK-LABEL: util.func public @no_copy_read_only
// CHECK-NOT: __copy_through_barrier
// CHECK: flow.dispatch @rd::@rd
util.global private @__constant_6xi32 = dense<[3, 1, 4, 1, 5, 9]> : tensor<6xi32>
flow.executable private @rd {
  flow.executable.export public @rd workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @rd(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<6xi32>>) {
      return
    }
  }
}
util.func public @no_copy_read_only(%x: tensor<6xi32>) -> tensor<6xi32> {
  %g = util.global.load immutable @__constant_6xi32 : tensor<6xi32>
  %b = util.optimization_barrier %g : tensor<6xi32>
  %s = flow.dispatch @rd::@rd(%b, %x) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  util.return %s : tensor<6xi32>
}

// -----

// Negative: a constant through a barrier as the update (read) of
// flow.tensor.update, not its target.
// CHECK-LABEL: util.func public @no_copy_update_source
// CHECK-NOT: __copy_through_barrier
// CHECK: flow.tensor.update
util.global private @__constant_6xi32 = dense<[3, 1, 4, 1, 5, 9]> : tensor<6xi32>
util.func public @no_copy_update_source(%t: tensor<8xi32>) -> tensor<8xi32> {
  %c1 = arith.constant 1 : index
  %g = util.global.load immutable @__constant_6xi32 : tensor<6xi32>
  %b = util.optimization_barrier %g : tensor<6xi32>
  %s = flow.tensor.update %b, %t[%c1] : tensor<6xi32> -> %t as tensor<8xi32>
  util.return %s : tensor<8xi32>
}

// -----

// Negative: the root is a block argument (what callers pass is not visible here).
// CHECK-LABEL: util.func private @no_copy_block_argument
// CHECK-NOT: __copy_through_barrier
// CHECK: flow.dispatch @sort::@sort
flow.executable private @sort {
  flow.executable.export public @sort workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sort(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xi32>>) {
      return
    }
  }
}
util.func private @no_copy_block_argument(%x: tensor<6xi32>) -> tensor<6xi32> {
  %b = util.optimization_barrier %x : tensor<6xi32>
  %s = flow.dispatch @sort::@sort(%b) : (tensor<6xi32>) -> %b
  util.return %s : tensor<6xi32>
}

// -----

// Negative: an imported argument written through a barrier whose buffer view
// nothing else reads (stock writes such an argument in place with or without
// the barrier; copy-shared-tied-operand's rule).
// CHECK-LABEL: util.func public @no_copy_imported_argument
// CHECK-NOT: __copy_through_barrier
// CHECK: %[[X:.*]] = hal.tensor.import %arg0
// CHECK: %[[B:.*]] = util.optimization_barrier %[[X]]
// CHECK: flow.dispatch @sort::@sort(%[[B]]) : (tensor<6xi32>) -> %[[B]]
flow.executable private @sort {
  flow.executable.export public @sort workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sort(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xi32>>) {
      return
    }
  }
}
util.func public @no_copy_imported_argument(%arg0: !hal.buffer_view) -> tensor<6xi32> {
  %x = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<6xi32>
  %b = util.optimization_barrier %x : tensor<6xi32>
  %s = flow.dispatch @sort::@sort(%b) : (tensor<6xi32>) -> %b
  util.return %s : tensor<6xi32>
}

// -----

// Negative: an element type the copy does not handle (complex).
// CHECK-LABEL: util.func public @no_copy_complex_elements
// CHECK-NOT: __copy_through_barrier
// CHECK: flow.dispatch @sortc::@sortc
util.global private @cc = dense<(1.0, 2.0)> : tensor<6xcomplex<f32>>
flow.executable private @sortc {
  flow.executable.export public @sortc workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @sortc(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<6xcomplex<f32>>>) {
      return
    }
  }
}
util.func public @no_copy_complex_elements() -> tensor<6xcomplex<f32>> {
  %g = util.global.load immutable @cc : tensor<6xcomplex<f32>>
  %b = util.optimization_barrier %g : tensor<6xcomplex<f32>>
  %s = flow.dispatch @sortc::@sortc(%b) : (tensor<6xcomplex<f32>>) -> %b
  util.return %s : tensor<6xcomplex<f32>>
}
