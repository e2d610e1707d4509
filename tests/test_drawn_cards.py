"""Drawn cards and pictures (issue 31, item 6), read back from the SVG a booklet carries.

Every corner index is measured as the reader sees it: its font size, its text and the
bundled DejaVu Sans's own advance widths (reportlab's ``stringWidth``), placed by its
``text-anchor`` and its card's ``translate``, and held against its card's edge, a wild
card's inner frame and the edge of the card lying on it. Playing cards carry suits the
bundled font can print; a hand shows the game's hand; nothing is told apart by a colour
that prints as the same grey as another; and every picture keeps one style.
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from functools import cache
from typing import Any, NamedTuple

import pytest
import tinycss2
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from sheetgen import fonts
from sheetgen.booklet.build import render_html
from sheetgen.booklet.html import booklet_environment
from sheetgen.booklet.pictures import check_picture
from sheetgen.booklet.templating import render_template
from sheetgen.errors import GameDefinitionError
from sheetgen.game.definition import load_game
from sheetgen.game.examples import (
    INDEX_SIZE,
    MAX_WIDTH,
    POINTS_PER_UNIT,
    SUITS,
    DrawnExample,
    lay_out,
    load_examples,
)
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

SVG = "{http://www.w3.org/2000/svg}"
SUIT_SIGNS = frozenset(SUITS.values())
SMALLEST_PT = 7.0
# Where a booklet sets a table picture smallest: 100% of the folded half-letter booklet's
# 4.5 in column, and at most 5.6 in tall (templates/booklet.css, .picture svg).
NARROWEST_COLUMN_PT = 4.5 * 72
TALLEST_PICTURE_PT = 5.6 * 72
# Two fills whose greys (CIE L*, 0 black to 100 white) are closer than this print as one.
SAME_GREY = 15.0
GAMES_WITH_CARDS = [
    ("skip-bo", "skip-bo"),
    ("skip-bo", "standard"),
    ("spite-and-malice", "standard"),
]
LANGS = ["en", "de"]


# ---------------------------------------------------------------- rendering, once each


@cache
def booklet(game: str, lang: str, options: tuple[tuple[str, Any], ...] = ()) -> str:
    return render_html(resolve(game=game, options=dict(options)), paper=A4, lang=language(lang))


def card_figures(game: str, lang: str, **options: Any) -> list[str]:
    if "deck" in options and "deck" not in load_game(game).toggle_defs:
        assert options.pop("deck") == "standard"  # the game's only deck
    html = booklet(game, lang, tuple(sorted(options.items())))
    return re.findall(r'<figure class="cards[^"]*">.*?(<svg\b.*?</svg>)', html, flags=re.S)


def table_picture(game: str, lang: str, **options: Any) -> str:
    html = booklet(game, lang, tuple(sorted(options.items())))
    found = re.search(r'<figure class="picture[^"]*">.*?(<svg\b.*?</svg>)', html, flags=re.S)
    assert found, f"{game}: no table picture"
    return found.group(1)


def drawn(example: DrawnExample, game: str = "skip-bo") -> str:
    """The SVG of a laid-out example, through the booklet's own template and check."""
    env = booklet_environment(load_game(game))
    return check_picture(render_template(env, "cards.svg.j2", {"example": example}), "test")


def example(piles: list[dict[str, Any]], faces: dict[str, Any], **given: Any) -> DrawnExample:
    return lay_out(piles, faces, after="x.md", alt="Cards: a test.", caption="A test.", **given)


# ---------------------------------------------------------------- reading an SVG back


Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (
        a * p + c * q,
        b * p + d * q,
        a * r + c * s,
        b * r + d * s,
        a * t + c * u + e,
        b * t + d * u + f,
    )


