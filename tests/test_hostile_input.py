"""Hostile input, by class: absurd numbers, wrong types, files that never end, paths that
fail every way, Ctrl-C, a full disk; leaks through house rules; names and titles that look
alike or carry escapes; sizes that would blow up. Each in a process of its own.

Every case asserts one ``Error:`` line (the exact one) or success, no traceback, every
input byte-identical after a refusal, no temporary file and no process left.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pdfplumber
import pytest
from hostile import (
    PACKAGE_ROOT,
    Done,
    as_at_a_terminal,
    assert_clean,
    assert_no_process_left,
    assert_refused,
    run,
    snapshot,
    temporaries,
)

SERIES = """\
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12, Di: 3}
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "f.yaml").write_text(SERIES, encoding="utf-8")
    return tmp_path


def refused(folder: Path, args: list[str], message: str, code: int = 1, **kw: object) -> Done:
    before = snapshot(folder)
    done = run(args, folder, **kw)  # type: ignore[arg-type]
    assert_refused(done, message, code)
    assert snapshot(folder) == before
    assert temporaries(folder) == []
    return done


def games_of(folder: Path, name: str = "f.yaml") -> list[dict[str, object]]:
    done = run(["export", name], folder)
    assert done.code == 0, done.err
    games: list[dict[str, object]] = json.loads(done.out)["games"]
    return games


# Numbers -----------------------------------------------------------------------------

TOO_LARGE = "a number of 19 digits is far too large"


@pytest.mark.parametrize(
    ("count", "message"),
    [
        ("²", "'²' is not a whole number"),
        ("٣", "'٣' is not a whole number"),
        ("9" * 5000, "a number of 5000 digits is far too large"),
        ("1e400", "'1e400' is not a whole number"),
    ],
    ids=["superscript", "arabic-indic", "5000-digits", "float-overflow"],
)
def test_absurd_numbers_in_an_option(folder: Path, count: str, message: str) -> None:
    before = snapshot(folder)
    done = run(["record", "f.yaml", "--winner", "Bob", "--left", f"Ann={count}"], folder)
    assert done.code == 2 and "Traceback" not in done.err
    assert done.err.splitlines()[-1] == f"Error: Invalid value for '--left': Ann: {message}"
    assert snapshot(folder) == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("target = 1e400\n", "ours.toml, target: inf is not a whole number"),
        ('players = "²"\n', "ours.toml, players: '²' is not a whole number"),
        ('players = "4"\n', "ours.toml, players: write the number without quotes, not '4'"),
        ("players = 4.0\n", "ours.toml, players: 4.0 is not a whole number"),
        ('stock = " 20"\n', "ours.toml, stock: write the number without quotes, not ' 20'"),
        (
            'series = true\nbonus = "25"\n',
            "ours.toml, bonus: write the number without quotes, not '25'",
        ),
        # The one bound of every number, whether it comes from TOML, --set or an option.
        ("players = 9223372036854775807\n", f"ours.toml, players: {TOO_LARGE}"),
        ("stock = 9223372036854775807\n", f"ours.toml, stock: {TOO_LARGE}"),
        ("series = true\ntarget = -9223372036854775808\n", f"ours.toml, target: {TOO_LARGE}"),
        (
            'extra = ["a.md"]\n',
            "ours.toml, extra: ['a.md'] is not a file name; give a Markdown file",
        ),
    ],
    ids=[
        "float-overflow",
        "superscript",
        "number-in-quotes",
        "float-for-a-count",
        "stock-in-quotes",
        "figure-in-quotes",
        "players-int64",
        "stock-int64",
        "target-int64-negative",
        "list-for-a-path",
    ],
)
def test_wrong_numbers_and_types_in_house_rules(folder: Path, text: str, message: str) -> None:
    (folder / "ours.toml").write_text(text, encoding="utf-8")
    refused(folder, ["rules", "--house-rules", "ours.toml", "-o", "r.pdf"], message)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9223372036854775807"], f"Invalid value for '--players': {TOO_LARGE}"),
        (["--set", "players=9223372036854775807"], f"--set players: {TOO_LARGE}"),
        (["--house-rules", "big.toml"], f"big.toml, players: {TOO_LARGE}"),
    ],
    ids=["option", "set", "house-rules"],
)
def test_one_bound_for_numbers_from_options_set_and_house_rules(
    folder: Path, args: list[str], message: str
) -> None:
    (folder / "big.toml").write_text("players = 9223372036854775807\n", encoding="utf-8")
    before = snapshot(folder)
    done = run(["rules", *args, "-o", "r.pdf"], folder)
    assert "Traceback" not in done.err and done.code in (1, 2)
    assert done.err.splitlines()[-1] == f"Error: {message}"
    assert snapshot(folder) == before and temporaries(folder) == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"players": ["Ann", "Bob"], "games": "x"},
            "give a list of games, each with winner and left",
        ),
        ({"players": "Ann"}, "give the list of players, for example [Ann, Bob, Cy]"),
        ({"players": ["Ann", "Bob"], "title": ["x"]}, "['x'] is not text"),
    ],
    ids=["games-a-string", "players-a-string", "title-a-list"],
)
def test_wrong_types_in_a_json_series(folder: Path, data: object, message: str) -> None:
    (folder / "s.json").write_text(json.dumps(data), encoding="utf-8")
    done = run(["standings", "s.json"], folder)
    assert_clean(done)
    assert done.code == 1 and done.err.endswith(f": {message}\n") and "s.json" in done.err


