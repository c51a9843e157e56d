"""IREE's ``check`` module for the Python runtime: the expectations of IREE's check tests.

A check test (IREE's ``tests/e2e/**/*.mlir``) calls ``check.expect_*``; the
compiler lowers ``expect_eq_const`` and ``expect_almost_eq_const`` to
``expect_eq`` and ``expect_almost_eq`` on a constant, and every call to an
import of a module named ``check`` (``check.imports.mlir``). IREE provides it
only in ``iree-check-module``, which the runtime wheel lacks, and
``iree-run-module`` treats the imports as optional and skips every call. This
is that module, built with ``iree.runtime.PyModuleInterface``, with the
semantics of IREE's ``runtime/src/iree/modules/check/module.cc``:

- ``expect_true(i32)`` / ``expect_false(i32)``: nonzero / zero.
- ``expect_all_true(device, view)``: every element nonzero; integer types of
  8 to 64 bits, f32 and f64 (any other type, i1 included, is an error).
- ``expect_eq(device, lhs, rhs)``: same element type, same shape, same bytes.
- ``expect_almost_eq(device, lhs, rhs, atol: f32, rtol: f32)``: same element
  type and shape, and for each element (lhs actual, rhs expected, in f64)
  ``lhs == rhs or both NaN or (rhs finite and |lhs - rhs| <= atol + rtol * |rhs|)``
  (``iree_math_fuzzy_compare_f64``); float types only. The compiler's defaults
  are atol 1e-4, rtol 0.

As in IREE a failed expectation does not stop the function; each call is
recorded (plain data, for the pipe) with IREE's wording of the failure.
Runs in the worker (worker.py): imports numpy, and iree.runtime only from
its caller.
"""

from __future__ import annotations

import numpy as np

ALL_TRUE_TYPES = {"i8", "si8", "ui8", "i16", "si16", "ui16", "i32", "si32", "ui32", "i64", "si64", "ui64", "f32", "f64"}
ALMOST_EQ_TYPES = {"f64", "f32", "f16", "bf16", "f8E4M3FN", "f8E4M3FNUZ", "f8E5M2", "f8E5M2FNUZ", "f8E8M0FNU"}
SHOWN = 64  # elements of a value shown in a report; IREE's tools show 1024
SIGNATURES = {  # the imports of check.imports.mlir, as calling conventions
    "expect_true": "0i_v",
    "expect_false": "0i_v",
    "expect_all_true": "0rr_v",
    "expect_eq": "0rrr_v",
    "expect_almost_eq": "0rrrff_v",
}


def check_module(rt, device, records: list):
    """A ``check`` VmModule appending one record per expectation to ``records``;
    ``device`` is the one the program runs on (values are read back from it)."""

    class Check:
        def __init__(self, iface):
            pass

        def expect_true(self, operand):
            records.append(_scalar("expect_true", operand, operand != 0, f"Expected {operand} to be nonzero."))

        def expect_false(self, operand):
            records.append(_scalar("expect_false", operand, operand == 0, f"Expected {operand} to be zero."))

        def expect_all_true(self, _device, operand):
            records.append(all_true(read_view(rt, device, operand)))

        def expect_eq(self, _device, lhs, rhs):
            records.append(eq(read_view(rt, device, lhs), read_view(rt, device, rhs)))

        def expect_almost_eq(self, _device, lhs, rhs, atol, rtol):
            records.append(almost_eq(read_view(rt, device, lhs), read_view(rt, device, rhs), atol, rtol))

    iface = rt.PyModuleInterface("check", Check)
    for name, cconv in SIGNATURES.items():
        iface.export(name, cconv, getattr(Check, name))
    return iface.create()


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


