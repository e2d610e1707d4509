"""The Skip-Bo board game's rules text against its source (seed 002), in English and German,
under every toggle boundary the game has (issue 30).

Each check reads the booklet's HTML (the words weasyprint would set, its picture and the
picture's text alternative) and asserts both that the right sentence is there and that the
wrong one is not: no reason the rulebook does not give, no "clockwise", the cases the
rulebook leaves open said to be this booklet's suggestion, the cover's box saying what the
sections say, the glossary's German terms, and no sentence that goes stale when the table
changes the players or the played deck.
"""

from __future__ import annotations

import html as html_lib
import re
import shutil
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from test_rules_text import body_text

from sheetgen.booklet.build import render_html
from sheetgen.booklet.context import build_context
from sheetgen.errors import HouseRulesError
from sheetgen.game.definition import RULES_PATH_ENV
from sheetgen.game.houserules import resolve
from sheetgen.game.language import glossary, language
from sheetgen.paper import A4
from sheetgen.resources import rules_dir

GAME = "skip-bo-board"
FOLDER = rules_dir() / GAME

# Every boundary of the game's toggles (`sheetgen games`: players 2 to 4, stock 1 up to
# the largest the deck deals at that table) and the official table.
TABLES: dict[str, dict[str, Any]] = {
    "official": {},
    "two": {"players": 2},
    "three": {"players": 3},
    "four": {"players": 4},
    "one-card": {"stock": 1},
    "two-one-card": {"players": 2, "stock": 1},
    "two-cards": {"players": 2, "stock": 2},
    "largest-two": {"players": 2, "stock": 45},
    "largest-three": {"players": 3, "stock": 28},
    "largest-four": {"players": 4, "stock": 20},
}
LANGS = ("en", "de")
CASES = [(name, lang) for name in TABLES for lang in LANGS]


def case_id(case: tuple[str, str]) -> str:
    return "-".join(case)


@cache
def html_of(name: str, lang: str) -> str:
    rules = resolve(game=GAME, options=dict(TABLES[name]))
    return render_html(rules, paper=A4, lang=language(lang))


def visible(html: str) -> str:
    """A booklet's HTML without its style sheet (whose comments are no reader's words)."""
    return re.sub(r"<style\b.*?</style>", " ", html, flags=re.S)


def plain(text: str) -> str:
    """Words as the sentences were written: soft hyphens out, curly apostrophes and
    English double quotes straight (German „…“ stay)."""
    text = text.replace("\N{SOFT HYPHEN}", "")
    text = text.replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    return text.replace("\N{LEFT DOUBLE QUOTATION MARK}", '"').replace(
        "\N{RIGHT DOUBLE QUOTATION MARK}", '"'
    )


@cache
def text_of(name: str, lang: str) -> str:
    """The running text (box, chapters, captions; not the picture's own drawing)."""
    return plain(body_text(html_of(name, lang)))


@cache
def picture_of(name: str, lang: str) -> str:
    """Every word the board picture draws, its title included, and its caption."""
    html = html_of(name, lang)
    svg = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    caption = re.search(r'<figure class="picture">.*?<figcaption>(.*?)</figcaption>', html, re.S)
    assert svg is not None and caption is not None
    drawn = html_lib.unescape(re.sub(r"<[^>]+>", " ", svg.group(0)))
    return plain(" ".join(f"{drawn} {html_lib.unescape(caption.group(1))}".split()))


def box_of(text: str, lang: str) -> str:
    return text[: text.index(" Contents " if lang == "en" else " Inhalt ")]


def chapters_of(text: str, lang: str) -> str:
    """The text after the contents list (the chapters, from their first heading on)."""
    first = " The box and the aim " if lang == "en" else " Spielmaterial und Ziel "
    return text[text.index(first, text.index(first) + 1) :]


def section(text: str, title: str, following: str) -> str:
    """One section's words, from its heading (the last time the title stands in the text
    before ``following``'s heading) to the next heading."""
    end = text.rindex(f" {following} ")
    return text[text.rindex(f" {title} ", 0, end) : end]


def paragraphs(name: str, lang: str) -> list[str]:
    html = re.sub(r"<svg\b.*?</svg>", " ", html_of(name, lang), flags=re.S)
    found = re.findall(r"<(p|li)\b[^>]*>(.*?)</\1>", html, flags=re.S)
    return [
        plain(" ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", p)).split())) for _, p in found
    ]


def deal(name: str) -> dict[str, Any]:
    return dict(build_context(resolve(game=GAME, options=dict(TABLES[name])))["deal"])