# Files that never end and paths that fail -----------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_device_as_house_rules_is_refused_without_hanging(
    folder: Path, kind: str
) -> None:
    path = folder / "ours.toml"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    refused(
        folder,
        ["rules", "--house-rules", "ours.toml", "-o", "r.pdf"],
        "ours.toml: is not an ordinary file; give a TOML house-rules file",
    )


def test_a_fifo_as_the_paper_configuration_is_passed_over(folder: Path) -> None:
    os.mkfifo(folder / "papersize")
    env_run = subprocess.run(
        [sys.executable, "-m", "sheetgen", "sheet", "-o", "s.pdf"],
        cwd=folder,
        env={**os.environ, "PAPERCONF": str(folder / "papersize"), "PAPERSIZE": ""},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert env_run.returncode == 0, env_run.stderr
    assert (folder / "s.pdf").read_bytes().startswith(b"%PDF-")


def test_a_symlink_loop_and_a_name_too_long(folder: Path) -> None:
    (folder / "a.pdf").symlink_to("b.pdf")
    (folder / "b.pdf").symlink_to("a.pdf")
    refused(
        folder,
        ["sheet", "-o", "a.pdf"],
        "a.pdf: cannot be used (Too many levels of symbolic links)",
    )
    (folder / "a.yaml").symlink_to("a.yaml")
    refused(
        folder,
        ["standings", "a.yaml"],
        "a.yaml: cannot be read (Too many levels of symbolic links)",
    )
    long = "x" * 300 + ".pdf"
    refused(folder, ["sheet", "-o", long], f"{long}: File name too long")


def test_a_long_but_valid_file_name_works(folder: Path) -> None:
    name = "y" * 251 + ".pdf"  # 255 bytes, the most a name may have
    done = run(["sheet", "-o", name], folder)
    assert done.code == 0, done.err
    assert (folder / name).read_bytes().startswith(b"%PDF-")
    assert temporaries(folder) == []


def test_a_full_disk_or_file_size_limit(folder: Path) -> None:
    (folder / "sheet.pdf").write_bytes(b"%PDF-1.4 the old sheet\n")
    refused(
        folder,
        ["sheet", "-o", "sheet.pdf"],
        "sheet.pdf: cannot write in . (File too large; "
        "the disk is full or the file is larger than allowed)",
        file_limit=4096,
    )
    refused(
        folder,
        ["record", "f.yaml", "--winner", "Bob", "--left", "Ann=1,Cy=2,Di=3"],
        "f.yaml: cannot write in . (File too large; "
        "the disk is full or the file is larger than allowed)",
        file_limit=100,
    )


def test_standard_output_that_cannot_be_written(folder: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = run(["standings", "f.yaml"], folder, stdout=full.fileno())
    assert_refused(done, "No space left on device")
    with open("/dev/full", "wb") as full:
        done = run(["sheet", "-o", "-"], folder, stdout=full.fileno())
    assert_refused(done, "No space left on device")


def test_a_game_recorded_whose_report_cannot_be_shown_says_it_was_recorded(folder: Path) -> None:
    """The attacker's `record ... > /dev/full`: the game was written, yet the only line said
    "No space left on device", inviting a second, duplicate record."""
    before = (folder / "f.yaml").read_text(encoding="utf-8")
    with open("/dev/full", "wb") as full:
        done = run(
            ["record", "f.yaml", "--winner", "Bob", "--left", "Ann=1,Cy=2,Di=3"],
            folder,
            stdout=full.fileno(),
        )
    assert_refused(
        done,
        "f.yaml: game 2 was recorded, but this report could not be shown (No space left on device)",
    )
    assert (folder / "f.yaml").read_text(encoding="utf-8").count("winner:") == before.count(
        "winner:"
    ) + 1
    # A reader that stops early (`| head -1`) is no failure: the game is in, status 0.
    done = run(
        ["record", "f.yaml", "--winner", "Cy", "--left", "Ann=1,Bob=2,Di=3"],
        folder,
        stdout=subprocess.DEVNULL,
    )
    assert done.code == 0
    reader = subprocess.Popen(["head", "-c", "0"], stdin=subprocess.PIPE)
    assert reader.stdin is not None
    done = run(
        ["record", "f.yaml", "--winner", "Di", "--left", "Ann=1,Bob=2,Cy=3"],
        folder,
        stdout=reader.stdin.fileno(),
    )
    reader.stdin.close()
    reader.wait()
    assert done.code in (0,), done.err
    assert "Traceback" not in done.err


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--version"]])
def test_the_group_s_own_help_and_version_to_a_full_disk(folder: Path, args: list[str]) -> None:
    """Written before any command runs, so outside the commands' error handling: the
    attacker saw a 40-line trace for `sheetgen --help > /dev/full`."""
    with open("/dev/full", "wb") as full:
        done = run(args, folder, stdout=full.fileno())
    assert_refused(done, "No space left on device")


@pytest.mark.parametrize(
    "args", [["standings", "f.yaml"], ["sheet", "-o", "-"], ["--help"], ["--version"]]
)
def test_standard_output_closed_before_the_start(folder: Path, args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sheetgen", *args],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),  # as `sheetgen ... >&-`
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == b"Error: standard output is closed\n"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["sheet", "--games", "\u0663"], "--games"),
        (["rules", "--players", "\u0664"], "--players"),
        (["deal", "--players", "4", "--stock", "\u0662"], "--stock"),
        (["new", "s.yaml", "--players", "Ann,Bob", "--target", "\u00b2"], "--target"),
    ],
)
def test_options_read_numbers_as_series_files_do(
    folder: Path, args: list[str], option: str
) -> None:
    """Digits of other scripts are refused by options too, as by series files and --left."""
    before = snapshot(folder)
    done = run(args, folder)
    assert "Traceback" not in done.err
    assert done.code == 2
    assert done.err.strip().splitlines()[-1] == (
        f"Error: Invalid value for '{option}': {args[-1]!r} is not a whole number"
    )
    assert snapshot(folder) == before


