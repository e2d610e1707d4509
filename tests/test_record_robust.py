"""``sheetgen record`` under stress: many writers at once, and writers killed mid-way.

These run real processes (``hostile.start``): the lock and the atomic rename are only
proven between processes, and only a real SIGKILL stops a writer where it stands.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile import run, start

from sheetgen.game.scoring import Game, score_series
from sheetgen.series.file import load_series
from sheetgen.series.record import record_game

pytestmark = pytest.mark.slow

SERIES = """\
# Friday nights at the club
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann   # the first game of the season
    left: {Bob: 2, Cy: 1, Di: 1}
"""
PLAYERS = ("Ann", "Bob", "Cy", "Di")


def record_args(path: Path, winner: str, count: int = 1) -> list[str]:
    """A game worth 25 + 15 * count points: small enough that twenty never win the series."""
    left = [f"--left={name}={count}" for name in PLAYERS if name != winner]
    return ["record", str(path), "--winner", winner, *left]


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_twenty_concurrent_records_are_all_kept(tmp_path: Path) -> None:
    path = tmp_path / "friday.yaml"
    path.write_text(SERIES, encoding="utf-8")
    winners = [PLAYERS[n % 4] for n in range(20)]
    procs = [
        start(record_args(path, winner, count=1 + n % 3), tmp_path)
        for n, winner in enumerate(winners)
    ]
    outcomes = [proc.communicate(timeout=120) for proc in procs]
    failures = [err for proc, (_, err) in zip(procs, outcomes, strict=True) if proc.returncode]
    assert not failures, failures

    series = load_series(path)
    assert len(series.games) == 21
    assert sorted(game.winner for game in series.games[1:]) == sorted(winners)
    result = score_series(series)
    assert sum(result.totals.values()) == sum(game.points for game in result.games)
    # The user's comments survive every one of the twenty rewrites.
    text = path.read_text(encoding="utf-8")
    assert text.startswith(SERIES)
    assert temp_files(tmp_path) == []


def expected_after(path: Path, winner: str, scratch: Path) -> bytes:
    """The bytes the file would hold after this game, recorded undisturbed on a copy."""
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir()
    copy = scratch / path.name
    shutil.copyfile(path, copy)
    record_game(copy, Game(winner, {name: 1 for name in PLAYERS if name != winner}))
    return copy.read_bytes()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Poll until ``condition`` holds: the test waits for events, never for a guessed time."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.005)


def test_a_killed_record_leaves_the_old_file_or_the_new_one(tmp_path: Path) -> None:
    """SIGKILL at every stage of a writer's life: the file is always whole, old or new.

    Some writers are killed while the test holds the series' lock (they cannot
    have written: the file must be the old one), some once the new file is in
    place (it must stay), and the rest at random moments in between, wherever
    they are. Only events decide the kills that both outcomes rest on, so the
    test means the same on an idle machine and a loaded one. The random moments
    fall within the longest time a writer here took to put its file in place (at
    most a second), so they land while writers live rather than after they ended,
    and a slow machine waits no more than a second for each.
    """
    from filelock import FileLock

    rng = random.Random(8)
    folder = tmp_path / "table"
    folder.mkdir()
    path = folder / "friday.yaml"
    path.write_text(SERIES, encoding="utf-8")
    outcomes = {"old": 0, "new": 0}
    lifetimes: list[float] = []  # how long each writer took to put its new file in place
    stages = ["waiting for the lock", "after the rename"] * 3 + ["at a random moment"] * 8
    for round_number, stage in enumerate(stages):
        winner = PLAYERS[round_number % 4]
        old = path.read_bytes()
        new = expected_after(path, winner, tmp_path / "scratch")
        if stage == "waiting for the lock":
            with FileLock(str(folder / ".friday.yaml.lock")):
                proc = start(record_args(path, winner), folder, capture=False)
                time.sleep(rng.uniform(0.0, 0.3))
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
        else:
            started = time.monotonic()
            proc = start(record_args(path, winner), folder, capture=False)
            if stage == "after the rename":
                wait_for(lambda: path.read_bytes() == new, "the new file")  # noqa: B023
                lifetimes.append(time.monotonic() - started)
            else:
                time.sleep(rng.uniform(0.0, min(max(lifetimes), 1.0)))
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        now = path.read_bytes()
        assert now in (old, new), f"round {round_number}: the file is neither old nor new"
        expected = {"waiting for the lock": old, "after the rename": new}.get(stage, now)
        assert now == expected, f"round {round_number}, killed {stage}: wrong file"
        outcomes["old" if now == old else "new"] += 1
        load_series(path)  # and it parses
        # A killed writer may leave its hidden temporary file; nothing else may linger.
        for name in temp_files(folder):
            assert name.startswith(".friday.yaml.") and name.endswith(".tmp"), name
    # The lock died with its holder: the next record goes through at once.
    done = run(record_args(path, "Bob"), folder, timeout=30)
    assert done.code == 0, done.err
    assert len(load_series(path).games) == 1 + outcomes["new"] + 1
    # ... and cleans up the temporaries the killed writers left.
    assert temp_files(folder) == []
    assert outcomes["old"] >= 3 and outcomes["new"] >= 3, json.dumps(outcomes)


@pytest.mark.parametrize(
    "text",
    [
        '"players": [Ann, Bob]\n"games":\n  - "winner": Ann\n    "left": {Bob: 3}\n',
        "'players': [Ann, Bob]\n'games': []\n",
        "players: [Ann, Bob]\ngames:   # none yet\n",
    ],
    ids=["double-quoted-keys", "single-quoted-empty", "comment-after-key"],
)
def test_record_appends_under_a_quoted_games_key(tmp_path: Path, text: str) -> None:
    path = tmp_path / "pair.yaml"
    path.write_text(text, encoding="utf-8")
    before = len(load_series(path).games)
    record_game(path, Game("Bob", {"Ann": 2}))
    assert len(load_series(path).games) == before + 1
