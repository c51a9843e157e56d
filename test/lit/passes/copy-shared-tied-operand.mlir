// RUN: opt-py %s --split-input-file -p copy-shared-tied-operand | filecheck %s

// A value written in place and also returned (seeds 312/417's shape): the
// writer gets a copy made by a new executable; the return keeps the original.
// CHECK-LABEL: flow.executable private @__copy_tied_operand_0 {
// CHECK: flow.executable.export public @__copy_tied_operand_0 workgroups(%arg0: index)
// CHECK: func.func @__copy_tied_operand_0(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x2xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x2xf32>>)
// CHECK: iree_tensor_ext.dispatch.workload.ordinal %arg1, 0
// CHECK: linalg.generic
// CHECK: iree_tensor_ext.dispatch.tensor.store
// CHECK-LABEL: util.func public @written_and_returned
// CHECK: %[[V:.*]] = flow.dispatch @plus::@plus
// CHECK: %[[C:.*]] = flow.dispatch @__copy_tied_operand_0::@__copy_tied_operand_0[%arg2](%[[V]], %arg2) : (tensor<?x2xf32>{%arg2}, index) -> tensor<?x2xf32>{%arg2}
// CHECK: %[[S:.*]] = flow.dispatch @scat::@scat[%arg2](%arg1, %[[C]], %arg2) {{.*}} -> %[[C]]{%arg2}
// CHECK: util.return %[[S]], %[[V]]
flow.executable private @plus {
  flow.executable.export public @plus workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @plus(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x2xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x2xf32>>) {
      return
    }
  }
}
flow.executable private @scat {
  flow.executable.export public @scat workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x2xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @written_and_returned(%x: tensor<?x2xf32>, %u: tensor<3xf32>, %n: index) -> (tensor<?x2xf32>, tensor<?x2xf32>) {
  %v = flow.dispatch @plus::@plus[%n](%x, %n) : (tensor<?x2xf32>{%n}, index) -> tensor<?x2xf32>{%n}
  %s = flow.dispatch @scat::@scat[%n](%u, %v, %n) : (tensor<3xf32>, tensor<?x2xf32>{%n}, index) -> %v{%n}
  util.return %s, %v : tensor<?x2xf32>, tensor<?x2xf32>
}

// -----

// The other use reached through a view (a reshape, as in the 2-D seeds), and
// a static shape: the copy takes no workload.
// CHECK-LABEL: flow.executable private @__copy_tied_operand_0 {
// CHECK: flow.executable.export public @__copy_tied_operand_0 workgroups()
// CHECK-LABEL: util.func public @through_a_reshape
// CHECK: %[[V:.*]] = flow.dispatch @plus::@plus
// CHECK: %[[R:.*]] = flow.tensor.reshape %[[V]]
// CHECK: %[[C:.*]] = flow.dispatch @__copy_tied_operand_0::@__copy_tied_operand_0(%[[R]]) : (tensor<5x2xf32>) -> tensor<5x2xf32>
// CHECK: %[[S:.*]] = flow.dispatch @scat::@scat(%arg1, %[[C]]) {{.*}} -> %[[C]]
// CHECK: util.return %[[S]], %[[R]]
flow.executable private @plus {
  flow.executable.export public @plus workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @plus(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<10xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<10xf32>>) {
      return
    }
  }
}
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5x2xf32>>) {
      return
    }
  }
}
util.func public @through_a_reshape(%x: tensor<10xf32>, %u: tensor<3xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
  %v = flow.dispatch @plus::@plus(%x) : (tensor<10xf32>) -> tensor<10xf32>
  %r = flow.tensor.reshape %v : tensor<10xf32> -> tensor<5x2xf32>
  %s = flow.dispatch @scat::@scat(%u, %r) : (tensor<3xf32>, tensor<5x2xf32>) -> %r
  util.return %s, %r : tensor<5x2xf32>, tensor<5x2xf32>
}

// -----

