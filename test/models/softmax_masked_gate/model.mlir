module @module {
  func.func @main(%arg0: !torch.vtensor<[4,8,64,64],f32>, %arg1: !torch.vtensor<[1,1,64,64],f32>, %arg2: !torch.vtensor<[4,8,64,64],f32>) -> !torch.vtensor<[4,8,64,64],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %float1.250000e-01 = torch.constant.float 1.250000e-01
    %0 = torch.aten.mul.Scalar %arg0, %float1.250000e-01 : !torch.vtensor<[4,8,64,64],f32>, !torch.float -> !torch.vtensor<[4,8,64,64],f32>
    %int1 = torch.constant.int 1
    %1 = torch.aten.add.Tensor %0, %arg1, %int1 : !torch.vtensor<[4,8,64,64],f32>, !torch.vtensor<[1,1,64,64],f32>, !torch.int -> !torch.vtensor<[4,8,64,64],f32>
    %int-1 = torch.constant.int -1
    %none = torch.constant.none
    %2 = torch.aten.softmax.int %1, %int-1, %none : !torch.vtensor<[4,8,64,64],f32>, !torch.int, !torch.none -> !torch.vtensor<[4,8,64,64],f32>
    %3 = torch.aten.sigmoid %arg2 : !torch.vtensor<[4,8,64,64],f32> -> !torch.vtensor<[4,8,64,64],f32>
    %4 = torch.aten.mul.Tensor %2, %3 : !torch.vtensor<[4,8,64,64],f32>, !torch.vtensor<[4,8,64,64],f32> -> !torch.vtensor<[4,8,64,64],f32>
    return %4 : !torch.vtensor<[4,8,64,64],f32>
  }
}
