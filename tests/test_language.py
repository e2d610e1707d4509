"""Documents in the table's language: complete catalogues, the system's language, and German
score sheets, filled sheets, race charts and Markdown exports read back from what they print."""

from __future__ import annotations

import io
import json
import re
import string
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from pagecheck import page_texts
from test_sheet_fit import (
    PAPERS,
    Words,
    assert_one_size_per_row,
    assert_readable,
    columns,
    sheet_pages,
)

from sheetgen.game.definition import game_ids, load_game
from sheetgen.game.language import (
    LOCALE_DIR,
    SOURCE,
    Language,
    catalogue_path,
    game_layer,
    glossary,
    language,
    languages,
    system_language,
)
from sheetgen.game.scoring import score_series
from sheetgen.game.wording import labels
from sheetgen.paper import paper
from sheetgen.series.export import export_season, export_series
from sheetgen.series.file import load_series
from sheetgen.sheet.blank import blank_sheet
from sheetgen.sheet.fill import fill_pdf, filled_pages, status_line

ROOT = Path(__file__).resolve().parent.parent
OTHERS = [code for code in languages() if code != SOURCE]
GERMAN = Language("de")
DE_WORDS = Words(
    points=labels(GERMAN).points,
    total=labels(GERMAN).total,
    footnote="Wertung:",
    key=(labels(GERMAN).won, labels(GERMAN).reached),
)
LONG_GERMAN_NAMES = [
    "Friedrich-Wilhelm von Hohenzollern-Sigmaringen",
    "Anneliese Schwarzenberger-Müllerhoff",
    "Karl-Theodor zu Guttenberg-Niederösterreich",
    "Brünhilde Wolkenkuckucksheimer",
    "Maximiliane Freifrau von Thurn-Taxis",
    "Hans-Jürgen Oberstaatsanwaltsgehilfe",
]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def english_messages() -> dict[str | tuple[str, str], set[str]]:
    """Every string the code and the shared templates mark for translation, with the files
    it is in."""
    found: dict[str | tuple[str, str], set[str]] = {}
    for filename, _, message, _, _ in extract_from_dir(
        str(ROOT / "sheetgen"), method_map=[("**.py", "python")]
    ):
        found.setdefault(message, set()).add(filename)
    for filename, _, message, _, _ in extract_from_dir(
        str(ROOT / "templates"),
        method_map=[("**.j2", "jinja2")],
        options_map={"**.j2": {"extensions": "jinja2.ext.i18n"}},
    ):
        found.setdefault(message, set()).add(filename)
    return found


# The machinery ------------------------------------------------------------------------


def test_german_is_offered() -> None:
    assert languages() == ("en", "de")


@pytest.mark.parametrize("code", OTHERS)
def test_a_catalogue_has_every_string_english_has_and_no_other(code: str) -> None:
    english = english_messages()
    assert len(english) > 40
    with catalogue_path(code).open("rb") as source:
        catalogue = read_po(source, locale=code)
    translated = {message.id: message.string for message in catalogue if message.id}
    missing = [message for message in english if message not in translated]
    assert not missing, f"{code} misses {missing}"
    stale = [message for message in translated if message not in english]
    assert not stale, f"{code} has strings the code no longer says: {stale}"
    for message, words in translated.items():
        forms = words if isinstance(words, tuple) else (words,)
        sources = message if isinstance(message, tuple) else (message,)
        assert all(form.strip() for form in forms), f"{code}: {message!r} is not translated"
        for form in forms:
            assert placeholders(form) == placeholders(sources[-1]), (message, form)


@pytest.mark.parametrize("code", OTHERS)
@pytest.mark.parametrize("game", game_ids())
def test_every_game_has_its_name_and_words_in_every_language(code: str, game: str) -> None:
    definition = load_game(game)
    layer = game_layer(definition, code) / "game.toml"
    assert layer.is_file(), f"{game} has no {code} words"
    words = GERMAN.words(definition) if code == "de" else Language(code).words(definition)
    for key in definition.words:
        assert words.words[key] != definition.words[key] or key == "wild", (game, key)
    assert words.name


