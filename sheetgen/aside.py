"""Run a piece of work in a forked child while this process gets on with another.

The rules booklet spends its first half second importing weasyprint, mostly
waiting on the system; the HTML and the score sheet can be made meanwhile on
the machine's other core. Where there is no fork, or other threads are running
(a fork would copy their locks, held, into the child), the work simply runs first.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from sheetgen.errors import SheetgenError

T = TypeVar("T")


class Aside(Generic[T]):
    """Work started now whose result (or exception) is collected by ``result()``."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._pid = 0
        self._read = -1
        self._value: tuple[bool, object] | None = None
        # Forking while other threads run can leave a lock held forever in the child.
        if not hasattr(os, "fork") or threading.active_count() > 1:
            self._value = _outcome(work)
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: do the work, send the outcome, leave without cleanup
            os.close(read)
            try:
                payload = pickle.dumps(_outcome(work))
            except Exception as exc:  # an unpicklable result or exception
                payload = pickle.dumps((False, SheetgenError(f"internal error: {exc!r}")))
            with os.fdopen(write, "wb") as out:
                out.write(payload)
            os._exit(0)
        os.close(write)
        self._pid, self._read = pid, read

    def result(self) -> T:
        """Wait for the work; return its value or raise what it raised."""
        if self._value is None:
            with os.fdopen(self._read, "rb") as incoming:
                data = incoming.read()
            os.waitpid(self._pid, 0)
            if not data:
                raise SheetgenError("internal error: a helper process ended without an answer")
            self._value = pickle.loads(data)
        ok, value = self._value
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        return value  # type: ignore[return-value]


def _outcome(work: Callable[[], T]) -> tuple[bool, object]:
    try:
        return (True, work())
    except Exception as exc:
        return (False, exc)
