module @module {
  func.func @main(%arg0: !torch.vtensor<[?,16],f32>, %arg1: !torch.vtensor<[?],si64>, %arg2: !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[?,16],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %none = torch.constant.none
    %0 = torch.aten.clone %arg0, %none : !torch.vtensor<[?,16],f32>, !torch.none -> !torch.vtensor<[?,16],f32>
    %1 = torch.prim.ListConstruct %arg1 : (!torch.vtensor<[?],si64>) -> !torch.list<optional<vtensor>>
    %false = torch.constant.bool false
    %2 = torch.aten.index_put %0, %1, %arg2, %false : !torch.vtensor<[?,16],f32>, !torch.list<optional<vtensor>>, !torch.vtensor<[?,16],f32>, !torch.bool -> !torch.vtensor<[?,16],f32>
    return %2 : !torch.vtensor<[?,16],f32>
  }
}
