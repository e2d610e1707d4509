"""How this table plays: house rules from presets, a TOML file and options, checked.

Layers, each overriding the one before: the game's presets/official.toml, a
named preset, the table's house-rules file, the command-line options. Every
value remembers where it came from, so a bad one is reported with its file
and key. The result is one validated, frozen HouseRules.
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from sheetgen.errors import ChoiceError, HouseRulesError, RuleError, SheetgenError
from sheetgen.games import DEFAULT_GAME, KNOWN_TOGGLES, Deck, GameDef, load_game
from sheetgen.numbers import whole_number
from sheetgen.scoring import ScoringRules

FILE_ONLY_KEYS = ("game", "preset")
_BOOL_KEYS = ("partnerships", "series", "must-play-stock", "no-wild-start")
_COUNT_KEYS = ("target", "bonus", "per-card")

E = TypeVar("E", bound=SheetgenError)
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

    @property
    def scoring(self) -> ScoringRules:
        """How this table scores its series: the game's way with the table's figures."""
        return replace(
            self.definition.scoring, bonus=self.bonus, per_card=self.per_card, target=self.target
        )

    def value(self, toggle: str) -> Any:
        """The value of a toggle by its house-rules key (``first-player``)."""
        return getattr(self, toggle.replace("-", "_"))


def _fail(origin: Origin, key: str, problem: str) -> HouseRulesError:
    return _placed(HouseRulesError(problem), origin, key)


def _placed(error: E, origin: Origin, key: str) -> E:
    """``error`` placed at a key of a file, or at the option ``--key`` of the command line."""
    if origin is None:
        return error.at(field=f"--{key}")
    return error.at(file=origin, field=key)


def read_toml(path: Path) -> dict[str, Any]:
    """Read a house-rules or preset file, reporting a missing or malformed one by name."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HouseRulesError("no such house-rules file", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise HouseRulesError(f"cannot read this house-rules file ({exc})", file=path) from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HouseRulesError(f"not valid TOML ({exc})", file=path) from exc


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
    game_origin = None if game or house_rules is None else house_rules
    try:
        definition = load_game(str(game_id))
    except ChoiceError as exc:
        raise _placed(exc, game_origin, "game") from None

    official_path = definition.preset_path("official")
    layers.append((official_path, _preset(official_path)))
    preset_name = preset or file_data.pop("preset", None)
    file_data.pop("preset", None)
    if preset_name is not None and preset_name != "official":
        try:
            path = definition.preset_path(str(preset_name))
        except ChoiceError as exc:
            preset_origin = None if preset or house_rules is None else house_rules
            raise _placed(exc, preset_origin, "preset") from None
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

    def checked(key: str, check: Any, *args: Any) -> Any:
        """``check(*args)``, its error placed where the key's value came from."""
        try:
            return check(*args)
        except RuleError as exc:
            raise _placed(HouseRulesError(exc.problem), get(key, None)[1], key) from None
        except SheetgenError as exc:
            raise _placed(exc, get(key, None)[1], key) from None

    players = checked("players", whole_number, get("players", game.min_players)[0])
    checked("players", game.check_players, players)

    flags: dict[str, bool] = {}
    for key in _BOOL_KEYS:
        value, origin = get(key, False)
        if not isinstance(value, bool):
            raise _fail(origin, key, f"{value!r} is not true or false")
        flags[key] = value
    if flags["partnerships"]:
        checked("partnerships", game.check_partnerships, players)

    if not flags["series"]:
        _refuse_figures_without_series(game, merged)
    figures = {key.replace("-", "_"): get(key, None)[0] for key in _COUNT_KEYS}
    try:
        scoring = ScoringRules.from_mapping(figures, game.scoring)
    except SheetgenError as exc:
        key = (exc.field or "").replace("_", "-")
        raise _placed(HouseRulesError(exc.problem), get(key, None)[1], key) from None
    if flags["series"] and not scoring.cards_left and scoring.bonus == scoring.per_card == 0:
        _refuse_unwinnable_series(game, merged)

    deck = checked("deck", game.deck, str(get("deck", game.official_deck.id)[0]))
    stock = checked("stock", _stock, game, players, deck, get("stock", "official")[0])
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
        target=scoring.target,
        bonus=scoring.bonus,
        per_card=scoring.per_card,
        deck=deck.id,
        building_piles=int(choices["building-piles"] or 0),
        must_play_stock=flags["must-play-stock"],
        no_wild_start=flags["no-wild-start"],
        extra=extra,
    )


