"""IREE's constant evaluation, done by opt-py so that the fixes run inside it.

IREE's ``iree-consteval-jit-globals`` (near the end of global-optimization)
compiles each eligible ``util.initializer`` as a function of a module of its
own, with default options for the host CPU, runs it, and makes the values it
stores the globals' initial values. Passes injected into the outer compile
never reach that compilation. With ``--fixes``, opt-py turns IREE's off
(``--iree-opt-const-eval=false``) and does the same at the global-optimization
stop: the initializers IREE would pick, the module IREE would build, compiled
by opt-py's in-process compile with the fixes for the CPU, run with the IREE
runtime, the results written back as IREE writes them, then the cleanup IREE
runs after const-eval. An initializer opt-py cannot prove IREE would evaluate
(IREE's const-expr analysis is C++ only) is left to run time, with a note.
What reaches the nested compile and what does not: docs/reference/const-eval.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..errors import CompileError, OptPyError

PHASE = "global-optimization"  # IREE's const-eval runs near its end; the step runs at its stop

# The cleanup IREE runs after const-eval (GlobalOptimization/Passes.cpp, on util.initializer and util.func).
TAIL = "iree-flow-canonicalize,cse,iree-global-opt-raise-special-ops"
TAIL_PIPELINE = f"builtin.module(util.initializer({TAIL}),util.func({TAIL}))"

# The JIT's compile options (ConstEval/JitGlobals.cpp): default-constructed option structs, the host CPU
# through the local device, f32/f64 in the VM, 64-bit index, no float truncation or f64 demotion, no
# recursive const-eval. Default-constructed structs see no optimization level, so the options a level
# sets are given at the structs' defaults; the outer --iree-opt-level reaches only the CPU codegen
# options, as for IREE's JIT (whose llvm-cpu backend is the outer session's).
JIT_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
    "--iree-opt-const-eval=false",
    "--iree-opt-const-expr-hoisting=false",
    "--iree-vm-target-extension-f32=true",
    "--iree-vm-target-extension-f64=true",
    "--iree-vm-target-index-bits=64",
    "--iree-vm-target-truncate-unsupported-floats=false",
    "--iree-input-demote-f64-to-f32=false",
    "--iree-global-optimization-opt-level=O0",
    "--iree-opt-aggressively-propagate-transposes=false",
    "--iree-opt-outer-dim-concat=false",
    "--iree-opt-strip-assertions=false",
    "--iree-opt-generalize-matmul=false",
    "--iree-dispatch-creation-opt-level=O2",
    "--iree-dispatch-creation-enable-aggressive-fusion=false",
)
# Outer flags that reach IREE's JIT through the outer session's llvm-cpu backend: the optimization level
# (its CPU codegen defaults), the CPU codegen options and the linkers. The llvm-cpu target flags (triple,
# cpu, features, ...) do not: the JIT compiles for the host.
PASSED_ON = (
    "--iree-opt-level",
    "--iree-llvmcpu-mlir-opt-level",
    "--iree-llvmcpu-disable-distribution",
    "--iree-llvmcpu-experimental-vectorize-to-transfer-gather",
    "--iree-llvmcpu-fail-on-out-of-bounds-stack-allocation",
    "--iree-llvmcpu-instrument-memory-accesses",
    "--iree-llvmcpu-reassociate-fp-reductions",
    "--iree-llvmcpu-skip-intermediate-roundings",
    "--iree-llvmcpu-use-decompose-softmax-fuse",
    "--iree-llvmcpu-use-fast-min-max-ops",
    "--iree-codegen-add-tuner-attributes",
    "--iree-codegen-emit-pipeline-constraints",
    "--iree-codegen-experimental-verify-pipeline-constraints",
    "--iree-codegen-tuning-spec-path",
    "--iree-config-add-tuner-attributes",
    "--iree-llvmcpu-embedded-linker-path",
    "--iree-llvmcpu-system-linker-path",
    "--iree-llvmcpu-wasm-linker-path",
    "--iree-llvmcpu-keep-linker-artifacts",
)
# Outer flags under which opt-py leaves const-eval to IREE: passes IREE runs between its const-eval and the
# end of the phase, or a JIT on another device than the host CPU.
KEPT_BY_IREE = {
    "--iree-opt-numeric-precision-reduction": "numeric precision reduction runs right after IREE's const-eval",
    "--iree-parameter-export": "parameters are exported right after IREE's const-eval",
    "--iree-opt-export-parameters": "parameters are exported right after IREE's const-eval",
    "--iree-parameter-splat": "the splat parameter archive is written right after IREE's const-eval",
    "--iree-opt-splat-parameters": "the splat parameter archive is written right after IREE's const-eval",
    "--iree-consteval-jit-target-device": "IREE's const-eval is asked for another device",
    "--iree-hal-local-host-device-backends": "IREE's const-eval is asked for another host backend",
}
DEFAULTS_OF_KEPT = ("", "false", "local", "llvm-cpu")  # values of those flags that change nothing


@dataclass
class ConstEval:
    """How opt-py evaluates constants in one compile: the nested compile's flags and injections."""

    OPS = ("util.initializer",)  # the ops its step has work on: a module without one needs no export

    flags: list[str]
    injections: list = field(default_factory=list)  # phases.Injection: the fixes for the host CPU
    codegen: list = field(default_factory=list)  # codegen.CodegenInjection
    rewrites: list = field(default_factory=list)  # what the fixes rewrote in the nested compiles
    evaluated: list = field(default_factory=list)  # the labels of the initializers evaluated
    seconds: dict = field(default_factory=dict)  # wall time of each part: plan, compile, run, cleanup

    def step(self, c, module):
        """The step at the global-optimization stop (``compile_with_injections(const_eval=...)``)."""
        return evaluate(self, c, module)