def type_name(rt, element_type: int) -> str:
    """MLIR's spelling of a HAL element type: f32, si8, ui16, bf16, i1 (IREE's bool), f8E4M3FN."""
    member = rt.HalElementType(element_type).name
    kind, _, rest = member.partition("_")
    if member == "BOOL_8":
        return "i1"
    if kind == "FLOAT" and rest.startswith("8_"):
        return "f8" + rest[2:].replace("_", "")
    prefix = {"FLOAT": "f", "BFLOAT": "bf", "INT": "i", "SINT": "si", "UINT": "ui", "OPAQUE": "opaque"}.get(kind)
    return f"{prefix}{rest}" if prefix else member.lower()


def read_view(rt, device, ref) -> dict:
    """A buffer view's element type, shape and values on the host; the values are the raw bytes
    (uint8) where numpy has no type for the elements (sub-byte types)."""
    view = ref.deref(rt.HalBufferView)
    element_type, shape, size = int(view.element_type), tuple(view.shape), view.byte_length
    as_bytes = rt.HalBufferView(view.get_buffer(), [size], int(rt.HalElementType.UINT_8))
    raw = np.array(rt.DeviceArray(device, as_bytes, implicit_host_transfer=True).to_host()).tobytes()
    try:
        dtype = np.dtype(rt.HalElementType.map_to_dtype(rt.HalElementType(element_type)))
    except (RuntimeError, TypeError, ValueError):
        dtype = None
    count = int(np.prod(shape, dtype=np.int64))
    if dtype is not None and dtype.itemsize * count == len(raw):
        values = np.frombuffer(raw, dtype).reshape(shape).copy()
    else:
        values = np.frombuffer(raw, np.uint8).copy()
    return {"type": type_name(rt, element_type), "shape": shape, "values": values, "raw": raw}


def _scalar(op: str, operand: int, ok: bool, message: str) -> dict:
    value = {"type": "i32", "shape": (), "values": np.int32(operand), "raw": np.int32(operand).tobytes()}
    return {"op": op, "ok": bool(ok), "message": "" if ok else message, "operands": [value], "index": None}


# --------------------------------------------------------------------------
# The expectations
# --------------------------------------------------------------------------


def all_true(v: dict) -> dict:
    if v["type"] not in ALL_TRUE_TYPES:
        raise ValueError(f"check.expect_all_true: unsupported element type {v['type']}")
    zero = np.flatnonzero(v["values"].reshape(-1) == 0)
    ok = zero.size == 0
    index = None if ok else int(zero[0])
    message = "" if ok else f"Expected every element to be nonzero; element {_at(v, index)} is 0."
    return {"op": "expect_all_true", "ok": ok, "message": message, "operands": [v], "index": index}


def eq(lhs: dict, rhs: dict) -> dict:
    types_eq, shapes_eq = lhs["type"] == rhs["type"], lhs["shape"] == rhs["shape"]
    contents_eq = lhs["raw"] == rhs["raw"]
    ok = types_eq and shapes_eq and contents_eq
    index = None
    if not ok and types_eq and shapes_eq and lhs["values"].shape == tuple(lhs["shape"]):
        index = int(np.flatnonzero(_bytes_per_element(lhs) != _bytes_per_element(rhs))[0])
    message = ""
    if not ok:
        message = "Expected equality of these values."
        message += " Element types do not match." if not types_eq else ""
        message += " Shapes do not match." if not shapes_eq else ""
        message += " Contents does not match." if not contents_eq else ""
    return {"op": "expect_eq", "ok": ok, "message": message, "operands": [lhs, rhs], "index": index}


