module @module {
  func.func @main(%arg0: !torch.vtensor<[64,16],f32>, %arg1: !torch.vtensor<[?],si64>, %arg2: !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[64,16],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %0 = torch.prim.ListConstruct %arg1 : (!torch.vtensor<[?],si64>) -> !torch.list<optional<vtensor>>
    %true = torch.constant.bool true
    %1 = torch.aten.index_put %arg0, %0, %arg2, %true : !torch.vtensor<[64,16],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[?,16],f32>, !torch.bool -> !torch.vtensor<[64,16],f32>
    return %1 : !torch.vtensor<[64,16],f32>
  }
}
