"""The README is a user's guide whose commands work, with pictures sheetgen drew itself.

Every shell block of the README that is not one of the two set-up commands (those are
test_readme_setup's and CI's) or the shell-completion line is a list of ``sheetgen``
commands, and each block runs here, line by line, in a scratch folder holding the files
the README talks about: the series ``friday.yaml``, a ``season/`` folder, and the
example files the README shows under an ``<!-- file: NAME -->`` marker. Printing goes to
a stand-in for CUPS's clients that answers for two printers and logs every job.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from PIL import Image

import sheetgen.booklet.build as build
from sheetgen.cli import shared

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PICTURES = ROOT / "tests" / "readme"
SET_UP_MARKERS = ("<!-- install-command -->", "<!-- test-command -->")
COMPLETION = "_SHEETGEN_COMPLETE="
# A server runs until Ctrl-C: its block is checked as click reads it, not run.
SERVE_MARKER = "<!-- serve -->"
FILE_MARKER = re.compile(r"<!-- file: (\S+) -->")


class Block(NamedTuple):
    """A fenced block of the README: its language, the marker comment above it, its lines."""

    line: int  # where the fence opens, counting from 1
    lang: str
    marker: str
    lines: tuple[str, ...]


def readme_blocks(text: str) -> list[Block]:
    blocks: list[Block] = []
    lines = text.splitlines()
    marker, index = "", 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("<!--"):
            marker = line.strip()
        elif line.startswith("```"):
            end = lines.index("```", index + 1)
            blocks.append(Block(index + 1, line[3:].strip(), marker, tuple(lines[index + 1 : end])))
            marker, index = "", end
        elif line.strip():
            marker = ""
        index += 1
    return blocks


TEXT = README.read_text(encoding="utf-8")
BLOCKS = readme_blocks(TEXT)
SHELL = [block for block in BLOCKS if block.lang == "sh"]
COMMAND_BLOCKS = [
    block
    for block in SHELL
    if block.marker not in (*SET_UP_MARKERS, SERVE_MARKER)
    and not any(COMPLETION in line for line in block.lines)
]
SERVE_BLOCKS = [block for block in SHELL if block.marker == SERVE_MARKER]
EXAMPLE_FILES = {
    match.group(1): "\n".join(block.lines) + "\n"
    for block in BLOCKS
    if (match := FILE_MARKER.fullmatch(block.marker))
}


def _heading(block: Block) -> str:
    """The title of the README section a block stands in, for its test id."""
    above = TEXT.splitlines()[: block.line]
    title = next(line for line in reversed(above) if line.startswith("#"))
    return re.sub(r"[^a-z0-9]+", "-", title.lstrip("#").lower()).strip("-")


def _commands(block: Block) -> list[tuple[list[str], str]]:
    """Each line of a block as sheetgen's arguments, with the comment after it."""
    commands = []
    for line in block.lines:
        if not line.strip():
            continue
        words = shlex.split(line, comments=True)
        assert words[0] == "sheetgen", (
            f"README line {block.line}: {line!r} is not a sheetgen command"
        )
        comment = line.partition("  #")[2].strip()
        commands.append((words[1:], comment))
    return commands


# ------------------------------------------------------------------------ a guide to read


def _section(title: str) -> str:
    return TEXT.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_reads_in_five_minutes() -> None:
    lines = TEXT.splitlines()
    # About 250 lines of guide, and the screen-reader notes of the reference.
    assert len(lines) <= 305, f"the README has {len(lines)} lines; a guide stays near 250"
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[:2] == ["## Set-up", "## Everyday use"]
    assert headings.index("## What sheetgen promises") < headings.index("## Reference")
    assert headings[-1] == "## Reference"
    first_rules = next(i for i, line in enumerate(lines) if line.startswith("sheetgen rules"))
    assert first_rules < 100, f"the first rules example is on line {first_rules + 1}"
    opening = TEXT.split("\n## Set-up\n", 1)[0].lower()
    for developer_talk in ("fsync", "hard link", "hard-link", "lock", "benchmark", "pytest"):
        assert developer_talk not in opening


