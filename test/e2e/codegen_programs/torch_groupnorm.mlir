module @module {
  func.func @main(%arg0: !torch.vtensor<[2,16,8,8],f32>) -> !torch.vtensor<[2,16,8,8],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %int4 = torch.constant.int 4
    %0 = torch.vtensor.literal(dense_resource<torch_tensor_16_torch.float32> : tensor<16xf32>) : !torch.vtensor<[16],f32>
    %1 = torch.vtensor.literal(dense_resource<torch_tensor_16_torch.float32_1> : tensor<16xf32>) : !torch.vtensor<[16],f32>
    %float1.000000e-05 = torch.constant.float 1.000000e-05
    %false = torch.constant.bool false
    %2 = torch.aten.group_norm %arg0, %int4, %0, %1, %float1.000000e-05, %false : !torch.vtensor<[2,16,8,8],f32>, !torch.int, !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,16,8,8],f32>
    return %2 : !torch.vtensor<[2,16,8,8],f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_16_torch.float32: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F",
      torch_tensor_16_torch.float32_1: "0x0400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    }
  }
#-}