def _value(flags, name: str) -> str | None:
    """The value of the last ``name`` in ``flags`` ('true' for a bare flag), None when absent."""
    found = None
    for f in flags:
        key, eq, value = f.partition("=")
        if key == name:
            found = value if eq else "true"
    return found


def takeover(fixes, iree_flags, compile_to: str | None = None) -> tuple[ConstEval | None, list[str], list[str]]:
    """With ``fixes`` (``fixes.Fix`` rows) chosen: (the const-eval opt-py runs, the outer flags, notes).

    None when const-eval stays IREE's: the user turned it off, the compile stops at or before
    global-optimization (the fixes of that phase are left out then too), or a flag needs IREE's own
    const-eval (a note says which)."""
    from . import compiler_api
    from . import fixes as fix_table
    from .phases import PHASES

    flags = list(iree_flags)
    if (_value(flags, "--iree-opt-const-eval") or "true").lower() in ("false", "0"):
        return None, flags, []
    if compile_to in PHASES and PHASES.index(compile_to) <= PHASES.index(PHASE):
        return None, flags, []
    for name, why in KEPT_BY_IREE.items():
        value = _value(flags, name)
        if value is not None and value.lower() not in DEFAULTS_OF_KEPT:
            note = f"opt-py: note: const-eval is left to IREE, where the fixes do not reach it: {name} ({why})"
            return None, flags, [note]
    passed = [f for f in flags if f.partition("=")[0] in PASSED_ON]
    nested = [*JIT_FLAGS, *passed, *[f for f in compiler_api.process_wide_set() if f not in passed]]
    injections, codegen = fix_table.injections(list(fixes), nested)
    return ConstEval(nested, injections, codegen), [*flags, "--iree-opt-const-eval=false"], []


# --------------------------------------------------------------------------
# Which initializers: JitGlobals.cpp's InitializationAnalysis
# --------------------------------------------------------------------------

COMPILER, UNSURE, RUNTIME, UNKNOWN = 3, 2, 1, 0  # availability, most available first; min() lowers it

CONSTANT_LIKE = ("arith.constant", "complex.constant", "ub.poison", "flow.tensor.constant")
REGION_BRANCH = ("scf.if", "scf.for", "scf.while", "scf.execute_region", "scf.index_switch", "scf.forall")
CALLS = ("util.call", "func.call", "func.call_indirect", "flow.call")
INDIRECT = ("util.global.load.indirect", "util.global.store.indirect")
CALLERS = ("flow.", "hal.", "stream.")  # the dialects whose ops name executables
OBJECT_LIKE = ("flow.executable", "hal.executable", "hal.executable.source", "stream.executable")
HOISTED_PREFIX = "__hoisted_"  # the globals Util/Transforms/HoistIntoGlobals.cpp makes
PARAMETERS = ("#stream.parameter", "#flow.parameter")  # initial values read at run time

# Ops IREE's const-expr analysis surely takes for constant expressions when their operands are
# (Util/Analysis/Constant/OpOracle.cpp, ExternalInterfaces/UtilExternalModels.cpp): free of effects,
# with no HoistableOpInterface saying no. Linalg's structured ops are hoistable by that interface.
SURE_DIALECTS = ("arith", "math")
SURE_OPS = (
    "tensor.empty",
    "tensor.expand_shape",
    "tensor.collapse_shape",
    "tensor.extract_slice",
    "tensor.insert_slice",
    "tensor.pad",
    "tensor.concat",
    "tensor.cast",
    "tensor.reshape",
    "tensor.extract",
    "tensor.from_elements",
    "tensor.splat",
    "tensor.bitcast",
    "linalg.pack",
    "linalg.unpack",
)
NOT_CONST_EXPR = ("util.optimization_barrier",)  # OpOracle.cpp: optimization barriers cannot be folded
LINALG_UNHOISTABLE = ("linalg.index", "linalg.yield")  # LinalgOps.cpp.inc: not structured

