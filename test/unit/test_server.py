"""The warm server (python/tool/server.py): invisible, and only the user's.

Each test gets its own XDG_RUNTIME_DIR, so its server is its own; the
server's log (OPT_PY_SERVER_LOG) says whether a run was served warm.
"""

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from opt_py_process import OPT_PY, SLEEPY_PLUGIN, own_server, run_opt_py, served_runs, sleeping_run, wait_for_server

ROOT = Path(__file__).resolve().parents[2]
SRC = "func.func @f(%a: i32) -> i32 {\n  %c0 = arith.constant 0 : i32\n  %0 = arith.addi %a, %c0 : i32\n  return %0 : i32\n}\n"


@pytest.fixture
def server_env(tmp_path):
    with own_server(tmp_path) as env:
        yield env


def socket_of(env) -> Path:
    # sys.path as the opt-py console script has it: its own folder first.
    code = (
        f"import sys; sys.path[0] = {os.path.dirname(OPT_PY)!r}; from opt_py.tool.client import socket_path; "
        "print(socket_path())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    return Path(out)


def test_served_runs_match_cold_runs(server_env, tmp_path):
    """Output, errors and exit status are the same with and without the server."""
    (tmp_path / "in.mlir").write_text(SRC)
    (tmp_path / "bad.mlir").write_text("func.func @f( {\n")
    cases = [
        (["-p", "canonicalize", "in.mlir"], None),
        (["-p", "canonicalize"], SRC.encode()),  # stdin
        (["bad.mlir"], None),  # a parse error, with its location
        (["-p", "no-such-pass", "in.mlir"], None),
        (["--no-such-flag"], None),  # argparse's exit 2
        (["--help"], None),
        (["missing.mlir"], None),
        (
            [
                "--load-pass-plugin",
                str(ROOT / "examples" / "fold_addi_zero.py"),
                "-p",
                "fold-addi-zero",
                str(ROOT / "examples" / "addi.mlir"),
            ],
            None,
        ),
        (["in.mlir", "-o", "out.mlir"], None),  # relative to the client's working directory
    ]
    wait_for_server(server_env)
    cold_env = dict(server_env, OPT_PY_NO_SERVER="1")
    for args, stdin in cases:
        before = served_runs(server_env)
        warm = run_opt_py(args, server_env, cwd=tmp_path, input=stdin)
        assert served_runs(server_env) == before + 1, f"{args} was not served warm"
        warm_out = (tmp_path / "out.mlir").read_bytes() if "-o" in args else None
        cold = run_opt_py(args, cold_env, cwd=tmp_path, input=stdin)
        cold_out = (tmp_path / "out.mlir").read_bytes() if "-o" in args else None
        assert (warm.returncode, warm.stdout, warm.stderr, warm_out) == (
            cold.returncode,
            cold.stdout,
            cold.stderr,
            cold_out,
        ), args


def test_umask_and_environment_are_the_clients(server_env, tmp_path):
    wait_for_server(server_env)
    (tmp_path / "in.mlir").write_text(SRC)
    for mask in (0o077, 0o022):
        out = tmp_path / f"out-{mask:o}.mlir"
        subprocess.run(
            f"umask {mask:o}; exec {OPT_PY} in.mlir -o {out.name}", shell=True, env=server_env, cwd=tmp_path, check=True
        )
        assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask
    # An environment variable a plugin reads (here: where the sleepy pass marks) is the client's.
    plugin = tmp_path / "sleepy.py"
    plugin.write_text(SLEEPY_PLUGIN.replace("time.sleep(60)", "pass"))
    env = dict(server_env, SLEEPY_MARK=str(tmp_path / "mark"))
    before = served_runs(env)
    res = run_opt_py(["--load-pass-plugin", str(plugin), "-p", "test-sleepy", "in.mlir"], env, cwd=tmp_path)
    assert res.returncode == 0 and (tmp_path / "mark").exists() and served_runs(env) == before + 1


@pytest.mark.parametrize("served", [True, False])
def test_sigint_interrupts_the_run(server_env, tmp_path, served):
    """Ctrl-C at the client stops the run as it stops a cold one: 'interrupted', exit 130."""
    env = dict(server_env, SLEEPY_MARK=str(tmp_path / "mark"))
    if served:
        wait_for_server(env)
    else:
        env["OPT_PY_NO_SERVER"] = "1"
    (tmp_path / "in.mlir").write_text(SRC)
    proc = sleeping_run(env, tmp_path)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"opt-py: interrupted" in err and out == b""


def test_socket_is_private_and_never_on_the_network(server_env):
    sock = wait_for_server(server_env)
    st = os.lstat(sock.parent)
    assert stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o700 and st.st_uid == os.getuid()
    assert stat.S_ISSOCK(os.lstat(sock).st_mode) and os.lstat(sock).st_uid == os.getuid()
    pid = int(Path(server_env["OPT_PY_SERVER_LOG"]).read_text().split()[0])

    def sockets() -> set[str]:
        held = set()
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except FileNotFoundError:  # closed while listed
                continue
            if target.startswith("socket:["):
                held.add(target[8:-1])
        return held

    # A connection the server closes between the two reads (wait_for_server's own) leaves the table: only the
    # sockets it holds before and after reading /proc/net/unix are judged (a race CI's full run once lost).
    before = sockets()
    unix = Path("/proc/net/unix").read_text()
    inodes = before & sockets()
    assert inodes, "the server holds no socket"
    assert all(i in unix for i in inodes)
    for table in ("tcp", "tcp6", "udp", "udp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if path.exists():
            assert not any(f" {i} " in line for line in path.read_text().splitlines() for i in inodes), table


def test_stale_socket_is_replaced(server_env, tmp_path):
    """A socket nobody listens on is detected: the run is cold and correct, and a new server takes the name."""
    path = socket_of(server_env)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))
    dead.close()  # bound, never listening: connect() is refused
    (tmp_path / "in.mlir").write_text(SRC)
    res = run_opt_py(["-p", "canonicalize", "in.mlir"], server_env, cwd=tmp_path)
    assert res.returncode == 0 and b"return %arg0" in res.stdout
    assert wait_for_server(server_env) == path


