"""Booklets in other languages: the layout of a game's language folder, its completeness,
the counting filters of each language and the short strings of the shared templates."""

from __future__ import annotations

import shutil
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from sheetgen.booklet.templating import make_environment, render_string
from sheetgen.errors import GameDefinitionError
from sheetgen.game.definition import game_ids, load_game, use_rules_dirs
from sheetgen.game.language import (
    SOURCE,
    Language,
    booklet_language,
    catalogue_path,
    game_layer,
    languages,
    layer_problems,
)

ROOT = Path(__file__).resolve().parent.parent
POCKET = ROOT / "tests" / "games" / "pocket-bo"
OTHERS = [code for code in languages() if code != SOURCE]
GERMAN = Language("de")


def written_in() -> list[tuple[str, str]]:
    """Every (game, language) whose booklet a language folder offers."""
    return [
        (game, code)
        for game in game_ids()
        for code in OTHERS
        if (game_layer(load_game(game), code) / "sections").is_dir()
    ]


# The counting filters ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "english", "german"),
    [
        (
            "{{ 0 | spell }} {{ 1 | spell }} {{ 12 | spell }} {{ 13 | spell }}",
            "zero one twelve 13",
            "null eins zwölf 13",
        ),
        (
            "{{ 1 | cards }}, {{ 10 | cards }}, {{ 30 | cards }}",
            "one card, ten cards, 30 cards",
            "eine Karte, zehn Karten, 30 Karten",
        ),
        ("{{ 1 | count(noun, nouns) }}", "one game", "ein Spiel"),
        ("{{ 2 | count(noun, nouns) }}", "two games", "zwei Spiele"),
        ("{{ 12 | count(noun, nouns) }}", "twelve games", "zwölf Spiele"),
        ("{{ 20 | count(noun, nouns) }}", "20 games", "20 Spiele"),
        (
            "{{ 1 | count(point, points) }} {{ 5 | count(point, points) }}",
            "1 point 5 points",
            "1 Punkt 5 Punkte",
        ),
        (
            "{{ 'fit to page' | quoted }}",
            "\N{LEFT DOUBLE QUOTATION MARK}fit to page\N{RIGHT DOUBLE QUOTATION MARK}",
            "\N{DOUBLE LOW-9 QUOTATION MARK}fit to page\N{LEFT DOUBLE QUOTATION MARK}",
        ),
    ],
)
def test_the_counting_filters_speak_the_booklets_language(
    tmp_path: Path, source: str, english: str, german: str
) -> None:
    words = {
        "en": {"noun": "game", "nouns": "games", "point": "point", "points": "points"},
        "de": {"noun": "Spiel", "nouns": "Spiele", "point": "Punkt", "points": "Punkte"},
    }
    for code, expected in (("en", english), ("de", german)):
        env = make_environment([tmp_path], lang=Language(code))
        assert render_string(env, source, words[code]) == expected


def test_a_german_feminine_count_names_its_one(tmp_path: Path) -> None:
    env = make_environment([tmp_path], lang=GERMAN)
    text = "{{ 1 | count('Runde', 'Runden', one='eine') }}/{{ 3 | count('Runde', 'Runden') }}"
    assert render_string(env, text, {}) == "eine Runde/drei Runden"
    # English keeps its own plurals when none is given.
    env = make_environment([tmp_path])
    assert render_string(env, "{{ 3 | count('team') }} {{ 1 | count('team') }}", {}) == (
        "three teams one team"
    )


# The shared templates' short strings -------------------------------------------------


def template_messages() -> dict[str, set[str]]:
    """Every string the shared templates mark with _()."""
    found: dict[str, set[str]] = {}
    for filename, _, message, _, _ in extract_from_dir(
        str(ROOT / "templates"),
        method_map=[("**.j2", "jinja2")],
        options_map={"**.j2": {"extensions": "jinja2.ext.i18n"}},
    ):
        assert isinstance(message, str)
        found.setdefault(message, set()).add(filename)
    return found


