// The chunks form: the row cut in chunks of C; each chunk's best composite (global index inside); k
// rounds over the chunk bests pick the k best chunks; k rounds over their k*C composites give the
// result. Taken by the CPU rule for k <= 64 on rows of at least 512 where it makes at most 0.6 of the
// rounds form's compares; forced with form=chunks, which leaves alone what it cannot cut.
// RUN: opt-py %s --split-input-file -p sort-slice-to-topk | filecheck %s
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=chunks}' | filecheck %s --check-prefix=CHUNKS
// RUN: opt-py %s --split-input-file -p 'sort-slice-to-topk{form=chunks}' --debug-patterns -o /dev/null 2>&1 | filecheck %s --check-prefix=WHY

// Forced on 2x64, k = 4: chunks of C = 4 (the largest power of two with C^2 <= 2*64/4). The chunk
// bests read the keys split [2, 16, 4] and compute each composite's global index chunk * 4 + lane. Both
// round chains start after one constant above every composite (behind a barrier), as the later rounds
// keep those after the previous winner. The four chosen chunks' first positions come from the decoded
// winners (index / 4 * 4); their 16 composites are gathered from the keys with global indices, four
// rounds reduce both of their dims, and the decode writes the i64 indices.
// CHUNKS-LABEL: func.func @chunks_indices(
// CHUNKS-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<2x64xf32>
// CHUNKS:         %[[SPLIT:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [2, 16, 4] : tensor<2x64xf32> into tensor<2x16x4xf32>
// CHUNKS:         %[[C:.+]] = arith.constant 4 : index
// CHUNKS:         %[[B:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[SPLIT]] : tensor<2x16x4xf32>) outs(%{{.+}} : tensor<2x16xi64>)
// CHUNKS:           %[[CHUNK:.+]] = linalg.index 1 : index
// CHUNKS:           %[[START:.+]] = arith.muli %[[CHUNK]], %[[C]] : index
// CHUNKS:           %[[LANE:.+]] = linalg.index 2 : index
// CHUNKS:           %[[POS:.+]] = arith.addi %[[START]], %[[LANE]] : index
// CHUNKS:           %[[I:.+]] = arith.index_cast %[[POS]] : index to i64
// CHUNKS:           %[[LOW:.+]] = arith.subi %{{.+}}, %[[I]] : i64
// CHUNKS:           %[[HIGH:.+]] = arith.shli
// CHUNKS:           %[[COMP:.+]] = arith.ori %[[HIGH]], %[[LOW]] : i64
// CHUNKS:           arith.maxsi %[[COMP]], %{{.+}} : i64
// CHUNKS:         %[[T1:.+]] = util.optimization_barrier %{{.+}} : tensor<2xi64>
// CHUNKS:         %[[W1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[B]], %[[T1]] : tensor<2x16xi64>, tensor<2xi64>) outs(%{{.+}} : tensor<2xi64>)
// CHUNKS-NOT:     linalg.index
// CHUNKS:         %[[W2:.+]] = linalg.generic {{.*}} ins(%[[B]], %[[W1]] : tensor<2x16xi64>, tensor<2xi64>)
// CHUNKS:           arith.cmpi slt
// CHUNKS:         %[[W3:.+]] = linalg.generic {{.*}} ins(%[[B]], %[[W2]] : tensor<2x16xi64>, tensor<2xi64>)
// CHUNKS:         %[[W4:.+]] = linalg.generic {{.*}} ins(%[[B]], %[[W3]] : tensor<2x16xi64>, tensor<2xi64>)
// CHUNKS:         %[[F:.+]] = linalg.generic {{.*}} ins(%[[W1]], %[[W2]], %[[W3]], %[[W4]] : {{.*}}) outs(%{{.+}} : tensor<2x4xi32>)
// CHUNKS:           %[[INCHUNK:.+]] = arith.divui %{{.+}}, %{{.+}} : i32
// CHUNKS:           %[[FIRST:.+]] = arith.muli %[[INCHUNK]], %{{.+}} : i32
// CHUNKS:           linalg.yield %[[FIRST]] : i32
// CHUNKS:         %[[CANDS:.+]] = linalg.generic {{.*}} ins(%[[F]] : tensor<2x4xi32>) outs(%{{.+}} : tensor<2x4x4xi64>)
// CHUNKS-NEXT:    ^bb0(%[[CHUNKSTART:[a-zA-Z0-9_]+]]: i32, %{{.+}}: i64):
// CHUNKS-NEXT:      %[[BASE:.+]] = arith.index_castui %[[CHUNKSTART]] : i32 to index
// CHUNKS-NEXT:      %[[OFF:.+]] = linalg.index 2 : index
// CHUNKS-NEXT:      %[[AT:.+]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHUNKS-NEXT:      %[[ROW:.+]] = linalg.index 0 : index
// CHUNKS-NEXT:      tensor.extract %[[X]][%[[ROW]], %[[AT]]] : tensor<2x64xf32>
// CHUNKS:           arith.index_cast %[[AT]] : index to i64
// CHUNKS-NOT:     util.optimization_barrier
// CHUNKS:         %[[V1:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[CANDS]], %[[T1]] : tensor<2x4x4xi64>, tensor<2xi64>) outs(%{{.+}} : tensor<2xi64>)
// CHUNKS:         %[[V2:.+]] = linalg.generic {{.*}} ins(%[[CANDS]], %[[V1]] : tensor<2x4x4xi64>, tensor<2xi64>)
// CHUNKS:         %[[V3:.+]] = linalg.generic {{.*}} ins(%[[CANDS]], %[[V2]] : tensor<2x4x4xi64>, tensor<2xi64>)
// CHUNKS:         %[[V4:.+]] = linalg.generic {{.*}} ins(%[[CANDS]], %[[V3]] : tensor<2x4x4xi64>, tensor<2xi64>)
// CHUNKS:         %[[IDX:.+]] = linalg.generic {{.*}} ins(%[[V1]], %[[V2]], %[[V3]], %[[V4]] : {{.*}}) outs(%{{.+}} : tensor<2x4xi64>)
// CHUNKS:           arith.trunci
// CHUNKS-NOT:     iree_linalg_ext
// CHUNKS:         %[[K:.+]] = tensor.extract_slice %[[IDX]][0, 0] [2, 4] [1, 1]
// CHUNKS:         return %[[K]]
func.func @chunks_indices(%x: tensor<2x64xf32>) -> tensor<2x4xi64> {
  %e = tensor.empty() : tensor<2x64xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x64xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<2x64xi64>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %iota : tensor<2x64xf32>, tensor<2x64xi64>) {
  ^bb0(%a: f32, %b: f32, %p: i64, %q: i64):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x64xf32>, tensor<2x64xi64>
  %k = tensor.extract_slice %s#1[0, 0] [2, 4] [1, 1] : tensor<2x64xi64> to tensor<2x4xi64>
  return %k : tensor<2x4xi64>
}