def parse_transform(text: str) -> Matrix:
    matrix = IDENTITY
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text):
        values = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if name == "translate":
            step: Matrix = (1, 0, 0, 1, values[0], values[1] if len(values) > 1 else 0)
        elif name == "scale":
            step = (values[0], 0, 0, values[-1], 0, 0)
        elif name == "rotate":
            angle = math.radians(values[0])
            cos, sin = math.cos(angle), math.sin(angle)
            step = (cos, sin, -sin, cos, 0, 0)
            if len(values) == 3:
                cx, cy = values[1], values[2]
                step = multiply(multiply((1, 0, 0, 1, cx, cy), step), (1, 0, 0, 1, -cx, -cy))
        elif name == "matrix":
            step = tuple(values)  # type: ignore[assignment]
        else:
            raise AssertionError(f"unknown transform {name}")
        matrix = multiply(matrix, step)
    return matrix


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


class Box(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float

    def inside(self, other: Box, clear: float) -> bool:
        return (
            self.x0 >= other.x0 + clear
            and self.y0 >= other.y0 + clear
            and self.x1 <= other.x1 - clear
            and self.y1 <= other.y1 - clear
        )

    def apart(self, other: Box, clear: float) -> bool:
        return (
            self.x1 + clear <= other.x0
            or other.x1 + clear <= self.x0
            or self.y1 + clear <= other.y0
            or other.y1 + clear <= self.y0
        )

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)


def mapped(m: Matrix, box: Box) -> Box:
    corners = [apply(m, x, y) for x in (box.x0, box.x1) for y in (box.y0, box.y1)]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return Box(min(xs), min(ys), max(xs), max(ys))


class Drawn(NamedTuple):
    """One element as drawn: its tag, its own attributes, its computed style, and the
    transform from its coordinates to the picture's."""

    element: ElementTree.Element
    style: dict[str, str]
    matrix: Matrix

    @property
    def tag(self) -> str:
        return self.element.tag.removeprefix(SVG)

    def number(self, name: str, default: float = 0.0) -> float:
        value = self.element.get(name, self.style.get(name))
        return default if value is None else float(re.match(r"-?[\d.]+", value).group(0))  # type: ignore[union-attr]


INHERITED = (
    "font-size",
    "font-family",
    "font-weight",
    "text-anchor",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
)
NOT_DRAWN = ("defs", "pattern", "marker", "clipPath", "mask", "symbol", "title", "desc", "style")


def class_rules(root: ElementTree.Element) -> dict[str, dict[str, str]]:
    rules: dict[str, dict[str, str]] = {}
    for style in root.iter(SVG + "style"):
        for rule in tinycss2.parse_stylesheet(style.text or "", True, True):
            if rule.type != "qualified-rule":
                continue
            found = tinycss2.parse_declaration_list(rule.content, True, True)
            declared = {
                d.lower_name: tinycss2.serialize(d.value).strip()
                for d in found
                if d.type == "declaration"
            }
            for selector in tinycss2.serialize(rule.prelude).split(","):
                rules.setdefault(selector.strip(), {}).update(declared)
    return rules


def elements(svg: str) -> list[Drawn]:
    """Every drawn element of ``svg`` (nothing inside defs, patterns or markers), in
    document order, with the style it inherits, its classes' and its own."""
    root = ElementTree.fromstring(svg)
    rules = class_rules(root)
    found: list[Drawn] = []

    def walk(element: ElementTree.Element, inherited: dict[str, str], matrix: Matrix) -> None:
        if element.tag.removeprefix(SVG) in NOT_DRAWN:
            return
        style = dict(inherited)
        for name in (element.get("class") or "").split():
            style.update(rules.get(f".{name}", {}))
        style.update({name: element.get(name) for name in INHERITED if element.get(name)})  # type: ignore[misc]
        for d in tinycss2.parse_declaration_list(element.get("style") or "", True, True):
            if d.type == "declaration":
                style[d.lower_name] = tinycss2.serialize(d.value).strip()
        matrix = multiply(matrix, parse_transform(element.get("transform", "")))
        found.append(Drawn(element, style, matrix))
        for child in element:
            walk(child, style, matrix)

    walk(
        root, {"fill": "black", "stroke": "none", "stroke-width": "1", "font-size": "16"}, IDENTITY
    )
    return found


