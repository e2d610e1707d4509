"""Hostile input: random and nearly-valid series files and option values thrown at every command.

Whatever comes in, a command ends in success or one clean ``Error: ...`` line
(exit 1, or 2 for a usage error); never a traceback, never a half-written file
at the destination, never a temporary file left behind.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetgen.series.file import load_series

FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SLOW = settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

VALID = {
    "title": "Friday nights",
    "target": 500,
    "stock": 30,
    "players": ["Ann", "Bob", "Cy", "Di"],
    "games": [
        {"winner": "Ann", "left": {"Bob": 7, "Cy": 12, "Di": 3}},
        {"winner": "Bob", "left": {"Ann": 4, "Cy": 9, "Di": 15}},
    ],
}
# VALID as a person writes it: block style, so record can append to it.
VALID_YAML = """\
title: Friday nights   # kept by hand
target: 500
stock: 30
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12, Di: 3}
  - winner: Bob
    left: {Ann: 4, Cy: 9, Di: 15}
"""
TEAM_VALID = {
    "players": ["Ann", "Bob", "Cy", "Di"],
    "teams": {"Red": ["Ann", "Cy"], "Blue": ["Bob", "Di"]},
    "games": [{"winner": "Red", "left": {"Bob": 4, "Di": 10}}],
}

# Text of every kind: control characters, right-to-left, emoji, lone combining marks.
names = st.text(min_size=0, max_size=30)
huge = st.sampled_from([10**30, -(10**30), 2**63, -1, 0, 10**6, 31, 1.5, float("inf")])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    huge,
    st.floats(allow_nan=True, allow_infinity=False),
    names,
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(names, inner, max_size=4)),
    max_leaves=12,
)


def nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value] if depth % 2 else {"k": value}
    return value


@st.composite
def mutated_series(draw: st.DrawFn) -> dict[str, Any]:
    """A valid series with a few things broken: types, keys, numbers, names, nesting."""
    data = json.loads(json.dumps(draw(st.sampled_from([VALID, TEAM_VALID]))))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(
                [
                    "drop-key",
                    "set-key",
                    "unknown-key",
                    "duplicate-name",
                    "game-field",
                    "left-count",
                    "winner",
                    "deep",
                    "players",
                    "extra-game",
                ]
            )
        )
        games = data.get("games") if isinstance(data.get("games"), list) else None
        if kind == "drop-key" and data:
            data.pop(draw(st.sampled_from(sorted(data))))
        elif kind == "set-key":
            key = draw(
                st.sampled_from(
                    ["title", "target", "stock", "bonus", "per_card", "players", "teams", "games"]
                )
            )
            data[key] = draw(junk)
        elif kind == "unknown-key":
            data[draw(names)] = draw(junk)
        elif kind == "duplicate-name" and isinstance(data.get("players"), list):
            data["players"].append(draw(st.sampled_from(["Ann", "Bob", " Ann", "ann"])))
        elif kind == "players":
            data["players"] = draw(st.lists(names, max_size=8))
        elif kind == "deep":
            data[draw(st.sampled_from(["players", "games", "teams"]))] = nested(
                draw(st.integers(5, 60))
            )
        elif games:
            game = games[draw(st.integers(0, len(games) - 1))]
            if not isinstance(game, dict):
                continue
            if kind == "game-field":
                game[draw(st.sampled_from(["winner", "left", "when"]))] = draw(junk)
            elif kind == "left-count" and isinstance(game.get("left"), dict) and game["left"]:
                name = draw(st.sampled_from(sorted(game["left"])))
                game["left"][name] = draw(st.one_of(huge, st.integers(), names))
            elif kind == "winner":
                game["winner"] = draw(st.one_of(names, st.sampled_from(["Ann", "Red", "Zed"])))
            elif kind == "extra-game":
                games.append(draw(junk))
    return data


def to_yaml(data: Any) -> str:
    """JSON is YAML; add a comment and block style for the top level to look hand-written."""
    if not isinstance(data, dict):
        return json.dumps(data, ensure_ascii=False)
    lines = ["# a table's series"]
    for key, value in data.items():
        lines.append(
            f"{json.dumps(str(key), ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
        )
    return "\n".join(lines) + "\n"


def to_csv(data: Any) -> str:
    players = data.get("players") if isinstance(data, dict) else None
    players = players if isinstance(players, list) else ["Ann", "Bob"]
    games = data.get("games") if isinstance(data, dict) else None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "winner", *map(str, players)])
    for number, game in enumerate(games if isinstance(games, list) else [], start=1):
        game = game if isinstance(game, dict) else {}
        left = game.get("left") if isinstance(game.get("left"), dict) else {}
        writer.writerow([number, game.get("winner"), *(left.get(str(p), 0) for p in players)])
    return out.getvalue()


@st.composite
def series_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A file name and its bytes: a mutated series as YAML, JSON or CSV, or text damage, or junk."""
    data = draw(mutated_series())
    suffix = draw(st.sampled_from([".yaml", ".json", ".csv", ".yml"]))
    if suffix == ".csv":
        text = to_csv(data)
    elif suffix == ".json":
        text = json.dumps(data, ensure_ascii=False)
    else:
        text = to_yaml(data)
    damage = draw(st.sampled_from(["none", "none", "truncate", "insert", "binary", "bom"]))
    raw = text.encode("utf-8")
    if damage == "truncate":
        raw = raw[: draw(st.integers(0, len(raw)))]
    elif damage == "insert":
        at = draw(st.integers(0, len(raw)))
        raw = (
            raw[:at]
            + draw(
                st.sampled_from(
                    [
                        b"\x00",
                        b"\xff\xfe",
                        b"{",
                        b"\n  - ",
                        b"&a *a",
                        b"!!python/object:os.system",
                        b"\t",
                    ]
                )
            )
            + raw[at:]
        )
    elif damage == "binary":
        raw = draw(st.binary(max_size=200))
    elif damage == "bom":
        raw = b"\xef\xbb\xbf" + raw
    return f"series{suffix}", raw


