"""What a process can tell of how it was started, printed as JSON: run as a fresh process's
script and by a warm server's child in place of sheetgen (``hostile.probe``), so a test can
compare the two. ``hostile`` reads the worker's own limits, signals and mask with the same
functions, to know when a warm child would differ from a fresh one."""

from __future__ import annotations

import json
import os
import resource
import signal
import sys


def _handler(signum: int) -> str:
    found = signal.getsignal(signum)
    if found is signal.SIG_DFL:
        return "default"
    if found is signal.SIG_IGN:
        return "ignored"
    if found is signal.default_int_handler:
        return "KeyboardInterrupt"
    return repr(found)


def limits() -> dict[str, list[int]]:
    """Every resource limit, soft and hard."""
    return {
        name: list(resource.getrlimit(getattr(resource, name)))
        for name in sorted(dir(resource))
        if name.startswith("RLIMIT_")
    }


def dispositions() -> dict[str, str]:
    """How each signal that can be caught is handled."""
    return {
        found.name: _handler(found)
        for found in signal.Signals
        if found not in (signal.SIGKILL, signal.SIGSTOP)
    }


def blocked() -> list[int]:
    """The signals blocked in this thread."""
    return sorted(int(number) for number in signal.pthread_sigmask(signal.SIG_BLOCK, []))


def facts() -> dict[str, object]:
    mask = os.umask(0)
    os.umask(mask)
    streams = {
        name: [stream.isatty(), stream.encoding, stream.errors, stream.line_buffering]
        for name, stream in (("stdin", sys.stdin), ("stdout", sys.stdout), ("stderr", sys.stderr))
    }
    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    return {
        "session leader": os.getsid(0) == os.getpid(),
        "group leader": os.getpgrp() == os.getpid(),
        "signal wake-up descriptor": wakeup,
        "blocked signals": blocked(),
        "niceness": os.nice(0),
        # The descriptor that reads the folder is among them, in both kinds of run.
        "descriptors": sorted(int(name) for name in os.listdir("/proc/self/fd")),
        "path": sys.path,
        "safe path": sys.flags.safe_path,
        "environment": dict(os.environ),
        "working folder": os.getcwd(),
        "umask": mask,
        "limits": limits(),
        "ids": [os.getuid(), os.geteuid(), os.getgid(), os.getegid(), sorted(os.getgroups())],
        "signals": dispositions(),
        "streams": streams,
    }


if __name__ == "__main__":
    print(json.dumps(facts(), sort_keys=True))