def load(path: Path) -> dict[str, Any]:
    with path.open("rb") as source:
        return tomllib.load(source)


# ---------------------------------------------------------------- the matrix itself


@pytest.mark.parametrize(("players", "largest"), [(2, 45), (3, 28), (4, 20)])
def test_the_largest_played_decks_are_the_largest_the_game_deals(
    players: int, largest: int
) -> None:
    assert resolve(game=GAME, options={"players": players, "stock": largest}).players == players
    with pytest.raises(HouseRulesError):
        resolve(game=GAME, options={"players": players, "stock": largest + 1})


# ---------------------------------------------------------------- 1. no invented reasons

INVENTED = {
    "en": [
        "because playing a card",
        '"discarding"',
        'Why "discard piles"',
        "easiest colour to reach",
        "builds on no pile",
        "has nothing to match",
        "Your board has more spaces",
        "most tables let the youngest",
        "so plan that move",
    ],
    "de": [
        "Weil es diese Farbe doppelt gibt",
        "am leichtesten zu erreichen",
        "findet hier also nichts",
        "Euer Plan hat mehr Felder",
        "an den meisten Tischen",
    ],
}
# The rulebook's own reasons, said as the rulebook's.
ATTRIBUTED = {
    "en": [
        "Two of the six discard piles are pink; the rulebook notes that this makes playing "
        "cards easier.",
        "the rulebook advises planning that move a turn ahead.",
    ],
    "de": [
        "Zwei der sechs Plätze für Ablagestapel sind rosa; laut Originalanleitung wird das "
        "Anlegen dadurch leichter.",
        "die Originalanleitung rät, das schon eine Runde vorher zu planen.",
    ],
}
REASON_WORDS = {
    "en": r"\b(?:because|so that|therefore|since)\b",
    "de": r"\b(?:weil|damit|deshalb|daher|denn)\b",
}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_no_reason_the_rulebook_does_not_give(case: tuple[str, str]) -> None:
    name, lang = case
    text = text_of(name, lang)
    for invented in INVENTED[lang]:
        assert invented not in text, invented
    for sentence in ATTRIBUTED[lang]:
        assert sentence in text, sentence
    # No sentence of the booklet or its picture explains anything with a "because".
    for words in (chapters_of(text, lang), box_of(text, lang), picture_of(name, lang)):
        assert re.findall(REASON_WORDS[lang], words, flags=re.IGNORECASE) == []


def test_the_piles_names_keep_the_rulebooks_word_without_a_reason() -> None:
    names = section(text_of("official", "en"), "The names of the piles", "Setting up")
    assert (
        "The board game's rulebook calls them discard piles, and this booklet uses the same name."
        in names
    )
    assert "do the job of the card game's building piles: each is built up from 1 to 12." in names
    german = section(text_of("official", "de"), "Die Namen der Stapel", "Vorbereitung")
    assert "heißen in diesem Heft wie dort Ablagestapel" in german
    assert "Das Brettspiel kennt nur einen einzigen Abwurfstapel" in german


# ---------------------------------------------------------------- 2. no "clockwise"

DIRECTION = {
    "en": {
        "counters": "in the direction of the arrows at the corners of the board.",
        "silent": "It does not say in which order the turns follow: agree on that before you "
        "begin. This booklet suggests that the turn passes to the player on the left.",
        "box": "Turn order: the turn passes to the player on the left.",
        "picture": "which way they point here is only an example, so follow the arrows on "
        "your own board.",
        # The caption says it (print review 8: the lead-in, legend and caption described
        # the picture three times).
        "sketch": "its spaces and arrows are only examples.",
    },
    "de": {
        "counters": "in Richtung der Pfeile an den Ecken des Plans.",
        "silent": "In welcher Reihenfolge es danach weitergeht, sagt sie nicht: Legt das vor "
        "dem ersten Zug fest. Dieses Heft schlägt vor, dass nach dir immer dein linker "
        "Nachbar an der Reihe ist.",
        "box": "Reihenfolge: Nach dir ist dein linker Nachbar an der Reihe.",
        "picture": "wohin sie hier zeigen, ist nur ein Beispiel, es gelten die Pfeile auf "
        "eurem Spielplan.",
        "sketch": "Felder und Pfeile sind nur Beispiele.",
    },
}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_no_direction_the_rulebook_does_not_give(case: tuple[str, str]) -> None:
    name, lang = case
    html = visible(html_of(name, lang)).lower()
    for word in ("clockwise", "uhrzeigersinn"):
        assert word not in html, word
    text = text_of(name, lang)
    said = DIRECTION[lang]
    assert said["counters"] in text
    assert said["silent"] in text
    assert said["box"] in box_of(text, lang)
    assert said["sketch"] in text
    assert said["picture"] in picture_of(name, lang)


