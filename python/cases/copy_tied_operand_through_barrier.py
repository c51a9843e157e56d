"""Random modules whose functions write in place into constants, globals and barriers over them.

A ``Case`` is a module of a few functions sharing one or two constant values
(equal constants in several functions, globals initialized with them). Each
``Write`` of a function is an in-place op whose destination is a constant,
reached one of the ways a program reaches one:

* ``plain``: ``arith.constant`` (stream copies it: the control);
* ``barrier``: ``util.optimization_barrier`` of it; ``unfoldable``:
  ``util.unfoldable_constant``; ``stablehlo``: ``stablehlo.optimization_barrier``
  of a ``stablehlo.constant`` (``jax.lax.optimization_barrier``);
* ``global``: an immutable ``util.global``; ``global_barrier``: a barrier of
  it; ``mutable_barrier``: a barrier of a mutable global that is never stored;
  ``initialized_barrier``: a barrier of a global a ``util.initializer`` sets
  to the constant plus a zero (storage made at run time, written without a
  fault, so the writes show as numbers);

sometimes declared in another shape and reshaped after the barrier. The op is
an ``iree_linalg_ext.scatter`` (set or add), an ``iree_linalg_ext.sort``, a
``linalg.matmul`` / ``linalg.matvec`` or a reducing ``linalg.generic``
accumulating into it, an elementwise ``linalg.generic`` reading and writing its
``outs`` (IREE's dispatch reads it and writes a new tensor: no write in place),
or a ``tensor.insert_slice`` into it. A
function may also return the destination it wrote into, and ``Read`` returns
``constant + argument``. ``run`` compiles the module, loads it read-only in a
child process, calls every function three times in one context and compares
each call with numpy: a write into a constant shows as a changed result, a
changed read elsewhere, or a fault. The runs go through opt-py's worker
(``opt_py.execution.worker``: the module mapped read-only in a child process, a
fault an outcome), every function of the case in one request.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PASS = "copy-tied-operand-through-barrier"
DTYPES = {"f32": np.float32, "i32": np.int32}
SOURCES = (
    "plain",
    "barrier",
    "unfoldable",
    "stablehlo",
    "global",
    "global_barrier",
    "mutable_barrier",
    "initialized_barrier",
)
_SOURCE_WEIGHTS = (1, 2, 2, 1, 1, 2, 1, 1)
OPS = ("scatter", "sort", "matmul", "reduce", "generic", "insert")
ACCUMULATING = ("matmul", "reduce")
BARRIERS = ("barrier", "unfoldable", "stablehlo", "global_barrier", "mutable_barrier", "initialized_barrier")
_GLOBALS = {  # source -> the kind of util.global it loads
    "global": "immutable",
    "global_barrier": "immutable",
    "mutable_barrier": "mutable",
    "initialized_barrier": "initialized",
}
# Sources IREE folds to a constant it clones into the writer's dispatch. An op accumulating into
# such a constant is a compile error of its own in IREE 3.13 (the op is left undistributed:
# "write affecting operations on global resources are restricted to workgroup distributed
# contexts"; docs/passes/copy-tied-operand-through-barrier.md), not this bug: not generated.
_INLINED = ("plain", "global")
ROUNDS = 3
_K = 3  # the contraction size of matmul / matvec


@dataclass(frozen=True)
class Write:
    op: str  # OPS
    const: int  # which constant of the case
    source: str  # how the function reaches it (SOURCES)
    reshape: bool  # declared flat (2-D) or as 1xN (1-D), reshaped after the source
    variant: int  # 0/1: scatter set/add, sort ascending/descending, reduce out+in / out-in,
    # generic 2*out+in / out-in, insert offset
    returns_dest: bool  # the function also returns the value written into


@dataclass(frozen=True)
class Read:
    const: int
    source: str


@dataclass(frozen=True)
class Function:
    writes: tuple[Write, ...]
    reads: tuple[Read, ...]


@dataclass(frozen=True)
class Case:
    seed: int
    dtype: str
    shape: tuple[int, ...]  # of every constant: (n,) or (r, c)
    n_constants: int
    functions: tuple[Function, ...]

    def describe(self) -> str:
        def w(x: Write) -> str:
            extra = ("/reshape" if x.reshape else "") + ("/returned" if x.returns_dest else "")
            return f"{x.op}{x.variant}<-{x.source}(c{x.const}){extra}"

        fs = "; ".join(
            f"f{i}: " + ", ".join([w(x) for x in f.writes] + [f"read<-{r.source}(c{r.const})" for r in f.reads])
            for i, f in enumerate(self.functions)
        )
        return f"seed={self.seed} {self.dtype} {'x'.join(map(str, self.shape))} [{fs}]"


def random_case(seed: int) -> Case:
    rng = np.random.default_rng(seed)
    dtype = str(rng.choice(list(DTYPES)))
    shape = (int(rng.integers(3, 9)),) if rng.random() < 0.4 else (int(rng.integers(2, 5)), int(rng.integers(2, 6)))
    n_constants = int(rng.integers(1, 3))
    # One case in five is a control: no barrier anywhere, which stock gets right.
    control = rng.random() < 0.2
    weights = np.array([0 if control and s in BARRIERS else w for s, w in zip(SOURCES, _SOURCE_WEIGHTS)], float)
    weights /= weights.sum()

    def source() -> str:
        return str(rng.choice(SOURCES, p=weights))

    def write() -> Write:
        src = source()
        ops = [op for op in OPS if not (op in ACCUMULATING and src in _INLINED)]
        return Write(
            str(rng.choice(ops)),
            int(rng.integers(0, n_constants)),
            src,
            bool(rng.random() < 0.25),
            int(rng.integers(0, 2)),
            bool(rng.random() < 0.2),
        )

    functions = []
    for i in range(int(rng.integers(2, 5))):
        n_writes = int(rng.integers(0 if i else 1, 3))
        writes = tuple(write() for _ in range(n_writes))
        n_reads = int(rng.integers(0 if n_writes else 1, 2))
        reads = tuple(Read(int(rng.integers(0, n_constants)), source()) for _ in range(n_reads))
        functions.append(Function(writes, reads))
    return Case(seed, dtype, shape, n_constants, tuple(functions))


def cases(seed: int, n: int) -> list[Case]:
    """``n`` cases, the i-th from seed ``seed + i``."""
    return [random_case(seed + i) for i in range(n)]


def crosses_barrier(case: Case) -> bool:
    """Whether some write reaches its constant through a barrier (what the pass is for)."""
    return any(w.source in BARRIERS for f in case.functions for w in f.writes)


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


def constant(case: Case, k: int) -> np.ndarray:
    rng = np.random.default_rng(case.seed * 7 + k + 11)
    if case.dtype == "f32":
        return (rng.integers(-8, 9, case.shape) / 2).astype(np.float32)  # exact in f32
    return rng.integers(-50, 50, case.shape).astype(np.int32)


def _values(rng, dtype: str, dims) -> np.ndarray:
    if dtype == "f32":
        return (rng.integers(-8, 9, dims) / 2).astype(np.float32)
    return rng.integers(-20, 20, dims).astype(np.int32)


def _n_updates(case: Case) -> int:
    return min(2, int(np.prod(case.shape)))


def _slice_shape(case: Case) -> tuple[int, ...]:
    return (2,) if len(case.shape) == 1 else (1, case.shape[1])


def _write_inputs(case: Case, w: Write, rng) -> list[np.ndarray]:
    shape = case.shape
    if w.op == "scatter":
        flat = rng.choice(int(np.prod(shape)), size=_n_updates(case), replace=False)
        ind = np.stack(np.unravel_index(flat, shape), 1).astype(np.int32)
        return [_values(rng, case.dtype, (len(flat),)), ind]
    if w.op == "sort":
        return []
    if w.op == "matmul":
        return [_values(rng, case.dtype, (shape[0], _K)), _values(rng, case.dtype, (_K, *shape[1:]))]
    if w.op == "reduce":
        return [_values(rng, case.dtype, (*shape, _K))]
    if w.op == "generic":
        return [_values(rng, case.dtype, shape)]
    return [_values(rng, case.dtype, _slice_shape(case))]  # insert


def inputs(case: Case) -> list[list[np.ndarray]]:
    """Each function's arguments: its writes' inputs, then one tensor per read."""
    rng = np.random.default_rng(case.seed + 1_000_003)
    out = []
    for f in case.functions:
        args = [a for w in f.writes for a in _write_inputs(case, w, rng)]
        args += [_values(rng, case.dtype, case.shape) for _ in f.reads]
        out.append(args)
    return out


def _offset(case: Case, w: Write) -> int:
    extent = case.shape[0] - (2 if len(case.shape) == 1 else 1)
    return extent if w.variant else 0


def _apply(case: Case, w: Write, dest: np.ndarray, args: list[np.ndarray]) -> np.ndarray:
    d = dest.copy()
    if w.op == "scatter":
        upd, ind = args
        idx = tuple(ind.T)
        d[idx] = (d[idx] + upd) if w.variant else upd
        return d
    if w.op == "sort":
        s = np.sort(d, axis=-1)
        return s[..., ::-1].copy() if w.variant else s
    if w.op == "matmul":
        return (d + args[0] @ args[1]).astype(d.dtype)
    if w.op == "reduce":
        total = args[0].sum(-1, dtype=d.dtype)
        return (d - total) if w.variant else (d + total)
    if w.op == "generic":
        return (d - args[0]) if w.variant else (d + d + args[0])
    o = _offset(case, w)  # insert
    if len(case.shape) == 1:
        d[o : o + 2] = args[0]
    else:
        d[o : o + 1, :] = args[0]
    return d


def _arity(w: Write) -> int:
    return {"scatter": 2, "sort": 0, "matmul": 2, "reduce": 1, "generic": 1, "insert": 1}[w.op]


def expected(case: Case, args: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """Each function's outputs: per write its result (and its destination when returned), then the reads."""
    consts = [constant(case, k) for k in range(case.n_constants)]
    out = []
    for f, a in zip(case.functions, args):
        res, i = [], 0
        for w in f.writes:
            res.append(_apply(case, w, consts[w.const], a[i : i + _arity(w)]))
            if w.returns_dest:
                res.append(consts[w.const].copy())
            i += _arity(w)
        for r in f.reads:
            res.append(consts[r.const] + a[i])
            i += 1
        out.append(res)
    return out