@pytest.mark.parametrize("args", [["standings", "f.yaml"], ["sheet", "-o", "-"]])
def test_a_reader_that_goes_away_ends_the_run_quietly(folder: Path, args: list[str]) -> None:
    """`sheetgen ... | head -1` when head has already gone: no Error line, no traceback."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before sheetgen writes its first byte
    try:
        done = run(args, folder, stdout=write)
    finally:
        os.close(write)
    assert done.err == ""
    assert done.code == 1


def test_ctrl_c_exits_quietly_with_130(folder: Path) -> None:
    """Interrupted while it works (the booklet takes a few seconds): no trace, no temporary."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sheetgen", "rules", "-o", "r.pdf"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=as_at_a_terminal,
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
    )
    # Interrupted once it draws (Pango is loaded for the booklet), however long start-up took.
    maps = Path(f"/proc/{process.pid}/maps")
    while "libpango" not in maps.read_text(errors="replace"):
        assert process.poll() is None, process.communicate()
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert_no_process_left(process.pid)
    assert process.returncode == 130, err
    assert b"Traceback" not in err and b"Aborted" not in err
    assert not (folder / "r.pdf").exists() and temporaries(folder) == []


@pytest.mark.parametrize("delay", [0.3, 0.7, 1.5, 3.0])
def test_ctrl_c_at_any_moment_exits_quietly_with_130(folder: Path, delay: float) -> None:
    """Reading options, importing pikepdf (whose C extension aborted the process when
    interrupted), running weak-reference callbacks (where Python drops the interrupt and
    the run went on to write its file): wherever Ctrl-C lands, the run ends with 130 and
    nothing is written. A run that finished first wrote its whole file."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sheetgen", "rules", "--layout", "booklet", "-o", "r.pdf"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=as_at_a_terminal,
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
    )
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert_no_process_left(process.pid)
    assert temporaries(folder) == []
    if process.returncode == 0:  # done before the Ctrl-C came
        assert err == f"Wrote {folder / 'r.pdf'}\n".encode()
        assert (folder / "r.pdf").read_bytes().rstrip().endswith(b"%%EOF")
    else:
        assert (process.returncode, err) == (130, b"")
        assert not (folder / "r.pdf").exists()


# Leaks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra", ["/etc/passwd", "../outside.md", "/proc/self/environ", "linked.md"]
)
def test_a_house_rules_extra_stays_inside_its_folder(tmp_path: Path, extra: str) -> None:
    (tmp_path / "outside.md").write_text("# secret\n", encoding="utf-8")
    table = tmp_path / "table"
    table.mkdir()
    (table / "linked.md").symlink_to(tmp_path / "outside.md")
    (table / "ours.toml").write_text(f'extra = "{extra}"\n', encoding="utf-8")
    refused(
        table,
        ["rules", "--house-rules", "ours.toml", "-o", "r.pdf"],
        f"ours.toml, extra: {extra} is outside the folder of the house-rules file; "
        "keep the table's Markdown beside it",
    )


def test_a_house_rules_extra_in_its_folder_is_used(folder: Path) -> None:
    """Read where every format reads it (the HTML every booklet is made from): the page to
    read on a screen shows it, with no PDF laid out for the purpose."""
    (folder / "sub").mkdir()
    (folder / "sub" / "ours.md").write_text("# Our way\n\nFast.\n", encoding="utf-8")
    (folder / "ours.toml").write_text('extra = "sub/ours.md"\n', encoding="utf-8")
    done = run(["rules", "--house-rules", "ours.toml", "-o", "r.html"], folder)
    assert done.code == 0, done.err
    page = (folder / "r.html").read_text(encoding="utf-8")
    assert "Our way</h" in page and "<p>Fast.</p>" in page


ESCAPE_TITLE = 'title: "Friday\\e[2J\\e[31mnights"\nplayers: [Ann, Bob]\n'


@pytest.mark.parametrize("command", [["standings"], ["export", "--format", "md"], ["fill"]])
def test_a_title_with_escape_sequences_is_refused_everywhere(
    folder: Path, command: list[str]
) -> None:
    (folder / "t.yaml").write_text(ESCAPE_TITLE, encoding="utf-8")
    refused(
        folder,
        [command[0], "t.yaml", *command[1:]],
        "t.yaml, title: the title holds the control character U+001B; "
        "a title is one line of printable text",
    )


@pytest.mark.parametrize(
    "command", [["sheet"], ["fill", "f.yaml"], ["new", "n.yaml", "--players", "Ann,Bob"]]
)
def test_title_options_get_the_same_checks_everywhere(folder: Path, command: list[str]) -> None:
    refused(
        folder,
        [*command, "--title", "Friday\nnights"],
        "--title: the title holds the control character U+000A; "
        "a title is one line of printable text",
    )
    refused(
        folder,
        [*command, "--title", "T" * 301],
        "--title: the title has 301 characters; a sheet prints at most 300",
    )


def test_new_refuses_what_fill_could_not_print(folder: Path) -> None:
    refused(
        folder,
        ["new", "n.yaml", "--players", "Ann,Bo𐀀"],
        '--players: "Bo𐀀" has 𐀀 (U+10000), which the score sheet cannot print; '
        "leave out emoji and other symbols beyond U+FFFF",
    )


# Names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("second", "shown"),
    [
        ("ann", "'ann'"),
        ("A\u00a0nn", "'A\\xa0nn'"),
        ("A  nn", "'A  nn'"),
    ],
    ids=["case", "no-break-space", "two-spaces"],
)
def test_names_that_look_the_same_are_refused(folder: Path, second: str, shown: str) -> None:
    first = "A nn" if " " in second or "\u00a0" in second else "Ann"
    (folder / "s.json").write_text(json.dumps({"players": [first, second]}), encoding="utf-8")
    refused(
        folder,
        ["standings", "s.json"],
        f"s.json, players: {first!r} and {shown} differ only in case, spacing or invisible "
        "characters; give every player a name of their own",
    )


def test_a_name_composed_or_decomposed_is_one_player(folder: Path) -> None:
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    (folder / "s.yaml").write_text(
        f"players: [{composed}, Bob]\ngames:\n  - winner: {decomposed}\n    left: {{Bob: 3}}\n",
        encoding="utf-8",
    )
    done = run(["record", "s.yaml", "--winner", decomposed, "--left", "Bob=2"], folder)
    assert done.code == 0, done.err
    assert [game["winner"] for game in games_of(folder, "s.yaml")] == [composed, composed]


@pytest.mark.parametrize("typed", ["ann", "Ann ", " ANN"])
def test_a_winner_typed_in_another_case_or_with_spaces_is_found(folder: Path, typed: str) -> None:
    done = run(
        ["record", "f.yaml", "--winner", typed, "--left", "bob=1,Cy=2", "--left", "di=3"], folder
    )
    assert done.code == 0, done.err
    assert done.out.decode().startswith("Game 2: Ann scores 55.")
    assert games_of(folder)[-1]["left"] == {"Bob": 1, "Cy": 2, "Di": 3}


def test_an_unknown_name_lists_the_players_and_the_nearest(folder: Path) -> None:
    refused(
        folder,
        ["record", "f.yaml", "--winner", "Anne", "--left", "Bob=1,Cy=2,Di=3"],
        "f.yaml, game 2, winner: 'Anne' is not a player of this series "
        "(choose from Ann, Bob, Cy, Di; did you mean Ann?)",
    )
    refused(
        folder,
        ["record", "f.yaml", "--winner", "Ann", "--left", "Bbo=1,Cy=2,Di=3"],
        "f.yaml, game 2, left: 'Bbo' is not a player of this series "
        "(choose from Ann, Bob, Cy, Di; did you mean Bob?)",
    )


def test_a_name_too_long_is_refused_by_its_length(folder: Path) -> None:
    name = "word " * 2000
    refused(
        folder,
        ["sheet", "--names", f"Ann,{name.strip()}"],
        "players, player 2: a name of 9999 characters is too long; a name has at most 200",
    )


def test_repeated_headings_in_extra_are_linear_and_the_input_is_capped(folder: Path) -> None:
    from sheetgen.booklet.markdown import render_markdown
    from sheetgen.limits import MAX_MARKDOWN

    rendered = render_markdown("# Same\n" * 4000, id_prefix="x")
    ids = [heading.id for heading in rendered.headings]
    assert len(set(ids)) == 4000 and ids[:3] == ["x-same", "x-same-2", "x-same-3"]
    assert len(rendered.html) < 40 * 4000
    (folder / "big.md").write_text("# Same\n" * (MAX_MARKDOWN // 7 + 1), encoding="utf-8")
    refused(
        folder,
        ["rules", "--extra", "big.md", "-o", "r.html"],  # capped before any format
        f"--extra: big.md: the text has {(MAX_MARKDOWN // 7 + 1) * 7:,} characters; a booklet takes "
        f"at most {MAX_MARKDOWN:,} of a table's own rules",
    )


# Details --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["s.csv", "s.json"])
def test_a_byte_order_mark_is_read_and_kept(folder: Path, name: str) -> None:
    text = (
        "game,winner,Ann,Bob\n1,Ann,0,3\n"
        if name.endswith(".csv")
        else json.dumps({"players": ["Ann", "Bob"], "games": []}, indent=2) + "\n"
    )
    path = folder / name
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert run(["standings", name], folder).code == 0
    done = run(["record", name, "--winner", "Bob", "--left", "Ann=4"], folder)
    assert done.code == 0, done.err
    assert path.read_bytes().startswith(b"\xef\xbb\xbf" + text.encode()[:10])


def test_record_on_json_keeps_its_indentation_and_escapes(folder: Path) -> None:
    path = folder / "s.json"
    path.write_text(
        json.dumps({"players": ["Zo\u00eb", "Bob"], "games": []}, indent="\t") + "\n",
        encoding="utf-8",
    )
    done = run(["record", "s.json", "--winner", "Bob", "--left", "Zo\u00eb=4"], folder)
    assert done.code == 0, done.err
    text = path.read_text(encoding="utf-8")
    assert '\t"players": [\n\t\t"Zo\\u00eb",' in text
    assert text.endswith('\t\t\t"left": {\n\t\t\t\t"Zo\\u00eb": 4\n\t\t\t}\n\t\t}\n\t]\n}\n')


def test_editor_lock_files_in_a_folder_are_skipped(folder: Path) -> None:
    (folder / "series").mkdir()
    (folder / "series" / "a.yaml").write_text(SERIES, encoding="utf-8")
    (folder / "series" / ".#a.yaml").symlink_to("root@host.1234:1700000000")
    done = run(["fill", "series", "-o", "all.pdf"], folder)
    assert done.code == 0, done.err
    assert (folder / "all.pdf").read_bytes().startswith(b"%PDF-")


def test_a_newline_is_called_a_control_character(folder: Path) -> None:
    from sheetgen.errors import FontCoverageError
    from sheetgen.fonts import check_printable

    with pytest.raises(FontCoverageError, match=r"has U\+000A \(a control character\)"):
        check_printable(["Ann\nBob"], "names")


# A file that fails while it is drawn ------------------------------------------------------


# sheetgen with a painter that gives up on the series titled "Breaks": what no input can
# do since numbers are bounded, but a bug or an exhausted machine still could.
FRAGILE = """\
import sys
from sheetgen.sheet import fill
drawn = fill._paint_series
def fragile(painter, result, *args, **kwargs):
    if result.series.title == "Breaks":
        raise ValueError("the painter gave up")
    return drawn(painter, result, *args, **kwargs)
