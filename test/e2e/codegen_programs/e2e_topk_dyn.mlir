func.func @topk(%x: tensor<?x64xf32>) -> (tensor<?x4xi32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x64xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<?x64xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<?x64xf32>, tensor<?x64xi32>) {
  ^bb0(%a: f32, %b: f32, %p: i32, %q: i32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<?x64xf32>, tensor<?x64xi32>
  %ki = tensor.extract_slice %s#1[0, 0] [%n, 4] [1, 1] : tensor<?x64xi32> to tensor<?x4xi32>
  return %ki : tensor<?x4xi32>
}
