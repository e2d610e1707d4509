"""The hostile suite's warm server (tests/zygote.py) runs a command as a fresh
``python -P -m sheetgen`` process would: the same status, output, messages and files, as the
same user, in a session of its own (``hostile.run`` checks that none of it is left)."""

from __future__ import annotations

import os
import pwd
import re
import resource
import signal
import time
from pathlib import Path

import hostile
import pytest
from hostile import WARM_RUNS, Done, WarmProcess, probe, run, shared_folder, start, users  # noqa: F401  (users: a fixture)

SERIES = """\
title: Friday nights   # kept by hand
players: [Ann, Bob, Cy]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12}
"""

COMMANDS = {
    "version": ["--version"],
    "standings": ["standings", "f.yaml"],
    "record": ["record", "f.yaml", "--winner", "Bob", "--left", "Ann=3", "--left", "Cy=5"],
    "refused record": ["record", "f.yaml", "--winner", "Zed"],
    "usage error": ["standings", "--no-such-option"],
    "missing file": ["export", "missing.yaml", "-o", "out.csv"],
    "export": ["export", "f.yaml", "-o", "out.csv"],
    "sheet": ["sheet", "--players", "3", "-o", "sheet.pdf"],
}


def _undated(data: bytes) -> bytes:
    """A file without the moment it was made (a PDF's dates and the identifier made of them)."""
    return re.sub(rb"/(CreationDate|ModDate) \(D:[^)]*\)|/ID\s*\[[^\]]*\]", rb"/\1", data)


def _outcome(args: list[str], user: str | None, fresh: bool) -> tuple[Done, dict[str, bytes]]:
    """What the command said and the files it left, in a folder of its own; the folder's
    name is taken out of what it said."""
    with shared_folder() as folder:
        (folder / "f.yaml").write_text(SERIES, encoding="utf-8")
        if user is not None:
            account = pwd.getpwnam(user)
            for path in (folder, folder / "f.yaml"):
                os.chown(path, account.pw_uid, account.pw_gid)
        done = run(args, folder, user=user, fresh=fresh)
        files = {}
        for path in sorted(folder.iterdir()):
            if path.name.endswith(".lock"):
                continue
            files[path.name] = _undated(path.read_bytes())
            if user is not None:
                assert path.stat().st_uid == pwd.getpwnam(user).pw_uid, path
        said = Done(
            done.code,
            done.out.replace(bytes(folder), b"HERE"),
            done.err.replace(str(folder), "HERE"),
        )
        return said, files


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("as_guest", [False, True], ids=["root", "guest"])
def test_a_warm_run_is_a_fresh_run(
    command: str, as_guest: bool, request: pytest.FixtureRequest
) -> None:
    user = request.getfixturevalue("users")[0] if as_guest else None
    before = len(WARM_RUNS)
    warm = _outcome(COMMANDS[command], user, fresh=False)
    assert len(WARM_RUNS) == before + 1, "the warm server did not run the command"
    fresh = _outcome(COMMANDS[command], user, fresh=True)
    assert len(WARM_RUNS) == before + 1
    assert warm == fresh


def test_warm_children_run_side_by_side_and_can_be_killed(tmp_path: Path) -> None:
    """A writer waiting for the series' lock does not hold up another command, and a
    SIGKILL ends it where it stands, as for a fresh process."""
    from filelock import FileLock

    (tmp_path / "f.yaml").write_text(SERIES, encoding="utf-8")
    before = (tmp_path / "f.yaml").read_bytes()
    record = ["record", "f.yaml", "--winner", "Bob", "--left", "Ann=3", "--left", "Cy=5"]
    with FileLock(str(tmp_path / ".f.yaml.lock")):
        waiting = start(record, tmp_path)
        killed = start(record, tmp_path, capture=False)
        version = start(["--version"], tmp_path)
        assert all(isinstance(child, WarmProcess) for child in (waiting, killed, version))
        out, err = version.communicate(timeout=60)
        assert (version.returncode, err) == (0, b"")
        assert out.startswith(b"sheetgen, version ")
        assert waiting.poll() is None and killed.poll() is None  # both still wait
        killed.kill()
        assert killed.wait(timeout=60) == -signal.SIGKILL
        assert (tmp_path / "f.yaml").read_bytes() == before
    out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    assert "Bob" in (tmp_path / "f.yaml").read_text(encoding="utf-8").split("games:")[1]


