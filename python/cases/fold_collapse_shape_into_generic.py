"""Random linalg.generics followed by a collapse_shape, for fold-collapse-shape-into-generic.

``random_generic(rng, name)`` writes one ``func.func``: a generic over 2-4
parallel loops and 0-2 reductions (static and dynamic extents, random
projected-permutation maps, ``linalg.index`` at times, sometimes an input that
is an ``expand_shape`` of an argument, several results or another use of the
collapsed one), then a collapse_shape of its result with a random
reassociation; with ``matmul_source`` its first input is an expand_shape of a
matmul result instead (what IREE's sink-reshapes folds). ``random_cases`` and
``mirror_cases`` are the fixed sets the tests and tools/bench_collapse_generic.py
use; ``fold_stats`` and ``mirror_table`` say what the pass (and its C++ twin)
did to them, on the IR. The numbers are checked in
test/passes/test_fold_collapse_shape_into_generic.py.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import numpy as np

PASS = "fold-collapse-shape-into-generic"
CXX = "iree-dispatch-creation-sink-reshapes"  # upstream FoldWithProducerReshapeOpByCollapsing
N_RANDOM, RANDOM_SEED = 48, 20250408
N_MIRROR, MIRROR_SEED = 24, 4


@dataclass
class Case:
    name: str
    text: str  # one func.func
    args: list
    n_results: int
    uses_index: bool = False
    dynamic: bool = False
    expand_line: str | None = None  # the expand_shape of an argument, when the mirror applies


def _tensor(shape, dyn, elem):
    return "tensor<" + "".join(("?" if d else str(s)) + "x" for s, d in zip(shape, dyn)) + f"{elem}>"


def _groups(rng, n, p_merge, allowed=None):
    """A random reassociation of n dims into consecutive groups."""
    groups = [[0]] if n else []
    for i in range(1, n):
        if rng.random() < p_merge and (allowed is None or allowed(groups[-1] + [i])):
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _reassoc(groups):
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


def _map(n_loops, dims):
    ds = ", ".join(f"d{i}" for i in range(n_loops))
    return f"affine_map<({ds}) -> ({', '.join(f'd{d}' for d in dims)})>"


def random_generic(rng: random.Random, name: str, *, matmul_source=False) -> Case:
    """A generic over random loops. With ``matmul_source`` its first input is
    ``expand_shape`` of a matmul result (what sink-reshapes folds) and no
    collapse follows; otherwise a collapse_shape of its result follows."""
    partial = not matmul_source and rng.random() < 0.15  # two groups, one of them cut by an input
    n_par = 4 if partial else rng.randint(2, 4)
    n_red = rng.choice([0, 0, 1] if matmul_source else [0, 0, 1, 2])
    n = n_par + n_red
    kinds = ["parallel"] * n_par + ["reduction"] * n_red
    if rng.random() < 0.3:
        rng.shuffle(kinds)
    ext = [rng.randint(1, 4) for _ in range(n)]
    dyn = [rng.random() < 0.3 for _ in range(n)]
    par = [d for d in range(n) if kinds[d] == "parallel"]
    out_dims = list(par) if rng.random() < 0.75 else rng.sample(par, len(par))
    elem = "i32" if matmul_source is False and rng.random() < 0.7 else "f32"
    # the collapse of the result, chosen first so that inputs can follow it
    coll = _groups(rng, len(out_dims), 0.6)
    if all(len(g) == 1 for g in coll) or partial:
        coll = [[0, 1], [2, 3]] if partial else [[0, 1]] + [[i] for i in range(2, len(out_dims))]
    # inputs: the first reads every loop (so each reduction is read); the others
    # mostly read whole collapse groups (broadcasts), sometimes any subset
    base = out_dims + [d for d in range(n) if kinds[d] == "reduction"]
    blocks = [[out_dims[p] for p in g] for g in coll] + [[d] for d in base[len(out_dims) :]]
    if matmul_source:  # the expand's two groups (rows, columns of the matmul)
        split = len(out_dims) if n_red and rng.random() < 0.5 else rng.randint(1, n - 1)
        blocks = [base[:split], base[split:]]
    in_dims = [base if rng.random() < 0.8 else rng.sample(range(n), n)]
    if partial:
        in_dims.append([out_dims[0], out_dims[1], out_dims[3]])
    for _ in range(rng.randint(0, 2)):
        roll = rng.random()
        if roll < 0.6:
            i = rng.randrange(len(blocks))
            j = rng.randint(i + 1, len(blocks))
            in_dims.append([d for b in blocks[i:j] for d in b])
        else:
            sub = sorted(rng.sample(range(n), rng.randint(1, n)))
            in_dims.append(sub if roll < 0.8 else rng.sample(sub, len(sub)))
    n_outs = 2 if rng.random() < 0.15 else 1
    out_maps = [out_dims] + [
        out_dims if rng.random() < 0.7 else rng.sample(out_dims, len(out_dims)) for _ in range(n_outs - 1)
    ]

    def shape(dims):
        return [ext[d] for d in dims]

    def dshape(dims):
        return [dyn[d] for d in dims]

    case = Case(name, "", [], 0, dynamic=any(dyn))
    lines, args, np_args = [], [], []
    gen = np.random.default_rng(rng.randrange(2**32))

    def array(shp):
        if elem == "i32":
            return gen.integers(-4, 5, shp).astype(np.int32)
        return gen.standard_normal(shp).astype(np.float32)

    # the expanded input (mirror): its argument is the collapsed tensor
    operands = []
    expand_input = matmul_source or rng.random() < 0.35
    for k, dims in enumerate(in_dims):
        t = _tensor(shape(dims), dshape(dims), elem)
        if k == 0 and expand_input:
            if matmul_source:
                if dims != base:
                    split = rng.randint(1, len(dims) - 1)
                groups = [list(range(split)), list(range(split, len(dims)))]
                for p in groups[1]:
                    dyn[dims[p]] = False  # the matmul's N is static
                dyn_in_0 = [p for p in groups[0] if dyn[dims[p]]]
                for p in dyn_in_0[1:]:
                    dyn[dims[p]] = False
            else:
                groups = _groups(rng, len(dims), 0.6, lambda g, dims=dims: sum(dyn[dims[p]] for p in g) <= 1)
            t = _tensor(shape(dims), dshape(dims), elem)
            src_shape = [int(np.prod([ext[dims[p]] for p in g])) for g in groups]
            src_dyn = [any(dyn[dims[p]] for p in g) for g in groups]
            src_t = _tensor(src_shape, src_dyn, elem)
            sizes = []
            if matmul_source:
                kk = 3
                a_t = _tensor([src_shape[0], kk], [src_dyn[0], False], elem)
                b_t = _tensor([kk, src_shape[1]], [False, False], elem)
                args += [f"%ma: {a_t}", f"%mb: {b_t}"]
                np_args += [array([src_shape[0], kk]), array([kk, src_shape[1]])]
                lines.append("  %zc = arith.constant 0.0 : f32")
                if src_dyn[0]:
                    lines.append("  %mc0 = arith.constant 0 : index")
                    lines.append(f"  %mm = tensor.dim %ma, %mc0 : {a_t}")
                    lines.append(f"  %me = tensor.empty(%mm) : {src_t}")
                else:
                    lines.append(f"  %me = tensor.empty() : {src_t}")
                lines.append(f"  %mz = linalg.fill ins(%zc : f32) outs(%me : {src_t}) -> {src_t}")
                lines.append(f"  %src = linalg.matmul ins(%ma, %mb : {a_t}, {b_t}) outs(%mz : {src_t}) -> {src_t}")
                src = "%src"
            else:
                args.append(f"%x: {src_t}")
                np_args.append(array(src_shape))
                src = "%x"
            for j, g in enumerate(groups):
                for p in g:
                    d = dims[p]
                    if not dyn[d]:
                        sizes.append(str(ext[d]))
                        continue
                    static = int(np.prod([ext[dims[q]] for q in g if q != p]))
                    lines.append(f"  %sd{j} = arith.constant {j} : index")
                    lines.append(f"  %sz{j} = tensor.dim {src}, %sd{j} : {src_t}")
                    lines.append(f"  %sc{j} = arith.constant {static} : index")
                    lines.append(f"  %s{j} = arith.divui %sz{j}, %sc{j} : index")
                    sizes.append(f"%s{j}")
            line = (
                f"  %in0 = tensor.expand_shape {src} {_reassoc(groups)} output_shape [{', '.join(sizes)}] "
                f": {src_t} into {t}"
            )
            lines.append(line)
            case.expand_line = f"tensor.expand_shape {src} {_reassoc(groups)}"
            operands.append(("%in0", t))
        else:
            args.append(f"%a{k}: {t}")
            np_args.append(array(shape(dims)))
            operands.append((f"%a{k}", t))
    inits = []
    for r, dims in enumerate(out_maps):
        t = _tensor(shape(dims), dshape(dims), elem)
        args.append(f"%init{r}: {t}")
        np_args.append(array(shape(dims)))
        inits.append((f"%init{r}", t))
    # the body
    add, mul = ("arith.addi", "arith.muli") if elem == "i32" else ("arith.addf", "arith.mulf")
    bargs = [f"%b{k}: {elem}" for k in range(len(operands))] + [f"%o{r}: {elem}" for r in range(n_outs)]
    body = ["  ^bb0(" + ", ".join(bargs) + "):", "    %v0 = " + f"{add} %b0, %b0 : {elem}"]
    v = "%v0"
    # No multiplication under a reduction: IREE 3.13's CPU vectorizer takes
    # `out + x * y` for a contraction and fails on some broadcasts
    # ("'vector.contract' op invalid accumulator/result vector shape") with
    # or without this pass.
    sub = "arith.subi" if elem == "i32" else "arith.subf"
    combine = [add, sub] if n_red else [add, mul]
    for k in range(1, len(operands)):
        body.append(f"    %v{k} = {rng.choice(combine)} {v}, %b{k} : {elem}")
        v = f"%v{k}"
    if rng.random() < 0.5:
        case.uses_index = True
        for i, d in enumerate(rng.sample(range(n), rng.randint(1, min(2, n)))):
            body.append(f"    %ix{i} = linalg.index {d} : index")
            body.append(f"    %ic{i} = arith.index_cast %ix{i} : index to i32")
            if elem == "f32":
                body.append(f"    %if{i} = arith.sitofp %ic{i} : i32 to f32")
                body.append(f"    %iv{i} = {add} {v}, %if{i} : f32")
            else:
                body.append(f"    %iv{i} = {add} {v}, %ic{i} : i32")
            v = f"%iv{i}"
    yields = []
    for r in range(n_outs):
        if n_red:
            body.append(f"    %y{r} = {add} %o{r}, {v} : {elem}")
            yields.append(f"%y{r}")
        else:
            yields.append(v)
    body.append(f"    linalg.yield {', '.join(yields)} : {', '.join([elem] * n_outs)}")
    maps = [_map(n, dims) for dims in in_dims] + [_map(n, dims) for dims in out_maps]
    iters = ", ".join(f'"{k}"' for k in kinds)
    res_types = [t for _, t in inits]
    lhs = "%g" if n_outs == 1 else f"%g:{n_outs}"
    lines.append(
        f"  {lhs} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iters}]}} "
        f"ins({', '.join(o for o, _ in operands)} : {', '.join(t for _, t in operands)}) "
        f"outs({', '.join(o for o, _ in inits)} : {', '.join(res_types)}) {{"
    )
    lines += body
    lines.append(f"  }} -> ({', '.join(res_types)})")
    res0 = "%g" if n_outs == 1 else "%g#0"
    rets, ret_types = [], []
    if matmul_source:
        rets, ret_types = ([res0] if n_outs == 1 else [f"%g#{r}" for r in range(n_outs)]), res_types
    else:
        out_shape, out_dyn = shape(out_dims), dshape(out_dims)
        groups = coll
        c_shape = [int(np.prod([out_shape[p] for p in g])) for g in groups]
        c_dyn = [any(out_dyn[p] for p in g) for g in groups]
        c_t = _tensor(c_shape, c_dyn, elem)
        lines.append(f"  %c = tensor.collapse_shape {res0} {_reassoc(groups)} : {res_types[0]} into {c_t}")
        rets, ret_types = ["%c"], [c_t]
        if rng.random() < 0.2:
            rets.append(res0)
            ret_types.append(res_types[0])
        for r in range(1, n_outs):
            rets.append(f"%g#{r}")
            ret_types.append(res_types[r])
    lines.append(f"  return {', '.join(rets)} : {', '.join(ret_types)}")
    case.text = f"func.func @{name}({', '.join(args)}) -> ({', '.join(ret_types)}) {{\n" + "\n".join(lines) + "\n}\n"
    case.args = np_args
    case.n_results = len(rets)
    case.dynamic = any(dyn)
    return case


def loops(text: str) -> int:
    return sum(
        len(re.findall(r'"(?:parallel|reduction)"', m)) for m in re.findall(r"iterator_types = \[([^\]]*)\]", text)
    )


def module(funcs: list[str]) -> str:
    return "module {\n" + "\n".join(funcs) + "}\n"


def random_cases() -> list[Case]:
    rng = random.Random(RANDOM_SEED)
    return [random_generic(rng, f"f{i}") for i in range(N_RANDOM)]


def mirror_cases() -> list[Case]:
    rng = random.Random(MIRROR_SEED)
    return [random_generic(rng, f"m{i}", matmul_source=True) for i in range(N_MIRROR)]


def fold_stats(cases) -> dict[str, int]:
    """What the pass does to each case alone: folded (fewer loops) or kept,
    and among the folded, how many delinearize a ``linalg.index``, have dynamic
    dims, fold partially (a smaller collapse stays) or fold the expand mirror."""
    from ..run.api import run_pipeline

    stats = {"folded": 0, "index": 0, "dynamic": 0, "partial": 0, "mirror": 0, "kept": 0}
    for c in cases:
        out = run_pipeline(c.text, PASS)
        if loops(out) < loops(c.text):
            stats["folded"] += 1
            stats["index"] += c.uses_index and bool(re.search(r"arith\.(divui|remui)", out))
            stats["dynamic"] += c.dynamic
            stats["partial"] += bool(re.search(r"tensor\.collapse_shape %\d+(#0)? ", out))
            stats["mirror"] += c.expand_line is not None and c.expand_line not in out
        else:
            stats["kept"] += 1
    return stats


def mirror_table(cases) -> dict[str, tuple[bool, bool]]:
    """Per case: (the pass folds it, IREE's C++ sink-reshapes folds it)."""
    from ..run.api import run_pipeline

    return {
        c.name: (loops(run_pipeline(c.text, PASS)) < loops(c.text), loops(run_pipeline(c.text, CXX)) < loops(c.text))
        for c in cases
    }


def mirror_counts(table) -> dict:
    return {
        "both": sum(o and t for o, t in table.values()),
        "only opt-py": sorted(n for n, (o, t) in table.items() if o and not t),
        "only C++": sorted(n for n, (o, t) in table.items() if t and not o),
        "neither": sum(not o and not t for o, t in table.values()),
    }