# ---------------------------------------------------------------- 3. no card for the pile

NO_CARD = {
    "en": {
        "title": "No card for the auxiliary pile",
        "next": "The special spaces",
        "silent": "The rulebook does not say what happens when your turn ends and you have no "
        "card in your hand to put on the auxiliary pile; that can only happen when there is "
        "nothing left to draw.",
        "suggested": "This booklet suggests: your turn ends without a card on the auxiliary "
        "pile, and neither of your counters moves.",
        "box": "No card in hand for the auxiliary pile: the turn ends, and no counter moves.",
        "quick": "With no card in hand, no counter moves.†",
    },
    "de": {
        "title": "Keine Karte für den Abwurfstapel",
        "next": "Die Sonderfelder",
        "silent": "Was gilt, wenn dein Zug endet und du keine Handkarte für den Abwurfstapel "
        "mehr hast, sagt die Originalanleitung nicht; das kann nur vorkommen, wenn es nichts "
        "mehr zum Nachziehen gibt.",
        "suggested": "Dieses Heft schlägt vor: Dein Zug endet dann, ohne dass du eine Karte "
        "auf den Abwurfstapel legst, und keine deiner Figuren bewegt sich.",
        "box": "Keine Handkarte für den Abwurfstapel: Der Zug endet, und keine Figur bewegt sich.",
        "quick": "Ohne Handkarte zieht keine Figur.†",
    },
}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_player_without_a_card_for_the_auxiliary_pile(case: tuple[str, str]) -> None:
    name, lang = case
    text = text_of(name, lang)
    said = NO_CARD[lang]
    rule = section(text, said["title"], said["next"])
    assert said["silent"] in rule and said["suggested"] in rule
    assert said["box"] in box_of(text, lang)
    quick = text[text.rindex(" Quick reference " if lang == "en" else " Kurzübersicht ") :]
    assert said["quick"] in quick
    # The empty draw pile's section points to it (the printed contents name chapters only).
    assert text.count(said["title"]) >= 2


# ---------------------------------------------------------------- 4. the box says what the sections say

NOTHING_TO_DRAW = {
    "en": {
        "title": "Nothing left to draw",
        "next": "Winning",
        "when": "when the draw pile is empty and no finished pile has been set aside.",
        "steps": [
            "shuffle all the cards beneath the top card of the auxiliary pile into a new draw pile",
            "; if there are none, play on without drawing",
        ],
        "quick": [
            "Shuffle the set-aside piles into a new draw pile. If none are set aside, use the "
            "cards beneath the top card of the auxiliary pile; if there are none either, play "
            "on without drawing.† With nothing to draw and a whole round without a play, the "
            "game ends without a winner.†"
        ],
    },
    "de": {
        "title": "Nichts mehr zum Nachziehen",
        "next": "Wer gewinnt",
        "when": "wenn der Kartenstock leer ist und kein voller Stapel beiseiteliegt",
        "steps": [
            "alle Karten unter der obersten des Abwurfstapels",
            "zu einem neuen Kartenstock",
            "ohne Nachziehen weiter",
        ],
        "quick": [
            "Mischt die beiseitegelegten Stapel zum neuen Kartenstock, sonst die Karten unter "
            "der obersten des Abwurfstapels; fehlen auch die, spielt ohne Nachziehen weiter.† "
            "Vergeht dann eine ganze Runde ohne Anlegen, endet das Spiel ohne Sieger.†"
        ],
    },
}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_nothing_left_to_draw_reads_the_same_in_the_box_the_section_and_the_summary(
    case: tuple[str, str],
) -> None:
    name, lang = case
    text = text_of(name, lang)
    said = NOTHING_TO_DRAW[lang]
    box = box_of(text, lang)
    notes = [line for line in paragraphs(name, lang) if line.startswith(said["title"] + ": ")]
    assert len(notes) == 1, "the box lists it once"
    rule = section(text, said["title"], said["next"])
    assert said["when"] in rule
    # The same steps, whether the sentence starts them or a semicolon does.
    for step in said["steps"]:
        assert step.lower() in notes[0].lower(), step
        assert step.lower() in rule.replace(". If", "; if").lower(), step
    assert said["title"] in box
    quick = text[text.rindex(" Quick reference " if lang == "en" else " Kurzübersicht ") :]
    for line in said["quick"]:
        assert line in quick