def test_what_moved_out_of_the_readme_is_where_it_went() -> None:
    """Speed figures beside the benchmark, the hostile suite and the details in
    CONTRIBUTING.md; the README only points to them."""
    figures = (ROOT / "tests" / "perf" / "FIGURES.md").read_text(encoding="utf-8")
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "| What | Median s | CPU s | Peak MB |" in figures
    assert "tests/perf/bench.py" in figures
    assert "Median s" not in TEXT and "reportlab (baseline)" not in TEXT
    for detail in ("test_hostile_paths.py", "fsync", "hard-linked", "SOURCE_DATE_EPOCH"):
        assert detail in contributing
        assert detail not in TEXT
    assert "CONTRIBUTING.md" in TEXT and "tests/perf/FIGURES.md" in TEXT


def test_the_promises_are_short_and_say_what_the_issue_asks() -> None:
    promises = _section("What sheetgen promises")
    assert len(promises.strip().splitlines()) <= 20
    for promise in ("Nothing is lost", "in one line", "fonts", "0.25 in", "tagged", "print forms"):
        assert promise in promises


@pytest.mark.parametrize(
    "example",
    [
        "sheetgen sheet ",
        "sheetgen rules ",
        "sheetgen rules --layout booklet",
        "sheetgen rules --lang de",
        "sheetgen rules --format html",
        "sheetgen new ",
        "sheetgen record ",
        "sheetgen undo ",
        "sheetgen standings ",
        "sheetgen fill ",
        "sheetgen export ",
        "--csv-dialect excel-de",
        ".xlsx",
        "sheetgen games",
        "sheetgen printers",
        "--print",
        "--printer ",
    ],
)
def test_every_everyday_command_has_an_example(example: str) -> None:
    examples = [line for block in COMMAND_BLOCKS for line in block.lines]
    assert any(example in line + " " for line in examples), example


def test_the_served_page_is_shown_in_three_lines_that_click_reads() -> None:
    """The serve block: the extra's install and a command whose options all exist."""
    from sheetgen.cli import cli

    (block,) = SERVE_BLOCKS
    assert len(block.lines) <= 3
    assert any("[serve]" in line and "pip install" in line for line in block.lines)
    served = [line.split("#")[0].split() for line in block.lines if line.startswith("sheetgen")]
    assert served
    for args in served:
        assert args[:2] == ["sheetgen", "serve"]
        cli.make_context("sheetgen", args[1:], resilient_parsing=False)


def test_every_shell_block_is_set_up_completion_or_sheetgen() -> None:
    markers = [block.marker for block in SHELL if block.marker in SET_UP_MARKERS]
    assert sorted(markers) == sorted(SET_UP_MARKERS)
    # the two set-up commands, the completion, the served page
    assert len(SHELL) - len(COMMAND_BLOCKS) == 4
    for block in COMMAND_BLOCKS:
        assert _commands(block), block


# ------------------------------------------------------------------- the commands work

PRINTERS = ("home", "office")
FAKE_CUPS = {
    "lpstat": (
        '[ "$1" = -r ] && echo "scheduler is running"\n'
        '[ "$1" = -e ] && printf "home\\noffice\\n"\n'
        '[ "$1" = -d ] && echo "system default destination: home"\n'
        "exit 0\n"
    ),
    "lpoptions": (
        'printf "PageSize/Media Size: *Letter A4\\n"\n'
        'printf "Duplex/2-Sided Printing: *None DuplexNoTumble DuplexTumble\\n"\n'
    ),
    "lp": (
        'cat > /dev/null\necho "$*" >> "$SHEETGEN_README_JOBS"\n'
        'echo "request id is $2-$(wc -l < "$SHEETGEN_README_JOBS") (1 file(s))"\n'
    ),
}


