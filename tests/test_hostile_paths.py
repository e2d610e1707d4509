"""Where documents go: never over an input, a non-document, a folder nobody made, a file the
user may not write, one name of a hard-linked file, or through a link planted in /tmp.

Each case runs sheetgen as a process of its own (as an unprivileged user where
permissions matter) and checks the message, that every file is byte-identical
after a refusal, and that no temporary file or process is left.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import (
    assert_clean,
    assert_refused,
    owned,
    run,
    shared_folder,
    snapshot,
    temporaries,
    users,
)

from sheetgen.game.scoring import Game
from sheetgen.series.record import record_game

__all__ = ["users"]  # the fixture, imported for pytest to find

SERIES = """\
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12, Di: 3}
"""
RECORD = ["--winner", "Bob", "--left", "Ann=1", "--left", "Cy=2", "--left", "Di=3"]
OURS_MD = "# Our table\n\nWe play fast.\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "f2.yaml").write_text(SERIES, encoding="utf-8")
    (tmp_path / "f3.yaml").write_text(SERIES, encoding="utf-8")
    (tmp_path / "ours.md").write_text(OURS_MD, encoding="utf-8")
    (tmp_path / "ours.toml").write_text('players = 4\nextra = "ours.md"\n', encoding="utf-8")
    return tmp_path


def refused_and_untouched(folder: Path, args: list[str], message: str, code: int = 1) -> None:
    before = snapshot(folder)
    done = run(args, folder)
    assert_refused(done, message, code)
    assert snapshot(folder) == before
    assert temporaries(folder) == []


READ_BY_COMMAND = [
    (["rules", "--extra", "ours.md", "-o", "ours.md"], "ours.md"),
    (["rules", "--house-rules", "ours.toml", "-o", "ours.toml"], "ours.toml"),
    (["fill", "f3.yaml", "-o", "f3.yaml"], "f3.yaml"),
    (["export", "f2.yaml", "-o", "f2.yaml", "--format", "json"], "f2.yaml"),
]


@pytest.mark.parametrize(("args", "name"), READ_BY_COMMAND)
def test_no_command_writes_over_a_file_it_reads(folder: Path, args: list[str], name: str) -> None:
    refused_and_untouched(
        folder, args, f"{name}: is a file this command reads; write the result somewhere else"
    )


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_not_over_the_file_a_house_rules_extra_names_even_with_force(
    folder: Path, force: list[str]
) -> None:
    refused_and_untouched(
        folder,
        ["rules", "--house-rules", "ours.toml", "-o", str(folder / "ours.md"), *force],
        f"{folder / 'ours.md'}: is a file this command reads (the same file as ours.md); "
        "write the result somewhere else",
    )


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_not_over_an_input_through_another_name(folder: Path, link: str) -> None:
    if link == "hard":
        os.link(folder / "ours.md", folder / "alias.pdf")
    else:
        (folder / "alias.pdf").symlink_to("ours.md")
    refused_and_untouched(
        folder,
        ["rules", "--extra", "ours.md", "-o", "alias.pdf", "--force"],
        "alias.pdf: is a file this command reads (the same file as ours.md); "
        "write the result somewhere else",
    )


NOT_DOCUMENTS = [
    (["sheet", "-o", "f2.pdf"], "f2.yaml", "PDF"),
    (["fill", "f3.yaml", "-o", "f2.pdf"], "f2.yaml", "PDF"),
    # The booklet as a page to read on a screen: the same guard as its PDF (which sheet and
    # fill prove above), written in a fraction of a second instead of three laid out.
    (["rules", "-o", "f2.html"], "f2.yaml", "HTML"),
    (["sheet", "-o", "notes.pdf"], "ours.md", "PDF"),
    (["sheet", "--format", "png", "-o", "notes"], "ours.toml", "PNG"),
    (["export", "f3.yaml", "-o", "f2.json"], "f2.yaml", "JSON"),
    (["export", "f3.yaml", "-o", "f2.md"], "ours.md", "MD"),
]


@pytest.mark.parametrize(("args", "source", "kind"), NOT_DOCUMENTS)
def test_a_file_that_is_not_a_document_of_the_kind_is_replaced_only_with_force(
    folder: Path, args: list[str], source: str, kind: str
) -> None:
    """A season kept in a file misnamed .pdf (or Markdown, TOML) is not lost to a typo."""
    target = args[args.index("-o") + 1]
    (folder / target).write_bytes((folder / source).read_bytes())
    refused_and_untouched(
        folder,
        args,
        f"{target}: is not a {kind} file sheetgen wrote, and writing would replace it; "
        "choose another name, or add --force to replace it",
    )
    done = run([*args, "--force"], folder)
    assert done.code == 0, done.err
    assert (folder / target).read_bytes() != (folder / source).read_bytes()


def test_export_never_replaces_a_json_series_named_sides(folder: Path) -> None:
    """A JSON series whose title is the word an export carries is still a series."""
    for args in (
        ["new", "t.json", "--players", "Ann,Bob", "--title", "sides"],
        ["record", "t.json", "--winner", "Ann", "--left", "Bob=5"],
    ):
        assert run(args, folder).code == 0
    refused_and_untouched(
        folder,
        ["export", "f2.yaml", "--format", "json", "-o", "t.json"],
        "t.json: holds a series with 1 recorded game; sheetgen will not replace it without --force",
    )
    done = run(["export", "f2.yaml", "--format", "json", "-o", "t.json", "--force"], folder)
    assert done.code == 0, done.err
    assert '"sides": [\n    "Ann",\n    "Bob",\n    "Cy",' in (folder / "t.json").read_text()


def test_export_never_replaces_a_csv_export_that_games_were_recorded_into(folder: Path) -> None:
    """An earlier export of the same series is replaced (it loses nothing); one that has
    games of its own since is a live series."""
    assert run(["export", "f2.yaml", "--format", "csv", "-o", "live.csv"], folder).code == 0
    assert run(["record", "f2.yaml", *RECORD], folder).code == 0
    done = run(["export", "f2.yaml", "--format", "csv", "-o", "live.csv"], folder)
    assert done.code == 0, done.err  # the old export held game 1 of f2.yaml's two
    assert run(["record", "live.csv", *RECORD], folder).code == 0
    refused_and_untouched(
        folder,
        ["export", "f2.yaml", "--format", "csv", "-o", "live.csv"],
        "live.csv: holds a series with 3 recorded games; "
        "sheetgen will not replace it without --force",
    )
    refused_and_untouched(
        folder,
        ["export", "f2.yaml", "--format", "csv", "--excel", "-o", "live.csv"],
        "live.csv: holds a series with 3 recorded games; "
        "sheetgen will not replace it without --force",
    )
    done = run(["export", "f2.yaml", "--format", "csv", "-o", "live.csv", "--force"], folder)
    assert done.code == 0, done.err
    assert (folder / "live.csv").read_text().count("\n2,Bob,") == 1
    assert "\n3," not in (folder / "live.csv").read_text()


@pytest.mark.parametrize(
    ("args", "suffix", "kinds"),
    [
        (["sheet", "-o", "f2.yaml"], "yaml", ".pdf or .png"),
        (["fill", "f3.yaml", "-o", "f4.yaml"], "yaml", ".pdf or .png"),
        (["rules", "-o", "new.toml"], "toml", ".pdf or .png or .html"),
        (["export", "f3.yaml", "-o", "out.yaml"], "yaml", ".json or .csv or .md or .xlsx"),
    ],
)
def test_a_name_of_another_kind_of_file_is_refused(
    folder: Path, args: list[str], suffix: str, kinds: str
) -> None:
    target = args[args.index("-o") + 1]
    refused_and_untouched(
        folder,
        args,
        f"{target}: names a .{suffix} file, but this writes {kinds}; "
        f"end the name in {kinds} (or add --force)",
    )


def test_the_format_follows_the_name(folder: Path) -> None:
    done = run(["sheet", "-o", "y.png"], folder)
    assert done.code == 0, done.err
    assert (folder / "y.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    done = run(["export", "f2.yaml", "-o", "f2.csv"], folder)
    assert done.code == 0, done.err
    assert "\ngame,winner,Ann,Bob,Cy,Di,points," in (folder / "f2.csv").read_text(encoding="utf-8")
    done = run(["export", "f3.yaml", "-o", "f2.csv"], folder)  # replaces its own export
    assert done.code == 0, done.err


@pytest.mark.parametrize(
    ("args", "target", "fmt"),
    [
        (["sheet", "--format", "png", "-o", "x.pdf"], "x.pdf", "png"),
        (["sheet", "--format", "pdf", "-o", "x.png"], "x.png", "pdf"),
        (["export", "f2.yaml", "--format", "csv", "-o", "x.json"], "x.json", "csv"),
    ],
)
def test_a_format_that_contradicts_the_name_is_refused(
    folder: Path, args: list[str], target: str, fmt: str
) -> None:
    suffix = target.rsplit(".", 1)[1]
    refused_and_untouched(
        folder,
        args,
        f"{target}: the name ends in .{suffix} but --format {fmt} was asked for; "
        f"name the file .{fmt} or leave out --format",
    )


def test_output_may_name_a_folder(folder: Path) -> None:
    (folder / "printed").mkdir()
    done = run(["sheet", "-o", "printed"], folder)
    assert done.code == 0, done.err
    written = folder / "printed" / "score-sheet.pdf"
    assert done.err == f"Wrote {written}\n"
    assert written.read_bytes().startswith(b"%PDF-")
    done = run(["fill", "f2.yaml", "--format", "png", "-o", "printed"], folder)
    assert done.err == f"Wrote {folder / 'printed' / 'f2.png'}\n"


def test_only_output_itself_is_made_never_a_folder_the_user_typed(folder: Path) -> None:
    refused_and_untouched(
        folder,
        ["sheet", "-o", "Dekstop/x.pdf"],
        "Dekstop: no such folder; sheetgen makes only output/ by itself, "
        "so check the spelling or create the folder first",
    )
    assert not (folder / "Dekstop").exists()
    done = run(["sheet"], folder)
    assert done.err == f"Wrote {folder / 'output' / 'score-sheet.pdf'}\n"


def test_split_and_output_together_are_refused(folder: Path) -> None:
    before = snapshot(folder)
    done = run(["fill", "f2.yaml", "--split", "each", "-o", "x.pdf"], folder)
    assert done.code == 2
    assert done.err.splitlines()[-1] == "Error: give --split FOLDER or -o FILE, not both"
    assert "Traceback" not in done.err
    assert snapshot(folder) == before and not (folder / "each").exists()


def recorded_once(folder: Path) -> None:
    """f2.yaml with a game recorded (RECORD's), which leaves its empty lock file beside it.
    Recorded in this process, by the function ``record`` calls: only the refusal that
    follows needs a process of its own."""
    record_game(folder / "f2.yaml", Game("Bob", {"Ann": 1, "Cy": 2, "Di": 3}))


LOCK_REFUSED = "is a lock file, not a document; replacing it could let two programs change one file"


@pytest.mark.parametrize(
    ("args", "target", "what"),
    [
        (["sheet"], ".f2.yaml.lock", LOCK_REFUSED),
        (["sheet", "--force"], ".f2.yaml.lock", LOCK_REFUSED),
        (["fill", "f3.yaml", "--force"], ".f2.yaml.lock", LOCK_REFUSED),
        (["export", "f3.yaml", "--format", "json"], ".f2.yaml.lock", LOCK_REFUSED),
        (["rules", "--force"], "new.lock", LOCK_REFUSED),
        (["sheet", "--force"], ".#f2.yaml", LOCK_REFUSED),
        (
            ["sheet", "--force"],
            ".f2.yaml.4242-abc.tmp",
            "is a temporary file of a sheetgen that is writing, not a document",
        ),
    ],
    ids=["sheet", "sheet-force", "fill", "export", "rules-new-name", "editor-lock", "temporary"],
)
def test_a_lock_file_or_temporary_is_never_a_target(
    folder: Path, args: list[str], target: str, what: str
) -> None:
    recorded_once(folder)
    lock = folder / ".f2.yaml.lock"
    inode = lock.stat().st_ino
    (folder / ".#f2.yaml").symlink_to("root@host.1234")  # as Emacs makes it
    refused_and_untouched(folder, [*args, "-o", target], f"{target}: {what}; choose another name")
    assert lock.stat().st_ino == inode and lock.read_bytes() == b""
    assert os.readlink(folder / ".#f2.yaml") == "root@host.1234"
    assert not (folder / target).exists() or (folder / target).read_bytes() == b""


@pytest.mark.parametrize(
    ("args", "target", "what"),
    [
        (["sheet"], ".f2.yaml.lock", LOCK_REFUSED),
        (["sheet", "--force"], ".f2.yaml.lock", LOCK_REFUSED),
        (["export", "f3.yaml", "--format", "md", "--force"], ".f2.yaml.lock", LOCK_REFUSED),
        (
            ["sheet"],
            ".f2.yaml.4242-abc.tmp",
            "is a temporary file of a sheetgen that is writing, not a document",
        ),
    ],
    ids=["sheet", "sheet-force", "export-force", "temporary"],
)
def test_a_link_to_a_lock_file_or_temporary_is_never_a_target(
    folder: Path, args: list[str], target: str, what: str
) -> None:
    """lk.pdf -> .f2.yaml.lock: writing lk.pdf would replace the lock's inode."""
    recorded_once(folder)
    working = folder / target
    working.touch()
    inode = working.stat().st_ino
    (folder / "lk.pdf").symlink_to(target)
    real = os.path.realpath(working)
    before = snapshot(folder)
    done = run([*args, "-o", "lk.pdf"], folder)
    assert_refused(done, f"lk.pdf: is a link to {real}, which {what}; choose another name")
    assert snapshot(folder) == before
    assert temporaries(folder) == ([target] if target.endswith(".tmp") else [])
    assert working.stat().st_ino == inode and working.read_bytes() == b""
    assert os.readlink(folder / "lk.pdf") == target


# Hard links -----------------------------------------------------------------------


def test_a_hard_linked_series_is_never_split(folder: Path) -> None:
    os.link(folder / "f2.yaml", folder / "season.yaml")
    for name in ("f2.yaml", "season.yaml"):
        refused_and_untouched(
            folder,
            ["record", name, *RECORD],
            f"{name}: has 2 names (hard links); replacing it would split them, so sheetgen "
            "leaves it alone; give it a file of its own with cp",
        )
    assert os.path.samefile(folder / "f2.yaml", folder / "season.yaml")


# Permissions, as an unprivileged user ----------------------------------------------


def test_a_read_only_series_or_pdf_is_not_replaced(users: tuple[str, str]) -> None:
    guest, _ = users
    with shared_folder(guest) as place:
        owned(place / "f.yaml", guest, SERIES.encode(), 0o444)
        owned(place / "sheet.pdf", guest, b"%PDF-1.4 old\n", 0o444)
        before = snapshot(place)
        done = run(["record", "f.yaml", *RECORD], place, user=guest)
        assert_refused(done, "f.yaml: is read-only; make it writable first if it should change")
        done = run(["sheet", "-o", "sheet.pdf"], place, user=guest)
        assert_refused(done, "sheet.pdf: is read-only; make it writable first if it should change")
        assert snapshot(place) == before and temporaries(place) == []


def test_another_users_file_in_a_shared_folder_keeps_its_owner(users: tuple[str, str]) -> None:
    guest, other = users
    with shared_folder(mode=0o1777) as place:
        owned(place / "sheet.pdf", other, b"%PDF-1.4 theirs\n", 0o666)
        before = snapshot(place)
        done = run(["sheet", "-o", "sheet.pdf"], place, user=guest)
        assert_refused(
            done,
            "sheet.pdf: belongs to another user; sheetgen replaces only your own files, "
            "so write somewhere else",
        )
        assert snapshot(place) == before and temporaries(place) == []


def test_a_link_planted_in_a_sticky_folder_is_not_followed(users: tuple[str, str]) -> None:
    guest, other = users
    with shared_folder(mode=0o1777) as place, shared_folder(guest) as home:
        victim = owned(home / "thesis.pdf", guest, b"%PDF-1.4 a year of work\n")
        planted = place / "sheet.pdf"
        planted.symlink_to(victim)
        os.lchown(planted, *_ids(other))
        before = snapshot(home)
        done = run(["sheet", "-o", str(planted)], place, user=guest)
        assert_refused(
            done,
            f"{planted}: is a link another user made in a shared folder; "
            "sheetgen does not write through it",
        )
        assert snapshot(home) == before
        # The user's own link in the same folder is followed, as the kernel would.
        os.lchown(planted, *_ids(guest))
        assert run(["sheet", "-o", str(planted)], place, user=guest).code == 0
        assert victim.read_bytes().startswith(b"%PDF-") and len(victim.read_bytes()) > 1000


def _refused_then_followed(
    args: list[str], planted: Path, home: Path, guest: str
) -> dict[str, tuple[bytes, int, int]]:
    """``sheetgen ARGS`` (``{planted}`` filled in) as ``guest`` in ``home``: refused while
    ``planted`` is another user's link, nothing in ``home`` changed; then done once the
    link is the guest's own, as the kernel would follow it. What ``home`` held before."""
    command = [arg.format(planted=planted) for arg in args]
    before = snapshot(home)
    done = run(command, home, user=guest)
    assert_refused(
        done,
        f"{planted}: is a link another user made in a shared folder; "
        "sheetgen does not write through it",
    )
    assert snapshot(home) == before and temporaries(home) == []
    os.lchown(planted, *_ids(guest))
    done = run(command, home, user=guest)
    assert done.code == 0, done.err
    return before


@pytest.mark.parametrize(
    "args",
    [
        ["fill", "f.yaml", "--split", "{planted}"],
        ["fill", "f.yaml", "--split", "{planted}", "--format", "png"],
        ["fill", "f.yaml", "-o", "{planted}"],
        ["sheet", "-o", "{planted}"],
        ["export", "f.yaml", "--format", "md", "-o", "{planted}"],
    ],
    ids=["split", "split-png", "fill-o-folder", "sheet-o-folder", "export-o-folder"],
)
def test_a_folder_link_planted_in_a_sticky_folder_is_not_followed(
    users: tuple[str, str], args: list[str]
) -> None:
    """fill --split (or -o naming a folder) through another user's link in /tmp would
    write the victim's own documents into the folder the link names."""
    guest, other = users
    with shared_folder(mode=0o1777) as place, shared_folder(guest) as home:
        sheets = home / "sheets"
        sheets.mkdir()
        shutil.chown(sheets, guest, guest)
        owned(sheets / "f.pdf", guest, b"%PDF-1.4 last week's sheet\n")
        owned(home / "f.yaml", guest, SERIES.encode())
        planted = place / "sheets"
        planted.symlink_to(sheets)
        os.lchown(planted, *_ids(other))
        _refused_then_followed(args, planted, home, guest)


@pytest.mark.parametrize(
    ("args", "replaced"),
    [
        (["sheet", "-o", "{planted}/f.pdf"], "sheets/f.pdf"),
        (["fill", "f.yaml", "-o", "{planted}/f.pdf"], "sheets/f.pdf"),
        (["sheet", "-o", "{planted}/sub/f.pdf"], "sheets/sub/f.pdf"),
        (["record", "{planted}/sub/f.yaml", *RECORD], "sheets/sub/f.yaml"),
        (["sheet", "-o", "mine/f.pdf"], "sheets/f.pdf"),  # the user's link, through the planted one
    ],
    ids=["sheet", "fill", "deeper", "record", "through-own-link"],
)
def test_a_link_planted_in_a_sticky_folder_is_not_followed_to_a_file_below_it(
    users: tuple[str, str], args: list[str], replaced: str
) -> None:
    """-o /tmp/shared/link/score.pdf, the link another user's, would replace the victim's
    own file in the folder the link names: every folder of the path is checked."""
    guest, other = users
    with shared_folder(mode=0o1777) as place, shared_folder(guest) as home:
        sheets = home / "sheets"
        (sheets / "sub").mkdir(parents=True)
        for made in (sheets, sheets / "sub"):
            shutil.chown(made, guest, guest)
        owned(sheets / "f.pdf", guest, b"%PDF-1.4 last week's sheet\n")
        owned(sheets / "sub" / "f.pdf", guest, b"%PDF-1.4 last week's sheet\n")
        owned(sheets / "sub" / "f.yaml", guest, SERIES.encode())
        owned(home / "f.yaml", guest, SERIES.encode())
        planted = place / "sheets"
        planted.symlink_to(sheets)
        os.lchown(planted, *_ids(other))
        (home / "mine").symlink_to(planted)
        os.lchown(home / "mine", *_ids(guest))
        before = _refused_then_followed(args, planted, home, guest)
        assert (home / replaced).read_bytes() != before[replaced][0]


def test_a_planted_output_folder_in_a_sticky_folder_is_not_followed(
    users: tuple[str, str],
) -> None:
    guest, other = users
    with shared_folder(mode=0o1777) as place, shared_folder(guest) as home:
        owned(place / "f.yaml", guest, SERIES.encode())
        (place / "output").symlink_to(home)
        os.lchown(place / "output", *_ids(other))
        before = snapshot(home)
        assert_refused(
            run(["fill", "f.yaml"], place, user=guest),
            "output: is a link another user made in a shared folder; "
            "sheetgen does not write through it",
        )
        assert snapshot(home) == before and temporaries(home) == []


def _ids(user: str) -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid


def test_an_unwritable_folder_suggests_another_place(users: tuple[str, str]) -> None:
    guest, _ = users
    with shared_folder() as place:  # root's, so the guest may read it but not write in it
        owned(place / "f.yaml", guest, SERIES.encode())
        before = snapshot(place)
        done = run(["sheet"], place, user=guest)
        assert_refused(
            done,
            f"{place}/output: cannot make this folder (Permission denied); "
            "choose where to write with -o",
        )
        done = run(["fill", "f.yaml", "-o", "f.pdf"], place, user=guest)
        assert_refused(done, f"{place}: this folder is not writable; choose where to write with -o")
        done = run(["record", "f.yaml", *RECORD], place, user=guest)
        assert_refused(
            done,
            "f.yaml: cannot lock the file to change it (Permission denied); "
            "sheetgen needs to write in its folder",
        )
        assert snapshot(place) == before and temporaries(place) == []


# Stale temporaries --------------------------------------------------------------------


def test_the_next_record_cleans_temporaries_no_live_process_owns(folder: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    stale = folder / f".f2.yaml.{dead.stdout.strip()}-k3x9.tmp"
    stale.write_text("half a series", encoding="utf-8")
    live = folder / f".f2.yaml.{os.getpid()}-q7w2.tmp"
    live.write_text("being written", encoding="utf-8")
    done = run(["record", "f2.yaml", *RECORD], folder)
    assert_clean(done)
    assert done.code == 0
    assert not stale.exists()
    assert live.exists()


def test_another_users_fifo_in_a_sticky_folder_gets_no_document(users: tuple[str, str]) -> None:
    guest, other = users
    with shared_folder(mode=0o1777) as place:
        fifo = place / "fifo.pdf"
        os.mkfifo(fifo, 0o666)
        fifo.chmod(0o666)
        os.chown(fifo, *_ids(other))
        done = run(["sheet", "-o", "fifo.pdf"], place, user=guest, timeout=30)
        assert_refused(
            done,
            "fifo.pdf: is a FIFO another user made in a shared folder; "
            "sheetgen does not write into it",
        )
        assert temporaries(place) == []


def test_a_fifo_nobody_reads_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.pdf")
    done = run(["sheet", "-o", "fifo.pdf"], tmp_path, timeout=30)
    assert_refused(done, "fifo.pdf: no program is reading this FIFO; start the reader first")
    assert temporaries(tmp_path) == []


def test_a_fifo_with_a_reader_gets_the_document(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    with (tmp_path / "got.pdf").open("wb") as sink:
        reader = subprocess.Popen(["cat", str(fifo)], stdout=sink)
        try:
            for _ in range(50):  # until cat has the FIFO open (it blocks in open)
                done = run(["sheet", "-o", "fifo.pdf"], tmp_path, timeout=60)
                if "no program is reading" not in done.err:
                    break
            assert done.code == 0, done.err
            reader.wait(60)
        finally:
            reader.kill()
            reader.wait()
    assert (tmp_path / "got.pdf").read_bytes().startswith(b"%PDF-")


def test_a_device_is_written_directly(tmp_path: Path) -> None:
    done = run(["sheet", "-o", "/dev/null"], tmp_path)
    assert done.code == 0 and "Traceback" not in done.err, done.err