# Each line of the box's "say nothing" list and the section that says the same.
RULINGS = {
    "en": [
        (
            "Turn order: the turn passes to the player on the left.",
            "suggests that the turn passes to the player on the left",
        ),
        (
            "Draw pile space: it works wherever your other counter stands.",
            "a counter on the draw pile space works on its own, once per turn, wherever your "
            "other counter stands.",
        ),
        ("Nothing left to draw", "Nothing left to draw"),
        ("No card in hand for the auxiliary pile", "No card for the auxiliary pile"),
        (
            "Starting cards: a Skip-Bo card counts as a 1, and a 12 completes its discard pile "
            "at once.",
            "This booklet suggests: a 12 completes its pile at once, so set it aside as a "
            "complete pile",
        ),
    ],
    "de": [
        (
            "Reihenfolge: Nach dir ist dein linker Nachbar an der Reihe.",
            "dass nach dir immer dein linker Nachbar an der Reihe ist",
        ),
        (
            "Kartenstock-Feld: Es wirkt, gleich wo deine andere Figur steht.",
            "Eine Figur auf dem Kartenstock-Feld wirkt für sich allein, einmal pro Zug, ganz "
            "gleich, wo deine andere Figur steht.",
        ),
        ("Nichts mehr zum Nachziehen", "Nichts mehr zum Nachziehen"),
        ("Keine Handkarte für den Abwurfstapel", "Keine Karte für den Abwurfstapel"),
        (
            "Startkarten: Eine SKIP-BO-Karte zählt als 1, eine 12 macht ihren Stapel gleich voll.",
            "Dieses Heft schlägt vor: Eine 12 macht ihren Stapel sofort voll",
        ),
    ],
}


@pytest.mark.parametrize("lang", LANGS)
def test_every_ruling_in_the_box_is_a_section_and_marked_as_a_suggestion(lang: str) -> None:
    text = text_of("official", lang)
    box = box_of(text, lang)
    lead = (
        "Where the rules differ or say nothing, this booklet suggests:"
        if lang == "en"
        else "schlägt dieses Heft vor:"
    )
    notes = box[box.index(lead) :]
    rest = chapters_of(text, lang)
    for line, said in RULINGS[lang]:
        assert line in notes, line
        assert said in rest, said
    assert (
        len(
            re.findall(
                r"<li>", html_of("official", lang).split('class="notes"')[1].split("</ul>")[0]
            )
        )
        == 5
    )


# ---------------------------------------------------------------- 5. the German terms

FORBIDDEN_DE = ["Nachziehstapel", "Spielstapel", "Ablegestapel", "Joker", "Partei", "Stapelkarte"]
TERMS = {
    "stock": "stock pile",
    "stocks": "stock pile",
    "draw": "draw pile",
    "building": "building pile",
    "wild": "Skip-Bo card",
}


def test_the_german_words_are_the_glossarys() -> None:
    terms = glossary("de")["terms"]
    words = load(FOLDER / "de" / "game.toml")["words"]
    assert set(words) == set(load(FOLDER / "game.toml")["words"])
    for key, english in TERMS.items():
        assert words[key] == terms[english], key
    # German review 21: the board game's one pile everyone shares is not the glossary's
    # Hilfsstapel (always a player's own in Skip-Bo) but an Abwurfstapel.
    assert words["auxiliary"] == "Abwurfstapel"
    assert words["auxiliary"] != terms["discard pile"]


@pytest.mark.parametrize("name", TABLES)
def test_the_german_booklet_and_picture_say_only_the_glossarys_pile_words(name: str) -> None:
    html = plain(visible(html_of(name, "de")))
    for word in FORBIDDEN_DE:
        assert word.lower() not in html.lower(), word
    text = text_of(name, "de")
    picture = picture_of(name, "de")
    for term in ("Spielerstapel", "Kartenstock", "Ablagestapel", "Abwurfstapel", "SKIP-BO-Karte"):
        assert term in text, term
    for term in ("Kartenstock", "Ablagestapel", "Abwurfstapel"):
        assert term in picture, term


# The pile words of each language: a section or sentence names them through `words.*`.
PILE_WORDS = {
    "en": r"played decks?|draw piles?|discard piles?|auxiliary piles?|Skip-Bo cards?",
    "de": r"Spielerstapel|Kartenstock|Ablagestapel|Hilfsstapel|Abwurfstapel|SKIP-BO-Karte|Nachziehstapel|Spielstapel|Ablegestapel",
}