def fresh_folder(base: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=base))


def assert_clean(result: Any) -> None:
    """Success, or one clean ``Error:`` line; never a traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"uncaught {result.exception!r}\n{result.output}"
    )
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code == 1:
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    elif result.exit_code == 2:
        assert "Error: " in result.output, result.output


def assert_names_the_file(result: Any, path: Path) -> None:
    """A refusal caused by the series file says which file it is, first."""
    if result.exit_code == 1:
        assert result.output.startswith(f"Error: {path}"), result.output


def assert_no_temp_files(folder: Path) -> None:
    leftovers = [p.name for p in folder.rglob(".*.tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"


def assert_complete_pdf(path: Path) -> None:
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) >= 1


# Series files --------------------------------------------------------------


@FAST
@given(series_files())
def test_standings_survives_any_series_file(runner: Any, tmp_path: Path, file: Any) -> None:
    folder = fresh_folder(tmp_path)
    name, raw = file
    (folder / name).write_bytes(raw)
    result = runner("standings", str(folder / name))
    assert_clean(result)
    assert_names_the_file(result, folder / name)
    assert (folder / name).read_bytes() == raw


@FAST
@given(series_files(), st.sampled_from(["json", "csv", "md"]))
def test_export_writes_a_whole_file_or_none(
    runner: Any, tmp_path: Path, file: Any, fmt: str
) -> None:
    folder = fresh_folder(tmp_path)
    name, raw = file
    (folder / name).write_bytes(raw)
    out = folder / f"export.{fmt}"
    result = runner("export", str(folder / name), "--format", fmt, "-o", str(out))
    assert_clean(result)
    if result.exit_code == 0:
        text = out.read_text(encoding="utf-8")
        if fmt == "json":
            assert set(json.loads(text)) >= {"sides", "games", "totals", "winner"}
        elif fmt == "csv":
            # The export is a series file again, with the same games.
            assert load_series(out).games == load_series(folder / name).games
        else:
            assert text.strip()
    else:
        assert not out.exists()
    assert_no_temp_files(folder)


def test_export_md_of_a_valid_series(runner: Any, tmp_path: Path) -> None:
    (tmp_path / "friday.yaml").write_text(to_yaml(VALID), encoding="utf-8")
    result = runner("export", "friday.yaml", "--format", "md")
    assert_clean(result)
    assert result.exit_code == 0
    assert "Ann" in result.output and "135" in result.output


@st.composite
def record_options(draw: st.DrawFn) -> list[str]:
    """``--winner`` and ``--left`` values: right, nearly right and wrong."""
    who = st.one_of(st.sampled_from(["Ann", "Bob", "Cy", "Di", "Red", "Blue", "Zed"]), names)
    args = ["--winner", draw(who)]
    for _ in range(draw(st.integers(0, 5))):
        count = draw(st.one_of(st.integers(-5, 40), huge.map(str), names))
        args += ["--left", f"{draw(who)}={count}"]
    return args


@FAST
@given(series_files(), record_options())
def test_record_changes_the_file_whole_or_not_at_all(
    runner: Any, tmp_path: Path, file: Any, options: list[str]
) -> None:
    folder = fresh_folder(tmp_path)
    name, raw = file
    path = folder / name
    path.write_bytes(raw)
    before = runner("export", str(path))
    result = runner("record", str(path), *options)
    assert_clean(result)
    assert_names_the_file(result, path)
    if result.exit_code == 0:
        assert before.exit_code == 0
        after = runner("export", str(path))
        assert after.exit_code == 0, after.output
        old, new = json.loads(before.output)["games"], json.loads(after.output)["games"]
        assert new[: len(old)] == old and len(new) == len(old) + 1
    else:
        assert path.read_bytes() == raw
    assert_no_temp_files(folder)


@FAST
@given(record_options())
def test_record_on_a_valid_series_adds_exactly_one_game_or_nothing(
    runner: Any, tmp_path: Path, options: list[str]
) -> None:
    folder = fresh_folder(tmp_path)
    path = folder / "friday.yaml"
    raw = VALID_YAML.encode("utf-8")
    path.write_bytes(raw)
    result = runner("record", str(path), *options)
    assert_clean(result)
    games = json.loads(runner("export", str(path)).output)["games"]
    if result.exit_code == 0:
        assert len(games) == 3
        assert path.read_bytes().startswith(raw)
    else:
        assert path.read_bytes() == raw
    assert_no_temp_files(folder)


@settings(FAST, max_examples=25)
@given(series_files())
def test_fill_writes_a_whole_pdf_or_none(runner: Any, tmp_path: Path, file: Any) -> None:
    folder = fresh_folder(tmp_path)
    name, raw = file
    (folder / name).write_bytes(raw)
    out = folder / "filled.pdf"
    result = runner("fill", str(folder / name), "-o", str(out))
    assert_clean(result)
    assert_names_the_file(result, folder / name)
    if result.exit_code == 0:
        assert_complete_pdf(out)
    else:
        assert not out.exists()
    assert_no_temp_files(folder)


@settings(FAST, max_examples=15)
@given(st.lists(series_files(), min_size=2, max_size=4), st.booleans())
def test_fill_split_writes_whole_pdfs_for_the_good_files_only(
    runner: Any, tmp_path: Path, files: list[tuple[str, bytes]], keep_going: bool
) -> None:
    """A folder of good and bad series: every PDF written is whole; bad ones get none."""
    folder = fresh_folder(tmp_path)
    series = folder / "series"
    series.mkdir()
    for index, (name, raw) in enumerate(files):
        (series / f"s{index}{Path(name).suffix}").write_bytes(raw)
    # The oracle: the files that fill on their own.
    alone = folder / "alone"
    alone.mkdir()
    good = {
        path.stem
        for path in series.iterdir()
        if runner("fill", str(path), "-o", str(alone / f"{path.stem}.pdf")).exit_code == 0
    }
    out = folder / "split"
    args = ["fill", str(series), "--split", str(out)] + (["--keep-going"] if keep_going else [])
    result = runner(*args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    written = {path.stem for path in out.glob("*.pdf")} if out.exists() else set()
    if len(good) == len(files):
        assert result.exit_code == 0, result.output
        assert written == good
    else:
        assert result.exit_code == 1, result.output
        assert written == (good if keep_going else set())
    for path in out.glob("*.pdf") if out.exists() else []:
        assert_complete_pdf(path)
    assert_no_temp_files(folder)


# Option values ---------------------------------------------------------------

option_text = st.one_of(
    names,
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "-1",
            "2",
            "4",
            "6",
            "7",
            "1e3",
            "0x10",
            "NaN",
            "a4",
            "letter",
            "Red=Ann+Cy,Blue=Bob+Di",
            "Red=Ann+Cy",
            "=",
            ",,,",
            "Ann,Ann",
            "3",
        ]
    ),
)


@st.composite
def options(draw: st.DrawFn, choices: dict[str, st.SearchStrategy[str]]) -> list[str]:
    args: list[str] = []
    for option in draw(st.lists(st.sampled_from(sorted(choices)), max_size=4, unique=True)):
        args += [option, draw(choices[option])]
    return args


@FAST
@given(options({"--players": option_text, "--stock": option_text}))
def test_deal_answers_any_options(runner: Any, args: list[str]) -> None:
    assert_clean(runner("deal", *args))


@FAST
@given(
    st.sampled_from(["new.yaml", "new.json", "new.csv", "new.txt", "sub/new.yaml"]),
    options(
        {
            "--players": option_text,
            "--teams": option_text,
            "--stock": option_text,
            "--target": option_text,
            "--title": option_text,
        }
    ),
)
def test_new_writes_a_valid_series_or_nothing(
    runner: Any, tmp_path: Path, name: str, args: list[str]
) -> None:
    folder = fresh_folder(tmp_path)
    path = folder / name
    result = runner("new", str(path), *args)
    assert_clean(result)
    if result.exit_code == 0:
        assert runner("standings", str(path)).exit_code == 0
    else:
        assert not path.exists()
    assert_no_temp_files(folder)


SHEET_OPTIONS = {
    "--players": option_text,
    "--names": option_text,
    "--teams": option_text,
    "--games": option_text,
    "--target": option_text,
    "--title": option_text,
    "--copies": st.sampled_from(["1", "2", "0", "101", "-3", "x"]),
    "--paper": st.sampled_from(["letter", "a4", "A4", "legal", ""]),
}


def assert_whole_pdf_or_none(runner: Any, tmp_path: Path, command: str, args: list[str]) -> None:
    """The command ends cleanly, and its PDF is either complete or was never written."""
    folder = fresh_folder(tmp_path)
    out = folder / f"{command}.pdf"
    result = runner(command, *args, "-o", str(out))
    assert_clean(result)
    if result.exit_code == 0:
        assert_complete_pdf(out)
    else:
        assert not out.exists()
    assert_no_temp_files(folder)


@settings(FAST, max_examples=40)
@given(options(SHEET_OPTIONS))
def test_sheet_writes_a_whole_pdf_or_none(runner: Any, tmp_path: Path, args: list[str]) -> None:
    assert_whole_pdf_or_none(runner, tmp_path, "sheet", args)


RULES_OPTIONS = {
    "--players": option_text,
    "--stock": st.sampled_from(["official", "short", "10", "0", "99", "x", "-4"]),
    "--first-player": st.sampled_from(["left-of-dealer", "youngest", "oldest", ""]),
    "--target": option_text,
    "--deck": st.sampled_from(["skip-bo", "standard", "tarot"]),
    "--preset": st.sampled_from(["official", "short", "family", "strict", "../../etc/passwd"]),
    "--game": st.sampled_from(["skip-bo", "uno"]),
}


@SLOW
@given(options(RULES_OPTIONS))
def test_rules_writes_a_whole_pdf_or_none(
    runner: Any, tmp_path: Path, rules_made_once: None, args: list[str]
) -> None:
    """Most of the options drawn resolve to house rules already set (often the official
    ones): each set is made once a run, a new one here."""
    assert_whole_pdf_or_none(runner, tmp_path, "rules", args)


toml_values = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(
        [
            "true",
            "false",
            '"short"',
            '"official"',
            '"youngest"',
            "[1, 2]",
            "{a = 1}",
            '"x"',
            "1.5",
            "nan",
        ]
    ),
)
toml_keys = st.sampled_from(
    [
        "players",
        "stock",
        "first_player",
        "first-player",
        "partnerships",
        "series",
        "target",
        "deck",
        "must_play_stock",
        "no_wild_start",
        "preset",
        "colour",
        "[rules]",
    ]
)


@st.composite
def house_rules_files(draw: st.DrawFn) -> bytes:
    """A TOML house-rules file: plausible keys and values, or damaged bytes."""
    lines = [f"{draw(toml_keys)} = {draw(toml_values)}" for _ in range(draw(st.integers(0, 4)))]
    raw = "\n".join(lines).encode()
    if draw(st.booleans()):
        raw = raw[: draw(st.integers(0, len(raw)))] + draw(st.binary(max_size=20))
    return raw


@settings(FAST, max_examples=25)
@given(house_rules_files())
def test_house_rules_files_are_refused_or_used(runner: Any, tmp_path: Path, raw: bytes) -> None:
    """A bad house-rules file is refused before anything is rendered or written."""
    folder = fresh_folder(tmp_path)
    (folder / "ours.toml").write_bytes(raw)
    out = folder / "rules.pdf"
    # An impossible target makes every file that passes its own checks fail fast, unrendered.
    result = runner(
        "rules", "--house-rules", str(folder / "ours.toml"), "--target", "0", "-o", str(out)
    )
    assert_clean(result)
    if result.exit_code == 0:
        assert_complete_pdf(out)
    else:
        assert not out.exists()


# Files built to hurt: each once, by name -----------------------------------------


def alias_bomb(levels: int) -> str:
    """A few hundred bytes of YAML whose aliases expand to 10 ** (levels + 1) names."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels + 1)]
    return "\n".join([*lines, f"players: *a{levels}"]) + "\n"