@cache
def extent() -> tuple[float, float]:
    fonts.register()
    face = getFont(fonts.BOLD).face
    return face.ascent / 1000, -face.descent / 1000


def text_of(item: Drawn) -> str:
    return "".join(item.element.itertext())


def text_box(item: Drawn) -> Box:
    """Where a text's glyphs may reach, in the picture: as wide as its advance widths in
    the bundled DejaVu Sans at its size, from its font's ascent down to its descent."""
    fonts.register()
    size = item.number("font-size")
    bold = item.style.get("font-weight") in ("bold", "700")
    width = stringWidth(text_of(item), fonts.BOLD if bold else fonts.REGULAR, size)
    x, y = item.number("x"), item.number("y")
    anchor = item.style.get("text-anchor", "start")
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    ascent, descent = extent()
    return mapped(item.matrix, Box(left, y - ascent * size, left + width, y + descent * size))


def rect_box(item: Drawn) -> Box:
    x, y = item.number("x"), item.number("y")
    return mapped(item.matrix, Box(x, y, x + item.number("width"), y + item.number("height")))


# ---------------------------------------------------------------- the cards of a figure


class Card(NamedTuple):
    edge: Box  # the card's outline, down the middle of its stroke
    stroke: float
    frame: Box | None  # a wild card's inner frame, down the middle of its stroke
    frame_stroke: float
    index: list[tuple[str, Box, float]]  # each corner word, its box and its size
    face: list[tuple[str, Box, float]]


def cards_of(svg: str) -> list[Card]:
    """The cards of a drawn example, in the order they are drawn (each lies on those
    before it)."""
    cards: list[Card] = []
    for item in elements(svg):
        kinds = (item.element.get("class") or "").split()
        if item.tag == "rect" and "edge" in kinds:
            cards.append(Card(rect_box(item), item.number("stroke-width"), None, 0.0, [], []))
        elif item.tag == "rect" and "wild" in kinds:
            cards[-1] = cards[-1]._replace(
                frame=rect_box(item), frame_stroke=item.number("stroke-width")
            )
        elif item.tag == "text" and ("index" in kinds or "face" in kinds):
            words = cards[-1].index if "index" in kinds else cards[-1].face
            words.append((text_of(item), text_box(item), item.number("font-size")))
    return cards


def corner_problems(svg: str) -> list[str]:
    """Every place a card's words touch or cross a line: its own edge, its inner frame,
    or the edge of a card drawn over it."""
    problems = []
    cards = cards_of(svg)
    for number, card in enumerate(cards):
        inner = card.edge.grown(-card.stroke / 2)
        for word, box, _ in card.index + card.face:
            if not box.inside(inner, clear=1.0):
                problems.append(f"card {number}: {word!r} {box} touches its edge {inner}")
        if card.frame is not None:
            band = card.frame.grown(card.frame_stroke / 2)
            for word, box, _ in card.index:
                if not box.apart(band, clear=1.0):
                    problems.append(f"card {number}: index {word!r} touches its wild frame")
            for word, box, _ in card.face:
                if not box.inside(card.frame.grown(-card.frame_stroke / 2), clear=0.5):
                    problems.append(f"card {number}: face {word!r} crosses its wild frame")
        for later in cards[number + 1 :]:
            over = later.edge.grown(later.stroke / 2)
            if over.apart(card.edge, clear=0.0):
                continue  # another pile
            for word, box, _ in card.index:
                if not box.apart(over, clear=1.5):
                    problems.append(f"card {number}: index {word!r} runs under the card on it")
            if card.face and not over.apart(card.edge, clear=0.0):
                problems.append(f"card {number}: a covered card shows its face")
    return problems