fill._paint_series = fragile
fill.PARALLEL_FROM = int(sys.argv.pop(1))
from sheetgen.cli import main
sys.argv[0] = "sheetgen"
main()
"""
UNDRAWABLE = "in/s1.yaml: cannot be drawn (ValueError: the painter gave up)"


@pytest.fixture(scope="module")
def earlier_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of ``fragile_batch``, made by one run of sheetgen for the module."""
    folder = tmp_path_factory.mktemp("fragile")
    (folder / "in").mkdir()
    for index, title in enumerate(["Fine", "Breaks", "Also fine"]):
        (folder / "in" / f"s{index}.yaml").write_text(
            SERIES.replace("Friday nights", title), encoding="utf-8"
        )
    (folder / "fragile.py").write_text(FRAGILE, encoding="utf-8")
    done = run(["fill", "in/s0.yaml", "in/s2.yaml", "--split", "out"], folder)
    assert done.code == 0, done.err
    return folder


@pytest.fixture
def fragile_batch(tmp_path: Path, earlier_run: Path) -> Path:
    """in/ holds three series, the second of which cannot be drawn; out/ holds the sheets
    an earlier run made of the other two (a copy of the module's one run, bytes and times
    kept, for each test to change)."""
    shutil.copytree(earlier_run, tmp_path, symlinks=True, dirs_exist_ok=True)
    return tmp_path


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "workers"])
@pytest.mark.parametrize(
    "args",
    [
        ["--split", "out"],
        ["--split", "new"],
        ["--split", "out", "--format", "png"],
        ["-o", "all.pdf"],
    ],
    ids=["split-over-earlier", "split-new-folder", "split-png", "one-pdf"],
)
def test_a_file_failing_while_drawn_stops_the_batch_before_anything_is_written(
    fragile_batch: Path, args: list[str], parallel: bool
) -> None:
    """Without --keep-going, a painting failure changes nothing: files of the batch drawn
    before it wait in temporaries that go with the run, a folder the run made goes too."""
    before = snapshot(fragile_batch)
    done = run(
        [str(2 if parallel else 1000), "fill", "in", *args],
        fragile_batch,
        script=fragile_batch / "fragile.py",
    )
    assert_refused(done, UNDRAWABLE)
    assert snapshot(fragile_batch) == before
    assert temporaries(fragile_batch) == []
    assert not (fragile_batch / "new").exists()