# What IREE's JIT passes to and from the llvm-cpu backend (TargetBackend::getSupportedTypes).
ELEMENT_TYPES = ("i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32", "f64")
SCALAR_TYPES = ("i8", "i16", "i32", "i64", "index", "f32", "f64")


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


def _name(op) -> str:
    return op.operation.name


def _attr(op, name: str):
    attrs = op.operation.attributes
    return attrs[name] if name in attrs else None


def _text(attr) -> str:
    from iree.compiler import ir

    return attr.value if isinstance(attr, ir.StringAttr) else ""


def _symbol(op) -> str:
    from iree.compiler import ir

    return ir.FlatSymbolRefAttr(_attr(op, "global")).value


def _top(op) -> list:
    """The ops of ``op``'s regions, not those nested in them. Walked: the bindings give a walk plain
    Operations, where listing a block wraps each op in its dialect's class (importing linalg's: ~0.5 s)."""
    from iree.compiler import ir

    root, out = op.operation, []

    def visit(o):
        if o == root:
            return ir.WalkResult.ADVANCE
        out.append(o)
        return ir.WalkResult.SKIP

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out


def _where(op) -> str:
    from ..run.diagnostics import format_location

    return format_location(op.location)


def _stores(init) -> list[str]:
    return [_symbol(op) for op in _top(init) if _name(op) == "util.global.store"]


def _supported(t) -> bool:
    """TargetBackend::SupportedTypes::supportsType for the llvm-cpu backend."""
    from iree.compiler import ir

    if isinstance(t, (ir.RankedTensorType, ir.UnrankedTensorType)):
        return str(t.element_type) in ELEMENT_TYPES
    return str(t) in SCALAR_TYPES


def _legal_const_expr_type(t) -> bool:
    """OpOracle.cpp's isLegalConstExprType for builtin types: int, index, float, tensors of them."""
    from iree.compiler import ir

    if isinstance(t, (ir.RankedTensorType, ir.UnrankedTensorType)):
        t = t.element_type
    return isinstance(t, (ir.IntegerType, ir.IndexType, ir.FloatType))


def _resource(attr):
    """``attr`` as a DenseResourceElementsAttr (the bindings do not downcast to it), or None."""
    from iree.compiler import ir

    try:
        return ir.DenseResourceElementsAttr(attr)
    except ValueError:
        return None


def _initial_value(attr) -> str:
    """'none', 'value' (IREE serializes it; opt-py reads it), 'param' (a parameter: run time) or 'other'
    (IREE may serialize it; opt-py cannot read it)."""
    from iree.compiler import ir

    if attr is None:
        return "none"
    if isinstance(attr, (ir.IntegerAttr, ir.FloatAttr, ir.DenseElementsAttr)) or _resource(attr) is not None:
        return "value"
    return "param" if str(attr).startswith(PARAMETERS) else "other"


