func.func @main(%src: tensor<1x2xi8>, %init: tensor<10xi8>, %offs: tensor<1xi32>) -> tensor<10xi8> {
  %c0 = arith.constant 0 : index
  %ox0 = tensor.extract %offs[%c0] : tensor<1xi32>
  %ov0 = arith.index_cast %ox0 : i32 to index
  %r = flow.dispatch.workgroups[%ov0](%src, %init, %ov0) : (tensor<1x2xi8>, tensor<10xi8>, index) -> %init =
      (%sb: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x2xi8>>, %ob: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<10xi8>>, %w0_: index) {
    %c0 = arith.constant 0 : index
    %w0 = iree_tensor_ext.dispatch.workload.ordinal %w0_, 0 : index
    %t = iree_tensor_ext.dispatch.tensor.load %sb, offsets = [0, 0], sizes = [1, 2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x2xi8>> -> tensor<1x2xi8>
    %e = tensor.empty() : tensor<1x2xi8>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<1x2xi8>) outs(%e : tensor<1x2xi8>) {
    ^bb0(%x: i8, %o: i8):
      %one = arith.constant 1 : i8
      %y = arith.addi %x, %one : i8
      linalg.yield %y : i8
    } -> tensor<1x2xi8>
    %v = tensor.collapse_shape %g [[0, 1]] : tensor<1x2xi8> into tensor<2xi8>
    iree_tensor_ext.dispatch.tensor.store %v, %ob, offsets = [%w0], sizes = [2], strides = [1] : tensor<2xi8> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<10xi8>>
    flow.return
  } count(%x0: index) -> (index, index, index) {
    %a, %b, %cc = iree_tensor_ext.dispatch.workgroup_count_from_slice(%x0)
    flow.return %a, %b, %cc : index, index, index
  }
  return %r : tensor<10xi8>
}