def test_a_batch_killed_outright_leaves_temporaries_the_next_batch_clears(
    fragile_batch: Path,
) -> None:
    """Staged files wait as temporaries: after kill -9 they stay, named with the dead
    process's id, and the next fill into the folder removes them (a live writer's stay)."""
    dead = subprocess.Popen(["true"])  # a process id that has ended
    dead.wait()
    out = fragile_batch / "out"
    stale = out / f".s0.pdf.{dead.pid}-abc123.tmp"
    live = out / f".s0.pdf.{os.getpid()}-def456.tmp"
    for temporary in (stale, live):
        temporary.write_bytes(b"%PDF-1.4 half")
    done = run(["fill", "in/s0.yaml", "in/s2.yaml", "--split", "out"], fragile_batch)
    assert done.code == 0, done.err
    assert not stale.exists() and live.exists()


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "workers"])
@pytest.mark.parametrize("split", [True, False], ids=["split", "one-pdf"])
def test_with_keep_going_a_file_failing_while_drawn_is_a_bad_file(
    fragile_batch: Path, split: bool, parallel: bool
) -> None:
    before = snapshot(fragile_batch / "in")
    where = ["--split", "out"] if split else ["-o", "all.pdf"]
    done = run(
        [str(2 if parallel else 1000), "fill", "in", *where, "--keep-going"],
        fragile_batch,
        script=fragile_batch / "fragile.py",
    )
    assert "Traceback" not in done.err and done.code == 1
    assert done.err.splitlines()[-2:] == [UNDRAWABLE, "Error: 1 of 3 series files were not filled"]
    assert snapshot(fragile_batch / "in") == before
    assert temporaries(fragile_batch) == []
    if split:
        assert sorted(p.name for p in (fragile_batch / "out").iterdir()) == ["s0.pdf", "s2.pdf"]
        return
    with pdfplumber.open(fragile_batch / "all.pdf") as doc:
        headings = [page.extract_text().splitlines()[0] for page in doc.pages]
    assert "Breaks" not in " ".join(headings)
    assert any("Also fine" in heading for heading in headings)