def test_a_socket_of_another_owner_is_not_used(server_env, tmp_path):
    if os.getuid() != 0:
        pytest.skip("needs root to make a file owned by another user")
    path = socket_of(server_env)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    fake = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fake.bind(str(path))
    fake.listen(1)
    fake.setblocking(False)
    os.chown(path, 65534, 65534)
    (tmp_path / "in.mlir").write_text(SRC)
    res = run_opt_py(["-p", "canonicalize", "in.mlir"], server_env, cwd=tmp_path)
    assert res.returncode == 0 and b"return %arg0" in res.stdout
    with pytest.raises(BlockingIOError):
        fake.accept()  # the client never connected
    fake.close()


def test_a_server_of_another_user_is_not_trusted(server_env, tmp_path):
    """The socket file looks right but the process listening runs as someone else (SO_PEERCRED)."""
    if os.getuid() != 0:
        pytest.skip("needs root to run a listener as another user")
    path = socket_of(server_env)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    got = tmp_path / "fake-server-got"
    fake = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"""
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind({str(path)!r})
os.setgid(65534); os.setuid(65534)
s.listen(1)  # the peer credentials a client sees are the listener's at listen()
print("ready", flush=True)
c, _ = s.accept()
c.settimeout(10)
try:
    data = c.recv(100)
except OSError:
    data = b""
open({str(got)!r}, "wb").write(data) if os.access(os.path.dirname({str(got)!r}), os.W_OK) else None
sys.stdout.write(repr(data)); sys.stdout.flush()
""",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert fake.stdout.readline().strip() == "ready"
    (tmp_path / "in.mlir").write_text(SRC)
    res = run_opt_py(["-p", "canonicalize", "in.mlir"], server_env, cwd=tmp_path)
    assert res.returncode == 0 and b"return %arg0" in res.stdout
    try:
        out, _ = fake.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        fake.kill()
        raise AssertionError(f"{os.listdir(path.parent)} {path} {res.stderr}") from None
    assert out == "b''", "the client sent its request to a server of another user"


def test_the_server_refuses_another_user(server_env, tmp_path):
    if os.getuid() != 0:
        pytest.skip("needs root to connect as another user")
    import tempfile

    runtime = tempfile.mkdtemp(prefix="opt-py-test-run-")  # reachable by another user once opened up below
    server_env = dict(server_env, XDG_RUNTIME_DIR=runtime)
    path = wait_for_server(server_env)
    os.chmod(runtime, 0o711)
    os.chmod(path.parent, 0o711)  # let the other user reach the socket: only SO_PEERCRED stops it now
    os.chmod(path, 0o777)
    try:
        before = served_runs(server_env)
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                f"""
import os, socket
os.setgid(65534); os.setuid(65534)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect({str(path)!r})
s.settimeout(10)
try:
    s.sendall(b"x" * 8)
    print(repr(s.recv(100)))
except OSError as e:
    print("closed", e)
""",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    finally:
        os.chmod(path.parent, 0o700)
        path.unlink()
        shutil.rmtree(runtime, ignore_errors=True)
    assert "b'P" not in probe.stdout, probe.stdout
    assert served_runs(server_env) == before
    assert "refused a connection from another user" in Path(server_env["OPT_PY_SERVER_LOG"]).read_text()


