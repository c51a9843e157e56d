module @module {
  func.func @main(%arg0: !torch.vtensor<[2,4,64,16],f32>, %arg1: !torch.vtensor<[2,4,64,16],f32>, %arg2: !torch.vtensor<[2,4,8,16],f32>, %arg3: !torch.vtensor<[2,4,8,16],f32>, %arg4: !torch.vtensor<[2,4,8,16],f32>, %arg5: !torch.vtensor<[],si64>) -> (!torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>) attributes {torch.assume_strict_symbolic_shapes} {
    %0 = torch.aten.item %arg5 : !torch.vtensor<[],si64> -> !torch.int
    %int0 = torch.constant.int 0
    %1 = torch.aten.ge.int %0, %int0 : !torch.int, !torch.int -> !torch.bool
    %2 = torch.aten.Int.bool %1 : !torch.bool -> !torch.int
    %str = torch.constant.str "Runtime assertion failed for expression u0 >= 0 on node 'ge_5'"
    torch.aten._assert_scalar %2, %str : !torch.int, !torch.str
    %int56 = torch.constant.int 56
    %3 = torch.aten.le.int %0, %int56 : !torch.int, !torch.int -> !torch.bool
    %4 = torch.aten.Int.bool %3 : !torch.bool -> !torch.int
    %str_0 = torch.constant.str "Runtime assertion failed for expression u0 <= 56 on node 'le_7'"
    torch.aten._assert_scalar %4, %str_0 : !torch.int, !torch.str
    %int8 = torch.constant.int 8
    %5 = torch.aten.add.int %0, %int8 : !torch.int, !torch.int -> !torch.int
    %int2 = torch.constant.int 2
    %int1 = torch.constant.int 1
    %6 = torch.aten.slice.Tensor %arg0, %int2, %0, %5, %int1 : !torch.vtensor<[2,4,64,16],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,4,8,16],f32>
    %int1_1 = torch.constant.int 1
    %7 = torch.aten.add.Tensor %6, %arg3, %int1_1 : !torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>, !torch.int -> !torch.vtensor<[2,4,8,16],f32>
    %int2_2 = torch.constant.int 2
    %int1_3 = torch.constant.int 1
    %8 = torch.aten.slice.Tensor %arg1, %int2_2, %0, %5, %int1_3 : !torch.vtensor<[2,4,64,16],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,4,8,16],f32>
    %int1_4 = torch.constant.int 1
    %9 = torch.aten.add.Tensor %8, %arg4, %int1_4 : !torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>, !torch.int -> !torch.vtensor<[2,4,8,16],f32>
    %none = torch.constant.none
    %float0.000000e00 = torch.constant.float 0.000000e+00
    %false = torch.constant.bool false
    %none_5 = torch.constant.none
    %false_6 = torch.constant.bool false
    %10 = torch.aten.scaled_dot_product_attention %arg2, %7, %9, %none, %float0.000000e00, %false, %none_5, %false_6 : !torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,4,8,16],f32>
    return %10, %7 : !torch.vtensor<[2,4,8,16],f32>, !torch.vtensor<[2,4,8,16],f32>
  }
}
