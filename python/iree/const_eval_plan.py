"""The JIT module IREE's const-eval builds: ConstEval/JitGlobals.cpp's ProgramBuilder.

Each initializer the analysis (const_eval_analysis.py) makes available at
compile time becomes a public ``util.func`` (``jit_eval``, ``jit_eval_0``,
... as IREE's symbol table names them): loads of immutable globals, then its
loose tensor constants, become the arguments, its stores the results; the
executables it names are cloned in. One IREE may evaluate that opt-py cannot
hand to the runtime (a value it cannot pass, a global such an initializer
stores) is left with a note.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .const_eval_analysis import (
    CALLERS,
    COMPILER,
    OBJECT_LIKE,
    UNSURE,
    Analysis,
    as_resource,
    attribute,
    global_of,
    op_name,
    stored,
    supported,
    text_of,
    top_ops,
    where,
)

# IREE's JIT passes tensors as buffer views of these element types (ConstEval/Runtime.cpp's
# convertToElementType); an i4 argument it packs, an index one it refuses: opt-py leaves those.
HAL_ELEMENTS = {
    "i1": "BOOL_8",
    "i8": "INT_8",
    "i16": "INT_16",
    "i32": "INT_32",
    "i64": "INT_64",
    "f16": "FLOAT_16",
    "bf16": "BFLOAT_16",
    "f32": "FLOAT_32",
    "f64": "FLOAT_64",
}
WIDTHS = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}


@dataclass
class Jit:
    """An initializer IREE's const-eval evaluates, as a function of the JIT module."""

    init: object  # the util.initializer
    where: str  # its location, file:line:col
    globals: list[str]  # the globals it stores, in order: the function's results
    loads: list[str] = field(default_factory=list)  # the globals it loads, in order: the first arguments
    constants: list = field(default_factory=list)  # its loose tensor constants' values: the other arguments
    name: str = ""  # the function's name in the JIT module

    def label(self) -> str:
        return f"the initializer at {self.where} (storing {', '.join('@' + g for g in self.globals)})"


