"""Write files so that a crash never leaves half of one behind, and never over the wrong file.

Every file sheetgen writes goes to a temporary file in the destination's own
folder and is renamed over the destination, so a reader sees the old file or the
new one, never half of one. A series file, which holds what only the table knows,
is also fsynced before the rename and its folder after it, so the write survives a
power cut. A document (a sheet, a booklet, an export) is made again from its
inputs by running the command again, so it is not: the two fsyncs cost about as
much as drawing a blank sheet.

Before a document is made, ``destination`` decides where it goes and in which
format and refuses what would lose data: a file the command reads, a file that
is not a document of that kind (unless forced), a folder nobody made, a file
the user may not write, a second name of a hard-linked file, a link in a folder
that other users may write to.

A path is followed one folder at a time from an opened folder (``_walk``), and the
temporary is made in the folder so opened: a link that another user made, or could
have changed, is refused when the check is made and again when the file is written.
A series is changed under its lock (``hold_lock``), which is never reached through
a link either.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import grp
import os
import pwd
import re
import secrets
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import BinaryIO, NamedTuple

from sheetgen.errors import OutputError

STDOUT = Path("-")
DEFAULT_FOLDER = Path("output")
SNIFF_BYTES = 4096
MAX_LINKS = 40  # links one path may pass through, as Linux allows (then ELOOP)
TEMP_NAME_ROOM = 200  # of the 255 bytes a name may have, what a temporary keeps of its file's
TEMP_ATTEMPTS = 100  # names a temporary tries before giving up, as mkstemp does
LOCK_POLL = 0.05  # seconds between two looks at a lock another program holds
# A folder opened to find names in, never through a link (O_PATH: no read permission needed).
_FOLDER_FLAGS = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# What each kind of document sheetgen writes starts with (or holds near its start).
_SIGNS: dict[str, tuple[bytes, ...]] = {
    "pdf": (b"%PDF-",),
    "png": (b"\x89PNG\r\n\x1a\n",),
    "html": (b"<!DOCTYPE html", b"<!doctype html", b"<html"),
    "json": (b'"sides"',),
    "csv": (b",points,total ",),
    "md": (b"\n| Side | Total | Games won |",),
}
# File kinds a mistyped -o most often names: never written under another kind's name.
KNOWN_SUFFIXES = frozenset(
    {"pdf", "png", "html", "json", "csv", "md", "yaml", "yml", "toml", "txt", "svg", "jpg"}
)
# What this process is in the middle of writing: its temporaries and the folders it made
# for a batch, so that an exit that cannot wait (Ctrl-C) leaves none of them behind.
_TEMPORARIES: set[Path] = set()
_MADE_FOLDERS: list[Path] = []
# The folders this process makes temporaries in: one whose name Ctrl-C kept from
# _TEMPORARIES (made, not yet noted) is found there by the process id in its name.
_TEMP_FOLDERS: set[Path] = set()


def abandon_writes() -> None:
    """Remove this process's temporaries, and the folders it made for a batch if empty."""
    for tmp in list(_TEMPORARIES):
        with contextlib.suppress(OSError):
            tmp.unlink()
    own = str(os.getpid())
    for folder in list(_TEMP_FOLDERS):
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                found = _TEMPORARY.fullmatch(entry.name)
                if found and found["pid"] == own and entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
    for folder in reversed(_MADE_FOLDERS):
        with contextlib.suppress(OSError):
            folder.rmdir()


def _fsync_dir(folder: int) -> None:
    """Fsync the folder opened as ``folder`` (an O_PATH descriptor cannot be fsynced)."""
    try:
        fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: OSError) -> str:
    if exc.errno in (errno.EFBIG, errno.ENOSPC, errno.EDQUOT):
        return f"{exc.strerror}; the disk is full or the file is larger than allowed"
    return exc.strerror or str(exc)


# Finding a file without following a link others could change ---------------------------


class _Place(NamedTuple):
    """Where a file is: its folder, opened, and its name there."""

    folder: int  # the folder, opened (whoever asked for the place closes it)
    name: str  # the file's name in the folder; never a link (one there was followed)
    path: Path  # the same as a path, every link on the way replaced by where it leads
    info: os.stat_result | None  # the file's own status; None when nothing is there yet