HURTFUL = {
    "alias-bomb.yaml": alias_bomb(8),
    "recursive-alias.yaml": "players: &a [Ann, *a]\n",
    "alias.yaml": "players: [Ann, &b Bob]\ngames:\n  - winner: *b\n    left: {Ann: 3}\n",
    "deep-lists.yaml": "players: " + "[" * 5000 + "]" * 5000 + "\n",
    "deep-maps.yaml": "players: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
    "deep.json": '{"players": ' + "[" * 100000 + "]" * 100000 + "}",
    "long-number.json": '{"players": ["Ann", "Bob"], "target": ' + "9" * 5000 + "}",
    "long-number.yaml": "players: [Ann, Bob]\ntarget: " + "9" * 5000 + "\n",
    "long-field.csv": 'game,winner,Ann,Bob\n1,"' + "x" * 200_000 + '",0,3\n',
}


@pytest.mark.parametrize("name", sorted(HURTFUL))
def test_files_built_to_hurt_are_refused_quickly_and_cleanly(runner: Any, name: str) -> None:
    """No traceback, no runaway expansion: one clean line.

    The bound is on this process's CPU time, not the wall clock, so a loaded
    machine cannot fail it; a runaway expansion would take minutes of CPU.
    """
    import time

    (runner.cwd / name).write_text(HURTFUL[name], encoding="utf-8")
    start = time.process_time()
    result = runner("standings", name)
    assert time.process_time() - start < 10
    assert_clean(result)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {name}")


