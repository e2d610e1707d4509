"""Drawn cards for the booklet's worked examples: read a game's examples.toml, lay out its piles.

A game may ship ``examples.toml`` beside its ``game.toml``: for each deck, the face each
card value shows (``faces``), and the examples, each drawn after one section as a row of
piles, fanned so that every covered card still shows its corner. Values are the game's
own numbers (1 up to the top card) or ``wild`` and ``wild2`` (the deck's wild cards); a
card may also be a table that names its suit, ``{ value = 9, suit = "hearts" }``.
An example with ``before_subsections = true`` follows its section's own text, ahead of
the section's first ``##`` subsection; one with ``with_list = true`` shows the last
items of the list that ends its section, and stays with them over a page turn. A pile
with ``hand = true`` is a player's hand: it shows as many cards as the game's hand holds.

A deck whose faces say ``suits = true`` is a deck of playing cards: each number card
shows a suit under its corner index and its value, the suit the example names or else
one fixed by its value (so that a card keeps its suit from pile to pile). A wild card
shows the suit its entry names (``wild = { face = ["K"], corner = "K", suit = "clubs" }``)
and none without one (a joker).

Every size is set here, in units of half a point, and a drawn example is printed at that
size in every layout: one style for every card of every game. Each word is measured with
the bundled DejaVu Sans's own widths (reportlab's metrics), so that a corner index never
touches its card's edge, a wild card's inner frame or the card that covers it.
"""

from __future__ import annotations

import math
import os
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from sheetgen import fonts
from sheetgen.errors import GameDefinitionError, HouseRulesError
from sheetgen.game.definition import inside_game
from sheetgen.tomlfile import load_toml, read_toml_text

EXAMPLES = "examples.toml"
# Drawn at half a point a unit whatever the page: a 15-unit label prints at 7.5 pt and a
# 14-unit corner index at 7 pt, the smallest word of any picture.
POINTS_PER_UNIT = 0.5
CARD_WIDTH = 62
CARD_HEIGHT = 86
CARD_RADIUS = 6
CARD_STROKE = 1.6
INSET = 4  # the corner index and a wild card's inner frame stand this far inside the edge
INDEX_SIZE = 14
INDEX_ROOM = 22  # the widest corner index drawn at full size ("SB" and "10" are 21 and 20)
CLEAR = 3  # the least room between a corner index and the edge of the card lying on it
# How much of a covered card shows beside the one on it: its corner index, and room.
FAN = math.ceil(INSET + INDEX_ROOM + CLEAR + CARD_STROKE / 2)
FRAME_STROKE = 1.2
FRAME_RADIUS = 3
FACE_GAP = 2  # between the corner index and the face under it
RANK_SIZE = 26  # a value alone on the face ("9", "K")
WORD_SIZE = 14  # the words of a face ("SKIP-", "BO", "JOKER")
WORD_LINE = 17
SUIT_SIZE = 16  # the suit under the value on the face
SUIT_GAP = 5
LABEL_SIZE = 15
LABEL_LINE = 18
LABEL_GAP = 8  # between the cards and their label
PILE_GAP = 16  # between two piles' cards
ARROW_CLEAR = 8  # between an arrow and the cards on either side of it
ARROW_GAP = 32 + 2 * ARROW_CLEAR  # between two piles' cards with an arrow
LABEL_SPACE = 12  # the least room between two piles' labels, which may reach past the cards
MARGIN = 6
# On a screen each pile may be drawn alone, an arrow before its cards this long, and the
# piles set in a row that wraps: at 8 rem a 142-unit example, a unit is 8/142 rem (0.9 px
# at the reader's 16 px), so a 14-unit corner index shows at 12.6 px.
ARROW_LENGTH = ARROW_GAP - 2 * ARROW_CLEAR
SCREEN_REM_PER_UNIT = 8 / 142
# The narrowest column an example is set in: the folded half-letter booklet's 4.5 in. An
# example no wider keeps its printed size (and its words 7 pt or more) in every layout.
MAX_WIDTH = 4.5 * 72 / POINTS_PER_UNIT
SUITS = {
    "spades": "\N{BLACK SPADE SUIT}",
    "hearts": "\N{BLACK HEART SUIT}",
    "diamonds": "\N{BLACK DIAMOND SUIT}",
    "clubs": "\N{BLACK CLUB SUIT}",
}
# The suit of a number card whose example names none, by its value.
DEFAULT_SUITS = ("spades", "hearts", "clubs", "diamonds")
CAP_HEIGHT = 0.729  # DejaVu Sans's capitals and figures stand this high, in em


