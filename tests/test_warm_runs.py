"""The hostile suite's warm server (tests/zygote.py) runs a command as a fresh
``python -m sheetgen`` process would: the same status, output, messages and files, as the
same user, in a session of its own (``hostile.run`` checks that none of it is left)."""

from __future__ import annotations

import os
import pwd
import re

import pytest
from hostile import WARM_RUNS, Done, run, shared_folder, users  # noqa: F401  (users: a fixture)

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