// -----

// The CPU rule: 1024 wide, k = 8, chunks of 16 make 1024 + 512 + 1024 compares, at most 0.6 of the
// rounds form's 8192: the chunks form (64 wide stays rounds: rounds.mlir).
// CHECK-LABEL: func.func @auto_chunks(
// CHECK-SAME:    %[[X:[a-zA-Z0-9_]+]]: tensor<2x1024xf32>
// CHECK:         tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [2, 64, 16]
// CHECK-NOT:     iree_linalg_ext.sort
// CHECK:         return
func.func @auto_chunks(%x: tensor<2x1024xf32>) -> tensor<2x8xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 8] [1, 1] : tensor<2x1024xf32> to tensor<2x8xf32>
  return %v : tensor<2x8xf32>
}

// -----

// Precondition: a chunk size C >= 2 that divides the width into at least k chunks. Width 63 is odd:
// forced to chunks, the sort is left alone.
// CHUNKS-LABEL: func.func @chunks_no_odd_width(
// CHUNKS:         %[[S:.+]] = iree_linalg_ext.sort
// CHUNKS:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the chunks form needs 1 <= k <= 64 and a power-of-two chunk size >= 2 dividing the width into at least k chunks
func.func @chunks_no_odd_width(%x: tensor<2x63xi32>) -> tensor<2x4xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x63xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x63xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x63xi32> to tensor<2x4xi32>
  return %v : tensor<2x4xi32>
}

// -----

// Precondition: at least k chunks. Width 8, k = 5: chunks of 2 give 4 < 5 chunks.
// CHUNKS-LABEL: func.func @chunks_no_fewer_chunks_than_k(
// CHUNKS:         %[[S:.+]] = iree_linalg_ext.sort
// CHUNKS:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the chunks form needs 1 <= k <= 64 and a power-of-two chunk size >= 2 dividing the width into at least k chunks
func.func @chunks_no_fewer_chunks_than_k(%x: tensor<2x8xi32>) -> tensor<2x5xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x8xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 5] [1, 1] : tensor<2x8xi32> to tensor<2x5xi32>
  return %v : tensor<2x5xi32>
}

// -----

// Precondition: k <= 64 (rounds over the chunk bests and over the candidates).
// CHUNKS-LABEL: func.func @chunks_no_k_over_64(
// CHUNKS:         %[[S:.+]] = iree_linalg_ext.sort
// CHUNKS:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the chunks form needs 1 <= k <= 64 and a power-of-two chunk size >= 2 dividing the width into at least k chunks
func.func @chunks_no_k_over_64(%x: tensor<2x32768xi32>) -> tensor<2x65xi32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x32768xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sge, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x32768xi32>
  %v = tensor.extract_slice %s[0, 0] [2, 65] [1, 1] : tensor<2x32768xi32> to tensor<2x65xi32>
  return %v : tensor<2x65xi32>
}

// -----

// Precondition of the composite forms: a static width.
// CHUNKS-LABEL: func.func @chunks_no_dynamic_width(
// CHUNKS:         %[[S:.+]] = iree_linalg_ext.sort
// CHUNKS:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the chunks form needs a static width below 2^31 and keys of at most 32 bits
func.func @chunks_no_dynamic_width(%x: tensor<2x?xf32>) -> tensor<2x4xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf oge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x?xf32>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x?xf32> to tensor<2x4xf32>
  return %v : tensor<2x4xf32>
}

// -----

// Precondition of the composite forms: keys of at most 32 bits.
// CHUNKS-LABEL: func.func @chunks_no_wide_keys(
// CHUNKS:         %[[S:.+]] = iree_linalg_ext.sort
// CHUNKS:         tensor.extract_slice %[[S]]
// WHY: sort_slice_to_topk: no match on 'iree_linalg_ext.sort' at {{.*}}: the chunks form needs a static width below 2^31 and keys of at most 32 bits
func.func @chunks_no_wide_keys(%x: tensor<2x1024xf64>) -> tensor<2x4xf64> {
  %s = iree_linalg_ext.sort dimension(1) outs(%x : tensor<2x1024xf64>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.cmpf oge, %a, %b : f64
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x1024xf64>
  %v = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<2x1024xf64> to tensor<2x4xf64>
  return %v : tensor<2x4xf64>
}