# --------------------------------------------------------------------------
# The program
# --------------------------------------------------------------------------


def _ty(shape, elem: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def _declared(case: Case, reshape: bool) -> tuple[int, ...]:
    if not reshape:
        return case.shape
    return (1, case.shape[0]) if len(case.shape) == 1 else (case.shape[0] * case.shape[1],)


def _dense(a: np.ndarray) -> str:
    return f"dense<{a.tolist()}>"


def _global_name(k: int, reshape: bool, kind: str) -> str:
    return f"@g{k}{'_flat' if reshape else ''}{'' if kind == 'immutable' else '_' + kind}"


class _Body:
    """The lines of one function, with fresh SSA names."""

    def __init__(self, case: Case):
        self.case, self.lines, self.n = case, [], 0

    def fresh(self, base: str) -> str:
        self.n += 1
        return f"%{base}{self.n}"

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)


def _source(b: _Body, k: int, source: str, reshape: bool) -> str:
    """Emit the value of constant ``k`` reached through ``source``; returns its SSA name."""
    case, elem = b.case, b.case.dtype
    decl = _declared(case, reshape)
    t = _ty(decl, elem)
    value = _dense(constant(case, k).reshape(decl))
    v = b.fresh("c")
    if source == "plain":
        b.emit(f"{v} = arith.constant {value} : {t}")
    elif source == "barrier":
        c = b.fresh("k")
        b.emit(f"{c} = arith.constant {value} : {t}")
        b.emit(f"{v} = util.optimization_barrier {c} : {t}")
    elif source == "unfoldable":
        b.emit(f"{v} = util.unfoldable_constant {value} : {t}")
    elif source == "stablehlo":
        c = b.fresh("k")
        b.emit(f"{c} = stablehlo.constant {value} : {t}")
        b.emit(f"{v} = stablehlo.optimization_barrier {c} : {t}")
    else:
        name = _global_name(k, reshape, _GLOBALS[source])
        if source == "global":
            b.emit(f"{v} = util.global.load {name} : {t}")
        else:
            c = b.fresh("k")
            b.emit(f"{c} = util.global.load {name} : {t}")
            b.emit(f"{v} = util.optimization_barrier {c} : {t}")
    if not reshape:
        return v
    r, full = b.fresh("r"), _ty(case.shape, elem)
    if len(case.shape) == 1:
        b.emit(f"{r} = tensor.collapse_shape {v} [[0, 1]] : {t} into {full}")
    else:
        b.emit(f"{r} = tensor.expand_shape {v} [[0, 1]] output_shape {list(case.shape)} : {t} into {full}")
    return r


