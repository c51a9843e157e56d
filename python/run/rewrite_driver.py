"""Runs a PatternPass's patterns with MLIR's greedy or walk driver.

Each Python pattern is wrapped once per run: the wrapper adapts the bindings'
"falsy means matched" convention to ours ("True means rewrote"), reports
applications and match failures for ``--debug-patterns``, and turns an
exception into a recorded failure. After a failure every later call answers
"no match" at once, so the driver drains quickly and the pass then fails with
the pattern's name and the op's location. The half-rewritten IR is never
written anywhere.
"""

from __future__ import annotations

import contextlib
import functools
import traceback

from iree.compiler import ir, rewrite

from ..authoring import PassContext, Rewrite, Rewriter
from ..errors import PatternContractError
from .bindings import stub_missing_dialect_modules
from .diagnostics import format_location


class PatternFailure(Exception):
    """A pattern raised: carries what the pass failure must name."""

    def __init__(self, pattern_name, op_name, location, cause, tb):
        self.pattern_name = pattern_name
        self.op_name = op_name
        self.location = location
        self.cause = cause
        self.tb = tb
        super().__init__(
            f"pattern '{pattern_name}' raised {type(cause).__name__}: {cause} (while rewriting '{op_name}')"
        )


def _wrap(pattern, ctx: PassContext, state: dict):
    debug = ctx.debug_patterns
    fn = functools.partial(pattern.fn, **dict(pattern.params)) if pattern.params else pattern.fn
    name = pattern.name
    reusable = Rewriter()

    record = ctx.rewrites is not None

    def call(op, rw):
        if state["error"] is not None:
            return True  # drain: no further matches
        rewriter = reusable.reset(rw)
        # Named before the pattern runs: a rewrite may erase the op, and the
        # bindings do not invalidate handles to erased ops (reading one crashes).
        op_name = op.operation.name if debug or record else ""
        loc = format_location(op.location, ctx.rename) if debug or record else ""
        where = f"'{op_name}' at {loc}"
        try:
            result = fn(op, rewriter)
            if not result and rewriter.changed:
                raise PatternContractError(
                    "changed the IR (replace_op/erase_op) but returned no match; return True after rewriting"
                )
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            state["error"] = PatternFailure(name, op.operation.name, op.location, e, traceback.format_exc())
            return True
        if result:
            ctx.bump(name)
            if record:
                ctx.rewrites.append(Rewrite(ctx.pass_name, name, op_name, loc))
            if debug:
                debug(f"[{ctx.pass_name}] {name}: applied to {where}")
            return False  # bindings: falsy == matched and rewritten
        if debug and rewriter.failure_reason:
            debug(f"[{ctx.pass_name}] {name}: no match on {where}: {rewriter.failure_reason}")
        return True

    return call


def greedy_config(p):
    cfg = rewrite.GreedyRewriteConfig()
    cfg.max_iterations = p.max_iterations
    cfg.max_num_rewrites = p.max_num_rewrites
    cfg.enable_folding = p.fold
    cfg.enable_constant_cse = p.cse_constants
    cfg.use_top_down_traversal = p.top_down
    cfg.region_simplification_level = rewrite.GreedySimplifyRegionLevel[p.region_simplify.upper()]
    return cfg


def pass_patterns(p, ctx: PassContext) -> list:
    """The pass's ``patterns()``, asked once per pass run."""
    if "patterns" not in ctx.cache:
        ctx.cache["patterns"] = list(p.patterns())
    return ctx.cache["patterns"]


def frozen_patterns(p, ctx: PassContext, state: dict):
    ps = rewrite.RewritePatternSet()
    for pat in pass_patterns(p, ctx):
        ps.add(pat.root, _wrap(pat, ctx, state), pat.benefit)
    return ps.freeze()


def any_root_occurs(op, roots) -> bool:
    """Whether an op named in ``roots`` occurs under ``op``.

    The walk driver visits ops in C++ and calls Python only on ops of the
    given names, so this costs a fraction of a greedy run. It lets a pattern
    pass skip the greedy driver (worklist, every op visited) when it cannot
    match anything.
    """

    def seen(_op, _rw):
        raise _RootFound  # stop the walk at the first hit; the IR is untouched

    ps = rewrite.RewritePatternSet()
    for root in roots:
        ps.add(root, seen)
    try:
        rewrite.walk_and_apply_patterns(op, ps.freeze())
    except _RootFound:
        return True
    return False


class _RootFound(Exception):
    pass


def nothing_to_match(p, root, ctx: PassContext) -> bool:
    """True when the greedy driver could do nothing anywhere under ``root``.

    Checked once per pass run, before visiting the anchor ops: without
    folding, a greedy run over ops none of which is a pattern root only
    walks them.
    """
    if p.driver == "walk" or p.fold:
        return False
    return not any_root_occurs(root, {pat.root for pat in pass_patterns(p, ctx)})


