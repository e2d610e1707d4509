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

Each path is found as ``sheetgen.folders`` finds it, one folder at a time, and the
temporary is made in the folder so opened: a link that another user made, or could
have changed, is refused when the check is made and again when the file is written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from sheetgen.errors import OutputError
from sheetgen.folders import (
    DEFAULT_FOLDER,
    FolderPath,
    Place,
    check_planted_fifo,
    no_folder,
    opened,
    opened_folder,
    reason,
    user_name,
)

STDOUT = Path("-")
SNIFF_BYTES = 4096
TEMP_NAME_ROOM = 200  # of the 255 bytes a name may have, what a temporary keeps of its file's
TEMP_ATTEMPTS = 100  # names a temporary tries before giving up, as mkstemp does
# What each kind of document sheetgen draws starts with (or, for HTML, holds near its
# start). The exports' own signs are the series wing's (``ExportFormat.wrote``), handed in.
_SIGNS: dict[str, tuple[bytes, ...]] = {
    "pdf": (b"%PDF-",),
    "png": (b"\x89PNG\r\n\x1a\n",),
    "html": (b"<!DOCTYPE html", b"<!doctype html", b"<html"),
}
# Whether the first bytes of a file are a document of a format that sheetgen wrote.
Wrote = Callable[[str, bytes], bool]
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


# Temporaries ------------------------------------------------------------------------------


def _temp_head(path: Path) -> str:
    """How the names of ``path``'s temporaries begin; cut so that a long but valid file
    name still leaves room for the rest of a temporary's name."""
    return f".{path.name[:TEMP_NAME_ROOM]}."


def _temp_prefix(path: Path) -> str:
    """Temporaries carry the writer's process id, so a later writer knows which are stale."""
    return f"{_temp_head(path)}{os.getpid()}-"


@contextlib.contextmanager
def _synced_temp(place: Place, data: bytes, mode: int, *, sync: bool = True) -> Iterator[Path]:
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
    folder ``walk`` finds."""
    if folder is None:
        with opened_folder(path.parent) as parent:
            return _temp_file(path, data, mode, sync=sync, folder=parent)
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
            raise OutputError(f"cannot write in {path.parent} ({reason(exc)})", file=path) from None
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
            raise OutputError(f"cannot write in {path.parent} ({reason(exc)})", file=path) from None
        raise
    return tmp


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
    with opened(folder) as place:
        if place.info is not None and stat.S_ISDIR(place.info.st_mode):
            return False
        try:
            os.mkdir(place.name, dir_fd=place.folder)
        except OSError as exc:
            raise OutputError(f"cannot make this folder ({reason(exc)})", file=folder) from None
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
    with opened(path) as place:
        _check_replaceable(path, place)


def _check_replaceable(path: Path, place: Place) -> None:
    """``check_replaceable``, for the file ``walk`` found at ``place``."""
    info = place.info
    if info is None:
        return  # nothing there yet (or a dangling link): the file it names will be made
    if stat.S_ISFIFO(info.st_mode):
        check_planted_fifo(path, info, os.fstat(place.folder))
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
    or could have changed, in a folder other users may write to (see ``walk``)."""
    with opened(folder):
        pass


def _check_file(path: Path, place: Place) -> None:
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
    with opened(path) as place:
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
                raise OutputError(f"cannot write here ({reason(exc)})", file=place.path) from None


def write_document(path: Path, data: bytes) -> None:
    """Write a document sheetgen made (a sheet, a booklet, an export): atomically, as every
    file, but not fsynced, since running the command again makes it again."""
    write_bytes(path, data, durable=False)


def write_cached(path: Path, data: bytes) -> None:
    """Write a cache entry: a temporary beside ``path`` (readable by its owner alone) renamed
    over it, so a reader sees the old entry or the new one, never half of one. Not fsynced:
    an entry a power cut loses is only made again."""
    with opened(path) as place, _synced_temp(place, data, 0o600, sync=False) as tmp:
        try:
            os.replace(tmp, place.path)
        except OSError as exc:
            raise OutputError(f"cannot write here ({reason(exc)})", file=place.path) from None


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
        with opened(path) as place:
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
                raise OutputError(f"cannot write here ({reason(exc)})", file=path) from None
            _TEMPORARIES.discard(tmp)
            written.append(path)
        self._files.clear()
        for path, data in self._streams:
            with opened(path) as place:
                _stream(place, data)
            written.append(path)
        return written


