"""Load the game definitions under rules/: one folder and one game.toml per game.

A game is data (see rules/README.md): its name, deck, stock sizes, the
house-rules toggles it accepts, its presets and its sections. Nothing here
knows any game by name; every folder with a game.toml is offered.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sheetgen.errors import ChoiceError, HouseRulesError
from sheetgen.resources import rules_dir
from sheetgen.table import max_stock

DEFINITION = "game.toml"
DEFAULT_GAME = "skip-bo"

# Every toggle the pipeline understands; a game.toml lists which of them it accepts.
KNOWN_TOGGLES = (
    "players",
    "stock",
    "first-player",
    "partnerships",
    "series",
    "target",
    "bonus",
    "per-card",
    "deck",
    "building-piles",
    "must-play-stock",
    "no-wild-start",
    "extra",
)
_TOP_KEYS = {
    "name",
    "players",
    "hand",
    "toggles",
    "picture",
    "picture_alt",
    "words",
    "stock",
    "decks",
    "choices",
    "scoring",
    "house_rules",
    "sections",
    "deal",
}
_SECTION_KEYS = {"file", "when", "picture", "own_page", "slot"}


@dataclass(frozen=True)
class Deck:
    """A deck a game can be played with."""

    id: str
    cards: int
    label: str


@dataclass(frozen=True)
class Section:
    """One section of the booklet: a Markdown file, or the slot for the table's extra rules."""

    file: str | None
    when: str | None = None
    picture: bool = False
    own_page: bool = False
    slot: str | None = None


@dataclass(frozen=True)
class GameDef:
    """A game as rules/<id>/game.toml defines it."""

    id: str
    folder: Path
    name: str
    min_players: int
    max_players: int
    hand: int
    toggles: frozenset[str]
    words: Mapping[str, str]
    official_stock: Mapping[int, int]
    short_stock: int | None
    decks: tuple[Deck, ...]
    choices: Mapping[str, tuple[Any, ...]]
    bonus: int
    per_card: int
    target: int
    house_rules: Mapping[str, str]
    sections: tuple[Section, ...]
    picture: str | None = None
    picture_alt: str = ""
    laid_out: int = 0
    draw_left: int = 0

    def largest_stock(self, players: int, cards: int) -> int:
        """The biggest stock every player can be dealt, leaving the table its deal."""
        return max_stock(players, cards, self.hand, reserved=self.laid_out + self.draw_left)

    @property
    def presets_dir(self) -> Path:
        return self.folder / "presets"

    def preset_names(self) -> list[str]:
        """The presets shipped with the game (official always among them)."""
        return sorted(path.stem for path in self.presets_dir.glob("*.toml"))

    def preset_path(self, name: str) -> Path:
        path = self.presets_dir / f"{name}.toml"
        if not name or "/" in name or not path.is_file():
            raise ChoiceError(
                f"preset: {self.id} has no preset {name!r}; choose {', '.join(self.preset_names())}"
            )
        return path

    def default_stock(self, players: int) -> int:
        """The official size of each player's stock for this many players."""
        return self.official_stock[players]

    def deck(self, deck_id: str) -> Deck:
        for deck in self.decks:
            if deck.id == deck_id:
                return deck
        raise ChoiceError(
            f"deck: {self.id} is not played with {deck_id!r}; "
            f"choose {', '.join(deck.id for deck in self.decks)}"
        )


def game_ids() -> list[str]:
    """Every game under rules/: the folders that hold a game.toml."""
    return sorted(path.parent.name for path in rules_dir().glob(f"*/{DEFINITION}"))


@cache
def load_game(game_id: str = DEFAULT_GAME) -> GameDef:
    """Read and check rules/<game_id>/game.toml."""
    if game_id not in game_ids():
        raise ChoiceError(f"game: no rules for {game_id!r}; choose {', '.join(game_ids())}")
    folder = rules_dir() / game_id
    path = folder / DEFINITION
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise HouseRulesError(f"{path}: cannot read the game definition ({exc})") from exc
    return _parse(game_id, folder, path, data)


def _parse(game_id: str, folder: Path, path: Path, data: dict[str, Any]) -> GameDef:
    def fail(key: str, problem: str) -> HouseRulesError:
        return HouseRulesError(f"{path}, {key}: {problem}")

    for key in data:
        if key not in _TOP_KEYS:
            raise fail(key, f"unknown key; a game definition has {', '.join(sorted(_TOP_KEYS))}")
    for key in ("name", "players", "hand", "toggles", "decks", "stock", "sections"):
        if key not in data:
            raise fail(key, "missing; see rules/README.md")
    low, high = data["players"]
    toggles = frozenset(data["toggles"])
    for toggle in toggles:
        if toggle not in KNOWN_TOGGLES:
            raise fail("toggles", f"{toggle!r} is not a toggle; choose from {KNOWN_TOGGLES}")
    official = {int(players): int(cards) for players, cards in data["stock"]["official"].items()}
    for players in range(low, high + 1):
        if players not in official:
            raise fail("stock.official", f"no stock size for {players} players")
    decks = tuple(
        Deck(deck_id, int(deck["cards"]), str(deck["label"]))
        for deck_id, deck in data["decks"].items()
    )
    if not decks:
        raise fail("decks", "a game needs at least one deck")
    sections: list[Section] = []
    for index, raw in enumerate(data["sections"], start=1):
        for key in raw:
            if key not in _SECTION_KEYS:
                raise fail(f"sections {index}", f"unknown key {key!r}")
        file = raw.get("file")
        if file is not None and not (folder / "sections" / file).is_file():
            raise fail(f"sections {index}", f"sections/{file} does not exist")
        sections.append(
            Section(
                file=file,
                when=raw.get("when"),
                picture=bool(raw.get("picture", False)),
                own_page=bool(raw.get("own_page", False)),
                slot=raw.get("slot"),
            )
        )
    scoring = data.get("scoring", {})
    dealing = data.get("deal", {})
    for key in dealing:
        if key not in ("laid_out", "draw_left"):
            raise fail(f"deal.{key}", "unknown key; [deal] takes laid_out and draw_left")
    game = GameDef(
        id=game_id,
        folder=folder,
        name=str(data["name"]),
        min_players=int(low),
        max_players=int(high),
        hand=int(data["hand"]),
        toggles=toggles,
        words=dict(data.get("words", {})),
        official_stock=official,
        short_stock=data["stock"].get("short"),
        decks=decks,
        choices={key: tuple(values) for key, values in data.get("choices", {}).items()},
        bonus=int(scoring.get("bonus", 25)),
        per_card=int(scoring.get("per_card", 5)),
        target=int(scoring.get("target", 500)),
        house_rules=dict(data.get("house_rules", {})),
        sections=tuple(sections),
        picture=data.get("picture"),
        picture_alt=str(data.get("picture_alt", "")),
        laid_out=int(dealing.get("laid_out", 0)),
        draw_left=int(dealing.get("draw_left", 0)),
    )
    if "official" not in game.preset_names():
        raise fail("presets", f"{game.presets_dir}/official.toml is missing")
    return game
