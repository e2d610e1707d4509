"""Find a path one folder at a time, never through a link someone else could have made or
changed: who besides the user may write a folder, which links there are planted.

A path is followed from an opened folder (``walk``), each part looked up in the folder
opened before it, and what is done next is done in the folder so opened. A link is
followed only where nobody else could have made or changed it: a folder only the user
and root may write, or the user's and root's own links in a sticky folder of theirs.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import grp
import os
import pwd
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from sheetgen.errors import OutputError

DEFAULT_FOLDER = Path("output")
MAX_LINKS = 40  # links one path may pass through, as Linux allows (then ELOOP)
# A folder opened to find names in, never through a link (O_PATH: no read permission needed).
_FOLDER_FLAGS = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def real_path(handle: int, name: Path) -> Path:
    """Where the file opened as ``handle`` really is, wherever the links on the way to
    ``name`` led when it was opened (without /proc: ``name`` as it resolves now)."""
    try:
        return Path(os.readlink(f"/proc/self/fd/{handle}"))
    except OSError:
        return name.resolve()


def reason(exc: OSError) -> str:
    """Why ``exc`` happened, as a message says it."""
    if exc.errno in (errno.EFBIG, errno.ENOSPC, errno.EDQUOT):
        return f"{exc.strerror}; the disk is full or the file is larger than allowed"
    return exc.strerror or str(exc)


class Place(NamedTuple):
    """Where a file is: its folder, opened, and its name there."""

    folder: int  # the folder, opened (whoever asked for the place closes it)
    name: str  # the file's name in the folder; never a link (one there was followed)
    path: Path  # the same as a path, every link on the way replaced by where it leads
    info: os.stat_result | None  # the file's own status; None when nothing is there yet


def walk(path: Path) -> Place:
    """Find ``path`` one part at a time, each looked up in the folder opened before it, as
    the kernel would; but a link is followed only where nobody else could have made or
    changed it (``_link_refusal``). What is done next is done in the opened folder, so a
    folder swapped for a link after this check leads nowhere else either."""
    parts = list(path.parts[1:] if path.anchor else path.parts) or ["."]
    where = Path(path.anchor)
    links = MAX_LINKS
    fd = os.open(path.anchor or ".", _FOLDER_FLAGS)
    try:
        while True:
            part = parts.pop(0)
            try:
                info: os.stat_result | None = os.stat(part, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                info = None
            except OSError as exc:
                raise OutputError(f"cannot be used ({reason(exc)})", file=path) from None
            if info is not None and stat.S_ISLNK(info.st_mode):
                refusal = _link_refusal(info, os.fstat(fd))
                if refusal is not None:
                    raise OutputError(f"{where / part}: {refusal}")
                links -= 1
                try:
                    if links < 0:
                        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))
                    target = PurePosixPath(os.readlink(part, dir_fd=fd))
                    if target.anchor:
                        os.close(fd)
                        fd = -1
                        fd = os.open("/", _FOLDER_FLAGS)
                        where = Path("/")
                except OSError as exc:
                    raise OutputError(f"cannot be used ({reason(exc)})", file=path) from None
                parts[:0] = list(target.parts[1:] if target.anchor else target.parts) or ["."]
                continue
            if not parts:
                return Place(fd, part, Path(os.path.normpath(where / part)), info)
            if info is None:
                raise no_folder(path.parent)
            try:
                inner = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise OutputError(f"cannot be used ({reason(exc)})", file=path) from None
            os.close(fd)
            fd, where = inner, where / part
    except BaseException:
        if fd >= 0:
            os.close(fd)
        raise


@contextlib.contextmanager
def opened(path: Path) -> Iterator[Place]:
    """``walk(path)``, its folder closed after the block."""
    place = walk(path)
    try:
        yield place
    finally:
        os.close(place.folder)


@contextlib.contextmanager
def opened_folder(folder: Path) -> Iterator[int]:
    """The folder ``folder`` itself, opened as ``walk`` finds it."""
    with opened(folder) as place:
        if place.info is None:
            raise no_folder(folder)
        try:
            fd = os.open(place.name, _FOLDER_FLAGS, dir_fd=place.folder)
        except OSError as exc:
            raise OutputError(f"cannot be used ({reason(exc)})", file=folder) from None
    try:
        yield fd
    finally:
        os.close(fd)


def _others_may_write(folder: os.stat_result) -> bool:
    """Whether someone besides the user and root may change what a folder (``folder`` its
    status) holds: its owner if that is another user, anyone if it is world-writable, the
    members of its group if it is group-writable and they are not the user alone."""
    mine = (os.geteuid(), 0)
    if folder.st_uid not in mine or folder.st_mode & stat.S_IWOTH:
        return True
    return bool(folder.st_mode & stat.S_IWGRP) and not _group_members(folder.st_gid) <= set(mine)


@functools.cache
def _group_members(gid: int) -> frozenset[int]:
    """Who may be in group ``gid``: the users it lists and those whose own group it is
    (-1 stands for anyone, where the group or a member cannot be looked up)."""
    try:
        listed = set(grp.getgrgid(gid).gr_mem)
    except KeyError:
        return frozenset({-1})
    members = set()
    for entry in pwd.getpwall():
        if entry.pw_gid == gid or entry.pw_name in listed:
            members.add(entry.pw_uid)
            listed.discard(entry.pw_name)
    return frozenset(members | ({-1} if listed else set()))


def _link_refusal(link: os.stat_result, folder: os.stat_result) -> str | None:
    """Why sheetgen does not follow a link (``link`` its lstat) in a folder (``folder`` its
    status), or None if it may. Where only the user and root may write, any link is
    followed; in a sticky folder of the user's or root's (/tmp), the user's and root's own
    links, as the kernel's protected_symlinks does, since nobody else can change them;
    elsewhere none, as anyone who may write there could have swapped it a moment ago."""
    if not _others_may_write(folder):
        return None
    if link.st_uid not in (os.geteuid(), 0):
        return "is a link another user made in a shared folder; sheetgen does not write through it"
    if folder.st_mode & stat.S_ISVTX and folder.st_uid in (os.geteuid(), 0):
        return None
    return (
        "is a link in a folder other users may write to, so anyone there could change where "
        "it leads; sheetgen does not write through it"
    )


def planted_link(path: Path, link: os.stat_result) -> bool:
    """Whether sheetgen must not follow the link ``path`` (``link`` its lstat): one in a
    folder other users may write to that someone else made or could have changed."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        where = folder.stat()
    except OSError:
        return False
    return _link_refusal(link, where) is not None


def check_planted_fifo(path: Path, info: os.stat_result, folder: os.stat_result) -> None:
    """As the kernel's protected_fifos: in a folder others may write to, write only into
    a FIFO of the user's own or root's (another user's would read the document)."""
    if _others_may_write(folder) and info.st_uid not in (os.geteuid(), 0):
        raise OutputError(
            f"{path}: is a FIFO another user made in a shared folder; "
            "sheetgen does not write into it"
        )


def user_name(uid: int) -> str:
    """The name of the user ``uid``, or "user UID" where it has none."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user {uid}"


def no_folder(folder: Path) -> OutputError:
    """The refusal of a path whose folder ``folder`` is not there."""
    return OutputError(
        f"{folder}: no such folder; sheetgen makes only {DEFAULT_FOLDER}/ by itself, "
        "so check the spelling or create the folder first"
    )


class FolderPath(type(Path())):  # type: ignore[misc]
    """A path written with a trailing slash (``-o newdir/``): a folder, made if it is
    missing, never a file of that name."""


def as_given(text: str) -> Path:
    """The path a user typed, a trailing slash kept as the folder it means."""
    if len(text) > 1 and text.endswith(("/", os.sep)):
        return FolderPath(text)
    return Path(text)
