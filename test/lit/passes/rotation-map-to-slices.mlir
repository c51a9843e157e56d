// RUN: opt-py %s --split-input-file -p rotation-map-to-slices | filecheck %s

// IREE #19898: a rotation by 3 of the last dim of 6. The input becomes x[3:6] then x[0:3] (inserted into
// an empty tensor, as IREE decomposes a concat), read through d3.
// CHECK-DAG: #[[$ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @rotate_issue_19898
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x1x6xf32>, %[[Y:.*]]: tensor<1x1x1x6xf32>)
// CHECK: %[[HI:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 3] [1, 1, 1, 3] [1, 1, 1, 1]
// CHECK: %[[H:.*]] = tensor.insert_slice %[[HI]] into %{{.*}}[0, 0, 0, 0] [1, 1, 1, 3] [1, 1, 1, 1]
// CHECK: %[[LO:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 1, 1, 3] [1, 1, 1, 1]
// CHECK: %[[R:.*]] = tensor.insert_slice %[[LO]] into %[[H]][0, 0, 0, 3] [1, 1, 1, 3] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[$ID4]], #[[$ID4]], #[[$ID4]]], {{.*}} ins(%[[R]], %[[Y]] :
// CHECK-NOT: ) mod
func.func @rotate_issue_19898(%x: tensor<1x1x1x6xf32>, %y: tensor<1x1x1x6xf32>) -> tensor<1x1x1x6xf32> {
  %e = tensor.empty() : tensor<1x1x1x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, (d3 + 3) mod 6)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %y : tensor<1x1x1x6xf32>, tensor<1x1x1x6xf32>) outs(%e : tensor<1x1x1x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x6xf32>
  return %r : tensor<1x1x1x6xf32>
}

// -----

// A shift of -9 over 4 is a shift of 3 (-9 mod 4, as the map's mod is floored).
// CHECK-LABEL: func.func @rotate_back_beyond_the_period
// CHECK: %[[HI:.*]] = tensor.extract_slice %arg0[3] [1] [1] : tensor<4xf32> to tensor<1xf32>
// CHECK: %[[H:.*]] = tensor.insert_slice %[[HI]] into %{{.*}}[0] [1] [1] : tensor<1xf32> into tensor<4xf32>
// CHECK: %[[LO:.*]] = tensor.extract_slice %arg0[0] [3] [1] : tensor<4xf32> to tensor<3xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %[[LO]] into %[[H]][1] [3] [1] : tensor<3xf32> into tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[R]], %arg1 :
func.func @rotate_back_beyond_the_period(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 9) mod 4)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Two rotated dims of a transposed read, the rows dynamic elsewhere: rotated one dim after the
// other, and read through (d1, d0).
// CHECK-DAG: #[[$T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @rotate_two_dims_of_a_transposed_read
// CHECK: %[[A:.*]] = tensor.extract_slice %arg0[1, 0] [4, 3] [1, 1] : tensor<5x3xf32> to tensor<4x3xf32>
// CHECK: %[[AI:.*]] = tensor.insert_slice %[[A]] into %{{.*}}[0, 0] [4, 3] [1, 1]
// CHECK: %[[B:.*]] = tensor.extract_slice %arg0[0, 0] [1, 3] [1, 1] : tensor<5x3xf32> to tensor<1x3xf32>
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[B]] into %[[AI]][4, 0] [1, 3] [1, 1]
// CHECK: %[[C:.*]] = tensor.extract_slice %[[R0]][0, 2] [5, 1] [1, 1]
// CHECK: %[[CI:.*]] = tensor.insert_slice %[[C]] into %{{.*}}[0, 0] [5, 1] [1, 1]
// CHECK: %[[D:.*]] = tensor.extract_slice %[[R0]][0, 0] [5, 2] [1, 1]
// CHECK: %[[R1:.*]] = tensor.insert_slice %[[D]] into %[[CI]][0, 1] [5, 2] [1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[$T]], {{.*}} ins(%[[R1]], %arg1 :
func.func @rotate_two_dims_of_a_transposed_read(%x: tensor<5x3xf32>, %y: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((d1 + 6) mod 5, (d0 + 2) mod 3)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<5x3xf32>, tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// The input is dynamic along the rotated dim (at least the period, or the original read would be out
// of bounds): sliced to the period. Other dims dynamic: their sizes come from tensor.dim.
// CHECK-LABEL: func.func @rotate_a_longer_dynamic_input
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x5xf32>
// CHECK: %[[A:.*]] = tensor.extract_slice %arg0[0, 2] [%[[N]], 3] [1, 1] : tensor<?x?xf32> to tensor<?x3xf32>
// CHECK: %[[AI:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [%[[N]], 3] [1, 1]
// CHECK: %[[B:.*]] = tensor.extract_slice %arg0[0, 0] [%[[N]], 2] [1, 1] : tensor<?x?xf32> to tensor<?x2xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %[[B]] into %[[AI]][0, 3] [%[[N]], 2] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[R]], %arg1 :
func.func @rotate_a_longer_dynamic_input(%x: tensor<?x?xf32>, %y: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %y, %c0 : tensor<?x5xf32>
  %e = tensor.empty(%m) : tensor<?x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 + 2) mod 5)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?x5xf32>) outs(%e : tensor<?x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}