@dataclass
class Plan:
    jits: list[Jit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    jit_module: object = None


def plan(module) -> Plan:
    """The initializers IREE's const-eval evaluates and opt-py can, as the functions of a JIT module
    built as IREE builds it; a note for each one IREE may evaluate that opt-py leaves to run time."""
    from iree.compiler import ir

    analysis = Analysis(module)
    symbols = {
        text_of(attribute(op, "sym_name")): op for op in top_ops(module) if attribute(op, "sym_name") is not None
    }
    jit_module = ir.Module.create(module.location)
    jit_module.operation.attributes["iree.consteval"] = ir.UnitAttr.get()
    out = Plan(jit_module=jit_module)
    left: set[str] = set()  # globals IREE's const-eval may set that opt-py leaves to run time
    inserted, cloned = 0, set()
    for init in [op for op in top_ops(module) if op_name(op) == "util.initializer"]:
        availability, why = analysis.result[init.operation]
        jit = Jit(init, where(init), stored(init))
        if availability == UNSURE:
            out.notes.append(_left(jit, why))
            left.update(jit.globals)
            continue
        if availability != COMPILER:
            continue
        name = "jit_eval" if inserted == 0 else f"jit_eval_{inserted - 1}"  # SymbolTable::insert's renaming
        inserted += 1
        with ir.InsertionPoint(jit_module.body):
            _clone_objects(init, symbols, cloned)
            func = _jit_function(init, jit, analysis.globals, name)
        if func is None:  # IREE's JIT refuses it too: a load of a mutable global, a type it lacks
            continue
        problem = _marshalling_problem(jit, analysis.globals, left)
        if problem is not None:
            func.erase()
            out.notes.append(_left(jit, problem))
            left.update(jit.globals)
            continue
        jit.name = name
        out.jits.append(jit)
    return out


def _left(jit: Jit, why: str) -> str:
    return f"opt-py: note: const-eval: {jit.label()} is left to run time, where IREE may have evaluated it: {why}"


def _clone_objects(init, symbols: dict, cloned: set) -> None:
    """JitGlobals.cpp's cloneUsedObjects: the executables (object-like symbols) the initializer names."""
    from iree.compiler import ir

    def roots(attr):
        if isinstance(attr, ir.FlatSymbolRefAttr):
            yield attr.value
        elif isinstance(attr, ir.SymbolRefAttr):
            yield attr.value[0]
        elif isinstance(attr, ir.ArrayAttr):
            for a in attr:
                yield from roots(a)
        elif isinstance(attr, ir.DictAttr):
            for i in range(len(attr)):
                yield from roots(attr[i].attr)

    def visit(op):
        if not op.name.startswith(CALLERS):  # reading other ops' attributes imports their dialects' classes
            return ir.WalkResult.ADVANCE
        for i in range(len(op.attributes)):
            for root in roots(op.attributes[i].attr):
                target = symbols.get(root)
                if target is not None and op_name(target) in OBJECT_LIKE and root not in cloned:
                    cloned.add(root)
                    target.operation.clone()
        return ir.WalkResult.ADVANCE

    init.operation.walk(visit)


def _jit_function(init, jit: Jit, globals_: dict, name: str):
    """JitGlobals.cpp's transformToJitFunction on a clone of ``init``: loads of immutable globals, then
    loose tensor constants become the arguments, stores the results. None where IREE's JIT refuses it."""
    from iree.compiler import ir

    clone = init.operation.clone()
    attrs = {"sym_name": ir.StringAttr.get(name), "function_type": ir.TypeAttr.get(ir.FunctionType.get([], []))}
    func = ir.Operation.create("util.func", attributes=attrs, regions=1, loc=init.location)
    func.move_before(clone)
    body = ir.Block.create_at_start(func.regions[0], [])
    for op in top_ops(clone):
        body.append(op)
    clone.erase()
    arg_types, erase = [], []
    for op in top_ops(func):
        if op_name(op) == "util.global.load":
            g, t = globals_.get(global_of(op)), op.results[0].type
            if g is None or attribute(g, "is_mutable") is not None or not supported(t):
                func.erase()
                return None
            op.results[0].replace_all_uses_with(body.add_argument(t, op.location))
            arg_types.append(t)
            erase.append(op)
            jit.loads.append(global_of(op))
    for op in top_ops(func):
        if op_name(op) == "arith.constant" and isinstance(
            op.results[0].type, (ir.RankedTensorType, ir.UnrankedTensorType)
        ):
            t, value = op.results[0].type, attribute(op, "value")
            if not (isinstance(value, ir.DenseElementsAttr) or as_resource(value) or str(value).startswith("sparse")):
                continue
            if not supported(t):
                func.erase()
                return None
            op.results[0].replace_all_uses_with(body.add_argument(t, op.location))
            arg_types.append(t)
            erase.append(op)
            jit.constants.append(value)
    returns = []
    for op in top_ops(func):
        if op_name(op) == "util.global.store":
            if not supported(op.operands[0].type):
                func.erase()
                return None
            returns.append(op.operands[0])
            erase.append(op)
    for op in erase:
        op.erase()
    terminator = top_ops(func)[-1]
    with ir.InsertionPoint.at_block_terminator(body):
        ir.Operation.create("util.return", operands=returns, loc=init.location)
    terminator.erase()
    result_types = [v.type for v in returns]
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(arg_types, result_types))
    return func


def _marshalling_problem(jit: Jit, globals_: dict, left: set) -> str | None:
    """Why opt-py cannot hand this function its arguments as IREE's JIT does, or None."""
    for name in jit.loads:
        if name in left:
            return f"it loads @{name}, which opt-py leaves to run time"
        value = attribute(globals_[name], "initial_value")
        if value is not None and _host_kind(value) is None:
            return f"opt-py cannot pass the value of @{name} ({_type_of(value)})"
    for value in jit.constants:
        if _host_kind(value) is None:
            return f"opt-py cannot pass a constant of type {_type_of(value)}"
    return None


def _type_of(attr) -> str:
    text = str(attr)
    return text.rsplit(" : ", 1)[-1] if " : " in text else text


def _host_kind(attr) -> str | None:
    """'tensor' or 'scalar' when opt-py can pass ``attr`` to the runtime as IREE's JIT does, else None."""
    from iree.compiler import ir

    if isinstance(attr, ir.IntegerAttr):
        return "scalar" if ir.IntegerType(attr.type).width in (8, 16, 32, 64) else None
    if isinstance(attr, ir.FloatAttr):
        return "scalar" if str(attr.type) in ("f32", "f64") else None
    if isinstance(attr, ir.DenseElementsAttr) or as_resource(attr) is not None:
        t = attr.type if isinstance(attr, ir.DenseElementsAttr) else as_resource(attr).type
        elements = str(t.element_type)
        if isinstance(t.element_type, ir.IntegerType) and t.element_type.width in (1, 8, 16, 32, 64):
            elements = f"i{t.element_type.width}"
        return "tensor" if elements in HAL_ELEMENTS and t.has_static_shape else None
    return None


def element_key(t) -> str:
    from iree.compiler import ir

    e = t.element_type
    return f"i{e.width}" if isinstance(e, ir.IntegerType) else str(e)