# Destinations that are not plain files -----------------------------------------


def test_a_document_written_through_a_symlink_lands_on_its_target(runner: Any) -> None:
    (runner.cwd / "printed").mkdir()
    (runner.cwd / "sheet.pdf").symlink_to(Path("printed") / "sheet.pdf")
    result = runner("sheet", "-o", "sheet.pdf")
    assert result.exit_code == 0, result.output
    assert (runner.cwd / "sheet.pdf").is_symlink()
    assert_complete_pdf(runner.cwd / "printed" / "sheet.pdf")


def test_record_through_a_symlinked_series_keeps_the_link(runner: Any) -> None:
    """A series kept in a synced folder and linked from elsewhere goes on receiving games."""
    (runner.cwd / "synced").mkdir()
    (runner.cwd / "synced" / "friday.yaml").write_text(VALID_YAML, encoding="utf-8")
    (runner.cwd / "friday.yaml").symlink_to(Path("synced") / "friday.yaml")
    result = runner(
        "record",
        "friday.yaml",
        "--winner",
        "Cy",
        "--left",
        "Ann=1",
        "--left",
        "Bob=2",
        "--left",
        "Di=3",
    )
    assert result.exit_code == 0, result.output
    assert (runner.cwd / "friday.yaml").is_symlink()
    exported = runner("export", str(runner.cwd / "synced" / "friday.yaml"))
    assert len(json.loads(exported.output)["games"]) == 3


