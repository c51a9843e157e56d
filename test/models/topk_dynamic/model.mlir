module @module {
  func.func @main(%arg0: !torch.vtensor<[?,64],f32>) -> (!torch.vtensor<[?,8],f32>, !torch.vtensor<[?,8],si64>) attributes {torch.assume_strict_symbolic_shapes} {
    %int8 = torch.constant.int 8
    %int-1 = torch.constant.int -1
    %true = torch.constant.bool true
    %true_0 = torch.constant.bool true
    %values, %indices = torch.aten.topk %arg0, %int8, %int-1, %true, %true_0 : !torch.vtensor<[?,64],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[?,8],f32>, !torch.vtensor<[?,8],si64>
    return %values, %indices : !torch.vtensor<[?,8],f32>, !torch.vtensor<[?,8],si64>
  }
}
