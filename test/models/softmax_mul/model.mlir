module @module {
  func.func @main(%arg0: !torch.vtensor<[?,256],f32>, %arg1: !torch.vtensor<[?,256],f32>) -> !torch.vtensor<[?,256],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %int-1 = torch.constant.int -1
    %none = torch.constant.none
    %0 = torch.aten.softmax.int %arg0, %int-1, %none : !torch.vtensor<[?,256],f32>, !torch.int, !torch.none -> !torch.vtensor<[?,256],f32>
    %1 = torch.aten.mul.Tensor %0, %arg1 : !torch.vtensor<[?,256],f32>, !torch.vtensor<[?,256],f32> -> !torch.vtensor<[?,256],f32>
    return %1 : !torch.vtensor<[?,256],f32>
  }
}