def _chosen(game: GameDef, merged: Mapping[str, tuple[Any, Origin]], key: str) -> bool:
    """Whether the table chose this key (command line or house-rules file), not a preset."""
    if key not in merged:
        return False
    origin = merged[key][1]
    return origin is None or origin.parent != game.presets_dir


def _shown(origin: Origin, key: str) -> str:
    return f"--{key}" if origin is None else key


def _refuse_figures_without_series(game: GameDef, merged: Mapping[str, tuple[Any, Origin]]) -> None:
    """A series figure the table chose while it keeps no series would change nothing."""
    for key in _COUNT_KEYS:
        if _chosen(game, merged, key):
            origin = merged[key][1]
            series = "add --series" if origin is None else "set series = true"
            raise _fail(
                origin,
                key,
                f"{game.name} keeps no points without the series, so {_shown(origin, key)} "
                f"changes nothing; {series} or leave {_shown(origin, key)} out",
            )


def _refuse_unwinnable_series(game: GameDef, merged: Mapping[str, tuple[Any, Origin]]) -> None:
    """A series where no game pays a point could never be won."""
    chosen = [key for key in ("bonus", "per-card") if _chosen(game, merged, key)] or ["bonus"]
    origin = merged[chosen[-1]][1] if chosen[-1] in merged else None
    fields = ", ".join(_shown(origin, key) for key in ("bonus", "per-card"))
    raise HouseRulesError(
        f"a {game.name} series could never be won: with 0 points for going out and 0 per "
        f"card left, no game pays any points; give {' or '.join(fields.split(', '))} "
        "1 or more",
        file=origin,
        field=fields,
    )


def _stock(game: GameDef, players: int, deck: Deck, value: Any) -> int:
    if value == "official":
        size = game.default_stock(players)
    elif value == "short" and game.short_stock is not None:
        size = game.short_stock
    else:
        named = "official, short or" if game.short_stock is not None else "official or"
        try:
            size = whole_number(value)
        except SheetgenError:
            raise HouseRulesError(
                f"{value!r} is not a {game.stock_word} size; give {named} a number"
            ) from None
    game.check_stock(players, size, deck)
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


def presets_text(game: str | None = None) -> str:
    """What each of a game's presets is for and what it changes from the official rules,
    read from the preset files themselves (their opening comment and their keys)."""
    definition = load_game(game or DEFAULT_GAME)
    official = read_toml(definition.preset_path("official"))
    names = sorted(definition.preset_names(), key=lambda name: (name != "official", name))
    width = max(len(name) for name in names)
    lines = [f"Presets for {definition.name} (sheetgen rules --preset NAME):"]
    for name in names:
        path = definition.preset_path(name)
        changes = [
            _as_option(key, value)
            for key, value in read_toml(path).items()
            if name != "official" and official.get(key) != value
        ]
        changed = ", ".join(changes) if changes else "nothing: these are the official rules"
        indent = " " * (width + 4)
        for text, first in (
            (_opening_comment(path), f"  {name.ljust(width)}  "),
            (f"changes {changed}", indent),
        ):
            lines += textwrap.wrap(text, 79, initial_indent=first, subsequent_indent=indent)
    return "\n".join(lines) + "\n"


def _opening_comment(path: Path) -> str:
    """The comment lines a preset file opens with, as one line."""
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        words.append(line.lstrip("#").strip())
    return " ".join(words)


def _as_option(key: str, value: Any) -> str:
    """A preset's setting as the option that would set it."""
    if value is True:
        return f"--{key}"
    if value is False:
        return f"without --{key}" if key.startswith("no-") else f"--no-{key}"
    return f"--{key} {value}"
