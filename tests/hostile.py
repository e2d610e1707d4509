"""Running sheetgen as a separate process the way an attacker's victim would: as an
unprivileged user, under a file-size limit, interrupted; and checking what it left behind.
A plain run is forked from a warm server that has sheetgen loaded (``zygote``); the rest
start Python afresh.

Each check is one of the promises of the hostile suite: one ``Error:`` line or
success, no traceback, inputs byte-identical after a refusal, no temporary file
left, no process left.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import pwd
import resource
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import process_probe
import pytest
import zygote

import sheetgen

PACKAGE_ROOT = Path(sheetgen.__file__).resolve().parent.parent
USERS = ("sheetgen-guest", "sheetgen-other")


def as_at_a_terminal() -> None:
    """``preexec_fn`` for a process a test interrupts: Ctrl-C at its default, as a terminal
    gives it. A shell's background job (``cmd &`` without job control) starts with SIGINT
    ignored and passes that on, which would turn every Ctrl-C test into a run to the end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass(frozen=True)
class Done:
    """What a finished sheetgen process said and did."""

    code: int
    out: bytes
    err: str


def _as(user: str | None) -> dict[str, Any]:
    """What ``subprocess`` needs to start a process as ``user`` would run it: that user's
    id, group and no other groups (``user=`` alone keeps root's group and groups)."""
    if user is None:
        return {}
    account = pwd.getpwnam(user)
    return {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}


def python_for(user: str | None) -> list[str]:
    """An interpreter ``user`` may run, with sheetgen and its dependencies importable."""
    if user is None:
        return [sys.executable]
    found = _interpreter_for(user)
    if found is None:
        pytest.skip(f"no Python interpreter that {user} may run can import sheetgen")
    return [found]


@functools.cache
def _interpreter_for(user: str) -> str | None:
    """The first interpreter that ``user`` can import sheetgen with: probed once a worker, as
    neither the user nor the interpreters change while the suite runs."""
    for candidate in (
        sys.executable,
        f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]}",
    ):
        try:
            probe = subprocess.run(
                [candidate, "-c", "import sheetgen.cli"],
                env=_env(),
                **_as(user),
                cwd="/",
                capture_output=True,
                check=False,
            )
        except OSError:
            continue
        if probe.returncode == 0:
            return candidate
    return None


