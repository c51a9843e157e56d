"""No input may crash the process: a deterministic fuzzer over IR, pipelines and flags.

Every case runs ``opt-py`` as a subprocess (the test passes on PYTHONPATH, as
in the lit suite) and must end with exit status 0 or 1: never a signal
(segfault, abort), never a timeout. Exit 1 must come with a diagnostic
(``error:``) and no output on stdout; no case prints a Python ``Traceback``
unless it passed ``--debug``. A successful batch's output must parse again.

The cases are generated from the lit inputs (``test/lit/*.mlir`` and
``test/lit/Inputs/*.mlir``) plus a few seeds below, mutated with a fixed seed:
truncation at a line or character, swapped/deleted tokens and lines, bad
types, deleted braces, duplicated lines, junk characters, bad numbers. Most
IR cases are batches: many mutated chunks joined with ``// -----`` and run
with ``--split-input-file``, which amortizes the process start; others run
alone, from a file or from stdin. Pipelines mix C++ and Python passes, and a
separate family of cases throws bad pipelines at the parser.

On failure the message shows the command and the input, so a case
reproduces by hand. ``OPT_PY_FUZZ_SEED`` and ``OPT_PY_FUZZ_SCALE`` (a
multiplier on the number of cases) allow longer, different runs; the
defaults keep this file well under a minute on two cores.

The tests at the end pin crashes found this way in the core (or inherited
by it), all fixed: each checks what happens now.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

SEED = int(os.environ.get("OPT_PY_FUZZ_SEED", "20250522"))
SCALE = float(os.environ.get("OPT_PY_FUZZ_SCALE", "1"))
TIMEOUT_S = 30
WORKERS = max(2, min(8, (os.cpu_count() or 2) + 1))

ROOT = Path(__file__).resolve().parent.parent
LIT = ROOT / "lit"
PLUGIN_SITE = ROOT / "plugins" / "site"


def _opt_py_command() -> list[str]:
    exe = Path(sys.executable).parent / "opt-py"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "opt_py"]


OPT_PY = _opt_py_command()
# The caller's PYTHONPATH kept after the plugins: a checkout put first on it (a worktree) is the one tested.
ENV = dict(
    os.environ,
    PYTHONPATH=os.pathsep.join(p for p in (str(PLUGIN_SITE), os.environ.get("PYTHONPATH")) if p),
    PYTHONFAULTHANDLER="1",
)
# No core files from a crash; a fixed 8 MiB stack so stack overflows reproduce.
LIMITS = 'ulimit -c 0 2>/dev/null; ulimit -s 8192 2>/dev/null; exec "$@"'

# --------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------

EXTRA_SEEDS = {
    "seed:mix": """\
func.func @mix(%a: i32, %v: vector<4xi32>, %i: index, %p: i1) -> (i32, vector<4xi32>, index) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %v2 = arith.constant dense<2> : vector<4xi32>
  %i0 = arith.constant 0 : index
  %i2 = arith.constant 2 : index
  %b = arith.addi %a, %c0 : i32
  %m = arith.muli %b, %c2 : i32
  %w = arith.muli %v, %v2 : vector<4xi32>
  %j = arith.muli %i, %i2 : index
  %k = arith.addi %j, %i0 : index
  %r = scf.if %p -> (i32) {
    %t = arith.muli %m, %c2 : i32
    scf.yield %t : i32
  } else {
    %e = arith.addi %m, %c0 : i32
    scf.yield %e : i32
  }
  return %r, %w, %k : i32, vector<4xi32>, index
}
""",
    "seed:loop": """\
