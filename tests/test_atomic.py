"""Atomic writes: a destination is either the old file or the new one, never a mix."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sheetgen import atomic
from sheetgen.errors import OutputError


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_replaces_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")
    target.chmod(0o600)
    atomic.write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o600
    assert leftovers(tmp_path) == []


def test_write_never_makes_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="no such folder; sheetgen makes only output/"):
        atomic.write_text(tmp_path / "a" / "b" / "x.txt", "Zoë")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rename_leaves_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "series.yaml"
    target.write_bytes(b"old")

    def broken(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OutputError, match=r"series\.yaml: cannot write here"):
        atomic.write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_an_interrupted_write_leaves_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.write_bytes(tmp_path / "x.pdf", b"data")
    assert list(tmp_path.iterdir()) == []


def test_create_refuses_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "new.yaml"
    atomic.create_bytes(target, b"first")
    with pytest.raises(OutputError, match="already exists; sheetgen will not overwrite it"):
        atomic.create_bytes(target, b"second")
    assert target.read_bytes() == b"first"
    assert leftovers(tmp_path) == []


def test_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(OutputError, match=r"file/x.pdf: cannot be used \(Not a directory\)"):
        atomic.write_bytes(blocker / "x.pdf", b"data")


def _fsynced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record what each fsync was of: 'file' or 'folder'."""
    import stat

    calls: list[str] = []
    real = os.fsync

    def spy(fd: int) -> None:
        calls.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return calls


def test_a_series_file_is_fsynced_and_so_is_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _fsynced(monkeypatch)
    atomic.write_text(tmp_path / "friday.yaml", "players: [Ann, Bob]\n")
    atomic.create_bytes(tmp_path / "new.yaml", b"players: [Ann, Bob]\n")
    assert calls.count("file") == 2 and calls.count("folder") == 2


def test_a_document_is_renamed_into_place_without_fsync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet or booklet is made again by running the command again: atomic, not durable."""
    calls = _fsynced(monkeypatch)
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")
    atomic.write_document(target, b"new")
    with atomic.Staged() as staged:
        staged.add(tmp_path / "a.pdf", b"a")
        staged.add(tmp_path / "b.pdf", b"b")
        assert staged.commit() == [tmp_path / "a.pdf", tmp_path / "b.pdf"]
    assert calls == []
    assert target.read_bytes() == b"new"
    assert (tmp_path / "a.pdf").read_bytes() == b"a"
    assert leftovers(tmp_path) == []


def test_abandoning_removes_a_temporary_ctrl_c_kept_from_the_list(tmp_path: Path) -> None:
    """Ctrl-C between making a temporary and noting it (in mkstemp, say) left it behind: an
    interrupted batch finds it by this process's id in its name, and only such files."""
    target = tmp_path / "s000.pdf"
    noted = atomic._temp_file(target, b"%PDF-", 0o644, sync=False)
    unnoted = tmp_path / f".s001.pdf.{os.getpid()}-k3pt9x_a.tmp"
    unnoted.write_bytes(b"%PDF-")
    others = [
        tmp_path / ".s002.pdf.1-abcdefgh.tmp",  # another process's
        tmp_path / f".notes.{os.getpid()}.tmp",  # not a temporary's name
        tmp_path / "s003.pdf",
    ]
    for path in others:
        path.write_bytes(b"keep")
    try:
        atomic.abandon_writes()
        assert not noted.exists() and not unnoted.exists()
        assert all(path.read_bytes() == b"keep" for path in others)
    finally:
        atomic._TEMP_FOLDERS.discard(tmp_path)
        atomic._TEMPORARIES.discard(noted)


def test_a_new_file_takes_the_umask(tmp_path: Path) -> None:
    """A file made anew is as private as the user's umask asks (a replaced one keeps its mode)."""
    old = os.umask(0o077)
    try:
        atomic.write_document(tmp_path / "out.csv", b"side,points,total 0\n")
    finally:
        os.umask(old)
    assert (tmp_path / "out.csv").stat().st_mode & 0o777 == 0o600
