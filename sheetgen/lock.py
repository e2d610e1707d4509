"""The lock of a series: ``flock`` on a lock file beside it, never reached through a link."""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from sheetgen.errors import OutputError
from sheetgen.folders import opened, user_name

LOCK_POLL = 0.05  # seconds between two looks at a lock another program holds


@contextlib.contextmanager
def hold_lock(
    path: Path, *, timeout: float, waiting: Callable[[], None] | None = None
) -> Iterator[Path]:
    """Hold the lock of the file at ``path`` while the block runs; the real file's path.

    The lock is ``flock`` on ``.NAME.lock`` beside the real file, so that two links to
    one file still wait for each other. It is made if missing and stays after, since
    removing it could let two writers hold two different locks. It is opened in the
    folder ``walk`` opened and never through a link: a link, or anything but a plain
    file, in its place is refused. ``waiting`` is called once if another program holds
    the lock, before waiting up to ``timeout`` seconds for it; after that the refusal
    names the lock file's owner, the user whose program most likely holds it. A lock
    file that cannot be opened or locked raises the OSError that says why.
    """
    with opened(path) as place:
        fd = _take_lock(
            place.folder, place.path.parent / f".{place.name}.lock", path, timeout, waiting
        )
    try:
        yield place.path
    finally:
        os.close(fd)  # which lets go of the lock


def _take_lock(
    folder: int, lock: Path, path: Path, timeout: float, waiting: Callable[[], None] | None
) -> int:
    """The lock file ``lock`` of ``path``, opened in ``folder`` and locked."""
    deadline: float | None = None
    while True:
        fd = _open_lock(folder, lock)
        try:
            while not _flocked(fd):
                if deadline is None:
                    deadline = time.monotonic() + timeout
                    if waiting is not None:
                        waiting()
                if time.monotonic() >= deadline:
                    raise _still_held(fd, lock, path, timeout)
                time.sleep(LOCK_POLL)
            if _still_in_place(folder, lock, fd):
                return fd
            # Removed or replaced while this waited: lock the file in its place now.
            if deadline is None:
                deadline = time.monotonic() + timeout
            if time.monotonic() >= deadline:
                raise _still_held(fd, lock, path, timeout)
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


def _open_lock(folder: int, lock: Path) -> int:
    """The lock file ``lock``, opened in ``folder`` (made if missing), never through a link."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(lock.name, flags, 0o666, dir_fd=folder)
    except OSError as exc:
        _refuse_lock_place(folder, lock, exc)
        raise
    try:
        info = os.fstat(fd)
        _refuse_lock_file(lock, info)
        # In a sticky folder nobody else can remove the user's lock file, but the owner of
        # another one can, while sheetgen holds it: a second writer would then make and
        # hold a new one, and the two would change the file at once.
        where = os.fstat(folder)
        if where.st_mode & stat.S_ISVTX and info.st_uid not in (os.geteuid(), where.st_uid):
            raise _anothers_lock(lock, info, "could remove it while sheetgen holds it")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _refuse_lock_place(folder: int, lock: Path, exc: OSError) -> None:
    """Say what is in the lock's place when opening it failed (``exc``): a link or anything
    but a plain file, or another user's lock file that the user may not open."""
    try:
        info = os.stat(lock.name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return  # nothing there: ``exc`` says why it could not be made
    _refuse_lock_file(lock, info)
    if isinstance(exc, PermissionError) and info.st_uid != os.geteuid():
        raise _anothers_lock(lock, info, "has not let you open it")


def _anothers_lock(lock: Path, info: os.stat_result, why: str) -> OutputError:
    owner = user_name(info.st_uid)
    return OutputError(
        f"{lock}: belongs to {owner}, who {why}; nothing was changed; ask {owner} to "
        "remove it, or keep the series in a folder of your own"
    )


def _refuse_lock_file(lock: Path, info: os.stat_result) -> None:
    """Refuse what is in the lock's place unless it is a plain file."""
    if stat.S_ISREG(info.st_mode):
        return
    kind = (
        "a link"
        if stat.S_ISLNK(info.st_mode)
        else "a folder"
        if stat.S_ISDIR(info.st_mode)
        else "a FIFO"
        if stat.S_ISFIFO(info.st_mode)
        else "a special file"
    )
    never = "never follows a link to a lock" if kind == "a link" else "locks only a plain file"
    raise OutputError(
        f"{lock}: is {kind} (made by {user_name(info.st_uid)}), not a lock file; "
        f"sheetgen {never}, so nothing was changed; remove it, or keep the series "
        "in a folder of your own"
    )


def _flocked(fd: int) -> bool:
    """Whether this took the lock of ``fd``; False if another program holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _still_in_place(folder: int, lock: Path, fd: int) -> bool:
    """Whether the lock file locked as ``fd`` is still the one named ``lock``."""
    try:
        named = os.stat(lock.name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return os.path.samestat(named, os.fstat(fd))


def _still_held(fd: int, lock: Path, path: Path, timeout: float) -> OutputError:
    owner = user_name(os.fstat(fd).st_uid)
    seconds = f"{timeout:g} second{'' if timeout == 1 else 's'}"
    return OutputError(
        f"the lock file {lock}, which belongs to {owner}, is still held by another program "
        f"after {seconds}; nothing was changed; try again later",
        file=path,
    )