def test_a_document_written_to_a_fifo_streams_into_it(runner: Any) -> None:
    import os
    import select
    import threading

    fifo = runner.cwd / "to-printer"
    os.mkfifo(fifo)
    # Opened without blocking, so the reader is there before sheetgen and never hangs.
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    done = threading.Event()
    received = bytearray()

    def drain() -> None:
        while True:
            ready, _, _ = select.select([fd], [], [], 0.05)
            chunk = os.read(fd, 65536) if ready else b""
            received.extend(chunk)
            if not chunk:
                if done.is_set():
                    return
                done.wait(0.01)  # no writer yet: a FIFO reads as empty until one opens it

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        result = runner("sheet", "-o", str(fifo))
    finally:
        done.set()
        reader.join(timeout=10)
        os.close(fd)
    assert result.exit_code == 0, result.output
    assert fifo.is_fifo()
    assert received.startswith(b"%PDF-") and b"%%EOF" in received[-32:]


@pytest.mark.parametrize("command", [["fill"], ["export", "--format", "json"]])
def test_a_document_is_never_written_over_its_own_series_file(
    runner: Any, command: list[str]
) -> None:
    path = runner.cwd / "friday.yaml"
    path.write_text(VALID_YAML, encoding="utf-8")
    result = runner(command[0], "friday.yaml", *command[1:], "-o", "friday.yaml")
    assert path.read_text(encoding="utf-8") == VALID_YAML
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and len(result.output.splitlines()) == 1


