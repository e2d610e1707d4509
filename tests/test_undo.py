"""Mistakes that can be undone: `undo`, `record --replace` and the repeated-game warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sheetgen.series.file import load_series

YAML = """\
# Friday nights at the club
players: [Ann, Bob, Cy]
games:
  # the first night
  - winner: Ann
    left: {Bob: 7, Cy: 3}   # a close one
  - winner: Bob
    left: {Ann: 2, Cy: 3}
# keep this line
"""
STANDINGS_AFTER_ONE = """\
Series: 1 game played, first to 500
Side  Total  Won  Needed
----  -----  ---  ------
Ann      75    1     425
Bob       0    0     500
Cy        0    0     500
Ann leads and needs 425 more points.
"""


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sheetgen.cli.shared.stdin_is_terminal", lambda: True)


def _files(folder: Path, snapshot) -> dict[str, bytes]:
    """Every file but the lock file, which a write leaves beside the series by design."""
    return {name: data for name, data in snapshot(folder).items() if not name.endswith(".lock")}


def _games(path: Path) -> list[tuple[str, dict[str, int]]]:
    return [(game.winner, dict(game.left)) for game in load_series(path).games]


@pytest.mark.parametrize("suffix", [".yaml", ".json", ".csv"])
def test_record_then_undo_gives_back_the_same_bytes(runner, tmp_path: Path, suffix: str) -> None:
    name = f"s{suffix}"
    assert runner("new", name, "--players", "Ann,Bob,Cy").exit_code == 0
    assert (
        runner("record", name, "--winner", "Ann", "--left", "Bob=7", "--left", "Cy=3").exit_code
        == 0
    )
    before = (tmp_path / name).read_bytes()
    assert (
        runner("record", name, "--winner", "Cy", "--left", "Ann=1", "--left", "Bob=4").exit_code
        == 0
    )
    result = runner("undo", name, "--yes")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # with --yes nothing is shown first: nothing is asked
    assert (
        result.stdout == "Removed game 2: Cy went out; left Ann 1, Bob 4.\n" + STANDINGS_AFTER_ONE
    )
    assert (tmp_path / name).read_bytes() == before


def test_undo_keeps_comments_and_layout(runner, tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    result = runner("undo", "f.yaml", "-y")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "f.yaml").read_text(encoding="utf-8") == YAML.replace(
        "  - winner: Bob\n    left: {Ann: 2, Cy: 3}\n", ""
    )


def test_undo_without_a_terminal_needs_yes(runner, tmp_path: Path, snapshot) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    before = _files(tmp_path, snapshot)
    result = runner("undo", "f.yaml")
    assert result.exit_code == 1
    assert result.stderr == (
        "Last game 2: Bob went out; left Ann 2, Cy 3\n"
        "Error: f.yaml: nothing removed, as there is no terminal to ask on (--yes removes it "
        "without asking)\n"
    )
    assert _files(tmp_path, snapshot) == before


@pytest.mark.parametrize(("answer", "removed"), [("y\n", True), ("n\n", False), ("\n", False)])
def test_undo_asks_on_a_terminal(
    runner, tmp_path: Path, terminal, answer: str, removed: bool
) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    result = runner("undo", "f.yaml", input=answer)
    assert "Remove game 2? [y/N]: " in result.stderr
    # "No" is the user's choice, not an error.
    assert result.exit_code == 0
    assert len(_games(tmp_path / "f.yaml")) == (1 if removed else 2)
    if not removed:
        assert result.stdout == "Kept game 2.\n"
        assert "Error" not in result.stderr


def test_undo_at_the_end_of_input_removes_nothing(runner, tmp_path: Path, terminal) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    before = (tmp_path / "f.yaml").read_bytes()
    result = runner("undo", "f.yaml", input="")
    assert result.exit_code == 1
    assert result.stderr.endswith("Error: f.yaml: nothing removed (no answer: the input ended)\n")
    assert (tmp_path / "f.yaml").read_bytes() == before


def test_undo_with_no_games(runner, tmp_path: Path, snapshot) -> None:
    assert runner("new", "e.yaml", "--players", "Ann,Bob").exit_code == 0
    before = _files(tmp_path, snapshot)
    result = runner("undo", "e.yaml", "--yes")
    assert result.exit_code == 1
    assert result.stderr == "Error: e.yaml: there is no game to undo; the series has no games\n"
    assert _files(tmp_path, snapshot) == before


def test_undo_refuses_a_flow_style_list(runner, tmp_path: Path, snapshot) -> None:
    (tmp_path / "f.yaml").write_text(
        "players: [Ann, Bob]\ngames: [{winner: Ann, left: {Bob: 3}}]\n", encoding="utf-8"
    )
    before = _files(tmp_path, snapshot)
    result = runner("undo", "f.yaml", "--yes")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "Error: f.yaml, games: the list is written in flow style; sheetgen edits only a block list"
    )
    assert _files(tmp_path, snapshot) == before


@pytest.mark.parametrize("suffix", [".yaml", ".json", ".csv"])
def test_replace_a_game(runner, tmp_path: Path, suffix: str) -> None:
    name = f"s{suffix}"
    runner("new", name, "--players", "Ann,Bob,Cy")
    runner("record", name, "--winner", "Ann", "--left", "Bob=7", "--left", "Cy=3")
    runner("record", name, "--winner", "Bob", "--left", "Ann=2", "--left", "Cy=3")
    result = runner(
        "record", name, "--replace", "1", "--winner", "Cy", "--left", "Ann=1", "--left", "Bob=1"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Game 1 replaced: Cy scores 35."
    assert _games(tmp_path / name) == [("Cy", {"Ann": 1, "Bob": 1}), ("Bob", {"Ann": 2, "Cy": 3})]


def test_replace_keeps_comments(runner, tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    result = runner(
        "record", "f.yaml", "--replace", "2", "--winner", "Cy", "--left", "Ann=4", "--left", "Bob=5"
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "f.yaml").read_text(encoding="utf-8") == YAML.replace(
        "  - winner: Bob\n    left: {Ann: 2, Cy: 3}\n",
        "  - winner: Cy\n    left: {Ann: 4, Bob: 5}\n",
    )


INSIDE = """\
players: [Ann, Bob, Cy]
games:
  - winner: Ann   # close one
    # Bob miscounted his pile
    left: {Bob: 7, Cy: 3}  # counted twice
  - winner: Bob
    left:
      Ann: 2   # two
      Cy: 3