@pytest.mark.parametrize("lang", LANGS)
def test_no_pile_word_is_written_by_hand(lang: str) -> None:
    folder = FOLDER if lang == "en" else FOLDER / "de"
    sources = {
        path.name: path.read_text("utf-8") for path in sorted((folder / "sections").glob("*.md"))
    }
    if lang == "en":
        sources["table.svg.j2"] = (FOLDER / "table.svg.j2").read_text("utf-8")
    data = load(folder / "game.toml")
    prose = {
        key: value
        for key, value in data.items()
        if key not in ("words", "decks", "name", "toggles")
    }
    sources["game.toml"] = repr(prose)
    for source, text in sources.items():
        found = re.findall(PILE_WORDS[lang], re.sub(r"\{\{.*?\}\}", "", text))
        assert found == [], (source, found)


# ---------------------------------------------------------------- 6. no wrong break


def test_setup_avoids_the_word_hyphenated_wrongly() -> None:
    for name in TABLES:
        assert "orangefarb" not in visible(html_of(name, "de")), name
    setup = section(text_of("official", "de"), "Vorbereitung", "Wer beginnt")
    assert (
        "Das blaue Paar etwa beginnt mit einer Figur auf dem Eckfeld in Blau und einer auf dem Eckfeld in Orange"
        in setup
    )


# ---------------------------------------------------------------- 7. German grammar and numbers

GERMAN_GONE = [
    "so viele du",
    "zu viel gezogene",
    "0. Punkte",
    "nur null",
    "wandert das Geben",
    "Entscheidung des Tisches",
    "dessen, der",
    "frei einsetzbar",
    "kein Zug der Figur",
    "ist eure Sache",
    "Schritte 2 und 3 mischen",
    "deines Spielerstapel ",
    "des Kartenstock ",
]


@pytest.mark.parametrize("name", TABLES)
def test_german_a_reader_does_not_stop_at(name: str) -> None:
    text = text_of(name, "de")
    for phrase in GERMAN_GONE:
        assert phrase not in text, phrase
    assert not re.search(r"\b1 Karten?\b|\beine Karten\b|\bein Karte\b|\beins Karte", text)
    # Your own pile is "deines Spielerstapels", never "eines" as if it were anyone's.
    assert not re.search(r"\beines Spielerstapels\b", text)
    assert "deines Spielerstapels" in text and "vom Kartenstock" in text


def test_figures_above_999_are_grouped_as_each_language_writes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shelf = tmp_path / "shelf"
    shutil.copytree(FOLDER, shelf / "big-board")
    toml = shelf / "big-board" / "game.toml"
    toml.write_text(toml.read_text("utf-8").replace("cards = 108", "cards = 1500"), "utf-8")
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    rules = resolve(game="big-board", options={"players": 2, "stock": 30})
    english = plain(body_text(render_html(rules, paper=A4, lang=language("en"))))
    german = plain(body_text(render_html(rules, paper=A4, lang=language("de"))))
    assert "Shuffle all 1,500 cards." in english and "1,500 cards." in english
    assert "Mischt alle 1.500 Karten." in german and "1.500 Karten." in german
    draw = 1500 - 6 - 2 * 30
    assert f"Put the remaining {draw:,} cards" in english
    assert f"er umfasst zu Beginn {draw:,} Karten".replace(",", ".") in german
    for text in (english, german):
        assert not re.search(r"\b1500\b|\b1434\b", text)


# ---------------------------------------------------------------- 8. official and suggested


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_what_the_rulebook_says_and_what_this_booklet_suggests_are_told_apart(
    case: tuple[str, str],
) -> None:
    name, lang = case
    text = text_of(name, lang)
    rest = chapters_of(text, lang)
    if lang == "en":
        assert (
            "The rulebook lets you choose the first player any way you like and adds that the "
            "youngest player usually starts."
        ) in rest
        for label in ("house rule", "house decision", "official"):
            assert label not in rest.lower(), label
        suggestion, silent = r"booklet suggests", r"does not say|Nor does the rulebook say"
    else:
        assert (
            "Wie ihr den Startspieler bestimmt, überlässt die Originalanleitung euch; meist, so heißt es dort, beginnt der jüngste Spieler."
            in rest
        )
        for label in ("hausregel", "offiziell", "entscheidet ihr am tisch"):
            assert label not in rest.lower(), label
        suggestion, silent = r"Heft schlägt vor|schlägt dieses Heft vor", "nicht"
    # Every paragraph that suggests, but not the cover box's heading over the suggestions:
    # the first turn's order, a 12 or wild card turned up at the start (rules review 7), no
    # card for the auxiliary pile, the draw pile space (only with more than one card in the
    # played deck, rules review 8), nothing left to draw, a game at a standstill (6), and
    # a series of games, which the score sheet counts by cards left (print review 36).
    suggesting = [
        p
        for p in paragraphs(name, lang)
        if re.search(suggestion, p) and "|" not in p and not p.endswith(":")
    ]
    assert len(suggesting) == (7 if deal(name)["stock"] > 1 else 6)
    for paragraph in suggesting:
        assert re.search(silent, paragraph), paragraph