class Analysis:
    """JitGlobals.cpp's InitializationAnalysis over the module's top level. IREE's const-expr question
    is answered yes for the initializers HoistIntoGlobals made (const-expr by construction) and
    conservatively for the others: UNSURE is an initializer IREE may evaluate and opt-py leaves."""

    def __init__(self, module):
        ops = _top(module)
        self.globals = self.globals_of(module)
        self.timeline: dict[str, list[tuple[int, int]]] = {}
        self.result: dict = {}  # initializer (Operation) -> (availability, why)
        self.ordinal = 0
        for op in ops:
            if _name(op) == "util.global":
                self.timeline[_text(_attr(op, "sym_name"))] = [(self._next(), COMPILER)]
            elif _name(op) == "util.initializer":
                self.result[op.operation] = self._initializer(op)

    @staticmethod
    def globals_of(module) -> dict:
        return {_text(_attr(op, "sym_name")): op for op in _top(module) if _name(op) == "util.global"}

    def _next(self) -> int:
        self.ordinal += 1
        return self.ordinal - 1

    def _query(self, name: str, ordinal: int) -> int:
        """The availability of global ``name`` when op ``ordinal`` runs (IREE's odd scan, kept)."""
        timeline = self.timeline.get(name, [])
        if not timeline:
            return UNKNOWN
        for at, availability in timeline:
            if at > ordinal:
                return availability
        return timeline[-1][1]

    def _initializer(self, init) -> tuple[int, str]:
        state = [COMPILER, ""]

        def lower(to: int, why: str) -> None:
            if to < state[0]:
                state[:] = [to, why]

        blocks = list(init.regions[0].blocks)
        if len(blocks) != 1:
            lower(UNKNOWN, "it has more than one block")
        else:
            kind, why = self._parameterized(init)
            lower(RUNTIME if kind == "param" else UNSURE if kind else COMPILER, why)
        verdicts = self._const_exprs(init) if len(blocks) == 1 else {}
        stores = []
        for op in _top(init):
            name = _name(op)
            if name in CONSTANT_LIKE or name == "util.return":
                continue
            if name in REGION_BRANCH:
                lower(UNKNOWN, "it has control flow")
            elif name in CALLS:
                lower(UNKNOWN, "it has a call")
            elif name in INDIRECT:
                lower(UNKNOWN, "it has indirect global accesses")
            elif name == "util.global.load":
                status = self._query(_symbol(op), self._next())
                known = "opt-py leaves to run time" if status == UNSURE else "is not known at compile time"
                lower(status, f"it loads @{_symbol(op)}, which {known}")
            elif name == "util.global.store":
                g = self.globals.get(_symbol(op))
                if g is None or _attr(g, "is_mutable") is not None:
                    lower(RUNTIME, "it stores a mutable global")
                stores.append((_symbol(op), self._next()))
            else:
                lower(*verdicts.get(op, (RUNTIME, f"'{name}' is not a constant expression")))
        for g, at in stores:
            self.timeline.setdefault(g, []).append((at, state[0]))
        return state[0], state[1]

    def _parameterized(self, init) -> tuple[str, str]:
        """JitGlobals.cpp's isParameterized: ('param', why), ('other', why) when opt-py cannot tell,
        ('', '') when not."""
        from iree.compiler import ir

        found = ["", ""]

        def visit(op):
            name = op.name
            kind, what = "none", ""
            if name in ("util.global.load", "util.global.store"):
                g = self.globals.get(_symbol(op))
                kind = "param" if g is None else _initial_value(_attr(g, "initial_value"))
                what = f"@{_symbol(op)}"
            elif name == "flow.tensor.constant":
                kind, what = _initial_value(_attr(op, "value")), "a flow.tensor.constant"
            if kind == "param":
                found[:] = ["param", f"it reads {what}, a parameter"]
                return ir.WalkResult.INTERRUPT
            if kind == "other" and not found[0]:
                found[:] = ["other", f"opt-py cannot read the value of {what}"]
            return ir.WalkResult.ADVANCE

        init.operation.walk(visit)
        return found[0], found[1]

    def _hoisted(self, init) -> bool:
        """Made by HoistIntoGlobals: its stores all go to private immutable ``__hoisted_`` globals
        without an initial value, as the pass creates them."""
        names = _stores(init)
        for name in names:
            g = self.globals.get(name)
            if g is None or not name.startswith(HOISTED_PREFIX) or _attr(g, "initial_value") is not None:
                return False
            if _attr(g, "is_mutable") is not None or _text(_attr(g, "sym_visibility")) != "private":
                return False
        return bool(names)

    def _const_exprs(self, init) -> dict:
        """Util/Analysis/Constant/ConstExpr.cpp's analysis over the initializer's top level: each op's
        (availability, why not). An op is a constant expression when the analysis reaches it (from the
        roots, constants and loads of immutable globals, to their users, and from there to producers) and
        it and all its producers are eligible. Eligibility is IREE's HoistableOpInterface and effects,
        which Python cannot ask: every op of an initializer HoistIntoGlobals made was eligible where it
        was hoisted from; in any other, ops opt-py cannot vouch for are UNSURE."""
        top = _top(init)
        at_top = set(top)
        hoisted = self._hoisted(init)
        producers = {op: _producer_ops(op, at_top) for op in top}
        # The analysis follows a use into a user's region one level deep only (tryExpandToUseOrUseParent).
        shallow = {op: _producer_ops(op, at_top, one_level=True) for op in top}
        users = {op: [u for u in top if op in shallow[u]] for op in top}
        roots = [op for op in top if self._root(op)]
        eligible = {op: self._eligible(op, hoisted) for op in top}
        reached: set = set()

        def reach(op):
            if op == BLOCK_ARGUMENT or op in reached:
                return
            reached.add(op)
            for p in producers[op]:
                reach(p)

        verdict = {op: (COMPILER, "") for op in roots}
        for r in roots:
            for u in users[r]:
                reach(u)
        changed = True
        while changed:
            changed = False
            for op in top:
                if op not in reached or op in verdict:
                    continue
                worst = min([eligible[op]] + [verdict.get(p, (None, "")) for p in producers[op]], key=_rank)
                if worst[0] is None:  # a producer not resolved yet, or a block argument
                    if BLOCK_ARGUMENT in producers[op]:
                        verdict[op] = (RUNTIME, f"'{op.name}' uses a block argument")
                        changed = True
                    continue
                verdict[op] = worst
                changed = True
                if worst[0] > RUNTIME:
                    for u in users[op]:
                        reach(u)
        return {op: verdict.get(op, (RUNTIME, f"IREE's const-expr analysis does not reach '{op.name}'")) for op in top}

    def _root(self, op) -> bool:
        """A constant root of IREE's analysis: a constant, or a load of an immutable global, of a legal type."""
        if _name(op) in CONSTANT_LIKE:
            return all(_legal_const_expr_type(r.type) for r in op.results)
        if _name(op) == "util.global.load":
            g = self.globals.get(_symbol(op))
            return g is not None and _attr(g, "is_mutable") is None and _legal_const_expr_type(op.results[0].type)
        return False

    def _eligible(self, op, hoisted: bool) -> tuple[int, str]:
        """OpOracle.cpp's isEligibleConstExpr, where opt-py can tell: COMPILER, RUNTIME or UNSURE, and why.
        In an initializer HoistIntoGlobals made, every op was eligible where it came from."""
        name = op.name
        dialect = name.split(".", 1)[0]
        structured = dialect == "linalg" and name not in LINALG_UNHOISTABLE and len(op.regions) > 0
        if name in NOT_CONST_EXPR or not list(op.results):
            return RUNTIME, f"'{name}' is never a constant expression"
        if not all(_legal_const_expr_type(r.type) for r in op.results):
            return RUNTIME, f"'{name}' has a result of a type IREE's const-expr analysis refuses"
        if name == "util.global.load":  # not a root: a mutable global's, or of an illegal type
            return RUNTIME, f"'{name}' reads @{_symbol(op)}, which may change"
        if not (hoisted or dialect in SURE_DIALECTS or name in SURE_OPS or structured):
            return UNSURE, f"opt-py cannot tell whether IREE takes '{name}' for a constant expression"
        return COMPILER, ""


