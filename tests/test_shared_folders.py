"""Folders other users may write to (issue 28, findings 2 and 13): sheetgen follows no
link there, sticky or not, and a series' lock there is never reached through a link and
names its owner when another program keeps it.

The attacks run sheetgen as the victim ("sheetgen-guest") in a folder the attacker
("sheetgen-other") may write to; the attacker's links and lock files are made by the test
(as root) and given to the attacker. Each refusal is one ``Error:`` line naming the path,
and the victim's files are byte-identical afterwards.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hostile import (
    assert_refused,
    owned,
    python_for,
    run,
    shared_folder,
    snapshot,
    temporaries,
    users,
)

from sheetgen import atomic
from sheetgen.errors import OutputError
from sheetgen.lock import hold_lock

__all__ = ["users"]  # the fixture, imported for pytest to find

SERIES = """\
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12, Di: 3}
"""
RECORD = ["--winner", "Bob", "--left", "Ann=1", "--left", "Cy=2", "--left", "Di=3"]
THESIS = b"%PDF-1.4 a year of work\n"
ANOTHERS_LINK = "is a link another user made in a shared folder; sheetgen does not write through it"
OWN_LINK = (
    "is a link in a folder other users may write to, so anyone there could change where it "
    "leads; sheetgen does not write through it"
)
# Folders without the sticky bit that the attacker may write to.
KINDS = ["world-writable", "group-writable"]


def _ids(user: str) -> tuple[int, int]:
    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid


@contextlib.contextmanager
def writable_by_others(kind: str, guest: str, other: str) -> Iterator[Path]:
    """A folder without the sticky bit that ``other`` may write to: anyone's (0777), or
    ``guest``'s own shared with ``other``'s group (0770)."""
    if kind == "world-writable":
        with shared_folder(mode=0o777) as place:
            yield place
        return
    with shared_folder(guest, mode=0o770) as place:
        os.chown(place, -1, _ids(other)[1])
        place.chmod(0o770)
        yield place


def plant(link: Path, target: Path | str, user: str) -> Path:
    """A link at ``link`` to ``target``, made by ``user``."""
    link.symlink_to(target)
    os.lchown(link, *_ids(user))
    return link


# Finding 2: a link in a folder others may write to ------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_planted_output_folder_is_not_followed(users: tuple[str, str], kind: str) -> None:
    """cd /tmp/x && sheetgen sheet, after someone made /tmp/x/output a link to the
    victim's folder: the victim's own score-sheet.pdf there would be replaced."""
    guest, other = users
    with writable_by_others(kind, guest, other) as place, shared_folder(guest) as home:
        owned(home / "score-sheet.pdf", guest, THESIS)
        plant(place / "output", home, other)
        before = snapshot(home)
        assert_refused(run(["sheet"], place, user=guest), f"output: {ANOTHERS_LINK}")
        assert snapshot(home) == before and temporaries(home) == []


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "args",
    [
        ["sheet", "-o", "sheet.pdf"],
        ["fill", "f.yaml", "-o", "sheet.pdf"],
        ["sheet", "-o", "{place}/sheet.pdf"],
    ],
    ids=["sheet", "fill", "absolute"],
)
def test_a_link_planted_at_the_file_name_is_not_followed(
    users: tuple[str, str], kind: str, args: list[str]
) -> None:
    guest, other = users
    with writable_by_others(kind, guest, other) as place, shared_folder(guest) as home:
        owned(home / "thesis.pdf", guest, THESIS)
        owned(place / "f.yaml", guest, SERIES.encode())
        plant(place / "sheet.pdf", home / "thesis.pdf", other)
        command = [arg.format(place=place) for arg in args]
        before = snapshot(home)
        done = run(command, place, user=guest)
        assert_refused(done, f"{command[command.index('-o') + 1]}: {ANOTHERS_LINK}")
        assert snapshot(home) == before and temporaries(place) == []


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "args",
    [
        ["fill", "f.yaml", "--split", "{planted}"],
        ["sheet", "-o", "{planted}/"],
        ["sheet", "-o", "{planted}/f.pdf"],
        ["record", "{planted}/f.yaml", *RECORD],
    ],
    ids=["split", "o-folder", "o-file-below", "record"],
)
def test_a_folder_link_planted_there_is_not_followed(
    users: tuple[str, str], kind: str, args: list[str]
) -> None:
    """fill --split DIR and -o DIR/ through the attacker's link would write the victim's
    documents over the ones in the folder it names."""
    guest, other = users
    with writable_by_others(kind, guest, other) as place, shared_folder(guest) as home:
        sheets = home / "sheets"
        sheets.mkdir()
        shutil.chown(sheets, guest, guest)
        owned(sheets / "f.pdf", guest, b"%PDF-1.4 last week's sheet\n")
        owned(sheets / "f.yaml", guest, SERIES.encode())
        owned(home / "f.yaml", guest, SERIES.encode())
        planted = plant(place / "sheets", sheets, other)
        before = snapshot(home)
        done = run([arg.format(planted=planted) for arg in args], home, user=guest)
        assert_refused(done, f"{planted}: {ANOTHERS_LINK}")
        assert snapshot(home) == before and temporaries(home) == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_users_own_link_there_is_not_followed_either(users: tuple[str, str], kind: str) -> None:
    """Anyone who may write in the folder could have put their own link in place of the
    victim's a moment ago; the same link in a folder of the victim's own is followed."""
    guest, other = users
    with writable_by_others(kind, guest, other) as place, shared_folder(guest) as home:
        owned(home / "sheet.pdf", guest, b"%PDF-1.4 last week's sheet\n")
        plant(place / "mine.pdf", home / "sheet.pdf", guest)
        before = snapshot(home)
        assert_refused(run(["sheet", "-o", "mine.pdf"], place, user=guest), f"mine.pdf: {OWN_LINK}")
        assert snapshot(home) == before and temporaries(place) == []
        plant(home / "mine.pdf", "sheet.pdf", guest)
        done = run(["sheet", "-o", "mine.pdf"], home, user=guest)
        assert done.code == 0, done.err
        assert (home / "sheet.pdf").read_bytes().startswith(b"%PDF-")
        assert len((home / "sheet.pdf").read_bytes()) > 1000


def test_an_output_folder_another_user_made_first_is_not_used(users: tuple[str, str]) -> None:
    """Even in a sticky folder (/tmp), another user can make output/ before the victim
    does: a folder of their own, with a link where the sheet will go."""
    guest, other = users
    with shared_folder(mode=0o1777) as place, shared_folder(guest) as home:
        theirs = place / "output"
        theirs.mkdir()
        theirs.chmod(0o777)  # so that the victim can write in it
        shutil.chown(theirs, other, other)
        owned(home / "thesis.pdf", guest, THESIS)
        plant(theirs / "score-sheet.pdf", home / "thesis.pdf", other)
        before = snapshot(home)
        assert_refused(
            run(["sheet"], place, user=guest),
            f"output: belongs to {other}, who could read or change what sheetgen writes in "
            "it; choose where to write with -o",
        )
        assert_refused(
            run(["sheet", "-o", "output/score-sheet.pdf"], place, user=guest),
            f"output/score-sheet.pdf: {ANOTHERS_LINK}",
        )
        assert snapshot(home) == before


def _staged(folder: Path) -> None:
    with atomic.Staged() as staged:
        staged.add(folder / "x.pdf", b"%PDF-")


def _locked(folder: Path) -> None:
    with hold_lock(folder / "x.yaml", timeout=0):
        pass


WRITES: dict[str, Callable[[Path], object]] = {
    "write_document": lambda folder: atomic.write_document(folder / "x.pdf", b"%PDF-"),
    "staged": _staged,
    "create_bytes": lambda folder: atomic.create_bytes(folder / "x.yaml", b"players: [A, B]\n"),
    "make_folder": lambda folder: atomic.make_folder(folder / "each"),
    "check_replaceable": lambda folder: atomic.check_replaceable(folder / "x.yaml"),
    "hold_lock": _locked,
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_checks_the_way_again_when_it_writes(
    tmp_path: Path, write: Callable[[Path], object]
) -> None:
    """Not only ``destination``: a link put in a folder others may write to after the
    command checked where its document goes is refused when the document is written."""
    place = tmp_path / "place"
    place.mkdir()
    place.chmod(0o777)
    mine = tmp_path / "mine"
    mine.mkdir()
    (place / "link").symlink_to(mine)
    with pytest.raises(OutputError) as refused:
        write(place / "link")
    assert str(refused.value) == f"{place / 'link'}: {OWN_LINK}"
    assert list(mine.iterdir()) == []


# Finding 13: the lock of a series in a folder others may write to ----------------------

# sheetgen with the lock's timeout (LOCK_TIMEOUT, 30 seconds) set by its first argument.
SHORT_WAIT = """\
import sys
from sheetgen.series import record
record.LOCK_TIMEOUT = float(sys.argv.pop(1))
from sheetgen.cli import main
sys.argv[0] = "sheetgen"
main()
"""
# Make (if missing) and lock the file argv[1], give it mode argv[2], hold it until stdin ends.
HOLD = """\
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
os.fchmod(fd, int(sys.argv[2], 8))
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