# ---------------------------------------------------------------- 9. every toggle boundary

ONE_CARD = {
    "en": {
        "right": [
            "Each player turns that one card face up.",
            "Each player gets a played deck of just one card. Be the first to play that card "
            "onto a discard pile.",
            "It is the only card in it: once you have played it, you have won.",
            "Now the 4, the only card of your played deck, fits too: you play it, and you have "
            "won.",
            "no use here: your played deck has only one card",
            "With a one-card played deck, the draw pile space is no use.",
            "Each player gets a played deck of one card, face up.",
        ],
        "stale": [
            "Turn only its top card",
            "the rest stay hidden",
            "Turn up the next card",
            "turn up the next card",
            "turn up the card beneath",
            # Rules review 8: the draw pile space is no use with one card, so no ruling for it.
            "Draw pile space: it works wherever your other counter stands.",
            "The draw pile space puts no card on a discard pile",
            "move the top card of your played deck to the bottom",
            "Each played deck starts with",
            "keep an eye on",
            "top card face up. One card goes",
        ],
    },
    "de": {
        "right": [
            "Jeder deckt diese Karte auf.",
            "Jeder Spieler bekommt einen Spielerstapel aus einer einzigen Karte.",
            "Sie ist die einzige Karte darin: Sobald du sie angelegt hast, hast du gewonnen.",
            "Jetzt passt auch die 4, die einzige Karte deines Spielerstapels: Du legst sie an "
            "und hast gewonnen.",
            "wirkungslos: Dein Spielerstapel hat nur eine Karte",
            "Das Kartenstock-Feld ist bei einem Spielerstapel aus einer Karte wirkungslos.",
            "Jeder bekommt eine einzige offene Karte als Spielerstapel.",
        ],
        "stale": [
            "Nur die oberste Karte wird aufgedeckt",
            "alle übrigen bleiben verdeckt",
            "Decke dann sofort die nächste auf",
            "deckst die nächste Karte",
            "die nächste aufdecken",
            "Kartenstock-Feld: Es wirkt, gleich wo deine andere Figur steht.",
            "Mit dem Kartenstock-Feld legst du keine Karte",
            "heißt zwar nach dem Kartenstock, wirkt aber auf deinen Spielerstapel",
            "die oberste Karte deines Spielerstapels nach unten legen",
            "umfasst anfangs",
            "Behalte auch im Blick",
            "die oberste offen. Auf jeden",
        ],
    },
}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_played_deck_sentences_follow_its_size(case: tuple[str, str]) -> None:
    name, lang = case
    text = text_of(name, lang)
    one = TABLES[name].get("stock") == 1
    for sentence in ONE_CARD[lang]["right"]:
        assert (sentence in text) == one, sentence
    for sentence in ONE_CARD[lang]["stale"]:
        assert (sentence in text) != one, sentence


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_counts_follow_the_table(case: tuple[str, str]) -> None:
    name, lang = case
    text = text_of(name, lang)
    dealt = deal(name)
    words = language(lang).counting
    stock, left = dealt["stock"], dealt["draw_pile"]
    if lang == "en":
        said_stock = "one card" if stock == 1 else f"{words.spell(stock)} cards"
        assert f"Deal {said_stock} face down to every player" in text
        assert f"Put the remaining {words.spell(left)} cards face down" in text
        assert not re.search(r"\b(?:1|one) (?:cards|players|piles|decks|counters)\b", text)
    else:
        said_stock = "eine Karte" if stock == 1 else f"{words.spell(stock)} Karten"
        assert f"Jeder Spieler erhält verdeckt {said_stock}; das ist sein Spielerstapel." in text
        assert f"er umfasst zu Beginn {words.spell(left)} Karten" in text
    assert "{{" not in text and "{%" not in text
    players = TABLES[name].get("players", 4)
    if stock > 1:
        one, several = (
            ("how many cards your opponent has left", "your opponents")
            if lang == "en"
            else ("wie viele Karten dein Gegner noch übrig hat", "deine Gegner")
        )
        if players == 2:
            assert one in text and several not in text
        else:
            assert one not in text
            assert (
                "how many cards your opponents have left"
                if lang == "en"
                else "wie viele Karten deine Gegner noch übrig haben"
            ) in text


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_two_counters_on_two_colours_may_reach_more_than_two_piles(case: tuple[str, str]) -> None:
    """Two of the six piles are pink, so two colours can open three piles."""
    name, lang = case
    text = text_of(name, lang)
    if lang == "en":
        assert "two piles to choose from" not in text
        assert (
            "with your two counters on two different colours, you may build on the piles of both colours."
            in text
        )
    else:
        assert "hast du die Wahl zwischen zwei Stapeln" not in text
        assert (
            "stehen deine beiden Figuren auf Feldern verschiedener Farbe, darfst du auf die "
            "Stapel beider Farben legen." in text
        )