def _walk(path: Path) -> _Place:
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
                raise OutputError(f"cannot be used ({_reason(exc)})", file=path) from None
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
                    raise OutputError(f"cannot be used ({_reason(exc)})", file=path) from None
                parts[:0] = list(target.parts[1:] if target.anchor else target.parts) or ["."]
                continue
            if not parts:
                return _Place(fd, part, Path(os.path.normpath(where / part)), info)
            if info is None:
                raise _no_folder(path.parent)
            try:
                inner = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise OutputError(f"cannot be used ({_reason(exc)})", file=path) from None
            os.close(fd)
            fd, where = inner, where / part
    except BaseException:
        if fd >= 0:
            os.close(fd)
        raise


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[_Place]:
    """``_walk(path)``, its folder closed after the block."""
    place = _walk(path)
    try:
        yield place
    finally:
        os.close(place.folder)


@contextlib.contextmanager
def _opened_folder(folder: Path) -> Iterator[int]:
    """The folder ``folder`` itself, opened as ``_walk`` finds it."""
    with _opened(folder) as place:
        if place.info is None:
            raise _no_folder(folder)
        try:
            fd = os.open(place.name, _FOLDER_FLAGS, dir_fd=place.folder)
        except OSError as exc:
            raise OutputError(f"cannot be used ({_reason(exc)})", file=folder) from None
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


def _check_planted_fifo(path: Path, info: os.stat_result, folder: os.stat_result) -> None:
    """As the kernel's protected_fifos: in a folder others may write to, write only into
    a FIFO of the user's own or root's (another user's would read the document)."""
    if _others_may_write(folder) and info.st_uid not in (os.geteuid(), 0):
        raise OutputError(
            f"{path}: is a FIFO another user made in a shared folder; "
            "sheetgen does not write into it"
        )


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user {uid}"


# Temporaries ------------------------------------------------------------------------------


def _temp_head(path: Path) -> str:
    """How the names of ``path``'s temporaries begin; cut so that a long but valid file
    name still leaves room for the rest of a temporary's name."""
    return f".{path.name[:TEMP_NAME_ROOM]}."


def _temp_prefix(path: Path) -> str:
    """Temporaries carry the writer's process id, so a later writer knows which are stale."""
    return f"{_temp_head(path)}{os.getpid()}-"


@contextlib.contextmanager
def _synced_temp(place: _Place, data: bytes, mode: int, *, sync: bool = True) -> Iterator[Path]:
    """A fsynced temporary file beside ``place`` holding ``data``; removed if still there after."""
    tmp = _temp_file(place.path, data, mode, sync=sync, folder=place.folder)
    try:
        yield tmp
    finally:
        _drop(tmp)
    if sync:
        _fsync_dir(place.folder)


def _drop(tmp: Path) -> None:
    """Remove a temporary unless it was renamed into place; forget it either way."""
    with contextlib.suppress(OSError):
        tmp.unlink()
    _TEMPORARIES.discard(tmp)


def _temp_file(
    path: Path, data: bytes, mode: int, *, sync: bool = True, folder: int | None = None
) -> Path:
    """A new fsynced temporary file beside ``path`` holding ``data``, for the caller to
    rename or remove; made in ``folder`` (the folder of ``path``, opened), or in the
    folder ``_walk`` finds."""
    if folder is None:
        with _opened_folder(path.parent) as opened:
            return _temp_file(path, data, mode, sync=sync, folder=opened)
    _TEMP_FOLDERS.add(path.parent)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(TEMP_ATTEMPTS):
        name = f"{_temp_prefix(path)}{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(name, flags, 0o600, dir_fd=folder)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise OutputError(
                f"cannot write in {path.parent} ({_reason(exc)})", file=path
            ) from None
    else:
        raise OutputError(f"cannot write in {path.parent} (no free temporary name)", file=path)
    tmp = path.parent / name
    _TEMPORARIES.add(tmp)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), mode)
    except BaseException as exc:
        _drop(tmp)
        if isinstance(exc, OSError):
            raise OutputError(
                f"cannot write in {path.parent} ({_reason(exc)})", file=path
            ) from None
        raise
    return tmp


def _no_folder(folder: Path) -> OutputError:
    return OutputError(
        f"{folder}: no such folder; sheetgen makes only {DEFAULT_FOLDER}/ by itself, "
        "so check the spelling or create the folder first"
    )


