module @module {
  func.func @main(%arg0: !torch.vtensor<[?,4],si64>, %arg1: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,32],f32> attributes {torch.assume_strict_symbolic_shapes} {
    %int0 = torch.constant.int 0
    %0 = torch.aten.size.int %arg1, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
    %int32 = torch.constant.int 32
    %1 = torch.prim.ListConstruct %0, %int32 : (!torch.int, !torch.int) -> !torch.list<int>
    %int6 = torch.constant.int 6
    %none = torch.constant.none
    %cpu = torch.constant.device "cpu"
    %false = torch.constant.bool false
    %2 = torch.aten.zeros %1, %int6, %none, %cpu, %false : !torch.list<int>, !torch.int, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[?,32],f32>
    %int1 = torch.constant.int 1
    %3 = torch.aten.scatter.src %2, %int1, %arg0, %arg1 : !torch.vtensor<[?,32],f32>, !torch.int, !torch.vtensor<[?,4],si64>, !torch.vtensor<[?,4],f32> -> !torch.vtensor<[?,32],f32>
    return %3 : !torch.vtensor<[?,32],f32>
  }
}
