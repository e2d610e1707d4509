"""The Skip-Bo board game's booklet in German, read back as a German table would read it.

The board game's pile words are the glossary's (sheetgen/locale/de/glossary.toml), as every
German booklet's are: a Spielerstapel, six shared Ablagestapel, the Kartenstock, one shared
Abwurfstapel (not the glossary's Hilfsstapel, a player's own) and the SKIP-BO-Karte; its pictures take them from the same [words]. Most checks
read the booklet's HTML (quick); two PDFs (Letter and A4, flat and folded, the official
rules and changed ones) are read back for the text a reader meets, the PDF's language and
the page flow.
"""

from __future__ import annotations

import io
import re
import tomllib
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import Once
from pagecheck import (
    Page,
    body_size,
    broken_ends,
    contents_rows,
    early_hyphens,
    leader_problems,
    lone_first_words,
    pages_with,
    problems,
    read_pages,
    stranded_short_words,
)
from pypdf import PdfReader
from test_rules_text import body_text

from sheetgen.booklet.build import render_html
from sheetgen.booklet.context import build_context
from sheetgen.booklet.pdf import SECTION_END
from sheetgen.cli import cli
from sheetgen.game.houserules import resolve
from sheetgen.game.language import Language, glossary
from sheetgen.paper import A4, LETTER, Paper
from sheetgen.resources import rules_dir

GERMAN = Language("de")
GAME = "skip-bo-board"
LAYER = rules_dir() / GAME / "de" / "game.toml"

EXTRA = """# Nach dem Spiel

Wer gewonnen hat, mischt für das nächste Spiel; wer verloren hat, räumt den Plan ab.

## Knabbereien

Keine Chips in der Nähe der Karten: fettige Karten kleben aneinander.
"""

# The board game's toggles as the English booklet tests use them (test_rules_text.py,
# test_booklet_pages.py).
TOGGLES: dict[str, dict[str, Any]] = {
    "official": {},
    "two-players": {"players": 2},
    "three-players": {"players": 3},
    "one-card": {"stock": 1},
    "largest-stock": {"players": 2, "stock": 45},
    "short-stock": {"players": 4, "stock": "8"},
    "extra": {"extra": "EXTRA"},
    "short-stock-extra": {"players": 4, "stock": "8", "extra": "EXTRA"},
}

# Two PDFs (a PDF costs seconds): both papers, both layouts, the official rules and the
# toggles changed.
PRINTED = [
    ("official", A4, "pages"),
    ("short-stock-extra", LETTER, "booklet"),
    ("official", A4, "booklet"),
]

SPELLED = {
    "en": [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
    ],
    "de": [
        "null",
        "eins",
        "zwei",
        "drei",
        "vier",
        "fünf",
        "sechs",
        "sieben",
        "acht",
        "neun",
        "zehn",
        "elf",
        "zwölf",
    ],
}

# The board rulebook's words in English translation, and German pile words the glossary
# does not use (the board booklet's old ones among them): none belongs in this booklet.
FOREIGN = [
    "played deck",
    "auxiliary",
    "counter",
    "draw pile",
    "board",
    "space",
    "Skip-Bo card",
    "Nachziehstapel",
    "Spielstapel",
    "Ablegestapel",
    "Joker",
    "Partei",
]


@pytest.fixture(scope="session")
def extra_file(once: Once) -> Path:
    """The table's own chapter, at one path for every worker (it is part of the key)."""
    return once(
        ("test_language_board_de", "extra"), lambda out: out.write_text(EXTRA, "utf-8"), ".md"
    )


def rules_for(name: str, extra_file: Path) -> Any:
    options = {
        key: extra_file if value == "EXTRA" else value for key, value in TOGGLES[name].items()
    }
    return resolve(game=GAME, options=options)


def html_text(name: str, extra_file: Path, lang: Language | None = None) -> str:
    rules = rules_for(name, extra_file)
    html = render_html(rules, paper=A4, lang=lang) if lang else render_html(rules, paper=A4)
    return read(html)


