"""One house style for the three games' text, in English and German (issue 31, item 7).

Every booklet is rendered as HTML for each game, language and a few toggle sets, parsed,
and read for what a typesetter would check by eye:

- bold is only ever a run-in head: the first thing in its paragraph or list item, ending
  in a period inside the bold ("**Fill your hand.**") or a question mark for a question;
  never a word stressed in mid-sentence, never a colon head, never in a table cell;
- the text after a head starts with a capital;
- the quick reference of every game has one form: run-in paragraphs, each opening with its
  head, plus at most one numbered list (the turn's steps, right after "Each turn."), no
  table, every paragraph and step ending in a period; its heads come in one order shared
  by the three games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from typing import Any

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

VOID = {"br", "hr", "img", "meta", "link", "input", "col", "source", "wbr", "area", "base"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def elements(self) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node)]

    def walk(self) -> list[Node]:
        found = []
        for child in self.elements():
            found.append(child)
            found.extend(child.walk())
        return found


class TreeBuilder(HTMLParser):
    """A small DOM: enough to ask where each <strong> stands."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.open = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.open)
        self.open.children.append(node)
        if tag not in VOID:
            self.open = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.open))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.open = node.parent

    def handle_data(self, data: str) -> None:
        self.open.children.append(data)


def clean(text: str) -> str:
    """Text as a reader sees it: no soft hyphens, straight apostrophes, single spaces."""
    text = text.replace("\N{SOFT HYPHEN}", "").replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    return re.sub(r"\s+", " ", text).strip()


HEAVY: dict[str, Any] = {
    "players": 6,
    "partnerships": True,
    "stock": "short",
    "deck": "standard",
    "must-play-stock": True,
    "target": 300,
}

CASES: dict[str, dict[str, dict[str, Any]]] = {
    "skip-bo": {
        "defaults": {},
        "heavy": HEAVY,
        "series-off": {"series": False},
        "cards-left": {"scoring": "cards-left"},
        "cards-left-teams": {"players": 4, "partnerships": True, "scoring": "cards-left"},
        "two-one-card": {"players": 2, "stock": 1, "per-card": 0},
        "no-bonus": {"bonus": 0, "target": 20},
        "youngest": {"first-player": "youngest", "no-wild-start": True},
    },
    "spite-and-malice": {
        "defaults": {},
        "heavy": {"stock": 1, "building-piles": 4, "series": True, "target": 300},
        "series": {"series": True},
        "no-per-card": {"series": True, "per-card": 0},
        "no-bonus": {"series": True, "bonus": 0, "target": 20},
    },
    "skip-bo-board": {
        "defaults": {},
        "four": {"players": 4},
        "one-card": {"stock": 1},
    },
}

MATRIX = [
    pytest.param(game, lang, name, id=f"{game}-{lang}-{name}")
    for game, cases in CASES.items()
    for lang in ("en", "de")
    for name in cases
]


@cache
def booklet(game: str, lang: str, case: str) -> Node:
    options = CASES[game][case]
    html = render_html(resolve(game=game, options=options), paper=A4, lang=language(lang))
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def chapters(root: Node) -> list[Node]:
    """The rules' own sections (the games' Markdown), not the shared cover or colophon."""
    return [
        node
        for node in root.walk()
        if node.tag == "section" and "chapter" in node.attrs.get("class", "").split()
    ]


def title(chapter: Node) -> str:
    return clean(next(n for n in chapter.elements() if n.tag == "h2").text())


def quick_reference(root: Node) -> Node:
    (found,) = [c for c in chapters(root) if title(c) in ("Quick reference", "Kurzübersicht")]
    return found


def meaningful(node: Node) -> list[Node | str]:
    return [c for c in node.children if not (isinstance(c, str) and not c.strip())]