@contextlib.contextmanager
def held_by(user: str, lock: Path, mode: int) -> Iterator[None]:
    """``lock`` made if missing and locked by a process of ``user``'s until the block ends."""
    uid, gid = _ids(user)
    holder = subprocess.Popen(
        [*python_for(user), "-c", HOLD, str(lock), f"{mode:o}"],
        user=uid,
        group=gid,
        extra_groups=[],
        cwd="/",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline() == b"held\n"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


@pytest.fixture
def short_wait() -> Iterator[Path]:
    """SHORT_WAIT, in a folder every user may read."""
    with shared_folder() as tools:
        script = tools / "short_wait.py"
        script.write_text(SHORT_WAIT, encoding="utf-8")
        script.chmod(0o644)
        yield script


@pytest.mark.parametrize("kind", KINDS)
def test_a_lock_another_user_holds_is_waited_for_and_named(
    users: tuple[str, str], short_wait: Path, kind: str
) -> None:
    """The attacker made the lock file first, writable by all, and holds it: the victim
    waits (here half a second), then learns whose lock file it is."""
    guest, other = users
    with writable_by_others(kind, guest, other) as place:
        series = owned(place / "f.yaml", guest, SERIES.encode())
        with held_by(other, place / ".f.yaml.lock", 0o666):
            done = run(["0.5", "record", "f.yaml", *RECORD], place, user=guest, script=short_wait)
        assert "Traceback" not in done.err and done.code == 1 and done.out == b""
        assert done.err == (
            "Waiting for another sheetgen to finish writing f.yaml...\n"
            f"Error: f.yaml: the lock file .f.yaml.lock, which belongs to {other}, is still "
            "held by another program after 0.5 seconds; nothing was changed; try again later\n"
        )
        assert series.read_bytes() == SERIES.encode() and temporaries(place) == []


@pytest.mark.parametrize("kind", KINDS)
def test_another_users_lock_file_nobody_holds_does_not_stop_record(
    users: tuple[str, str], kind: str
) -> None:
    """The lock is the flock, not the file: one another user made and let go of is locked
    all the same, and stays as it was."""
    guest, other = users
    with writable_by_others(kind, guest, other) as place:
        series = owned(place / "f.yaml", guest, SERIES.encode())
        lock = owned(place / ".f.yaml.lock", other, b"", 0o666)
        made = lock.stat()
        done = run(["record", "f.yaml", *RECORD], place, user=guest)
        assert done.code == 0, done.err
        assert series.read_text(encoding="utf-8").endswith(
            "  - winner: Bob\n    left: {Ann: 1, Cy: 2, Di: 3}\n"
        )
        now = lock.stat()
        assert (now.st_ino, now.st_uid, now.st_mode) == (made.st_ino, made.st_uid, made.st_mode)


def test_another_users_lock_file_the_user_may_not_open_is_named(users: tuple[str, str]) -> None:
    guest, other = users
    with shared_folder(mode=0o777) as place:
        owned(place / "f.yaml", guest, SERIES.encode())
        owned(place / ".f.yaml.lock", other, b"", 0o644)
        before = snapshot(place)
        assert_refused(
            run(["record", "f.yaml", *RECORD], place, user=guest, timeout=20),
            f".f.yaml.lock: belongs to {other}, who has not let you open it; nothing was "
            f"changed; ask {other} to remove it, or keep the series in a folder of your own",
        )
        assert snapshot(place) == before and temporaries(place) == []


@pytest.mark.parametrize("held", [False, True], ids=["let-go", "held"])
def test_another_users_lock_file_in_a_sticky_folder_is_refused_at_once(
    users: tuple[str, str], held: bool
) -> None:
    """In /tmp nobody else can remove the victim's lock file, but its owner can remove
    their own while the victim holds it, and let a second writer in: refused, as before,
    and now before any waiting (``timeout``), naming the owner."""
    guest, other = users
    with shared_folder(mode=0o1777) as place:
        series = owned(place / "f.yaml", guest, SERIES.encode())
        lock = owned(place / ".f.yaml.lock", other, b"", 0o666)
        with held_by(other, lock, 0o666) if held else contextlib.nullcontext():
            done = run(["record", "f.yaml", *RECORD], place, user=guest, timeout=20)
        assert_refused(
            done,
            f".f.yaml.lock: belongs to {other}, who could remove it while sheetgen holds it; "
            f"nothing was changed; ask {other} to remove it, or keep the series in a folder "
            "of your own",
        )
        assert series.read_bytes() == SERIES.encode() and temporaries(place) == []


@pytest.mark.parametrize("target", ["notes.txt", "new.txt"], ids=["to-a-file", "dangling"])
def test_a_link_planted_in_the_locks_place_is_refused_at_once(
    users: tuple[str, str], target: str
) -> None:
    """Refused before any waiting (``timeout``): the lock is never opened through it, so
    the file it names is neither opened nor made."""
    guest, other = users
    with shared_folder(mode=0o1777) as place, shared_folder(guest) as home:
        owned(home / "notes.txt", guest, b"private notes\n", 0o600)
        series = owned(place / "f.yaml", guest, SERIES.encode())
        plant(place / ".f.yaml.lock", home / target, other)
        before = snapshot(home)
        assert_refused(
            run(["record", "f.yaml", *RECORD], place, user=guest, timeout=20),
            f".f.yaml.lock: is a link (made by {other}), not a lock file; sheetgen never "
            "follows a link to a lock, so nothing was changed; remove it, or keep the series "
            "in a folder of your own",
        )
        assert snapshot(home) == before and not (home / "new.txt").exists()
        assert series.read_bytes() == SERIES.encode() and temporaries(place) == []


@pytest.mark.parametrize(
    ("make", "kind", "never"),
    [
        (lambda lock: lock.symlink_to("real.lock"), "a link", "never follows a link to a lock"),
        (os.mkfifo, "a FIFO", "locks only a plain file"),
    ],
    ids=["own-link", "fifo"],
)
def test_only_a_plain_file_is_ever_a_lock_even_in_the_users_own_folder(
    tmp_path: Path, make: Callable[[Path], None], kind: str, never: str
) -> None:
    (tmp_path / "f.yaml").write_text(SERIES, encoding="utf-8")
    (tmp_path / "real.lock").touch()
    make(tmp_path / ".f.yaml.lock")
    me = pwd.getpwuid(os.geteuid()).pw_name
    before = snapshot(tmp_path)
    assert_refused(
        run(["record", "f.yaml", *RECORD], tmp_path, timeout=20),
        f".f.yaml.lock: is {kind} (made by {me}), not a lock file; sheetgen {never}, so "
        "nothing was changed; remove it, or keep the series in a folder of your own",
    )
    assert snapshot(tmp_path) == before