def percent_names(text: str) -> set[str]:
    import re

    return set(re.findall(r"%\((\w+)\)s", text))


@pytest.mark.parametrize("code", OTHERS)
def test_every_template_string_is_translated(code: str) -> None:
    english = template_messages()
    assert {"Contents", "This table’s choices", "Score sheet"} <= set(english)
    with catalogue_path(code).open("rb") as source:
        catalogue = read_po(source, locale=code)
    translated = {message.id: message.string for message in catalogue if message.id}
    missing = [message for message in english if message not in translated]
    assert not missing, f"{code} misses {missing}"
    for message in english:
        words = translated[message]
        assert isinstance(words, str) and words.strip()
        assert percent_names(words) == percent_names(message), message
        formatter = string.Formatter()
        assert {n for _, n, _, _ in formatter.parse(words) if n} == {
            n for _, n, _, _ in formatter.parse(message) if n
        }


def test_a_german_template_string_is_used(tmp_path: Path) -> None:
    env = make_environment([tmp_path], lang=GERMAN)
    assert render_string(env, "{{ _('Contents') }}", {}) == "Inhalt"
    assert render_string(env, "{{ _('Contents') }}", {}) != render_string(
        make_environment([tmp_path]), "{{ _('Contents') }}", {}
    )


# A game's language folder -------------------------------------------------------------


def test_every_language_folder_has_everything_english_has() -> None:
    """Checks each game's folder the moment it gains a sections/ folder in a language."""
    problems = {(game, code): layer_problems(load_game(game), code) for game, code in written_in()}
    assert all(not found for found in problems.values()), problems


def pocket_in_german(folder: Path) -> Path:
    """Pocket Bo copied under ``folder`` with a complete German folder."""
    game = folder / "pocket-bo"
    shutil.copytree(POCKET, game)
    de = game / "de"
    (de / "sections").mkdir(parents=True)
    (de / "game.toml").write_text(
        """name = "Taschen-Bo"
[words]
stock = "Taschenstapel"
stocks = "Taschenstapel"
building = "Reihe"
draw = "Nachziehstapel"
[decks.pocket]
label = "das Taschenspiel mit 60 Karten"
[house_rules]
discard-piles = "Jeder hat {{ rules.discard_piles | spell }} Ablagen statt {{ official.discard_piles | spell }}."
games-to-play = "Eine Serie hat {{ rules.games_to_play | count('Spiel', 'Spiele') }}."
""",
        encoding="utf-8",
    )
    (de / "sections" / "01-setup.md").write_text(
        "# Vorbereitung\n\nJeder bekommt {{ deal.stock | cards }} als {{ words.stock }} "
        "und {{ game.hand | count('Handkarte', 'Handkarten', one='eine') }}.\n",
        encoding="utf-8",
    )
    (de / "sections" / "02-turn.md").write_text("# Ein Zug\n\nSpielen.\n", encoding="utf-8")
    (de / "sections" / "03-series.md").write_text(
        "# Wertung\n\nEine Serie dauert {{ scoring.games_to_play | count('Spiel', 'Spiele') }}; "
        "danach gewinnt die niedrigste Summe.\n",
        encoding="utf-8",
    )
    return game


@pytest.fixture
def german_pocket(tmp_path: Path) -> Any:
    game = pocket_in_german(tmp_path / "games")
    use_rules_dirs([tmp_path / "games"])
    yield game
    use_rules_dirs([])