def test_ctrl_c_during_a_parallel_batch_exits_quietly_with_130(folder: Path) -> None:
    """The workers ignore Ctrl-C and leave it to the parent: no trace from any of them."""
    (folder / "in").mkdir()
    for index in range(400):
        (folder / "in" / f"s{index:03}.yaml").write_text(SERIES, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "sheetgen", "fill", "in", "--split", "out"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=as_at_a_terminal,
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
    )
    deadline, out = time.monotonic() + 60, folder / "out"
    while not (out.is_dir() and any(out.glob("*.tmp"))):  # interrupted mid-batch
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)  # the whole group, as a terminal's Ctrl-C
    _, err = process.communicate(timeout=60)
    assert_no_process_left(process.pid)
    assert process.returncode == 130, err
    assert err == b""
    assert temporaries(folder) == []
    # All or nothing: the files drawn before Ctrl-C, and the folder the run made, are gone.
    assert not out.exists()


def test_excel_export_guards_formulas_and_reads_back(tmp_path: Path) -> None:
    name = "=cmd|' /C calc'!A0"
    assert run(["new", "s.yaml", "--players", f"{name},+Bob,@Cy"], tmp_path).code == 0
    done = run(
        ["record", "s.yaml", "--winner", "+Bob", "--left", f"{name}=3", "--left", "@Cy=2"], tmp_path
    )
    assert done.code == 0, done.err
    done = run(["export", "s.yaml", "--format", "csv", "--excel", "-o", "s.csv"], tmp_path)
    assert done.code == 0, done.err
    text = (tmp_path / "s.csv").read_text(encoding="utf-8-sig")
    cells = [cell for row in __import__("csv").reader(text.splitlines()) for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    assert "'=cmd|' /C calc'!A0" in cells and "'+Bob" in cells and "'@Cy" in cells
    (tmp_path / "s.yaml").rename(tmp_path / "elsewhere.yaml.bak")
    back = run(["export", "s.csv"], tmp_path)
    assert back.code == 0, back.err
    data = json.loads(back.out)
    assert data["sides"] == [name, "+Bob", "@Cy"]
    assert data["games"][0]["winner"] == "+Bob"


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (
            "Ann,\u0410nn,Bob",
            "players: '\u0410nn' looks the same as 'Ann' (it mixes Cyrillic and Latin letters);"
            " give every player a name of their own",
        ),
        (
            "Bob,B\u043eb",
            "players: 'B\u043eb' looks the same as 'Bob' (it mixes Cyrillic and Latin letters);"
            " give every player a name of their own",
        ),
        (
            "Ann,\u0391\u039d\u039d",
            "players: '\u0391\u039d\u039d' looks the same as 'Ann' (it is written in Greek"
            " letters); give every player a name of their own",
        ),
        (
            "Ann\u034f,Bob",
            "players, player 1: 'Ann\u034f' holds the invisible character U+034F;"
            " a name is made of characters a reader can see",
        ),
        (
            "Ann,An\u200bn",
            "players, player 2: 'An\\u200bn' holds the invisible character U+200B;"
            " a name is made of characters a reader can see",
        ),
        (
            "Ann,B\u00adob",
            "players, player 2: 'B\\xadob' holds the invisible character U+00AD;"
            " a name is made of characters a reader can see",
        ),
    ],
    ids=["cyrillic-a", "cyrillic-o", "greek", "grapheme-joiner", "zero-width", "soft-hyphen"],
)
def test_names_that_look_alike_are_refused(tmp_path: Path, players: str, message: str) -> None:
    done = run(["new", "s.yaml", "--players", players], tmp_path)
    assert_refused(done, message)
    assert not (tmp_path / "s.yaml").exists() and temporaries(tmp_path) == []