def test_spite_and_malice_keeps_its_name_and_the_glossary_terms_for_skip_bo() -> None:
    terms = glossary("de")["terms"]
    # No German name is established for Spite and Malice: the German booklet keeps it.
    assert GERMAN.words(load_game("spite-and-malice")).name == "Spite and Malice"
    skip_bo = GERMAN.words(load_game("skip-bo")).words
    assert skip_bo["stock"] == terms["stock pile"]
    assert skip_bo["draw"] == terms["draw pile"]
    assert skip_bo["building"] == terms["building pile"]
    assert skip_bo["wild"] == terms["Skip-Bo card"]


def test_every_language_has_a_glossary() -> None:
    for code in OTHERS:
        data = glossary(code)
        assert data["terms"] and data["avoid"]["words"]
    # The source language's folder holds no catalogue, only its American spelling table.
    assert not catalogue_path(SOURCE).is_file()
    others = sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir() and p.name != SOURCE)
    assert others == sorted(OTHERS)


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
        ({"LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, "de"),
        ({"LANGUAGE": "fr:de:en", "LANG": "en_US.UTF-8"}, "de"),
        ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "de"),
        ({"LANGUAGE": "en", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "de"}, "de"),
        ({"LANG": "de_DE@euro"}, "de"),
    ],
)
def test_the_language_follows_the_system(environ: dict[str, str], code: str) -> None:
    assert system_language(environ).code == code


def test_an_unknown_language_is_refused() -> None:
    from sheetgen.errors import ChoiceError

    with pytest.raises(
        ChoiceError, match="'fr' is not a language sheetgen writes; choose en or de"
    ):
        language("fr")


def test_numbers_are_written_in_the_languages_style() -> None:
    assert GERMAN.number(12500) == "12.500"
    assert Language("en").number(12500) == "12500"


# German documents, read back ----------------------------------------------------------


def text_of(pdf: bytes) -> str:
    return "\n".join(page_texts(pdf))


def assert_german(text: str, names: tuple[str, ...] | list[str] = ()) -> None:
    """No English term of the glossary's list outside the players' own names."""
    for name in names:
        text = text.replace(name, "")
    flat = f" {' '.join(text.split())} "
    for words in glossary("de")["avoid"]["words"]:
        assert words not in flat, f"{words!r} in {flat}"


@pytest.mark.parametrize("name", PAPERS)
def test_a_german_sheet_with_six_long_german_names_fits(name: str) -> None:
    pdf = blank_sheet(paper=paper(name), names=LONG_GERMAN_NAMES, lang=GERMAN).pdf
    (page,) = sheet_pages(pdf, DE_WORDS)
    assert columns(page, DE_WORDS) == 6
    assert_readable(page, DE_WORDS)
    assert_one_size_per_row(page, DE_WORDS)
    text = page.extract_text() or ""
    for term in ("Punkte", "Summe", "Spiel", "Ziel: 500 Punkte", "Seriensieger:", "Datum", "Ort"):
        assert term in text
    assert "Spielerstapel" in " ".join(text.split())
    assert_german(text, LONG_GERMAN_NAMES)


@pytest.mark.parametrize("teams", [2, 3])
def test_german_blank_team_sheet(teams: int) -> None:
    pdf = blank_sheet(paper=paper("a4"), teams=teams, lang=GERMAN).pdf
    (page,) = sheet_pages(pdf, DE_WORDS)
    text = page.extract_text() or ""
    # Each team's column, lettered (the scoring foot may also speak of "das andere Team").
    assert re.findall(r"\bTeam ([A-Z])\b", text) == list("ABC"[:teams])
    assert_readable(page, DE_WORDS)
    assert_german(text)


@pytest.mark.parametrize("game", game_ids())
def test_every_games_german_sheet_uses_its_german_words(game: str) -> None:
    definition = load_game(game)
    pdf = blank_sheet(game=definition, paper=paper("a4"), lang=GERMAN).pdf
    text = " ".join(text_of(pdf).split())
    words = GERMAN.words(definition)
    assert f"{words.name} \N{EN DASH} Spielblock" in text
    assert words.stocks in text
    # Spite and Malice keeps its English name in German; nothing else may be English.
    assert_german(text, ("Spite and Malice",))
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        assert document.doc.catalog["Lang"] == b"de" or document.doc.catalog["Lang"] == "de"


