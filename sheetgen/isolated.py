"""Run one function in a child process with hard limits on its memory and processor time.

A game folder from outside the package is anyone's download. Its templates run in a
bounded sandbox, but a sandbox counts what it can see: a single comparison of two
crafted lists is one call into C that no clock inside the process interrupts. The
kernel's limits are the last line: the child may take CPU_SECONDS of processor time
and MEMORY_BYTES more address space than the parent had when it forked, and is
stopped after WALL_SECONDS. Only the function's result (or a sheetgen error) comes back.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable
from typing import TypeVar

from sheetgen.errors import SheetgenError

CPU_SECONDS = 60
MEMORY_BYTES = 1024**3
WALL_SECONDS = 120.0
Result = TypeVar("Result")


class LimitError(SheetgenError):
    """A function run in a child process passed a limit on its memory or time."""


def run_limited(function: Callable[[], Result], what: str) -> Result:
    """``function()`` in a forked child under the limits above; its result, or the
    SheetgenError it raised. Passing a limit is a LimitError naming ``what``."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(reading)
        _child(function, writing)
    os.close(writing)
    try:
        data = _read_all(reading, pid)
    except BaseException:  # Ctrl-C, a signal: the child is not left to run on its own
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(reading)
    _, status = os.waitpid(pid, 0)
    if data is None:
        raise LimitError(f"{what} takes longer than {WALL_SECONDS:g} seconds")
    if not data:
        raise LimitError(_stopped(what, status))
    outcome, value = pickle.loads(data)
    if outcome == "error":
        raise value
    if outcome == "memory":
        raise LimitError(f"{what} needs more than {MEMORY_BYTES // 1024**2:,} MB of memory")
    if outcome == "crash":  # a bug of sheetgen's own, not bad input: say what it was
        raise RuntimeError(f"{what} failed in its child process: {value}")
    return value  # type: ignore[no-any-return]


def _child(function: Callable[[], object], writing: int) -> None:
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = _address_space() + MEMORY_BYTES
        if hard == resource.RLIM_INFINITY or limit < hard:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
        try:
            outcome: tuple[str, object] = ("ok", function())
        except SheetgenError as exc:
            outcome = ("error", exc)
        except MemoryError:
            outcome = ("memory", None)
        except Exception as exc:  # a bug of sheetgen's own: the parent raises it
            outcome = ("crash", f"{type(exc).__name__}: {exc}")
        with os.fdopen(writing, "wb") as out:
            out.write(pickle.dumps(outcome))
    finally:
        os._exit(0)


def _read_all(reading: int, pid: int) -> bytes | None:
    """What the child wrote, until it closes the pipe; None for a child past WALL_SECONDS,
    which is killed."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + WALL_SECONDS
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([reading], [], [], max(left, 0))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            return None
        chunk = os.read(reading, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _address_space() -> int:
    """The address space this process holds now (VmSize), in bytes."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _stopped(what: str, status: int) -> str:
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        # The kernel sends SIGXCPU at the soft limit and SIGKILL at the hard one.
        return f"{what} takes more than {CPU_SECONDS} seconds of processor time"
    return (
        f"{what} stopped before it finished (it may need more than {MEMORY_BYTES // 1024**2:,} MB)"
    )
