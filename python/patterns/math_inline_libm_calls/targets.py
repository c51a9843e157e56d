"""Which math ops IREE's llvm-cpu backend leaves to libm calls its embedded ELF cannot link, per target.

An llvm-cpu executable linked as an embedded ELF (the default,
``--iree-llvmcpu-link-embedded``) has no libm: it links against a bitcode
subset of musl (``runtime/src/iree/builtins/musl``: ``ceilf floorf fmaf
fmodf frexpf ldexpf powf expf rintf roundf scalbnf`` and, in the wheel's
bitcode, the f64 ``exp log floor round fma``). IREE's ``MathTransformPass``
writes f32 ``atan atan2 tanh log log2 log1p erf asin acos exp expm1 cbrt sin
cos`` as polynomials (f16/bf16 through f32) and expands ``tan sinh cosh asinh
acosh atanh powf fpowi exp2 roundeven`` into other math ops; anything else
becomes an LLVM intrinsic, and where LLVM has no instruction for it, a libm
call that fails to link (``iree-lld: error: undefined symbol: log10f``) or,
for ``erf``/``cbrt`` in f64, no lowering at all. Measured with iree-compile
3.13 on x86_64 (``host``: Sapphire Rapids; ``x86-64``, what IREE targets
without ``--iree-llvmcpu-target-cpu``) and aarch64 (generic), vector and
0-d bodies (docs/passes/math-inline-libm-calls.md has the table).
"""

from __future__ import annotations

import re

# (op, element type) that fail on every llvm-cpu target measured.
F64 = {
    "math.acos",
    "math.asin",
    "math.atan",
    "math.atan2",
    "math.cbrt",
    "math.cos",
    "math.erf",
    "math.log10",
    "math.log2",
    "math.sin",
    "math.tan",
    "math.tanh",
    "arith.remf",
}
# x86_64 only (aarch64 links them): log10 in every float type but f64 (which F64 has).
X86_SMALL = {"math.log10"}
# x86_64 without SSE4.1 (no roundps/roundpd: IREE's default target CPU): trunc in every float type, ceil in f64
# (ceilf is in the musl subset, ceil is not).
NO_SSE41 = {("math.trunc", "small"), ("math.trunc", "f64"), ("math.ceil", "f64")}

_TARGET = re.compile(r'#hal\.executable\.target<"([^"]+)",\s*"([^"]+)"(?:,\s*\{(.*)\})?>', re.S)
_FIELD = re.compile(r'(\w+)\s*=\s*"([^"]*)"')


def executable_targets(text: str) -> list[dict]:
    """The ``#hal.executable.target<backend, format, {config}>`` in ``text`` (a device target attribute), each
    as {"backend", "format", "cpu_features", "target_triple", ...} (the config's string fields)."""
    out = []
    for backend, fmt, config in _TARGET.findall(text):
        fields = dict(_FIELD.findall(config or ""))
        out.append({"backend": backend, "format": fmt, **fields})
    return out


def embedded_cpu(target: dict) -> bool:
    return target["backend"] == "llvm-cpu" and target["format"].startswith("embedded-elf")


def failing(target: dict, op: str, element: str) -> bool:
    """Whether ``op`` on ``element`` (f16, bf16, f32, f64) fails to link or lower on this embedded llvm-cpu
    target. Architectures other than x86_64 and aarch64 are taken as x86_64 without SSE4.1 (the most that
    failed): the rewrites are exact or more accurate than libm's, so a needless one costs only time."""
    arch = target.get("target_triple", "").split("-")[0] or target["format"].removeprefix("embedded-elf-")
    kind = "f64" if element == "f64" else "small"
    if kind == "f64" and op in F64:
        return True
    if arch == "aarch64":
        return False
    if kind == "small" and op in X86_SMALL:
        return True
    features = target.get("cpu_features", "")
    if arch == "x86_64" and "+sse4.1" in features.split(","):
        return False
    return (op, kind) in NO_SSE41