@cache
def extent() -> tuple[float, float]:
    """How far the bundled font reaches above and below its baseline, in em."""
    from reportlab.pdfbase.pdfmetrics import getFont

    fonts.register()
    face = getFont(fonts.BOLD).face
    return face.ascent / 1000, -face.descent / 1000


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """How wide ``text`` is when set in the bundled DejaVu Sans at ``size`` units."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    fonts.register()
    return float(stringWidth(text, fonts.BOLD if bold else fonts.REGULAR, size))


class Face(NamedTuple):
    """What a card shows: its face line by line, its corner index, whether it is wild,
    and its suit's sign ("" for none)."""

    lines: tuple[str, ...]
    corner: str
    wild: bool
    suit: str = ""


class CardText(NamedTuple):
    """A word on a card: its baseline's start (or middle), its size, and its kind:
    "index" in the corner, "face" in the middle."""

    text: str
    x: float
    y: float
    size: float
    anchor: str
    kind: str


class DrawnCard(NamedTuple):
    """One card as drawn: where its left edge is, what it shows and the words drawn on it
    (on a covered card only its corner), and a wild card's inner frame (x, y, width,
    height), which stays clear of the corner."""

    x: float
    lines: tuple[str, ...]
    corner: str
    wild: bool
    top: bool
    suit: str = ""
    texts: tuple[CardText, ...] = ()
    frame: tuple[float, float, float, float] | None = None


class DrawnPile(NamedTuple):
    """A pile of fanned cards with its label underneath, and an arrow before it if asked."""

    x: float
    width: float
    cards: tuple[DrawnCard, ...]
    label: tuple[str, ...]
    arrow_from: float | None
    hand: bool = False


class PilePicture(NamedTuple):
    """One pile of an example drawn alone (for a screen, where the piles wrap onto lines):
    the pile, how far its drawing moves right (``shift``, added to every x of the example's
    layout), its arrow's start and end if it has one, and its picture's size in units."""

    pile: DrawnPile
    shift: float
    arrow: tuple[float, float] | None
    width: float
    height: float

    @property
    def screen_width(self) -> float:
        """The width to show the picture at on a screen, in rem."""
        return round(self.width * SCREEN_REM_PER_UNIT, 3)

    @property
    def screen_height(self) -> float:
        return round(self.height * SCREEN_REM_PER_UNIT, 3)


class DrawnExample(NamedTuple):
    """A worked example laid out: its piles and the size of its picture."""

    after: str
    alt: str
    caption: str
    piles: tuple[DrawnPile, ...]
    width: float
    height: float

    @property
    def printed_width(self) -> float:
        """The width to set the picture at, in points."""
        return round(self.width * POINTS_PER_UNIT, 1)

    @property
    def printed_height(self) -> float:
        return round(self.height * POINTS_PER_UNIT, 1)

    @property
    def screen_height(self) -> float:
        """The height to show the whole picture at on a screen, in rem."""
        return round(self.height * SCREEN_REM_PER_UNIT, 3)

    def alone(self) -> tuple[PilePicture, ...]:
        """Each pile as a picture of its own, as tall as the example: its cards, its label
        centred under them and its arrow (of ARROW_LENGTH) before them, MARGIN all round."""
        pictures = []
        for pile in self.piles:
            label_width = max((text_width(line, LABEL_SIZE) for line in pile.label), default=0.0)
            spread = (label_width - pile.width) / 2
            room = ARROW_LENGTH + ARROW_CLEAR if pile.arrow_from is not None else 0.0
            left = math.ceil(MARGIN + max(0.0, spread, room))
            arrow = (left - room, left - ARROW_CLEAR) if room else None
            width = math.ceil(left + pile.width + max(0.0, spread) + MARGIN)
            pictures.append(PilePicture(pile, left - pile.x, arrow, width, self.height))
        return tuple(pictures)

    @property
    def style(self) -> dict[str, float]:
        """The sizes every card, label and arrow is drawn with (cards.svg.j2 reads them)."""
        ascent = extent()[0]
        return {
            "card_top": MARGIN,
            "card_width": CARD_WIDTH,
            "card_height": CARD_HEIGHT,
            "card_radius": CARD_RADIUS,
            "card_stroke": CARD_STROKE,
            "frame_stroke": FRAME_STROKE,
            "frame_radius": FRAME_RADIUS,
            "arrow_y": MARGIN + CARD_HEIGHT / 2,
            "arrow_clear": ARROW_CLEAR,
            "label_size": LABEL_SIZE,
            "label_y": round(MARGIN + CARD_HEIGHT + LABEL_GAP + ascent * LABEL_SIZE + 2, 1),
            "label_line": LABEL_LINE,
        }


def _read(path: Path, within: Path | None = None) -> dict[str, Any]:
    try:
        return load_toml(read_toml_text(path, within))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise HouseRulesError(f"{path}: cannot read the drawn examples ({exc})") from exc


