"""Math ops IREE's llvm-cpu backend leaves to libm calls its embedded ELF cannot link, written out inline.

Root cause (``targets``): an llvm-cpu executable is linked as an embedded ELF
with a bitcode subset of musl; what LLVM lowers to a libm call outside it
fails to link (``undefined symbol: log10f``; torch-mlir's
``ElementwiseLog10Module_basic``) or, f64 ``erf``/``cbrt``, to lower:
``log10`` on x86_64; f64 (demotion off) ``sin cos tan tanh asin acos atan
atan2 erf cbrt log2 log10 remf``; ``trunc`` without SSE4.1. Const-eval's JIT
compiles constant subgraphs for the host's llvm-cpu whatever the target.

``inline_libm_call`` rewrites such an op, where the module's device targets
(or, for a program also compiled for a GPU, the const-eval JIT on its
constant operands) would fail on it: f16/bf16/f32 ``log10`` as the f64
``log`` (musl's, linked) of the value times 1/ln 10, rounded back
(correctly rounded on every f32 tested); ``trunc``/``ceil`` from ``floor``
(exact); the f64 functions by ``f64``'s builders (within ~1-2 ulp of numpy,
``fmod`` exact). Left alone: ops that link on every target of the module,
non-scalar operands, modules with no device target, GPU programs' ops that
are not computed from constants.
"""

from __future__ import annotations

from iree.compiler import ir
from iree.compiler.dialects import arith
from iree.compiler.dialects import math as m

from ...authoring import pattern
from ..ir_utils import defining_op
from . import f64 as F
from .targets import embedded_cpu, executable_targets, failing

ROOTS = (
    "arith.remf",
    "math.acos",
    "math.asin",
    "math.atan",
    "math.atan2",
    "math.cbrt",
    "math.ceil",
    "math.cos",
    "math.erf",
    "math.log10",
    "math.log2",
    "math.sin",
    "math.tan",
    "math.tanh",
    "math.trunc",
)
F64_BUILDERS = {
    "math.acos": F.acos,
    "math.asin": F.asin,
    "math.atan": F.atan,
    "math.cbrt": F.cbrt,
    "math.cos": F.cos,
    "math.erf": F.erf,
    "math.log10": F.log10,
    "math.log2": F.log2,
    "math.sin": F.sin,
    "math.tan": F.tan,
    "math.tanh": F.tanh,
}
F64_BINARY = {"math.atan2": F.atan2, "arith.remf": F.fmod}
# What IREE's const-eval compiles for when nothing else says: llvm-cpu for the host, taken at its weakest.
CONST_EVAL = {"backend": "llvm-cpu", "format": "embedded-elf-x86_64", "target_triple": "x86_64"}


def _element(t) -> str | None:
    for name, cls in (("f16", ir.F16Type), ("bf16", ir.BF16Type), ("f32", ir.F32Type), ("f64", ir.F64Type)):
        if isinstance(t, cls):
            return name
    return None


def device_targets(op) -> list[dict]:
    """The executable targets of the module ``op`` is in: its ``#hal.device.target`` globals and its
    ``hal.device.targets`` attribute (only those are printed: never a weight's initial value)."""
    top = op
    while top.parent is not None:
        top = top.parent
    top = top.operation if hasattr(top, "operation") else top
    found = []
    if "hal.device.targets" in top.attributes:
        found += executable_targets(str(top.attributes["hal.device.targets"]))
    for g in top.regions[0].blocks[0].operations:
        g = g.operation
        if g.name == "util.global" and str(g.attributes["type"]) == "!hal.device" and "initial_value" in g.attributes:
            found += executable_targets(str(g.attributes["initial_value"]))
    return found


