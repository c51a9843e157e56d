// RUN: opt-py %s --split-input-file -p clone-splat-dispatch-per-tied-use | filecheck %s

// The issue-14 shape: a zero fill that consumes no tensor, the destination of
// two in-place scatters. One use keeps it; the other gets a copy calling a
// copy of the executable, whose export and function are renamed too.
// CHECK-LABEL: flow.executable private @fill_tied_use_0 {
// CHECK: flow.executable.export public @fill_tied_use_0_fill workgroups
// CHECK: func.func @fill_tied_use_0_fill(
// CHECK: flow.executable private @fill {
// CHECK: flow.executable.export public @fill workgroups
// CHECK: func.func @fill(
// CHECK-LABEL: util.func public @two_tied_uses
// CHECK: %[[Z:.*]] = flow.dispatch @fill::@fill[%arg2](%arg2)
// CHECK: %[[C:.*]] = flow.dispatch @fill_tied_use_0::@fill_tied_use_0_fill[%arg2](%arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg0, %[[C]], %arg2) {{.*}} -> %[[C]]{%arg2}
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg1, %[[Z]], %arg2) {{.*}} -> %[[Z]]{%arg2}
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @two_tied_uses(%u: tensor<?xf32>, %v: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @fill::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  %b = flow.dispatch @scat::@scat[%n](%v, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// An in-place use beside a read (the fill is also returned): the in-place
// use gets the copy, the read keeps the original.
// CHECK-LABEL: util.func public @tied_and_read
// CHECK: %[[Z:.*]] = flow.dispatch @fill::@fill[%arg1](%arg1)
// CHECK: %[[C:.*]] = flow.dispatch @fill_tied_use_0::@fill_tied_use_0_fill[%arg1](%arg1)
// CHECK: %[[A:.*]] = flow.dispatch @scat::@scat[%arg1](%arg0, %[[C]], %arg1) {{.*}} -> %[[C]]{%arg1}
// CHECK: util.return %[[A]], %[[Z]]
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @tied_and_read(%u: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @fill::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a, %z : tensor<?xf32>, tensor<?xf32>
}

// -----

// Uses through a flow.tensor.reshape (a view in stream): the reshape is
// replayed on the copy.
// CHECK-LABEL: util.func public @through_reshape
// CHECK: %[[Z:.*]] = flow.dispatch @fill::@fill[%arg2](%arg2)
// CHECK: %[[R:.*]] = flow.tensor.reshape %[[Z]]
// CHECK: %[[C:.*]] = flow.dispatch @fill_tied_use_0::@fill_tied_use_0_fill[%arg2](%arg2)
// CHECK: %[[CR:.*]] = flow.tensor.reshape %[[C]] : tensor<?xf32>{%arg2} -> tensor<?x8xf32>{%arg3}
// CHECK: flow.dispatch @scat::@scat[%arg3](%arg0, %[[CR]], %arg3) {{.*}} -> %[[CR]]{%arg3}
// CHECK: flow.dispatch @scat::@scat[%arg3](%arg1, %[[R]], %arg3) {{.*}} -> %[[R]]{%arg3}
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x8xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @through_reshape(%u: tensor<?xf32>, %v: tensor<?xf32>, %n8: index, %n: index) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %z = flow.dispatch @fill::@fill[%n8](%n8) : (index) -> tensor<?xf32>{%n8}
  %r = flow.tensor.reshape %z : tensor<?xf32>{%n8} -> tensor<?x8xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %r, %n) : (tensor<?xf32>{%n}, tensor<?x8xf32>{%n}, index) -> %r{%n}
  %b = flow.dispatch @scat::@scat[%n](%v, %r, %n) : (tensor<?xf32>{%n}, tensor<?x8xf32>{%n}, index) -> %r{%n}
  util.return %a, %b : tensor<?x8xf32>, tensor<?x8xf32>
}

// -----

// Two fills of one callee whose operands differ here but may fold to the same
// values in stream, where CSE merges them: one group. One in-place use keeps
// its fill, the other gets a copy.
// CHECK-LABEL: util.func public @one_callee_two_fills
// CHECK: flow.dispatch @fill::@fill[%arg2](%arg2)
// CHECK: flow.dispatch @fill::@fill[%arg3](%arg3)
// CHECK: %[[C:.*]] = flow.dispatch @fill_tied_use_0::@fill_tied_use_0_fill[%arg{{[23]}}](%arg{{[23]}})
// CHECK: flow.dispatch @scat::@scat{{.*}} -> %[[C]]{
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @one_callee_two_fills(%u: tensor<?xf32>, %v: tensor<?xf32>, %n: index, %m: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @fill::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %y = flow.dispatch @fill::@fill[%m](%m) : (index) -> tensor<?xf32>{%m}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  %b = flow.dispatch @scat::@scat[%m](%v, %y, %m) : (tensor<?xf32>{%m}, tensor<?xf32>{%m}, index) -> %y{%m}
  util.return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// The target of flow.tensor.update is written in place too.
// CHECK-LABEL: util.func public @update_target
// CHECK: %[[Z:.*]] = flow.dispatch @fill::@fill[%arg1](%arg1)
// CHECK: %[[C:.*]] = flow.dispatch @fill_tied_use_0::@fill_tied_use_0_fill[%arg1](%arg1)
// CHECK: %[[U:.*]] = flow.tensor.update %arg0, %[[C]][%arg2]
// CHECK: util.return %[[U]], %[[Z]]
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
      return
    }
  }
}
util.func public @update_target(%u: tensor<1xf32>, %n: index, %i: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @fill::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.tensor.update %u, %z[%i] : tensor<1xf32> -> %z as tensor<?xf32>{%n}
  util.return %a, %z : tensor<?xf32>, tensor<?xf32>
}