@pytest.fixture
def table(
    runner: Any, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Any:
    """A runner in a folder holding what the README's commands read, with CUPS stood in
    for and a terminal to answer questions on."""
    bin_dir = tmp_path_factory.mktemp("cups-bin")
    for name, body in FAKE_CUPS.items():
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\n{body}", encoding="utf-8")
        script.chmod(0o755)
    jobs = tmp_path_factory.mktemp("jobs") / "jobs.log"
    jobs.touch()
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("SHEETGEN_README_JOBS", str(jobs))
    for variable in ("PRINTER", "LPDEST", "CUPS_SERVER"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(shared, "stdin_is_terminal", lambda: True)
    runner.jobs = jobs

    for name, text in EXAMPLE_FILES.items():
        (runner.cwd / name).write_text(text, encoding="utf-8")
    (runner.cwd / "ours.md").write_text(
        "# Table talk\n\nWe cut before we deal.\n", encoding="utf-8"
    )
    steps = [
        ("new", "friday.yaml", "--players", "Ann,Bob,Cy,Di", "--title", "Friday nights"),
        (
            "record",
            "friday.yaml",
            "--winner",
            "Ann",
            "--left",
            "Bob=7",
            "--left",
            "Cy=12",
            "--left",
            "Di=3",
        ),
        (
            "record",
            "friday.yaml",
            "--winner",
            "Cy",
            "--left",
            "Ann=4",
            "--left",
            "Bob=9",
            "--left",
            "Di=2",
        ),
        (
            "record",
            "friday.yaml",
            "--winner",
            "Di",
            "--left",
            "Ann=1",
            "--left",
            "Bob=5",
            "--left",
            "Cy=6",
        ),
        ("new", "season/saturday.yaml", "--players", "Ann,Bob", "--title", "Saturday"),
        ("record", "season/saturday.yaml", "--winner", "Bob", "--left", "Ann=8"),
    ]
    (runner.cwd / "season").mkdir()
    for step in steps:
        result = runner(*step)
        assert result.exit_code == 0, (step, result.output)
    shutil.copy(runner.cwd / "friday.yaml", runner.cwd / "season" / "friday.yaml")
    return runner


def _starts_a_series(block: Block) -> bool:
    return any(args[0] == "new" for args, _ in _commands(block))


# One case a command, so that the booklets spread over the workers; a block that starts
# a series of its own runs its earlier lines first, as a reader following it would.
CASES = [
    pytest.param(block, index, id=f"{_heading(block)}-{index + 1}")
    for block in COMMAND_BLOCKS
    for index in range(len(_commands(block)))
]


@pytest.mark.parametrize(("block", "index"), CASES)
def test_the_readme_commands_work(
    table: Any, rules_made_once: None, block: Block, index: int
) -> None:
    """Each command runs as written, makes what its comment says (``# -> PATH``) and what
    ``-o`` names, and a printing command sends a job."""
    commands = _commands(block)
    if _starts_a_series(block):
        for made in {args[args.index("new") + 1] for args, _ in commands if args[0] == "new"}:
            (table.cwd / made).unlink()  # the block starts that series itself
        for args, _ in commands[:index]:
            assert table(*args, input="y\n").exit_code == 0, args
    args, comment = commands[index]
    result = table(*args, input="y\n")
    shown = f"sheetgen {shlex.join(args)}"
    assert result.exit_code == 0, f"{shown}\n{result.output}"
    assert "Traceback" not in result.output, shown
    if arrow := re.match(r"-> (\S+)", comment):
        assert (table.cwd / arrow.group(1)).is_file(), f"{shown}: no {arrow.group(1)}"
    if "-o" in args:
        assert (table.cwd / args[args.index("-o") + 1]).exists(), shown
    if "--print" in args or "--printer" in args:
        jobs = table.jobs.read_text().splitlines()
        assert jobs, f"{shown} sent no job"
        wanted = args[args.index("--printer") + 1] if "--printer" in args else "home"
        assert all(job.startswith(f"-d {wanted} ") for job in jobs), jobs
    if args[0] == "printers":
        assert all(printer in result.output for printer in PRINTERS)


def test_the_readme_example_files_are_what_sheetgen_reads(
    table: Any, rules_made_once: None
) -> None:
    assert set(EXAMPLE_FILES) == {"pairs.yaml", "ours.toml"}
    result = table("standings", "pairs.yaml")
    assert result.exit_code == 0, result.output
    assert "Red" in result.output and "Blue" in result.output
    result = table("rules", "--house-rules", "ours.toml", "--format", "html", "-o", "ours.html")
    assert result.exit_code == 0, result.output
    page = (table.cwd / "ours.html").read_text(encoding="utf-8")
    assert "Table talk" in page and "We cut before we deal." in page


KEY_VALUES = {"game": "skip-bo", "target": 300, "stock": 20, "bonus": 20, "per_card": 10}


def test_the_other_series_keys_the_readme_names_are_read(table: Any) -> None:
    sentence = _section("Reference").split("Other keys:", 1)[1].split(". ", 1)[0]
    keys = re.findall(r"`([a-z_-]+)`", sentence)
    assert set(keys) == {*KEY_VALUES, "games_to_play"}, keys
    points = "".join(f"{key}: {KEY_VALUES[key]}\n" for key in keys if key in KEY_VALUES)
    head = "players: [Ann, Bob]\ngames:\n  - {winner: Ann, left: {Bob: 3}}\n"
    (table.cwd / "points.yaml").write_text(points + head, encoding="utf-8")
    (table.cwd / "cards.yaml").write_text(
        "scoring: cards-left\ngames_to_play: 4\n" + head, encoding="utf-8"
    )
    result = table("standings", "points.yaml")
    assert result.exit_code == 0, result.output
    assert "Ann" in result.output and "50" in result.output  # 20 + 10 a card, Bob's 3 left
    result = table("standings", "cards.yaml")
    assert result.exit_code == 0, result.output


def test_the_default_booklet_name_the_readme_gives(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rules ... writes NAME` in the README holds (the booklet itself is not what is tested)."""
    monkeypatch.setattr(build, "rules_document", lambda *a, **k: b"%PDF-1.7 stand-in")
    said = re.findall(r"`rules ([^`]+)` writes `([^`]+)`", " ".join(TEXT.split()))
    assert said
    for options, name in said:
        result = table("rules", *shlex.split(options))
        assert result.exit_code == 0, result.output
        assert (table.cwd / "output" / name).is_file(), (options, name)


# ---------------------------------------------------------------------------- pictures


def _picture_script() -> Any:
    spec = importlib.util.spec_from_file_location("make_pictures", PICTURES / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pictures_are_the_scripts_and_the_readme_shows_them() -> None:
    script = _picture_script()
    names = sorted([*(picture.name for picture in script.PICTURES), script.SCREENSHOT])
    assert sorted(path.name for path in PICTURES.glob("*.png")) == names
    shown = re.findall(r'<img src="([^"]+)"', TEXT)
    assert shown == [
        *(f"tests/readme/{picture.name}" for picture in script.PICTURES),
        f"tests/readme/{script.SCREENSHOT}",
    ]
    assert all(
        re.search(rf'src="tests/readme/{name}"[^>]* alt="[^"]{{20,}}"', TEXT) for name in names
    )


def test_the_picture_script_remakes_the_committed_pictures(
    tmp_path: Path, rules_made_once: None
) -> None:
    script = _picture_script()
    made = script.make_pictures(tmp_path, browser=False)
    assert [path.name for path in made] == [picture.name for picture in script.PICTURES]
    for path, picture in zip(made, script.PICTURES, strict=True):
        with Image.open(path) as new, Image.open(PICTURES / picture.name) as committed:
            assert new.format == committed.format == "PNG"
            assert new.size == committed.size, picture.name
            assert new.size[0] == picture.width
        assert path.stat().st_size < 60_000, f"{picture.name} is not small"


@pytest.mark.skipif(not Path("/usr/bin/chromium").is_file(), reason="Chromium is not installed")
def test_the_phone_screenshot_is_taken_by_the_test_runs_browser(tmp_path: Path) -> None:
    """The README's picture of the served page is the browser's, at a phone's width."""
    script = _picture_script()
    made = script.serve_screenshot(tmp_path / script.SCREENSHOT)
    with Image.open(made) as new, Image.open(PICTURES / script.SCREENSHOT) as committed:
        assert new.format == committed.format == "PNG"
        assert new.size == committed.size == (script.PHONE["width"], script.PHONE["height"])
