"""How a series is scored: the two ways and their figures, checked where they are made.

- ``winner`` (Skip-Bo's): only the winner of a game scores, a bonus plus a
  value for every card left in every other side's stock piles; the first side
  to reach the target wins the series.
- ``cards-left``: every side is charged the cards left in its own stock
  piles; after the agreed number of games the lowest total wins.

The game's [scoring] table, a series file's ``scoring:`` and ``--scoring`` all
choose one; nothing here knows a table or a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sheetgen.errors import RuleError
from sheetgen.limits import MAX_GAMES
from sheetgen.numbers import whole_number

WINNER = "winner"
CARDS_LEFT = "cards-left"
WAYS = (WINNER, CARDS_LEFT)
BONUS = 25
PER_CARD = 5
TARGET = 500
GAMES_TO_PLAY = 10
# The keys of a [scoring] table and of a series file's scoring figures.
SCORING_KEYS = ("way", "bonus", "per_card", "target", "games_to_play")


@dataclass(frozen=True)
class ScoringRules:
    """How a series is scored: the way, and its figures. Checked here and nowhere else."""

    bonus: int = BONUS
    per_card: int = PER_CARD
    target: int = TARGET
    way: str = WINNER
    games_to_play: int = GAMES_TO_PLAY

    def __post_init__(self) -> None:
        for name in ("bonus", "per_card", "target", "games_to_play"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(f"{value!r} is not a whole number", field=name)
        if self.way not in WAYS:
            raise RuleError(
                f"{self.way!r} is not a way of scoring; choose {' or '.join(WAYS)}", field="way"
            )
        if self.target <= 0:
            raise RuleError(
                f"{self.target} points cannot win a series; give 1 or more", field="target"
            )
        if self.games_to_play <= 0:
            raise RuleError(
                f"a series of {self.games_to_play} games cannot be played; give 1 or more",
                field="games_to_play",
            )
        if self.games_to_play > MAX_GAMES:
            raise RuleError(
                f"a series of {self.games_to_play} games is more than a score sheet holds; "
                f"give 1 to {MAX_GAMES}",
                field="games_to_play",
            )
        for name in ("bonus", "per_card"):
            if getattr(self, name) < 0:
                raise RuleError(
                    f"{getattr(self, name)} is below 0; give 0 or more points", field=name
                )

    @classmethod
    def from_mapping(
        cls, values: Mapping[str, object], base: ScoringRules | None = None
    ) -> ScoringRules:
        """``base`` (or the defaults) with the figures in ``values`` (keys of SCORING_KEYS)."""
        start = base or cls()
        figures: dict[str, object] = {name: getattr(start, name) for name in SCORING_KEYS}
        for name, value in values.items():
            if value is None:
                continue
            figures[name] = str(value) if name == "way" else whole_number(value, name)
        return cls(**figures)  # type: ignore[arg-type]

    @classmethod
    def from_options(
        cls, values: Mapping[str, object], base: ScoringRules | None = None
    ) -> ScoringRules:
        """As ``from_mapping``, for the figures a user gave as options: one that this way of
        scoring never uses would change nothing, and is refused with the reason."""
        rules = cls.from_mapping(values, base)
        unused = ("target", "bonus", "per_card") if rules.cards_left else ("games_to_play",)
        for name in unused:
            if values.get(name) is None:
                continue
            option = "--" + name.replace("_", "-")
            if rules.cards_left:
                problem = (
                    f"a cards-left series has no points, so {option} changes nothing: the "
                    f"lowest total after {rules.games_to_play} games wins; leave {option} out"
                )
            else:
                problem = (
                    "only a cards-left series is played for an agreed number of games, so "
                    f"{option} changes nothing; add --scoring cards-left or leave {option} out"
                )
            raise RuleError(problem, field=option)
        return rules

    @property
    def outcome(self) -> str:
        """How the series is won, in a few words: "first to 500", "lowest total after 10 games"."""
        if self.way == CARDS_LEFT:
            games = "one game" if self.games_to_play == 1 else f"{self.games_to_play} games"
            return f"lowest total after {games}"
        return f"first to {self.target}"

    @property
    def cards_left(self) -> bool:
        """Whether each side is charged its own cards left (lowest total wins)."""
        return self.way == CARDS_LEFT
