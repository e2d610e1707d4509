"""How this table plays: house rules from presets, a TOML file and options, checked.

Layers, each overriding the one before: the game's presets/official.toml, a
named preset, the table's house-rules file, ``--set NAME=VALUE`` and the
command-line options. Every toggle a game declares in its game.toml
([toggles.NAME]: kind, default, choices) can be set in any layer; every value
remembers where it came from, so a bad one is reported with its file and key.
The result is one validated, frozen HouseRules.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from sheetgen.errors import (
    ChoiceError,
    HouseRulesError,
    NumberTooLargeError,
    RuleError,
    SheetgenError,
    not_utf8,
)
from sheetgen.game.definition import DEFAULT_GAME, FILE_ONLY_KEYS, Deck, GameDef, Toggle, load_game
from sheetgen.game.names import check_title
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.numbers import whole_number
from sheetgen.tomlfile import load_toml, read_toml_text

# The longest name of a table a booklet's cover prints (on one line or two).
MAX_TABLE_NAME = 60
# The toggles that set a ScoringRules figure, and the figure each sets.
SCORING_TOGGLES = {
    "scoring": "way",
    "target": "target",
    "bonus": "bonus",
    "per-card": "per_card",
    "games-to-play": "games_to_play",
}
_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")
SET = "--set"

E = TypeVar("E", bound=SheetgenError)
# Where a value came from: a file (preset or house rules), "--set", or None for an option.
Origin = Path | str | None


@dataclass(frozen=True)
class HouseRules:
    """The validated rules of one table for one game.

    The toggles the pipeline itself reads are fields; every toggle the game
    declares, those included, is in ``toggles`` by its name, and reads as an
    attribute too (``rules.first_player`` for ``first-player``), so templates
    use the game's own toggles like the built-in ones.
    """

    game: str
    players: int
    stock: int
    deck: str
    partnerships: bool
    series: bool
    scoring: ScoringRules
    toggles: Mapping[str, Any]
    definition: GameDef = field(compare=False, repr=False)
    extra: Path | None = None
    # The table's own rules, read from ``extra`` once, when the rules were resolved.
    extra_text: str | None = field(default=None, compare=False, repr=False)
    # The game's official rules for this many players, read with these (None: these are they).
    official: HouseRules | None = field(default=None, compare=False, repr=False)
    # Who plays by them and since when, for the booklet's cover: ``table`` and ``date`` of
    # the house-rules file, or ``--table``.
    table_name: str | None = None
    agreed: date | None = None

    def __getattr__(self, name: str) -> Any:
        toggles = self.__dict__.get("toggles", {})
        key = name.replace("_", "-")
        if key in toggles:
            return toggles[key]
        raise AttributeError(name)

    @property
    def target(self) -> int:
        return self.scoring.target

    @property
    def bonus(self) -> int:
        return self.scoring.bonus

    @property
    def per_card(self) -> int:
        return self.scoring.per_card

    @property
    def games_to_play(self) -> int:
        return self.scoring.games_to_play

    def value(self, toggle: str) -> Any:
        """The value of a toggle by its house-rules key (``first-player``)."""
        return self.toggles[toggle]


def _fail(origin: Origin, key: str, problem: str) -> HouseRulesError:
    return _placed(HouseRulesError(problem), origin, key)


def _placed(error: E, origin: Origin, key: str) -> E:
    """``error`` placed at a key of a file, at ``--set KEY`` or at the option ``--KEY``."""
    if origin is None:
        return error.at(field=f"--{key}")
    if origin == SET:
        return error.at(field=f"{SET} {key}")
    return error.at(file=origin, field=key)


def read_toml(path: Path) -> dict[str, Any]:
    """Read a house-rules or preset file, reporting a missing or malformed one by name."""
    # A FIFO or a device would block or never end: house rules are an ordinary file.
    if path.exists() and not path.is_file():
        raise HouseRulesError("is not an ordinary file; give a TOML house-rules file", file=path)
    try:
        text = read_toml_text(path)
    except FileNotFoundError:
        raise HouseRulesError("no such house-rules file", file=path) from None
    except UnicodeDecodeError as exc:
        line, problem = not_utf8(exc)
        raise HouseRulesError(problem, file=path, field=line) from None
    except OSError as exc:
        raise HouseRulesError(
            f"cannot read this house-rules file ({exc.strerror or exc})", file=path
        ) from None
    except ValueError as exc:
        raise HouseRulesError(f"cannot read this house-rules file ({exc})", file=path) from None
    try:
        return load_toml(text)
    except ValueError as exc:
        raise HouseRulesError(str(exc), file=path) from None


def parse_settings(items: Iterable[str]) -> dict[str, str]:
    """``--set NAME=VALUE`` items as a mapping; a malformed or repeated one is refused."""
    settings: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise HouseRulesError(
                f"{item!r} is not NAME=VALUE; for example --set first-player=youngest",
                field=SET,
            )
        if name in settings:
            raise HouseRulesError(f"{name} is set twice", field=SET)
        settings[name] = value.strip()
    return settings


def _beside(house_rules: Path, extra: str) -> Path:
    """The house rules' ``extra`` file, which must sit in the house-rules file's folder or
    below it: a shared house-rules file cannot print /etc/passwd into a booklet."""
    path = house_rules.parent / extra
    try:
        inside = path.resolve().is_relative_to(house_rules.parent.resolve())
    except (OSError, RuntimeError) as exc:  # Python 3.11 reports a loop of links as the latter
        raise _unusable(extra, exc) from None
    if not inside:
        raise HouseRulesError(
            f"{extra} is outside the folder of the house-rules file; "
            "keep the table's Markdown beside it"
        )
    return path


def _unusable(name: str, exc: OSError | RuntimeError | None = None) -> HouseRulesError:
    """The refusal of a file name no file can be opened by: a NUL in it (``exc`` None), too
    long a name, a loop of links. The name is escaped and, if very long, cut short."""
    shown = repr(name) if len(name) <= 80 else f"{name[:60]!r}... ({len(name)} characters)"
    if exc is None:
        why = "holds a NUL character, which no file name can"
    elif isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP:
        why = "cannot be opened (its links lead round in a loop)"
    else:
        why = f"cannot be opened ({(exc.strerror or str(exc)).lower()})"
    return HouseRulesError(f"{shown} {why}; give the name of a Markdown file")


def read_own_rules(path: Path, origin: Origin) -> str:
    """The text of a table's own rules (Markdown), opened once and read from what was opened.

    Named in a house-rules file, the file is opened one folder at a time from that file's
    folder, following no link and no ``..``: swapping a name for a link to a private file
    between a check and the opening cannot make it read another file. Named on the
    command line, it is the user's own choice, links and all. Either way it must be a
    regular file (not a FIFO that would block), at most a booklet's worth of UTF-8 text.
    """
    from sheetgen.limits import MAX_MARKDOWN, check_markdown_size

    try:
        handle = _open_inside(path, origin.parent) if isinstance(origin, Path) else _open(path)
        with os.fdopen(handle, "rb") as opened:
            if not stat.S_ISREG(os.fstat(opened.fileno()).st_mode):
                raise HouseRulesError(f"{path} is not a readable Markdown file")
            raw = opened.read(4 * MAX_MARKDOWN + 1)
    except OSError as exc:
        raise HouseRulesError(
            f"{path}: cannot read the table's own rules ({exc.strerror or exc})"
        ) from None
    if len(raw) > 4 * MAX_MARKDOWN:
        raise HouseRulesError(
            f"{path}: a booklet takes at most {MAX_MARKDOWN:,} characters of a table's own rules"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, problem = not_utf8(exc)
        raise HouseRulesError(problem, file=path, field=line) from None
    check_markdown_size(text, str(path))
    return text


_READ = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC


def _open(path: Path) -> int:
    return os.open(path, _READ)


def _open_inside(path: Path, folder: Path) -> int:
    """``path`` opened from ``folder`` down, one name at a time, through no link."""
    try:
        parts = path.relative_to(folder).parts
    except ValueError:
        parts = ("..",)
    if not parts or ".." in parts:
        raise HouseRulesError(
            f"{path} is outside the folder of the house-rules file; keep the table's Markdown "
            "beside it"
        )
    where = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            inner = os.open(part, _READ | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=where)
            os.close(where)
            where = inner
        try:
            return os.open(parts[-1], _READ | os.O_NOFOLLOW, dir_fd=where)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise HouseRulesError(
                    f"{path} is a link; name the table's Markdown file itself"
                ) from None
            raise
    except NotADirectoryError:
        raise HouseRulesError(
            f"{path}: a folder on its way is a link or not a folder; name the file itself"
        ) from None
    finally:
        os.close(where)


def resolve(
    *,
    game: str | None = None,
    preset: str | None = None,
    house_rules: Path | None = None,
    options: Mapping[str, Any] | None = None,
    settings: Mapping[str, str] | None = None,
    table: str | None = None,
) -> HouseRules:
    """Merge official rules, preset, house-rules file, settings and options; check them.
    ``table`` names the table on the cover (over the file's ``table``).

    ``options`` holds only what the command line's own options set, keyed like
    the house-rules file (``first-player``); ``settings`` what ``--set`` set,
    as text. Options override settings, which override the file.
    """
    layers: list[tuple[Origin, dict[str, Any]]] = []
    file_data: dict[str, Any] = {}
    if house_rules is not None:
        file_data = read_toml(house_rules)
    game_id = game or file_data.get("game") or DEFAULT_GAME
    game_origin = None if game or house_rules is None else house_rules
    try:
        definition = load_game(str(game_id))
    except ChoiceError as exc:
        raise _placed(exc, game_origin, "game") from None

    official_path = definition.preset_path("official")
    layers.append((official_path, _preset(official_path)))
    preset_name = preset or file_data.get("preset")
    if preset_name is not None and preset_name != "official":
        try:
            path = definition.preset_path(str(preset_name))
        except ChoiceError as exc:
            preset_origin = None if preset or house_rules is None else house_rules
            raise _placed(exc, preset_origin, "preset") from None
        layers.append((path, _preset(path)))
    if house_rules is not None:
        layers.append(
            (house_rules, {k: v for k, v in file_data.items() if k not in FILE_ONLY_KEYS})
        )
    layers.append((SET, dict(settings or {})))
    layers.append((None, dict(options or {})))
    rules = _build(definition, _merge(definition, layers))
    official = _build(
        definition, _merge(definition, [layers[0], (None, {"players": rules.players})])
    )
    return replace(
        rules,
        official=None if official == rules else official,
        table_name=_table_name(table, file_data.get("table"), house_rules),
        agreed=_agreed(file_data.get("date"), house_rules),
    )


def _table_name(given: str | None, in_file: object, house_rules: Path | None) -> str | None:
    """The table's name for the cover: one line of printable text."""
    if given is None and in_file is None:
        return None
    origin: Origin = None if given is not None else house_rules
    try:
        name = check_title(given if given is not None else in_file, "table")
    except RuleError as exc:
        problem = exc.problem.replace("title", "name")
        raise _placed(HouseRulesError(problem), origin, "table") from None
    if len(name) > MAX_TABLE_NAME:
        problem = f"the name has {len(name)} characters; a cover prints at most {MAX_TABLE_NAME}"
        raise _fail(origin, "table", problem)
    return name


def _agreed(value: object, house_rules: Path | None) -> date | None:
    """The day the table agreed its house rules: a TOML date (``date = 2026-12-06``)."""
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise _fail(house_rules, "date", f"write the day as a date, like 2026-12-06, not {value!r}")


def _merge(
    definition: GameDef, layers: list[tuple[Origin, dict[str, Any]]]
) -> dict[str, tuple[Any, Origin]]:
    merged: dict[str, tuple[Any, Origin]] = {}
    for origin, data in layers:
        for given, value in data.items():
            # per_card, as a series file writes it, is per-card, as options spell it.
            dashed = given.replace("_", "-")
            key = dashed if dashed in definition.toggle_defs else given
            if key in merged and merged[key][1] == origin:
                raise _placed(HouseRulesError("is given twice, spelt two ways"), origin, key)
            try:
                toggle = definition.toggle(key)
            except HouseRulesError as exc:
                raise _placed(exc, origin, key) from None
            if isinstance(origin, Path):
                _check_type(definition, toggle, value, origin)
            merged[key] = (value, origin)
    return merged


def _check_type(game: GameDef, toggle: Toggle, value: Any, origin: Path) -> None:
    """A TOML file says what type a value has: a number in quotes is text, and refused
    (the command line, where everything is text, reads "4" as a number). Anything else
    that is not a number is refused by the check of its kind."""
    if toggle.kind not in ("players", "number", "stock") or not isinstance(value, str):
        return
    if re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        raise _fail(origin, toggle.name, f"write the number without quotes, not {value!r}")


def official_rules(game: str, players: int) -> HouseRules:
    """The official rules of a game for this many players."""
    return resolve(game=game, options={"players": players})


def official_of(rules: HouseRules) -> HouseRules:
    """The official rules ``rules`` were resolved against (itself if it is they)."""
    return rules.official or rules


def _preset(path: Path) -> dict[str, Any]:
    return read_toml(path)


@dataclass
class _Draft:
    """House rules on their way to a HouseRules: the game, each value as given and where it
    came from, and what the steps of ACTING have worked out so far. A step for a rule that
    changes one of the game's own facts puts the changed definition in ``game``."""

    game: GameDef
    merged: Mapping[str, tuple[Any, Origin]]
    values: dict[str, Any] = field(default_factory=dict)
    players: int = 0
    scoring: ScoringRules = field(default_factory=ScoringRules)
    deck: Deck | None = None
    stock: int = 0
    extra_text: str | None = None

    def given(self, key: str, default: Any) -> Any:
        """The value the layers gave ``key``, else ``default``."""
        return self.merged.get(key, (default, None))[0]

    def origin(self, key: str) -> Origin:
        return self.merged.get(key, (None, None))[1]

    def checked(self, key: str, check: Any, *args: Any) -> Any:
        """``check(*args)``, its error placed where the key's value came from."""
        try:
            return check(*args)
        except RuleError as exc:
            raise _placed(HouseRulesError(exc.problem), self.origin(key), key) from None
        except SheetgenError as exc:
            if exc.file is not None and exc.field is not None:
                raise  # placed in a file of its own already (a line of the --extra file)
            raise _placed(exc, self.origin(key), key) from None


def _players(draft: _Draft) -> None:
    """How many play: a whole number the game is played by."""
    game = draft.game
    draft.players = draft.checked("players", whole_number, draft.given("players", game.min_players))
    draft.checked("players", game.check_players, draft.players)
    draft.values["players"] = draft.players


def _partnerships(draft: _Draft) -> None:
    """Teams of two, only at a table the game pairs up."""
    if draft.values.get("partnerships"):
        draft.checked("partnerships", draft.game.check_partnerships, draft.players)


def _scoring(draft: _Draft) -> None:
    """The way of scoring and its figures over the game's; one that changes nothing is refused."""
    game, merged = draft.game, draft.merged
    if not draft.values.get("series"):
        _refuse_figures_without_series(game, merged)
    figures = {
        figure: _text_or_value(merged[key][0]) if key in merged else None
        for key, figure in SCORING_TOGGLES.items()
    }
    try:
        scoring = ScoringRules.from_mapping(figures, game.scoring)
    except SheetgenError as exc:
        key = next(k for k, figure in SCORING_TOGGLES.items() if figure == exc.field)
        raise _placed(HouseRulesError(exc.problem), draft.origin(key), key) from None
    for key, figure in SCORING_TOGGLES.items():
        if key in game.toggle_defs:
            draft.values[key] = getattr(scoring, figure)
    if (
        draft.values.get("series")
        and not scoring.cards_left
        and scoring.bonus == scoring.per_card == 0
    ):
        _refuse_unwinnable_series(game, merged)
    _refuse_figures_of_the_other_way(game, merged, scoring)
    draft.scoring = scoring


def _deck(draft: _Draft) -> None:
    """The deck played with: one the game declares."""
    game = draft.game
    draft.deck = draft.checked("deck", game.deck, str(draft.given("deck", game.official_deck.id)))
    draft.values["deck"] = draft.deck.id


def _stock_size(draft: _Draft) -> None:
    """Each stock pile's size: official, short or a number the deck can deal."""
    game, deck = draft.game, draft.deck
    given = draft.given("stock", "official")
    draft.stock = draft.checked("stock", _stock, game, draft.players, deck, given)
    draft.values["stock"] = draft.stock


def _own_rules(draft: _Draft) -> None:
    """The table's own rules (Markdown), read once, here."""
    extra = draft.values.get("extra")
    if extra is not None:
        draft.extra_text = draft.checked("extra", read_own_rules, extra, draft.origin("extra"))


class Acting(NamedTuple):
    """A house rule that acts on the game: the toggles whose values its step works out
    itself (no plain check of their kind), and the step."""

    sets: tuple[str, ...]
    apply: Callable[[_Draft], None]


# The house rules that act on the game, each with its small step, in the order they apply
# (a step may read what those before it worked out: the stock needs the players and the
# deck). Every other toggle is plain data, checked by its kind. A new such rule is a line
# here and its toggle's kind in STRUCTURAL (sheetgen/game/definition.py).
ACTING: dict[str, Acting] = {
    "players": Acting(("players",), _players),
    "partnerships": Acting((), _partnerships),
    "scoring": Acting(tuple(SCORING_TOGGLES), _scoring),
    "deck": Acting(("deck",), _deck),
    "stock": Acting(("stock",), _stock_size),
    "extra": Acting((), _own_rules),
}


def _build(game: GameDef, merged: Mapping[str, tuple[Any, Origin]]) -> HouseRules:
    """The plain toggles checked by their kind, then the steps of ACTING in order."""
    draft = _Draft(game, merged)
    worked_out = {name for acting in ACTING.values() for name in acting.sets}
    for name, toggle in game.toggle_defs.items():
        if name not in worked_out:
            given = draft.given(name, toggle.default)
            draft.values[name] = draft.checked(
                name, _value, game, toggle, given, draft.origin(name)
            )
    for acting in ACTING.values():
        acting.apply(draft)
    values = {name: draft.values[name] for name in draft.game.toggle_defs if name in draft.values}
    return HouseRules(
        game=draft.game.id,
        players=draft.players,
        stock=draft.stock,
        deck=draft.values["deck"],
        partnerships=bool(values.get("partnerships", False)),
        series=bool(values.get("series", False)),
        scoring=draft.scoring,
        toggles=values,
        definition=draft.game,
        extra=values.get("extra"),
        extra_text=draft.extra_text,
    )


def _chosen(game: GameDef, merged: Mapping[str, tuple[Any, Origin]], key: str) -> bool:
    """Whether the table chose this key (command line or house-rules file), not a preset."""
    if key not in merged:
        return False
    origin = merged[key][1]
    return not isinstance(origin, Path) or origin.parent != game.presets_dir


def _shown(origin: Origin, key: str) -> str:
    if origin is None:
        return f"--{key}"
    return f"{SET} {key}" if origin == SET else key


def _refuse_figures_without_series(game: GameDef, merged: Mapping[str, tuple[Any, Origin]]) -> None:
    """A series figure the table chose while it keeps no series would change nothing."""
    for key in SCORING_TOGGLES:
        if _chosen(game, merged, key):
            origin = merged[key][1]
            series = "set series = true" if isinstance(origin, Path) else "add --series"
            raise _fail(
                origin,
                key,
                f"{game.name} keeps no points without the series, so {_shown(origin, key)} "
                f"changes nothing; {series} or leave {_shown(origin, key)} out",
            )


def _refuse_figures_of_the_other_way(
    game: GameDef, merged: Mapping[str, tuple[Any, Origin]], scoring: ScoringRules
) -> None:
    """A figure the table chose that its way of scoring never uses would change nothing."""
    unused = ("target", "bonus", "per-card") if scoring.cards_left else ("games-to-play",)
    for key in unused:
        if _chosen(game, merged, key):
            origin = merged[key][1]
            if scoring.cards_left:
                problem = (
                    f"a cards-left series has no points, so {_shown(origin, key)} changes "
                    f"nothing: the lowest total after {scoring.games_to_play} games wins"
                )
            else:
                problem = (
                    f"only a cards-left series is played for an agreed number of games, so "
                    f"{_shown(origin, key)} changes nothing; choose cards-left scoring or "
                    f"leave {_shown(origin, key)} out"
                )
            raise _fail(origin, key, problem)


def _refuse_unwinnable_series(game: GameDef, merged: Mapping[str, tuple[Any, Origin]]) -> None:
    """A series where no game pays a point could never be won."""
    chosen = [key for key in ("bonus", "per-card") if _chosen(game, merged, key)] or ["bonus"]
    origin = merged[chosen[-1]][1] if chosen[-1] in merged else None
    fields = ", ".join(_shown(origin, key) for key in ("bonus", "per-card"))
    raise HouseRulesError(
        f"a {game.name} series could never be won: with 0 points for going out and 0 per "
        f"card left, no game pays any points; give {' or '.join(fields.split(', '))} "
        "1 or more",
        file=origin if isinstance(origin, Path) else None,
        field=fields,
    )


def _text_or_value(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _value(game: GameDef, toggle: Toggle, value: Any, origin: Origin) -> Any:
    """A toggle's value checked against its kind; text from --set is read by the kind."""
    if toggle.kind == "bool":
        # TOML has true and false; only text typed after --set is read as one.
        if origin == SET and isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
            return value.strip().lower() in _TRUE
        if not isinstance(value, bool):
            raise HouseRulesError(f"{game.name}'s {toggle.name} is true or false, not {value!r}")
        return value
    if toggle.kind == "choice":
        for choice in toggle.choices:
            if value == choice or (isinstance(value, str) and value.strip() == str(choice)):
                return choice
        shown = ", ".join(str(choice) for choice in toggle.choices)
        raise HouseRulesError(f"{value!r} is not a choice for {game.name}; choose {shown}")
    if toggle.kind == "number":
        try:
            number = whole_number(value)
        except NumberTooLargeError:
            raise  # the one bound every number meets, said the one way
        except RuleError:
            raise HouseRulesError(
                f"{game.name}'s {toggle.name} is a whole number, not {value!r}"
            ) from None
        if toggle.low is not None and number < toggle.low:
            raise HouseRulesError(
                f"{game.name}'s {toggle.name} is {toggle.low} or more, not {number}"
            )
        return number
    if value is None:
        return None
    if not isinstance(value, (str, Path)) or not str(value).strip():
        raise HouseRulesError(f"{value!r} is not a file name; give a Markdown file")
    if "\0" in str(value):
        raise _unusable(str(value))
    extra = _beside(origin, str(value)) if isinstance(origin, Path) else Path(value)
    try:
        readable = extra.is_file()
    except OSError as exc:
        raise _unusable(str(value), exc) from None
    if not readable:
        raise HouseRulesError(f"{extra} is not a readable Markdown file")
    return extra


def _stock(game: GameDef, players: int, deck: Deck, value: Any) -> int:
    if value == "official":
        size = game.default_stock(players)
    elif value == "short" and game.short_stock is not None:
        size = game.short_stock
    else:
        named = "official, short or" if game.short_stock is not None else "official or"
        try:
            size = whole_number(value)
        except NumberTooLargeError:
            raise
        except SheetgenError:
            raise HouseRulesError(
                f"{value!r} is not a {game.stock_word} size; give {named} a number"
            ) from None
    game.check_stock(players, size, deck)
    return size


def differences(rules: HouseRules) -> list[str]:
    """The toggles whose value differs from the official rules for this many players.

    Only toggles the game's house_rules table has a sentence for count; the
    scoring figures count only while the points game is on, and only those of
    the way it is scored.
    """
    game = rules.definition
    official = official_of(rules)
    unused = {"games-to-play"} if not rules.scoring.cards_left else {"target", "bonus", "per-card"}
    changed: list[str] = []
    for toggle in game.house_rules:
        if toggle in SCORING_TOGGLES and (not rules.series or toggle in unused):
            continue
        if toggle == "extra":
            if rules.extra is not None:
                changed.append(toggle)
            continue
        if rules.value(toggle) != official.value(toggle):
            changed.append(toggle)
    return changed