def _combine(elem: str, op: str) -> str:
    return (
        {"add": "arith.addf", "sub": "arith.subf"}[op]
        if elem == "f32"
        else {"add": "arith.addi", "sub": "arith.subi"}[op]
    )


def _write(b: _Body, w: Write, dest: str, args: list[str]) -> str:
    """Emit the in-place op of ``w`` into ``dest``; returns its result."""
    case, elem = b.case, b.case.dtype
    rank, t = len(case.shape), _ty(case.shape, elem)
    out = b.fresh("w")
    ids = ", ".join(f"d{j}" for j in range(rank))
    if w.op == "scatter":
        n = _n_updates(case)
        upd_t, ind_t = _ty((n,), elem), _ty((n, rank), "i32")
        body = [f"^bb0(%a: {elem}, %x: {elem}):"]
        if w.variant:
            body += [f"  %y = {_combine(elem, 'add')} %a, %x : {elem}", f"  iree_linalg_ext.yield %y : {elem}"]
        else:
            body += [f"  iree_linalg_ext.yield %a : {elem}"]
        b.emit(
            f"{out} = iree_linalg_ext.scatter dimension_map = [{', '.join(str(j) for j in range(rank))}] "
            f"unique_indices(true) ins({args[0]}, {args[1]} : {upd_t}, {ind_t}) outs({dest} : {t}) {{"
        )
        b.lines += ["  " + x for x in body]
        b.emit(f"}} -> {t}")
    elif w.op == "sort":
        cmp = (
            f"arith.cmpf {'ogt' if w.variant else 'olt'}, %a, %x : {elem}"
            if elem == "f32"
            else f"arith.cmpi {'sgt' if w.variant else 'slt'}, %a, %x : {elem}"
        )
        b.emit(f"{out} = iree_linalg_ext.sort dimension({rank - 1}) outs({dest} : {t}) {{")
        b.emit(f"^bb0(%a: {elem}, %x: {elem}):")
        b.emit(f"  %p = {cmp}")
        b.emit("  iree_linalg_ext.yield %p : i1")
        b.emit(f"}} -> {t}")
    elif w.op == "matmul":
        lhs_t = _ty((case.shape[0], _K), elem)
        rhs_t = _ty((_K, *case.shape[1:]), elem)
        name = "linalg.matmul" if rank == 2 else "linalg.matvec"
        b.emit(f"{out} = {name} ins({args[0]}, {args[1]} : {lhs_t}, {rhs_t}) outs({dest} : {t}) -> {t}")
    elif w.op == "reduce":
        full = ", ".join(f"d{j}" for j in range(rank + 1))
        maps = f"affine_map<({full}) -> ({full})>, affine_map<({full}) -> ({ids})>"
        its = ", ".join(['"parallel"'] * rank + ['"reduction"'])
        b.emit(
            f"{out} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{its}]}} "
            f"ins({args[0]} : {_ty((*case.shape, _K), elem)}) outs({dest} : {t}) {{"
        )
        b.emit(f"^bb0(%in: {elem}, %o: {elem}):")
        b.emit(f"  %s = {_combine(elem, 'sub' if w.variant else 'add')} %o, %in : {elem}")
        b.emit(f"  linalg.yield %s : {elem}")
        b.emit(f"}} -> {t}")
    elif w.op == "generic":
        idm = f"affine_map<({ids}) -> ({ids})>"
        par = ", ".join(['"parallel"'] * rank)
        b.emit(
            f"{out} = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = [{par}]}} "
            f"ins({args[0]} : {t}) outs({dest} : {t}) {{"
        )
        b.emit(f"^bb0(%in: {elem}, %o: {elem}):")
        if w.variant:
            b.emit(f"  %s = {_combine(elem, 'sub')} %o, %in : {elem}")
            b.emit(f"  linalg.yield %s : {elem}")
        else:
            b.emit(f"  %s = {_combine(elem, 'add')} %o, %in : {elem}")
            b.emit(f"  %s2 = {_combine(elem, 'add')} %s, %o : {elem}")
            b.emit(f"  linalg.yield %s2 : {elem}")
        b.emit(f"}} -> {t}")
    else:  # insert
        st, o = _ty(_slice_shape(case), elem), _offset(case, w)
        if rank == 1:
            where = f"[{o}] [2] [1]"
        else:
            where = f"[{o}, 0] [1, {case.shape[1]}] [1, 1]"
        b.emit(f"{out} = tensor.insert_slice {args[0]} into {dest}{where} : {st} into {t}")
    return out