def german_series(folder: Path, target: int = 500) -> Any:
    names = ["Ann", "Bob", "Cy"]
    games = [
        {"winner": "Ann", "left": {"Bob": 12, "Cy": 7}},
        {"winner": "Bob", "left": {"Ann": 3, "Cy": 20}},
        {"winner": "Cy", "left": {"Ann": 30, "Bob": 30}},
    ]
    path = folder / f"freitag-{target}.json"
    data = {"players": names, "target": target, "games": games}
    path.write_text(json.dumps(data), encoding="utf-8")
    return score_series(load_series(path))


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:[.,]\d+)*", text)


@pytest.mark.parametrize("name", PAPERS)
def test_a_german_filled_sheet_and_race_chart(tmp_path: Path, name: str) -> None:
    result = german_series(tmp_path)
    german = fill_pdf([result], paper(name), lang=GERMAN)
    english = fill_pdf([result], paper(name))
    (sheet,) = sheet_pages(german, DE_WORDS)
    assert_readable(sheet, DE_WORDS)
    text = " ".join(text_of(german).split())
    games = len(result.games)
    assert f"Seriensieger: noch offen; Cy führt nach dem {games}. Spiel." in text
    # (Open: its key has no heavy box to name yet, and its foot row is "Stand".)
    assert "Spiel gewonnen" in text and "Ziel erreicht" not in text and "Stand" in text
    assert (
        "Jedes Feld zeigt den laufenden Stand einer Person als schwarze Linie, die Stände der"
        " anderen hell; ein schwarzer Punkt markiert jedes Spiel, das diese Person gewann." in text
    )
    assert "Der Weg zu 500 Punkten" in text and "Ziel: 500" in text
    # An untitled series' chart is headed by the series' name; its subtitle names the race.
    with pdfplumber.open(io.BytesIO(german)) as document:
        chart = " ".join((document.pages[-1].extract_text() or "").split())
    assert chart.startswith("Skip-Bo-Serie") and chart.count("Der Weg zu 500 Punkten") == 1
    assert_german(text, ["Ann", "Bob", "Cy"])
    # The same figures as the English sheet: in its status line and in its cells.
    assert "Bis 500 fehlen: Cy 175, Bob 360, Ann 380" in text
    assert numbers(status_line(result, GERMAN)) == numbers(status_line(result))
    assert "Still needed to reach 500: Cy 175, Bob 360, Ann 380" in " ".join(
        text_of(english).split()
    )
    cells = [values for _, values in filled_pages(result, paper(name), lang=GERMAN)]
    assert cells == [values for _, values in filled_pages(result, paper(name))]


def test_german_sheets_group_thousands(tmp_path: Path) -> None:
    result = german_series(tmp_path, target=2000)
    text = " ".join(text_of(fill_pdf([result], paper("a4"), lang=GERMAN)).split())
    assert "Ziel: 2.000 Punkte. Wer zuerst 2.000 erreicht, gewinnt die Serie." in text
    english = " ".join(text_of(fill_pdf([result], paper("a4"))).split())
    assert "Target: 2000 points." in english


def test_a_german_markdown_export(tmp_path: Path) -> None:
    result = german_series(tmp_path)
    text = export_series(result, "md", GERMAN)
    assert text.startswith("# Skip-Bo-Serie\n")
    assert "## Tabelle" in text and "## Spiele" in text
    assert "| Spiel | Sieger | Ann | Bob | Cy | Punkte | Summe Ann | Summe Bob | Summe Cy |" in text
    assert (
        "Wer zuerst 500 Punkte erreicht, gewinnt die Serie. Bisher wurden 3 Spiele gespielt."
        in text
    )
    assert "Wer zuerst 500 erreicht;" not in text
    assert_german(text, ["Ann", "Bob", "Cy"])
    english = export_series(result, "md")
    assert numbers(text) == numbers(english)


def test_a_german_season_in_markdown(tmp_path: Path) -> None:
    named = [
        (tmp_path / f"freitag-{target}.json", german_series(tmp_path, target))
        for target in (500, 2000)
    ]
    text = export_season(named, "md", GERMAN)
    assert text.startswith("# Saison\n")
    assert "| Spieler | Serien | Serien gewonnen | Spiele | Siege | Punkte |" in text
    assert "Wer zuerst 2.000 Punkte erreicht, gewinnt die Serie." in text
    assert "Partei" not in text
    assert_german(text, ["Ann", "Bob", "Cy"])