def read(html: str) -> str:
    """The words of a booklet's HTML as a reader meets them (soft hyphens are only places
    where a word may break)."""
    return body_text(html).replace("\N{SOFT HYPHEN}", "")


@pytest.fixture(scope="session")
def printed(
    rendered: Callable[..., Path], once: Once, extra_file: Path
) -> Callable[[str, Paper, str], tuple[bytes, list[Page]]]:
    """A German PDF and its pages read back, made once a run whichever test asks first."""

    def get(name: str, paper: Paper, layout: str) -> tuple[bytes, list[Page]]:
        args = ["rules", "--game", GAME, "--lang", "de", "--paper", paper.name, "--layout", layout]
        for key, value in TOGGLES[name].items():
            args += [f"--{key}", str(extra_file if value == "EXTRA" else value)]
        pdf = rendered(*args).read_bytes()
        pages = once.value(
            ("test_language_board_de", *args), lambda: read_pages(pdf, folded=layout == "booklet")
        )
        return pdf, pages

    return get


def layer() -> dict[str, Any]:
    with LAYER.open("rb") as source:
        return tomllib.load(source)


def numbers(text: str, code: str) -> set[int]:
    """The numbers a text names: its figures, and two to twelve spelled out (one is also an
    article in both languages, so it is read from figures only)."""
    found = {int(figure) for figure in re.findall(r"(?<![\w-])\d+(?!\w)", text)}
    for value, word in enumerate(SPELLED[code]):
        if value >= 2 and re.search(rf"\b{word}\b", text, flags=re.IGNORECASE):
            found.add(value)
    return found


# The words ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", TOGGLES)
def test_the_rulebooks_german_terms_are_used_under_every_toggle(
    name: str, extra_file: Path
) -> None:
    text = html_text(name, extra_file, GERMAN)
    words = layer()["words"]
    terms = glossary("de")["terms"]
    for key, english in (
        ("stock", "stock pile"),
        ("building", "building pile"),
        ("draw", "draw pile"),
        ("wild", "Skip-Bo card"),
    ):
        assert words[key] == terms[english], key
        assert words[key] in text, key
    # The one pile everyone shares is the Abwurfstapel, never a Hilfsstapel (review 21).
    assert words["auxiliary"] == "Abwurfstapel" and "Hilfsstapel" not in text
    for term in ("Abwurfstapel", "Spielfigur", "Sonderfeld", "Spielplan", "Handkarten"):
        assert term in text, term
    assert "Skip-Bo-Brettspiel" in text and "Board Game" not in text


@pytest.mark.parametrize("name", TOGGLES)
def test_no_english_and_no_card_game_terms_under_any_toggle(name: str, extra_file: Path) -> None:
    html = render_html(rules_for(name, extra_file), paper=A4, lang=GERMAN)
    # The running text and every word the picture draws (its labels and its title).
    svg = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    assert svg is not None
    drawn = " ".join(
        words for _, words in re.findall(r"<(text|title)\b[^>]*>(.*?)</\1>", svg.group(0), re.S)
    )
    text = f" {html_text(name, extra_file, GERMAN)} {drawn} "
    for words in [*glossary("de")["avoid"]["words"], *FOREIGN]:
        assert words.lower() not in text.lower(), words
    assert '"' not in text


@pytest.mark.parametrize("name", TOGGLES)
def test_the_same_numbers_as_the_english_booklet(name: str, extra_file: Path) -> None:
    english = html_text(name, extra_file)
    german = html_text(name, extra_file, GERMAN)
    assert numbers(german, "de") == numbers(english, "en")
    left = build_context(rules_for(name, extra_file))["deal"]["draw_pile"]
    said = SPELLED["de"][left] if left <= 12 else str(left)
    assert f"umfasst zu Beginn {said} Karten" in " ".join(german.split())