@pytest.mark.parametrize("lang", LANGS)
def test_the_picture_names_only_the_colours_the_rulebook_names(lang: str) -> None:
    """Seed 002 names a blue and an orange corner, an orange pile and two pink piles: the
    sketch draws no blue pile and says the other colours are unnamed."""
    html = html_of("official", lang)
    svg = html[html.index("<svg") : html.index("</svg>")]
    blue = ">blue<" if lang == "en" else ">blau<"
    assert svg.count(blue) == 1  # the blue corner only
    pink = ">pink<" if lang == "en" else ">rosa<"
    assert svg.count(pink) >= 3
    picture = picture_of("official", lang)
    if lang == "en":
        assert (
            "named by colour: orange, pink, pink, and three the rulebook does not name, drawn "
            "striped, dotted and checked"
        ) in picture
        assert "blue, orange, pink, pink" not in picture and "two more colours" not in picture
        assert "Patterns stand for colours the rulebook does not name." in picture
    else:
        assert (
            "nach ihren Farben benannt: Orange, Rosa, Rosa und drei, deren Farben die "
            "Originalanleitung nicht nennt, hier gestreift, getupft und kariert gezeichnet"
        ) in picture
        assert "blau, orange, rosa, rosa" not in picture
        assert "Muster stehen für Farben, die die Anleitung nicht nennt." in picture
    for pattern in ("board-striped", "board-dotted", "board-checked"):
        assert f"url(#{pattern})" in svg


# ------------------------------------------------- the outside reviews (rules and German)