@contextlib.contextmanager
def batch_folder(folder: Path) -> Iterator[Path]:
    """``make_folder``, for a block that writes into it: if the block fails and the folder
    it made is still empty, the folder goes again."""
    made = make_folder(folder)
    if made:
        _MADE_FOLDERS.append(folder)
    try:
        yield folder
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    finally:
        if made:
            _MADE_FOLDERS.remove(folder)


def make_folder(folder: Path) -> bool:
    """Make the folder a user named for a batch, but never the folders above it; whether
    it was made."""
    parent = folder.parent if str(folder.parent) else Path(".")
    if parent == DEFAULT_FOLDER and not os.path.lexists(parent):
        destination(None, "pdf", formats=("pdf",), stem="")  # makes output/ as for a document
    with _opened(folder) as place:
        if place.info is not None and stat.S_ISDIR(place.info.st_mode):
            return False
        try:
            os.mkdir(place.name, dir_fd=place.folder)
        except OSError as exc:
            raise OutputError(f"cannot make this folder ({_reason(exc)})", file=folder) from None
    return True


def sweep_stale_temporaries(
    path: Path, entries: Sequence[os.DirEntry[str]] | None = None
) -> list[Path]:
    """Remove temporaries of ``path`` left by writers that died; return what was removed.

    A temporary is stale when the process named in it is gone. Only the user's
    own files are touched. ``entries`` is the folder's listing, if already read.
    """
    folder = path.parent if str(path.parent) else Path(".")
    head = _temp_head(path)
    removed: list[Path] = []
    if entries is None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(head) and name.endswith(".tmp")):
            continue
        pid_text = name[len(head) :].split("-", 1)[0]
        if not pid_text.isascii() or not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            if entry.stat(follow_symlinks=False).st_uid == os.geteuid():
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


# Checks ---------------------------------------------------------------------------------


def check_replaceable(path: Path) -> None:
    """Refuse to replace a file as ``cp`` would refuse, or where replacing would split it.

    The file must be the user's own and writable by them, and have one name only;
    no link on the way to it is one that someone else made, or could have changed,
    in a folder other users may write to.
    """
    with _opened(path) as place:
        _check_replaceable(path, place)


def _check_replaceable(path: Path, place: _Place) -> None:
    """``check_replaceable``, for the file ``_walk`` found at ``place``."""
    info = place.info
    if info is None:
        return  # nothing there yet (or a dangling link): the file it names will be made
    if stat.S_ISFIFO(info.st_mode):
        _check_planted_fifo(path, info, os.fstat(place.folder))
    if not stat.S_ISREG(info.st_mode):
        return
    if info.st_uid != os.geteuid():
        raise OutputError(
            f"{path}: belongs to another user; sheetgen replaces only your own files, "
            "so write somewhere else"
        )
    if not info.st_mode & stat.S_IWUSR:
        raise OutputError("is read-only; make it writable first if it should change", file=path)
    if info.st_nlink > 1:
        raise OutputError(
            f"{path}: has {info.st_nlink} names (hard links); replacing it would split them, "
            "so sheetgen leaves it alone; give it a file of its own with cp"
        )


def _check_folder(folder: Path) -> None:
    """A folder named for documents is not reached through a link that someone else made,
    or could have changed, in a folder other users may write to (see ``_walk``)."""
    with _opened(folder):
        pass


def _check_file(path: Path, place: _Place) -> None:
    """The file a write to ``path`` replaces, found at ``place``, may be replaced; a
    folder is refused."""
    _check_replaceable(path, place)
    if place.info is not None and stat.S_ISDIR(place.info.st_mode):
        raise OutputError("is a folder; give a file name to write to", file=place.path)


def _is_stream(info: os.stat_result | None) -> bool:
    """Whether a write goes into what is there instead of replacing it: a FIFO, a device."""
    return info is not None and not stat.S_ISREG(info.st_mode)


# Writing ---------------------------------------------------------------------------------