def _arg_types(case: Case, f: Function) -> list[str]:
    elem, shape, rank = case.dtype, case.shape, len(case.shape)
    tys = []
    for w in f.writes:
        if w.op == "scatter":
            tys += [_ty((_n_updates(case),), elem), _ty((_n_updates(case), rank), "i32")]
        elif w.op == "matmul":
            tys += [_ty((shape[0], _K), elem), _ty((_K, *shape[1:]), elem)]
        elif w.op == "reduce":
            tys.append(_ty((*shape, _K), elem))
        elif w.op == "generic":
            tys.append(_ty(shape, elem))
        elif w.op == "insert":
            tys.append(_ty(_slice_shape(case), elem))
    return tys + [_ty(shape, elem)] * len(f.reads)


def _function(case: Case, i: int, f: Function) -> str:
    b = _Body(case)
    tys = _arg_types(case, f)
    args = [f"%a{j}" for j in range(len(tys))]
    t = _ty(case.shape, case.dtype)
    results, j = [], 0
    for w in f.writes:
        dest = _source(b, w.const, w.source, w.reshape)
        results.append(_write(b, w, dest, args[j : j + _arity(w)]))
        if w.returns_dest:
            results.append(dest)
        j += _arity(w)
    for r in f.reads:
        v, s = _source(b, r.const, r.source, False), b.fresh("s")
        b.emit(f"{s} = {_combine(case.dtype, 'add')} {v}, {args[j]} : {t}")
        results.append(s)
        j += 1
    sig = ", ".join(f"{a}: {ty}" for a, ty in zip(args, tys))
    rtys = ", ".join([t] * len(results))
    return "\n".join(
        [f"func.func @f{i}({sig}) -> ({rtys}) {{", *b.lines, f"  return {', '.join(results)} : {rtys}", "}"]
    )