def label_problems(svg: str) -> list[str]:
    """Labels that run into each other, into a card, or off the picture."""
    items = elements(svg)
    width, height = (float(v) for v in items[0].element.get("viewBox", "").split()[2:])
    picture = Box(0, 0, width, height)
    labels = [(text_of(i), text_box(i)) for i in items if i.element.get("class") == "label"]
    edges = [rect_box(i) for i in items if i.element.get("class") == "edge"]
    problems = [
        f"{word!r} leaves the picture" for word, box in labels if not box.inside(picture, 1.0)
    ]
    for index, (word, box) in enumerate(labels):
        problems += [
            f"{word!r} runs into {other!r}"
            for other, near in labels[index + 1 :]
            if not box.apart(near, 6.0)
        ]
        problems += [f"{word!r} runs into a card" for edge in edges if not box.apart(edge, 2.0)]
    return problems


def every_value_faces() -> list[tuple[str, dict[str, Any]]]:
    """The faces of every deck the games draw, the shipped ones and those the data may
    choose (a joker cornered "JK" or with a star), English and German."""
    standard = {"names": {"1": "A", "11": "J", "12": "Q"}, "suits": True}
    return [
        (
            "skip-bo deck",
            {
                "wild": {"face": ["SKIP-", "BO"], "corner": "SB"},
                "wild2": {"face": ["SKIP-", "BO"], "corner": "SB"},
            },
        ),
        (
            "board game's cards",
            {
                "wild": {"face": ["SKIP-", "BO"], "corner": "SB"},
                "wild2": {"face": ["SKIP-", "BO"], "corner": "SB"},
            },
        ),
        (
            "standard, joker JK",
            {
                **standard,
                "wild": {"face": ["K"], "corner": "K", "suit": "clubs"},
                "wild2": {"face": ["JOKER"], "corner": "JK"},
            },
        ),
        (
            "standard, joker star",
            {
                **standard,
                "wild": {"face": ["K"], "corner": "K", "suit": "spades"},
                "wild2": {"face": ["JOKER"], "corner": "\N{BLACK STAR}"},
            },
        ),
        (
            "standard, German",
            {
                **standard,
                "names": {"1": "A", "11": "B", "12": "D"},
                "wild": {"face": ["K"], "corner": "K", "suit": "hearts"},
                "wild2": {"face": ["JOKER"], "corner": "\N{BLACK STAR}"},
            },
        ),
        (
            "standard, no suits",
            {
                "names": {"1": "A", "11": "J", "12": "Q"},
                "wild": {"face": ["K"], "corner": "K"},
                "wild2": {"face": ["JOKER"], "corner": "JK"},
            },
        ),
    ]


# ---------------------------------------------------------------- corner indices


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "deck"), GAMES_WITH_CARDS)
def test_no_drawn_word_touches_a_frame_in_the_booklets(game: str, deck: str, lang: str) -> None:
    figures = card_figures(game, lang, deck=deck)
    assert len(figures) == 3
    for svg in figures:
        cards = cards_of(svg)
        assert len(cards) >= 6 and all(card.index for card in cards)
        assert corner_problems(svg) == []
        assert (
            min(size for card in cards for _, _, size in card.index + card.face) * POINTS_PER_UNIT
            >= SMALLEST_PT
        )