def write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically (or to standard output for ``-``).

    ``durable`` also fsyncs the file and its folder (for series files); a document, which
    the same command makes again, is written with ``durable=False``."""
    if path == STDOUT:
        out: BinaryIO = sys.stdout.buffer
        out.write(data)
        out.flush()
        return
    with _opened(path) as place:
        _check_file(path, place)
        if _is_stream(place.info):
            _stream(place, data)
            return
        mode = place.info.st_mode & 0o777 if place.info else 0o666 & ~_umask()
        with _synced_temp(place, data, mode, sync=durable) as tmp:
            try:
                # The temporary is in the opened folder: if that folder's name leads
                # elsewhere now, nothing of that name is there and the rename fails.
                os.replace(tmp, place.path)
            except OSError as exc:
                raise OutputError(f"cannot write here ({_reason(exc)})", file=place.path) from None


def write_document(path: Path, data: bytes) -> None:
    """Write a document sheetgen made (a sheet, a booklet, an export): atomically, as every
    file, but not fsynced, since running the command again makes it again."""
    write_bytes(path, data, durable=False)


def write_cached(path: Path, data: bytes) -> None:
    """Write a cache entry: a temporary beside ``path`` (readable by its owner alone) renamed
    over it, so a reader sees the old entry or the new one, never half of one. Not fsynced:
    an entry a power cut loses is only made again."""
    with _opened(path) as place, _synced_temp(place, data, 0o600, sync=False) as tmp:
        try:
            os.replace(tmp, place.path)
        except OSError as exc:
            raise OutputError(f"cannot write here ({_reason(exc)})", file=place.path) from None


class Staged:
    """Documents written as one: each goes to a temporary beside its destination, and
    only ``commit`` renames them all into place (not fsynced: see ``write_document``).
    Leaving the ``with`` block without ``commit`` (an error, Ctrl-C) removes every
    temporary: the destinations stay as they were. A FIFO or device destination is kept
    in memory and written at the commit."""

    def __init__(self) -> None:
        self._files: list[tuple[Path, Path]] = []
        self._streams: list[tuple[Path, bytes]] = []
        self._listings: dict[Path, list[os.DirEntry[str]]] = {}

    def __enter__(self) -> Staged:
        return self

    def __exit__(self, *exc: object) -> None:
        for tmp, _ in self._files:
            _drop(tmp)
        self._files.clear()

    def add(self, path: Path, data: bytes) -> None:
        """Write ``data`` for ``path``, checked as ``write_bytes`` checks it; not yet in place."""
        with _opened(path) as place:
            _check_file(path, place)
            if _is_stream(place.info):
                self._streams.append((place.path, data))
                return
            # A batch killed outright (kill -9) leaves its temporaries: the next one clears
            # them, reading each folder once however many files go there.
            folder = place.path.parent
            if folder not in self._listings:
                with contextlib.suppress(OSError):
                    self._listings[folder] = list(os.scandir(folder))
            sweep_stale_temporaries(place.path, self._listings.get(folder, []))
            mode = place.info.st_mode & 0o777 if place.info else 0o666 & ~_umask()
            tmp = _temp_file(place.path, data, mode, sync=False, folder=place.folder)
            self._files.append((tmp, place.path))

    def commit(self) -> list[Path]:
        """Put every file in place; the destinations written, in order."""
        written = []
        for tmp, path in self._files:
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise OutputError(f"cannot write here ({_reason(exc)})", file=path) from None
            _TEMPORARIES.discard(tmp)
            written.append(path)
        self._files.clear()
        for path, data in self._streams:
            with _opened(path) as place:
                _stream(place, data)
            written.append(path)
        return written


def _stream(place: _Place, data: bytes) -> None:
    """Write into a FIFO or a device (a printer pipe, /dev/stdout): nothing there to rename.

    A FIFO is opened without waiting first: with no program reading it, opening it
    would block for ever. What was opened is checked again, as it may have changed
    since it was looked at."""
    path = place.path
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(place.name, flags, dir_fd=place.folder)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputError(
                "no program is reading this FIFO; start the reader first", file=path
            ) from None
        raise OutputError(f"cannot write here ({_reason(exc)})", file=path) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            raise OutputError(
                "changed while sheetgen was writing it; run the command again", file=path
            )
        if stat.S_ISFIFO(info.st_mode):
            _check_planted_fifo(path, info, os.fstat(place.folder))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise OutputError(f"cannot write here ({_reason(exc)})", file=path) from None


def refuse_own_input(outputs: Iterable[Path], inputs: Iterable[Path]) -> None:
    """Refuse to write a document over one of the files it is made from."""
    sources = list(inputs)
    for out in outputs:
        _refuse_input(out, sources)


def _refuse_input(out: Path, inputs: Sequence[Path]) -> None:
    """Same file by inode, so hard links and symlinks to an input are caught too."""
    if out == STDOUT:
        return
    for src in inputs:
        with contextlib.suppress(OSError):
            if os.path.samefile(out, src):
                same = "" if out == src else f" (the same file as {src})"
                raise OutputError(
                    f"{out}: is a file this command reads{same}; write the result somewhere else"
                )


def destination(
    output: Path | None,
    fmt: str | None,
    *,
    formats: Sequence[str],
    stem: str,
    reads: Iterable[Path] = (),
    force: bool = False,
) -> tuple[Path, str]:
    """Where a document goes and in which format, checked before it is made.

    No ``output``: ``output/<stem>.<fmt>``, making ``output/`` itself if needed
    (never any other folder). An ``output`` folder gets ``<stem>.<fmt>`` inside
    it. A file name's suffix decides the format unless ``fmt`` says otherwise,
    and a suffix of another kind is refused.
    """
    if output is None:
        fmt = fmt or formats[0]
        _make_default_folder()
        path = DEFAULT_FOLDER / f"{stem}.{fmt}"
    elif output == STDOUT:
        return output, fmt or formats[0]
    elif output.is_dir():
        _check_folder(output)
        fmt = fmt or formats[0]
        path = output / f"{stem}.{fmt}"
    else:
        path = output
        reads = list(reads)
        _refuse_input(path, reads)
        suffix = output.suffix.lower().lstrip(".")
        if suffix in formats:
            if fmt is not None and fmt != suffix:
                raise OutputError(
                    f"{output}: the name ends in .{suffix} but --format {fmt} was asked for; "
                    f"name the file .{fmt} or leave out --format"
                )
            fmt = suffix
        elif suffix in KNOWN_SUFFIXES and not force and not _names_stream(output):
            kinds = " or ".join(f".{name}" for name in formats)
            raise OutputError(
                f"{output}: names a .{suffix} file, but this writes {kinds}; "
                f"end the name in {kinds} (or add --force)"
            )
        else:
            fmt = fmt or formats[0]
    check_target(path, fmt, reads=reads, force=force)
    return path, fmt


def _make_default_folder() -> None:
    """Make ``output/`` in the working folder unless it is there: a folder of the user's
    own, reached through no link another user could have made or changed. Where others
    may write, someone could have made it first, to read or change what goes in it."""
    try:
        DEFAULT_FOLDER.mkdir()  # never through a link: one of that name is "already there"
    except FileExistsError:
        pass
    except OSError as exc:
        raise OutputError(
            f"{DEFAULT_FOLDER.absolute()}: cannot make this folder ({_reason(exc)}); "
            "choose where to write with -o"
        ) from None
    with _opened(DEFAULT_FOLDER) as place:
        info = place.info
    if info is None or not stat.S_ISDIR(info.st_mode):
        raise OutputError(
            f"{DEFAULT_FOLDER.absolute()}: cannot make this folder "
            f"({os.strerror(errno.EEXIST)}); choose where to write with -o"
        )
    if info.st_uid != os.geteuid():
        raise OutputError(
            f"{DEFAULT_FOLDER}: belongs to {_user_name(info.st_uid)}, who could read or change "
            "what sheetgen writes in it; choose where to write with -o"
        )


_TEMPORARY = re.compile(r"\..+\.(?P<pid>[0-9]+)-[^/]*\.tmp")


def _refuse_working_file(path: Path) -> None:
    """Refuse a name that another write depends on, even with --force: a lock file (a
    series' ``.friday.yaml.lock``, an editor's ``.#friday.yaml``) or a writer's temporary.
    Replacing a lock by a rename would let two writers hold two different locks."""
    what = _working_file(path.name)
    if what is not None:
        raise OutputError(f"{path}: is {what}; choose another name")
    # A link to one (lk.pdf -> .friday.yaml.lock) would have the file it names replaced.
    real = Path(os.path.realpath(path))
    what = _working_file(real.name)
    if what is not None:
        raise OutputError(f"{path}: is a link to {real}, which is {what}; choose another name")


def _working_file(name: str) -> str | None:
    """What a file of this name is, if another write depends on it; else None."""
    if name.lower().endswith(".lock") or name.startswith(".#"):
        return "a lock file, not a document; replacing it could let two programs change one file"
    if _TEMPORARY.fullmatch(name):
        return "a temporary file of a sheetgen that is writing, not a document"
    return None


def _names_stream(path: Path) -> bool:
    with contextlib.suppress(OSError):
        return not stat.S_ISREG(path.stat().st_mode) and not path.is_dir()
    return False


def check_target(path: Path, fmt: str, *, reads: Iterable[Path] = (), force: bool = False) -> None:
    """Refuse a destination that would lose data; see ``destination``."""
    if path == STDOUT:
        return
    folder = path.parent if str(path.parent) else Path(".")
    _refuse_input(path, list(reads))
    _refuse_working_file(path)
    if not folder.is_dir():
        raise _no_folder(folder)
    check_replaceable(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"cannot be used ({_reason(exc)})", file=path) from None
    replaces = info is not None and stat.S_ISREG(info.st_mode) and info.st_size > 0
    if replaces and not force and not looks_like(path, fmt):
        raise OutputError(
            f"{path}: is not a {fmt.upper()} file sheetgen wrote, and writing would "
            "replace it; choose another name, or add --force to replace it"
        )
    stream = info is not None and not stat.S_ISREG(info.st_mode)
    if not stream and not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(
            f"{folder.absolute()}: this folder is not writable; choose where to write with -o"
        )


def looks_like(path: Path, fmt: str) -> bool:
    """Whether the file at ``path`` is a ``fmt`` document of the kind sheetgen writes."""
    try:
        with path.open("rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return False
    signs = _SIGNS.get(fmt, ())
    if fmt in ("json", "html", "md", "csv"):
        return any(sign in head for sign in signs)
    return any(head.startswith(sign) for sign in signs)


def create_bytes(path: Path, data: bytes) -> None:
    """Write a new file atomically; refuse to replace one that is already there."""
    if os.path.lexists(path):
        raise OutputError("already exists; sheetgen will not overwrite it", file=path)
    with _opened(path) as place:
        if place.info is not None:
            raise OutputError("already exists; sheetgen will not overwrite it", file=path)
        with _synced_temp(place, data, 0o666 & ~_umask()) as tmp:
            try:
                # A hard link fails if the name exists, so a file made meanwhile is never
                # replaced.
                os.link(tmp.name, place.name, src_dir_fd=place.folder, dst_dir_fd=place.folder)
            except FileExistsError:
                raise OutputError(
                    "already exists; sheetgen will not overwrite it", file=path
                ) from None
            except OSError as exc:
                raise OutputError(f"cannot write here ({_reason(exc)})", file=path) from None


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


# The lock of a series ---------------------------------------------------------------------


@contextlib.contextmanager
def hold_lock(
    path: Path, *, timeout: float, waiting: Callable[[], None] | None = None
) -> Iterator[Path]:
    """Hold the lock of the file at ``path`` while the block runs; the real file's path.

    The lock is ``flock`` on ``.NAME.lock`` beside the real file, so that two links to
    one file still wait for each other. It is made if missing and stays after, since
    removing it could let two writers hold two different locks. It is opened in the
    folder ``_walk`` opened and never through a link: a link, or anything but a plain
    file, in its place is refused. ``waiting`` is called once if another program holds
    the lock, before waiting up to ``timeout`` seconds for it; after that the refusal
    names the lock file's owner, the user whose program most likely holds it. A lock
    file that cannot be opened or locked raises the OSError that says why.
    """
    with _opened(path) as place:
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
    owner = _user_name(info.st_uid)
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
        f"{lock}: is {kind} (made by {_user_name(info.st_uid)}), not a lock file; "
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
    owner = _user_name(os.fstat(fd).st_uid)
    seconds = f"{timeout:g} second{'' if timeout == 1 else 's'}"
    return OutputError(
        f"the lock file {lock}, which belongs to {owner}, is still held by another program "
        f"after {seconds}; nothing was changed; try again later",
        file=path,
    )
