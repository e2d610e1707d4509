"""The cover's motif: a fan of the game's own cards, drawn as the worked examples draw them.

Five cards of the table's deck held in a hand, each turned a little about a point below
them, in the examples' style (black on white, the bundled font), so the cover has a
picture a black-and-white printer prints as it is. A game without drawn examples shows
plain numbered cards. The cover (booklet.html.j2) sets the motif centred under its title
and lines, and leaves it off only where the box of choices would not fit with it.
"""

from __future__ import annotations

import math
from typing import Any

from jinja2 import Environment

from sheetgen.booklet.pictures import check_picture
from sheetgen.booklet.templating import render_template
from sheetgen.game.examples import CARD_HEIGHT, CARD_WIDTH, MARGIN, lay_out

# The cards of the fan, left to right: a wild card in the middle where the deck has one.
WITH_WILD: tuple[int | str, ...] = (1, 5, "wild", 9, 12)
PLAIN_CARDS: tuple[int | str, ...] = (1, 4, 7, 10, 12)
# Degrees between two cards, and how far below the cards' tops the point they turn about
# lies, in card heights.
STEP = 11.0
PIVOT = 1.9


def fan_svg(env: Environment, faces: dict[str, Any], alt: str) -> str:
    """The fan of cards as an SVG picture named by ``alt``."""
    cards = WITH_WILD if "wild" in faces else PLAIN_CARDS
    drawn = lay_out([{"cards": list(cards)}], faces, after="cover", alt=alt, caption="")
    (pile,) = drawn.piles
    count = len(pile.cards)
    angles = [round(STEP * (index - (count - 1) / 2), 2) for index in range(count)]
    pivot_y = MARGIN + CARD_HEIGHT * PIVOT
    # Where each card's corners go when turned about (0, pivot_y), a card's centre line
    # on x = 0: the picture holds them all, MARGIN round.
    xs, ys = [], []
    for angle in angles:
        turn = math.radians(angle)
        for x, y in (
            (-CARD_WIDTH / 2, MARGIN),
            (CARD_WIDTH / 2, MARGIN),
            (-CARD_WIDTH / 2, MARGIN + CARD_HEIGHT),
            (CARD_WIDTH / 2, MARGIN + CARD_HEIGHT),
        ):
            dy = y - pivot_y
            xs.append(x * math.cos(turn) - dy * math.sin(turn))
            ys.append(pivot_y + x * math.sin(turn) + dy * math.cos(turn))
    left, top = min(xs) - MARGIN, min(ys) - MARGIN
    width, height = math.ceil(max(xs) + MARGIN - left), math.ceil(max(ys) + MARGIN - top)
    fan = {
        "width": width,
        "height": height,
        # Moves the turned cards into the picture: x = 0 becomes its centre.
        "origin": (round(-left, 2), round(-top, 2)),
        "pivot_y": round(pivot_y, 2),
        "cards": [
            {"card": card, "angle": angle, "shift": round(-CARD_WIDTH / 2 - card.x, 2)}
            for card, angle in zip(pile.cards, angles, strict=True)
        ],
    }
    svg = render_template(env, "cards.svg.j2", {"example": drawn, "fan": fan})
    return check_picture(svg, "cards.svg.j2")