def _own(folder: Path, path: Path) -> Path:
    """``path``, a file of the game in ``folder``, refused if it lies outside the folder."""
    if os.path.lexists(path):
        inside_game(folder, str(path.relative_to(folder)), file=folder)
    return path


def load_examples(folder: Path, language: Path | None = None) -> dict[str, Any]:
    """The game's examples.toml as read, or no examples when the game has none.

    ``language`` is the game's folder of another language: the words of its
    examples.toml (each example's ``caption``, ``alt`` and ``labels``, one list of
    lines per pile, in the English order; and optionally ``faces``) replace the
    English ones; the cards and where each example goes stay the English file's.
    """
    path = _own(folder, folder / EXAMPLES)
    if not path.is_file():
        return {"faces": {}, "examples": []}
    data = _read(path, folder.resolve())
    if language is None:
        return data
    words = _read(_own(folder, language / EXAMPLES), folder.resolve())
    examples = []
    for example, said in zip(data.get("examples", []), words.get("examples", []), strict=False):
        labels = said.get("labels", [])
        piles = [
            {**pile, "label": labels[index] if index < len(labels) else pile.get("label", [])}
            for index, pile in enumerate(example["piles"])
        ]
        examples.append({**example, "caption": said["caption"], "alt": said["alt"], "piles": piles})
    faces = {
        deck: {**shown, **words.get("faces", {}).get(deck, {})}
        for deck, shown in data.get("faces", {}).items()
    }
    return {**data, "faces": faces, "examples": examples}


def example_problems(folder: Path, language: Path) -> list[str]:
    """What the examples.toml in ``language`` lacks, or has that the English has not."""
    english = _read(_own(folder, folder / EXAMPLES)).get("examples", [])
    if not _own(folder, language / EXAMPLES).is_file():
        return ["missing"] if english else []
    said = _read(language / EXAMPLES)
    given = said.get("examples", [])
    problems = []
    if len(given) != len(english):
        problems.append(f"give {len(english)} [[examples]], as English does, not {len(given)}")
    for number, (example, words) in enumerate(zip(english, given, strict=False), start=1):
        for key in ("caption", "alt"):
            if not isinstance(words.get(key), str):
                problems.append(f"examples {number}, {key}: missing (a text)")
        labels = words.get("labels")
        piles = example.get("piles", [])
        if not isinstance(labels, list) or len(labels) != len(piles):
            problems.append(
                f"examples {number}, labels: give {len(piles)} lists of lines, one per pile"
            )
            continue
        for pile, (shown, lines) in enumerate(zip(piles, labels, strict=True), start=1):
            if not isinstance(lines, list) or bool(lines) != bool(shown.get("label")):
                problems.append(
                    f"examples {number}, labels {pile}: a list of lines, empty exactly "
                    "when the English pile has no label"
                )
        for key in words:
            if key not in ("caption", "alt", "labels"):
                problems.append(f"examples {number}, {key}: not a prose key")
    for key in said:
        if key not in ("examples", "faces"):
            problems.append(f"{key}: not a prose key")
    return problems


def _suit(name: object) -> str:
    if name not in SUITS:
        raise GameDefinitionError(
            f"a suit is one of {', '.join(SUITS)}, not {name!r}", file=EXAMPLES
        )
    return SUITS[str(name)]


def face(value: int | str | dict[str, Any], faces: dict[str, Any]) -> Face:
    """What a card of ``value`` shows: its face line by line, its corner, whether it is
    wild, and its suit (see the module's docstring)."""
    named: object = value.get("suit") if isinstance(value, dict) else None
    shown: int | str = value["value"] if isinstance(value, dict) else value
    if shown in ("wild", "wild2"):
        wild = faces[str(shown)]
        named = named or wild.get("suit")
        return Face(tuple(wild["face"]), str(wild["corner"]), True, _suit(named) if named else "")
    names: dict[str, str] = faces.get("names", {})
    name = names.get(str(shown), str(shown))
    if named is None and faces.get("suits", False) and isinstance(shown, int):
        named = DEFAULT_SUITS[(shown - 1) % len(DEFAULT_SUITS)]
    return Face((name,), name, False, _suit(named) if named else "")


def _fitted(text: str, size: float, room: float) -> float:
    """``size``, or smaller if ``text`` would be wider than ``room`` at it."""
    wide = text_width(text, size, bold=True)
    return size if wide <= room else math.floor(size * room / wide * 10) / 10