BLOCK_ARGUMENT = "a block argument"  # where a producer is no op (the bindings' == refuses None)


def _rank(verdict) -> int:
    """Order for min(): unresolved (None) first, then the least available."""
    return -1 if verdict[0] is None else verdict[0]


def _producer_ops(op, at_top: set, one_level: bool = False) -> list:
    """The top-level ops defining what ``op`` uses from outside it (BLOCK_ARGUMENT for one); with
    ``one_level``, only what it and the ops directly in its regions use."""
    from iree.compiler import ir

    out = []
    for v in _producers(op, one_level):
        owner = BLOCK_ARGUMENT if isinstance(v, ir.BlockArgument) else v.owner.operation
        if owner == BLOCK_ARGUMENT or owner in at_top:
            out.append(owner)
    return out


def _producers(op, one_level: bool = False) -> list:
    """The values ``op`` uses that are defined outside it: its operands and what its regions capture
    (OpOracle.cpp's escaping producers); with ``one_level``, captured by the ops directly in its regions."""
    from iree.compiler import ir

    root = op.operation
    out = list(root.operands)

    def visit(nested):
        if nested != root and (not one_level or nested.parent.operation == root):
            for v in nested.operands:
                owner = v.owner.owner if isinstance(v, ir.BlockArgument) else v.owner
                if not _inside(owner.operation, root):
                    out.append(v)
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    return out


def _inside(op, root) -> bool:
    while op is not None:
        if op == root:
            return True
        op = op.parent.operation if op.parent is not None else None
    return False