def bold_problems(root: Node) -> list[str]:
    """Every <strong> in the chapters that is not a run-in head, described."""
    problems = []
    for chapter in chapters(root):
        for strong in (n for n in chapter.walk() if n.tag == "strong"):
            head = clean(strong.text())
            parent = strong.parent
            assert parent is not None
            where = f"{title(chapter)!r}: <strong>{head}</strong>"
            if parent.tag not in ("p", "li"):
                problems.append(f"{where} sits in <{parent.tag}>, not at a paragraph's start")
                continue
            if meaningful(parent)[0] is not strong:
                before = clean(parent.text()).split(head)[0]
                problems.append(f"{where} in mid-paragraph, after {before[-40:]!r}")
                continue
            if not head.endswith((".", "?")):
                problems.append(f"{where} does not end in a period or question mark")
            after = clean(
                "".join(
                    c if isinstance(c, str) else c.text()
                    for c in parent.children[parent.children.index(strong) + 1 :]
                )
            )
            if after and not (after[0].isupper() or after[0].isdigit()):
                problems.append(f"{where} is followed by {after[:30]!r}, not a capital")
    return problems


@pytest.mark.parametrize(("game", "lang", "case"), MATRIX)
def test_bold_is_only_a_run_in_head(game: str, lang: str, case: str) -> None:
    """Bold + period inside the bold (or "?"), first in its paragraph; nothing else is bold."""
    assert bold_problems(booklet(game, lang, case)) == []


# The quick reference's heads, in the one order the three games share; each game uses the
# slots it has. A head not listed here is a new kind of line, to be placed in the order.
SLOTS = [
    "aim",
    "deck",
    "deal",
    "start",
    "turn",
    "building",
    "discard",
    "wild",
    "moving",
    "special",
    "empty",
    "penalties",
    "winning",
    "points",
    "choices",
]

HEADS: dict[tuple[str, str], dict[str, str]] = {
    ("skip-bo", "en"): {
        "Players.": "aim",
        "Standard cards.": "deck",
        "Deal.": "deal",
        "Who starts.": "start",
        "Each turn.": "turn",
        "Building piles.": "building",
        "Discard piles.": "discard",
        "Skip-Bo cards.": "wild",
        "Kings and jokers.": "wild",
        "Penalties.": "penalties",
        "Winning.": "winning",
        "Points.": "points",
        "Series.": "points",
        "This table's choices.": "choices",
    },
    ("skip-bo", "de"): {
        "Spieler.": "aim",
        "Normale Spielkarten.": "deck",
        "Austeilen.": "deal",
        "Wer beginnt.": "start",
        "Jeder Zug.": "turn",
        "Ablagestapel.": "building",
        "Hilfsstapel.": "discard",
        "SKIP-BO-Karten.": "wild",
        "Könige und Joker.": "wild",
        "Strafen.": "penalties",
        "Sieg.": "winning",
        "Punkte.": "points",
        "Serie.": "points",
        "Was dieser Tisch gewählt hat.": "choices",
    },
    ("spite-and-malice", "en"): {
        "Players.": "aim",
        "Deck.": "deck",
        "Deal.": "deal",
        "Who starts.": "start",
        "Each turn.": "turn",
        "Centre stacks.": "building",
        "Side stacks.": "discard",
        "Kings.": "wild",
        "Empty stock.": "empty",
        "Winning.": "winning",
        "Points.": "points",
    },
    ("spite-and-malice", "de"): {
        "Spieler.": "aim",
        "Karten.": "deck",
        "Geben.": "deal",
        "Wer beginnt.": "start",
        "Jeder Zug.": "turn",
        "Ablagestapel.": "building",
        "Hilfsstapel.": "discard",
        "Könige.": "wild",
        "Leerer Kartenstock.": "empty",
        "Sieg.": "winning",
        "Punkte.": "points",
    },
    ("skip-bo-board", "en"): {
        "Players.": "aim",
        "Box.": "deck",
        "Deal.": "deal",
        "Who starts.": "start",
        "Each turn.": "turn",
        "Discard piles.": "building",
        "Moving.": "moving",
        "Special spaces.": "special",
        "Empty draw pile.": "empty",
        "Winning.": "winning",
    },
    ("skip-bo-board", "de"): {
        "Spieler.": "aim",
        "Schachtel.": "deck",
        "Aufbau.": "deal",
        "Wer beginnt.": "start",
        "Jeder Zug.": "turn",
        "Ablagestapel.": "building",
        "Figuren bewegen.": "moving",
        "Sonderfelder.": "special",
        "Leerer Kartenstock.": "empty",
        "Sieg.": "winning",
    },
}

