"""Bundles: modules compiled here, run elsewhere with only iree.runtime + numpy.

A CPU bundle stands in for a GPU one: it is written by opt_py.execution.bundle_write and run
by opt_py.execution.bundle_run (and by the copy of it inside the bundle) in a child
Python where importing iree.compiler fails, so the runner is proven to need
no compiler.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import opt_py
import pytest
from opt_py.execution import bundle_write as bundle
from opt_py.tool import cli
from opt_py.tool.bundle import bundle_main

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "models"
LIBRARY = ROOT / "library_models"
PLUGIN_SITE = ROOT / "plugins" / "site"
OPT_PY_PATH = os.path.dirname(os.path.dirname(os.path.abspath(opt_py.__file__)))  # where opt_py is found

# Makes any import of the packages in $BLOCK_IMPORTS fail, then runs argv[1:]
# like `python -m` / `python FILE`.
NO_COMPILER = r"""
import os, sys
BLOCKED = os.environ["BLOCK_IMPORTS"].split(",")
class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            raise ImportError(f"{name} is blocked: the runner must not need it")
sys.meta_path.insert(0, Block())
import runpy
args = sys.argv[1:]
if args[0] == "-m":
    sys.argv = [args[1]] + args[2:]
    runpy.run_module(args[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = args
    runpy.run_path(args[0], run_name="__main__")
"""

CASES = ["softmax_masked_gate", "moe_router", "argsort_static", "gather_dim1"]
SORT_FIX = "executable-sources:sort-drop-unused-results"


def run_without_compiler(*args, pythonpath=None, block=("iree.compiler",), cwd=None):
    env = dict(os.environ, BLOCK_IMPORTS=",".join(block))
    if pythonpath is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run(
        [sys.executable, "-c", NO_COMPILER, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def cpu_bundle(tmp_path_factory):
    """The corpus sample for cpu: stock, the sort fix, and a pass that breaks addf on purpose."""
    # test-addf-to-subf: its plugin (PLUGIN_SITE) is on sys.path (pyproject.toml's pytest `pythonpath`)
    out = tmp_path_factory.mktemp("bundle")
    variants = [
        bundle.STOCK,
        bundle.Variant("opt-py", (SORT_FIX,)),
        bundle.Variant("broken", ("executable-sources:test-addf-to-subf",)),
    ]
    manifest = bundle.write_bundle(out, bundle.corpus_cases(CORPUS, names=CASES), target="cpu", variants=variants)
    return out, manifest


def test_manifest_lists_every_case_and_variant(cpu_bundle):
    out, manifest = cpu_bundle
    assert manifest == json.loads((out / "manifest.json").read_text())
    assert [c["name"] for c in manifest["cases"]] == sorted(CASES)
    for c in manifest["cases"]:
        assert set(c["modules"]) == {"stock", "opt-py", "broken"}
        for v, m in c["modules"].items():
            if (c["name"], v) == ("moe_router", "broken"):
                assert "expected add/mul op in the body" in m["compile_error"]
            else:
                assert (out / m["vmfb"]).stat().st_size > 0
        for rel in c["inputs"] + c["expected"]:
            assert (out / rel).exists()
    known = {c["name"]: c["known"]["stock"] for c in manifest["cases"]}
    assert known == {
        "moe_router": "wrong",
        "softmax_masked_gate": "right",
        "argsort_static": "right",
        "gather_dim1": "right",
    }
    assert (out / "run_bundle.py").read_text() == (Path(bundle.__file__).with_name("bundle_run.py")).read_text()


def _results(out):
    return {(r["case"], r["variant"]): r for r in json.loads((out / "results.json").read_text())["results"]}


def test_runner_without_compiler_sees_known_and_new_wrong_numbers(cpu_bundle):
    out, _ = cpu_bundle
    proc = run_without_compiler(
        "-m", "opt_py.execution.bundle_run", str(out), "--device", "local-task", pythonpath=OPT_PY_PATH
    )
    assert "is blocked" not in proc.stderr, proc.stderr
    # compiled with addf -> subf, softmax_masked_gate is wrong where stock is right (a surprise:
    # exit 1) and moe_router does not compile (its scatter's region is no longer add/mul)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    r = _results(out)
    assert r[("moe_router", "stock")]["outcome"] == "wrong" and r[("moe_router", "stock")]["as_expected"]
    assert r[("softmax_masked_gate", "broken")]["outcome"] == "wrong"
    assert not r[("softmax_masked_gate", "broken")]["as_expected"]
    assert r[("moe_router", "broken")]["outcome"] == "compile-error"
    for name in ("softmax_masked_gate", "argsort_static", "gather_dim1"):
        assert r[(name, "stock")]["outcome"] == "right"
        assert r[(name, "opt-py")]["outcome"] == "right"
    assert "| softmax | broken | 0 | 1 | 0 |" in proc.stdout
    assert "| scatter | broken | 0 | 0 | 1 |" in proc.stdout
    assert "| scatter | stock | 0 | 1 | 0 |" in proc.stdout
    assert "| **all** | stock | 3 | 1 | 0 |" in proc.stdout


def test_copied_runner_needs_no_opt_py(cpu_bundle, tmp_path):
    """DIR/run_bundle.py alone (opt_py and the compiler blocked) runs the
    bundle; stock only, so every outcome is the expected one: exit 0."""
    out, _ = cpu_bundle
    results = tmp_path / "r.json"
    proc = run_without_compiler(
        str(out / "run_bundle.py"),
        str(out),
        "--variant",
        "stock",
        "-o",
        str(results),
        pythonpath="",
        block=("iree.compiler", "opt_py"),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = json.loads(results.read_text())
    assert got["surprises"] == 0 and got["device"] == "local-task"
    assert "timing" not in got and "| case | variant | min ms" not in proc.stdout  # no --time, no timing
    assert {(r["case"], r["outcome"]) for r in got["results"]} == {
        ("moe_router", "wrong"),
        ("softmax_masked_gate", "right"),
        ("argsort_static", "right"),
        ("gather_dim1", "right"),
    }


def test_isolated_runs_agree(cpu_bundle, tmp_path):
    out, _ = cpu_bundle
    results = tmp_path / "r.json"
    proc = run_without_compiler(
        "-m",
        "opt_py.execution.bundle_run",
        str(out),
        "--isolate",
        "--case",
        "moe_router",
        "--case",
        "softmax_masked_gate",
        "-o",
        str(results),
        pythonpath=OPT_PY_PATH,
    )
    assert proc.returncode == 1, proc.stderr  # the broken variant
    got = {(r["case"], r["variant"]): r["outcome"] for r in json.loads(results.read_text())["results"]}
    assert got == {
        ("moe_router", "stock"): "wrong",
        ("moe_router", "opt-py"): "wrong",
        ("moe_router", "broken"): "compile-error",
        ("softmax_masked_gate", "stock"): "right",
        ("softmax_masked_gate", "opt-py"): "right",
        ("softmax_masked_gate", "broken"): "wrong",
    }


def test_runner_rejects_unknown_variant_and_missing_device(cpu_bundle):
    out, _ = cpu_bundle
    proc = run_without_compiler(
        "-m", "opt_py.execution.bundle_run", str(out), "--variant", "nope", pythonpath=OPT_PY_PATH
    )
    assert proc.returncode == 2 and "not in this bundle: nope" in proc.stderr
    proc = run_without_compiler(
        "-m", "opt_py.execution.bundle_run", str(out), "--device", "cuda", pythonpath=OPT_PY_PATH
    )
    if proc.returncode != 2:
        pytest.skip("a cuda device is present here")
    assert "cannot open device 'cuda'" in proc.stderr


def test_compile_errors_are_recorded_and_counted_failed(tmp_path):
    """A cuda bundle of argsort: stock IREE does not compile it (failed to
    bufferize), the sort fix does; the runner counts the stock one failed."""
    cases = bundle.corpus_cases(CORPUS, names=["argsort_static"])
    manifest = bundle.write_bundle(
        tmp_path, cases, target="cuda", variants=[bundle.STOCK, bundle.Variant("opt-py", (SORT_FIX,))]
    )
    (case,) = manifest["cases"]
    assert "failed to bufferize op" in case["modules"]["stock"]["compile_error"]
    assert (tmp_path / case["modules"]["opt-py"]["vmfb"]).stat().st_size > 0
    assert case["known"] == {"stock": "compile-error"}
    # bundle_run.run_one reports a compile error without touching any device
    from opt_py.execution import bundle_run

    r = bundle_run.run_one(str(tmp_path), case, "stock", "cuda")
    assert r["outcome"] == "compile-error"
    rows = bundle_run.summarize(
        [
            {"family": "topk", "variant": "stock", "outcome": "compile-error"},
            {"family": "topk", "variant": "opt-py", "outcome": "run-error"},
        ],
        ["stock", "opt-py"],
    )
    assert [(r["variant"], r["right"], r["wrong"], r["failed"]) for r in rows] == [
        ("stock", 0, 0, 1),
        ("opt-py", 0, 0, 1),
    ]


def test_bundle_main_writes_a_runnable_bundle(tmp_path, capsys):
    out = tmp_path / "b"
    rc = bundle_main(
        ["-o", str(out), "--target", "cpu", "--corpus", str(CORPUS), "--case", "gather_dim1", "--inject", SORT_FIX]
        + ["--no-fixes"]
    )
    assert rc == 0
    assert "1 cases x 2 variants for cpu (0 did not compile)" in capsys.readouterr().out
    m = json.loads((out / "manifest.json").read_text())
    assert m["variants"]["opt-py"]["inject"] == [SORT_FIX] and m["variants"]["stock"]["inject"] == []
    from opt_py.execution import bundle_run

    assert bundle_run.main([str(out)]) == 0
    assert all(r["outcome"] == "right" for r in json.loads((out / "results.json").read_text())["results"])


def test_bundle_main_unknown_case(tmp_path, capsys):
    assert bundle_main(["-o", str(tmp_path), "--target", "cpu", "--corpus", str(CORPUS), "--case", "nope"]) == 1
    assert "no such cases" in capsys.readouterr().err


def test_the_corpus_is_found_by_option_environment_or_current_directory(tmp_path, monkeypatch, capsys):
    """Not by where the package sits: --corpus DIR, else $OPT_PY_CORPUS, else test/models here."""
    monkeypatch.delenv(bundle.CORPUS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert bundle_main(["-o", str(tmp_path / "b"), "--target", "cpu", "--case", "gather_dim1"]) == 1
    err = capsys.readouterr().err
    assert "no model corpus at 'test/models': give --corpus DIR or set OPT_PY_CORPUS" in err, err
    monkeypatch.setenv(bundle.CORPUS_ENV, str(CORPUS))
    assert [c.name for c in bundle.corpus_cases(names=["gather_dim1"])] == ["gather_dim1"]
    monkeypatch.delenv(bundle.CORPUS_ENV)
    monkeypatch.chdir(ROOT.parent)
    here = [c.name for c in bundle.corpus_cases(families=["gather"])]
    assert here and here == [c.name for c in bundle.corpus_cases(CORPUS, families=["gather"])]


def test_generators_are_the_ones_the_caller_passes(tmp_path, capsys):
    """bundle_main knows no generator of its own: the command passes cases.generators()."""
    from opt_py.cases import generators

    argv = ["-o", str(tmp_path / "b"), "--target", "cpu", "--no-corpus", "--generator", "scatter=1"]
    assert bundle_main(argv) == 1
    assert "no generator 'scatter' (generators: none)" in capsys.readouterr().err
    assert cli.bundle_main([*argv[:-1], "nope=1"]) == 1
    assert "no generator 'nope' (generators: scatter, reshape-store, topk, scan)" in capsys.readouterr().err
    assert set(generators()) == {"scatter", "reshape-store", "topk", "scan"}


def test_compare_outputs_tolerance_and_shape():
    from opt_py.execution.bundle_run import compare_outputs

    ref = [np.array([1.0, 2.0], np.float32)]
    assert compare_outputs([np.array([1.0, 2.00001], np.float32)], ref, 1e-4, 0)[0]
    same, why = compare_outputs([np.array([1.0, 2.1], np.float32)], ref, 1e-4, 0)
    assert not same and "1/2 differ" in why
    assert not compare_outputs([np.array([1.0, 2.0], np.float64)], ref, 1e-4, 0)[0]
    assert not compare_outputs([], ref, 1e-4, 0)[0]


def test_opt_py_bundle_with_fixes_and_a_generator(tmp_path):
    """The command: stock and --fixes variants by default, generated programs beside the corpus;
    the fixes make the MoE router right where stock is pinned wrong."""
    out = tmp_path / "b"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "opt_py",
            "bundle",
            "-o",
            str(out),
            "--target",
            "cpu",
            "--case",
            "moe_router",
            "--generator",
            "scatter=2",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        cwd=ROOT.parent,  # the corpus's default place: test/models under the current directory
    )
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert set(manifest["variants"]) == {"stock", "fixes"}
    assert [c["name"] for c in manifest["cases"]] == ["moe_router", "scatter_0", "scatter_1"]
    run = run_without_compiler(
        str(out / "run_bundle.py"),
        str(out),
        "--device",
        "local-task",
        block=("iree.compiler", "opt_py"),
        cwd=str(tmp_path),
    )
    assert run.returncode == 0, run.stdout + run.stderr
    results = {
        (r["case"], r["variant"]): r["outcome"] for r in json.loads((out / "results.json").read_text())["results"]
    }
    assert results[("moe_router", "stock")] == "wrong" and results[("moe_router", "fixes")] == "right"
    assert results[("scatter_0", "fixes")] == results[("scatter_1", "fixes")] == "right"


def test_bundle_rejects_a_malformed_generator(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "opt_py",
            "bundle",
            "-o",
            str(tmp_path / "b"),
            "--target",
            "cpu",
            "--no-corpus",
            "--generator",
            "scatter",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "--generator expects NAME=N" in proc.stderr and "Traceback" not in proc.stderr


def test_topk_generator_cases_are_exact_and_cover_the_gpu_forms():
    """Distinct values per row make numpy's top-k the only right answer for any comparator; the sample
    reaches the GPU forms (2k < width, k <= 64), k = width, dynamic batches of 1 and both comparators."""
    from opt_py.cases import topk

    cases = [topk.random_case(s) for s in range(60)]
    for c in cases[:12]:
        (x,) = topk.inputs(c)
        assert all(len(set(r)) == len(r) for r in x.tolist())
        assert not topk.check(c.variant, x, topk.expected(c, [x]))
    assert any(2 * c.variant.k < c.variant.width and c.variant.k <= 64 for c in cases)
    assert any(c.variant.width == 1024 and 1 < c.variant.k <= 64 and not c.strict for c in cases)  # GPU chunks
    assert any(c.variant.k == c.variant.width for c in cases)
    assert any(c.variant.batch is None and c.rows == 1 for c in cases)
    assert {c.strict for c in cases} == {True, False}
    exported = next(c for c in cases if not c.strict)
    assert "ge," in topk.program(exported) or "le," in topk.program(exported)


def test_opt_py_bundle_topk_generator_runs_right(tmp_path):
    out = tmp_path / "b"
    rc = cli.bundle_main(["-o", str(out), "--target", "cpu", "--no-corpus", "--generator", "topk=3"])
    assert rc == 0
    from opt_py.execution import bundle_run

    assert bundle_run.main([str(out), "-o", str(tmp_path / "r.json")]) == 0
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert len(results) == 6 and {r["outcome"] for r in results if r["variant"] == "fixes"} == {"right"}


# --------------------------------------------------------------------------
# fixes-minus-one variants and timing
# --------------------------------------------------------------------------

QUICK = ["--rounds", "2", "--reps", "1", "--min-time", "0.005"]  # seconds, not a measurement


@pytest.fixture(scope="module")
def minus_bundle(tmp_path_factory):
    """The MoE router for cpu with --fixes and a fixes-minus-NAME per fix that rewrote it."""
    out = tmp_path_factory.mktemp("minus")
    cases = bundle.corpus_cases(CORPUS, names=["moe_router"])
    manifest = bundle.write_bundle(out, cases, target="cpu", variants=[bundle.FIXES], minus_one_fixes=True)
    return out, manifest


def test_a_variant_per_fix_that_rewrote_the_case(minus_bundle):
    """Only the fixes that rewrote something in the case's --fixes compile get a variant without them;
    the manifest says, per case, which fix each leaves out and what the fixes rewrote."""
    out, manifest = minus_bundle
    (case,) = manifest["cases"]
    rewrote = case["modules"]["fixes"]["rewrote"]
    assert rewrote == {"sort-slice-to-topk": 1, "clone-splat-dispatch-per-tied-use": 1}
    minus = {v: m for v, m in case["modules"].items() if v != "fixes"}
    assert {v: m["leaves_out"] for v, m in minus.items()} == {f"fixes-minus-{name}": [name] for name in rewrote}
    assert all(
        (out / m["vmfb"]).read_bytes() != (out / case["modules"]["fixes"]["vmfb"]).read_bytes() for m in minus.values()
    )
    assert manifest["variants"]["fixes-minus-sort-slice-to-topk"]["leaves_out"] == ["sort-slice-to-topk"]
    assert manifest["variants"]["fixes"]["leaves_out"] == []


def test_minus_one_needs_the_fixes_variant(tmp_path):
    with pytest.raises(bundle.OptPyError, match="keep it"):
        bundle.write_bundle(tmp_path, [], target="cpu", variants=[bundle.STOCK], minus_one_fixes=True)
    proc = subprocess.run(
        [sys.executable, "-m", "opt_py", "bundle", "-o", str(tmp_path), "--no-fixes", "--fixes-minus-one"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "drop --no-fixes" in proc.stderr


def test_time_gives_every_module_a_time_against_fixes_and_each_fix_its_cost(minus_bundle, tmp_path):
    """run_bundle.py --time (only the runtime and numpy: opt_py and the compiler blocked): each variant's
    times, its median against fixes', and per fix fixes / fixes-minus-NAME, also in results.json."""
    out, _ = minus_bundle
    results = tmp_path / "r.json"
    proc = run_without_compiler(
        str(out / "run_bundle.py"),
        str(out),
        "--time",
        *QUICK,
        "-o",
        str(results),
        pythonpath="",
        block=("iree.compiler", "opt_py"),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    timing = json.loads(results.read_text())["timing"]
    assert (timing["rounds"], timing["reps"]) == (2, 1) and os.path.basename(timing["tool"]) == "iree-benchmark-module"
    rows = {r["variant"]: r for r in timing["rows"]}
    assert set(rows) == {"fixes", "fixes-minus-sort-slice-to-topk", "fixes-minus-clone-splat-dispatch-per-tied-use"}
    for r in rows.values():
        assert len(r["times"]) == 2 and 0 < r["min"] <= r["median"] < 1, r
        assert r["vs_fixes"] == pytest.approx(r["median"] / rows["fixes"]["median"]) and "vs_stock" not in r
    costs = {c["fix"]: c for c in timing["fix_costs"]}
    assert set(costs) == {"sort-slice-to-topk", "clone-splat-dispatch-per-tied-use"}
    assert costs["sort-slice-to-topk"]["geomean"] == pytest.approx(
        1 / rows["fixes-minus-sort-slice-to-topk"]["vs_fixes"]
    )
    assert "| moe_router | fixes | " in proc.stdout and "| sort-slice-to-topk | 1 | " in proc.stdout


def test_time_reports_a_module_that_faults_or_cannot_load_and_goes_on(cpu_bundle, tmp_path):
    """A module iree-benchmark-module cannot run is that module's error in the table, not the runner's end
    (the check counts it failed: exit 1); a tool that dies of a signal is reported as a fault."""
    from opt_py.execution import bundle_run

    out, manifest = cpu_bundle
    case = next(c for c in manifest["cases"] if c["name"] == "gather_dim1")
    case = dict(case, modules={"stock": case["modules"]["stock"], "broken": {"vmfb": "cases/gather_dim1/broken.vmfb"}})
    (tmp_path / "cases" / "gather_dim1").mkdir(parents=True)
    for rel in case["inputs"] + case["expected"] + [case["modules"]["stock"]["vmfb"]]:
        (tmp_path / rel).write_bytes((out / rel).read_bytes())
    (tmp_path / case["modules"]["broken"]["vmfb"]).write_bytes(b"not a module")
    (tmp_path / "manifest.json").write_text(json.dumps(dict(manifest, cases=[case])))
    proc = run_without_compiler(
        str(out / "run_bundle.py"), str(tmp_path), "--time", *QUICK, pythonpath="", block=("iree.compiler", "opt_py")
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    rows = {r["variant"]: r for r in json.loads((tmp_path / "results.json").read_text())["timing"]["rows"]}
    assert len(rows["stock"]["times"]) == 2 and rows["stock"]["vs_stock"] == 1.0
    assert rows["broken"]["error"].startswith("exit status ") and "times" not in rows["broken"]
    assert "| gather_dim1 | broken |  |  |  |  | exit status " in proc.stdout
    segv = tmp_path / "segv"
    segv.write_text("#!/bin/sh\nkill -SEGV $$\n")
    segv.chmod(0o755)
    timing = {"rounds": 1, "reps": 1, "min_time": 0.005, "timeout": 60}
    assert bundle_run.time_module(str(segv), str(out), case, "stock", "local-task", timing) == {
        "error": "faulted: SIGSEGV"
    }


def test_corpora_can_be_several_and_their_names_must_differ():
    cases = bundle.corpus_cases([CORPUS, LIBRARY], names=["gather_dim1", "vit_sdpa_dyn"])
    assert [c.name for c in cases] == ["gather_dim1", "vit_sdpa_dyn"]
    with pytest.raises(bundle.OptPyError, match="models named alike in .*: gather_dim1"):
        bundle.corpus_cases([CORPUS, CORPUS], names=["gather_dim1"])
    with pytest.raises(bundle.OptPyError, match="no such cases in .*: nope"):
        bundle.corpus_cases([CORPUS, LIBRARY], names=["nope"])


@pytest.mark.slow
def test_minus_one_variants_of_the_corpus_for_cuda(tmp_path):
    """The model corpus for cuda with --fixes-minus-one: a fixes-minus-NAME for each fix that rewrote the
    case and no other, each compiled or recorded with its error."""
    manifest = bundle.write_bundle(
        tmp_path, bundle.corpus_cases(CORPUS), target="cuda", variants=[bundle.FIXES], minus_one_fixes=True
    )
    some = 0
    for case in manifest["cases"]:
        rewrote = case["modules"]["fixes"].get("rewrote", {})
        minus = {v: m for v, m in case["modules"].items() if v != "fixes"}
        assert sorted(m["leaves_out"][0] for m in minus.values()) == sorted(rewrote), case["name"]
        assert all(("vmfb" in m) != ("compile_error" in m) for m in minus.values())
        some += len(minus)
    assert some > 0


def test_a_module_another_variant_has_is_stored_and_timed_once(tmp_path):
    """Two variants compiling to the same bytes share one file (``same_as``) and one timing, said so."""
    from opt_py.execution import bundle_run

    cases = bundle.corpus_cases(CORPUS, names=["gather_dim1"])
    manifest = bundle.write_bundle(tmp_path, cases, target="cpu", variants=[bundle.STOCK, bundle.Variant("again")])
    (case,) = manifest["cases"]
    assert case["modules"]["again"] == {"vmfb": case["modules"]["stock"]["vmfb"], "same_as": "stock"}
    assert sorted(p.name for p in (tmp_path / "cases" / "gather_dim1").glob("*.vmfb")) == ["stock.vmfb"]
    timing = {"rounds": 2, "reps": 1, "min_time": 0.005, "timeout": 60}
    rows = bundle_run.time_case(
        bundle_run.benchmark_tool(), str(tmp_path), case, ["stock", "again"], "local-task", timing
    )
    assert rows[1]["times"] == rows[0]["times"] and len(rows[0]["times"]) == 2 and rows[1]["same_as"] == "stock"
    assert "the same module as stock: its time" in bundle_run.format_timing(rows, bundle_run.fix_costs(rows))


def test_time_goes_round_by_round_over_the_cases_and_stops_at_its_limit(monkeypatch):
    """The schedule, with iree-benchmark-module stood in for: each round visits every case, a case's
    variants one after the other, each round starting one further; a module another has byte for byte
    is not run; ratios are of medians; past --time-limit nothing starts, and the rows say so."""
    from opt_py.execution import bundle_run

    ms = {"stock": 2e-3, "fixes": 1e-3, "fixes-minus-x": 0.5e-3}
    calls = []

    def fake(tool, root, case, variant, device, timing):
        calls.append((case["name"], variant))
        return {"times": [ms[variant]] * timing["reps"]}

    monkeypatch.setattr(bundle_run, "time_module", fake)
    mods = {"stock": {"vmfb": "a"}, "fixes": {"vmfb": "b"}, "fixes-minus-x": {"vmfb": "c", "leaves_out": ["x"]}}
    a = {"name": "a", "family": "f", "modules": mods}
    b = {"name": "b", "family": "f", "modules": {"stock": {"vmfb": "d"}, "fixes": {"vmfb": "d", "same_as": "stock"}}}
    variants = ["stock", "fixes", "fixes-minus-x"]
    timing = {"rounds": 3, "reps": 2, "min_time": 0.01, "timeout": 1}
    rows = bundle_run.time_cases("tool", "root", [a, b], variants, "local-task", timing)
    assert calls == [
        ("a", "stock"), ("a", "fixes"), ("a", "fixes-minus-x"), ("b", "stock"),
        ("a", "fixes"), ("a", "fixes-minus-x"), ("a", "stock"), ("b", "stock"),
        ("a", "fixes-minus-x"), ("a", "stock"), ("a", "fixes"), ("b", "stock"),
    ]  # fmt: skip
    got = {(r["case"], r["variant"]): r for r in rows}
    assert got[("a", "fixes")]["vs_stock"] == 0.5 and got[("a", "fixes-minus-x")]["vs_fixes"] == 0.5
    assert got[("a", "stock")]["rounds"] == 3 and len(got[("a", "stock")]["times"]) == 6
    assert got[("b", "fixes")]["same_as"] == "stock" and got[("b", "fixes")]["vs_stock"] == 1.0
    costs = {c["fix"]: c for c in bundle_run.fix_costs(rows)}
    assert costs["x"]["geomean"] == 2.0 and costs["x"]["same_module"] == 0
    assert costs["(all: fixes / stock)"]["cases"] == 2 and costs["(all: fixes / stock)"]["same_module"] == 1
    calls.clear()
    rows = bundle_run.time_cases("tool", "root", [a, b], variants, "local-task", dict(timing, limit=1e-9))
    assert calls == [] and all(r["error"] == "not timed: the time limit (1e-09 s) came first" for r in rows)