def _plain_name(text: str) -> bool:
    import unicodedata

    return (
        bool(text.strip())
        and text == text.strip()
        and "," not in text
        and "=" not in text
        and not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in text)
        and not any("\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069" for c in text)
    )


name_lists = st.lists(
    st.text(min_size=1, max_size=12).filter(_plain_name), min_size=2, max_size=6, unique=True
)


@settings(FAST, max_examples=50)
@given(name_lists, st.sampled_from(["yaml", "json", "csv"]))
def test_any_printable_names_round_trip_through_new_record_and_export(
    runner: Any, tmp_path: Path, players: list[str], fmt: str
) -> None:
    """Names that look like YAML, numbers, dates, comments or anchors come back exactly."""
    folder = fresh_folder(tmp_path)
    path = folder / f"series.{fmt}"
    created = runner("new", str(path), "--players", ",".join(players))
    assert_clean(created)
    if created.exit_code != 0:  # the CLI may still refuse a name (e.g. the shell's --players)
        assert not path.exists()
        return
    left = [f"--left={name}=3" for name in players[1:]]
    recorded = runner("record", str(path), "--winner", players[0], *left)
    assert recorded.exit_code == 0, recorded.output
    exported = json.loads(runner("export", str(path)).output)
    assert exported["sides"] == players
    assert exported["games"][0]["winner"] == players[0]
    assert exported["games"][0]["left"] == {name: 3 for name in players[1:]}


DEEPEST = {
    "flow.yaml": "players: " + "[" * 100_000 + "]" * 100_000 + "\n",
    "block.yaml": "players:\n" + "".join("  " * i + "-\n" for i in range(3000)),
    "deep.json": '{"players": ' + "[" * 1_000_000 + "]" * 1_000_000 + "}",
}


@pytest.mark.parametrize("name", sorted(DEEPEST))
def test_nesting_a_hundred_thousand_deep_is_refused_by_a_live_process(
    tmp_path: Path, name: str
) -> None:
    """In a process of its own: a parser written in C may crash on this instead of raising."""
    import subprocess
    import sys

    (tmp_path / name).write_text(DEEPEST[name], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "sheetgen", "standings", name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, f"exit {done.returncode}: {done.stderr[-300:]}"
    assert (
        done.stderr == f"Error: {name}: lists or mappings are nested too deeply for a series file\n"
    )