# What every game's quick reference holds, whatever the toggles.
ALWAYS = {"aim", "deal", "start", "turn", "building"}


def quick_heads(root: Node) -> list[str]:
    """The quick reference's heads in order; asserts its one form on the way."""
    chapter = quick_reference(root)
    body = [n for n in meaningful(chapter) if not (isinstance(n, Node) and n.tag == "h2")]
    assert not [n for n in chapter.walk() if n.tag in ("table", "ul")], "a table or bullets"
    assert all(isinstance(n, Node) for n in body), f"loose text: {body}"
    blocks = [n for n in body if isinstance(n, Node)]
    # Its last line is the key to the daggers that mark the booklet's own suggestions
    # (print review 12), and no head.
    assert blocks and clean(blocks[-1].text()).startswith("† "), "no key line"
    blocks = blocks[:-1]
    assert {n.tag for n in blocks} <= {"p", "ol"}, [n.tag for n in blocks]
    lists = [i for i, n in enumerate(blocks) if n.tag == "ol"]
    assert len(lists) <= 1
    heads = []
    for index, block in enumerate(blocks):
        text = clean(block.text())
        if block.tag == "ol":
            assert index > 0 and clean(blocks[index - 1].text()) in ("Each turn.", "Jeder Zug.")
            for step in (n for n in block.elements() if n.tag == "li"):
                assert clean(step.text()).endswith("."), step.text()
                assert clean(step.text())[0].isupper(), step.text()
            continue
        first = meaningful(block)[0]
        assert isinstance(first, Node) and first.tag == "strong", text
        heads.append(clean(first.text()))
        assert text.removesuffix("†").endswith("."), text
    return heads


@pytest.mark.parametrize(("game", "lang", "case"), MATRIX)
def test_the_quick_reference_is_run_in_paragraphs_in_the_shared_order(
    game: str, lang: str, case: str
) -> None:
    heads = quick_heads(booklet(game, lang, case))
    known = HEADS[(game, lang)]
    assert [h for h in heads if h not in known] == []
    slots = [SLOTS.index(known[h]) for h in heads]
    assert slots == sorted(set(slots)), heads
    assert {known[h] for h in heads} >= ALWAYS, heads
    steps = [n for n in quick_reference(booklet(game, lang, case)).walk() if n.tag == "ol"]
    assert len(steps) == 1, "the turn's steps are one numbered list in every game"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_three_games_share_one_set_of_words_for_shared_heads(lang: str) -> None:
    """The same idea has the same head in every game ("Who starts.", never "First turn")."""
    shared = {"start", "turn", "winning", "points"}
    for slot in shared:
        words = {
            head
            for (game, head_lang), heads in HEADS.items()
            if head_lang == lang
            for head, named in heads.items()
            if named == slot
        }
        assert len(words) <= 2 and len({w for w in words if w not in ("Series.", "Serie.")}) == 1, (
            slot,
            words,
        )


@pytest.mark.parametrize(
    ("game", "lang", "case", "head"),
    [
        ("skip-bo", "en", "heavy", "Standard cards."),
        ("skip-bo", "en", "heavy", "Kings and jokers."),
        ("skip-bo", "de", "heavy", "Normale Spielkarten."),
        ("skip-bo", "en", "cards-left", "Series."),
        ("skip-bo", "de", "cards-left-teams", "Serie."),
        ("skip-bo", "en", "youngest", "This table's choices."),
        ("skip-bo", "de", "heavy", "Was dieser Tisch gewählt hat."),
        ("spite-and-malice", "en", "series", "Points."),
        ("spite-and-malice", "de", "no-bonus", "Punkte."),
    ],
)
def test_a_head_that_depends_on_a_toggle_appears_under_it(
    game: str, lang: str, case: str, head: str
) -> None:
    assert head in quick_heads(booklet(game, lang, case))
    assert head not in quick_heads(booklet(game, lang, "defaults"))


