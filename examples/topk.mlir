// Top-8 indices of each row of a 4x64 matrix, as a sort plus a slice. Stock iree-compile 3.13
// fails to bufferize it for GPUs; opt-py compile --fixes compiles it (README, docs/reference/fixes.md).
func.func @topk(%x: tensor<4x64xf32>) -> (tensor<4x8xi32>) {
  %e = tensor.empty() : tensor<4x64xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x64xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<4x64xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<4x64xf32>, tensor<4x64xi32>) {
  ^bb0(%a: f32, %b: f32, %p: i32, %q: i32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<4x64xf32>, tensor<4x64xi32>
  %ki = tensor.extract_slice %s#1[0, 0] [4, 8] [1, 1] : tensor<4x64xi32> to tensor<4x8xi32>
  return %ki : tensor<4x8xi32>
}