@pytest.mark.parametrize("as_guest", [False, True], ids=["root", "guest"])
def test_a_warm_child_starts_as_a_fresh_process_would(
    as_guest: bool, request: pytest.FixtureRequest
) -> None:
    """Its own session and process group, no descriptor of the server's, the same module
    path (the working folder not on it), environment, working folder, umask, resource
    limits, ids, signal dispositions and standard streams."""
    user = request.getfixturevalue("users")[0] if as_guest else None
    with shared_folder() as folder:
        warm = probe(folder, user=user)
        fresh = probe(folder, user=user, fresh=True)
    assert warm == fresh
    assert warm["session leader"] and warm["group leader"]
    assert warm["descriptors"] == [0, 1, 2, 3]  # 3: the one that read the list
    assert str(folder) not in warm["path"] and warm["safe path"]
    if user is not None:  # the user's own group, and none of root's
        account = pwd.getpwnam(user)
        uid, gid = account.pw_uid, account.pw_gid
        assert warm["ids"] == [uid, uid, gid, gid, []]


def test_poll_sees_a_child_that_ended(tmp_path: Path) -> None:
    child = start(["--version"], tmp_path, capture=False)
    assert isinstance(child, WarmProcess)
    deadline = time.monotonic() + 60
    while child.poll() is None:
        assert time.monotonic() < deadline, "poll never saw the child end"
        time.sleep(0.01)
    assert child.returncode == 0


PLANTED = 'open("{marker}", "w").close()\n'


def test_code_planted_in_the_working_folder_never_runs(tmp_path: Path) -> None:
    """Modules named as sheetgen's (yaml, csv, click) in the working folder stay unread,
    warm or fresh: as for the installed command, the folder is not on the module path."""
    marker = tmp_path / "ran"
    for fresh in (False, True):
        folder = tmp_path / ("fresh" if fresh else "warm")
        folder.mkdir()
        (folder / "f.yaml").write_text(SERIES, encoding="utf-8")
        for name in ("yaml.py", "csv.py", "click.py", "openpyxl.py"):
            (folder / name).write_text(PLANTED.format(marker=marker), encoding="utf-8")
        done = run(["export", "f.yaml", "-o", "out.csv"], folder, fresh=fresh)
        assert done.code == 0, done.err
        assert not marker.exists(), f"planted code ran ({'fresh' if fresh else 'warm'})"


def test_a_child_takes_the_workers_umask_and_limits(tmp_path: Path) -> None:
    """The umask a test sets is the child's; limits changed since the server started send
    the run to a fresh process (a warm child would have the server's)."""
    (tmp_path / "f.yaml").write_text(SERIES, encoding="utf-8")
    old = os.umask(0o077)
    try:
        before = len(WARM_RUNS)
        done = run(["export", "f.yaml", "-o", "out.csv"], tmp_path)
        assert done.code == 0 and len(WARM_RUNS) == before + 1, done.err
        assert (tmp_path / "out.csv").stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft - 1, hard))
    try:
        before = len(WARM_RUNS)
        with pytest.raises(AssertionError, match="no warm server could take the probe"):
            probe(tmp_path)
        done = run(["--version"], tmp_path)
        assert done.code == 0 and len(WARM_RUNS) == before  # a fresh process ran it
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_changed_environment_or_inheritance_sends_runs_to_fresh_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm child has the server's environment and inherits what the server did: once
    the worker's differ, runs start afresh and see the worker's."""
    probe(tmp_path)  # the server is up, with the worker's conditions
    monkeypatch.setenv("SHEETGEN_TEST_MARK", "changed")
    before = len(WARM_RUNS)
    assert run(["--version"], tmp_path).code == 0
    assert len(WARM_RUNS) == before
    assert not isinstance(start(["--version"], tmp_path), WarmProcess)
    assert probe(tmp_path, fresh=True)["environment"]["SHEETGEN_TEST_MARK"] == "changed"
    with pytest.raises(AssertionError, match="no warm server could take the probe"):
        probe(tmp_path)
    monkeypatch.delenv("SHEETGEN_TEST_MARK")
    probe(tmp_path)  # warm again
    ignored = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with pytest.raises(AssertionError, match="no warm server could take the probe"):
            probe(tmp_path)
        assert probe(tmp_path, fresh=True)["signals"]["SIGTERM"] == "ignored"
    finally:
        signal.signal(signal.SIGTERM, ignored)


def test_a_server_that_died_is_replaced(tmp_path: Path) -> None:
    probe(tmp_path)
    server = hostile._SERVERS[None]
    server.process.kill()
    server.process.wait(timeout=60)
    before = len(WARM_RUNS)
    assert run(["--version"], tmp_path).code == 0
    assert len(WARM_RUNS) == before + 1 and hostile._SERVERS[None] is not server