# --------------------------------------------------------------------------
# The JIT module: JitGlobals.cpp's ProgramBuilder
# --------------------------------------------------------------------------

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
class Plan:
    jits: list[Jit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    jit_module: object = None


def plan(module) -> Plan:
    """The initializers IREE's const-eval evaluates and opt-py can, as the functions of a JIT module
    built as IREE builds it; a note for each one IREE may evaluate that opt-py leaves to run time."""
    from iree.compiler import ir

    analysis = Analysis(module)
    symbols = {_text(_attr(op, "sym_name")): op for op in _top(module) if _attr(op, "sym_name") is not None}
    jit_module = ir.Module.create(module.location)
    jit_module.operation.attributes["iree.consteval"] = ir.UnitAttr.get()
    out = Plan(jit_module=jit_module)
    left: set[str] = set()  # globals IREE's const-eval may set that opt-py leaves to run time
    inserted, cloned = 0, set()
    for init in [op for op in _top(module) if _name(op) == "util.initializer"]:
        availability, why = analysis.result[init.operation]
        jit = Jit(init, _where(init), _stores(init))
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
                if target is not None and _name(target) in OBJECT_LIKE and root not in cloned:
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
    for op in _top(clone):
        body.append(op)
    clone.erase()
    arg_types, erase = [], []
    for op in _top(func):
        if _name(op) == "util.global.load":
            g, t = globals_.get(_symbol(op)), op.results[0].type
            if g is None or _attr(g, "is_mutable") is not None or not _supported(t):
                func.erase()
                return None
            op.results[0].replace_all_uses_with(body.add_argument(t, op.location))
            arg_types.append(t)
            erase.append(op)
            jit.loads.append(_symbol(op))
    for op in _top(func):
        if _name(op) == "arith.constant" and isinstance(
            op.results[0].type, (ir.RankedTensorType, ir.UnrankedTensorType)
        ):
            t, value = op.results[0].type, _attr(op, "value")
            if not (isinstance(value, ir.DenseElementsAttr) or _resource(value) or str(value).startswith("sparse")):
                continue
            if not _supported(t):
                func.erase()
                return None
            op.results[0].replace_all_uses_with(body.add_argument(t, op.location))
            arg_types.append(t)
            erase.append(op)
            jit.constants.append(value)
    returns = []
    for op in _top(func):
        if _name(op) == "util.global.store":
            if not _supported(op.operands[0].type):
                func.erase()
                return None
            returns.append(op.operands[0])
            erase.append(op)
    for op in erase:
        op.erase()
    terminator = _top(func)[-1]
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
        value = _attr(globals_[name], "initial_value")
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
    if isinstance(attr, ir.DenseElementsAttr) or _resource(attr) is not None:
        t = attr.type if isinstance(attr, ir.DenseElementsAttr) else _resource(attr).type
        elements = str(t.element_type)
        if isinstance(t.element_type, ir.IntegerType) and t.element_type.width in (1, 8, 16, 32, 64):
            elements = f"i{t.element_type.width}"
        return "tensor" if elements in HAL_ELEMENTS and t.has_static_shape else None
    return None


def _element_key(t) -> str:
    from iree.compiler import ir

    e = t.element_type
    return f"i{e.width}" if isinstance(e, ir.IntegerType) else str(e)


# --------------------------------------------------------------------------
# Values between the compiler and the runtime: ConstEval/Runtime.cpp
# --------------------------------------------------------------------------


def _serialized(attrs: list) -> list[bytes]:
    """The bytes IREE's JIT hands the runtime for each tensor value (``SerializableAttrInterface``: splats
    expanded, i1 a byte each): serialized by IREE itself, its parameter export writing them into an
    archive (as mutable globals: every entry whole), read back with the runtime. The bindings read
    neither ``dense_resource`` blobs nor bf16 elements."""
    import iree.runtime as rt
    from iree.compiler import ir, passmanager

    if not attrs:  # the export writes no archive then
        return []
    scratch = ir.Module.create()
    with ir.InsertionPoint(scratch.body):
        for i, a in enumerate(attrs):
            t = a.type if isinstance(a, ir.DenseElementsAttr) else _resource(a).type
            attributes = {
                "sym_name": ir.StringAttr.get(f"v{i}"),
                "sym_visibility": ir.StringAttr.get("private"),
                "type": ir.TypeAttr.get(t),
                "initial_value": a,
                "is_mutable": ir.UnitAttr.get(),
            }
            ir.Operation.create("util.global", attributes=attributes)
    with tempfile.TemporaryDirectory(prefix="opt-py-const-eval-") as tmp:
        path = os.path.join(tmp, "arguments.irpa")
        passmanager.PassManager.parse(f"builtin.module(iree-io-export-parameters{{path={path}}})").run(
            scratch.operation
        )
        index = rt.ParameterIndex()
        index.load(path, mmap=False)
        entries = dict(index.items())
        return [
            bytes(memoryview(rt.parameter_index_entry_as_numpy_flat_ndarray(entries[f"v{i}"])))
            for i in range(len(attrs))
        ]


def _to_runtime(rt, device, attr, data: bytes | None):
    """``attr`` as IREE's JIT passes it: a buffer view of its serialized ``data``, or an i8..i64/f32/f64 value."""
    import numpy as np
    from iree.compiler import ir

    if isinstance(attr, ir.IntegerAttr):
        return int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return float(attr.value)
    t = attr.type if isinstance(attr, ir.DenseElementsAttr) else _resource(attr).type
    key = _element_key(t)
    return device.allocator.allocate_buffer_copy(
        memory_type=rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=rt.BufferUsage.DEFAULT,
        device=device,
        buffer=np.frombuffer(data, dtype=f"u{WIDTHS[key]}").reshape(t.shape),
        element_type=getattr(rt.HalElementType, HAL_ELEMENTS[key]),
    )


def _from_runtime(rt, value, global_type):
    """A result as IREE's JIT writes it back (convertVariantToAttribute): a buffer view to
    ``DenseElementsAttr::getFromRawBuffer`` of its bytes; a value to an integer or float attribute."""
    import numpy as np
    from iree.compiler import ir

    if isinstance(value, bool | int):
        return ir.IntegerAttr.get(global_type, int(value))
    if isinstance(value, float):
        return ir.FloatAttr.get(global_type, value)
    name = rt.HalElementType(value.element_type).name
    element = _ELEMENT_TYPES.get(name) or (f"i{name.split('_')[-1]}" if name.split("_")[0] in _INTS else None)
    if element is None:
        raise CompileError(f"unrecognized evaluated buffer view element type: {name}")
    t = ir.RankedTensorType.get(list(value.shape), ir.Type.parse(element))
    data = np.array(value.map().asarray([value.byte_length], np.dtype(np.uint8)), copy=True)
    return ir.DenseElementsAttr.get(data, type=t)


_ELEMENT_TYPES = {"BOOL_8": "i1", "FLOAT_16": "f16", "FLOAT_32": "f32", "FLOAT_64": "f64", "BFLOAT_16": "bf16"}
_INTS = ("INT", "SINT", "UINT")


# --------------------------------------------------------------------------
# The step
# --------------------------------------------------------------------------


def evaluate(cfg: ConstEval, c, module):
    """Evaluate what IREE's const-eval would, with the fixes inside; None to go on, or the failed result."""
    from iree.compiler import ir

    clock = _Clock(cfg.seconds)
    with c.ctx, ir.Location.unknown():
        with clock("plan"):
            chosen = plan(module)
        c.messages += chosen.notes
        if not chosen.jits:
            return None
        with clock("compile"):
            vmfb, culprits, nested = _compile(cfg, chosen)
        for name, took in nested.seconds.items():
            c.hooks.seconds[name] = c.hooks.seconds.get(name, 0.0) + took
        if c.hooks.rewrites is not None:
            c.hooks.rewrites += nested.rewrites
        if not nested.ok:
            c.messages += _with_sources(nested.messages, c.sources)
            why = next((m for m in reversed(nested.messages) if m.startswith(ERROR)), ERROR)[len(ERROR) :]
            why = why.replace("IREE compilation failed", "compiling it for the host CPU failed")
            return c.failed(f"const-eval of {' and '.join(j.label() for j in culprits)} failed: {why}")
        try:
            with clock("run"):
                _run(vmfb, chosen.jits, Analysis.globals_of(module))
        except _JitFailed as e:
            return c.failed(str(e))
        for jit in chosen.jits:
            jit.init.operation.erase()
        cfg.evaluated += [jit.label() for jit in chosen.jits]
    with clock("cleanup"):
        if not c.run_pipeline(TAIL_PIPELINE, module):
            return c.failed("IREE's cleanup after const-eval failed")
    return None


class _Clock:
    def __init__(self, seconds: dict):
        self.seconds = seconds

    @contextmanager
    def __call__(self, part: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[part] = self.seconds.get(part, 0.0) + time.perf_counter() - start


ERROR = "opt-py: error: "


class _JitFailed(Exception):
    pass


def _compile(cfg: ConstEval, chosen: Plan):
    """The JIT module compiled by opt-py's in-process compile with the fixes: (vmfb, [], result), or on
    failure (b'', the initializers whose functions fail, the failed result: its diagnostics)."""
    result = _compile_module(cfg, chosen.jit_module)
    if result.ok:
        return result.output, [], result
    culprits = list(chosen.jits)
    if len(chosen.jits) > 1:  # compile the functions one at a time to name the one that fails
        for jit in chosen.jits:
            alone = _compile_module(cfg, _only(chosen.jit_module, jit.name))
            if not alone.ok:
                culprits, result = [jit], alone
                break
    messages = [m for m in result.messages if not m.startswith(ERROR)] + [
        m for m in result.messages if m.startswith(ERROR)
    ][-1:]
    result.messages = messages
    return b"", culprits, result


def _with_sources(messages: list[str], sources: dict) -> list[str]:
    """The nested compile's diagnostics, each with its line of the user's source (the nested compile read
    only the JIT module); its own last error is left out."""
    import re

    from ..run.diagnostics import Diag, render

    out = []
    for m in messages:
        if m.startswith(ERROR):
            continue
        found = re.match(r"^(.+?):(\d+):(\d+): (error|warning|note|remark): (.*)$", m, re.S)
        if found and "\n" not in m:
            f, line, col, severity, text = found.groups()
            m = render(Diag(severity, text, f, int(line), int(col)), {}, sources)
        out.append(m)
    return out


def _only(jit_module, name: str):
    """A copy of ``jit_module`` with the function ``name`` alone (and every object)."""
    copy = jit_module.operation.clone()
    for op in _top(copy):
        if _name(op) == "util.func" and _text(_attr(op, "sym_name")) != name:
            op.erase()
    return copy


def _compile_module(cfg: ConstEval, jit_module):
    from ..run import progress
    from .phases import CompileResult, compile_with_injections

    with tempfile.TemporaryDirectory(prefix="opt-py-const-eval-") as tmp:
        path = os.path.join(tmp, "jit.mlirbc")
        with open(path, "wb") as f:
            jit_module.operation.write_bytecode(f)
        if progress.diagnosis:  # a crash re-run set IREE's options for this whole process: compile elsewhere
            return _compile_in_child(cfg, path, os.path.join(tmp, "jit.vmfb"))
        with progress.step("stop", "const-eval: the nested compile"):
            try:
                result = compile_with_injections(
                    path, cfg.flags, cfg.injections, codegen_injections=cfg.codegen, record_rewrites=True
                )
            except OptPyError as e:
                result = CompileResult(False, messages=[f"{ERROR}{e}"])
    cfg.rewrites += result.rewrites
    return result


def _compile_in_child(cfg: ConstEval, path: str, out: str):
    """The nested compile as ``opt-py compile`` in a process of its own (a crash re-run's)."""
    from .phases import CompileResult

    inject = [a for j in cfg.injections for a in ("--inject", f"{j.phase}:{j.pipeline}")]
    inject += [
        a
        for x in cfg.codegen
        for a in ("--inject-codegen", f"{x.where}:{x.pass_name}#{x.occurrence or '*'}:{x.pipeline}")
    ]
    env = dict(os.environ, OPT_PY_NO_SERVER="1")
    cmd = [sys.executable, "-m", "opt_py", "compile", path, "-o", out, *inject, *cfg.flags]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    messages = proc.stderr.splitlines()
    if proc.returncode != 0:
        return CompileResult(False, messages=messages or [f"{ERROR}the nested compile exited {proc.returncode}"])
    with open(out, "rb") as f:
        return CompileResult(True, f.read(), messages)


def _run(vmfb: bytes, jits: list[Jit], globals_: dict) -> None:
    """Run each function in order on local-task, as IREE's JIT does, setting the globals it stores."""
    import iree.runtime as rt
    from iree.compiler import ir

    device = rt.get_device("local-task")
    instance = rt.VmInstance()
    main = rt.VmModule.copy_buffer(instance, vmfb)
    context = rt.VmContext(instance, modules=[rt.create_hal_module(instance, device), main])
    for jit in jits:
        values = [_attr(globals_[g], "initial_value") for g in jit.loads]
        for g, value in zip(jit.loads, values):
            if value is None:  # as IREE's JIT fails when an initializer it refused left a global unset
                raise _JitFailed(
                    f"const-eval of {jit.label()} failed: internal error: jit global source initialization order "
                    f"invalid: global @{g} has no value"
                )
        values += jit.constants
        tensors = [v for v in values if not isinstance(v, (ir.IntegerAttr, ir.FloatAttr))]
        try:
            serialized = dict(zip(map(id, tensors), _serialized(tensors)))
        except (ir.MLIRError, ValueError, RuntimeError) as e:  # IREE's export, the runtime's reading
            raise _JitFailed(f"const-eval of {jit.label()} failed: serializing its arguments: {e}") from None
        args = rt.VmVariantList(len(values))
        for value in values:
            arg = _to_runtime(rt, device, value, serialized.get(id(value)))
            if isinstance(arg, int):
                args.push_int(arg)
            elif isinstance(arg, float):
                args.push_float(arg)
            else:
                args.push_ref(arg)
        rets = rt.VmVariantList(len(jit.globals))
        try:
            context.invoke(main.lookup_function(jit.name), args, rets)
        except (RuntimeError, ValueError) as e:  # the runtime's status, as the bindings raise it
            raise _JitFailed(f"const-eval of {jit.label()} failed: runtime error in consteval: {e}") from None
        for i, g in enumerate(jit.globals):
            global_type = ir_type(_attr(globals_[g], "type"))
            value = rets.get_variant(i)
            if not isinstance(value, int | float):
                value = rets.get_as_object(i, rt.HalBufferView)
            try:
                globals_[g].operation.attributes["initial_value"] = _from_runtime(rt, value, global_type)
            except (CompileError, ValueError) as e:
                raise _JitFailed(f"const-eval of {jit.label()} failed: {e}") from None


def ir_type(attr):
    from iree.compiler import ir

    return attr.value if isinstance(attr, ir.TypeAttr) else attr
