"""A generated program as data: values, the ops that define them, and its inputs.

Both generators (``torch_ops.py``: PyTorch programs; ``linalg_ops.py``: MLIR at
the linalg / linalg_ext level) build the same structure, so that one reducer
(``reduce.py``), one comparison (``judge.py``) and one file format serve both.
A ``Program`` is straight-line SSA: each ``Node`` defines one value from earlier
ones; inputs come first. An input's data is drawn from the program's seed, or
given (``Input.data``): the reducer cuts a node out by turning its value into
an input holding the reference's value there, so what follows sees the same
numbers. Values carry their shape, dtype and which dims are dynamic; an
``exact`` value is one every correct compiler computes bit for bit (inputs,
moves, max/min, casts of exact values): only those feed the discontinuous ops
(comparisons, sort indices, float-to-int casts), so rounding differences never
flip a branch and pass for a miscompile.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace

import numpy as np

FLOATS = ("f64", "f32", "f16", "bf16")
INTS = ("i64", "i32")
IO_DTYPES = ("f64", "f32", "f16", "i64", "i32", "i1")  # what numpy and the runtime carry in and out
NP = {"f64": np.float64, "f32": np.float32, "f16": np.float16, "i64": np.int64, "i32": np.int32, "i1": np.bool_}


@dataclass(frozen=True)
class Value:
    shape: tuple[int, ...]
    dtype: str  # f64 f32 f16 bf16 i64 i32 i1
    dynamic: tuple[bool, ...] = ()  # per dim; () for none
    exact: bool = True
    bound: int | None = None  # an index input: integers in [0, bound)
    sink: bool = False  # indices (argsort, topk's): only returned, compared where ties allow
    param: bool = False  # an input the program holds as a constant (a module's weight)

    def is_dynamic(self, d: int) -> bool:
        return bool(self.dynamic) and self.dynamic[d]


@dataclass
class Input:
    id: int
    value: Value
    data: np.ndarray | None = None  # given data (a cut node's reference value); None: drawn from the seed


@dataclass
class Node:
    id: int
    op: str
    args: tuple[int, ...]
    attrs: dict
    value: Value


@dataclass
class Program:
    kind: str  # "torch" or "linalg"
    seed: int
    inputs: list[Input]
    nodes: list[Node]
    outputs: list[int]
    notes: dict = field(default_factory=dict)

    def values(self) -> dict[int, Value]:
        out = {i.id: i.value for i in self.inputs}
        out.update({n.id: n.value for n in self.nodes})
        return out

    def ops(self) -> list[str]:
        return [n.op for n in self.nodes]

    def size(self) -> int:
        return len(self.nodes)

    def input_data(self) -> list[np.ndarray]:
        """Each input's array: given, else drawn from the seed and the input's id (so a reduced program
        that keeps an input gets the same numbers there)."""
        return [i.data if i.data is not None else draw(i.value, self.seed, i.id) for i in self.inputs]

    def describe(self) -> str:
        vals = self.values()
        ins = ", ".join(f"%{i.id}: {type_text(i.value)}" for i in self.inputs)
        body = "; ".join(
            f"%{n.id} = {n.op}({', '.join(f'%{a}' for a in n.args)}{_attrs_text(n.attrs)})" for n in self.nodes
        )
        outs = ", ".join(f"%{o}: {type_text(vals[o])}" for o in self.outputs)
        return f"({ins}) {{ {body} }} -> ({outs})"

    # ----------------------------------------------------------------------
    # Cutting and pruning (the reducer's moves)
    # ----------------------------------------------------------------------

    def keep_outputs(self, outputs: list[int]) -> Program:
        return replace(self, outputs=list(outputs)).pruned()

    def cut(self, ids, reference: dict[int, np.ndarray]) -> Program:
        """The program with the nodes ``ids`` turned into inputs holding their ``reference`` values."""
        ids = set(ids)
        cut_inputs = [
            Input(n.id, replace(n.value, exact=True, sink=False), np.asarray(reference[n.id]).astype(NP[n.value.dtype]))
            for n in self.nodes
            if n.id in ids
        ]
        nodes = [n for n in self.nodes if n.id not in ids]
        return replace(self, inputs=self.inputs + cut_inputs, nodes=nodes).pruned()

    def cuttable(self) -> list[int]:
        """Nodes whose value an input can carry (bf16 cannot cross the runtime's boundary)."""
        return [n.id for n in self.nodes if n.value.dtype in IO_DTYPES]

    def pruned(self) -> Program:
        """Without the nodes and inputs no output depends on."""
        live = set(self.outputs)
        for n in reversed(self.nodes):
            if n.id in live:
                live.update(n.args)
        nodes = [n for n in self.nodes if n.id in live]
        inputs = [i for i in self.inputs if i.id in live]
        return replace(self, inputs=inputs, nodes=nodes)

    # ----------------------------------------------------------------------
    # As files
    # ----------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "seed": self.seed,
            "inputs": [{"id": i.id, "value": _value_json(i.value), "given": i.data is not None} for i in self.inputs],
            "nodes": [
                {"id": n.id, "op": n.op, "args": list(n.args), "attrs": n.attrs, "value": _value_json(n.value)}
                for n in self.nodes
            ],
            "outputs": self.outputs,
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, data: dict, given: dict[int, np.ndarray] | None = None) -> Program:
        given = given or {}
        inputs = [
            Input(i["id"], _value(i["value"]), given.get(i["id"]) if i["given"] else None) for i in data["inputs"]
        ]
        nodes = [Node(n["id"], n["op"], tuple(n["args"]), n["attrs"], _value(n["value"])) for n in data["nodes"]]
        return cls(data["kind"], data["seed"], inputs, nodes, list(data["outputs"]), data.get("notes", {}))

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)


def _value_json(v: Value) -> dict:
    d = asdict(v)
    d["shape"], d["dynamic"] = list(v.shape), list(v.dynamic)
    return d


def _value(d: dict) -> Value:
    return Value(**{**d, "shape": tuple(d["shape"]), "dynamic": tuple(d["dynamic"])})


def _attrs_text(attrs: dict) -> str:
    return "".join(f", {k}={v}" for k, v in attrs.items())


def type_text(v: Value) -> str:
    dims = "x".join(("?" if v.is_dynamic(d) else "") + str(s) for d, s in enumerate(v.shape))
    return f"{dims}x{v.dtype}" if dims else v.dtype


def draw(v: Value, seed: int, salt: int) -> np.ndarray:
    """An input's data: normal floats, small integers, coin-flip booleans, indices in ``[0, bound)``."""
    rng = np.random.default_rng([seed, salt])
    if v.bound is not None:
        return rng.integers(0, v.bound, v.shape).astype(NP[v.dtype])
    if v.dtype == "i1":
        return rng.integers(0, 2, v.shape).astype(np.bool_)
    if v.dtype in INTS:
        return rng.integers(-20, 21, v.shape).astype(NP[v.dtype])
    return rng.standard_normal(v.shape).astype(NP[v.dtype])