def apply_pattern_pass(p, op, ctx: PassContext) -> None:

    # Built once per pass run and shared by every anchor op it visits.
    cache = ctx.cache
    if "frozen" not in cache:
        stub_missing_dialect_modules()
        cache["state"] = {"error": None}
        cache["frozen"] = frozen_patterns(p, ctx, cache["state"])
        cache["config"] = greedy_config(p) if p.driver != "walk" else None
        if p.driver != "walk" and not (p.fold or p.cse_constants or p.region_simplify.lower() != "disabled"):
            cache["probe"] = _Probe(p, ctx)
    state, frozen = cache["state"], cache["frozen"]
    try:
        if p.driver == "walk":
            rewrite.walk_and_apply_patterns(op, frozen)
            return
        if "probe" in cache and not cache["probe"].any_rewrite(op, cache["config"]):
            return  # the greedy driver would only erase dead ops here: leave them
        with _dead_ops_kept(op, "probe" in cache):
            try:
                rewrite.apply_patterns_and_fold_greedily(op, frozen, cache["config"])
            except (ir.MLIRError, RuntimeError):
                # The driver stopped at max-iterations or max-num-rewrites before
                # converging. As with C++ canonicalize{max-iterations=N}, a bound
                # is where the pass stops, not a failure.
                pass
    finally:
        if state["error"] is not None:
            raise state["error"]


_KEEP = "opt_py.keep_alive"
_PAYLOAD_DIALECTS = ("linalg.", "iree_linalg_ext.")


@contextlib.contextmanager
def _dead_ops_kept(op, keep: bool):
    """Gives every op whose results are all unused a use for the greedy run.

    MLIR's greedy driver erases each trivially dead op it visits, whatever
    the patterns say. An unregistered op has unknown side effects, so one
    placed right after such an op, reading its results, keeps it out of the
    driver's reach; an op without results is kept by one inside its empty
    body (the driver sees nested unknown effects). The keep-alive ops are
    erased afterwards. Dead ops the patterns' own rewrites leave behind are
    new or lose their last use during the run, so the driver still erases
    those, as it does for a C++ pass. Payload bodies (linalg and
    iree_linalg_ext ops) are not entered: patterns read them op by op, and a
    dead op there computes nothing the op yields, so it is left to the
    driver. Not covered: a dead op without results whose body is not empty
    (an scf.while whose condition is computed and nothing else).
    """
    if not keep:
        yield
        return
    context = op.context
    allowed = context.allow_unregistered_dialects
    context.allow_unregistered_dialects = True
    dead, empty = [], []
    advance, skip = ir.WalkResult.ADVANCE, ir.WalkResult.SKIP

    def collect(o):
        results = o.results
        descend = advance if not o.name.startswith(_PAYLOAD_DIALECTS) else skip
        if results:
            for r in results:
                for _ in r.uses:
                    return descend
            dead.append(o)
        elif descend is skip:
            pass
        elif len(o.regions):
            region = o.regions[0]
            blocks = region.blocks
            if len(blocks) and len(blocks[0].operations) <= 1:
                empty.append(blocks[0])  # e.g. an scf.for with nothing in it: dead, and no result to use
        return descend

    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                child.operation.walk(collect, ir.WalkOrder.PRE_ORDER)
    for o in dead:
        with ir.InsertionPoint.after(o), o.location:
            ir.Operation.create(_KEEP, operands=list(o.results))
    for block in empty:
        with ir.InsertionPoint.at_block_begin(block), ir.Location.unknown(context):
            ir.Operation.create(_KEEP)
    try:
        yield
    finally:
        try:
            if dead or empty:
                rewrite.walk_and_apply_patterns(op, _erase_keep_alive())
        finally:
            context.allow_unregistered_dialects = allowed


def _erase_keep_alive():
    def erase(o, rw):
        rw.erase_op(o)
        return False

    ps = rewrite.RewritePatternSet()
    ps.add(_KEEP, erase)
    return ps.freeze()


class _ProbeContext(PassContext):
    """A silent context whose first rewrite ends the probe."""

    def bump(self, stat: str, n: int = 1):
        self.state["error"] = "applied"  # drains the wrappers: every later call answers "no match"


class _Probe:
    """Does any pattern rewrite anything under an op? Asked on a detached clone.

    Where nothing is rewritten the real greedy run is skipped altogether:
    cheaper than keeping dead ops alive (``_dead_ops_kept`` walks every op in
    Python) for the common case of a pass with nothing to do.
    """

    def __init__(self, p, ctx: PassContext):
        # --debug-patterns: the probe's lines are shown when it is the only run.
        self.lines: list[str] = []
        self.debug = ctx.debug_patterns
        self.ctx = _ProbeContext(p.name, self.lines.append if self.debug else None, None, ctx.rename)
        self.ctx.state = {"error": None}
        self.ctx.cache["patterns"] = pass_patterns(p, ctx)
        self.frozen = frozen_patterns(p, self.ctx, self.ctx.state)

    def any_rewrite(self, op, config) -> bool:
        self.ctx.state["error"] = None
        clone = op.operation.clone(ip=False)
        try:
            rewrite.apply_patterns_and_fold_greedily(clone, self.frozen, config)
        except (ir.MLIRError, RuntimeError):
            pass
        finally:
            clone.erase()
        lines, self.lines[:] = list(self.lines), []
        if self.ctx.state["error"] is not None:
            return True  # a rewrite, or a pattern that raised: the real run reports
        for line in lines:
            self.debug(line)
        return False
