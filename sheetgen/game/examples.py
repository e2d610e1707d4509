"""Drawn cards for the booklet's worked examples: read a game's examples.toml, lay out its piles.

A game may ship ``examples.toml`` beside its ``game.toml``: for each deck, the face each
card value shows (``faces``), and the examples, each drawn after one section as a row of
piles, fanned so that every covered card still shows its corner. Values are the game's
own numbers (1 up to the top card) or ``wild`` and ``wild2`` (the deck's wild cards).
An example with ``before_subsections = true`` follows its section's own text, ahead of
the section's first ``##`` subsection.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from sheetgen.errors import HouseRulesError
from sheetgen.game.definition import inside_game
from sheetgen.tomlfile import load_toml, read_toml_text

EXAMPLES = "examples.toml"
CARD_WIDTH = 62
CARD_HEIGHT = 86
FAN = 24  # how much of a covered card shows beside the one on it
ARROW = 44
# Drawn at half a point a unit, so 15-unit labels print at 7.5 pt whatever the page;
# an example up to 640 units wide fits the narrowest column (the folded A5 and half-letter).
POINTS_PER_UNIT = 0.5
LABEL_CHAR = 8.6  # the width of one label character, 15 units tall
LABEL_LINE = 18
MARGIN = 6


class DrawnCard(NamedTuple):
    """One card as drawn: where its left edge is and the lines of its face."""

    x: float
    lines: tuple[str, ...]
    corner: str
    wild: bool
    top: bool


class DrawnPile(NamedTuple):
    """A pile of fanned cards with its label underneath, and an arrow before it if asked."""

    x: float
    width: float
    cards: tuple[DrawnCard, ...]
    label: tuple[str, ...]
    arrow_from: float | None


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


def face(value: int | str, faces: dict[str, Any]) -> tuple[tuple[str, ...], str, bool]:
    """What a card of ``value`` shows: its face line by line, its corner, whether it is wild."""
    if value in ("wild", "wild2"):
        wild = faces[str(value)]
        return tuple(wild["face"]), str(wild["corner"]), True
    names: dict[str, str] = faces.get("names", {})
    name = names.get(str(value), str(value))
    return (name,), name, False


def lay_out(
    piles: list[dict[str, Any]], faces: dict[str, Any], *, after: str, alt: str, caption: str
) -> DrawnExample:
    """Place the piles left to right, each as wide as its cards or its label."""
    drawn = []
    x = float(MARGIN)
    for pile in piles:
        label = tuple(pile.get("label", ()))
        arrow_from = None
        if pile.get("arrow", False):
            arrow_from = x
            x += ARROW
        cards_width = CARD_WIDTH + FAN * (len(pile["cards"]) - 1)
        label_width = max((len(line) * LABEL_CHAR for line in label), default=0.0)
        width = max(cards_width, label_width)
        left = x + (width - cards_width) / 2
        cards = []
        last = len(pile["cards"]) - 1
        for index, value in enumerate(pile["cards"]):
            lines, corner, wild = face(value, faces)
            cards.append(
                DrawnCard(round(left + index * FAN, 1), lines, corner, wild, index == last)
            )
        drawn.append(DrawnPile(round(x, 1), round(width, 1), tuple(cards), label, arrow_from))
        x += width + 12
    label_lines = max((len(pile.label) for pile in drawn), default=0)
    height = MARGIN + CARD_HEIGHT + 8 + label_lines * LABEL_LINE + MARGIN
    return DrawnExample(after, alt, caption, tuple(drawn), round(x - 12 + MARGIN, 1), height)
