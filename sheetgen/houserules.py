"""How this table plays: house rules from presets, a TOML file and options, checked.

Layers, each overriding the one before: the game's presets/official.toml, a
named preset, the table's house-rules file, the command-line options. Every
value remembers where it came from, so a bad one is reported with its file
and key. The result is one validated, frozen HouseRules.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sheetgen.errors import ChoiceError, HouseRulesError
from sheetgen.games import DEFAULT_GAME, KNOWN_TOGGLES, GameDef, game_ids, load_game
from sheetgen.table import PARTNERSHIP_PLAYERS

FILE_ONLY_KEYS = ("game", "preset")
_BOOL_KEYS = ("partnerships", "series", "must-play-stock", "no-wild-start")
_COUNT_KEYS = ("target", "bonus", "per-card")

# Where a value came from: a file (preset or house rules) or, as None, the command line.
Origin = Path | None


@dataclass(frozen=True)
class HouseRules:
    """The validated rules of one table for one game."""

    game: str
    players: int
    stock: int
    first_player: str
    partnerships: bool
    series: bool
    target: int
    bonus: int
    per_card: int
    deck: str
    building_piles: int
    must_play_stock: bool
    no_wild_start: bool
    extra: Path | None = None
    # The game's official rules for this many players, read with these (None: these are they).
    official: HouseRules | None = field(default=None, compare=False, repr=False)

    @property
    def definition(self) -> GameDef:
        return load_game(self.game)

    def value(self, toggle: str) -> Any:
        """The value of a toggle by its house-rules key (``first-player``)."""
        return getattr(self, toggle.replace("-", "_"))


def _where(origin: Origin, key: str) -> str:
    return f"{origin}, {key}" if origin is not None else f"--{key}"


def _fail(origin: Origin, key: str, problem: str) -> HouseRulesError:
    return HouseRulesError(f"{_where(origin, key)}: {problem}")


def read_toml(path: Path) -> dict[str, Any]:
    """Read a house-rules or preset file, reporting a missing or malformed one by name."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HouseRulesError(f"{path}: no such house-rules file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise HouseRulesError(f"{path}: cannot read this house-rules file ({exc})") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HouseRulesError(f"{path}: not valid TOML ({exc})") from exc


def _check_keys(data: Mapping[str, Any], origin: Path, allow_file_keys: bool) -> None:
    allowed = KNOWN_TOGGLES + (FILE_ONLY_KEYS if allow_file_keys else ())
    for key in data:
        if key not in allowed:
            raise _fail(origin, key, f"unknown key; house rules take {', '.join(allowed)}")


def resolve(
    *,
    game: str | None = None,
    preset: str | None = None,
    house_rules: Path | None = None,
    options: Mapping[str, Any] | None = None,
) -> HouseRules:
    """Merge official rules, preset, house-rules file and options; check and return them.

    ``options`` holds only what the command line actually set, keyed like the
    house-rules file (``first-player``); their values override the file's.
    """
    options = dict(options or {})
    layers: list[tuple[Origin, dict[str, Any]]] = []
    file_data: dict[str, Any] = {}
    if house_rules is not None:
        file_data = read_toml(house_rules)
        _check_keys(file_data, house_rules, allow_file_keys=True)
        if "extra" in file_data and isinstance(file_data["extra"], str):
            file_data["extra"] = house_rules.parent / file_data["extra"]
    game_id = game or file_data.pop("game", None) or DEFAULT_GAME
    file_data.pop("game", None)
    if game_id not in game_ids():
        where = "--game" if game or house_rules is None else f"{house_rules}, game"
        raise ChoiceError(f"{where}: no rules for {game_id!r}; choose {', '.join(game_ids())}")
    definition = load_game(game_id)

    official_path = definition.preset_path("official")
    layers.append((official_path, _preset(official_path)))
    preset_name = preset or file_data.pop("preset", None)
    file_data.pop("preset", None)
    if preset_name is not None and preset_name != "official":
        try:
            path = definition.preset_path(str(preset_name))
        except ChoiceError as exc:
            where = "--preset" if preset or house_rules is None else f"{house_rules}, preset"
            raise ChoiceError(f"{where}: {exc}".replace("preset: ", "", 1)) from None
        layers.append((path, _preset(path)))
    if house_rules is not None:
        layers.append((house_rules, file_data))
    layers.append((None, options))
    rules = _build(definition, _merge(definition, layers))
    official = _build(
        definition, _merge(definition, [layers[0], (None, {"players": rules.players})])
    )
    return replace(rules, official=None if official == rules else official)


def _merge(
    definition: GameDef, layers: list[tuple[Origin, dict[str, Any]]]
) -> dict[str, tuple[Any, Origin]]:
    merged: dict[str, tuple[Any, Origin]] = {}
    for origin, data in layers:
        for key, value in data.items():
            if key not in definition.toggles:
                raise _fail(
                    origin,
                    key,
                    f"does not apply to {definition.name}; its house rules are "
                    f"{', '.join(sorted(definition.toggles))}",
                )
            merged[key] = (value, origin)
    return merged


def official_rules(game: str, players: int) -> HouseRules:
    """The official rules of a game for this many players."""
    return resolve(game=game, options={"players": players})