def test_a_name_wholly_in_cyrillic_is_welcome(tmp_path: Path) -> None:
    done = run(["new", "s.yaml", "--players", "\u0410\u043d\u043d\u0430,Bob"], tmp_path)
    assert done.code == 0, done.err


@pytest.mark.parametrize("name", ["huge.yaml", "huge.json", "huge.csv"])
def test_a_series_file_too_big_to_be_a_series_is_refused_before_it_is_read(
    folder: Path, name: str
) -> None:
    """The attacker's 1.5 GB file ended in a MemoryError trace under a memory limit, or
    took 37 s and gigabytes before it was refused. A sparse file costs the test nothing."""
    from sheetgen.limits import MAX_SERIES_BYTES

    with (folder / name).open("wb") as huge:
        huge.truncate(MAX_SERIES_BYTES + 1)
    before = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir())
    for args in (["standings", name], ["record", name, "--winner", "Ann", "--left", "Bob=1"]):
        done = run(args, folder, timeout=30)
        assert_refused(
            done,
            f"{name}: is larger than 10 MB, the most a series file may hold "
            "(and a series holds at most 10,000 games)",
        )
    after = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir())
    assert after == before


def test_with_standard_error_closed_messages_stay_out_of_the_data(folder: Path) -> None:
    """`sheetgen standings missing.yaml 2>&- > out`: the Error line landed in out."""
    done = subprocess.run(
        [sys.executable, "-m", "sheetgen", "standings", "missing.yaml"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(2),  # as `sheetgen ... 2>&-`
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, b"")
    done = subprocess.run(
        [sys.executable, "-m", "sheetgen", "export", "f.yaml", "--format", "json", "-o", "-"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(2),
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["title"] == "Friday nights"