@pytest.mark.parametrize(
    ("name", "faces"), every_value_faces(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_value_of_every_deck_keeps_its_corner_clear(name: str, faces: dict[str, Any]) -> None:
    values: list[Any] = [*range(1, 13), "wild", "wild2"]
    piles = [
        {"cards": values, "label": ["up"]},
        {"cards": values[::-1], "label": ["down"]},
    ]
    svg = drawn(example(piles[:1], faces)) + drawn(example(piles[1:], faces))
    for part in re.findall(r"<svg\b.*?</svg>", svg, flags=re.S):
        assert corner_problems(part) == [], name
        cards = cards_of(part)
        assert len(cards) == 14
        # Every index at full size (7 pt): the shipped corners fit without shrinking.
        assert {size for card in cards for _, _, size in card.index} == {INDEX_SIZE}
    # Each value's index is drawn on its card (and a "10" is not read as "10J": the
    # card on it starts after the index ends, as corner_problems proved).
    corners = [card.index[0][0] for card in cards_of(drawn(example(piles[:1], faces)))]
    names = faces.get("names", {})
    assert corners[:12] == [names.get(str(v), str(v)) for v in range(1, 13)]


def test_a_corner_too_wide_is_set_smaller_and_still_stays_clear() -> None:
    faces = {"wild": {"face": ["JOKER"], "corner": "JOKER"}}
    svg = drawn(example([{"cards": ["wild", 10, "wild"]}], faces))
    assert corner_problems(svg) == []
    sizes = [size for card in cards_of(svg) for word, _, size in card.index if word == "JOKER"]
    assert sizes and max(sizes) < INDEX_SIZE  # too wide at 7 pt: smaller, never over a line


def test_the_checker_sees_an_index_under_the_next_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """The measuring can fail: fanned as closely as the old drawing (24 units), the card
    on a 10 covers the end of its index (read as "10J", "109")."""
    monkeypatch.setattr("sheetgen.game.examples.FAN", 24)
    svg = drawn(example([{"cards": [10, 9]}], {}))
    assert corner_problems(svg) == ["card 0: index '10' runs under the card on it"]


def test_labels_wider_than_their_cards_keep_clear_of_each_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    piles = [
        {"cards": [3], "label": ["a building pile, long"]},
        {"cards": [3, 4], "label": ["and another long label"]},
        {"cards": [5], "arrow": True, "label": ["a third label as long"]},
    ]
    laid = example(piles, {})
    assert label_problems(drawn(laid)) == []
    assert laid.width <= MAX_WIDTH
    monkeypatch.setattr("sheetgen.game.examples.LABEL_SPACE", -60)
    assert "'a building pile, long' runs into 'and another long label'" in label_problems(
        drawn(example(piles, {}))
    )


# ---------------------------------------------------------------- suits


def test_the_bundled_font_prints_every_suit_and_the_joker_star() -> None:
    fonts.register()
    for face in (fonts.REGULAR, fonts.BOLD):
        glyphs = getFont(face).face.charToGlyph
        for sign in [*SUITS.values(), "\N{BLACK STAR}"]:
            assert ord(sign) in glyphs, (face, sign)
    assert fonts.check_printable([*SUITS.values(), "\N{BLACK STAR}"], "cards").chosen == ()


def test_a_deck_of_playing_cards_shows_suits_in_the_corner_and_the_middle() -> None:
    faces = {
        "names": {"1": "A", "11": "J", "12": "Q"},
        "suits": True,
        "wild": {"face": ["K"], "corner": "K", "suit": "clubs"},
        "wild2": {"face": ["JOKER"], "corner": "\N{BLACK STAR}"},
    }
    piles = [
        {"cards": [1, {"value": 9, "suit": "hearts"}, "wild", "wild2"]},
        {"cards": [1, {"value": 9, "suit": "hearts"}], "arrow": True},
    ]
    cards = cards_of(drawn(example(piles, faces)))
    assert [[word for word, _, _ in card.index] for card in cards] == [
        ["A", "\N{BLACK SPADE SUIT}"],
        ["9", "\N{BLACK HEART SUIT}"],  # the suit the example names
        ["K", "\N{BLACK CLUB SUIT}"],  # the wild entry's suit
        ["\N{BLACK STAR}"],  # a joker has none
        ["A", "\N{BLACK SPADE SUIT}"],  # the same card, the same suit, in the next pile
        ["9", "\N{BLACK HEART SUIT}"],
    ]
    assert [word for word, _, _ in cards[-1].face] == ["9", "\N{BLACK HEART SUIT}"]
    assert [word for word, _, _ in cards[3].face] == ["JOKER"]
    assert corner_problems(drawn(example(piles, faces))) == []


def test_a_deck_without_suits_shows_none() -> None:
    cards = cards_of(
        drawn(
            example(
                [{"cards": [1, 10, "wild"]}], {"wild": {"face": ["SKIP-", "BO"], "corner": "SB"}}
            )
        )
    )
    assert [[word for word, _, _ in card.index] for card in cards] == [["1"], ["10"], ["SB"]]
    assert [word for word, _, _ in cards[-1].face] == ["SKIP-", "BO"]


def test_a_suit_that_is_none_of_the_four_is_refused() -> None:
    with pytest.raises(GameDefinitionError) as refused:
        example([{"cards": [{"value": 3, "suit": "stars"}]}], {"suits": True})
    assert (
        str(refused.value)
        == "examples.toml: a suit is one of spades, hearts, diamonds, clubs, not 'stars'"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_skip_bo_deck_draws_no_suits(lang: str) -> None:
    for svg in card_figures("skip-bo", lang):
        assert not SUIT_SIGNS & set(svg)


@pytest.mark.parametrize(
    ("game", "lang"), [("spite-and-malice", "en"), ("spite-and-malice", "de"), ("skip-bo", "en")]
)
def test_playing_cards_in_the_booklets_carry_suits(game: str, lang: str) -> None:
    for svg in card_figures(game, lang, deck="standard"):
        for card in cards_of(svg):
            corner = [word for word, _, _ in card.index]
            if corner[0] != "\N{BLACK STAR}":  # a joker has no suit
                assert len(corner) == 2 and corner[1] in SUIT_SIGNS, corner


# ---------------------------------------------------------------- hands


def test_a_hand_is_drawn_with_the_games_hand() -> None:
    five = example([{"cards": [3, 7, 9, 11, 12], "hand": True, "label": ["your hand"]}], {}, hand=5)
    (pile,) = five.piles
    assert pile.hand and len(pile.cards) == 5
    assert corner_problems(drawn(five)) == []
    assert five.width <= MAX_WIDTH
    with pytest.raises(GameDefinitionError) as refused:
        example([{"cards": [3, 9, 11], "hand": True}], {}, hand=5)
    assert str(refused.value) == (
        "examples.toml, the example after x.md, pile 1: a hand is drawn with the game's 5 cards, not 3"
    )
    # A pile that is not a hand, or a layout not told the game's hand, is drawn as given.
    assert len(example([{"cards": [3, 9, 11]}], {}, hand=5).piles[0].cards) == 3
    assert len(example([{"cards": [3, 9, 11], "hand": True}], {}).piles[0].cards) == 3


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice"])
def test_every_hand_in_the_examples_is_the_games_whole_hand(game: str) -> None:
    hand = load_game(game).hand
    data = load_examples(load_game(game).folder)
    hands = [
        pile
        for ex in data["examples"]
        for pile in ex["piles"]
        if re.match(r"your hand\b", " ".join(pile.get("label", [])))  # the hand itself
    ]
    assert hands
    for pile in hands:
        assert pile.get("hand") is True and len(pile["cards"]) == hand, pile


# ---------------------------------------------------------------- black and white


def lightness(colour: str) -> float | None:
    """The CIE L* a fill prints at in grey, or None for no fill or a pattern."""
    colour = colour.strip().lower()
    named = {"white": "#ffffff", "black": "#000000"}
    colour = named.get(colour, colour)
    if colour in ("none", "transparent") or colour.startswith("url("):
        return None
    if re.fullmatch(r"#[0-9a-f]{3}", colour):
        colour = "#" + "".join(c * 2 for c in colour[1:])
    found = re.fullmatch(r"#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})", colour)
    assert found, f"a fill sheetgen cannot read: {colour}"
    linear = [
        (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
        for c in (int(part, 16) / 255 for part in found.groups())
    ]
    y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y


class Filled(NamedTuple):
    tag: str
    colour: str
    grey: float
    box: Box
    words: frozenset[str]
    outline: tuple[float, str]


def filled_shapes(svg: str) -> list[Filled]:
    """Every shape filled with a plain colour, with the words written inside it and its
    outline (stroke width and dashes)."""
    drawn_ = elements(svg)
    texts = [
        (text_of(item).strip(), apply(item.matrix, item.number("x"), item.number("y")))
        for item in drawn_
        if item.tag == "text"
    ]
    shapes = []
    for item in drawn_:
        if item.tag == "rect":
            box = rect_box(item)
        elif item.tag == "circle":
            r, cx, cy = item.number("r"), item.number("cx"), item.number("cy")
            box = mapped(item.matrix, Box(cx - r, cy - r, cx + r, cy + r))
        else:
            continue
        grey = lightness(item.style.get("fill", "black"))
        if grey is None:
            continue
        words = frozenset(
            word for word, (x, y) in texts if box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1
        )
        stroked = item.style.get("stroke", "none") != "none"
        outline = (
            item.number("stroke-width", 1.0) if stroked else 0.0,
            item.style.get("stroke-dasharray", "none"),
        )
        shapes.append(Filled(item.tag, item.style["fill"].lower(), grey, box, words, outline))
    return shapes


def grey_clashes(svg: str) -> tuple[list[str], int]:
    """Pairs of like shapes (of one kind and about one size) of different colours that
    print as one grey and carry neither different words nor a different outline; and how
    many pairs of different colours and one grey were weighed."""
    shapes = filled_shapes(svg)
    clashes, weighed = [], 0
    for index, one in enumerate(shapes):
        for other in shapes[index + 1 :]:
            if one.colour == other.colour or abs(one.grey - other.grey) >= SAME_GREY:
                continue
            weighed += 1
            told_by_form = one.tag != other.tag or not (
                0.8 <= (one.box.x1 - one.box.x0) / (other.box.x1 - other.box.x0) <= 1.25
                and 0.8 <= (one.box.y1 - one.box.y0) / (other.box.y1 - other.box.y0) <= 1.25
            )
            told_by_words = bool(one.words) and bool(other.words) and one.words != other.words
            widths = sorted((one.outline[0], other.outline[0]))
            told_by_outline = (
                one.outline[1] != other.outline[1] or widths[1] >= 1.5 * widths[0] + 0.5
            )
            if not (told_by_form or told_by_words or told_by_outline):
                clashes.append(
                    f"{one.colour} {sorted(one.words)} and {other.colour} {sorted(other.words)}"
                )
    return clashes, weighed


PICTURES = [
    ("skip-bo", {}),
    ("skip-bo", {"players": 6}),
    ("skip-bo", {"players": 4, "partnerships": True}),
    ("skip-bo", {"players": 6, "partnerships": True, "stock": 1}),
    ("spite-and-malice", {}),
    ("spite-and-malice", {"stock": 1, "building-piles": 4}),
    ("skip-bo-board", {}),
    ("skip-bo-board", {"players": 4}),
]


def picture_id(value: Any) -> str:
    return (
        value
        if isinstance(value, str)
        else "-".join(f"{k}={v}" for k, v in value.items()) or "official"
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "options"), PICTURES, ids=picture_id)
def test_nothing_is_told_apart_by_a_colour_that_prints_as_the_same_grey(
    game: str, options: dict[str, Any], lang: str
) -> None:
    clashes, weighed = grey_clashes(table_picture(game, lang, **options))
    assert clashes == []
    if game == "skip-bo-board":
        assert weighed >= 10  # the pastel spaces and piles were weighed, and told apart
    for svg in card_figures(game, lang, **options) if game != "skip-bo-board" else []:
        assert grey_clashes(svg) == ([], 0)  # cards are black on white


@pytest.mark.parametrize("lang", LANGS)
def test_the_boards_named_colours_print_as_distinct_greys(lang: str) -> None:
    """Print review 22, finding 5: the board's pink, orange and blue printed as one grey
    (L* 87-89), told apart by their words alone. Now by their greys too."""
    shapes = filled_shapes(table_picture("skip-bo-board", lang))
    tints = {shape.colour: shape.grey for shape in shapes if shape.grey not in (0, 100)}
    assert len(tints) == 3, tints
    for one, other in itertools.combinations(sorted(tints.values()), 2):
        assert other - one >= SAME_GREY, tints


def test_the_grey_check_finds_pastels_told_apart_by_colour_alone() -> None:
    def svg(body: str) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">{body}</svg>'

    pink = '<rect x="0" y="0" width="80" height="80" fill="#f7d0e2" stroke="black"/>'
    orange = '<rect x="100" y="0" width="80" height="80" fill="#fbdcbc" stroke="black"/>'
    assert grey_clashes(svg(pink + orange))[0] == ["#f7d0e2 [] and #fbdcbc []"]
    pink_word = '<text x="40" y="40">pink</text>'
    orange_word = '<text x="140" y="40">orange</text>'
    assert grey_clashes(svg(pink + orange + pink_word + orange_word)) == ([], 1)
    thick = orange.replace('stroke="black"', 'stroke="black" stroke-width="3"')
    assert grey_clashes(svg(pink + thick)) == ([], 1)
    assert grey_clashes(svg(pink + orange.replace('"#fbdcbc"', '"url(#dots)"'))) == ([], 0)


# ---------------------------------------------------------------- one style


def print_scale(svg: str) -> float:
    """Points a unit where the booklet sets the picture smallest."""
    head = svg.split(">", 1)[0]
    printed = re.search(r'\swidth="([\d.]+)pt"', head)
    width, height = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', head).groups())  # type: ignore[union-attr]
    if printed:  # drawn cards: set at their own size in every layout
        assert float(printed.group(1)) <= NARROWEST_COLUMN_PT
        return float(printed.group(1)) / width
    return min(NARROWEST_COLUMN_PT / width, TALLEST_PICTURE_PT / height)


def every_picture() -> Iterator[tuple[str, str, str]]:
    for game, options in PICTURES:
        for lang in LANGS:
            label = f"{game}-{picture_id(options)}-{lang}"
            yield label, "table", table_picture(game, lang, **options)
            if game != "skip-bo-board":
                for number, svg in enumerate(card_figures(game, lang, **options)):
                    yield label, f"cards {number}", svg
    for game, deck in GAMES_WITH_CARDS:
        for number, svg in enumerate(card_figures(game, "en", deck=deck)):
            yield f"{game}-{deck}", f"cards {number}", svg


def test_every_word_of_every_picture_prints_at_7_pt_or_more() -> None:
    small = []
    for label, kind, svg in every_picture():
        scale = print_scale(svg)
        for item in elements(svg):
            if item.tag == "text" and text_of(item).strip():
                size = item.number("font-size") * scale
                if size < SMALLEST_PT - 0.005:
                    small.append(f"{label} {kind}: {text_of(item)!r} at {size:.2f} pt")
    assert small == []


def test_every_card_drawn_has_the_same_corners_and_a_like_edge() -> None:
    """A card (a face-up card, a card's back, a place for one) has corners rounded by 8
    to 11 percent of its width and an edge of 0.35 to 1 pt, in every picture."""
    odd, seen = [], 0
    for label, kind, svg in every_picture():
        scale = print_scale(svg)
        for item in elements(svg):
            if item.tag != "rect":
                continue
            width, height = item.number("width"), item.number("height")
            if not width or not 1.3 <= height / width <= 1.45 or width * scale < 12:
                continue  # not a card, or a legend's small key
            seen += 1
            radius = item.number("rx") / width
            edge = item.number("stroke-width", 1.0) * scale
            if not 0.08 <= radius <= 0.11 or not 0.35 <= edge <= 1.0:
                odd.append(f"{label} {kind}: rx/width {radius:.3f}, edge {edge:.2f} pt")
    assert seen > 100
    assert odd == []


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
def test_every_picture_is_set_in_the_bundled_font(game: str) -> None:
    svgs = [table_picture(game, "en")] + (
        card_figures(game, "en") if game != "skip-bo-board" else []
    )
    for svg in svgs:
        families = {item.style.get("font-family") for item in elements(svg) if item.tag == "text"}
        assert families == {"DejaVu Sans Bundled"}