def official_of(rules: HouseRules) -> HouseRules:
    """The official rules ``rules`` were resolved against (itself if it is they)."""
    return rules.official or rules


def _preset(path: Path) -> dict[str, Any]:
    data = read_toml(path)
    _check_keys(data, path, allow_file_keys=False)
    return data


def _build(game: GameDef, merged: Mapping[str, tuple[Any, Origin]]) -> HouseRules:
    def get(key: str, default: Any) -> tuple[Any, Origin]:
        return merged.get(key, (default, None))

    players, origin = get("players", game.min_players)
    players = _whole(players, origin, "players")
    if not game.min_players <= players <= game.max_players:
        span = f"{game.min_players} to {game.max_players}"
        if game.min_players == game.max_players:
            span = str(game.min_players)
        raise _fail(origin, "players", f"{game.name} is played by {span} players, not {players}")

    flags: dict[str, bool] = {}
    for key in _BOOL_KEYS:
        value, origin = get(key, False)
        if not isinstance(value, bool):
            raise _fail(origin, key, f"{value!r} is not true or false")
        flags[key] = value
    if flags["partnerships"] and players not in PARTNERSHIP_PLAYERS:
        _, origin = merged["partnerships"]
        raise _fail(
            origin,
            "partnerships",
            f"teams of two need 4 or 6 players, not {players}",
        )

    counts: dict[str, int] = {}
    defaults = {"target": game.target, "bonus": game.bonus, "per-card": game.per_card}
    for key in _COUNT_KEYS:
        value, origin = get(key, defaults[key])
        counts[key] = _whole(value, origin, key)
    value, origin = get("target", game.target)
    if counts["target"] <= 0:
        raise _fail(
            origin, "target", f"{counts['target']} points cannot win a series; give 1 or more"
        )
    for key in ("bonus", "per-card"):
        if counts[key] < 0:
            raise _fail(get(key, 0)[1], key, f"{counts[key]} is below 0; give 0 or more points")

    deck_id, origin = get("deck", game.decks[0].id)
    try:
        deck = game.deck(str(deck_id))
    except ChoiceError as exc:
        raise _fail(origin, "deck", str(exc).split(": ", 1)[1]) from None

    stock = _stock(game, players, deck.cards, *get("stock", "official"))
    choices = {
        key: _choice(game, key, *get(key, None)) for key in ("first-player", "building-piles")
    }

    extra, origin = get("extra", None)
    if extra is not None:
        extra = Path(extra)
        if not extra.is_file():
            raise _fail(origin, "extra", f"{extra} is not a readable Markdown file")

    return HouseRules(
        game=game.id,
        players=players,
        stock=stock,
        first_player=str(choices["first-player"] or ""),
        partnerships=flags["partnerships"],
        series=flags["series"],
        target=counts["target"],
        bonus=counts["bonus"],
        per_card=counts["per-card"],
        deck=deck.id,
        building_piles=int(choices["building-piles"] or 0),
        must_play_stock=flags["must-play-stock"],
        no_wild_start=flags["no-wild-start"],
        extra=extra,
    )


def _whole(value: Any, origin: Origin, key: str) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(origin, key, f"{value!r} is not a whole number")
    return value


def _stock(game: GameDef, players: int, deck_cards: int, value: Any, origin: Origin) -> int:
    word = game.words.get("stock", "stock pile")
    if value == "official":
        size = game.default_stock(players)
    elif value == "short" and game.short_stock is not None:
        size = game.short_stock
    else:
        named = "official, short or" if game.short_stock is not None else "official or"
        if isinstance(value, str) and not value.strip().isdigit():
            raise _fail(origin, "stock", f"{value!r} is not a {word} size; give {named} a number")
        size = _whole(value, origin, "stock")
    largest = game.largest_stock(players, deck_cards)
    if not 1 <= size <= largest:
        laid = f" with {game.laid_out} cards laid out" if game.laid_out else ""
        left = ""
        if game.draw_left:
            cards = "card" if game.draw_left == 1 else "cards"
            left = f" and leave {game.draw_left} {cards} to draw"
        raise _fail(
            origin,
            "stock",
            f"{players} players cannot each be dealt a {size}-card {word} from a "
            f"{deck_cards}-card deck{laid}: every player must still draw a first hand "
            f"of {game.hand}{left}; choose 1 to {largest}",
        )
    return size


def _choice(game: GameDef, key: str, value: Any, origin: Origin) -> Any:
    allowed = game.choices.get(key, ())
    if value is None:
        return allowed[0] if allowed else None
    if value not in allowed:
        shown = ", ".join(str(choice) for choice in allowed)
        raise _fail(origin, key, f"{value!r} is not a choice for {game.name}; choose {shown}")
    return value


def differences(rules: HouseRules) -> list[str]:
    """The toggles whose value differs from the official rules for this many players.

    Only toggles the game's house_rules table has a sentence for count; the
    scoring figures count only while the points game is on.
    """
    game = rules.definition
    official = official_of(rules)
    changed: list[str] = []
    for toggle in game.house_rules:
        if toggle in ("target", "bonus", "per-card") and not rules.series:
            continue
        if toggle == "extra":
            if rules.extra is not None:
                changed.append(toggle)
            continue
        if rules.value(toggle) != official.value(toggle):
            changed.append(toggle)
    return changed