func.func @loop(%n: index, %t: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : i64
  %r = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<?xf32>) {
    %x = arith.index_cast %iv : index to i64
    %y = arith.muli %x, %c2 : i64
    %f = arith.sitofp %y : i64 to f32
    %u = tensor.insert %f into %acc[%iv] : tensor<?xf32>
    scf.yield %u : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
func.func private @decl(i32) -> i32
""",
    "seed:cfg": """\
func.func @cfg(%a: i32, %p: i1) -> i32 {
  %c0 = arith.constant 0 : i32
  cf.cond_br %p, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  %y = arith.addi %x, %c0 : i32
  cf.br ^bb2
^bb2:
  return %a : i32
} loc("fuzz.mlir":1:1)
""",
    "seed:generic": """\
"builtin.module"() ({
  "func.func"() <{function_type = (i64) -> i64, sym_name = "g"}> ({
  ^bb0(%arg0: i64):
    %0 = "arith.constant"() <{value = 0 : i64}> : () -> i64
    %1 = "arith.addi"(%arg0, %0) <{overflowFlags = #arith.overflow<none>}> : (i64, i64) -> i64
    "func.return"(%1) : (i64) -> ()
  }) : () -> ()
}) : () -> ()
""",
    "seed:util": """\
util.func public @u(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  util.return %b : i32
}
""",
}


def _strip_comments(text: str) -> str:
    """Drop RUN/CHECK and prose comments, keep split markers and expected-* lines."""
    keep = []
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if s.startswith("//") and not s.startswith("// -----") and "expected-" not in s:
            continue
        keep.append(line)
    return "\n".join(keep) + "\n"


def seed_texts() -> dict[str, str]:
    seeds = {}
    # Keyed by file name (Inputs/ kept) and in name order, so the mutations stay the same cases.
    for p in sorted([*LIT.glob("tool/*.mlir"), *LIT.glob("passes/*.mlir")], key=lambda p: p.name):
        seeds[p.name] = _strip_comments(p.read_text())
    for p in sorted((LIT / "Inputs").glob("*.mlir")):
        seeds[p.relative_to(LIT).as_posix()] = _strip_comments(p.read_text())
    seeds.update(EXTRA_SEEDS)
    return seeds


def valid_chunks(seeds: dict[str, str]) -> list[tuple[str, str]]:
    """(seed name, chunk) for every split chunk of the seeds that parses and verifies."""
    from iree.compiler import ir

    out = []
    for name, text in sorted(seeds.items()):
        for i, chunk in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
            try:
                with ir.Context():
                    ir.Module.parse(chunk)
            except ir.MLIRError:
                continue
            out.append((f"{name}#{i}", chunk))
    return out


# --------------------------------------------------------------------------
# Mutations: each takes (rng, text) and returns (text, what it did)
# --------------------------------------------------------------------------

_TOKEN = re.compile(
    r"%[\w.$-]+|@[\w.$-]+|\^[\w.$-]+|#[\w.$-]+|![\w.$-]+|\"[^\"\n]*\"|[A-Za-z_][\w.$-]*|\d+(?:\.\d+)?|[^\s\w]"
)
_TYPE = re.compile(r"\b(?:i1|i8|i16|i32|i64|i128|index|f16|f32|f64|bf16)\b|\b(?:tensor|vector|memref)<[^<>\n]*>")
_NUMBER = re.compile(r"(?<![\w%@^#!])\d+(?:\.\d+)?")
_SSA = re.compile(r"%[\w.$-]+")
BAD_TYPES = [
    "i0x",
    "tensor<?xf32>",
    "!bad.type",
    "memref<*>",
    "vector<0xi1>",
    "i16777216",
    "f13",
    "tensor<-1xf32>",
    "complex<i0x>",
    "()",
    "!llvm.ptr",
    "tensor<?x?x*xf32>",
    "none",
    "vector<[4]xi32>",
    "i32 i32",
    "<>",
    "tuple<>",
    "tensor<4xtensor<?xf32>>",
    "!hal.buffer",
    "memref<?xf32, 99>",
    "vector<4x?xi32>",
    "index<3>",
    "(i32) -> i32",
]
JUNK = [
    "\x00",
    "@",
    "%",
    "^bb0:",
    "}",
    "{",
    '"',
    "loc(",
    "#map",
    "\u2603",
    "\\",
    "\t",
    "/*",
    "//",
    "// -----",
    ":",
    "->",
    "(",
    ")",
    "<",
    ">",
    ",",
    "=",
    "%0 = ",
    "\ufeff",
    "\r",
    "0x",
    "dense<",
    "\u00e9",
    "\U0001f600",
    "...",
    "{{",
    "// expected-error {{x}}",
    "\x7f",
    "%c0",
    "@f",
    "arith.addi",
    'loc("x":1:1)',
    "attributes {a = 1}",
    "#",
    "!",
    "^",
    "  \n  ",
]
BAD_NUMBERS = ["-1", "0", "99999999999999999999", "1.5", "0x7fffffff", "4294967296", "-0", "1e309", "00"]


def _pick(rng, pattern, text):
    matches = list(pattern.finditer(text))
    return rng.choice(matches) if matches else None


def m_truncate_line(rng, text):
    lines = text.splitlines(keepends=True)
    k = rng.randrange(len(lines) + 1)
    return "".join(lines[:k]), f"truncate after line {k}"


def m_truncate_char(rng, text):
    k = rng.randrange(len(text) + 1)
    return text[:k], f"truncate at char {k}"


def m_swap_tokens(rng, text):
    toks = list(_TOKEN.finditer(text))
    if len(toks) < 2:
        return text, "swap tokens (none)"
    a, b = sorted(rng.sample(toks, 2), key=lambda m: m.start())
    out = text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]
    return out, f"swap tokens {a.group()!r} and {b.group()!r}"


def m_delete_token(rng, text):
    m = _pick(rng, _TOKEN, text)
    if not m:
        return text, "delete token (none)"
    return text[: m.start()] + text[m.end() :], f"delete token {m.group()!r} at {m.start()}"


def m_bad_type(rng, text):
    m = _pick(rng, _TYPE, text)
    bad = rng.choice(BAD_TYPES)
    if not m:
        return text + bad, f"append {bad!r}"
    return text[: m.start()] + bad + text[m.end() :], f"type {m.group()!r} -> {bad!r} at {m.start()}"


def m_delete_brace(rng, text):
    where = [i for i, c in enumerate(text) if c in "{}()<>[]"]
    if not where:
        return text, "delete brace (none)"
    i = rng.choice(where)
    return text[:i] + text[i + 1 :], f"delete {text[i]!r} at {i}"


def m_duplicate_line(rng, text):
    lines = text.splitlines(keepends=True)
    if not lines:
        return text, "duplicate line (none)"
    i = rng.randrange(len(lines))
    return "".join(lines[: i + 1] + [lines[i]] + lines[i + 1 :]), f"duplicate line {i + 1}"


def m_delete_line(rng, text):
    lines = text.splitlines(keepends=True)
    if not lines:
        return text, "delete line (none)"
    i = rng.randrange(len(lines))
    return "".join(lines[:i] + lines[i + 1 :]), f"delete line {i + 1}"


def m_swap_lines(rng, text):
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        return text, "swap lines (none)"
    i, j = rng.sample(range(len(lines)), 2)
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines), f"swap lines {i + 1} and {j + 1}"


def m_insert_junk(rng, text):
    i = rng.randrange(len(text) + 1)
    junk = rng.choice(JUNK)
    return text[:i] + junk + text[i:], f"insert {junk!r} at {i}"


def m_rename_ssa(rng, text):
    names = list(_SSA.finditer(text))
    if not names:
        return text, "rename ssa (none)"
    m = rng.choice(names)
    new = rng.choice([n.group() for n in names] + ["%undefined", "%0", "%arg9"])
    return text[: m.start()] + new + text[m.end() :], f"ssa {m.group()!r} -> {new!r} at {m.start()}"


def m_bad_number(rng, text):
    m = _pick(rng, _NUMBER, text)
    bad = rng.choice(BAD_NUMBERS)
    if not m:
        return text, "bad number (none)"
    return text[: m.start()] + bad + text[m.end() :], f"number {m.group()!r} -> {bad!r} at {m.start()}"


MUTATORS = [
    m_truncate_line,
    m_truncate_char,
    m_swap_tokens,
    m_delete_token,
    m_bad_type,
    m_delete_brace,
    m_duplicate_line,
    m_delete_line,
    m_swap_lines,
    m_insert_junk,
    m_rename_ssa,
    m_bad_number,
]


def mutate(rng, name, text):
    steps = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text, what = rng.choice(MUTATORS)(rng, text)
        steps.append(what)
    return text, f"{name}: " + "; ".join(steps)


# --------------------------------------------------------------------------
# Pipelines and flags
# --------------------------------------------------------------------------

# Valid pipelines mixing C++ and Python passes, each with flags it needs.
IR_PIPELINES = [
    ("canonicalize,test-fold-addi-zero,cse", ()),
    ("test-walk-mul-to-add", ()),
    ("builtin.module(func.func(test-tag-func))", ()),
    ("builtin.module(func.func(canonicalize,test-fold-addi-zero),cse)", ()),
    ("test-tag{label=fz count=-3 scale=1e3 flag dims=1,2,3},test-tag-func", ()),
    ("test-fold-addi-zero{fold=true cse-constants=true max-iterations=2 region-simplify=aggressive},symbol-dce", ()),
    ("test-walk-mul-to-add,test-fold-addi-zero{top-down=false}", ("--debug-patterns",)),
    ("", ()),
    ("any(test-tag,cse)", ()),
    ("hal.executable.variant(builtin.module(test-tag{label=inner},canonicalize))", ()),
    ("func.func(test-fold-addi-zero,canonicalize),test-walk-mul-to-add", ()),
    ("test-emit-error", ()),
    ("test-raise-in-pattern", ()),
    ("test-broken-contract", ()),
    ("test-raise-in-pass", ("--debug",)),
    ("test-fold-addi-zero{max-num-rewrites=1 max-iterations=1}", ()),
    ("inline,canonicalize,test-tag", ()),
    # opt-py's own passes, on whatever the mutations leave of their lit inputs
    ("sort-drop-unused-results,gather-to-load,fold-subview-into-gather", ()),
    ("fold-collapse-shape-into-store,fold-collapse-shape-into-generic,canonicalize", ()),
    ("softmax-fuse-elementwise,forall-reuse-shared-outs", ("--debug-patterns",)),
]

# Extra flags; each entry is added as a group.
FLAG_GROUPS = [
    (),
    (),
    (),
    ("--mlir-print-op-generic",),
    ("--mlir-print-debuginfo",),
    ("--mlir-print-local-scope",),
    ("--verify-each=false",),
    ("--mlir-disable-threading",),
    ("--allow-unregistered-dialect",),
    ("--mlir-timing",),
    ("--mlir-pass-statistics",),
    ("--mlir-print-ir-after-change",),
    ("--mlir-print-ir-after-failure",),
    ("--mlir-print-ir-before-all", "--mlir-print-ir-after-all"),
    # Module-scope printing needs threading off (with it on: test_module_scope_ir_printing_with_threading_runs).
    ("--mlir-print-ir-after-all", "--mlir-print-ir-module-scope", "--mlir-disable-threading"),
    ("--emit-bytecode",),
    ("--verify-diagnostics",),
    ("--debug-patterns",),
]

GOOD_PIPELINES = [
    "canonicalize,test-fold-addi-zero,cse",
    "test-walk-mul-to-add",
    "builtin.module(func.func(test-tag-func))",
    "builtin.module(func.func(canonicalize,test-fold-addi-zero),cse)",
    'test-tag{label="a b" count=0x10 scale=-1.5 flag=off dims={4,5}}',
    "hal.executable.variant(builtin.module(test-tag{label=inner}))",
    "builtin.module(hal.executable(hal.executable.variant(builtin.module(func.func(test-tag-func{label=deep})))))",
    "any(test-tag)",
    "affine-loop-invariant-code-motion,test-tag-func{label=c}",
]

BAD_PIPELINES = [
    "a,,b",
    ",",
    "canonicalize,",
    ",cse",
    "(",
    ")",
    "((",
    "))",
    "builtin.module(",
    "builtin.module)",
    "builtin.module(func.func(canonicalize)",
    "builtin.module(func.func(canonicalize)))",
    "{",
    "}",
    "test-tag{",
    "test-tag}",
    "test-tag{}}",
    "test-tag{{}",
    'test-tag{label="x}',
    "test-tag{label='x}",
    "test-tag{label=(}",
    "test-tag{label=[}",
    "canonicalise",
    "no-such-pass",
    "test-tag-fnuc",
    "cse-but-not",
    "test-tag{count=lots}",
    "test-tag{count=1.5}",
    "test-tag{scale=abc}",
    "test-tag{flag=maybe}",
    "test-tag{dims=1,x}",
    "test-tag{dims=[1,2]}",
    "test-tag{colour=red}",
    "test-tag{=1}",
    "test-tag{ = }",
    "cse{foo=1}",
    "canonicalize{max-iterations=abc}",
    "canonicalize{top-down=maybe}",
    "canonicalize{region-simplify=foo}",
    "canonicalize{max-iterations=99999999999999999999}",
    "test-fold-addi-zero{region-simplify=bogus}",
    "test-fold-addi-zero{max-iterations=99999999999999999999}",
    "test-fold-addi-zero{fold=2}",
    "builtin.module(test-tag-func)",
    "any(test-tag-func)",
    "any(any(cse))",
    "builtin.module(any(cse))",
    "func.func(builtin.module(test-tag))",
    "builtin.module(func.func(cse)),cse",
    "ünïcödé",
    "test-tag{label=ü☃}",
    "cse,\u00a0canonicalize",
    "cs\u0435",
    "test‐tag",
    "\U0001f600",
    "builtin.module(func.func(test-tag-func{label=x}),func.func(cse),)",
    "inline{op-pipelines=func.func(test-tag)}",
    "inline{default-pipeline=canonicalize(}",
    "test-tag test-tag",
    "test-tag;cse",
    "builtin.module()()",
    "func.func()",
    "  ,  ",
    "builtin.module(func.func(canonicalize{max-iterations=1}, test-fold-addi-zero{max-iterations=1}))",
]

PIPELINE_JUNK = list("(){},=\"' ;:") + ["ü", "\t", "()", "{}", ",,", "func.func(", ")", "\u2603"]


def mutate_pipeline(rng, text):
    what = rng.choice(["delete", "insert", "duplicate", "truncate"])
    if not text:
        return rng.choice(PIPELINE_JUNK), "junk"
    i = rng.randrange(len(text))
    if what == "delete":
        return text[:i] + text[i + 1 :], f"delete {text[i]!r} at {i}"
    if what == "insert":
        j = rng.choice(PIPELINE_JUNK)
        return text[:i] + j + text[i:], f"insert {j!r} at {i}"
    if what == "duplicate":
        k = rng.randrange(i, len(text) + 1)
        return text[:k] + text[i:k] + text[k:], f"duplicate {text[i:k]!r}"
    return text[:i], f"truncate at {i}"


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    args: tuple[str, ...]  # everything after the program name; "{input}" and "{dir}" are filled in
    data: bytes | None = None  # written to {input}, or fed to stdin when `stdin`
    stdin: bool = False
    note: str = ""
    roundtrip: bool = False  # on success, the output must be accepted again
    extra_files: tuple[tuple[str, bytes], ...] = ()

    def __repr__(self):  # keeps pytest's ids and messages short
        return f"Case({self.id})"


def _n(count: int) -> int:
    return max(1, round(count * SCALE))


def _rng(case_id: str) -> random.Random:
    """Each case draws from its own generator: it reproduces from its id alone."""
    return random.Random(f"{SEED}:{case_id}")


def build_cases() -> list[Case]:
    seeds = seed_texts()
    names = sorted(seeds)
    cases: list[Case] = []

    # Batches: many mutated chunks in one input, one process.
    for b in range(_n(40)):
        rng = _rng(f"batch-{b:02d}")
        pipeline, needs = rng.choice(IR_PIPELINES)
        flags = tuple(needs) + rng.choice(FLAG_GROUPS)
        chunks, notes = [], []
        for _ in range(rng.randint(4, 9)):
            name = rng.choice(names)
            text, note = mutate(rng, name, seeds[name])
            chunks.append(text)
            notes.append(note)
        if rng.random() < 0.25:  # an unmutated chunk, so some batches succeed
            name = rng.choice(names)
            chunks.append(seeds[name])
            notes.append(f"{name}: unmutated")
        data = "\n// -----\n".join(chunks).encode()
        args = ("{input}", f"--pipeline={pipeline}", "--split-input-file", *flags)
        roundtrip = not {"--emit-bytecode", "--verify-diagnostics", "--verify-each=false"} & set(flags)
        cases.append(Case(f"batch-{b:02d}", args, data, note="\n".join(notes), roundtrip=roundtrip))

    # Clean batches: chunks that parse, so the passes' success path runs and
    # the output must parse again.
    chunks_ok = valid_chunks(seeds)
    for b in range(_n(12)):
        rng = _rng(f"clean-{b:02d}")
        pipeline, needs = rng.choice(IR_PIPELINES)
        flags = tuple(needs) + rng.choice(FLAG_GROUPS)
        picked = rng.sample(chunks_ok, min(len(chunks_ok), rng.randint(3, 8)))
        data = "\n// -----\n".join(text for _, text in picked).encode()
        args = ("{input}", f"--pipeline={pipeline}", "--split-input-file", *flags)
        roundtrip = not {"--emit-bytecode", "--verify-diagnostics", "--verify-each=false"} & set(flags)
        note = "unmutated chunks of " + ", ".join(name for name, _ in picked)
        cases.append(Case(f"clean-{b:02d}", args, data, note=note, roundtrip=roundtrip))

    # Single inputs, from a file (parsed with parseFile) or from stdin.
    for s in range(_n(30)):
        rng = _rng(f"single-{s:02d}")
        pipeline, needs = rng.choice(IR_PIPELINES)
        flags = tuple(needs) + rng.choice(FLAG_GROUPS)
        name = rng.choice(names)
        text, note = mutate(rng, name, seeds[name])
        stdin = rng.random() < 0.4
        args = ("-" if stdin else "{input}", f"--pipeline={pipeline}", *flags)
        cases.append(Case(f"single-{s:02d}", args, text.encode(), stdin=stdin, note=note))

    # Pipelines: hand-written bad ones, mutated good ones, and the good ones.
    target = _strip_comments((LIT / "tool" / "nesting.mlir").read_text()).encode()
    pipelines = [(p, "hand-written") for p in BAD_PIPELINES]
    for m in range(_n(20)):
        rng = _rng(f"pipeline-mutant-{m}")
        base = rng.choice(GOOD_PIPELINES)
        text, note = mutate_pipeline(rng, base)
        pipelines.append((text, f"{base!r}: {note}"))
    pipelines += [(p, "good") for p in GOOD_PIPELINES]
    pipelines += [
        ("func.func(" * 40 + "cse" + ")" * 40, "nested 40 deep"),
        ("test-tag," * 60 + "cse", "60 passes"),
    ]
    for i, (p, note) in enumerate(pipelines):
        cases.append(Case(f"pipeline-{i:02d}", ("{input}", f"--pipeline={p}"), target, note=note))

    # Inputs that are not text IR, and odd command lines.
    good = (LIT / "tool" / "print-flags.mlir").read_bytes()
    cases += [
        Case("misc-empty", ("-", "--pipeline=canonicalize,test-tag"), b"", stdin=True),
        Case("misc-blank", ("-", "--pipeline=test-tag-func"), b" \n\t\n", stdin=True),
        Case("misc-only-markers", ("-", "--split-input-file", "--pipeline=cse"), b"// -----\n// -----\n", stdin=True),
        Case("misc-invalid-utf8", ("{input}", "--pipeline=test-tag"), b"func.func @\xff\xfe() {\n  return\n}\n"),
        Case("misc-nul", ("-", "--pipeline=test-fold-addi-zero"), b"func.func @f() {\x00\n  return\n}\n", stdin=True),
        Case("misc-crlf", ("{input}", "--pipeline=test-walk-mul-to-add"), good.replace(b"\n", b"\r\n")),
        Case("misc-bom", ("{input}",), b"\xef\xbb\xbf" + good),
        Case("misc-bytecode-magic-only", ("-",), b"ML\xefR", stdin=True),
        Case("misc-bytecode-junk", ("-", "--pipeline=test-tag"), b"ML\xefR\x06\x00junkjunk", stdin=True),
        Case("misc-bytecode-split", ("-", "--split-input-file"), b"ML\xefR\x00\x01\x02", stdin=True),
        Case("misc-missing-input", ("{dir}/does-not-exist.mlir",)),
        Case("misc-directory-input", ("{dir}",)),
        Case("misc-unwritable-output", ("{input}", "-o", "{dir}/no/such/dir/out.mlir"), good),
        Case("misc-bad-bool-flag", ("{input}", "--verify-each=maybe"), good),
        Case("misc-plugin-not-python", ("{input}", "--load-pass-plugin={input}"), good),
        Case(
            "misc-plugin-syntax-error",
            ("{input}", "--load-pass-plugin={dir}/broken_plugin.py"),
            good,
            extra_files=(("broken_plugin.py", b"def (:\n"),),
        ),
        Case(
            "misc-verify-far-line",
            ("{input}", "--verify-diagnostics", "--pipeline=test-emit-error"),
            b"// expected-error@+99999999 {{x}}\n// expected-error@-99999999 {{y}}\nfunc.func @f() {\n  return\n}\n",
        ),
    ]
    # Serialized bytecode, truncated. (Bytes flipped at random are left out on
    # purpose: MLIR's bytecode reader corrupts the heap on some of them, e.g.
    # print-flags.mlir's bytecode with byte 46 set to 0x72 aborts iree-opt
    # too, and opt-py dies with SIGSEGV or SIGABRT at random.)
    bytecode = _bytecode(good)
    rng = _rng("bytecode")
    for k in sorted(rng.sample(range(1, len(bytecode)), min(_n(8), len(bytecode) - 1))):
        cases.append(Case(f"misc-bytecode-cut-{k}", ("-", "--pipeline=test-fold-addi-zero"), bytecode[:k], stdin=True))
    return cases


def _bytecode(text: bytes) -> bytes:
    """The bytecode of ``text``, made with the bindings (no subprocess)."""
    import io

    from iree.compiler import ir

    with ir.Context():
        module = ir.Module.parse(text.decode())
        buf = io.BytesIO()
        module.operation.write_bytecode(buf)
        return buf.getvalue()


CASES = build_cases()

# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


@dataclass
class Result:
    rc: int | None  # None: timed out
    stdout: bytes
    stderr: bytes
    seconds: float
    command: list[str]
    roundtrip: Result | None = None


def run_opt_py(args, data=None, stdin=False, timeout=TIMEOUT_S) -> Result:
    cmd = ["/bin/sh", "-c", LIMITS, "sh", *OPT_PY, *args]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            cmd, input=data if stdin else b"", capture_output=True, env=ENV, timeout=timeout, check=False
        )
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = None, e.stdout or b"", e.stderr or b""
    return Result(rc, out, err, time.monotonic() - start, [*OPT_PY, *args])


def run_case(case: Case, directory: Path) -> Result:
    path = directory / f"{case.id}.mlir"
    if case.data is not None and not case.stdin:
        path.write_bytes(case.data)
    for name, content in case.extra_files:
        (directory / name).write_bytes(content)
    args = [a.replace("{input}", str(path)).replace("{dir}", str(directory)) for a in case.args]
    res = run_opt_py(args, case.data, case.stdin)
    if case.roundtrip and res.rc == 0:
        again = ["-", *(a for a in args if a in ("--split-input-file", "--allow-unregistered-dialect"))]
        res.roundtrip = run_opt_py(again, res.stdout, stdin=True)
    return res


@pytest.fixture(scope="module")
def results(request, tmp_path_factory):
    """Run every selected case once, in parallel; tests then check one result each."""
    wanted = [
        item.callspec.params["case"]
        for item in request.session.items
        if isinstance(getattr(getattr(item, "callspec", None), "params", {}).get("case"), Case)
    ]
    directory = tmp_path_factory.mktemp("fuzz")
    with ThreadPoolExecutor(WORKERS) as pool:
        done = pool.map(lambda c: run_case(c, directory), wanted)
        return {c.id: r for c, r in zip(wanted, done)}


def _show(data: bytes | None, limit=6000) -> str:
    if data is None:
        return "<none>"
    text = data.decode("utf-8", errors="backslashreplace")
    text = "".join(c if c in "\n\t" or c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more characters)"


def describe(case: Case, res: Result) -> str:
    return "\n".join(
        [
            f"case {case.id} (seed {SEED}): {case.note}",
            "command: " + " ".join(shlex.quote(a) for a in res.command) + ("  < INPUT" if case.stdin else ""),
            f"exit status: {res.rc}  ({res.seconds:.1f}s)",
            "----- input -----",
            _show(case.data),
            "----- stderr (tail) -----",
            _show(res.stderr[-4000:]),
        ]
    )


# Signatures of open core bugs, each with a test that pins it (none open now):
# a random case that runs into one is reported as xfailed, naming that test.
KNOWN_BUGS: list[tuple[bytes, str]] = []


def check(case: Case, res: Result, debug: bool):
    def fail(why):
        for signature, test in KNOWN_BUGS:
            if signature in res.stderr:
                pytest.xfail(f"known core bug, pinned by {test}: {why}")
        pytest.fail(f"{why}\n{describe(case, res)}", pytrace=False)

    if res.rc is None:
        fail(f"timed out after {TIMEOUT_S}s")
    if res.rc < 0:
        fail(f"killed by signal {-res.rc}")
    if res.rc not in (0, 1):
        fail(f"exit status {res.rc}, expected 0 or 1")
    if res.rc == 1 and b"error:" not in res.stderr:
        fail("failed without an 'error:' diagnostic")
    if res.rc == 1 and res.stdout:
        fail("failed but wrote output")
    if not debug and b"Traceback" in res.stderr:
        fail("Python traceback without --debug")
    rt = res.roundtrip
    if rt is not None and (rt.rc != 0 or b"Traceback" in rt.stderr):
        fail(
            f"the output does not parse again (exit {rt.rc}):\n{_show(rt.stderr[-3000:])}\n"
            f"----- output -----\n{_show(res.stdout)}"
        )


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_no_crash(case, results):
    check(case, results[case.id], debug="--debug" in case.args)


def test_case_ids_are_unique():
    assert len({c.id for c in CASES}) == len(CASES)


def test_generation_is_deterministic():
    again = build_cases()
    assert [(c.id, c.args, c.data) for c in again] == [(c.id, c.args, c.data) for c in CASES]


# --------------------------------------------------------------------------
# Crashes found in the core, now fixed: each test says what must happen instead
# --------------------------------------------------------------------------

SMALL = b"""\
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  return %b : i32
}
"""


def _single(case_id, args, data=SMALL, stdin=True, debug=False, tmp_path=None):
    case = Case(case_id, tuple(args), data, stdin=stdin)
    res = run_case(case, tmp_path)
    check(case, res, debug)
    return res


def test_module_scope_ir_printing_with_threading_runs(tmp_path):
    """MLIR aborts on module-scope IR printing with threads on; opt-py turns them off and prints."""
    res = _single(
        "xf-module-scope",
        ["-", "--pipeline=canonicalize", "--mlir-print-ir-after-all", "--mlir-print-ir-module-scope"],
        tmp_path=tmp_path,
    )
    assert res.rc == 0 and b"// -----// IR Dump After CanonicalizerPass" in res.stderr, res.stderr[-2000:]
    assert b"func.func @f" in res.stdout


def test_deeply_nested_pipeline_is_a_diagnostic(tmp_path):
    pipeline = "func.func(" * 600 + "cse" + ")" * 600
    res = _single("xf-deep-pipeline", ["-", f"--pipeline={pipeline}"], tmp_path=tmp_path)
    assert res.rc == 1 and b"error: pipeline:1:641: pipeline nests deeper than 64 levels" in res.stderr, res.stderr[
        :2000
    ]


def test_caret_for_a_huge_column_is_bounded(tmp_path):
    data = b'func.func @f() {\n  return\n} loc("-":1:20000000)\n'
    res = _single("xf-huge-column", ["-", "--pipeline=test-emit-error"], data, tmp_path=tmp_path)
    assert len(res.stderr) < 100_000, f"{len(res.stderr)} bytes on stderr"


def test_bare_cpp_pass_is_not_run_on_a_dummy_module(tmp_path):
    _single("xf-probe-crash", ["-", "--pipeline=iree-transform-dialect-drop-schedule"], tmp_path=tmp_path)


def test_bare_variant_pipeline_does_not_abort(tmp_path):
    data = (LIT / "tool" / "nesting.mlir").read_bytes()
    _single(
        "xf-probe-abort", ["-", "--pipeline=iree-codegen-configuration-preprocessing-pipeline"], data, tmp_path=tmp_path
    )


def test_deeply_nested_ir_does_not_segfault(tmp_path):
    n = 5000
    data = ("func.func @f() {\n" + '"scf.execute_region"() ({\n' * n + "}) : () -> ()\n" * n + "return\n}\n").encode()
    _single("xf-deep-ir", ["-"], data, tmp_path=tmp_path)


def test_bytecode_with_non_utf8_strings_is_a_diagnostic(tmp_path):
    bytecode = _bytecode(SMALL)
    assert b"arith\x00" in bytecode
    _single("xf-bytecode-utf8", ["-"], bytecode.replace(b"arith\x00", b"ar\xffth\x00"), tmp_path=tmp_path)


def test_invalid_regex_in_an_expectation_is_an_error(tmp_path):
    data = b"// expected-error-re@+1 {{{{[}}}}\nfunc.func @f() {\n  return\n}\n"
    _single("xf-bad-regex", ["-", "--verify-diagnostics"], data, tmp_path=tmp_path)


def test_debug_patterns_names_stdin_like_diagnostics_do(tmp_path):
    data = SMALL.replace(b"return %b", b"%x = arith.addi %b, %a : i32\n  return %x")
    res = _single(
        "xf-debug-patterns-stdin", ["-", "--pipeline=test-fold-addi-zero", "--debug-patterns"], data, tmp_path=tmp_path
    )
    assert b"applied to 'arith.addi' at <stdin>:3:8" in res.stderr, res.stderr.decode()
