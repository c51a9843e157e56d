"""Random dispatches that store a tensor.collapse_shape into a binding.

A ``Case`` describes one store: the source shape (some dims dynamic), the
collapse's reassociation, and each dim of the output binding (its extent,
the store's offset on it, which collapsed dim it holds or whether the store
drops it, static or dynamic extent and offset). ``program(case)`` writes a
``flow.dispatch.workgroups`` whose body loads the source, adds one to every
element, collapses and stores; ``expected(case, inputs)`` is the same in
numpy; ``inputs(case)`` the arguments. Partial stores go into a readwrite
(tied) binding, so the elements the store does not write are defined.

Offsets of collapsed dims are a multiple of the inner extent in most cases
(so the fold applies), and arbitrary in some (so it must not); dynamic
offsets are either passed as they are ("plain", not provable) or computed in
the dispatch as ``row * inner`` ("scaled", provable). ``misaligned_case(seed)``
draws only stores with one offset that is not a multiple (the fold must
refuse; folding anyway gives wrong numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i8": np.int8}


@dataclass(frozen=True)
class Dim:
    """One dim of the output binding."""

    extent: int
    offset: int
    value_dim: int | None  # the collapsed dim stored here; None: dropped by the store (size 1)
    dynamic_extent: bool = False
    offset_kind: str = "static"  # "static", "plain" (an operand), "scaled" (row * inner in the dispatch)


@dataclass(frozen=True)
class Case:
    seed: int
    dtype: str
    src: tuple[int, ...]
    src_dynamic: tuple[bool, ...]
    groups: tuple[tuple[int, ...], ...]
    out: tuple[Dim, ...]
    readwrite: bool

    @property
    def collapsed(self) -> list[int]:
        return [prod(self.src[i] for i in g) for g in self.groups]

    def inner(self, j: int) -> int:
        return prod(self.src[i] for i in self.groups[j][1:])

    def describe(self) -> str:
        src = "x".join("?" + str(d) if dyn else str(d) for d, dyn in zip(self.src, self.src_dynamic))
        out = ", ".join(
            f"{'drop' if d.value_dim is None else 'v' + str(d.value_dim)}:"
            f"{'?' if d.dynamic_extent else ''}{d.extent}@{d.offset}{'' if d.offset_kind == 'static' else d.offset_kind[0]}"
            for d in self.out
        )
        return (
            f"seed={self.seed} {self.dtype} src={src} groups={list(map(list, self.groups))} "
            f"{'readwrite' if self.readwrite else 'writeonly'} out=[{out}]"
        )


def random_case(seed: int) -> Case:
    rng = np.random.default_rng(seed)
    dtype = str(rng.choice(list(DTYPES)))
    rank = int(rng.integers(2, 5))
    src = [int(rng.integers(1, 5)) for _ in range(rank)]
    n_cuts = int(rng.integers(0, rank - 1))  # at most rank-2 cuts: some group has two dims
    cuts = sorted(int(c) for c in rng.choice(np.arange(1, rank), size=n_cuts, replace=False))
    bounds = [0, *cuts, rank]
    groups = [tuple(range(a, b)) for a, b in zip(bounds, bounds[1:])]
    dynamic = [False] * rank
    for g in groups:
        r = rng.random()
        if r < 0.4:
            dynamic[int(rng.choice(g))] = True
        elif r < 0.48 and len(g) > 1:  # two dynamic dims in a group: the fold must refuse
            for i in rng.choice(g, size=2, replace=False):
                dynamic[int(i)] = True
    readwrite = bool(rng.random() < 0.7)
    case = Case(seed, dtype, tuple(src), tuple(dynamic), tuple(groups), (), readwrite)
    out = []
    for j, g in enumerate(groups):
        size = case.collapsed[j]
        if not readwrite:
            out.append(Dim(size, 0, j, bool(rng.random() < 0.5)))
            continue
        inner = case.inner(j)
        collapsed = len(g) > 1
        if collapsed and rng.random() < 0.8:
            offset = inner * int(rng.integers(0, 3))
        else:
            offset = int(rng.integers(0, 4))
        slack = int(rng.integers(0, 3)) * (inner if collapsed and rng.random() < 0.7 else 1)
        kinds = ["static", "plain"]
        if collapsed and offset % inner == 0 and not any(dynamic[i] for i in g[1:]):
            kinds.append("scaled")
        kind = str(rng.choice(kinds)) if rng.random() < 0.5 else "static"
        out.append(Dim(offset + size + slack, offset, j, bool(rng.random() < 0.4), kind))
    for _ in range(int(rng.choice([0, 0, 1, 2]))):
        at = int(rng.integers(0, len(out) + 1))
        if readwrite:
            extent = int(rng.integers(1, 4))
            dim = Dim(
                extent,
                int(rng.integers(0, extent)),
                None,
                bool(rng.random() < 0.3),
                "plain" if rng.random() < 0.3 else "static",
            )
        else:
            dim = Dim(1, 0, None, bool(rng.random() < 0.3))
        out.insert(at, dim)
    return Case(seed, dtype, tuple(src), tuple(dynamic), tuple(groups), tuple(out), readwrite)


def misaligned_case(seed: int) -> Case:
    """A store the fold would take but for one offset that is not a multiple of
    its group's inner extent: folding it anyway writes whole rows at
    ``offset // inner``, so the numbers catch a fold that skips the offset
    proof. Everything else is provable (static inner dims, binding extents
    that are multiples of the inner extents), and the other collapsed groups
    sit at aligned offsets. Drawn from its own stream: ``random_case`` is
    unchanged.
    """
    rng = np.random.default_rng([seed, 2])
    dtype = str(rng.choice(list(DTYPES)))
    rank = int(rng.integers(2, 5))
    src = [int(rng.integers(2, 5)) if i else int(rng.integers(1, 5)) for i in range(rank)]
    n_cuts = int(rng.integers(0, rank - 1))
    cuts = sorted(int(c) for c in rng.choice(np.arange(1, rank), size=n_cuts, replace=False))
    bounds = [0, *cuts, rank]
    groups = [tuple(range(a, b)) for a, b in zip(bounds, bounds[1:])]
    dynamic = [False] * rank
    for g in groups:  # a group's outer dim may be dynamic: its inner extent stays static
        if rng.random() < 0.3:
            dynamic[g[0]] = True
    case = Case(seed, dtype, tuple(src), tuple(dynamic), tuple(groups), (), True)
    collapsed = [j for j, g in enumerate(groups) if len(g) > 1]
    bad = int(rng.choice(collapsed))
    out = []
    for j, g in enumerate(groups):
        size, inner = case.collapsed[j], case.inner(j)
        if j == bad:
            offset = inner * int(rng.integers(0, 3)) + int(rng.integers(1, inner))
            extent = inner * -(-(offset + size) // inner) + inner * int(rng.integers(0, 2))
            kind = "plain" if rng.random() < 0.3 else "static"
            out.append(Dim(extent, offset, j, False, kind))
        elif len(g) > 1:
            offset = inner * int(rng.integers(0, 3))
            out.append(Dim(offset + size + inner * int(rng.integers(0, 2)), offset, j))
        else:
            offset = int(rng.integers(0, 3))
            out.append(Dim(offset + size + int(rng.integers(0, 2)), offset, j, bool(rng.random() < 0.3)))
    if rng.random() < 0.3:
        out.insert(int(rng.integers(0, len(out) + 1)), Dim(2, int(rng.integers(0, 2)), None))
    return Case(seed, dtype, tuple(src), tuple(dynamic), tuple(groups), tuple(out), True)


# --------------------------------------------------------------------------
# The program
# --------------------------------------------------------------------------


def _tensor(shape, dynamic, elem) -> str:
    return "tensor<" + "".join(("?" if dyn else str(d)) + "x" for d, dyn in zip(shape, dynamic)) + elem + ">"


def _dispatch_tensor(access, ty) -> str:
    return f"!iree_tensor_ext.dispatch.tensor<{access}:{ty}>"


def program(case: Case) -> str:
    elem = case.dtype
    src_ty = _tensor(case.src, case.src_dynamic, elem)
    out_shape = [d.extent for d in case.out]
    out_dyn = [d.dynamic_extent for d in case.out]
    out_ty = _tensor(out_shape, out_dyn, elem)
    coll_dyn = [any(case.src_dynamic[i] for i in g) for g in case.groups]
    coll_ty = _tensor(case.collapsed, coll_dyn, elem)
    dyn_offsets = [k for k, d in enumerate(case.out) if d.offset_kind != "static"]
    consts = set()

    def c(n):
        consts.add(n)
        return f"%c{n}"

    lines = []  # function body before the dispatch
    args = [f"%src: {src_ty}"]
    if case.readwrite:
        args.append(f"%init: {out_ty}")
    if dyn_offsets:
        args.append(f"%offs: tensor<{len(dyn_offsets)}xi32>")
    # index operands of the dispatch: source dims, binding extents, offsets
    src_dims = [i for i, dyn in enumerate(case.src_dynamic) if dyn]
    for i in src_dims:
        lines.append(f"%sd{i} = tensor.dim %src, {c(i)} : {src_ty}")
    out_dims = [k for k, d in enumerate(case.out) if d.dynamic_extent]
    for k in out_dims:
        if case.readwrite:
            lines.append(f"%bd{k} = tensor.dim %init, {c(k)} : {out_ty}")
        else:
            d = case.out[k]
            if d.value_dim is None:
                lines.append(f"%bd{k} = arith.constant 1 : index")
                continue
            g = case.groups[d.value_dim]
            static = prod(case.src[i] for i in g if not case.src_dynamic[i])
            acc = c(static)
            for i in g:
                if case.src_dynamic[i]:
                    lines.append(f"%bd{k}_{i} = arith.muli {acc}, %sd{i} : index")
                    acc = f"%bd{k}_{i}"
            lines.append(f"%bd{k} = arith.addi {acc}, {c(0)} : index")
    for n, k in enumerate(dyn_offsets):
        lines.append(f"%ox{k} = tensor.extract %offs[{c(n)}] : tensor<{len(dyn_offsets)}xi32>")
        lines.append(f"%ov{k} = arith.index_cast %ox{k} : i32 to index")
    operands = [f"%sd{i}" for i in src_dims] + [f"%bd{k}" for k in out_dims] + [f"%ov{k}" for k in dyn_offsets]
    inner_names = [f"%w{n}" for n in range(len(operands))]
    tensors = ["%src", "%init"] if case.readwrite else ["%src"]
    src_dims_s = "{" + ", ".join(f"%sd{i}" for i in src_dims) + "}" if src_dims else ""
    out_dims_s = "{" + ", ".join(f"%bd{k}" for k in out_dims) + "}" if out_dims else ""
    types = [src_ty + src_dims_s] + ([out_ty + out_dims_s] if case.readwrite else []) + ["index"] * len(operands)
    result = f"%init{out_dims_s}" if case.readwrite else out_ty + out_dims_s
    workload = f"[{', '.join(operands)}]" if operands else ""
    access = "readwrite" if case.readwrite else "writeonly"
    # a tied result's argument sits with the operands; an untied one after them
    region_args = [f"%sb: {_dispatch_tensor('readonly', src_ty)}"]
    out_arg = [f"%ob: {_dispatch_tensor(access, out_ty)}"]
    region_args += (out_arg if case.readwrite else []) + [f"{w}_: index" for w in inner_names]
    region_args += [] if case.readwrite else out_arg

    # inside the dispatch: names for dims and offsets
    body = [f"{w} = iree_tensor_ext.dispatch.workload.ordinal {w}_, {n} : index" for n, w in enumerate(inner_names)]
    rename = dict(zip(operands, inner_names))
    s_dims = [rename[f"%sd{i}"] for i in src_dims]
    b_dims = [rename[f"%bd{k}"] for k in out_dims]
    src_sizes = [rename[f"%sd{i}"] if dyn else str(d) for i, (d, dyn) in enumerate(zip(case.src, case.src_dynamic))]
    rank = len(case.src)
    ids = ", ".join(f"d{i}" for i in range(rank))
    one = "1.0" if elem.startswith("f") else "1"
    add = "arith.addf" if elem.startswith("f") else "arith.addi"
    parallel = ", ".join(['"parallel"'] * rank)
    body += [
        f"%t = iree_tensor_ext.dispatch.tensor.load %sb, offsets = [{', '.join(['0'] * rank)}], "
        f"sizes = [{', '.join(src_sizes)}], strides = [{', '.join(['1'] * rank)}] : "
        f"{_dispatch_tensor('readonly', src_ty)}{'{' + ', '.join(s_dims) + '}' if s_dims else ''} -> {src_ty}",
        f"%e = tensor.empty({', '.join(s_dims)}) : {src_ty}",
        f"%g = linalg.generic {{indexing_maps = [affine_map<({ids}) -> ({ids})>, affine_map<({ids}) -> ({ids})>], "
        f"iterator_types = [{parallel}]}} ins(%t : {src_ty}) outs(%e : {src_ty}) {{",
        f"^bb0(%x: {elem}, %o: {elem}):",
        f"  %one = arith.constant {one} : {elem}",
        f"  %y = {add} %x, %one : {elem}",
        f"  linalg.yield %y : {elem}",
        f"}} -> {src_ty}",
        f"%v = tensor.collapse_shape %g {[list(g) for g in case.groups]} : {src_ty} into {coll_ty}",
    ]
    offsets, sizes = [], []
    for k, d in enumerate(case.out):
        if d.offset_kind == "static":
            offsets.append(str(d.offset))
        elif d.offset_kind == "plain":
            offsets.append(rename[f"%ov{k}"])
        else:
            body.append(f"%off{k} = arith.muli {rename[f'%ov{k}']}, {c(case.inner(d.value_dim))} : index")
            offsets.append(f"%off{k}")
        if d.value_dim is None:
            sizes.append("1")
        elif coll_dyn[d.value_dim]:
            body.append(f"%vs{k} = tensor.dim %v, {c(d.value_dim)} : {coll_ty}")
            sizes.append(f"%vs{k}")
        else:
            sizes.append(str(case.collapsed[d.value_dim]))
    n = len(case.out)
    body.append(
        f"iree_tensor_ext.dispatch.tensor.store %v, %ob, offsets = [{', '.join(offsets)}], sizes = [{', '.join(sizes)}], "
        f"strides = [{', '.join(['1'] * n)}] : {coll_ty} -> "
        f"{_dispatch_tensor(access, out_ty)}{'{' + ', '.join(b_dims) + '}' if b_dims else ''}"
    )
    body.append("flow.return")
    count = ""
    if operands:
        xs = ", ".join(f"%x{n}" for n in range(len(operands)))
        count = (
            f" count({', '.join(f'%x{n}: index' for n in range(len(operands)))}) -> (index, index, index) {{\n"
            f"    %a, %b, %cc = iree_tensor_ext.dispatch.workgroup_count_from_slice({xs})\n"
            f"    flow.return %a, %b, %cc : index, index, index\n  }}"
        )
    const_lines = [f"%c{n} = arith.constant {n} : index" for n in sorted(consts)]
    text = [f"func.func @main({', '.join(args)}) -> {out_ty} {{"]
    text += ["  " + line for line in const_lines + lines]
    text.append(
        f"  %r = flow.dispatch.workgroups{workload}({', '.join(tensors + operands)}) : "
        f"({', '.join(types)}) -> {result} ="
    )
    text.append(f"      ({', '.join(region_args)}) {{")
    text += ["    " + line for line in [*const_lines, *body]]
    text.append("  }" + count)
    text.append(f"  return %r : {out_ty}")
    text.append("}")
    return "\n".join(text) + "\n"


# --------------------------------------------------------------------------
# Inputs and the reference
# --------------------------------------------------------------------------


def inputs(case: Case) -> list[np.ndarray]:
    rng = np.random.default_rng(case.seed + 1)
    dt = DTYPES[case.dtype]
    args = [rng.integers(-50, 50, case.src).astype(dt)]
    if case.readwrite:
        args.append(rng.integers(-50, 50, [d.extent for d in case.out]).astype(dt))
    dyn = [d for d in case.out if d.offset_kind != "static"]
    if dyn:
        args.append(
            np.array(
                [d.offset // case.inner(d.value_dim) if d.offset_kind == "scaled" else d.offset for d in dyn], np.int32
            )
        )
    return args


def expected(case: Case, args) -> np.ndarray:
    dt = DTYPES[case.dtype]
    out = args[1].copy() if case.readwrite else np.zeros([d.extent for d in case.out], dt)
    value = (args[0] + dt(1)).astype(dt)
    sizes = [1 if d.value_dim is None else case.collapsed[d.value_dim] for d in case.out]
    out[tuple(slice(d.offset, d.offset + s) for d, s in zip(case.out, sizes))] = value.reshape(sizes)
    return out


# --------------------------------------------------------------------------
# Compiling and running
# --------------------------------------------------------------------------

PASS = "fold-collapse-shape-into-store"
CPP_TWIN = "iree-codegen-fold-reshape-into-interface-tensor"


def run(case: Case, with_pass: bool | str, target_name: str = "cpu") -> str:
    """'ok', 'wrong' (numbers differ from numpy), or 'error: ...' (did not compile or run).

    ``with_pass``: inject the pass at executable-sources (True, or the pipeline text to inject)."""
    import os
    import tempfile

    from ..errors import OptPyError
    from ..execution import e2e

    target = e2e.TARGETS[target_name]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(program(case))
        try:
            pipeline = with_pass if isinstance(with_pass, str) else PASS
            vmfb = e2e.compile_program(path, target, inject=[f"executable-sources:{pipeline}"] if with_pass else [])
            args = inputs(case)
            # in a process of its own: a miscompiled store may write anywhere
            got = e2e.run_cli(vmfb, target, "main", args, 1, timeout=60)[0]
        except OptPyError as e:
            return "error: " + str(e).strip().splitlines()[-1][:200]
    want = expected(case, args)
    return "ok" if got.shape == want.shape and np.array_equal(got, want) else "wrong"


def folds(case: Case, which=("opt-py", "C++")) -> dict[str, str]:
    """What opt-py's pass and IREE's C++ twin each do with the collapse on the
    case's executable-sources IR: 'folded', 'left', or 'invalid IR' (the
    result does not verify)."""
    import os
    import tempfile

    from ..errors import PipelineFailed
    from ..execution import e2e
    from ..iree.phases import compile_with_injections
    from ..run.api import run_pipeline

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.mlir")
        with open(path, "w") as f:
            f.write(program(case))
        res = compile_with_injections(
            path, list(e2e.TARGETS["cpu"].compile_flags), [], compile_to="executable-sources", output_ir=True
        )
    if not res.ok:
        raise RuntimeError("\n".join(res.messages))
    text = res.output.decode()
    out = {}
    for name, pipeline in (("opt-py", PASS), ("C++", f"func.func({CPP_TWIN})")):
        if name not in which:
            continue
        try:
            out[name] = "left" if "tensor.collapse_shape" in run_pipeline(text, pipeline) else "folded"
        except PipelineFailed:
            out[name] = "invalid IR"
    return out