# On the command line ------------------------------------------------------------------


def test_lang_de_from_the_system_writes_a_german_sheet_on_a4(runner: Any, tmp_path: Path) -> None:
    env = {"LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    env |= {"LC_PAPER": "", "PAPERSIZE": "", "PAPERCONF": str(tmp_path / "none")}
    result = runner("sheet", env=env)
    assert result.exit_code == 0, result.output
    pdf = (tmp_path / "output" / "score-sheet.pdf").read_bytes()
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        page = document.pages[0]
        assert (round(page.width), round(page.height)) == (842, 595)
    assert "Skip-Bo \N{EN DASH} Spielblock" in text_of(pdf)


@pytest.mark.parametrize("command", [["sheet"], ["export", "s.json", "--format", "md"]])
def test_lang_option_picks_the_language_over_the_system(
    runner: Any, tmp_path: Path, command: list[str]
) -> None:
    german_series(tmp_path)  # writes freitag-500.json
    (tmp_path / "s.json").write_text(
        (tmp_path / "freitag-500.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    env = {"LANG": "de_DE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    english = runner(*command, "--lang", "en", "-o", "en.out", env=env)
    german = runner(*command, "--lang", "de", "-o", "de.out", env={"LANG": "C"})
    assert english.exit_code == 0 and german.exit_code == 0, english.output + german.output
    if command == ["sheet"]:
        assert "Spielblock" not in text_of((tmp_path / "en.out").read_bytes())
        assert "Spielblock" in text_of((tmp_path / "de.out").read_bytes())
    else:
        assert "## Standings" in (tmp_path / "en.out").read_text(encoding="utf-8")
        assert "## Tabelle" in (tmp_path / "de.out").read_text(encoding="utf-8")


def test_fill_lang_de(runner: Any, tmp_path: Path) -> None:
    german_series(tmp_path)
    result = runner("fill", "freitag-500.json", "--lang", "de", "-o", "f.pdf")
    assert result.exit_code == 0, result.output
    assert "Seriensieger:" in text_of((tmp_path / "f.pdf").read_bytes())


@pytest.mark.parametrize(
    ("lang", "options", "said"),
    [
        ("en", {"players": 6, "stock": "short"}, "holds 10 cards instead of 20"),
        ("en", {"players": 2, "stock": 5}, "holds 5 cards instead of 30"),
        ("de", {"players": 6, "stock": "short"}, "besteht aus 10 Karten statt aus 20"),
        ("de", {"players": 6, "stock": 1}, "besteht aus 1 Karte statt aus 20"),
    ],
)
def test_two_numbers_compared_are_written_alike(
    lang: str, options: dict[str, Any], said: str
) -> None:
    """Print review 5: "ten cards instead of 20" mixed words and figures. A count beside a
    number set in figures is set in figures too (the official stock piles, 20 and 30, always
    are); two small ones stay words."""
    from sheetgen.booklet.build import render_html
    from sheetgen.game.houserules import resolve

    html = render_html(resolve(options=options), paper=paper("a4"), lang=language(lang))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("\N{SOFT HYPHEN}", "")
    assert said in text.replace("\N{NO-BREAK SPACE}", " ")
    counting = language(lang).counting
    assert counting.spell(12, beside=30) == "12" and counting.spell(3, beside=4) != "3"


@pytest.mark.parametrize("sides", [2, 3])
@pytest.mark.parametrize("code", ["en", "de"])
def test_a_partnership_sheet_says_the_team_wins_a_game(code: str, sides: int) -> None:
    """Print review 10: the heavy set's sheet read "a game's winner gets 25 … the other
    teams' stock piles", a player in one half of the sentence and teams in the other."""
    from sheetgen.game.definition import load_game
    from sheetgen.game.language import language
    from sheetgen.game.scoringrules import ScoringRules
    from sheetgen.game.wording import reminder

    rules = ScoringRules.from_mapping({}, load_game().scoring)
    said = reminder(rules, True, "stock piles", language(code), sides=sides, pile="stock pile")
    assert said.startswith(
        "Scoring: the team that wins a game gets 25" if code == "en" else "Wertung: Das Team"
    ), said
    alone = reminder(rules, False, "stock piles", language(code), sides=sides, pile="stock pile")
    assert "team" not in alone.lower()
