"""Map work over items in worker processes, the results in order, the first error first.

Nothing here knows what the work is. The results come back in the order of
the items whatever order the workers finish in; an item whose work raised
raises when its turn comes, after every result before it was handed out, so
a caller sees the same first error as a plain loop would. Only a few items
are ever in flight, so a batch of any size holds a handful of results at once.
Workers never outlive the process that started them, however it ends.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

Item = TypeVar("Item")
Result = TypeVar("Result")

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
LOADAVG = "/proc/loadavg"
AHEAD_PER_WORKER = 4


def usable_cores() -> int:
    """The cores this process may run on (fewer than the machine's under ``taskset``)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def idle_cores() -> int:
    """The usable cores not busy with other work right now (at least 1).

    A worker on a core that another process keeps busy only takes turns with it, so the
    batch pays for starting the worker and gains nothing: on a shared machine that made
    two workers slower than one. Linux says how many tasks are running at this moment
    (this process among them) in /proc/loadavg; elsewhere every usable core counts as idle.
    """
    cores = usable_cores()
    try:
        with open(LOADAVG, encoding="ascii") as source:
            running = int(source.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return cores
    return max(1, min(cores, cores + 1 - running))


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this worker when its parent dies, even by SIGKILL.

    Ctrl-C reaches every process of the terminal's group: only the parent answers
    it (quietly, with status 130), so a worker ignores it instead of printing a trace.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "linux":
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    # The parent may have died before the request was made; then no signal will come.
    if os.getppid() != parent:
        os._exit(1)


class Workers:
    """A pool of worker processes, started on first use and stopped by ``close``.

    Where the kernel cannot be asked to kill the workers with their parent
    (anywhere but Linux), they still stop when the parent's end of the pool's
    pipes closes, as soon as their current item is done.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._pool: ProcessPoolExecutor | None = None

    def submit(self, work: Callable[[Item], Result], item: Item) -> Future[Result]:
        """Start ``work(item)`` in a worker."""
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(
                max_workers=self.size, initializer=_die_with, initargs=(os.getpid(),)
            )
        return self._pool.submit(work, item)

    def close(self) -> None:
        """Stop the workers, dropping work not yet started."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def ordered_map(
    work: Callable[[Item], Result], items: Iterable[Item], workers: Workers | None = None
) -> Iterator[Result]:
    """``work`` applied to each item, yielded in the items' order.

    Without ``workers`` the work runs here, one item at a time, as a loop would.
    With them, a few items run ahead in the workers (``work`` and the items must
    pickle). Either way the first item whose work raised stops the map with its
    own exception, and nothing after it is yielded.
    """
    if workers is None:
        for item in items:
            yield work(item)
        return
    ahead: deque[Future[Result]] = deque()
    window = AHEAD_PER_WORKER * workers.size
    try:
        for item in items:
            ahead.append(workers.submit(work, item))
            if len(ahead) >= window:
                yield ahead.popleft().result()
        while ahead:
            yield ahead.popleft().result()
    finally:
        for future in ahead:
            future.cancel()