def _stream(place: Place, data: bytes) -> None:
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
        raise OutputError(f"cannot write here ({reason(exc)})", file=path) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            raise OutputError(
                "changed while sheetgen was writing it; run the command again", file=path
            )
        if stat.S_ISFIFO(info.st_mode):
            check_planted_fifo(path, info, os.fstat(place.folder))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise OutputError(f"cannot write here ({reason(exc)})", file=path) from None


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
    wrote: Wrote | None = None,
) -> tuple[Path, str]:
    """Where a document goes and in which format, checked before it is made.

    No ``output``: ``output/<stem>.<fmt>``, making ``output/`` itself if needed
    (never any other folder). An ``output`` folder gets ``<stem>.<fmt>`` inside
    it. A file name's suffix decides the format unless ``fmt`` says otherwise,
    and a suffix of another kind is refused. ``wrote`` tells a document of the format
    that sheetgen wrote (and so may replace) for formats it does not know itself.
    """
    if output is None:
        fmt = fmt or formats[0]
        _make_default_folder()
        path = DEFAULT_FOLDER / f"{stem}.{fmt}"
    elif output == STDOUT:
        return output, fmt or formats[0]
    elif output.is_dir() or isinstance(output, FolderPath):
        _make_folder(output)
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
    check_target(path, fmt, reads=reads, force=force, wrote=wrote)
    return path, fmt


def _make_folder(folder: Path) -> None:
    """``folder`` (``-o newdir/``), made if missing (in a folder that is there), and
    checked."""
    try:
        folder.mkdir(exist_ok=True)
    except FileNotFoundError:
        raise no_folder(folder.parent) from None
    except OSError as exc:
        raise OutputError(f"cannot make this folder ({reason(exc)})", file=folder) from None
    _check_folder(folder)


def _make_default_folder() -> None:
    """Make ``output/`` in the working folder unless it is there: a folder of the user's
    own, reached through no link another user could have made or changed. Where others
    may write, someone could have made it first, to read or change what goes in it."""
    if Path.cwd() == Path(Path.cwd().anchor):
        raise OutputError(
            f"would write to {DEFAULT_FOLDER.absolute()}, a folder at the file system's root; "
            "run sheetgen from a folder of your own, or choose where to write with -o"
        )
    try:
        DEFAULT_FOLDER.mkdir()  # never through a link: one of that name is "already there"
    except FileExistsError:
        pass
    except OSError as exc:
        raise OutputError(
            f"{DEFAULT_FOLDER.absolute()}: cannot make this folder ({reason(exc)}); "
            "choose where to write with -o"
        ) from None
    with opened(DEFAULT_FOLDER) as place:
        info = place.info
    if info is None or not stat.S_ISDIR(info.st_mode):
        raise OutputError(
            f"{DEFAULT_FOLDER.absolute()}: cannot make this folder "
            f"({os.strerror(errno.EEXIST)}); choose where to write with -o"
        )
    if info.st_uid != os.geteuid():
        raise OutputError(
            f"{DEFAULT_FOLDER}: belongs to {user_name(info.st_uid)}, who could read or change "
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


def check_target(
    path: Path,
    fmt: str,
    *,
    reads: Iterable[Path] = (),
    force: bool = False,
    wrote: Wrote | None = None,
) -> None:
    """Refuse a destination that would lose data; see ``destination``."""
    if path == STDOUT:
        return
    folder = path.parent if str(path.parent) else Path(".")
    _refuse_input(path, list(reads))
    _refuse_working_file(path)
    if not folder.is_dir():
        raise no_folder(folder)
    check_replaceable(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"cannot be used ({reason(exc)})", file=path) from None
    replaces = info is not None and stat.S_ISREG(info.st_mode) and info.st_size > 0
    if replaces and not force and not looks_like(path, fmt, wrote):
        raise OutputError(
            f"{path}: is not a {fmt.upper()} file sheetgen wrote, and writing would "
            "replace it; choose another name, or add --force to replace it"
        )
    stream = info is not None and not stat.S_ISREG(info.st_mode)
    if not stream and not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(
            f"{folder.absolute()}: this folder is not writable; choose where to write with -o"
        )


def looks_like(path: Path, fmt: str, wrote: Wrote | None = None) -> bool:
    """Whether the file at ``path`` is a ``fmt`` document of the kind sheetgen writes:
    by ``wrote`` where given, else by what sheetgen's drawn documents start with."""
    try:
        with path.open("rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return False
    if wrote is not None:
        return wrote(fmt, head)
    signs = _SIGNS.get(fmt, ())
    if fmt == "html":
        return any(sign in head for sign in signs)
    return any(head.startswith(sign) for sign in signs)


def create_bytes(path: Path, data: bytes) -> None:
    """Write a new file atomically; refuse to replace one that is already there."""
    if os.path.lexists(path):
        raise OutputError("already exists; sheetgen will not overwrite it", file=path)
    with opened(path) as place:
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
                raise OutputError(f"cannot write here ({reason(exc)})", file=path) from None


def write_text(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (or to standard output for ``-``).

    A document piped or redirected from standard output is a file's content, so it is
    UTF-8 whatever the terminal's encoding (a name in Greek under a latin-1 locale would
    otherwise become an escape, and the CSV read back a different player); on a terminal
    it is for reading, in the terminal's own encoding."""
    if path == STDOUT:
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is not None and not sys.stdout.isatty():
            sys.stdout.flush()
            buffer.write(text.encode("utf-8"))
            buffer.flush()
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
        return
    write_bytes(path, text.encode("utf-8"))


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