def from_constants(op) -> bool:
    """Whether every value ``op`` (or the op whose region holds it) computes from is a constant: what
    const-eval hoists and compiles for the host."""
    while op.parent is not None and op.parent.name not in ("func.func", "util.func", "util.initializer"):
        op = op.parent.operation
    seen, todo = set(), [v for v in op.operands]
    while todo:
        v = todo.pop()
        owner = defining_op(v)
        if owner is None:
            return False  # a block argument: the function's input
        if owner.name == "util.global.load" or owner.name.startswith("hal."):
            return False
        if owner in seen:
            continue
        seen.add(owner)
        todo += list(owner.operands)
    return True


def _refusal(op, element) -> str | None:
    if element is None:
        return f"a {op.results[0].type} result: not a scalar f16, bf16, f32 or f64"
    targets = device_targets(op)
    if not targets:
        return "no device target in the module"
    if all(embedded_cpu(t) for t in targets):
        if not any(failing(t, op.name, element) for t in targets):
            return f"{op.name} on {element} links on every target of the module"
        return None
    cpu = [t for t in targets if embedded_cpu(t)] or [CONST_EVAL]
    if not any(failing(t, op.name, element) for t in cpu):
        return f"{op.name} on {element} links for the host's const-eval"
    if not from_constants(op):
        return "a GPU (or non-embedded) target compiles it with its own math library, and it is not a constant"
    return None


def _small(op, x, element):
    """f16, bf16, f32: log10 through f64, trunc from floor."""
    t = x.type
    if op.name == "math.log10":
        wide = arith.extf(ir.F64Type.get(), x if element == "f32" else arith.extf(ir.F32Type.get(), x))
        y = arith.mulf(m.log(wide), F.c(F.C.INV_LN10))
        return _f64_to_f16(y) if element == "f16" else arith.truncf(t, y)
    return _rounding(op.name, x)


def _f64_to_f16(y):
    """y rounded to f16 once: through f32 rounded to odd (IREE's f64-to-f16 builtin goes through a rounded f32
    where the CPU has no instruction for it, which can round twice)."""
    i32 = ir.IntegerType.get_signless(32)
    t = arith.truncf(ir.F32Type.get(), y)
    bits = arith.bitcast(i32, t)
    inexact = arith.cmpf(ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 6), arith.extf(y.type, t), y)  # one
    even = arith.cmpi(
        ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0),
        arith.andi(bits, arith.constant(i32, 1)),
        arith.constant(i32, 0),
    )
    # The neighbour on y's side of t (same sign: a one-ulp step of the magnitude): odd when t is even.
    away = arith.cmpf(
        ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 2), m.absf(arith.extf(y.type, t)), m.absf(y)
    )  # |t| > |y|: step the magnitude down
    step = arith.select(away, arith.constant(i32, -1), arith.constant(i32, 1))
    odd = arith.bitcast(ir.F32Type.get(), arith.addi(bits, step))
    t = arith.select(arith.andi(inexact, even), odd, t)
    return arith.truncf(ir.F16Type.get(), t)


def _rounding(name, x):
    """trunc and ceil from floor, in x's type: exact (signed zeros and NaN included)."""
    zero = arith.constant(x.type, 0.0)
    down = m.floor(x)
    up = arith.negf(m.floor(arith.negf(x)))
    if name == "math.ceil":
        return up
    negative = arith.cmpf(ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 4), x, zero)  # olt
    return arith.select(negative, up, down)


def _inline_libm_call(op, rewriter):
    op = op.operation
    element = _element(op.results[0].type)
    refusal = _refusal(op, element)
    if refusal is not None:
        return rewriter.fail(refusal)
    with rewriter.ip, op.location:
        if op.name in ("math.trunc", "math.ceil"):
            new = _rounding(op.name, op.operands[0])
        elif element != "f64":
            new = _small(op, op.operands[0], element)
        elif op.name in F64_BINARY:
            new = F64_BINARY[op.name](op.operands[0], op.operands[1])
        else:
            new = F64_BUILDERS[op.name](op.operands[0])
    rewriter.replace_op(op, [new])
    return True


PATTERNS = tuple(pattern(root, name="inline_libm_call")(_inline_libm_call) for root in ROOTS)