@pytest.mark.parametrize(
    ("name", "sentences"),
    [
        (
            "official",
            [
                "Keine eigenen Hausregeln: An diesem Tisch gelten die offiziellen Regeln.",
                "zehn Karten",
            ],
        ),
        ("one-card", ["Jeder Spielerstapel umfasst eine Karte statt zehn.", "98 Karten"]),
        ("largest-stock", ["Jeder Spielerstapel umfasst 45 Karten statt 10.", "zwölf Karten"]),
        ("short-stock", ["Jeder Spielerstapel umfasst acht Karten statt zehn.", "70 Karten"]),
        ("extra", ["An diesem Tisch gelten eigene Regeln: siehe „Nach dem Spiel“."]),
    ],
)
def test_the_counts_read_as_german(name: str, sentences: list[str], extra_file: Path) -> None:
    text = html_text(name, extra_file, GERMAN)
    for sentence in sentences:
        assert sentence in text
    assert not re.search(r"\b1 Karten?\b|\beine Karten\b|\bein Karte\b", text)


def test_one_opponent_or_several() -> None:
    two = read(render_html(resolve(game=GAME, options={"players": 2}), paper=A4, lang=GERMAN))
    three = read(render_html(resolve(game=GAME, options={"players": 3}), paper=A4, lang=GERMAN))
    assert "wie viele Karten dein Gegner noch übrig hat" in two
    assert "deine Gegner" not in two
    assert "wie viele Karten deine Gegner noch übrig haben" in three
    assert "vor sich" not in two + three


def test_the_picture_is_labelled_in_german(extra_file: Path) -> None:
    rules = rules_for("official", extra_file)
    html = render_html(rules, paper=A4, lang=GERMAN).replace("\N{SOFT HYPHEN}", "")
    svg = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    assert svg is not None
    labels = layer()["picture_labels"]
    drawn = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", svg.group(0)))
    for key in ("corner", "travel", "note_2", "checked"):
        assert labels[key] in drawn, key
    # The pile words come from [words]: the same as the running text's (broken where the
    # language breaks them, "Ablage-/stapel", in a square or pile too narrow for them).
    words = layer()["words"]
    for key in ("draw", "building", "auxiliary"):
        assert f" {words[key]} " in drawn.replace("- ", ""), key
    assert "Nachziehstapel" not in drawn and "Ablegestapel" not in drawn
    for english in ("corner", "discard", "auxiliary", "direction of travel", "white area"):
        assert english not in drawn


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_pictures_words_are_never_pressed_narrower(lang: str) -> None:
    """Print review 10, finding 4: "Kartenstock" in its square and "Ablagestapel" in each
    pile were pressed to 83 % of their width at 13 units (7.2 pt). A word too long for its
    square is broken where the language breaks it, at the square's own size. Each pile's
    colour is set in one weight (review 11: bold, or regular where the word was long), and
    a corner square names its colour without "Eckfeld" ("blau Eckfeld" is no German)."""
    html = render_html(resolve(game=GAME, options={}), paper=A4, lang=Language(lang))
    svg = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    assert svg is not None
    assert "textLength" not in svg.group(0) and "lengthAdjust" not in svg.group(0)
    if lang == "de":
        drawn = re.findall(r"<text\b[^>]*>([^<]*)</text>", svg.group(0))
        # The square is the "Kartenstock-Feld" (as the text names it), broken at its own
        # hyphen and at its compound's joint (print review 11).
        assert drawn.count("Karten-") == 2 and drawn.count("stock-") == 2
        assert drawn.count("Feld") == 2
        assert drawn.count("Ablage-") == 6 and drawn.count("stapel") == 6
        # The white area's heading has room for the whole word.
        assert "Kartenstock" in drawn
        assert "Eckfeld" not in drawn
    piles = re.findall(r'<text class="(\w+)"[^>]*y="[^"]*"[^>]*>([^<]*)</text>', svg.group(0))
    assert len({cls for cls, word in piles if word in ("orange", "getupft", "dotted")}) == 1


