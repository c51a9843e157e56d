module @module {
  func.func @main(%arg0: !torch.vtensor<[?,40],f32>) -> (!torch.vtensor<[?,40],f32>, !torch.vtensor<[?,40],si64>) attributes {torch.assume_strict_symbolic_shapes} {
    %int-1 = torch.constant.int -1
    %true = torch.constant.bool true
    %values, %indices = torch.aten.sort %arg0, %int-1, %true : !torch.vtensor<[?,40],f32>, !torch.int, !torch.bool -> !torch.vtensor<[?,40],f32>, !torch.vtensor<[?,40],si64>
    return %values, %indices : !torch.vtensor<[?,40],f32>, !torch.vtensor<[?,40],si64>
  }
}