def test_another_checkout_python_path_or_idle_timeout(server_env, tmp_path):
    """Another PYTHONPATH is another server; an idle server exits and removes its socket."""
    a = socket_of(server_env)
    b = socket_of(dict(server_env, PYTHONPATH=f"{tmp_path}{os.pathsep}{server_env.get('PYTHONPATH', '')}"))
    assert a != b and a.parent == b.parent
    env = dict(server_env, OPT_PY_SERVER_IDLE="1")
    path = wait_for_server(env)
    deadline = time.time() + 30
    while path.exists() and time.time() < deadline:
        time.sleep(0.2)
    assert not path.exists()
    log = Path(env["OPT_PY_SERVER_LOG"])
    while "exit" not in log.read_text() and time.time() < deadline:  # the socket goes before the spare is ended
        time.sleep(0.2)
    assert "exit" in log.read_text()


def test_off_switch(server_env, tmp_path):
    env = dict(server_env, OPT_PY_NO_SERVER="1")
    (tmp_path / "in.mlir").write_text(SRC)
    for _ in range(2):
        assert run_opt_py(["in.mlir"], env, cwd=tmp_path).returncode == 0
    assert not Path(env["OPT_PY_SERVER_LOG"]).exists()
    assert not (Path(env["XDG_RUNTIME_DIR"]) / "opt-py").exists()


def test_compile_is_served_and_gives_the_same_module(server_env, tmp_path):
    """opt-py compile (with --fixes: several phases, Python passes) through the warm server:
    the same .vmfb byte for byte, the same errors and exit codes, as a cold run."""
    wait_for_server(server_env)
    cold_env = dict(server_env, OPT_PY_NO_SERVER="1")
    flags = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]
    program = str(ROOT / "test" / "models" / "moe_router" / "model.mlir")
    outs = {}
    for name, env in (("warm", server_env), ("cold", cold_env)):
        before = served_runs(server_env)
        proc = run_opt_py(["compile", program, "-o", str(tmp_path / f"{name}.vmfb"), "--fixes", *flags], env)
        assert proc.returncode == 0, proc.stderr
        assert (served_runs(server_env) > before) == (name == "warm")
        outs[name] = (tmp_path / f"{name}.vmfb").read_bytes()
    assert outs["warm"] == outs["cold"]
    bad = [
        run_opt_py(["compile", program, "-o", str(tmp_path / "x.vmfb"), "--inject", "nowhere:cse", *flags], env)
        for env in (server_env, cold_env)
    ]
    assert bad[0].returncode == bad[1].returncode == 1 and bad[0].stderr == bad[1].stderr
    assert not (tmp_path / "x.vmfb").exists()


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _gone(pid: int) -> bool:
    try:
        return "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True