def _corner(shown: Face) -> tuple[list[CardText], float]:
    """The corner index (the value, and the suit under it) and where the face may begin."""
    ascent, descent = extent()
    size = _fitted(shown.corner, INDEX_SIZE, INDEX_ROOM)
    column = max(
        text_width(shown.corner, size, bold=True),
        text_width(shown.suit, size, bold=True) if shown.suit else 0.0,
    )
    middle = round(INSET + column / 2, 2)
    baseline = INSET + ascent * size
    texts = [CardText(shown.corner, middle, round(baseline, 2), size, "middle", "index")]
    if shown.suit:
        baseline += (ascent + descent) * size
        texts.append(CardText(shown.suit, middle, round(baseline, 2), size, "middle", "index"))
    return texts, baseline + descent * size + FACE_GAP


def _face(shown: Face, top: float) -> list[CardText]:
    """The face's words, centred in the room under the corner and inside a wild card's
    frame: a value alone large, longer words smaller, the suit under them."""
    room = CARD_WIDTH - 2 * (INSET + FRAME_STROKE + 1)
    bottom = CARD_HEIGHT - INSET - FRAME_STROKE
    top += FRAME_STROKE
    big = len(shown.lines) == 1 and text_width(shown.lines[0], RANK_SIZE, bold=True) <= room
    lines = [(line, RANK_SIZE if big else _fitted(line, WORD_SIZE, room)) for line in shown.lines]
    steps = [0.0] + [WORD_LINE] * (len(lines) - 1)
    if shown.suit:
        lines.append((shown.suit, SUIT_SIZE))
        steps.append(SUIT_GAP + CAP_HEIGHT * SUIT_SIZE)
    block = CAP_HEIGHT * lines[0][1] + sum(steps)
    ascent, descent = extent()
    tall = block + (ascent - CAP_HEIGHT) * lines[0][1] + descent * lines[-1][1]
    scale = min(1.0, (bottom - top) / tall)
    baseline = (top + bottom) / 2 - block * scale / 2 + CAP_HEIGHT * lines[0][1] * scale
    texts = []
    for (line, size), step in zip(lines, steps, strict=True):
        baseline += step * scale
        texts.append(
            CardText(
                line, CARD_WIDTH / 2, round(baseline, 2), round(size * scale, 1), "middle", "face"
            )
        )
    return texts


def _card(x: float, shown: Face, top: bool) -> DrawnCard:
    texts, face_top = _corner(shown)
    frame = None
    if shown.wild:
        inner = CARD_HEIGHT - INSET - face_top
        frame = (INSET, round(face_top, 2), CARD_WIDTH - 2 * INSET, round(inner, 2))
    if top:
        texts += _face(shown, face_top)
    return DrawnCard(
        round(x, 1), shown.lines, shown.corner, shown.wild, top, shown.suit, tuple(texts), frame
    )


def lay_out(
    piles: list[dict[str, Any]],
    faces: dict[str, Any],
    *,
    after: str,
    alt: str,
    caption: str,
    hand: int | None = None,
) -> DrawnExample:
    """Place the piles left to right, their cards apart (an arrow between them if asked)
    and each label centred under its cards, clear of its neighbours' labels.

    ``hand`` is the game's hand: a pile marked ``hand = true`` must show that many cards.
    """
    drawn: list[DrawnPile] = []
    cards_end, label_end = float(MARGIN) - PILE_GAP, float(MARGIN) - LABEL_SPACE
    for number, pile in enumerate(piles, start=1):
        values = list(pile["cards"])
        held = bool(pile.get("hand", False))
        if held and hand is not None and len(values) != hand:
            raise GameDefinitionError(
                f"a hand is drawn with the game's {hand} cards, not {len(values)}",
                file=EXAMPLES,
                field=f"the example after {after}, pile {number}",
            )
        label = tuple(pile.get("label", ()))
        arrow = bool(pile.get("arrow", False)) and bool(drawn)
        cards_width = CARD_WIDTH + FAN * (len(values) - 1)
        label_width = max((text_width(line, LABEL_SIZE) for line in label), default=0.0)
        spread = (label_width - cards_width) / 2  # how far the label reaches past the cards
        x = math.ceil(
            max(
                cards_end + (ARROW_GAP if arrow else PILE_GAP),
                label_end + LABEL_SPACE + spread if label else MARGIN,
                MARGIN + max(0.0, spread),
            )
        )
        cards = tuple(
            _card(x + index * FAN, face(value, faces), index == len(values) - 1)
            for index, value in enumerate(values)
        )
        arrow_from = cards_end + ARROW_CLEAR if arrow else None
        drawn.append(DrawnPile(x, cards_width, cards, label, arrow_from, held))
        cards_end = x + cards_width
        if label:
            label_end = x + cards_width / 2 + label_width / 2
    label_lines = max((len(pile.label) for pile in drawn), default=0)
    height = MARGIN + CARD_HEIGHT + LABEL_GAP + label_lines * LABEL_LINE + MARGIN
    width = math.ceil(max(cards_end, label_end) + MARGIN)
    return DrawnExample(after, alt, caption, tuple(drawn), width, height)
