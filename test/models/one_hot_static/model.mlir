module @module {
  func.func @main(%arg0: !torch.vtensor<[4,24],si64>) -> !torch.vtensor<[4,24,16],si64> attributes {torch.assume_strict_symbolic_shapes} {
    %int16 = torch.constant.int 16
    %0 = torch.aten.one_hot %arg0, %int16 : !torch.vtensor<[4,24],si64>, !torch.int -> !torch.vtensor<[4,24,16],si64>
    return %0 : !torch.vtensor<[4,24,16],si64>
  }
}