# The printed booklet ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "paper", "layout"), PRINTED, ids=lambda v: getattr(v, "name", v))
def test_the_printed_booklet_is_german_and_flows(
    printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]],
    name: str,
    paper: Paper,
    layout: str,
) -> None:
    pdf, pages = printed(name, paper, layout)
    folded = layout == "booklet"
    assert problems(pages, folded=folded) == []
    assert early_hyphens(pages) == []  # print review: "Schachtel. Sie ent-" on a line alone
    assert lone_first_words(pages) == []  # print review: "• Nichts" alone
    assert broken_ends(pages, folded=folded) == []  # print review: "Spiel-" / "plan.", "9–" / "12."
    text = " ".join(" ".join(page.text for page in pages).split())
    for words in [*glossary("de")["avoid"]["words"], *FOREIGN]:
        assert words.lower() not in f" {text.lower()} ", words
    for term in layer()["words"].values():
        assert term in text
    if not folded:  # the folded imposition carries no /Lang in any language yet
        assert PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/Lang"] == "de"


@pytest.mark.parametrize(("name", "paper", "layout"), PRINTED, ids=lambda v: getattr(v, "name", v))
def test_the_contents_name_pages_that_carry_their_heading(
    printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]],
    name: str,
    paper: Paper,
    layout: str,
) -> None:
    _, pages = printed(name, paper, layout)
    entries = []
    # On the cover, or whole on the page after it when the house rules leave the cover no
    # room (as pagecheck.contents reads them; the first and last titles below are checked).
    for page in pages[:2]:
        for line in page.lines:
            found = re.match(r"^(.+?)\s*(?:\.\s?){2,}\s*(\d+|Rückseite)$", line.text.strip())
            if found:
                entries.append((found.group(1).strip(" ."), found.group(2)))
        if entries:
            break
    titles = [title for title, _ in entries]
    assert titles[0] == "Spielmaterial und Ziel" and titles[-1] == "Kurzübersicht"
    assert ("Nach dem Spiel" in titles) == ("extra" in name)
    for title, where in entries:
        if where == "Rückseite":
            assert layout == "booklet"
            assert title in pages[-1].text
        else:
            page = pages[int(where) - 1]
            assert title in " ".join(page.text.split()), (title, where)


# The German rules editor's findings ---------------------------------------------------


def test_the_unnamed_colours_are_patterns_not_points(extra_file: Path) -> None:
    """Finding 5: "Punkte" reads as score points in a Skip-Bo booklet. The rulebook names
    only blue, orange and pink: the other colours are drawn as three patterns."""
    html = render_html(rules_for("official", extra_file), paper=A4, lang=GERMAN)
    svg = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    assert svg is not None
    drawn = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", svg.group(0)))
    assert drawn.count("gestreift") >= 2 and drawn.count("getupft") >= 2
    assert drawn.count("kariert") >= 2
    assert "Muster stehen für Farben, die die Anleitung nicht nennt." in drawn
    for wrong in ("Punkte", "Linien", "Streifen"):
        assert wrong not in drawn, wrong


def test_the_auxiliary_piles_label_says_how_far_a_counter_moves(extra_file: Path) -> None:
    """Finding 25: "ihr Wert ist die Weite" said as a German would."""
    html = render_html(rules_for("official", extra_file), paper=A4, lang=GERMAN)
    svg = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    assert svg is not None
    drawn = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", svg.group(0)))
    assert "ihr Wert bestimmt, wie weit eine Figur zieht" in drawn
    assert "Weite" not in drawn and "Zugweite" not in drawn