// -----

// Not a dispatch: stream handles flow.tensor.splat (not pure, never merged).
// CHECK-LABEL: util.func public @no_fold_splat
// CHECK-NOT: tied_use
// CHECK: %[[Z:.*]] = flow.tensor.splat
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg0, %[[Z]], %arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg1, %[[Z]], %arg2)
flow.executable private @scat {
  flow.executable.export public @scat workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @no_fold_splat(%u: tensor<?xf32>, %v: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0.0 : f32
  %z = flow.tensor.splat %c0 : tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  %b = flow.dispatch @scat::@scat[%n](%v, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// The producer consumes a tensor: stream's copy-on-write makes a real copy
// (no re-dispatch, nothing for CSE to merge).
// CHECK-LABEL: util.func public @no_fold_consumes_tensor
// CHECK-NOT: tied_use
// CHECK: %[[Z:.*]] = flow.dispatch @neg::@neg[%arg2](%arg0, %arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg0, %[[Z]], %arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg1, %[[Z]], %arg2)
flow.executable private @neg {
  flow.executable.export public @neg workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @neg(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @no_fold_consumes_tensor(%u: tensor<?xf32>, %v: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @neg::@neg[%n](%u, %n) : (tensor<?xf32>{%n}, index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  %b = flow.dispatch @scat::@scat[%n](%v, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// A single use, in place: copy-on-write copies nothing, nothing to merge.
// CHECK-LABEL: util.func public @no_fold_single_use
// CHECK-NOT: tied_use
// CHECK: %[[Z:.*]] = flow.dispatch @fill::@fill[%arg1](%arg1)
// CHECK: flow.dispatch @scat::@scat[%arg1](%arg0, %[[Z]], %arg1)
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @no_fold_single_use(%u: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %z = flow.dispatch @fill::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a : tensor<?xf32>
}

// -----

// Two uses, neither in place (the scatter destination is not tied): reads
// of one value need no copy.
// CHECK-LABEL: util.func public @no_fold_no_tied_use
// CHECK-NOT: tied_use
// CHECK: %[[Z:.*]] = flow.dispatch @fill::@fill[%arg1](%arg1)
// CHECK: %[[S:.*]] = flow.dispatch @scat::@scat[%arg1](%arg0, %[[Z]], %arg1) {{.*}} -> tensor<?xf32>{%arg1}
// CHECK: util.return %[[S]], %[[Z]]
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg2: index, %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
      return
    }
  }
}
util.func public @no_fold_no_tied_use(%u: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @fill::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> tensor<?xf32>{%n}
  util.return %a, %z : tensor<?xf32>, tensor<?xf32>
}

// -----

// The callee is no flow.executable of this module: nothing to copy.
// CHECK-LABEL: util.func public @no_fold_unknown_callee
// CHECK-NOT: tied_use
// CHECK: %[[Z:.*]] = flow.dispatch @nowhere::@fill[%arg2](%arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg0, %[[Z]], %arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg1, %[[Z]], %arg2)
flow.executable private @scat {
  flow.executable.export public @scat workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @no_fold_unknown_callee(%u: tensor<?xf32>, %v: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @nowhere::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  %b = flow.dispatch @scat::@scat[%n](%v, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// The export's function is not in the executable (it could not be renamed
// in the copy, and backends link all executables into one object).
// CHECK-LABEL: util.func public @no_fold_export_without_function
// CHECK-NOT: tied_use
// CHECK: %[[Z:.*]] = flow.dispatch @fill::@fill[%arg2](%arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg0, %[[Z]], %arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg1, %[[Z]], %arg2)
flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
  }
}
flow.executable private @scat {
  flow.executable.export public @scat workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @no_fold_export_without_function(%u: tensor<?xf32>, %v: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch @fill::@fill[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  %b = flow.dispatch @scat::@scat[%n](%v, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// Several entry points (one per target variant): left alone.
// CHECK-LABEL: util.func public @no_fold_several_entry_points
// CHECK-NOT: tied_use
// CHECK: %[[Z:.*]] = flow.dispatch {@fill::@fill, @fill2::@fill}[%arg2](%arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg0, %[[Z]], %arg2)
// CHECK: flow.dispatch @scat::@scat[%arg2](%arg1, %[[Z]], %arg2)

flow.executable private @fill {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
      return
    }
  }
}
flow.executable private @fill2 {
  flow.executable.export public @fill workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fill(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
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
    func.func @scat(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>, %arg2: index) {
      return
    }
  }
}
util.func public @no_fold_several_entry_points(%u: tensor<?xf32>, %v: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = flow.dispatch {@fill::@fill, @fill2::@fill}[%n](%n) : (index) -> tensor<?xf32>{%n}
  %a = flow.dispatch @scat::@scat[%n](%u, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  %b = flow.dispatch @scat::@scat[%n](%v, %z, %n) : (tensor<?xf32>{%n}, tensor<?xf32>{%n}, index) -> %z{%n}
  util.return %a, %b : tensor<?xf32>, tensor<?xf32>
}