# (right, wrong) per language under every toggle.
REVIEWED = {
    "en": [
        # rules 6: a game at a standstill ends, as this booklet's suggestion
        (
            "Nor does the rulebook say how a game ends that has come to a standstill. This "
            "booklet suggests: if nothing can be drawn and a whole round passes in which nobody "
            "plays a card to a discard pile, the game ends without a winner.",
            "play on without drawing (both this booklet's suggestion)",
        ),
        # rules 7: a 12 or a wild card turned up at the start
        (
            "The rulebook does not say what a 12 or a Skip-Bo card turned up here means. This "
            "booklet suggests: a 12 completes its pile at once",
            "turned up here counts as",
        ),
        # rules 9
        ("and this booklet uses the same name.", "keeps its word"),
        # German 23 in English too: a special space works at most once a turn
        ("every special space can be used at most once per turn", "can be used once per turn"),
        # German 25 in English too: ranges take an en dash
        ("A number space (1\N{EN DASH}4, 5\N{EN DASH}8 or 9\N{EN DASH}12)", "1-4"),
    ],
    "de": [
        ("genau so viele Felder vor, wie die Karte zeigt,", "genau so viele Felder vor, in"),
        ("Eine Figur rückt beliebig weit vor, um 1 bis 12 Felder.", "zwischen 1 und 12 Feldern"),
        (  # 16
            "Die beiden Figuren eines Spielers kommen auf die zwei Eckfelder mit einem Kreis in "
            "seiner Farbe; die Eckfelder selbst dürfen andersfarbig sein.",
            "Seine zwei Figuren kommen",
        ),
        ("und ein Ablagestapel zeigt eine 2.", "und der Stapel zeigt eine 2"),  # 17
        ("deren Farbe zu einem Feld passt, auf dem eine deiner Figuren steht.", "dessen Farbe"),
        ("auf Feldern verschiedener Farbe", "auf zwei verschiedenen Farben"),  # 19
        ("Jeder Zug läuft gleich ab:", "Jeder Zug folgt denselben Schritten"),  # 22
        ("am Schluss legst du eine Karte ab und ziehst eine Figur", "beendest du den Zug"),
        ("höchstens einmal pro Zug", "wirkt einmal pro Zug"),  # 23
        ("Zwei der sechs Plätze für Ablagestapel sind rosa", "Zwei der sechs Ablagestapel"),
        ("mischt ihr die beiseitegelegten Stapel", "aufgebraucht, mischt die"),  # 24
        ("Sonderfelder 1\N{EN DASH}4, 5\N{EN DASH}8, 9\N{EN DASH}12", "1-4"),  # 25
        ("acht Sätze 1\N{EN DASH}12", "Sätze 1-12"),
        ("Ziehe Karten vom Kartenstock", "Zieh Karten"),  # 30
        ("Lege eine Handkarte offen auf den Abwurfstapel und rücke", "Leg eine Handkarte"),
        ("Denke voraus:", "Denk voraus"),
        (  # rules 6 and 7 in German
            "Wie ein festgefahrenes Spiel endet, sagt die Originalanleitung ebenfalls nicht.",
            "(beides schlägt dieses Heft vor)",
        ),
        ("Dieses Heft schlägt vor: Eine 12 macht ihren Stapel sofort voll", "zählt dort als 1"),
        # 21: the one shared pile is not a Hilfsstapel
        ("Das Brettspiel kennt nur einen einzigen Abwurfstapel", "Hilfsstapel"),
    ],
}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_review_findings_are_fixed_under_every_toggle(case: tuple[str, str]) -> None:
    name, lang = case
    text = plain(visible(html_of(name, lang)))
    text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    for right, wrong in REVIEWED[lang]:
        assert right in text, right
        assert wrong not in text, wrong
    # German 28: the picture's corner label has one colon, not two
    if lang == "de":
        assert "farbiges Eckfeld; der Kreis zeigt, welches Paar hier startet" in text
        assert "sein Kreis: wer hier startet" not in text
    # German 18: the 4 is played from the played deck, not onto it
    if lang == "de" and TABLES[name].get("stock") != 1:
        assert "passt auch die 4 von deinem Spielerstapel" in text
        assert "die 4 oben auf deinem Spielerstapel" not in text
    # German 21: the field's name is explained where the played deck has more than one card
    explained = "heißt zwar nach dem Kartenstock, wirkt aber auf deinen Spielerstapel"
    if lang == "de":
        assert (explained in text) is (TABLES[name].get("stock") != 1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_picture_is_described_once_and_as_drawn(lang: str) -> None:
    """Print review 8: the lead-in ("only a sketch"), the legend and the caption described
    the board three times, and the legend spoke of blue circles the drawing draws as
    hollow rings. The lead-in says whose names the labels use, the caption that it is a
    sketch, the legend what the marks mean, the start circles once (print review 10: the
    key and a side note both explained them). Print review 12: a lead-in and the caption
    still both described it; the caption alone says what it shows and whose names the
    labels use."""
    html = html_of("official", lang)
    before = re.search(r"(<[^>]+>)([^<]*)</p>\s*<figure class=\"picture\">", html)
    assert before is not None
    said = plain(html_lib.unescape(before.group(2)))
    assert not re.search(r"from above|von oben|named|Namen", said), said
    caption = re.search(
        r'<figure class="picture">.*?<figcaption[^>]*>(.*?)</figcaption>', html, re.S
    )
    assert caption is not None
    told = plain(html_lib.unescape(re.sub(r"<[^>]+>", "", caption.group(1))))
    assert told.startswith(("The board from above", "Der Plan von oben")), told
    drawn = picture_of("official", lang)
    assert ("blue dots" not in drawn) and ("blaue Kreise" not in drawn)
    pair = "pair" if lang == "en" else "Paar"
    assert ("the pair that starts here" in drawn) or ("welches Paar hier startet" in drawn)
    # Once on the drawing itself (its long description, the title, is not drawn).
    html = html_of("official", lang)
    svg = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    assert svg is not None
    shown = re.sub(r"<title\b.*?</title>", "", svg.group(0), flags=re.S)
    assert len(re.findall(rf"<text[^>]*>[^<]*\b{pair}\b", shown)) == 1