// -----

// A shift of a whole period on a longer input: one slice, nothing to insert.
// CHECK-LABEL: func.func @rotate_by_a_whole_period
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0] [4] [1] : tensor<7xf32> to tensor<4xf32>
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {{.*}} ins(%[[S]], %arg1 :
func.func @rotate_by_a_whole_period(%x: tensor<7xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 + 4) mod 4)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<7xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// (2 * d0) mod 6 is not a rotation: left alone.
// CHECK-LABEL: func.func @no_fold_not_a_rotation
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, {{.*}} ins(%arg0, %arg1 :
func.func @no_fold_not_a_rotation(%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 * 2) mod 6)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// The rotated loop's range is dynamic: not provably the period, so x[(d + 1) mod 6] may wrap
// more than once.
// CHECK-LABEL: func.func @no_fold_loop_range_unknown
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 :
func.func @no_fold_loop_range_unknown(%x: tensor<6xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %y, %c0 : tensor<?xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 + 1) mod 6)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<6xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// The loop runs over 4 of a period of 6: the copy would be a different slice; left alone.
// CHECK-LABEL: func.func @no_fold_loop_shorter_than_the_period
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 :
func.func @no_fold_loop_shorter_than_the_period(%x: tensor<6xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 + 1) mod 6)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<6xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A rotation in an output's map: a write, which no copy of an input can stand for.
// CHECK-LABEL: func.func @no_fold_output_rotated
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<6xf32>)
func.func @no_fold_output_rotated(%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ((d0 + 2) mod 6)>], iterator_types = ["parallel"]} ins(%x : tensor<6xf32>) outs(%y : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Buffers: no value to give a rotated copy to.
// CHECK-LABEL: func.func @no_fold_buffers
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {{.*}} ins(%arg0 : memref<6xf32>)
func.func @no_fold_buffers(%x: memref<6xf32>, %y: memref<6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 + 1) mod 6)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<6xf32>) outs(%y : memref<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// d0 floordiv 2 is the semi-affine form tiling handles (an upsampling read): left alone.
// CHECK-LABEL: func.func @no_fold_floordiv
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 :
func.func @no_fold_floordiv(%x: tensor<3xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 2)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<3xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// The input is shorter than the period: the original reads out of bounds; left as it is.
// CHECK-LABEL: func.func @no_fold_input_shorter_than_the_period
// CHECK-NOT: tensor.insert_slice
func.func @no_fold_input_shorter_than_the_period(%x: tensor<4xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 + 1) mod 6)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%y : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