def test_a_complete_language_folder_renders_a_booklet_in_it(german_pocket: Path) -> None:
    from sheetgen.booklet.build import render_html
    from sheetgen.game.houserules import resolve
    from sheetgen.paper import paper

    game = load_game("pocket-bo")
    assert layer_problems(game, "de") == []
    assert booklet_language(game, "de") == GERMAN
    rules = resolve(game="pocket-bo", options={"discard-piles": 3})
    html = render_html(rules, paper=paper("a4"), lang=GERMAN)
    assert '<html lang="de">' in html
    assert "hyphens: auto" in html
    assert "Jeder bekommt zwölf Karten als Taschenstapel und vier Handkarten." in html
    assert "Jeder hat drei Ablagen statt zwei." in html
    assert "Eine Serie dauert fünf Spiele; danach" in html
    assert "Was dieser Tisch gewählt hat" in html and "Inhalt" in html
    assert "Taschen-Bo \N{EN DASH} Spielregeln" in html
    english = render_html(rules, paper=paper("a4"))
    assert '<html lang="en">' in english and "hyphens: auto" not in english
    assert "Getting ready" in english and "Vorbereitung" not in english


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda de: (de / "sections" / "02-turn.md").unlink(), "sections/02-turn.md: missing"),
        (
            lambda de: (de / "sections" / "09-more.md").write_text("# x\n", encoding="utf-8"),
            "sections/09-more.md: English has no such section",
        ),
        (
            lambda de: edit(de, 'games-to-play = "Eine Serie', 'gamestoplay = "Eine Serie'),
            "game.toml: house_rules.games-to-play: missing (a text)",
        ),
        (
            lambda de: edit(de, 'draw = "Nachziehstapel"\n', ""),
            "game.toml: words.draw: missing (a text)",
        ),
        (
            lambda de: edit(de, 'label = "das', 'labels = "das'),
            "game.toml: decks.pocket.label: missing (a text)",
        ),
        (
            lambda de: edit(de, 'name = "Taschen-Bo"\n', 'name = "Taschen-Bo"\nhand = 7\n'),
            "game.toml: hand: not a prose key (facts come from the English game.toml)",
        ),
    ],
)
def test_an_incomplete_language_folder_is_named_and_its_booklet_refused(
    tmp_path: Path, runner: Any, change: Any, problem: str
) -> None:
    game = pocket_in_german(tmp_path / "games")
    change(game / "de")
    use_rules_dirs([tmp_path / "games"])
    try:
        problems = layer_problems(load_game("pocket-bo"), "de")
    finally:
        use_rules_dirs([])
    assert problems and problems[0].endswith(problem), problems
    assert problems[0].startswith(str(game / "de"))
    result = runner(
        "rules",
        "--rules-dir",
        str(tmp_path / "games"),
        "--game",
        "pocket-bo",
        "--lang",
        "de",
        "-o",
        "r.pdf",
    )
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: the Pocket Bo booklet in 'de' is incomplete: {game / 'de'}"
    ), result.output
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    assert result.output.endswith(f"{problem}{more}\n"), result.output
    assert not (tmp_path / "r.pdf").exists()


def edit(de: Path, old: str, new: str) -> None:
    path = de / "game.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_booklet_without_a_language_folder_is_refused_by_name(
    runner: Any, tmp_path: Path
) -> None:
    result = runner(
        "rules",
        "--rules-dir",
        str(POCKET.parent),
        "--game",
        "pocket-bo",
        "--lang",
        "de",
        "-o",
        "r.pdf",
    )
    assert result.exit_code == 1
    assert result.output == (
        "Error: lang: the Pocket Bo booklet is not written in 'de' yet; "
        "choose en (score sheets and exports come in 'de')\n"
    )
    assert not (tmp_path / "r.pdf").exists()


def test_the_systems_language_falls_back_to_english_for_such_a_booklet() -> None:
    use_rules_dirs([POCKET.parent])
    try:
        assert booklet_language(load_game("pocket-bo"), None, {"LANG": "de_DE.UTF-8"}).code == "en"
    finally:
        use_rules_dirs([])


def test_a_broken_language_toml_is_refused_naming_the_file(tmp_path: Path) -> None:
    game = pocket_in_german(tmp_path / "games")
    (game / "de" / "game.toml").write_text("name = [", encoding="utf-8")
    use_rules_dirs([tmp_path / "games"])
    try:
        with pytest.raises(GameDefinitionError, match=r"de/game\.toml: cannot read it"):
            layer_problems(load_game("pocket-bo"), "de")
    finally:
        use_rules_dirs([])
