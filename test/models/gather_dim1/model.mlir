module @module {
  func.func @main(%arg0: !torch.vtensor<[?,64],f32>, %arg1: !torch.vtensor<[?,16],si64>) -> !torch.vtensor<[?,16],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %int1 = torch.constant.int 1
    %false = torch.constant.bool false
    %0 = torch.aten.gather %arg0, %int1, %arg1, %false : !torch.vtensor<[?,64],f32>, !torch.int, !torch.vtensor<[?,16],si64>, !torch.bool -> !torch.vtensor<[?,16],f32>
    return %0 : !torch.vtensor<[?,16],f32>
  }
}