@pytest.mark.parametrize(
    ("game", "lang", "case", "sentence"),
    [
        ("skip-bo", "en", "heavy", "This table's choices. All five are listed on the cover."),
        (
            "skip-bo",
            "de",
            "heavy",
            "Was dieser Tisch gewählt hat. Siehe die Titelseite (fünf Einträge).",
        ),
        ("skip-bo", "en", "series-off", "Penalties. Extra cards drawn go into your own"),
        ("spite-and-malice", "en", "heavy", "On a tie, the player who did not deal starts"),
        ("spite-and-malice", "en", "defaults", "On a tie, both reshuffle and turn up a new card."),
        ("spite-and-malice", "de", "heavy", "höchstens vier liegen zugleich aus."),
        ("skip-bo-board", "en", "one-card", "With a one-card played deck, the draw pile space is"),
        ("skip-bo-board", "de", "defaults", "Auf dem Kartenstock-Feld darfst du einmal pro Zug"),
    ],
)
def test_the_quick_reference_keeps_each_toggles_fact(
    game: str, lang: str, case: str, sentence: str
) -> None:
    assert sentence in clean(quick_reference(booklet(game, lang, case)).text())


def test_the_parser_sees_a_bold_word_in_mid_sentence() -> None:
    """The check itself: a stressed word, a colon head and a bold cell are all reported."""
    builder = TreeBuilder()
    builder.feed(
        '<section class="chapter"><h2>X</h2><p>You may have <strong>up to four</strong>.</p>'
        "<ul><li><strong>Hand</strong>: up to five.</li></ul>"
        "<table><tr><td><strong>1–4</strong></td></tr></table></section>"
    )
    problems = bold_problems(builder.root)
    assert len(problems) == 4, problems
    assert "mid-paragraph" in problems[0]
    assert "period" in problems[1] and "not a capital" in problems[2]
    assert "<td>" in problems[3]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(
    "options",
    [{"players": 6, "partnerships": True, "target": 300}, {"players": 4, "partnerships": True}],
    ids=["teams-own-target", "teams"],
)
def test_the_scoring_tables_lead_in_is_one_short_sentence(
    lang: str, options: dict[str, Any]
) -> None:
    """With teams, the line kept with the scoring table is one sentence; what the scoring
    is, and where this booklet suggests it for teams, is a paragraph of its own that may
    end a page (print review 15: a four-line lead-in kept with the table left "Wertung" and
    two lines at a page's foot over a sixth of white). Alone, one short paragraph says
    both, kept whole with its heading and the table (print review 16: "Scoring" and one
    line of it alone at a page's foot)."""
    html = render_html(
        resolve(game="skip-bo", options={"series": True, **options}), paper=A4, lang=language(lang)
    )
    heads = {"en": "<th>For</th>", "de": "<th>Wofür</th>"}[lang]
    before = html[: html.index(heads)]
    lead_in = re.findall(r"<p class=\"lead-in\">(.*?)</p>", before, re.S)[-1]
    text = re.sub(r"<[^>]+>", "", lead_in)
    assert text.endswith(":") and len(re.findall(r"[.!?](?:\s|$)", text)) == 0, text
    assert len(text) < 60, text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_alone_the_scoring_heading_leads_straight_into_its_table(lang: str) -> None:
    """Without teams, the paragraph under "Scoring" is the table's lead-in itself, so the
    heading, it and the table move as one (print review 16: "Scoring" and the line "This
    is the published points game." alone at a page's foot, the table over the page)."""
    html = render_html(
        resolve(game="skip-bo", options={"series": True}), paper=A4, lang=language(lang)
    )
    heading = {"en": ">Scoring</h2>", "de": ">Wertung</h2>"}[lang]
    after = html[html.index(heading) + len(heading) :].lstrip()
    assert after.startswith('<p class="lead-in">'), after[:80]
    assert after.index("<table>") < after.index("</p>") + 10
