func.func @main(%src: tensor<4x4x1xf16>, %init: tensor<1x?x3xf16>, %offs: tensor<1xi32>) -> tensor<1x?x3xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bd1 = tensor.dim %init, %c1 : tensor<1x?x3xf16>
  %ox0 = tensor.extract %offs[%c0] : tensor<1xi32>
  %ov0 = arith.index_cast %ox0 : i32 to index
  %r = flow.dispatch.workgroups[%bd1, %ov0](%src, %init, %bd1, %ov0) : (tensor<4x4x1xf16>, tensor<1x?x3xf16>{%bd1}, index, index) -> %init{%bd1} =
      (%sb: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4x1xf16>>, %ob: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<1x?x3xf16>>, %w0_: index, %w1_: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %w0 = iree_tensor_ext.dispatch.workload.ordinal %w0_, 0 : index
    %w1 = iree_tensor_ext.dispatch.workload.ordinal %w1_, 1 : index
    %t = iree_tensor_ext.dispatch.tensor.load %sb, offsets = [0, 0, 0], sizes = [4, 4, 1], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4x1xf16>> -> tensor<4x4x1xf16>
    %e = tensor.empty() : tensor<4x4x1xf16>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<4x4x1xf16>) outs(%e : tensor<4x4x1xf16>) {
    ^bb0(%x: f16, %o: f16):
      %one = arith.constant 1.0 : f16
      %y = arith.addf %x, %one : f16
      linalg.yield %y : f16
    } -> tensor<4x4x1xf16>
    %v = tensor.collapse_shape %g [[0, 1, 2]] : tensor<4x4x1xf16> into tensor<16xf16>
    iree_tensor_ext.dispatch.tensor.store %v, %ob, offsets = [%w1, 0, 1], sizes = [1, 16, 1], strides = [1, 1, 1] : tensor<16xf16> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<1x?x3xf16>>{%w0}
    flow.return
  } count(%x0: index, %x1: index) -> (index, index, index) {
    %a, %b, %cc = iree_tensor_ext.dispatch.workgroup_count_from_slice(%x0, %x1)
    flow.return %a, %b, %cc : index, index, index
  }
  return %r : tensor<1x?x3xf16>
}
