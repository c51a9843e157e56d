module @module {
  func.func @main(%arg0: !torch.vtensor<[?,12],f32>) -> (!torch.vtensor<[?,6],f32>, !torch.vtensor<[?,6],f32>) attributes {torch.assume_strict_symbolic_shapes} {
    %0 = torch.vtensor.literal(dense_resource<torch_tensor_12_6_torch.float32> : tensor<12x6xf32>) : !torch.vtensor<[12,6],f32>
    %1 = torch.aten.matmul %arg0, %0 : !torch.vtensor<[?,12],f32>, !torch.vtensor<[12,6],f32> -> !torch.vtensor<[?,6],f32>
    %int-1 = torch.constant.int -1
    %none = torch.constant.none
    %2 = torch.aten.softmax.int %1, %int-1, %none : !torch.vtensor<[?,6],f32>, !torch.int, !torch.none -> !torch.vtensor<[?,6],f32>
    %int-1_0 = torch.constant.int -1
    %true = torch.constant.bool true
    %3 = torch.aten.argmax %2, %int-1_0, %true : !torch.vtensor<[?,6],f32>, !torch.int, !torch.bool -> !torch.vtensor<[?,1],si64>
    %int1 = torch.constant.int 1
    %false = torch.constant.bool false
    %4 = torch.aten.gather %2, %int1, %3, %false : !torch.vtensor<[?,6],f32>, !torch.int, !torch.vtensor<[?,1],si64>, !torch.bool -> !torch.vtensor<[?,1],f32>
    %none_1 = torch.constant.none
    %none_2 = torch.constant.none
    %none_3 = torch.constant.none
    %false_4 = torch.constant.bool false
    %none_5 = torch.constant.none
    %5 = torch.aten.zeros_like %2, %none_1, %none_2, %none_3, %false_4, %none_5 : !torch.vtensor<[?,6],f32>, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[?,6],f32>
    %int1_6 = torch.constant.int 1
    %float1.000000e00 = torch.constant.float 1.000000e+00
    %6 = torch.aten.scatter.value %5, %int1_6, %3, %float1.000000e00 : !torch.vtensor<[?,6],f32>, !torch.int, !torch.vtensor<[?,1],si64>, !torch.float -> !torch.vtensor<[?,6],f32>
    %none_7 = torch.constant.none
    %none_8 = torch.constant.none
    %none_9 = torch.constant.none
    %false_10 = torch.constant.bool false
    %none_11 = torch.constant.none
    %7 = torch.aten.zeros_like %2, %none_7, %none_8, %none_9, %false_10, %none_11 : !torch.vtensor<[?,6],f32>, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[?,6],f32>
    %int1_12 = torch.constant.int 1
    %8 = torch.aten.scatter.src %7, %int1_12, %3, %4 : !torch.vtensor<[?,6],f32>, !torch.int, !torch.vtensor<[?,1],si64>, !torch.vtensor<[?,1],f32> -> !torch.vtensor<[?,6],f32>
    return %6, %8 : !torch.vtensor<[?,6],f32>, !torch.vtensor<[?,6],f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_12_6_torch.float32: "0x0400000056F451BF2B90CA3EDE1E663F38B7B1BF01012BBE2DFF913E931E24BF9AC664BFEC316D3F541709BFB77194BFB899EBBED162353FF8A1813F28ED6B3E888A8B3FC194CABF992DA6BE3B93F63F4CF7A8BE2E354B3EEA35483F7B01853F897939BF565D56BE7D825CBECC69E8BF8EC3B0BE41EF03C0DD912C3F6563A9BFE90CAEBFD910ABBDCB54C0BC748F323E0C181340A604753F277029BF6F1554BFDD0D1BBF305CB3BF1A0FA63F1A0AD23F6D4187BFB2EE85BE621180BE7F49003F7723853E207836BE09DD84BED45E6DBC5C8DC4BEBAD53DC044C087BFC3349EBE832D6F3FEB59C63F8351193F323E23BFDB4A12C07A3EBCBE9DD661BF72C70B3F9013183E837241BFDD92C83E233A3F3F619CB03F01D4A43FF5515E3FE1EBB0BF269676BF"
    }
  }
#-}