@pytest.mark.parametrize("name", ["official", "two-players", "extra"])
def test_the_turn_reads_as_german(name: str, extra_file: Path) -> None:
    """Findings 11, 12 and 26: the cross-reference in quotation marks, steps that alternate
    (not "mischen", which at a card table means shuffling), the quick reference's verb."""
    text = " ".join(html_text(name, extra_file, GERMAN).split())
    assert "vor; siehe „Die Spielfiguren bewegen“." in text
    assert "die Schritte 2 und 3 beliebig abwechseln und" in text
    assert "Schritte 2 und 3 mischen" not in text
    assert "die Karten unter der obersten des Abwurfstapels;" in text
    assert "siehe Die" not in text


def test_the_title_compound_is_hyphenated(extra_file: Path, rendered: Callable[..., Path]) -> None:
    """Finding 13: "Skip-Bo-Brettspiel" (Durchkopplung) in the booklet and on the sheet."""
    text = " ".join(html_text("official", extra_file, GERMAN).split())
    assert "Das Skip-Bo-Brettspiel übernimmt" in text
    assert "Skip-Bo Brettspiel" not in text
    sheet = PdfReader(rendered("sheet", "--lang", "de", "--game", GAME, "--paper", "a4"))
    said = " ".join(" ".join(page.extract_text() for page in sheet.pages).split())
    assert "Skip-Bo-Brettspiel" in said and "Skip-Bo Brettspiel" not in said


# Where the board game's compounds may break: at their joints (finding 29).
JOINTS = {
    "Abwurfstapel": "Abwurf\N{SOFT HYPHEN}stapel",
    "Farbregel": "Farb\N{SOFT HYPHEN}regel",
    "beiseitegelegt": "beiseite\N{SOFT HYPHEN}gelegt",
    # Print review 7 found "Kar-tenstock", "Originalan-leitung", "Spielfigu-ren", "Wettren-nen".
    "Kartenstock": "Karten\N{SOFT HYPHEN}stock",
    "Originalanleitung": "Original\N{SOFT HYPHEN}anleitung",
    "Spielfiguren": "Spiel\N{SOFT HYPHEN}figuren",
    "Reihenfolge": "Reihen\N{SOFT HYPHEN}folge",
    "Wettrennen": "Wett\N{SOFT HYPHEN}rennen",
}


def test_the_boards_compounds_break_at_their_joints(
    extra_file: Path, printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]]
) -> None:
    html = render_html(rules_for("official", extra_file), paper=A4, lang=GERMAN)
    body = re.sub(r"<svg\b.*?</svg>", "", html.split("<body", 1)[1], flags=re.S)
    for joined in JOINTS.values():
        assert joined in body, joined
    # and nowhere else: a printed line that ends in a hyphen inside one of them ends at its joint
    for name, paper, layout in PRINTED:
        _, pages = printed(name, paper, layout)
        for page in pages:
            lines = [line.text.split() for line in page.lines]
            for this, following in pairwise(lines):
                if not this or not following or this[-1][-1] not in HYPHENS:
                    continue
                broken = this[-1].rstrip(HYPHENS)
                whole = broken + following[0]
                for word, joined in JOINTS.items():
                    at = whole.find(word)
                    if at >= 0 and at < len(broken) < at + len(word):
                        assert len(broken) - at == joined.index("\N{SOFT HYPHEN}"), whole


HYPHENS = "-\N{HYPHEN}\N{SOFT HYPHEN}"