// An argument returned as itself beside a scatter into it: the ABI folded the
// export of the import into the buffer view, so the import has one use but
// its buffer view has another; the writer gets a copy.
// CHECK-LABEL: util.func public @argument_returned
// CHECK: %[[I:.*]] = hal.tensor.import %arg0
// CHECK: %[[U:.*]] = hal.tensor.import %arg1
// CHECK: %[[C:.*]] = flow.dispatch @__copy_tied_operand_0::@__copy_tied_operand_0(%[[I]])
// CHECK: %[[S:.*]] = flow.dispatch @scat::@scat(%[[U]], %[[C]]) {{.*}} -> %[[C]]
// CHECK: util.return %arg0,
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5xi32>>) {
      return
    }
  }
}
util.func public @argument_returned(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) {
  %x = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<5xi32>
  %u = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<1xi32>
  %s = flow.dispatch @scat::@scat(%u, %x) : (tensor<1xi32>, tensor<5xi32>) -> %x
  %e = hal.tensor.export %s "output1" : tensor<5xi32> -> !hal.buffer_view
  util.return %arg0, %e : !hal.buffer_view, !hal.buffer_view
}

// -----

// Negative: the written value has no other use (an imported argument whose
// buffer view is not returned: stock writes it in place, and so does this).
// CHECK-LABEL: util.func public @no_copy_single_use
// CHECK-NOT: __copy_tied_operand
// CHECK: %[[X:.*]] = hal.tensor.import %arg0
// CHECK: %[[U:.*]] = hal.tensor.import %arg1
// CHECK-NOT: __copy_tied_operand
// CHECK: flow.dispatch @scat::@scat(%[[U]], %[[X]]) {{.*}} -> %[[X]]
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5xi32>>) {
      return
    }
  }
}
util.func public @no_copy_single_use(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %x = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<5xi32>
  %u = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<1xi32>
  %s = flow.dispatch @scat::@scat(%u, %x) : (tensor<1xi32>, tensor<5xi32>) -> %x
  %e = hal.tensor.export %s "output0" : tensor<5xi32> -> !hal.buffer_view
  util.return %e : !hal.buffer_view
}

// -----

// Negative: the operand is shared but not written in place (no tied operand).
// CHECK-LABEL: util.func public @no_copy_read_only
// CHECK-NOT: __copy_tied_operand
flow.executable private @rd {
  flow.executable.export public @rd workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @rd(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<5xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5xi32>>) {
      return
    }
  }
}
util.func public @no_copy_read_only(%x: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %v = flow.dispatch @rd::@rd(%x) : (tensor<5xi32>) -> tensor<5xi32>
  %s = flow.dispatch @rd::@rd(%v) : (tensor<5xi32>) -> tensor<5xi32>
  util.return %s, %v : tensor<5xi32>, tensor<5xi32>
}

// -----

// Negative: the shared value is a block argument (its other uses, in callers,
// are not visible here).
// CHECK-LABEL: util.func private @no_copy_block_argument
// CHECK-NOT: __copy_tied_operand
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5xi32>>) {
      return
    }
  }
}
util.func private @no_copy_block_argument(%x: tensor<5xi32>, %u: tensor<1xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %s = flow.dispatch @scat::@scat(%u, %x) : (tensor<1xi32>, tensor<5xi32>) -> %x
  util.return %x, %s : tensor<5xi32>, tensor<5xi32>
}

// -----

// Negative: an element type the copy does not handle (complex).
// CHECK-LABEL: util.func public @no_copy_complex_elements
// CHECK-NOT: __copy_tied_operand
flow.executable private @mk {
  flow.executable.export public @mk workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @mk(%arg0: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5xcomplex<f32>>>) {
      return
    }
  }
}
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5xcomplex<f32>>>) {
      return
    }
  }
}
util.func public @no_copy_complex_elements() -> (tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>) {
  %v = flow.dispatch @mk::@mk() : () -> tensor<5xcomplex<f32>>
  %s = flow.dispatch @scat::@scat(%v) : (tensor<5xcomplex<f32>>) -> %v
  util.return %s, %v : tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>
}

// -----