def almost_eq(lhs: dict, rhs: dict, atol: float, rtol: float) -> dict:
    types_eq, shapes_eq = lhs["type"] == rhs["type"], lhs["shape"] == rhs["shape"]
    close, index = True, None
    if types_eq and shapes_eq:
        if lhs["type"] not in ALMOST_EQ_TYPES:
            raise ValueError(f"check.expect_almost_eq: unsupported element type {lhs['type']}")
        bad = np.flatnonzero(~fuzzy_close(lhs["values"], rhs["values"], atol, rtol))
        close = bad.size == 0
        index = None if close else int(bad[0])
    ok = types_eq and shapes_eq and close
    message = ""
    if not ok:
        message = "Expected near equality of these values."
        message += " Element types do not match." if not types_eq else ""
        message += " Shapes do not match." if not shapes_eq else ""
        if not close:
            a = float(lhs["values"].reshape(-1)[index])
            b = float(rhs["values"].reshape(-1)[index])
            message += (
                f" Contents does not match to tolerance parameters atol={atol:g}, rtol={rtol:g}. The first "
                f"failure occurs at index {index} as the lhs value {a:g} differs from the rhs value {b:g} "
                f"by {b - a:.3e}."
            )
    op = {"op": "expect_almost_eq", "ok": ok, "message": message, "operands": [lhs, rhs], "index": index}
    return {**op, "atol": atol, "rtol": rtol}


def fuzzy_close(actual, expected, atol: float, rtol: float) -> np.ndarray:
    """``iree_math_fuzzy_compare_f64`` elementwise (rtol scales with the expected value)."""
    a = np.asarray(actual).astype(np.float64).reshape(-1)
    e = np.asarray(expected).astype(np.float64).reshape(-1)
    with np.errstate(invalid="ignore", over="ignore"):
        near = np.isfinite(e) & (np.abs(a - e) <= atol + rtol * np.abs(e))
    return (a == e) | (np.isnan(a) & np.isnan(e)) | near


def _bytes_per_element(v: dict) -> np.ndarray:
    values = np.ascontiguousarray(v["values"]).reshape(-1)
    return values.view(np.dtype((np.void, values.dtype.itemsize))) if values.size else values


# --------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------


def describe(record: dict) -> list[str]:
    """The lines that report a failed expectation: IREE's message, got and want, the element that differs."""
    lines = [record["message"]]
    operands = record["operands"]
    if record["op"] in ("expect_true", "expect_false"):
        return lines
    lines.append(f"got:  {format_value(operands[0])}")
    if len(operands) == 2:
        lines.append(f"want: {format_value(operands[1])}")
    index = record["index"]
    if index is None:
        return lines
    got = _element(operands[0], index)
    want = "nonzero" if len(operands) == 1 else _element(operands[1], index)
    lines.append(f"first difference: element {_at(operands[0], index)}: got {got}, want {want}")
    return lines


def format_value(v: dict) -> str:
    """A value as IREE's tools print a buffer view: ``2x2xi32=[1 2][3 4]`` (the first elements of a big one)."""
    shape = "x".join(str(d) for d in v["shape"])
    head = f"{shape}x{v['type']}" if shape else v["type"]
    values = np.asarray(v["values"])
    if values.shape != tuple(v["shape"]):
        return f"{head}=<{len(v['raw'])} bytes: {v['raw'][:SHOWN].hex(' ')}>"
    if values.size > SHOWN:
        flat = " ".join(_scalar_text(x) for x in values.reshape(-1)[:SHOWN])
        return f"{head}=<{values.size} elements; the first {SHOWN}: {flat} ...>"
    return f"{head}={_nested(values, top=True)}"


def _nested(values: np.ndarray, top: bool = False) -> str:
    if values.ndim == 0:
        return _scalar_text(values[()])
    inner = " ".join(map(_scalar_text, values)) if values.ndim == 1 else "".join(_nested(x) for x in values)
    return inner if top else f"[{inner}]"


def _scalar_text(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return str(int(x))
    if np.issubdtype(np.asarray(x).dtype, np.integer):
        return str(int(x))
    return f"{float(x):g}"


def _element(v: dict, index: int) -> str:
    return _scalar_text(np.asarray(v["values"]).reshape(-1)[index])


def _at(v: dict, index: int) -> str:
    shape = tuple(v["shape"])
    return str([int(i) for i in np.unravel_index(index, shape)]) if shape else "[]"