def official_players() -> int:
    with (rules_dir() / GAME / "presets" / "official.toml").open("rb") as source:
        return int(tomllib.load(source)["players"])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_one_default_table_in_the_booklet_the_sheet_and_the_help(
    lang: str, rendered: Callable[..., Path]
) -> None:
    """Finding 39: the booklet, the sheet and --help name the same table when no --players
    is given: the game's official one, read from its data."""
    players = official_players()
    said = {"en": SPELLED["en"][players] + " players", "de": SPELLED["de"][players] + " Spieler"}
    booklet = rendered("rules", "--game", GAME, "--lang", lang, "--paper", "a4")
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(booklet).pages).split())
    assert said[lang] in text
    for other in range(2, 7):
        if other != players:
            assert said[lang].replace(SPELLED[lang][players], SPELLED[lang][other]) not in text
    sheet = rendered("sheet", "--game", GAME, "--lang", lang, "--paper", "a4")
    heading = {"en": "Player", "de": "Spieler"}[lang]
    columns = re.findall(rf"\b{heading} (\d)\b", PdfReader(sheet).pages[0].extract_text())
    assert sorted(set(columns)) == [str(n) for n in range(1, players + 1)]
    # The help names no game's numbers (they would be facts written twice): it says the
    # default is the game's official table and sends the reader to `sheetgen games`.
    help_text = " ".join(CliRunner().invoke(cli, ["rules", "--help"]).output.split())
    assert "[default: the game's official table]" in help_text
    assert "sheetgen games" in help_text
    assert not re.search(r"board game \d", help_text)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_boards_sheet_counts_cards_not_points(lang: str, rendered: Callable[..., Path]) -> None:
    """Finding 14: the rulebook scores no points, so the board game's sheet records the
    cards left in each played deck, as its game.toml's [scoring] says, and says so."""
    with (rules_dir() / GAME / "game.toml").open("rb") as source:
        assert tomllib.load(source)["scoring"]["way"] == "cards-left"
    sheet = rendered("sheet", "--game", GAME, "--lang", lang, "--paper", "a4")
    text = " ".join(PdfReader(sheet).pages[0].extract_text().split())
    stock = layer()["words"]["stock"] if lang == "de" else "played deck"
    assert stock in text
    if lang == "de":
        assert "Restkarten" in text and "niedrigste Summe" in text
        assert "Punkt" not in text and "500" not in text
    else:
        assert "Cards left" in text and "lowest total" in text
        assert "point" not in text.lower() and "500" not in text


@pytest.mark.parametrize(("name", "paper", "layout"), PRINTED, ids=lambda v: getattr(v, "name", v))
def test_a_tables_first_column_is_not_hyphenated_into_fragments(
    printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]],
    name: str,
    paper: Paper,
    layout: str,
) -> None:
    """The special spaces' table names "Kartenstock-Feld" in its first column: it breaks
    at its own hyphen, never into syllables ("Kar-", "Karten-"). (The table picture's
    squares, in smaller type, break the plain word as the language does: "Karten-/stock".)"""
    _, pages = printed(name, paper, layout)
    body = body_size(pages)
    starts = [
        line.text.split()[0]
        for page in pages
        for line in page.lines
        if line.text.split() and line.size > body - 0.5
    ]
    heads = [word for word in starts if word.startswith("Kar") and word[-1] in HYPHENS]
    assert "Kartenstock-" in heads or "Kartenstock-Feld" in starts
    assert set(heads) <= {"Kartenstock-"}, heads


def test_the_pattern_names_stay_inside_their_boxes(
    printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]],
) -> None:
    """Finding 5's longer names ("gestreift") are set so that they stay inside the white
    box drawn behind them on the patterned spaces and piles."""
    import pdfplumber

    pdf, _ = printed(*PRINTED[0])
    labels = layer()["picture_labels"]
    seen = 0
    # pdfplumber reads only the pages pdfium finds a label on.
    names = (labels["striped"], labels["dotted"], labels["checked"])
    holding = pages_with(pdf, *names)
    with pdfplumber.open(io.BytesIO(pdf), pages=holding) as document:
        for page in document.pages:
            for word in page.extract_words():
                if word["text"] not in names:
                    continue
                middle_x = (word["x0"] + word["x1"]) / 2
                middle_y = (word["top"] + word["bottom"]) / 2
                boxes = [
                    box
                    for box in page.rects
                    if box["x0"] < middle_x < box["x1"]
                    and box["top"] < middle_y < box["bottom"]
                    and box["width"] < 60
                ]
                if not boxes:
                    continue  # the picture's title and legend
                seen += 1
                box = min(boxes, key=lambda b: b["width"])
                assert box["x0"] < word["x0"] and word["x1"] < box["x1"], word["text"]
    assert seen == 11  # eight patterned spaces and three patterned piles


