"""Drawing a random valid program from a seed, op by op, over either op table.

The program grows from one to three inputs (rank 1-3, extents 2-8, a dtype, some
dims dynamic). Each step draws an op; the op picks its operands among the
values so far (recent ones more often, so ops chain) or asks for a fresh input
of the shape it needs (a weight, an index tensor, the other side of a matmul),
and the step is kept only if the op, run on the data, gives finite values of
modest size (exp of exp would test overflow, not the compiler). The outputs are
the values nothing consumed, and a few more. The same seed gives the same
program with the same data.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .program import Input, Node, Program, Value, draw

MAX_MAGNITUDE = 1e4  # a value beyond this is dropped: its rounding error would be the compiler's allowance


class Generator:
    def __init__(self, kind: str, seed: int, table, dtypes: tuple[str, ...], dynamic: float = 0.4):
        self.kind, self.seed, self.table = kind, seed, table
        self.rng = np.random.default_rng([seed, 0x5EED])
        self.dtypes, self.p_dynamic = dtypes, dynamic
        self.inputs: list[Input] = []
        self.nodes: list[Node] = []
        self.values: dict[int, Value] = {}
        self.data: dict = {}  # id -> the value's data, in the table's native form
        self.next_id = 0

    # The ops' side ---------------------------------------------------------

    def pick(self, fits, fresh=None):
        """An existing value that ``fits`` (recent ones likelier), else a fresh input of ``fresh`` =
        (shape, dtype) when given and drawn, else None."""
        found = [i for i, v in self.values.items() if not v.sink and fits(v)]
        if fresh is not None and (not found or self.rng.random() < 0.25):
            shape, dtype = fresh
            return self.fresh_input(Value(tuple(shape), dtype, self._dynamic(len(shape))))
        if not found:
            return None
        weights = np.arange(1, len(found) + 1, dtype=float) ** 2
        return int(found[self.rng.choice(len(found), p=weights / weights.sum())])

    def fresh_input(self, v: Value) -> int:
        i = self._new_id()
        self.inputs.append(Input(i, v))
        self.values[i] = v
        self.data[i] = self.table.native(draw(v, self.seed, i), v.dtype)
        return i

    def param(self, v: Value) -> int:
        """A fresh input the program holds as a constant (a module's weight), static."""
        return self.fresh_input(replace(v, dynamic=(), param=True))

    # Growing --------------------------------------------------------------

    def generate(self, n_ops: int, max_outputs: int = 3) -> Program:
        for _ in range(int(self.rng.integers(1, 4))):
            rank = int(self.rng.integers(1, 4))
            shape = tuple(int(self.rng.integers(2, 9)) for _ in range(rank))
            self.fresh_input(Value(shape, str(self.rng.choice(self.dtypes)), self._dynamic(rank)))
        names = sorted(self.table.OPS)
        tries = 0
        while len(self.nodes) < n_ops and tries < n_ops * 20:
            tries += 1
            self._step(str(self.rng.choice(names)))
        used = {a for n in self.nodes for a in n.args}
        sinks = [n.id for n in self.nodes if n.id not in used]
        others = [n.id for n in self.nodes if n.id in used and not n.value.sink]
        extra = [int(x) for x in self.rng.permutation(others)[: max(0, max_outputs - len(sinks))]]
        outputs = (sinks + extra)[: max(max_outputs, 1)] or [self.inputs[0].id]
        outputs = [o for o in outputs if self.values[o].dtype != "bf16"] or outputs
        return Program(self.kind, self.seed, list(self.inputs), list(self.nodes), outputs).pruned()

    def _step(self, name: str) -> None:
        op = self.table.OPS[name]
        mark = (len(self.inputs), dict(self.values), dict(self.data))
        made = op.make(self, self.rng)
        if made is None:
            self._undo(mark)
            return
        args, attrs = made
        try:
            out = self.table.run(op, [self.data[a] for a in args], attrs)
            value = self.table.result(op, [self.values[a] for a in args], attrs, out)
        except Exception:  # noqa: BLE001 - an op the drawn operands do not suit: drawn again
            self._undo(mark)
            return
        if not self.table.sane(out):
            self._undo(mark)
            return
        i = self._new_id()
        self.nodes.append(Node(i, name, tuple(args), attrs, value))
        self.values[i] = value
        self.data[i] = out

    def _undo(self, mark) -> None:
        n, values, data = mark
        del self.inputs[n:]
        self.values, self.data = values, data

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def _dynamic(self, rank: int) -> tuple[bool, ...]:
        return tuple(bool(self.rng.random() < self.p_dynamic) for _ in range(rank))


def finite_and_modest(x: np.ndarray) -> bool:
    x = np.asarray(x)
    if x.dtype.kind != "f":
        return True
    return bool(np.all(np.isfinite(x))) and (x.size == 0 or float(np.max(np.abs(x))) < MAX_MAGNITUDE)
