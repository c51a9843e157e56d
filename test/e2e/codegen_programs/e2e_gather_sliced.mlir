
func.func @read(%table: tensor<64x32xf32>, %rows: tensor<4xi32>, %cols: tensor<4xi32>) -> tensor<4x8xf32> {
  %src = tensor.extract_slice %table[16, 8] [32, 24] [1, 1] : tensor<64x32xf32> to tensor<32x24xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%rows, %cols : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%rw: i32, %cl: i32, %o: f32):
    %row = arith.index_cast %rw : i32 to index
    %c0 = arith.index_cast %cl : i32 to index
    %j = linalg.index 1 : index
    %col = arith.addi %c0, %j : index
    %v = tensor.extract %src[%row, %col] : tensor<32x24xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