# Breaks pyphen's German patterns offer that a German reader stops at (finding: the setup
# broke "orangefa-rbenen"); the booklet avoids the word or puts the break at the joint.
WRONG_BREAKS = ("orangefa", "Ablag", "Abwurfsta", "Far", "Kartens")


@pytest.mark.parametrize(("name", "paper", "layout"), PRINTED, ids=lambda v: getattr(v, "name", v))
def test_no_word_breaks_where_a_german_reader_stops(
    printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]],
    name: str,
    paper: Paper,
    layout: str,
) -> None:
    _, pages = printed(name, paper, layout)
    text = " ".join(page.text for page in pages)
    assert "orangefarb" not in text
    for page in pages:
        for line in page.lines:
            words = line.text.split()
            if words and words[-1][-1] in HYPHENS:
                assert words[-1].rstrip(HYPHENS) not in WRONG_BREAKS, line.text


@pytest.mark.parametrize(("name", "paper", "layout"), PRINTED, ids=lambda v: getattr(v, "name", v))
def test_no_line_ends_on_an_article_or_a_number(
    printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]],
    name: str,
    paper: Paper,
    layout: str,
) -> None:
    """The folded booklet left "Eine" alone at a line's end; articles and numbers stay with
    the word after them ("eine Figur", "zehn Karten")."""
    pdf, pages = printed(name, paper, layout)
    assert stranded_short_words(pages) == []
    assert leader_problems(contents_rows(pdf, folded=layout == "booklet")) == []


def test_review36_the_skip_bo_space_has_one_name(extra_file: Path) -> None:
    """Print review 36: the special space was "Skip-Bo" in its table and picture and
    "SKIP-BO-Feld" in the text. It is the Skip-Bo space (Skip-Bo-Feld) everywhere; the
    card keeps its glossary name, SKIP-BO-Karte."""
    text = html_text("official", extra_file, GERMAN)
    assert "SKIP-BO-Feld" not in text
    assert text.count("Skip-Bo-Feld") >= 2
    assert "12 Skip-Bo ersetzt wie eine SKIP-BO-Karte jede fehlende Zahl" in text


def test_review36_the_booklet_says_how_the_boards_score_sheet_counts(extra_file: Path) -> None:
    """Print review 36: the board game's score sheet plays a series by cards left, which
    its rules booklet never mentioned. "Winning" now says that the rulebook does not say
    how to score a series and that this booklet suggests the sheet's way, in both
    languages."""
    english = html_text("official", extra_file)
    assert "The rulebook does not say how to score a series of games." in english
    assert "after the agreed games the lowest total wins" in english
    german = html_text("official", extra_file, GERMAN)
    assert "Wie man eine Serie wertet, sagt die Spielanleitung nicht." in german
    assert "nach den vereinbarten Spielen gewinnt die niedrigste Summe" in german


def test_review39_a_heading_is_not_taken_over_ten_lines_of_white(
    printed: Callable[[str, Paper, str], tuple[bytes, list[Page]]],
) -> None:
    """Print review 39: "Die Sonderfelder" and its three lines, taken over the page on the
    flat Letter booklet, left 153 pt (ten lines) white before it. A heading is taken over
    only where the white it leaves on its page is a sixth of the page's text at most."""
    _, pages = printed("official", LETTER, "pages")
    fullest = max(page.fill for page in pages[1:-1])
    for before, page in pairwise(pages[1:]):
        if page.content and page.content[0].text.strip() == "Die Sonderfelder":
            white = (fullest - before.fill) * before.height
            assert white < (1 - SECTION_END) * fullest * before.height, (page.number, white)
            assert white < 120, (page.number, white)
    assert any("Die Sonderfelder" in page.text for page in pages)
