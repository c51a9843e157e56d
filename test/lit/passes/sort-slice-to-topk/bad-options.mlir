// The choice options are checked when the pipeline is parsed, located at the pass in the pipeline
// text (here at column 16, after 'builtin.module('), before any IR is read; gpu=true is no longer an
// option (rule=gpu materialize=true says what it did).
// RUN: not opt-py %s -p 'builtin.module(sort-slice-to-topk{select=best})' 2>&1 | filecheck %s --check-prefix=BADSELECT
// RUN: not opt-py %s -p 'builtin.module(sort-slice-to-topk{form=sorted})' 2>&1 | filecheck %s --check-prefix=BADFORM
// RUN: not opt-py %s -p 'builtin.module(sort-slice-to-topk{rule=tpu})' 2>&1 | filecheck %s --check-prefix=BADRULE
// RUN: not opt-py %s -p 'builtin.module(sort-slice-to-topk{gpu=true})' 2>&1 | filecheck %s --check-prefix=NOGPU
// --list-passes shows each choice's values and default.
// RUN: opt-py --list-passes | filecheck %s --check-prefix=LIST

// BADSELECT: opt-py: error: pipeline:1:16: pass 'sort-slice-to-topk': option 'select' expects one of rank, rounds, got 'best'
// BADSELECT-NEXT: builtin.module(sort-slice-to-topk{select=best})
// BADFORM: opt-py: error: pipeline:1:16: pass 'sort-slice-to-topk': option 'form' expects one of auto, topk, rank, argmax, rounds, chunks, got 'sorted'
// BADRULE: opt-py: error: pipeline:1:16: pass 'sort-slice-to-topk': option 'rule' expects one of cpu, gpu, got 'tpu'
// NOGPU: opt-py: error: pipeline:1:16: pass 'sort-slice-to-topk' has no option 'gpu'

// LIST: sort-slice-to-topk
// LIST: form=auto|topk|rank|argmax|rounds|chunks (default 'auto')
// LIST-NEXT: rule=cpu|gpu (default 'cpu')
// LIST: select=rank|rounds (default 'rank')

func.func @f() {
  return
}
