"""The hand-over: a dispatch function as IREE's own lowering leaves it at an injection point.

Up to the first injection point nothing is replayed: IREE itself compiles the
module and prints the function, generic and with locations, after the pass
that precedes the point (or before the one that follows it, when the first
has no textual registration and cannot be named); that text becomes the
function opt-py works on, so the prefix is IREE's own, C++ state included.
``dense_resource`` constants, which dumps name but do not carry, are pointed
back at the module's own blobs. A point where neither pass can be named is
refused.
"""

from __future__ import annotations

import re

from ..errors import CodegenError
from .codegen_lowering import CodegenInjection, FunctionLowering, lowering_dumps, pass_name, point_text, selectable
from .codegen_replay import UNFAITHFUL_MARK

_RESOURCE = re.compile(r"dense_resource<([^>]+)>")
_PLACEHOLDER = re.compile(r"dense_resource<__optpy_res_(\d+)(?:_\d+)?>")


def capture_spec(low: FunctionLowering, start: int) -> tuple[str, str, int]:
    """How to capture the function at splice ``start`` (> 0) of its recorded passes:
    ``("after", P, n)`` - after the n-th run of P, the pass before the point - or,
    when P cannot be named, ``("before", Q, m)`` with Q the pass after the point
    (same IR: the recorded passes run one after the other on the function).
    Refused (UNFAITHFUL_MARK) when neither can be named."""
    prev = pass_name(low.passes[start - 1])
    if selectable(prev):
        return "after", prev, sum(1 for p in low.passes[:start] if pass_name(p) == prev)
    if start < len(low.passes):
        nxt = pass_name(low.passes[start])
        if selectable(nxt):
            return "before", nxt, sum(1 for p in low.passes[: start + 1] if pass_name(p) == nxt)
        why = f"neither has '{nxt}', the pass after it"
    else:
        why = "it is the last pass of the function's lowering, so no pass after it can be named instead"
    raise CodegenError(
        f"codegen injection at {point_text(low, start)} of '@{low.name}' {UNFAITHFUL_MARK}: the function "
        f"cannot be taken over from IREE's lowering there: '{prev}' has no textual registration "
        f"(IREE adds it in C++), so no IR dump can be asked for after it, and {why}"
    )


def capture(module, iree_flags, wanted: dict[str, tuple[str, str, int]]) -> dict[str, str]:
    """Each function's IR as IREE's own lowering leaves it at the given point.

    ``wanted``: function name -> (``"after"`` or ``"before"``, pass name,
    occurrence), as ``capture_spec`` gives. IREE compiles the module (as
    discovery does) printing, in generic form with locations, the function
    after (before) those passes; nothing of the prefix is replayed.
    """
    names = sorted({(w, p) for w, p, _ in wanted.values()})
    flags = [f"--mlir-print-ir-{w}={p}" for w, p in names]
    dumps, error = lowering_dumps(module, iree_flags, flags)
    found = {fn: text for fn, when, name, n, text in dumps if wanted.get(fn) == (when, name, n)}
    missing = sorted(set(wanted) - set(found))
    if missing:
        when, name, n = wanted[missing[0]]
        why = f" (iree-compile: {error})" if error else ""
        raise CodegenError(f"could not take '@{missing[0]}' over from IREE's lowering at {when}:{name}#{n}{why}")
    return found


def capture_at_point(module, iree_flags, inj: CodegenInjection) -> dict[str, str] | None:
    """Each function's IR at the single point ``inj`` names, printed by IREE's own
    lowering in one compile with no discovery first; None where that cannot be
    relied on: every occurrence (``#*``), a pass that cannot be named on the
    command line, or a lowering that fails. A function absent from the result
    never runs the pass: it has no such point."""
    if inj.occurrence == 0 or not selectable(inj.pass_name):
        return None
    dumps, error = lowering_dumps(module, iree_flags, [f"--mlir-print-ir-{inj.where}={inj.pass_name}"])
    if error is not None:
        return None
    return {
        fn: text for fn, where, name, n, text in dumps if (where, name, n) == (inj.where, inj.pass_name, inj.occurrence)
    }


def taken_over(name: str, text: str, original):
    """The function IREE's lowering printed at the point: (its module, the function)."""
    from iree.compiler import ir

    from ..patterns.ir_utils import operation

    text, keys = _placeholder_resources(text)
    try:
        parsed = ir.Module.parse(text)
    except Exception as e:  # noqa: BLE001 - the parser's message says what it could not read
        raise CodegenError(f"could not take '@{name}' over from IREE's lowering: {e}") from None
    new = operation(parsed.body.operations[0])
    if keys:
        _restore_resources(new, keys, _resource_attrs(operation(original)), name)
    return parsed, new


def _placeholder_resources(text: str) -> tuple[str, list[str]]:
    """IR dumps name ``dense_resource`` blobs without carrying them; parsing such
    a name again makes a new, empty blob. Each is renamed to a placeholder here
    and pointed back at the module's own blob by ``_restore_resources``."""
    keys: list[str] = []

    def sub(m):
        keys.append(m.group(1))
        return f"dense_resource<__optpy_res_{len(keys) - 1}>"

    return _RESOURCE.sub(sub, text), keys


def _resource_attrs(func) -> dict[str, object]:
    """The dense_resource attributes of the ops in ``func``, by blob name."""
    from iree.compiler import ir

    found = {}

    def visit(op):
        for attr_name in list(op.attributes):
            attr = op.attributes[attr_name]
            m = _RESOURCE.match(str(attr))
            if m:
                found[m.group(1)] = attr
        return ir.WalkResult.ADVANCE

    func.walk(visit)
    return found


def _restore_resources(new, keys: list[str], originals: dict[str, object], fname: str) -> None:
    from iree.compiler import ir

    missing = []

    def visit(op):
        for attr_name in list(op.attributes):
            attr = op.attributes[attr_name]
            m = _PLACEHOLDER.match(str(attr))
            if m:
                key = keys[int(m.group(1))]
                if key in originals and originals[key].type == attr.type:
                    op.attributes[attr_name] = originals[key]
                else:
                    missing.append(key)
        return ir.WalkResult.ADVANCE

    new.walk(visit)
    if missing:
        raise CodegenError(
            f"could not take '@{fname}' over from IREE's lowering: its constant "
            f"dense_resource<{missing[0]}> is not in the function IREE was given"
        )
