module @module {
  func.func @main(%arg0: !torch.vtensor<[?,32,16,16],f32>) -> !torch.vtensor<[?,32,16,16],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %int8 = torch.constant.int 8
    %0 = torch.vtensor.literal(dense_resource<torch_tensor_32_torch.float32> : tensor<32xf32>) : !torch.vtensor<[32],f32>
    %1 = torch.vtensor.literal(dense_resource<torch_tensor_32_torch.float32_1> : tensor<32xf32>) : !torch.vtensor<[32],f32>
    %float1.000000e-05 = torch.constant.float 1.000000e-05
    %false = torch.constant.bool false
    %2 = torch.aten.group_norm %arg0, %int8, %0, %1, %float1.000000e-05, %false : !torch.vtensor<[?,32,16,16],f32>, !torch.int, !torch.vtensor<[32],f32>, !torch.vtensor<[32],f32>, !torch.float, !torch.bool -> !torch.vtensor<[?,32,16,16],f32>
    %3 = torch.aten.silu %2 : !torch.vtensor<[?,32,16,16],f32> -> !torch.vtensor<[?,32,16,16],f32>
    return %3 : !torch.vtensor<[?,32,16,16],f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_32_torch.float32: "0x04000000B22D633FE47F623FCF95793F88E4743F0EDD8A3F93DB883FFBE8773FB3D9493F0820843F9CA85F3FD37A843FB1F1833FB288813F8FD78F3F754B8E3F70AB793F405F5D3F8C95543FCD40873F2B288A3F47AA873F8730583FDC42773FEEB7973F399A893FE202713FA18F7B3F3859823FADC8913F1A4E943FD51C8C3FE1666A3F",
      torch_tensor_32_torch.float32_1: "0x04000000DA527BBDD30B4F3BEDCC49BD5A80CB3C7319343DAB2C383CFA3B833D97B2343DC79F27BCE34AA23DB84BEDBC790EAC3BE529563DEFBE6B3E2C6A16BE187A22BE4CD989BD7FC1B23D2023D83D88B0913CDAB0BCBC6D7620BD95885E3D46DB21BD43C536BD1D60983D91BF1B3E249EAE3E14CB1CBE38C0FCBD02573A3EFAE761BD"
    }
  }
#-}
