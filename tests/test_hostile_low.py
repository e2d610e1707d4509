"""The attacker's low findings (issue 28, 8 to 12), each with the attacker's own input.

Text standard output cannot encode, a NUL in a house-rules path, a malformed
SOURCE_DATE_EPOCH, an editor saving a series file while ``record`` changes it, and a
game folder with more players than the race chart had looks. Every refusal is one
``Error:`` line, no traceback, and every input byte-identical afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile import assert_clean, assert_refused, run, snapshot, temporaries
from pagecheck import page_texts

import sheetgen.series.record

GAMES = Path(__file__).parent / "games"
HALF = (
    "holds U+D800, half of a character (a lone surrogate); write the character itself, "
    "or escape both of its halves"
)


def refused(folder: Path, args: list[str], message: str, **kw: Any) -> None:
    """``sheetgen ARGS`` refused with exactly ``message``, every file as it was."""
    before = snapshot(folder)
    done = run(args, folder, **kw)
    assert_refused(done, message)
    assert snapshot(folder) == before
    assert temporaries(folder) == []


# 8. Text standard output cannot encode ---------------------------------------------------


@pytest.fixture
def half_a_name(tmp_path: Path) -> Path:
    """The attacker's series: a JSON escape for half of a character in a player's name."""
    (tmp_path / "s.json").write_text(
        '{"players": ["Ann", "B\\ud800ob"], "games": [{"winner": "Ann", "left": {"B\\ud800ob": 3}}]}',
        encoding="utf-8",
    )
    return tmp_path


@pytest.mark.parametrize(
    "args",
    [
        ["standings", "s.json"],
        ["export", "s.json"],
        ["fill", "s.json", "-o", "s.pdf"],
        ["record", "s.json", "--winner", "Ann", "--left", "B\ud800ob=2"],
        ["undo", "--yes", "s.json"],
    ],
    ids=["standings", "export", "fill", "record", "undo"],
)
def test_half_a_character_in_a_name_is_refused_as_the_file_is_read(
    half_a_name: Path, args: list[str]
) -> None:
    """`record` wrote the game and then failed printing it: the table recorded it twice."""
    refused(half_a_name, args, f"s.json, players, player 2: 'B\\ud800ob' {HALF}")


def test_half_a_character_in_a_title_is_refused(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text(
        '{"title": "Friday \\udfff", "players": ["Ann", "Bob"], "games": []}', encoding="utf-8"
    )
    message = HALF.replace("D800", "DFFF")
    refused(tmp_path, ["standings", "s.json"], f"s.json, title: 'Friday \\udfff' {message}")


GREEK = "Βασίλης"


@pytest.mark.parametrize(
    "environ",
    [{"PYTHONIOENCODING": "latin-1"}, {"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C"}],
    ids=["latin-1", "ascii", "C locale"],
)
def test_a_greek_name_on_a_terminal_that_cannot_show_it(
    tmp_path: Path, environ: dict[str, str]
) -> None:
    """Printing what was recorded can never fail the command: the game is recorded once,
    the report shows the name as escapes where the encoding lacks it, and status 0."""
    series = tmp_path / "s.json"
    series.write_text(json.dumps({"players": ["Ann", GREEK], "games": []}), encoding="utf-8")
    done = run(
        ["record", "s.json", "--winner", "Ann", "--left", f"{GREEK}=2"], tmp_path, environ=environ
    )
    assert_clean(done)
    assert done.code == 0
    assert len(json.loads(series.read_text(encoding="utf-8"))["games"]) == 1
    assert _shows(done.out, GREEK)
    for args in (["standings", "s.json"], ["export", "s.json"]):
        done = run(args, tmp_path, environ=environ)
        assert_clean(done)
        assert done.code == 0
        assert _shows(done.out, GREEK)
    # The JSON export stays JSON that means the name: an escape is JSON's own.
    exported = json.loads(run(["export", "s.json"], tmp_path, environ=environ).out)
    assert exported["sides"] == ["Ann", GREEK]
    done = run(["undo", "--yes", "s.json"], tmp_path, environ=environ)
    assert_clean(done)
    assert done.code == 0
    assert json.loads(series.read_text(encoding="utf-8"))["games"] == []


@pytest.mark.parametrize("fmt", ["csv", "md", "json"])
@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_an_export_piped_out_is_utf8_whatever_the_terminal(
    tmp_path: Path, fmt: str, encoding: str
) -> None:
    """The outside attacker's finding: under a latin-1 or ASCII locale, an export piped to a
    file carried ``\\u0392ob`` for the player, and the CSV read back was another player."""
    series = tmp_path / "s.json"
    series.write_text(json.dumps({"players": ["Ann", GREEK], "games": []}), encoding="utf-8")
    done = run(
        ["export", "s.json", "--format", fmt], tmp_path, environ={"PYTHONIOENCODING": encoding}
    )
    assert_clean(done)
    assert done.code == 0
    assert GREEK.encode("utf-8") in done.out
    assert b"\\u" not in done.out


def _shows(out: bytes, name: str) -> bool:
    """Whether ``out`` shows ``name``: in UTF-8 (the C locale is read as UTF-8, and click
    writes UTF-8 where the encoding says ASCII) or as the escapes of what the encoding lacks."""
    escaped = name.encode("ascii", "backslashreplace")
    return name.encode("utf-8") in out or escaped in out


def test_a_game_removed_whose_report_cannot_be_shown_says_it_was_removed(tmp_path: Path) -> None:
    """As `record` does: undo's change is made, so its report failing must say so, or the
    user undoes a second game."""
    series = tmp_path / "s.yaml"
    series.write_text(
        "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 3}\n"
        "  - winner: Bob\n    left: {Ann: 4}\n",
        encoding="utf-8",
    )
    with open("/dev/full", "wb") as full:
        done = run(["undo", "--yes", "s.yaml"], tmp_path, stdout=full.fileno())
    assert_refused(
        done,
        "s.yaml: game 2 was removed, but this report could not be shown (No space left on device)",
    )
    assert series.read_text(encoding="utf-8").count("winner:") == 1


# 9. A path with a NUL in a house-rules file ----------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "\\u0000x.md",
            "'\\x00x.md' holds a NUL character, which no file name can; "
            "give the name of a Markdown file",
        ),
        (
            "notes.md\\u0000",
            "'notes.md\\x00' holds a NUL character, which no file name can; "
            "give the name of a Markdown file",
        ),
        (
            "a" * 300 + ".md",
            f"{'a' * 60!r}... (303 characters) cannot be opened (file name too long); "
            "give the name of a Markdown file",
        ),
        (
            "loop/notes.md",
            "'loop/notes.md' cannot be opened (its links lead round in a loop); "
            "give the name of a Markdown file",
        ),
    ],
    ids=["NUL first", "NUL last", "too long", "loop of links"],
)
@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_an_unusable_extra_path_is_refused_naming_the_file_and_key(
    tmp_path: Path, extra: str, message: str, fmt: str
) -> None:
    (tmp_path / "notes.md").write_text("# Ours\n", encoding="utf-8")
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "ours.toml").write_text(f'extra = "{extra}"\n', encoding="utf-8")
    refused(
        tmp_path,
        ["rules", "--house-rules", "ours.toml", "-o", f"rules.{fmt}"],
        f"ours.toml, extra: {message}",
    )
    assert not (tmp_path / f"rules.{fmt}").exists()


# 10. SOURCE_DATE_EPOCH that is no time ---------------------------------------------------

NOT_A_TIME = (
    "is not a time; give whole seconds since 1970-01-01 UTC in digits only "
    "(for example 1700000000), or unset it"
)
TOO_LATE = (
    "is after the year 9999; give whole seconds since 1970-01-01 UTC, at most 253402300799, "
    "or unset it"
)
DOCUMENTS = {
    "sheet": ["sheet", "-o", "out.pdf"],
    "sheet png": ["sheet", "-o", "out.png"],
    "fill": ["fill", "s.yaml", "-o", "out.pdf"],
    "rules": ["rules", "-o", "out.pdf"],
    "booklet": ["rules", "--layout", "booklet", "-o", "out.pdf"],
    "rules html": ["rules", "-o", "out.html"],
}


PROBLEMS = {
    "abc": f"'abc' {NOT_A_TIME}",
    "1e9": f"'1e9' {NOT_A_TIME}",
    "-5": f"'-5' {NOT_A_TIME}",
    "12345678901234567890": f"'12345678901234567890' {TOO_LATE}",
    "253402300800": f"'253402300800' {TOO_LATE}",
}
# sheet meets every value; each other command one that is no number and one too large.
CASES = [("sheet", value) for value in PROBLEMS] + [
    (command, value)
    for command in DOCUMENTS
    if command != "sheet"
    for value in ("abc", "12345678901234567890")
]


@pytest.mark.parametrize(("command", "value"), CASES)
def test_a_malformed_source_date_epoch_is_refused_by_every_document_command(
    tmp_path: Path, command: str, value: str
) -> None:
    """reportlab ended `sheet` in a trace; a booklet whose score sheet was kept from an
    earlier run read no date at all. Every document command gives one answer."""
    (tmp_path / "s.yaml").write_text(
        "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: 3}\n", encoding="utf-8"
    )
    refused(
        tmp_path,
        DOCUMENTS[command],
        f"SOURCE_DATE_EPOCH: {PROBLEMS[value]}",
        environ={"SOURCE_DATE_EPOCH": value},
    )


def test_a_command_that_makes_no_document_does_not_read_source_date_epoch(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("players: [Ann, Bob]\ngames:\n", encoding="utf-8")
    done = run(["standings", "s.yaml"], tmp_path, environ={"SOURCE_DATE_EPOCH": "abc"})
    assert done.code == 0 and done.err == ""


@pytest.mark.parametrize("value", [" 1700000000 ", "0", "253402300799"])
def test_a_well_formed_source_date_epoch_makes_the_same_bytes(tmp_path: Path, value: str) -> None:
    made = []
    for name in ("a.pdf", "b.pdf"):
        done = run(["sheet", "-o", name], tmp_path, environ={"SOURCE_DATE_EPOCH": value})
        assert done.code == 0, done.err
        made.append((tmp_path / name).read_bytes())
    assert made[0] == made[1]


# 11. An editor saving the series file while record changes it ---------------------------

GAME = "  - winner: Ann\n    left: {Bob: 1, Cy: 2}\n"
# The attacker's case: an editor saving 200 games in place had written 99 when it paused.
WHOLE = "players: [Ann, Bob, Cy]\ntarget: 100000\ngames:\n" + GAME * 200
HALF_SAVED = WHOLE[: WHOLE.index(GAME) + 99 * len(GAME)]
CHANGED = (
    "Error: s.yaml: the file changed while sheetgen was changing it (an editor saving it?); "
    "nothing was written: check the file and try again\n"
)


def _in_place(path: Path, data: bytes) -> None:
    """Save as many editors do: truncate the file and write it again, same inode."""
    with path.open("r+b") as handle:
        handle.truncate(0)
        handle.write(data)


def _same_size_same_time(path: Path, data: bytes) -> None:
    """A save that keeps the size and puts the time of change back: only the bytes differ."""
    info = path.stat()
    _in_place(path, data)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _renamed(path: Path, data: bytes) -> None:
    """A save to a new file renamed over the old one: another inode."""
    fresh = path.with_name("s.yaml.new")
    fresh.write_bytes(data)
    fresh.replace(path)


COMMANDS = {
    "record": (["record", "s.yaml", "--winner", "Bob", "--left", "Ann=1,Cy=2"], "_append_game"),
    "replace": (
        ["record", "s.yaml", "--replace", "1", "--winner", "Ann", "--left", "Bob=1,Cy=2"],
        "_rewrite_game",
    ),
    "undo": (["undo", "--yes", "s.yaml"], "_rewrite_game"),
}


@pytest.mark.parametrize("save", [_in_place, _same_size_same_time, _renamed])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_file_saved_while_it_is_changed_is_left_as_saved(
    runner: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
    save: Callable[[Path, bytes], None],
) -> None:
    """The attacker's editor saved 200 games in place and paused half way while `record`
    ran: `record` read the half and wrote its result over the whole, 99 games lost. Here
    the editor saves after the file was read, inside the lock, before the write."""
    path = tmp_path / "s.yaml"
    path.write_text(HALF_SAVED, encoding="utf-8")
    saved = WHOLE.encode("utf-8")
    if save is _same_size_same_time:
        saved = HALF_SAVED.replace("Bob: 1", "Bob: 3", 1).encode("utf-8")
    args, edit = COMMANDS[command]
    original = getattr(sheetgen.series.record, edit)

    def editor_saves_meanwhile(*given: Any) -> Any:
        save(path, saved)
        return original(*given)

    monkeypatch.setattr(sheetgen.series.record, edit, editor_saves_meanwhile)
    result = runner(*args)
    assert result.exit_code == 1
    assert result.stderr == CHANGED
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == saved
    assert temporaries(tmp_path) == []


def test_a_file_left_alone_is_still_changed(runner: Any, tmp_path: Path) -> None:
    """The check refuses only a file that changed: the same run without an editor writes."""
    path = tmp_path / "s.yaml"
    path.write_text(HALF_SAVED, encoding="utf-8")
    result = runner(*COMMANDS["record"][0])
    assert result.exit_code == 0, result.stderr
    assert path.read_text(encoding="utf-8").count("winner:") == 100


# 12. A game folder with more players than the chart had looks ----------------------------


def _game_for(folder: Path, most: int) -> Path:
    """tests/games/pocket-bo declaring 2 to ``most`` players, with a deck for them all."""
    shelf = folder / "games"
    shutil.copytree(GAMES, shelf)
    definition = shelf / "pocket-bo" / "game.toml"
    text = definition.read_text(encoding="utf-8")
    stocks = ", ".join(f"{players} = 2" for players in range(2, most + 1))
    text = text.replace("players = [2, 3]", f"players = [2, {most}]")
    text = re.sub(r"official = \{[^}]*\}", f"official = {{ {stocks} }}", text)
    text = text.replace("cards = 60", f"cards = {6 * most}")
    definition.write_text(text, encoding="utf-8")
    return shelf


@pytest.mark.parametrize("players", [8, 40])
def test_fill_draws_every_player_a_game_folder_declares(tmp_path: Path, players: int) -> None:
    """games.py sets no largest count (a game folder lists a stock size per count): the
    attacker's 8, and 40, past the chart's distinct looks, are drawn and named."""
    shelf = ["--rules-dir", str(_game_for(tmp_path, players))]
    names = [f"Pl{number}" for number in range(1, players + 1)]
    done = run(
        ["new", "s.yaml", "--game", "pocket-bo", "--players", ",".join(names), *shelf], tmp_path
    )
    assert done.code == 0, done.err
    for game in range(3):
        winner = names[game]
        left = ",".join(
            f"{name}={1 + (n + game) % 2}" for n, name in enumerate(names) if name != winner
        )
        done = run(["record", "s.yaml", "--winner", winner, "--left", left, *shelf], tmp_path)
        assert done.code == 0, done.err
    done = run(["fill", "s.yaml", "-o", "s.pdf", *shelf], tmp_path)
    assert_clean(done)
    assert done.code == 0
    chart = page_texts((tmp_path / "s.pdf").read_bytes())[-1]
    shown = set(re.findall(r"Pl\d+", chart))
    assert shown == set(names)