def _env() -> dict[str, str]:
    paths = [str(PACKAGE_ROOT), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env["PAPERSIZE"] = "letter"
    env.pop("PYTHONHOME", None)
    # The machine's own fonts, as a user has them (the suite's autouse fixture hides them).
    env.pop("FONTCONFIG_FILE", None)
    return env


def run(
    args: Sequence[str],
    cwd: Path,
    *,
    user: str | None = None,
    file_limit: int | None = None,
    stdout: int | None = None,
    timeout: float = 120,
    script: Path | None = None,
    environ: dict[str, str] | None = None,
    fresh: bool = False,
) -> Done:
    """``sheetgen ARGS`` in its own session; afterwards no process of that session is left.

    ``script`` runs in place of ``python -m sheetgen`` (one that changes sheetgen first,
    to make it fail where no input can); ``environ`` adds to its environment. A plain
    run is a child of this worker's warm server (``zygote``); ``fresh`` starts Python
    anew, as every run with a script, an environment, a file-size limit or standard output
    of its own does."""
    plain = script is None and environ is None and file_limit is None and stdout is None
    if plain and not fresh:
        warm = _warm_run(args, cwd, user, timeout)
        if warm is not None:
            return warm
    limit: Callable[[], None] | None = None
    if file_limit is not None:

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    process = _fresh(
        args,
        cwd,
        user,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        script=script,
        environ=environ,
        preexec_fn=limit,
    )
    out, err = process.communicate(timeout=timeout)
    assert_no_process_left(process.pid)
    return Done(process.returncode, out or b"", err.decode("utf-8", "replace"))


# The process ids of the runs the warm servers made (a test proves they are used).
WARM_RUNS: list[int] = []


class _Warm:
    """This worker's ``zygote`` server for ``user``: the interpreter ``python_for`` gives,
    run as that user, started with the environment ``_env`` gives."""

    def __init__(self, user: str | None) -> None:
        self.env, self.inherited = _env(), _inherited()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        server = str(Path(__file__).with_name("zygote.py"))
        self.process = subprocess.Popen(
            [*python_for(user), "-P", server, str(theirs.fileno())],
            env=self.env,
            **_as(user),
            cwd="/",
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            pass_fds=[theirs.fileno()],
        )
        theirs.close()
        self.channel = zygote.Channel(ours)
        self.ended: dict[int, int] = {}
        atexit.register(self.close)

    def usable(self) -> bool:
        """Whether a child would start as a fresh process would now: the server runs, and
        the worker's environment and what else a child inherits are as they were when it
        started (the umask goes with each request)."""
        alive = self.process.poll() is None
        return alive and (_env(), _inherited()) == (self.env, self.inherited)

    def start(
        self, args: Sequence[str], cwd: Path, streams: Sequence[int], probe: bool = False
    ) -> int:
        """A child running ``sheetgen ARGS`` (or with ``probe`` tests/process_probe.py) in
        ``cwd`` with ``streams`` as its standard input, output and error, under the
        worker's umask; its process id."""
        mask = os.umask(0)
        os.umask(mask)
        # The server's environment is the worker's (``usable``), and so the child's.
        request = {"argv": list(args), "cwd": os.path.abspath(cwd), "umask": mask}
        self.channel.send({**request, "probe": probe}, streams)
        while True:
            message, _ = self.channel.receive()
            if "pid" in message:
                return int(message["pid"])  # type: ignore[call-overload]
            self._note(message)

    def status(self, pid: int, timeout: float | None) -> int | None:
        """The exit status of the child ``pid`` once it ended; None if it has not within
        ``timeout`` seconds (0: only look)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while pid not in self.ended:
            if not self.channel.pending():
                left = None if deadline is None else max(deadline - time.monotonic(), 0)
                if not select.select([self.channel.sock], [], [], left)[0]:
                    return None
            self._note(self.channel.receive()[0])
        return self.ended.pop(pid)

    def _note(self, message: dict[str, object]) -> None:
        self.ended[int(message["ended"])] = int(message["status"])  # type: ignore[call-overload]

    def close(self) -> None:
        self.channel.sock.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)


_SERVERS: dict[str | None, _Warm] = {}


def _warm(user: str | None) -> _Warm | None:
    """This worker's warm server for ``user`` if a child of it would start as a fresh
    process would now; a new one if the last has died; None where the worker's
    environment or limits changed since it started."""
    server = _SERVERS.get(user)
    if server is not None and server.process.poll() is not None:
        server = None  # it died: its failure went to the worker's error output
    if server is None:
        server = _SERVERS[user] = _Warm(user)
    return server if server.usable() else None


def _inherited() -> tuple[object, ...]:
    """What a process started by this worker inherits besides its environment and umask:
    resource limits, supplementary groups, ignored signals, blocked signals, niceness."""
    ignored = [name for name, how in process_probe.dispositions().items() if how == "ignored"]
    groups = sorted(os.getgroups())
    return process_probe.limits(), groups, ignored, process_probe.blocked(), os.nice(0)


class WarmProcess:
    """A child of a warm server, used as a ``subprocess.Popen`` is: ``pid``, ``poll``,
    ``wait``, ``send_signal``, ``kill``, ``communicate`` and ``returncode``. Its standard
    output and error are pipes read by ``communicate``, or /dev/null."""

    def __init__(
        self,
        server: _Warm,
        args: Sequence[str],
        cwd: Path,
        *,
        capture: bool = True,
        probe: bool = False,
    ) -> None:
        self._warm = server
        self.args = list(args)
        self.returncode: int | None = None
        self._pipes: dict[int, list[bytes]] = {}
        if capture:
            out_read, out_write = os.pipe()
            err_read, err_write = os.pipe()
            self._pipes = {out_read: [], err_read: []}
            self._out, self._err = out_read, err_read
            theirs = [out_write, err_write]
        else:
            theirs = [os.open(os.devnull, os.O_WRONLY), os.open(os.devnull, os.O_WRONLY)]
        stdin = _standard_input()
        try:
            self.pid = self._warm.start(args, cwd, [stdin, *theirs], probe=probe)
        finally:
            for fd in (*theirs, *([stdin] if stdin else [])):
                os.close(fd)
        WARM_RUNS.append(self.pid)

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._warm.status(self.pid, 0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self._warm.status(self.pid, timeout)
            if self.returncode is None:
                raise subprocess.TimeoutExpired(["sheetgen", *self.args], timeout or 0)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[bytes, bytes]:
        """Standard output and error to their end, then the exit status. If the streams
        do not end in time the child's session is killed and TimeoutExpired raised; if
        the child outlives them, TimeoutExpired is raised and the child left running."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            for fd in self._pipes:
                selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                ready = selector.select(left) if left is None or left > 0 else []
                if not ready:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self.pid, signal.SIGKILL)
                    for fd in list(selector.get_map()):
                        selector.unregister(fd)
                        os.close(fd)
                    self.wait()
                    raise subprocess.TimeoutExpired(["sheetgen", *self.args], timeout or 0)
                for key, _ in ready:
                    data = os.read(key.fd, 1 << 16)
                    if data:
                        self._pipes[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
                        os.close(key.fd)
        left = None if deadline is None else max(deadline - time.monotonic(), 0)
        self.wait(left)
        if not self._pipes:
            return b"", b""
        return b"".join(self._pipes[self._out]), b"".join(self._pipes[self._err])


def start(
    args: Sequence[str], cwd: Path, *, user: str | None = None, capture: bool = True
) -> WarmProcess | subprocess.Popen[bytes]:
    """``sheetgen ARGS`` started in ``cwd``, running beside any others (writers that race
    each other, or that a test kills): a child of this worker's warm server, or a fresh
    process where a warm child would not start as one would."""
    python_for(user)  # the same skip where the user may run no interpreter
    server = _warm(user)
    if server is not None:
        return WarmProcess(server, args, cwd, capture=capture)
    output = subprocess.PIPE if capture else subprocess.DEVNULL
    return _fresh(args, cwd, user, stdout=output, stderr=output)


def _fresh(
    args: Sequence[str],
    cwd: Path,
    user: str | None,
    *,
    stdout: int,
    stderr: int,
    script: Path | None = None,
    environ: dict[str, str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.Popen[bytes]:
    """A new Python running ``python -P -m sheetgen ARGS`` (or ``script``) as ``user``, in
    its own session; ``environ`` adds to its environment."""
    return subprocess.Popen(
        [*python_for(user), "-P", *([str(script)] if script else ["-m", "sheetgen"]), *args],
        cwd=cwd,
        env={**_env(), **(environ or {})},
        **_as(user),
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
        preexec_fn=preexec_fn,
    )


def _standard_input() -> int:
    """The descriptor a fresh process would inherit as its standard input (this worker's)."""
    try:
        os.fstat(0)
    except OSError:
        return os.open(os.devnull, os.O_RDONLY)
    return 0


def _warm_run(
    args: Sequence[str], cwd: Path, user: str | None, timeout: float, probe: bool = False
) -> Done | None:
    """``run`` through this worker's warm server (see ``zygote``); None where a warm child
    would not start as a fresh process would, for a fresh one."""
    server = _warm(user)
    if server is None:
        return None
    process = WarmProcess(server, args, cwd, probe=probe)
    out, err = process.communicate(timeout)
    assert_no_process_left(process.pid)
    return Done(process.wait(), out, err.decode("utf-8", "replace"))


PROBE = Path(zygote.PROBE)


def probe(cwd: Path, *, user: str | None = None, fresh: bool = False) -> dict[str, Any]:
    """What a process started as ``run`` starts one knows of its start (see
    process_probe): a warm server's child, or with ``fresh`` a new Python."""
    done = (
        run([], cwd, user=user, script=PROBE)
        if fresh
        else _warm_run([], cwd, user, timeout=120, probe=True)
    )
    assert done is not None, "no warm server could take the probe"
    assert done.code == 0 and done.err == "", done.err
    facts: dict[str, Any] = json.loads(done.out)
    return facts


def assert_no_process_left(session: int) -> None:
    """No process of the session that ``session`` led is still running (or a zombie of it)."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session and fields[0] != "Z":
                left.append(entry.name)
    assert not left, f"processes left running: {left}"


def assert_refused(done: Done, message: str, code: int = 1) -> None:
    """Exactly one ``Error:`` line, the one expected; no traceback; nothing on stdout."""
    assert "Traceback" not in done.err, done.err
    assert done.err == f"Error: {message}\n", done.err
    assert done.code == code
    assert done.out == b""


def assert_clean(done: Done) -> None:
    """Success, or one ``Error:`` line: never a traceback."""
    assert "Traceback" not in done.err, done.err
    if done.code != 0:
        lines = done.err.strip().splitlines()
        assert done.code in (1, 2) and lines[-1].startswith("Error: "), done.err
        if done.code == 1:
            assert len(lines) == 1, done.err


def snapshot(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file below ``folder``: bytes, inode and owner, to prove nothing changed.

    A series' empty lock file (``.friday.yaml.lock``) stays by design once a record has
    run: removing it could let two writers hold two different locks.
    """
    result = {}
    for path in sorted(folder.rglob("*")):
        lock = path.name.startswith(".") and path.name.endswith(".lock") and not path.stat().st_size
        if path.is_file() and not path.is_symlink() and not lock:
            info = path.stat()
            result[str(path.relative_to(folder))] = (path.read_bytes(), info.st_ino, info.st_uid)
    return result


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*.tmp"))


@pytest.fixture(scope="session")
def users() -> tuple[str, str]:
    """Two unprivileged users (made if needed: the suite runs as root in CI)."""
    if os.geteuid() != 0:
        pytest.skip("making other users needs root; this suite runs as an ordinary user")
    for name in USERS:
        try:
            pwd.getpwnam(name)
        except KeyError:
            made = subprocess.run(
                ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
                capture_output=True,
                check=False,
            )
            with contextlib.suppress(KeyError):
                pwd.getpwnam(name)
                continue
            pytest.skip(f"cannot make the user {name}: {made.stderr.decode().strip()}")
    return USERS


@contextlib.contextmanager
def shared_folder(owner: str | None = None, mode: int = 0o755) -> Iterator[Path]:
    """A folder outside root's private temporary area, which other users can reach."""
    folder = Path(tempfile.mkdtemp(prefix="sheetgen-hostile-", dir="/tmp"))
    try:
        folder.chmod(mode)
        if owner is not None:
            shutil.chown(folder, owner, owner)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def owned(path: Path, user: str, data: bytes, mode: int = 0o644) -> Path:
    """A file holding ``data``, belonging to ``user``."""
    path.write_bytes(data)
    shutil.chown(path, user, user)
    path.chmod(mode)
    return path
