module @module {
  func.func @main(%arg0: !torch.vtensor<[?,32],f32>) -> (!torch.vtensor<[?,8],f32>, !torch.vtensor<[?,8],f32>) attributes {torch.assume_strict_symbolic_shapes} {
    %0 = torch.vtensor.literal(dense_resource<torch_tensor_8_32_torch.float32> : tensor<8x32xf32>) : !torch.vtensor<[8,32],f32>
    %none = torch.constant.none
    %1 = torch.aten.linear %arg0, %0, %none : !torch.vtensor<[?,32],f32>, !torch.vtensor<[8,32],f32>, !torch.none -> !torch.vtensor<[?,8],f32>
    %int-1 = torch.constant.int -1
    %none_0 = torch.constant.none
    %2 = torch.aten.softmax.int %1, %int-1, %none_0 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.none -> !torch.vtensor<[?,8],f32>
    %int2 = torch.constant.int 2
    %int-1_1 = torch.constant.int -1
    %true = torch.constant.bool true
    %true_2 = torch.constant.bool true
    %values, %indices = torch.aten.topk %2, %int2, %int-1_1, %true, %true_2 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[?,2],f32>, !torch.vtensor<[?,2],si64>
    %int-1_3 = torch.constant.int -1
    %3 = torch.prim.ListConstruct %int-1_3 : (!torch.int) -> !torch.list<int>
    %true_4 = torch.constant.bool true
    %none_5 = torch.constant.none
    %4 = torch.aten.sum.dim_IntList %values, %3, %true_4, %none_5 : !torch.vtensor<[?,2],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[?,1],f32>
    %5 = torch.aten.div.Tensor %values, %4 : !torch.vtensor<[?,2],f32>, !torch.vtensor<[?,1],f32> -> !torch.vtensor<[?,2],f32>
    %none_6 = torch.constant.none
    %none_7 = torch.constant.none
    %none_8 = torch.constant.none
    %false = torch.constant.bool false
    %none_9 = torch.constant.none
    %6 = torch.aten.zeros_like %2, %none_6, %none_7, %none_8, %false, %none_9 : !torch.vtensor<[?,8],f32>, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[?,8],f32>
    %int1 = torch.constant.int 1
    %float1.000000e00 = torch.constant.float 1.000000e+00
    %7 = torch.aten.scatter.value %6, %int1, %indices, %float1.000000e00 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.vtensor<[?,2],si64>, !torch.float -> !torch.vtensor<[?,8],f32>
    %none_10 = torch.constant.none
    %none_11 = torch.constant.none
    %none_12 = torch.constant.none
    %false_13 = torch.constant.bool false
    %none_14 = torch.constant.none
    %8 = torch.aten.zeros_like %2, %none_10, %none_11, %none_12, %false_13, %none_14 : !torch.vtensor<[?,8],f32>, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[?,8],f32>
    %int1_15 = torch.constant.int 1
    %9 = torch.aten.scatter.src %8, %int1_15, %indices, %5 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.vtensor<[?,2],si64>, !torch.vtensor<[?,2],f32> -> !torch.vtensor<[?,8],f32>
    return %7, %9 : !torch.vtensor<[?,8],f32>, !torch.vtensor<[?,8],f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_32_torch.float32: "0x040000002279ADBA9C36C23DB1FC14BE1D3805BED6708BBDAB2A423D578A65BB40870F3EDE8380BC97993F3D5DD35ABD1B540EBDC2EF2CBE90C5EFBD9F3D95BD4C94D63B6B208F3D403BD93DDE70F5BD86A79DBDA77F833DF750163EE70315BD7A75073E1E6BE9BC353C993CA1E8233E20ED27BEC5EAE3BDAC4F37BD661F8DBD9E661C3E85AAEABD86A8A6BD53EFFCBD208929BE2D56D3BD979A1B3E5E8CA13D5F78AF3D4952183C7B9CB9BD6E01F53C4D0429BE68CC02BE4CA4BABD876CE43D5D45D43DF68FA0BDF202D1BBB38BE73D12F5333ECBAF8F3DA6A2C33CF2BDF23D522BD5BD70ED063D65580CBE8AECFABDF205BBBD10D0A33DFD98913D5B74D6BDB8BF5A3DC5BFC63D43C8B6BCCF2BDD3BAAC5273DAE99E03D4ED02D3E6D7F0BBE1CAD84BDE7488E3DC4FB153E3C861D3E40B91F3E171A103D49691DBE2838853C4B7EE2BDA4B328BE96D5203ECBA3093E649234BEEC86073DC6F4F3BC5C4FEEBCC7B9A5BD65398B3DD06FD6BD61B8843DFD15B73D2B96013ECB5E873D452933BE76DAEABD77C5B43DE58C173DD5350DBE0B78D0BD374B2A3EB8F2F33DA3DB9DBD3F3D36BD4D702CBE123C50BB775108BE67A10BBEE4951FBCEA6ED93C0B4494BD5DD3D63D8F50DCBD6440243EE51AF83D88A618BE253634BD67B0023C8F49D33C86BB2B3DFF128E3D4A7D2D3C2AA6B0BD0E50AB3D81A42DBE2E95D6BD184235BD975AB0BD714E7DBD0C5E14BEB0051ABDB5C61A3D16DBEBBD02A314BC3595013EE4DE94BC5DFDA03B86DC79BC2E8A123DCF32E63D4A782B3E30EAE53DB9DC2B3E447751BC129D22BE61A2ABBD9783F63DC23396BA33F3B3BD9DB70ABE466829BE24C818BE97DE12BD4F8BC63DA4BBC33DB0942EBE4ED5E13D3BA60DBED01319BDF9CB92BDE6770BBDD42A0EBD0C7022BE884C1CBE439BE2BC88D2153B0F77A4BD3361883D8FED22BEC47643BC22311F3E34AC93BD0576233E191D833DE55C23BE970FE53DEA1BA7BCD59DA1BDB1C0103EE64712BEE6649B3C619917BDA844013E4A1F4A3D26F6AD3DE2B67F3D4E1F2EBD044718BDB72C15BE252BC43DB3B90F3E42B7F73DCD5FFFBDD22C013CA236FFBDEB4BC7BD40F6D2BD2773773D5DBED7BDEDC17CBB42AFF33BE360E93D0ED608BE428BF8BDD038D2BD2867FD3DE62382BD11B0183E79EA823DC25FB73C487BACBA01230FBDD6B1B53CD65625BD4ACEA2BA43C6B83C21980DBE7FC1BDBDFB2B123ED8E712BE13F94FBC4312333E23C8823DB401A43B87DF1CBE9058B33DC4EF00BE288A4DBD95F072BD1474D6BCFF71FD3A5D4E153E33C9B43C4123223EAC76DD3DCAE2E4BD3660A23D78ECFFBDEB7099BDB3F7543DA9156F3D48CE073E8C1769BDF25E9439D362BA3DF80F2FBE9CDF023E5FB015BE6EAC1F3BE835F6BC0DADBEBD7367BF3C33B0153E76A953BDB2F0D6BD5DE585BD"
    }
  }
#-}
