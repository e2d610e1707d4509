"""Compiled templates kept between runs, in a folder only the user can write.

A cache entry is code that Python runs, so the folder must be the user's alone: it is
``sheetgen/templates`` under ``$XDG_CACHE_HOME`` (or ``~/.cache``), made with mode 0700,
and used only if it and ``sheetgen/`` above it are real folders (not links) owned by
the user that nobody else may write, in a cache folder that is the user's (or root's, or
sticky, as /tmp is). Anything else, and there is no cache: silently, as Python runs
without ``.pyc`` files where it cannot write them. Never a shared temporary folder, where
another user can plant a name first (jinja2's own cache there changed the mode of
whatever a planted link pointed at).

An entry is read only if it is a regular file owned by the user, opened without
following a link or waiting on a FIFO; whatever it holds that is not this cache's own
code for this template (a damaged, truncated or foreign file) is a miss. Entries are
written by a rename, so a reader never sees half of one. Each entry and the folder are
bounded in size: an oversized folder is emptied of its oldest entries.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
from pathlib import Path
from types import CodeType

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket, bc_magic

from sheetgen.atomic import write_cached
from sheetgen.errors import SheetgenError
from sheetgen.folders import planted_link

# bc_magic holds jinja2's cache version and Python's (marshal's format changes with it).
MAGIC = b"sheetgen compiled template 1\n" + bc_magic
MAX_ENTRY = 4 * 1024 * 1024
MAX_FOLDER = 64 * 1024 * 1024
MAX_ENTRIES = 4096
SUFFIX = ".cache"


def _is_private(info: os.stat_result) -> bool:
    """A real folder of this user's that nobody else may write."""
    return (
        stat.S_ISDIR(info.st_mode)
        and info.st_uid == os.geteuid()
        and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def _may_hold_private(info: os.stat_result) -> bool:
    """A folder in which nobody else can replace a folder of this user's."""
    return stat.S_ISDIR(info.st_mode) and (
        info.st_uid in (os.geteuid(), 0)
        and (not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or bool(info.st_mode & stat.S_ISVTX))
    )


def _planted(path: Path) -> bool:
    """Whether ``path`` is a link another user made in a sticky shared folder (/tmp): as
    the kernel's protected_symlinks, such a link is not followed, not even to make the
    folder it names."""
    try:
        link = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISLNK(link.st_mode) and planted_link(path, link)


def private_folder(*parts: str) -> Path | None:
    """The user's own cache folder ``parts`` (made if missing), or None where there is
    none that only the user can write."""
    configured = os.environ.get("XDG_CACHE_HOME", "")
    try:
        base = Path(configured) if os.path.isabs(configured) else Path.home() / ".cache"
        if _planted(base):
            return None
        base = Path(os.path.realpath(base))
        with contextlib.suppress(FileExistsError):
            base.mkdir(mode=0o700)
        if not _may_hold_private(os.lstat(base)):
            return None
        folder = base
        for part in parts:
            folder = folder / part
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=0o700)
            if not _is_private(os.lstat(folder)):
                return None
    except (OSError, RuntimeError, ValueError):  # no home, no permission, a name too long
        return None
    return folder


def read_entry(path: Path) -> bytes | None:
    """The bytes of a regular file of this user's of at most MAX_ENTRY bytes, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_uid != os.geteuid()
            or info.st_size > MAX_ENTRY
        ):
            return None
        with os.fdopen(os.dup(fd), "rb") as source:
            return source.read(MAX_ENTRY + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _trim(folder: Path) -> None:
    """Remove the oldest entries while ``folder`` holds more than a bound (once a run:
    old versions of sheetgen, jinja2 or Python leave entries nobody asks for again)."""
    try:
        entries = []
        with os.scandir(folder) as found:
            for entry in found:
                info = entry.stat(follow_symlinks=False)
                entries.append((info.st_mtime, info.st_size, entry.path))
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    if total <= MAX_FOLDER and len(entries) <= MAX_ENTRIES:
        return
    entries.sort()
    while entries and (total > MAX_FOLDER // 2 or len(entries) > MAX_ENTRIES // 2):
        _, size, path = entries.pop(0)
        with contextlib.suppress(OSError):
            os.unlink(path)
        total -= size


class CompiledTemplates(BytecodeCache):
    """jinja2's compiled templates, kept between runs as Python keeps ``.pyc`` files.

    What: the marshalled code of each template, one ``prefix-<key>.cache`` entry each:
    MAGIC, the template source's checksum and a newline, then the code. Where: ``folder``,
    the user's private cache folder (``private_folder``). Why it is safe: the folder is
    the user's alone, an entry is read only from a regular file of the user's and is a
    miss unless it is this cache's own code for this very source, entries are written by
    a rename, and the folder is bounded; writing never fails the run.
    """

    def __init__(self, folder: Path, prefix: str) -> None:
        self.folder = folder
        self.prefix = prefix
        self._trimmed = False

    def _path(self, name: str) -> Path:
        return self.folder / f"{self.prefix}-{name}{SUFFIX}"

    def load_bytecode(self, bucket: Bucket) -> None:
        head = _code_head(bucket)
        data = read_entry(self._path(bucket.key))
        if data is None or not data.startswith(head):
            return
        try:
            code = marshal.loads(data[len(head) :])
        except (EOFError, ValueError, TypeError):
            return
        if isinstance(code, CodeType):
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is None:
            return
        data = _code_head(bucket) + marshal.dumps(bucket.code)
        if len(data) > MAX_ENTRY:
            return
        if not self._trimmed:
            self._trimmed = True
            _trim(self.folder)
        with contextlib.suppress(SheetgenError, OSError):
            write_cached(self._path(bucket.key), data)


def _code_head(bucket: Bucket) -> bytes:
    return MAGIC + bucket.checksum.encode("ascii") + b"\n"
