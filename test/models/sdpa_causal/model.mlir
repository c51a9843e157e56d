module @module {
  func.func @main(%arg0: !torch.vtensor<[2,4,?,32],f32>, %arg1: !torch.vtensor<[2,4,?,32],f32>, %arg2: !torch.vtensor<[2,4,?,32],f32>) -> !torch.vtensor<[2,4,?,32],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %none = torch.constant.none
    %float0.000000e00 = torch.constant.float 0.000000e+00
    %true = torch.constant.bool true
    %none_0 = torch.constant.none
    %false = torch.constant.bool false
    %0 = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %none, %float0.000000e00, %true, %none_0, %false : !torch.vtensor<[2,4,?,32],f32>, !torch.vtensor<[2,4,?,32],f32>, !torch.vtensor<[2,4,?,32],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,?,32],f32>
    return %0 : !torch.vtensor<[2,4,?,32],f32>
  }
}