def _global(case: Case, k: int, reshape: bool, kind: str) -> list[str]:
    decl = _declared(case, reshape)
    name, t, value = _global_name(k, reshape, kind), _ty(decl, case.dtype), _dense(constant(case, k).reshape(decl))
    if kind != "initialized":
        return [f"util.global private {'mutable ' if kind == 'mutable' else ''}{name} = {value} : {t}"]
    add = "arith.addf" if case.dtype == "f32" else "arith.addi"
    return [  # the constant plus a zero neither folds away: a buffer made when the module starts
        f"util.global private {name} : {t}",
        "util.initializer {",
        f"  %c = arith.constant {value} : {t}",
        f"  %z = arith.constant dense<0{'.0' if case.dtype == 'f32' else ''}> : {t}",
        f"  %b:2 = util.optimization_barrier %c, %z : {t}, {t}",
        f"  %v = {add} %b#0, %b#1 : {t}",
        f"  util.global.store %v, {name} : {t}",
        "  util.return",
        "}",
    ]


def program(case: Case) -> str:
    globals_ = set()
    for f in case.functions:
        for k, source, reshape in [(w.const, w.source, w.reshape) for w in f.writes] + [
            (r.const, r.source, False) for r in f.reads
        ]:
            if source in _GLOBALS:
                globals_.add((k, reshape, _GLOBALS[source]))
    lines = []
    for k, reshape, kind in sorted(globals_):
        lines += _global(case, k, reshape, kind)
    lines += [_function(case, i, f) for i, f in enumerate(case.functions)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


def _injections(with_pass: bool | str, target) -> tuple[list[str], list[str]]:
    from ..iree import fixes as fx

    if with_pass == "fixes":
        inject, codegen = fx.specs("all", target.compile_flags)
        return list(inject), list(codegen)
    return ([f"flow:{with_pass if isinstance(with_pass, str) else PASS}"] if with_pass else []), []


def run(case: Case, with_pass: bool | str, target_name: str = "cpu", timeout: float = 120) -> str:
    """'ok', 'wrong: ...' (some call's numbers differ from numpy), 'fault: ...' (the read-only module
    crashed its process; the worker's verdict), 'run error: ...' or 'compile error: ...'.

    ``with_pass``: False for stock, True (or pipeline text) to inject this pass after the flow
    phase, ``"fixes"`` for every opt-py fix (``opt-py compile --fixes``)."""
    import os
    import tempfile

    from ..errors import OptPyError
    from ..execution import e2e, worker

    target = e2e.TARGETS[target_name]
    inject, inject_codegen = _injections(with_pass, target)
    args = inputs(case)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(program(case))
        try:
            vmfb = e2e.compile_program(path, target, inject=inject, inject_codegen=inject_codegen)
        except OptPyError as e:
            return "compile error: " + _first_error(str(e))
    sequence = [(f"f{i}", a) for i, a in enumerate(args)]
    request = worker.Request(vmfb, target.device, "f0", calls=ROUNDS, sequence=sequence)
    return verdict(worker.run(request, timeout), expected(case, args))


def verdict(outcome, want: list[list[np.ndarray]]) -> str:
    """``run``'s result for the worker's ``outcome`` of every function called in turn, ROUNDS times."""
    if outcome.fault:
        return "fault: " + outcome.reason
    if outcome.error:
        return "run error: " + outcome.error
    flat = [(f, i, x) for f, w in enumerate(want) for i, x in enumerate(w)]
    for k, call in enumerate(outcome.calls):
        got = call["results"]
        if len(got) != len(flat):
            return f"wrong: round {k + 1} returned {len(got)} results, want {len(flat)}"
        for g, (f, i, x) in zip(got, flat):
            if g.shape != x.shape or not np.array_equal(g, x):
                return f"wrong: round {k + 1}, @f{f} result {i}: {g.tolist()} want {x.tolist()}"[:300]
    return "ok"


def _first_error(message: str) -> str:
    """IREE's first diagnostic in a failed compilation's messages (the cause, not the summary)."""
    lines = message.strip().splitlines()
    return next((x.strip() for x in lines if "error:" in x and "opt-py: error" not in x), lines[-1])[:200]


OUTCOMES = ("ok", "wrong", "fault", "run error", "compile error")


def outcome_kind(result: str) -> str:
    """The OUTCOMES entry of a ``run`` result."""
    return result.split(":")[0]


def copies(case: Case) -> int:
    """How many in-place operands the pass gives a copy, on the case's flow-level IR."""
    import os
    import re
    import tempfile

    from ..execution import e2e
    from ..iree.phases import compile_with_injections
    from ..run.api import run_pipeline

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(program(case))
        res = compile_with_injections(
            path, list(e2e.TARGETS["cpu"].compile_flags), [], compile_to="flow", output_ir=True
        )
        text = run_pipeline(res.output.decode(), PASS)
    return len(re.findall(r"flow\.dispatch @__copy_through_barrier_\d+::", text))
