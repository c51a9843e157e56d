module @module {
  func.func @main(%arg0: !torch.vtensor<[?,48],f32>, %arg1: !torch.vtensor<[?],si64>) -> !torch.vtensor<[?,48],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %int0 = torch.constant.int 0
    %0 = torch.aten.index_select %arg0, %int0, %arg1 : !torch.vtensor<[?,48],f32>, !torch.int, !torch.vtensor<[?],si64> -> !torch.vtensor<[?,48],f32>
    %float2.000000e00 = torch.constant.float 2.000000e+00
    %1 = torch.aten.mul.Scalar %0, %float2.000000e00 : !torch.vtensor<[?,48],f32>, !torch.float -> !torch.vtensor<[?,48],f32>
    return %1 : !torch.vtensor<[?,48],f32>
  }
}
