"""Which initializers IREE's const-eval evaluates: ConstEval/JitGlobals.cpp's InitializationAnalysis.

Its initialization-order timeline (is a global known at compile time when
an initializer runs?), its structural rules (one block, no control flow,
calls or indirect accesses, no parameters, stores only into immutable
globals), and the const-expr analysis it asks (Util/Analysis/Constant):
which ops it reaches from constants and immutable loads, followed exactly,
and which are eligible, which Python cannot ask (HoistableOpInterface,
memory effects) and opt-py answers for the initializers HoistIntoGlobals
made (their ops were eligible where they came from) and conservatively for
the others (UNSURE: IREE may evaluate it, opt-py leaves it with a note).
"""

from __future__ import annotations

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


def op_name(op) -> str:
    return op.operation.name


def attribute(op, name: str):
    attrs = op.operation.attributes
    return attrs[name] if name in attrs else None


def text_of(attr) -> str:
    from iree.compiler import ir

    return attr.value if isinstance(attr, ir.StringAttr) else ""


def global_of(op) -> str:
    from iree.compiler import ir

    return ir.FlatSymbolRefAttr(attribute(op, "global")).value


def top_ops(op) -> list:
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


def where(op) -> str:
    from ..run.diagnostics import format_location

    return format_location(op.location)


def stored(init) -> list[str]:
    return [global_of(op) for op in top_ops(init) if op_name(op) == "util.global.store"]


def supported(t) -> bool:
    """TargetBackend::SupportedTypes::supportsType for the llvm-cpu backend."""
    from iree.compiler import ir

    if isinstance(t, (ir.RankedTensorType, ir.UnrankedTensorType)):
        return str(t.element_type) in ELEMENT_TYPES
    return str(t) in SCALAR_TYPES


def legal_const_expr_type(t) -> bool:
    """OpOracle.cpp's isLegalConstExprType for builtin types: int, index, float, tensors of them."""
    from iree.compiler import ir

    if isinstance(t, (ir.RankedTensorType, ir.UnrankedTensorType)):
        t = t.element_type
    return isinstance(t, (ir.IntegerType, ir.IndexType, ir.FloatType))


def as_resource(attr):
    """``attr`` as a DenseResourceElementsAttr (the bindings do not downcast to it), or None."""
    from iree.compiler import ir

    try:
        return ir.DenseResourceElementsAttr(attr)
    except ValueError:
        return None


def initial_value_kind(attr) -> str:
    """'none', 'value' (IREE serializes it; opt-py reads it), 'param' (a parameter: run time) or 'other'
    (IREE may serialize it; opt-py cannot read it)."""
    from iree.compiler import ir

    if attr is None:
        return "none"
    if isinstance(attr, (ir.IntegerAttr, ir.FloatAttr, ir.DenseElementsAttr)) or as_resource(attr) is not None:
        return "value"
    return "param" if str(attr).startswith(PARAMETERS) else "other"


class Analysis:
    """JitGlobals.cpp's InitializationAnalysis over the module's top level. IREE's const-expr question
    is answered yes for the initializers HoistIntoGlobals made (const-expr by construction) and
    conservatively for the others: UNSURE is an initializer IREE may evaluate and opt-py leaves."""

    def __init__(self, module):
        ops = top_ops(module)
        self.globals = self.globals_of(module)
        self.timeline: dict[str, list[tuple[int, int]]] = {}
        self.result: dict = {}  # initializer (Operation) -> (availability, why)
        self.ordinal = 0
        for op in ops:
            if op_name(op) == "util.global":
                self.timeline[text_of(attribute(op, "sym_name"))] = [(self._next(), COMPILER)]
            elif op_name(op) == "util.initializer":
                self.result[op.operation] = self._initializer(op)

    @staticmethod
    def globals_of(module) -> dict:
        return {text_of(attribute(op, "sym_name")): op for op in top_ops(module) if op_name(op) == "util.global"}

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
        for op in top_ops(init):
            name = op_name(op)
            if name in CONSTANT_LIKE or name == "util.return":
                continue
            if name in REGION_BRANCH:
                lower(UNKNOWN, "it has control flow")
            elif name in CALLS:
                lower(UNKNOWN, "it has a call")
            elif name in INDIRECT:
                lower(UNKNOWN, "it has indirect global accesses")
            elif name == "util.global.load":
                status = self._query(global_of(op), self._next())
                known = "opt-py leaves to run time" if status == UNSURE else "is not known at compile time"
                lower(status, f"it loads @{global_of(op)}, which {known}")
            elif name == "util.global.store":
                g = self.globals.get(global_of(op))
                if g is None or attribute(g, "is_mutable") is not None:
                    lower(RUNTIME, "it stores a mutable global")
                stores.append((global_of(op), self._next()))
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
                g = self.globals.get(global_of(op))
                kind = "param" if g is None else initial_value_kind(attribute(g, "initial_value"))
                what = f"@{global_of(op)}"
            elif name == "flow.tensor.constant":
                kind, what = initial_value_kind(attribute(op, "value")), "a flow.tensor.constant"
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
        names = stored(init)
        for name in names:
            g = self.globals.get(name)
            if g is None or not name.startswith(HOISTED_PREFIX) or attribute(g, "initial_value") is not None:
                return False
            if attribute(g, "is_mutable") is not None or text_of(attribute(g, "sym_visibility")) != "private":
                return False
        return bool(names)

    def _const_exprs(self, init) -> dict:
        """Util/Analysis/Constant/ConstExpr.cpp's analysis over the initializer's top level: each op's
        (availability, why not). An op is a constant expression when the analysis reaches it (from the
        roots, constants and loads of immutable globals, to their users, and from there to producers) and
        it and all its producers are eligible. Eligibility is IREE's HoistableOpInterface and effects,
        which Python cannot ask: every op of an initializer HoistIntoGlobals made was eligible where it
        was hoisted from; in any other, ops opt-py cannot vouch for are UNSURE."""
        top = top_ops(init)
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
        if op_name(op) in CONSTANT_LIKE:
            return all(legal_const_expr_type(r.type) for r in op.results)
        if op_name(op) == "util.global.load":
            g = self.globals.get(global_of(op))
            return g is not None and attribute(g, "is_mutable") is None and legal_const_expr_type(op.results[0].type)
        return False

    def _eligible(self, op, hoisted: bool) -> tuple[int, str]:
        """OpOracle.cpp's isEligibleConstExpr, where opt-py can tell: COMPILER, RUNTIME or UNSURE, and why.
        In an initializer HoistIntoGlobals made, every op was eligible where it came from."""
        name = op.name
        dialect = name.split(".", 1)[0]
        structured = dialect == "linalg" and name not in LINALG_UNHOISTABLE and len(op.regions) > 0
        if name in NOT_CONST_EXPR or not list(op.results):
            return RUNTIME, f"'{name}' is never a constant expression"
        if not all(legal_const_expr_type(r.type) for r in op.results):
            return RUNTIME, f"'{name}' has a result of a type IREE's const-expr analysis refuses"
        if name == "util.global.load":  # not a root: a mutable global's, or of an illegal type
            return RUNTIME, f"'{name}' reads @{global_of(op)}, which may change"
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
