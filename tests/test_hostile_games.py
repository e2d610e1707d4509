"""Hostile game folders (``--rules-dir``): a game folder is anyone's download, so its
templates run in jinja2's sandbox with bounded work, its files stay inside it, and
every mistake in it is one ``Error:`` line naming the folder's file (and line).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hostile import PACKAGE_ROOT, assert_refused, run, snapshot, temporaries


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """A folder of games holding ``evil``, a copy of Skip-Bo to be spoilt."""
    root = tmp_path / "games"
    shutil.copytree(PACKAGE_ROOT / "rules" / "skip-bo", root / "evil")
    return root


def booklet_refused(games: Path, message: str, fmt: str = "html") -> None:
    """``sheetgen rules`` for the game ``evil`` stops with ``message`` and writes nothing.

    Every format renders the game's templates to HTML (render_html) before anything is
    laid out, so a refusal there is the same for each; the HTML page spares each case the
    second of loading weasyprint, and the PDF case of the first test proves that path.
    """
    before = snapshot(games)
    out = f"out.{fmt}"
    done = run(["--rules-dir", str(games), "rules", "--game", "evil", "-o", out], games.parent)
    assert_refused(done, message)
    assert snapshot(games) == before
    assert not (games.parent / out).exists()
    assert temporaries(games.parent) == []


BOX = "sections/01-box.md"


@pytest.mark.parametrize(
    ("template", "problem", "fmt"),
    [
        (
            "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
            "access to attribute '__init__' of 'type' object is unsafe.",
            "pdf",
        ),
        (
            "{{ ''.__class__.__mro__ }}",
            "access to attribute '__class__' of 'str' object is unsafe.",
            "html",
        ),
        (
            "{{ self._TemplateReference__context }}",
            "access to attribute '_TemplateReference__context' of 'TemplateReference' object"
            " is unsafe.",
            "html",
        ),
        (
            "{% for i in range(10**9) %}x{% endfor %}",
            "a call with the number 1000000000 (at most 100,000)",
            "html",
        ),
        (
            "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
            "the templates ask range() for more than 100,000 numbers in all",
            "html",
        ),
        ('{{ "x" * 10**9 }}', "a repetition longer than 1,000,000 characters or items", "html"),
        ("{{ 'x'.center(10**9) }}", "a call with the number 1000000000 (at most 100,000)", "html"),
        ("{{ 10**10**10 }}", "10000000000 ** 10 is too large a power", "html"),
        ("{{ config }}", "'config' is undefined", "html"),
    ],
    ids=[
        "popen-pdf",
        "mro",
        "context",
        "range",
        "nested-range",
        "repeat",
        "center",
        "power",
        "undefined",
    ],
)
def test_a_section_template_cannot_escape_or_run_away(
    games: Path, template: str, problem: str, fmt: str
) -> None:
    box = games / "evil" / BOX
    lines = box.read_text(encoding="utf-8").count("\n")
    with box.open("a", encoding="utf-8") as handle:
        handle.write(template + "\n")
    booklet_refused(games, f"{box}, line {lines + 1}: template error: {problem}", fmt)


def test_a_template_syntax_error_names_the_file_and_line(games: Path) -> None:
    box = games / "evil" / BOX
    lines = box.read_text(encoding="utf-8").count("\n")
    with box.open("a", encoding="utf-8") as handle:
        handle.write("{% if %}\n")
    booklet_refused(
        games,
        f"{box}, line {lines + 1}: template error: Expected an expression, got 'end of statement"
        " block'",
    )


def test_a_sentence_in_game_toml_runs_in_the_sandbox_too(games: Path) -> None:
    toml = games / "evil" / "game.toml"
    text = toml.read_text(encoding="utf-8")
    start = text.index("picture_caption = ")
    end = text.index("\n", start)
    evil = "picture_caption = \"{{ cycler.__init__.__globals__.os.popen('id').read() }}\""
    toml.write_text(text[:start] + evil + text[end:], encoding="utf-8")
    booklet_refused(
        games,
        f"{toml}, picture_caption, line 1: template error: access to attribute '__init__' of"
        " 'type' object is unsafe.",
    )


def test_a_game_toml_nested_100000_deep_is_refused_and_hides_no_other_game(games: Path) -> None:
    toml = games / "evil" / "game.toml"
    with toml.open("a", encoding="utf-8") as handle:
        handle.write("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    message = f"{toml}: cannot read the game definition (nested more than 32 levels deep)"
    booklet_refused(games, message)
    done = run(["--rules-dir", str(games), "games"], games.parent)
    assert "Traceback" not in done.err
    assert done.err == f"Error: {message}\n" and done.code == 1
    assert done.out.decode().startswith("skip-bo: Skip-Bo, 2 to 6 players")


def test_house_rules_nested_5000_deep_are_refused(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("players = 4\na = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    before = snapshot(tmp_path)
    done = run(["rules", "--house-rules", "deep.toml", "-o", "out.pdf"], tmp_path)
    assert_refused(done, "deep.toml: nested more than 32 levels deep")
    assert snapshot(tmp_path) == before


def test_a_section_that_links_outside_the_game_is_refused(games: Path) -> None:
    box = games / "evil" / BOX
    box.unlink()
    box.symlink_to("/etc/passwd")
    booklet_refused(
        games,
        f"{games / 'evil' / 'game.toml'}, sections 1: sections/01-box.md lies outside the"
        " game's folder (/etc/passwd); a game may use only its own files",
    )


UP = "../" * 30


def test_a_picture_outside_the_game_is_refused_naming_the_field(games: Path) -> None:
    toml = games / "evil" / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(
        text.replace('picture = "table.svg.j2"', f'picture = "{UP}etc/passwd"'),
        encoding="utf-8",
    )
    booklet_refused(
        games,
        f"{toml}, picture: {UP}etc/passwd lies outside the game's folder (/etc/passwd);"
        " a game may use only its own files",
    )


def test_an_include_through_a_link_outside_the_game_is_refused(games: Path) -> None:
    box = games / "evil" / BOX
    lines = box.read_text(encoding="utf-8").count("\n")
    (games / "evil" / "sections" / "pw.md").symlink_to("/etc/passwd")
    with box.open("a", encoding="utf-8") as handle:
        handle.write("{% include 'pw.md' %}\n")
    booklet_refused(
        games,
        f"{box}, line {lines + 1}: template error: pw.md lies outside the game's folder"
        " (/etc/passwd); a game may use only its own files",
    )


def test_a_preset_that_links_outside_the_game_is_refused(games: Path, tmp_path: Path) -> None:
    """The attacker linked presets/short.toml to a TOML file of the user's own, holding a
    secret in a comment, and --list-presets printed it."""
    secret = tmp_path / "secret.toml"
    secret.write_text('# SECRET api_key=hunter2\nstock = "short"\n', encoding="utf-8")
    preset = games / "evil" / "presets" / "short.toml"
    preset.unlink()
    preset.symlink_to(secret)
    message = (
        f"{preset}, preset: presets/short.toml lies outside the game's folder ({secret});"
        " a game may use only its own files"
    )
    for args in (["--list-presets"], ["--preset", "short", "-o", "out.pdf"]):
        done = run(["rules", "--rules-dir", str(games), "--game", "evil", *args], games.parent)
        assert_refused(done, message)
        assert b"hunter2" not in done.out and "hunter2" not in done.err
