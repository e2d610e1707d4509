"""Write files so that a crash never leaves half of one behind.

Every file sheetgen writes goes to a temporary file in the destination's own
folder, is flushed and fsynced, then renamed over the destination, and the
folder is fsynced so the rename itself survives a power cut.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from sheetgen.errors import OutputError

STDOUT = Path("-")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def _synced_temp(path: Path, data: bytes, mode: int) -> Iterator[Path]:
    """A fsynced temporary file beside ``path`` holding ``data``; removed if still there after."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write here ({exc.strerror or exc})") from exc
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        yield tmp
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    _fsync_dir(folder)


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (or to standard output for ``-``)."""
    if path == STDOUT:
        out: BinaryIO = sys.stdout.buffer
        out.write(data)
        out.flush()
        return
    # A symlink stays a link: the file it points at is the one replaced.
    path = Path(os.path.realpath(path)) if path.is_symlink() else path
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give a file name to write to")
    if path.exists() and not path.is_file():
        _stream(path, data)
        return
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o666 & ~_umask()
    with _synced_temp(path, data, mode) as tmp:
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise OutputError(f"{path}: cannot write here ({exc.strerror or exc})") from exc


def _stream(path: Path, data: bytes) -> None:
    """Write into a FIFO or a device (a printer pipe, /dev/stdout): nothing there to rename."""
    try:
        with path.open("wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write here ({exc.strerror or exc})") from exc


def refuse_own_input(outputs: Iterable[Path], inputs: Iterable[Path]) -> None:
    """Refuse to write a document over one of the files it is made from."""
    sources = [src for src in inputs if src.is_file()]
    for out in outputs:
        if out == STDOUT or not out.exists():
            continue
        for src in sources:
            if os.path.samefile(out, src):
                raise OutputError(
                    f"{out}: is the series file being read; write the document somewhere else"
                )


def create_bytes(path: Path, data: bytes) -> None:
    """Write a new file atomically; refuse to replace one that is already there."""
    if path.exists():
        raise OutputError(f"{path}: already exists; sheetgen will not overwrite it")
    with _synced_temp(path, data, 0o666 & ~_umask()) as tmp:
        try:
            # A hard link fails if the name exists, so a file made meanwhile is never replaced.
            os.link(tmp, path)
        except FileExistsError:
            raise OutputError(f"{path}: already exists; sheetgen will not overwrite it") from None
        except OSError as exc:
            raise OutputError(f"{path}: cannot write here ({exc.strerror or exc})") from exc


def write_text(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (or to standard output for ``-``)."""
    if path == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_bytes(path, text.encode("utf-8"))


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