"""


def test_replace_keeps_the_comments_inside_the_game(runner, tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text(INSIDE, encoding="utf-8")
    for number in ("1", "2"):
        result = runner(
            "record", "f.yaml", "--replace", number, "--winner", "Cy", "--left", "Ann=1,Bob=2"
        )
        assert result.exit_code == 0, result.output
    assert (
        (tmp_path / "f.yaml").read_text(encoding="utf-8")
        == """\
players: [Ann, Bob, Cy]
games:
  - winner: Cy   # close one
    # Bob miscounted his pile
    left: {Ann: 1, Bob: 2}  # counted twice
  - winner: Cy
    left: {Ann: 1, Bob: 2}
      # two
"""
    )


SHAPES = {
    "plain": "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 7}\n"
    "  - winner: Bob\n    left: {Ann: 2}\n",
    "blank-between": "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 7}\n\n"
    "  - winner: Bob  # late\n    left: {Ann: 2}\n",
    "comment-after": "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 7}\n"
    "  - winner: Bob\n    left: {Ann: 2}\n# the end\n",
    "csv": "game,winner,Ann,Bob\n1,Ann,0,7\n2,Bob,2,0\n",
}


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
@pytest.mark.parametrize("final", [True, False], ids=["final-newline", "no-final-newline"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize(
    "command",
    [["undo", "--yes"], ["record", "--replace", "2", "--winner", "Bob", "--left", "Ann=3"]],
    ids=["undo", "replace-last"],
)
def test_edits_keep_the_final_newline_as_it_was(
    runner, tmp_path: Path, command: list[str], shape: str, final: bool, crlf: bool
) -> None:
    text = SHAPES[shape] if final else SHAPES[shape].removesuffix("\n")
    if crlf:
        text = text.replace("\n", "\r\n")
    name = "f.csv" if shape == "csv" else "f.yaml"
    (tmp_path / name).write_bytes(text.encode())
    result = runner(command[0], name, *command[1:])
    assert result.exit_code == 0, result.output
    after = (tmp_path / name).read_bytes().decode()
    assert after.endswith("\n") == final
    assert ("\r\n" in after) == crlf and "\r\r" not in after
    if crlf:
        assert "\n" not in after.replace("\r\n", "")
    assert ("# the end" in after) == ("# the end" in text)
    if command[0] == "undo":
        assert len(_games(tmp_path / name)) == 1
        # Recording the game again gives the file back, but for its final line break.
        again = ["--winner", "Bob", "--left", "Ann=2"]
        assert runner("record", name, *again).exit_code == 0
        if shape in ("plain", "csv"):
            assert (tmp_path / name).read_bytes().decode().rstrip("\r\n") == text.rstrip("\r\n")


@pytest.mark.parametrize(
    ("number", "left", "message"),
    [
        ("3", ["Bob=1", "Cy=1"], "Error: f.yaml: there is no game 3; the series has 2 games"),
        (
            "1",
            ["Bob=31", "Cy=1"],
            "Error: f.yaml, game 1: Bob has 31 cards left, but stock piles hold 30",
        ),
    ],
)
def test_replace_is_checked_and_changes_nothing_when_wrong(
    runner, tmp_path: Path, snapshot, number: str, left: list[str], message: str
) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    before = _files(tmp_path, snapshot)
    args = [arg for value in left for arg in ("--left", value)]
    result = runner("record", "f.yaml", "--replace", number, "--winner", "Ann", *args)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == message
    assert _files(tmp_path, snapshot) == before


def test_replace_rechecks_the_games_after_it(runner, tmp_path: Path, snapshot) -> None:
    (tmp_path / "f.json").write_text(
        json.dumps(
            {
                "players": ["Ann", "Bob"],
                "target": 100,
                "games": [
                    {"winner": "Ann", "left": {"Bob": 1}},
                    {"winner": "Ann", "left": {"Bob": 20}},
                ],
            }
        ),
        encoding="utf-8",
    )
    before = _files(tmp_path, snapshot)
    result = runner("record", "f.json", "--replace", "1", "--winner", "Ann", "--left", "Bob=20")
    assert result.exit_code == 1
    assert "game 2" in result.stderr.splitlines()[-1]
    assert _files(tmp_path, snapshot) == before


REPEAT = (
    "Warning: this game repeats game 2 exactly; if it was entered twice, leave it out or "
    "run: sheetgen undo f.yaml\n"
)


def test_a_repeated_game_is_recorded_with_a_warning(runner, tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    result = runner("record", "f.yaml", "--winner", "Bob", "--left", "Cy=3", "--left", "Ann=2")
    assert result.exit_code == 0, result.output
    assert result.stderr == REPEAT
    assert len(_games(tmp_path / "f.yaml")) == 3


@pytest.mark.parametrize(("answer", "games"), [("y\n", 3), ("n\n", 2)])
def test_a_repeated_game_asks_on_a_terminal(
    runner, tmp_path: Path, terminal, answer: str, games: int
) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    result = runner(
        "record", "f.yaml", "--winner", "Bob", "--left", "Ann=2", "--left", "Cy=3", input=answer
    )
    assert result.stderr.startswith(REPEAT + "Record it as game 3? [y/N]: ")
    assert result.exit_code == 0
    assert len(_games(tmp_path / "f.yaml")) == games
    if games == 2:
        assert result.stdout == "Nothing recorded: f.yaml still holds 2 games.\n"


def test_yes_records_a_repeated_game_without_asking(runner, tmp_path: Path, terminal) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    result = runner(
        "record", "f.yaml", "--yes", "--winner", "Bob", "--left", "Ann=2", "--left", "Cy=3"
    )
    assert result.exit_code == 0
    assert result.stderr == REPEAT


def test_a_different_game_gets_no_warning(runner, tmp_path: Path, terminal) -> None:
    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    result = runner("record", "f.yaml", "--winner", "Bob", "--left", "Ann=2", "--left", "Cy=4")
    assert result.exit_code == 0
    assert result.stderr == ""


# As separate processes: a real terminal, a real lock, a real Ctrl-C ----------------------

PROMPT = b"Remove game 2? [y/N]: "
WAITING = b"Waiting for another sheetgen to finish writing f.yaml..."
RECORD_C = ["--winner", "Cy", "--left", "Ann=1", "--left", "Bob=4"]


class Prompted:
    """``sheetgen ARGS`` with a pseudo-terminal as standard input, stopped at its question.

    Every wait has a deadline and the process is killed (its whole session) whatever
    happens, so a test can fail but never hang.
    """

    def __init__(self, args: list[str], cwd: Path) -> None:
        import os
        import pty
        import subprocess

        from hostile import _env, as_at_a_terminal, python_for

        self.main, side = pty.openpty()
        self.process = subprocess.Popen(
            [*python_for(None), "-m", "sheetgen", *args],
            cwd=cwd,
            env=_env(),
            stdin=side,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=as_at_a_terminal,
        )
        os.close(side)
        self.err = b""

    def wait_for(self, text: bytes, seconds: float = 60) -> None:
        """Read standard error until ``text`` appears (or fail at the deadline)."""
        import os
        import select
        import time

        assert self.process.stderr is not None
        deadline = time.monotonic() + seconds
        while text not in self.err:
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} within {seconds} s: {self.err!r}"
            ready, _, _ = select.select([self.process.stderr], [], [], left)
            if ready:
                chunk = os.read(self.process.stderr.fileno(), 4096)
                assert chunk, f"stderr closed before {text!r}: {self.err!r}"
                self.err += chunk

    def wait_until_reading(self, seconds: float = 60) -> None:
        """Wait until the process sleeps in its read of the terminal. A signal that comes
        between the prompt's write and that read would be handled only after the read
        returns: a person is never that fast, a test is."""
        import time

        deadline = time.monotonic() + seconds
        stat = Path(f"/proc/{self.process.pid}/stat")
        while stat.read_text().rsplit(")", 1)[1].split()[0] != "S":
            assert time.monotonic() < deadline, "the process never waited for an answer"
            time.sleep(0.01)

    def finish(self, seconds: float = 60) -> tuple[int, bytes, str]:
        """Exit status, standard output and the whole of standard error."""
        out, rest = self.process.communicate(timeout=seconds)
        return self.process.returncode, out, (self.err + rest).decode("utf-8", "replace")

    def close(self) -> None:
        import os
        import signal

        from hostile import assert_no_process_left

        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        os.close(self.main)
        assert_no_process_left(self.process.pid)


@pytest.fixture
def prompted():
    started: list[Prompted] = []

    def start(args: list[str], cwd: Path) -> Prompted:
        started.append(Prompted(args, cwd))
        return started[-1]

    yield start
    for item in started:
        item.close()


def _no_temporaries(folder: Path) -> bool:
    return not list(folder.glob("*.tmp"))


def test_ctrl_c_at_the_undo_question_exits_quietly_with_130(
    tmp_path: Path, snapshot, prompted
) -> None:
    import os
    import signal

    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    before = _files(tmp_path, snapshot)
    undo = prompted(["undo", "f.yaml"], tmp_path)
    undo.wait_for(PROMPT)
    undo.wait_until_reading()
    os.kill(undo.process.pid, signal.SIGINT)  # what the terminal sends for Ctrl-C
    code, out, err = undo.finish()
    assert code == 130, err
    assert out == b""
    assert err == "Last game 2: Bob went out; left Ann 2, Cy 3\nRemove game 2? [y/N]: "
    assert _files(tmp_path, snapshot) == before and _no_temporaries(tmp_path)


def test_a_game_recorded_while_undo_asks_is_not_removed(
    runner, tmp_path: Path, snapshot, prompted
) -> None:
    import os

    (tmp_path / "f.yaml").write_text(YAML, encoding="utf-8")
    undo = prompted(["undo", "f.yaml"], tmp_path)
    undo.wait_for(PROMPT)
    assert runner("record", "f.yaml", *RECORD_C).exit_code == 0
    before = _files(tmp_path, snapshot)
    os.write(undo.main, b"y\n")
    code, out, err = undo.finish()
    assert code == 1 and out == b""
    # The answer and its newline are echoed on the terminal, not on standard error.
    assert err == (
        "Last game 2: Bob went out; left Ann 2, Cy 3\nRemove game 2? [y/N]: "
        "Error: f.yaml: another sheetgen changed the last game after it was shown; nothing "
        "was removed, so run undo again to see the last game now\n"
    )
    assert _files(tmp_path, snapshot) == before and _no_temporaries(tmp_path)


def test_undo_yes_removes_the_game_that_is_last_when_it_gets_the_lock(
    runner, tmp_path: Path, prompted
) -> None:
    """--yes asks nothing: a record that gets the lock first only changes which game goes."""
    from filelock import FileLock

    path = tmp_path / "f.yaml"
    path.write_text(YAML, encoding="utf-8")
    lock_path = tmp_path / ".f.yaml.lock"
    with FileLock(str(lock_path)):
        undo = prompted(["undo", "f.yaml", "--yes"], tmp_path)
        undo.wait_for(WAITING)
        # Meanwhile another record adds a game (as the lock's holder).
        text = path.read_text(encoding="utf-8").replace(
            "# keep this line", "  - winner: Cy\n    left: {Ann: 1, Bob: 4}\n# keep this line"
        )
        path.write_text(text, encoding="utf-8")
    code, out, err = undo.finish()
    assert code == 0, err
    assert err == WAITING.decode() + "\n"
    assert out.decode().startswith("Removed game 3: Cy went out; left Ann 1, Bob 4.\n")
    assert path.read_text(encoding="utf-8") == YAML
    assert _no_temporaries(tmp_path)


CSV_WITH_SETTINGS = "title,Friday\ntarget,300\n\ngame,winner,Ann,Bob\n1,Ann,0,7\n2,Bob,2,0\n"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        ("undo", "title,Friday\ntarget,300\n\ngame,winner,Ann,Bob\n1,Ann,0,7\n"),
        ("replace", "title,Friday\ntarget,300\n\ngame,winner,Ann,Bob\n1,Bob,4,0\n2,Bob,2,0\n"),
    ],
)
def test_edits_find_the_games_of_a_csv_series_after_its_settings_rows(
    tmp_path: Path, edit: str, expected: str
) -> None:
    """The rows before the header (title, target) are settings, not games: undo and
    replace change the game they name and leave the settings as they were."""
    from sheetgen.game.scoring import Game
    from sheetgen.series.record import replace_game, undo_game

    path = tmp_path / "s.csv"
    path.write_text(CSV_WITH_SETTINGS, encoding="utf-8")
    if edit == "undo":
        removed, _ = undo_game(path)
        assert removed == Game("Bob", {"Ann": 2})
    else:
        replace_game(path, 1, Game("Bob", {"Ann": 4}))
    assert path.read_text(encoding="utf-8") == expected
    assert load_series(path).scoring.target == 300