// Negative: a tensor with an encoding.
// CHECK-LABEL: util.func public @no_copy_encoded
// CHECK-NOT: __copy_tied_operand
#enc = #iree_encoding.testing<>
flow.executable private @mk {
  flow.executable.export public @mk workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @mk(%arg0: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5xf32, #enc>>) {
      return
    }
  }
}
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5xf32, #enc>>) {
      return
    }
  }
}
util.func public @no_copy_encoded() -> (tensor<5xf32, #enc>, tensor<5xf32, #enc>) {
  %v = flow.dispatch @mk::@mk() : () -> tensor<5xf32, #enc>
  %s = flow.dispatch @scat::@scat(%v) : (tensor<5xf32, #enc>) -> %v
  util.return %s, %v : tensor<5xf32, #enc>, tensor<5xf32, #enc>
}

// -----

// Negative: other in-place writers (flow.tensor.update) are left alone.
// CHECK-LABEL: util.func public @no_copy_update_target
// CHECK-NOT: __copy_tied_operand
util.func public @no_copy_update_target(%f: f32, %u: tensor<1xf32>, %i: index) -> (tensor<5xf32>, tensor<5xf32>) {
  %v = flow.tensor.splat %f : tensor<5xf32>
  %s = flow.tensor.update %u, %v[%i] : tensor<1xf32> -> %v as tensor<5xf32>
  util.return %s, %v : tensor<5xf32>, tensor<5xf32>
}

// -----

// Negative: a splat written in place by two dispatches and also returned. Stream
// gives each in-place use a splat of its own (copy-on-write's clone of a splat
// becomes a second splat, which no CSE merges), so stock is right: no copy.
// CHECK-LABEL: util.func public @no_copy_splat_written_twice
// CHECK-NOT: __copy_tied_operand
// CHECK: %[[V:.*]] = flow.tensor.splat
// CHECK: flow.dispatch @scat::@scat(%arg0, %[[V]]) {{.*}} -> %[[V]]
// CHECK: flow.dispatch @scat::@scat(%arg1, %[[V]]) {{.*}} -> %[[V]]
flow.executable private @scat {
  flow.executable.export public @scat workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<5xi32>>) {
      return
    }
  }
}
util.func public @no_copy_splat_written_twice(%u: tensor<1xi32>, %w: tensor<1xi32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>) {
  %c7 = arith.constant 7 : i32
  %v = flow.tensor.splat %c7 : tensor<5xi32>
  %s = flow.dispatch @scat::@scat(%u, %v) : (tensor<1xi32>, tensor<5xi32>) -> %v
  %t = flow.dispatch @scat::@scat(%w, %v) : (tensor<1xi32>, tensor<5xi32>) -> %v
  util.return %s, %t, %v : tensor<5xi32>, tensor<5xi32>, tensor<5xi32>
}

// -----

// Negative: a dynamic argument whose buffer view is only asked for its shape
// (hal.buffer_view.dim) besides the import: its contents are seen by the
// writer alone, as in @no_copy_single_use.
// CHECK-LABEL: util.func public @no_copy_dims_queried
// CHECK-NOT: __copy_tied_operand
// CHECK: %[[N:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
// CHECK: %[[X:.*]] = hal.tensor.import %arg0
// CHECK: %[[U:.*]] = hal.tensor.import %arg1
// CHECK-NOT: __copy_tied_operand
// CHECK: flow.dispatch @scatd::@scatd[%[[N]]](%[[U]], %[[X]], %[[N]]) {{.*}} -> %[[X]]
flow.executable private @scatd {
  flow.executable.export public @scatd workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scatd(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1xi32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xi32>>, %arg2: index) {
      return
    }
  }
}
util.func public @no_copy_dims_queried(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %x = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?xi32>{%n}
  %u = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<1xi32>
  %s = flow.dispatch @scatd::@scatd[%n](%u, %x, %n) : (tensor<1xi32>, tensor<?xi32>{%n}, index) -> %x{%n}
  %e = hal.tensor.export %s "output0" : tensor<?xi32>{%n} -> !hal.buffer_view
  util.return %e : !hal.buffer_view
}