def _one_spare(server: int, log: Path, timeout=30) -> int:
    """The server's only child once the last run's worker has exited: its spare, a
    forked spare that has taken no run (its log names both; a worker still running or
    ending its run can be the only child)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        kids = [k for k in _children(server) if not _gone(k)]
        lines = log.read_text().splitlines()
        forked = {int(line.split()[-1]) for line in lines if "forked spare" in line}
        took = {int(line.split()[2]) for line in lines if line.endswith("took the run")}
        if len(kids) == 1 and kids[0] in forked - took:
            return kids[0]
        time.sleep(0.05)
    raise AssertionError(f"the server has children {_children(server)}, not one spare")


@pytest.mark.parametrize("end", ["SIGTERM", "SIGKILL"])
def test_the_spare_worker_is_replaced_and_never_outlives_its_server(server_env, tmp_path, end):
    """The next run's worker is forked ahead of it. Killed unused, it is replaced and the run
    is still served; it holds no listening socket, and it ends when its server does."""
    sock = wait_for_server(server_env)
    server = int(Path(server_env["OPT_PY_SERVER_LOG"]).read_text().split()[0])
    log = Path(server_env["OPT_PY_SERVER_LOG"])
    spare = _one_spare(server, log)
    deadline = time.time() + 30
    while True:  # a spare just forked still has the server's files until it closes them
        held = {os.readlink(f"/proc/{spare}/fd/{fd}") for fd in os.listdir(f"/proc/{spare}/fd")}
        if len([t for t in held if t.startswith("socket:")]) == 1 or time.time() > deadline:
            break
        time.sleep(0.05)
    listening = {os.readlink(f"/proc/{server}/fd/{fd}") for fd in os.listdir(f"/proc/{server}/fd")}
    assert len([t for t in held if t.startswith("socket:")]) == 1  # its channel to the server, nothing else
    assert not (held & listening) - {"/dev/null"}
    os.kill(spare, signal.SIGKILL)
    (tmp_path / "in.mlir").write_text(SRC)
    before = served_runs(server_env)
    res = run_opt_py(["-p", "canonicalize", "in.mlir"], server_env, cwd=tmp_path)
    assert res.returncode == 0 and b"return %arg0" in res.stdout and served_runs(server_env) == before + 1
    spare = _one_spare(server, log)
    os.kill(server, getattr(signal, end))
    deadline = time.time() + 30
    while not (_gone(server) and _gone(spare)) and time.time() < deadline:
        time.sleep(0.05)
    assert _gone(server) and _gone(spare)
    if sock.exists():
        sock.unlink()


@pytest.mark.parametrize("all_dialects", [True, False])
def test_the_warm_context_is_taken_once_and_never_destroyed(all_dialects):
    """A worker's run takes a context made before the fork; it stays referenced, and so
    does the other kind, so destroying neither comes between the run and its reply."""
    from opt_py.run import bindings

    bindings.prepare_warm_context()
    other = bindings._warm_contexts[not all_dialects]
    ctx = bindings.take_warm_context(all_dialects)
    assert ctx is not None and bindings.take_warm_context(all_dialects) is None
    assert any(kept is ctx for kept in bindings._taken_contexts)
    assert bindings._warm_contexts[not all_dialects] is other
    assert ctx.is_dialect_loaded("linalg") == all_dialects  # the lean one loads dialects as IR names them


def test_an_edit_to_the_package_gets_a_fresh_server(server_env, tmp_path):
    """The socket's name does not cover the files' contents: the server notices an edit itself,
    serves nothing more, and the next runs see the edited code, warm again soon after."""
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / "python", root / "opt_py", ignore=shutil.ignore_patterns("__pycache__"))
    launcher = root / "launch.py"  # a console script of this copy: its folder first on sys.path
    launcher.write_text("import sys\nfrom opt_py.tool.client import main\nsys.exit(main())\n")

    def run():
        return subprocess.run([sys.executable, str(launcher), "--help"], env=server_env, capture_output=True)

    def wait_served(deadline):
        while time.time() < deadline:
            before = served_runs(server_env)
            out = run().stdout
            if served_runs(server_env) > before:
                return out
            time.sleep(0.2)
        raise AssertionError("no server served the copy")

    assert b"Run MLIR pass pipelines" in wait_served(time.time() + 60)
    cli = root / "opt_py" / "tool" / "cli.py"
    cli.write_text(cli.read_text().replace("Run MLIR pass pipelines", "Run EDITED pass pipelines"))
    before = served_runs(server_env)
    assert b"Run EDITED pass pipelines" in run().stdout  # at once: the old server serves nothing more
    assert served_runs(server_env) == before
    assert b"Run EDITED pass pipelines" in wait_served(time.time() + 60)


def test_the_client_imports_nothing_heavy(server_env, tmp_path):
    """A served run's process imports the client module and ``_socket``, nothing else of its own:
    no import hook, no opt-py module but the client, no argparse, no bindings."""
    wait_for_server(server_env)
    (tmp_path / "in.mlir").write_text(SRC)
    before = served_runs(server_env)
    res = run_opt_py(["-p", "canonicalize", "in.mlir"], dict(server_env, PYTHONPROFILEIMPORTTIME="1"), cwd=tmp_path)
    assert res.returncode == 0 and served_runs(server_env) == before + 1
    allowed = {"opt_py", "opt_py.tool", "opt_py.tool.client", "_socket", *sys.builtin_module_names}
    if "import re\n" in Path(OPT_PY).read_text():  # pip's console-script wrapper: its own import
        allowed |= imported_after_site([sys.executable, "-c", "import re"], server_env)
    assert imported_after_site_of(res.stderr.decode()) - allowed == set()


def imported_after_site(cmd, env) -> set[str]:
    out = subprocess.run(cmd, env=dict(env, PYTHONPROFILEIMPORTTIME="1"), capture_output=True, text=True, check=True)
    return imported_after_site_of(out.stderr)


def imported_after_site_of(stderr: str) -> set[str]:
    """The modules ``-X importtime`` lists after ``site`` (the interpreter's own start-up)."""
    names = [line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")]
    assert "site" in names, stderr
    return set(names[names.index("site") + 1 :])
