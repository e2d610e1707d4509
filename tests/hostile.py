"""Running sheetgen as a separate process the way an attacker's victim would: as an
unprivileged user, under a file-size limit, interrupted; and checking what it left behind.
Each run is a new ``python -P -m sheetgen``, started with plain ``subprocess``.

Each check is one of the promises of the hostile suite: one ``Error:`` line or
success, no traceback, inputs byte-identical after a refusal, no temporary file
left, no process left.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pwd
import resource
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

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
) -> Done:
    """``sheetgen ARGS`` in its own session; afterwards no process of that session is left.

    ``script`` runs in place of ``python -m sheetgen`` (one that changes sheetgen first,
    to make it fail where no input can); ``environ`` adds to its environment."""
    limit: Callable[[], None] | None = None
    if file_limit is not None:

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    process = _popen(
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


def start(
    args: Sequence[str], cwd: Path, *, user: str | None = None, capture: bool = True
) -> subprocess.Popen[bytes]:
    """``sheetgen ARGS`` started in ``cwd``, running beside any others (writers that race
    each other, or that a test kills); its output and error piped, or with ``capture``
    False thrown away."""
    output = subprocess.PIPE if capture else subprocess.DEVNULL
    return _popen(args, cwd, user, stdout=output, stderr=output)


def _popen(
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
    command = [*python_for(user), "-P", *([str(script)] if script else ["-m", "sheetgen"])]
    return subprocess.Popen(
        [*command, *(_argument(arg) for arg in args)],
        cwd=cwd,
        env={**_env(), **(environ or {})},
        **_as(user),
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
        preexec_fn=preexec_fn,
    )


def _argument(arg: str) -> bytes:
    """``arg`` as the bytes the process receives. Half of a character (a lone surrogate,
    which only Python's text can hold) goes as the bytes of its UTF-8 form, which no
    encoder should make but any program can pass; the file system's encoding takes every
    other argument."""
    try:
        return os.fsencode(arg)
    except UnicodeEncodeError:
        return arg.encode("utf-8", "surrogatepass")


def assert_no_process_left(session: int, grace: float = 5.0) -> None:
    """No process of the session that ``session`` led is still running (or a zombie of it).

    A process the same Ctrl-C reached may still be on its way out when its parent's pipes
    close (a busy machine, a helper such as fc-match): one left running is still there
    after ``grace`` seconds, one on its way out is gone long before."""
    deadline = time.monotonic() + grace
    while True:
        left = _session_processes(session)
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, f"processes left running: {left}"


def _session_processes(session: int) -> list[str]:
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session and fields[0] != "Z":
                left.append(entry.name)
    return left


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
