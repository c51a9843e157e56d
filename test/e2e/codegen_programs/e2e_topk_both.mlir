func.func @topk(%x: tensor<4x128xf16>) -> (tensor<4x8xf16>, tensor<4x8xi32>) {
  %e = tensor.empty() : tensor<4x128xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x128xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<4x128xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<4x128xf16>, tensor<4x128xi32>) {
  ^bb0(%a: f16, %b: f16, %p: i32, %q: i32):
    %r = arith.cmpf olt, %a, %b : f16
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x128xf16>, tensor<4x128xi32>
  %kv = tensor.extract_slice %s#0[0, 0] [4, 8] [1, 1] : tensor<4x128xf16> to tensor<4x8xf16>
  %ki = tensor.extract_slice %s#1[0, 0] [4, 8] [1, 1] : tensor<4x128xi32> to tensor<4x8xi32>
  return %kv, %ki : tensor<4x8xf16>, tensor<4x8xi32>
}
