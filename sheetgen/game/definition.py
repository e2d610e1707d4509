"""Load the game definitions: one folder and one game.toml per game.

A game is data (see rules/README.md): its name, player range, hand, decks,
stock sizes, scoring, the house-rules toggles it accepts, its presets and its
sections. Nothing here knows any game by name; every folder with a game.toml
is offered, from the package's own rules/ and from the folders a table adds
with ``--rules-dir`` or ``SHEETGEN_RULES_PATH``.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from sheetgen.errors import (
    ChoiceError,
    GameDefinitionError,
    HouseRulesError,
    RuleError,
    SheetgenError,
)
from sheetgen.game.scoringrules import SCORING_KEYS, WAYS, ScoringRules
from sheetgen.numbers import whole_number
from sheetgen.resources import rules_dir
from sheetgen.tomlfile import load_toml, read_toml_text

DEFINITION = "game.toml"
DEFAULT_GAME = "skip-bo"
RULES_PATH_ENV = "SHEETGEN_RULES_PATH"
TEAM_SIZE = 2

# Toggles whose meaning the pipeline knows (who sits, what is dealt, how the series
# scores), with the kind each must have; a game declares those it lets a table change.
# Any other toggle a game declares is plain data for its templates.
STRUCTURAL = {
    "players": "players",
    "stock": "stock",
    "deck": "deck",
    "extra": "file",
    "partnerships": "bool",
    "series": "bool",
    "scoring": "scoring",
    "target": "number",
    "bonus": "number",
    "per-card": "number",
    "games-to-play": "number",
}
# Kinds a game's own toggles may have.
PLAIN_KINDS = ("bool", "choice", "number")
# Keys of a house-rules file that are not toggles, and names templates use otherwise.
FILE_ONLY_KEYS = ("game", "preset", "table", "date")
_RESERVED = {*FILE_ONLY_KEYS, "set", "definition", "toggles", "official", "value", "way"}
_TOGGLE_KEYS = ("kind", "default", "choices", "min", "help")
_TOGGLE_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_RENAMED = {"picture_alt": "picture_caption"}  # keys an older game folder may still use
_TOP_KEYS = {
    "name",
    "players",
    "hand",
    "partnerships",
    "toggles",
    "picture",
    "picture_caption",
    "picture_labels",
    "words",
    "stock",
    "decks",
    "scoring",
    "house_rules",
    "disputed",
    "suggested",
    "standard_rules",
    "subtitle",
    "sections",
    "deal",
}
_SECTION_KEYS = {"file", "when", "picture", "own_page", "slot"}
# Folders added by --rules-dir for this run (the command line sets them, once per command).
_added_dirs: tuple[Path, ...] = ()


class Deck(NamedTuple):
    """A deck a game can be played with."""

    id: str
    cards: int
    label: str
    # Words this deck says its own way ("king or joker" for the wild): they replace the
    # game's [words] of the same name wherever the deck is played.
    words: Mapping[str, str] = {}


class Toggle(NamedTuple):
    """A house rule a table may change, as the game declares it under [toggles.NAME]."""

    name: str
    kind: str
    default: Any = None
    choices: tuple[Any, ...] = ()
    low: int | None = None
    help: str = ""

    @property
    def structural(self) -> bool:
        """Whether the pipeline itself reads this toggle (players, stock, scoring ...)."""
        return self.name in STRUCTURAL


class Section(NamedTuple):
    """One section of the booklet: a Markdown file, or the slot for the table's extra rules."""

    file: str | None
    when: str | None = None
    # Where the table picture goes in this section: "last" (after its text) or "first"
    # (ahead of its first subsection); None: not here.
    picture: str | None = None
    own_page: bool = False
    slot: str | None = None


class GameDef(NamedTuple):
    """A game as <folder>/game.toml defines it: every fact of the game lives here."""

    id: str
    folder: Path
    name: str
    min_players: int
    max_players: int
    hand: int
    toggle_defs: Mapping[str, Toggle]
    words: Mapping[str, str]
    official_stock: Mapping[int, int]
    short_stock: int | None
    decks: tuple[Deck, ...]
    scoring: ScoringRules
    house_rules: Mapping[str, str]
    sections: tuple[Section, ...]
    partnership_players: tuple[int, ...] = ()
    picture: str | None = None
    picture_caption: str = ""
    laid_out: int = 0
    draw_left: int = 0
    # Toggles the sources disagree about: the house-rules box always says what the table chose.
    disputed: frozenset[str] = frozenset()
    # Rulings this booklet suggests where the sources are silent: the box lists them.
    suggested: tuple[str, ...] = ()
    # What the box calls the rules a table plays without house rules.
    # (empty: the official rules, in the booklet's language).
    standard_rules: str = ""
    # A line under the name on the cover ("the two-pack ancestor of Skip-Bo"); none if empty.
    subtitle: str = ""
    # The words drawn in the table picture (jinja2 text), by the names the picture uses.
    picture_labels: Mapping[str, str] = {}
    # The language of the prose above (name, words, sentences, labels): "en" as read from
    # game.toml, another when sheetgen.game.language has laid the game's <lang>/ folder over it.
    lang: str = "en"

    @property
    def text_folder(self) -> Path:
        """The folder holding this language's sections and examples (the game's own for
        English, its ``<lang>/`` folder otherwise)."""
        return self.folder if self.lang == "en" else self.folder / self.lang

    @property
    def toggles(self) -> frozenset[str]:
        """The names of the house rules a table may change."""
        return frozenset(self.toggle_defs)

    def toggle(self, name: str) -> Toggle:
        """The declaration of toggle ``name``; a game that has none says which it has."""
        if name not in self.toggle_defs:
            # A slip of the keys (per-crad), not another game's setting (first-player).
            near = difflib.get_close_matches(
                name.replace("_", "-"), self.toggle_defs, n=1, cutoff=0.85
            )
            settings = ", ".join(sorted(self.toggle_defs))
            if near:
                raise HouseRulesError(
                    f"is not a setting of {self.name}; did you mean {near[0]}? "
                    f"Its settings are {settings}",
                    field=name,
                )
            raise HouseRulesError(
                f"does not apply to {self.name}; its settings are {settings}", field=name
            )
        return self.toggle_defs[name]

    @property
    def bonus(self) -> int:
        return self.scoring.bonus

    @property
    def per_card(self) -> int:
        return self.scoring.per_card

    @property
    def target(self) -> int:
        return self.scoring.target

    @property
    def stock_word(self) -> str:
        """The game's word for a player's own pile (stock pile, pay-off pile, played deck)."""
        return self.words.get("stock", "stock pile")

    @property
    def stocks_word(self) -> str:
        return self.words.get("stocks", f"{self.stock_word}s")

    @property
    def player_span(self) -> str:
        """ "2 to 6" or, when both ends agree, "2"."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    def check_players(self, players: int) -> None:
        """Refuse a table size the game is not played by."""
        if not self.min_players <= players <= self.max_players:
            raise RuleError(
                f"{self.name} is played by {self.player_span} players, not {players}",
                field="players",
            )

    def check_partnerships(self, players: int) -> None:
        """Refuse teams of two at a table of ``players`` the game does not pair up."""
        if players not in self.partnership_players:
            counts = " or ".join(str(count) for count in self.partnership_players) or "no number"
            raise RuleError(
                f"teams of two need {counts} players, not {players}", field="partnerships"
            )

    def largest_stock(self, players: int, cards: int) -> int:
        """The biggest stock every player can be dealt, leaving the table its deal.

        Cards laid out on the table and those that must stay to draw are kept
        out of the deal; every player must still draw a first hand.
        """
        return (cards - self.laid_out - self.draw_left) // players - self.hand

    def check_stock(self, players: int, size: int, deck: Deck) -> None:
        """Refuse a stock size the deck cannot deal to this many players."""
        largest = self.largest_stock(players, deck.cards)
        if 1 <= size <= largest:
            return
        if size < 1:
            raise RuleError(
                f"a {self.name} {self.stock_word} needs at least 1 card; choose 1 to {largest}",
                field="stock",
            )
        laid = f" with {self.laid_out} cards laid out" if self.laid_out else ""
        left = ""
        if self.draw_left:
            cards = "card" if self.draw_left == 1 else "cards"
            left = f" and leave {self.draw_left} {cards} to draw"
        raise RuleError(
            f"{players} players cannot each be dealt a {size}-card {self.stock_word} from a "
            f"{deck.cards}-card deck{laid}: every player must still draw a first hand "
            f"of {self.hand}{left}; choose 1 to {largest}",
            field="stock",
        )

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
                f"{self.name} has no preset {name!r}; choose {', '.join(self.preset_names())}",
                field="preset",
            )
        # A preset is one of the game's own files, like its sections: never a link out.
        return inside_game(self.folder, f"presets/{name}.toml", "preset", file=path)

    def default_stock(self, players: int) -> int:
        """The official size of each player's stock for this many players."""
        self.check_players(players)
        return self.official_stock[players]

    @property
    def official_deck(self) -> Deck:
        return self.decks[0]

    def deck(self, deck_id: str) -> Deck:
        for deck in self.decks:
            if deck.id == deck_id:
                return deck
        raise ChoiceError(
            f"{self.name} is not played with {deck_id!r}; "
            f"choose {', '.join(deck.id for deck in self.decks)}",
            field="deck",
        )


def use_rules_dirs(folders: Iterable[Path]) -> None:
    """Offer the games in ``folders`` too (before the package's own), for this run."""
    global _added_dirs
    _added_dirs = tuple(folders)
    for folder in _added_dirs:
        if not folder.is_dir():
            raise ChoiceError(f"{folder} is not a folder of games", field="--rules-dir")


def added_rules_dirs() -> tuple[Path, ...]:
    """The folders ``use_rules_dirs`` added for this run."""
    return _added_dirs


def search_path() -> tuple[Path, ...]:
    """Where games are looked for, first match wins: --rules-dir, SHEETGEN_RULES_PATH, rules/."""
    from_env = []
    for entry in os.environ.get(RULES_PATH_ENV, "").split(os.pathsep):
        if not entry:
            continue
        folder = Path(entry)
        if not folder.is_dir():
            raise ChoiceError(f"{entry} is not a folder of games", field=RULES_PATH_ENV)
        from_env.append(folder)
    return (*_added_dirs, *from_env, rules_dir())


def game_folders() -> dict[str, Path]:
    """Every game on the search path by id: folders holding a game.toml, or being one."""
    return dict(_folders(search_path()))


@cache
def _folders(places: tuple[Path, ...]) -> tuple[tuple[str, Path], ...]:
    # Looked up once per search path: a batch asks for its series' game once per file.
    found: dict[str, Path] = {}
    for place in places:
        try:
            candidates = [place] if (place / DEFINITION).is_file() else sorted(place.iterdir())
            for folder in candidates:
                if (folder / DEFINITION).is_file():
                    found.setdefault(folder.name, folder)
        except OSError as exc:
            raise ChoiceError(
                f"cannot look for games in {place} ({exc.strerror or exc})", field="rules-dir"
            ) from None
    return tuple(found.items())


def game_ids() -> list[str]:
    """Every game that can be asked for, sorted."""
    return sorted(game_folders())


def games_text(game_id: str | None = None) -> tuple[str, list[SheetgenError]]:
    """Every game (or one) with its players and the toggles it declares, for a terminal,
    and the games that could not be read: one broken folder hides none of the others."""
    lines: list[str] = []
    broken: list[SheetgenError] = []
    for name in [game_id] if game_id else game_ids():
        try:
            game = load_game(name)
        except SheetgenError as exc:
            if game_id:
                raise
            broken.append(exc)
            continue
        lines.append(f"{game.id}: {game.name}, {game.player_span} players ({game.folder})")
        width = max(len(toggle) for toggle in game.toggle_defs)
        for toggle in game.toggle_defs.values():
            allowed = ", ".join(str(choice) for choice in toggle.choices)
            kind = f"{toggle.kind}: {allowed}" if allowed else toggle.kind
            lines.append(f"  {toggle.name.ljust(width)}  {toggle.help or '-'} [{kind}]")
    return "".join(line + "\n" for line in lines), broken


def load_game(game_id: str = DEFAULT_GAME) -> GameDef:
    """Read and check <folder>/game.toml for ``game_id``."""
    folders = game_folders()
    if game_id not in folders:
        raise ChoiceError(
            f"no rules for {game_id!r}; choose {', '.join(sorted(folders))}", field="game"
        )
    folder = folders[game_id]
    return _load(game_id, folder.resolve(), (folder / DEFINITION).stat().st_mtime_ns)


@cache
def _load(game_id: str, folder: Path, _mtime: int) -> GameDef:
    path = folder / DEFINITION
    try:
        inside_game(folder, DEFINITION, file=path)
        data = load_toml(read_toml_text(path, within=folder))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise GameDefinitionError(f"cannot read the game definition ({exc})", file=path) from exc
    try:
        return _parse(game_id, folder, data)
    except SheetgenError as exc:
        raise exc.at(file=path) from None


def _fail(key: str, problem: str) -> GameDefinitionError:
    return GameDefinitionError(problem, field=key)


def _whole(value: Any, key: str, low: int = 0) -> int:
    number = whole_number(value, key)
    if number < low:
        raise _fail(key, f"{number} is below {low}")
    return number


def _deck_words(words: object, deck_id: str) -> Mapping[str, str]:
    if not isinstance(words, dict) or not all(isinstance(text, str) for text in words.values()):
        raise _fail(f"decks.{deck_id}.words", 'give a table of texts, for example wild = "king"')
    return dict(words)


def _parse(game_id: str, folder: Path, data: dict[str, Any]) -> GameDef:
    """The game ``data`` (its game.toml) defines, checked step by step in the file's terms."""
    _check_keys(data)
    low, high = _players(data["players"])
    toggles = _toggles(data["toggles"], [deck_id for deck_id in data["decks"]])
    official = _official_stock(data["stock"], low, high)
    short = data["stock"].get("short")
    decks = _decks(data["decks"])
    pairs = data.get(
        "partnerships", [n for n in range(low, high + 1) if n % TEAM_SIZE == 0 and n > TEAM_SIZE]
    )
    sections = _sections(folder, data["sections"])
    picture = _picture(folder, data.get("picture"))
    scoring = _scoring(data.get("scoring", {}))
    disputed = _disputed(data)
    dealing = _dealing(data)
    game = GameDef(
        id=game_id,
        folder=folder,
        name=str(data["name"]),
        min_players=low,
        max_players=high,
        hand=_whole(data["hand"], "hand"),
        toggle_defs=toggles,
        words=dict(data.get("words", {})),
        official_stock=official,
        short_stock=None if short is None else _whole(short, "stock.short", 1),
        decks=decks,
        scoring=scoring,
        house_rules=dict(data.get("house_rules", {})),
        sections=sections,
        partnership_players=tuple(_whole(n, "partnerships", 2) for n in pairs),
        picture=picture,
        picture_caption=str(data.get("picture_caption", "")),
        laid_out=_whole(dealing.get("laid_out", 0), "deal.laid_out"),
        draw_left=_whole(dealing.get("draw_left", 0), "deal.draw_left"),
        disputed=disputed,
        suggested=tuple(str(line) for line in data.get("suggested", ())),
        standard_rules=str(data.get("standard_rules", "")),
        subtitle=str(data.get("subtitle", "")),
        picture_labels={
            str(key): str(value) for key, value in data.get("picture_labels", {}).items()
        },
    )
    _check_game(game, official)
    return game


def _check_keys(data: dict[str, Any]) -> None:
    """Refuse a key game.toml does not take, and miss none it must have."""
    for key in data:
        if key in _RENAMED:
            raise _fail(key, f"is now called {_RENAMED[key]}; rename it (see rules/README.md)")
        if key not in _TOP_KEYS:
            raise _fail(key, f"unknown key; a game definition has {', '.join(sorted(_TOP_KEYS))}")
    for key in ("name", "players", "hand", "toggles", "decks", "stock", "sections"):
        if key not in data:
            raise _fail(key, "missing; see rules/README.md")


def _players(span: Any) -> tuple[int, int]:
    """The fewest and the most players, ``players = [2, 6]``."""
    if not isinstance(span, list) or len(span) != 2:
        raise _fail("players", "give the fewest and the most players, for example [2, 6]")
    low, high = _whole(span[0], "players", 1), _whole(span[1], "players", 1)
    if low > high:
        raise _fail("players", f"the fewest, {low}, is more than the most, {high}")
    return low, high


def _official_stock(stock: Any, low: int, high: int) -> dict[int, int]:
    """[stock] official: each player's stock pile for every number of players."""
    official = {
        _whole(players, "stock.official", 1): _whole(cards, "stock.official", 1)
        for players, cards in stock.get("official", {}).items()
    }
    for players in range(low, high + 1):
        if players not in official:
            raise _fail("stock.official", f"no stock size for {players} players")
    return official


def _decks(raw: Any) -> tuple[Deck, ...]:
    """The [decks.ID] tables, the official deck first."""
    decks = tuple(
        Deck(
            deck_id,
            _whole(deck.get("cards"), f"decks.{deck_id}.cards", 1),
            str(deck["label"]),
            _deck_words(deck.get("words", {}), deck_id),
        )
        for deck_id, deck in raw.items()
    )
    if not decks:
        raise _fail("decks", "a game needs at least one deck")
    return decks


def _picture(folder: Path, picture: object) -> str | None:
    """The table picture's template, one of the game's own files."""
    if picture is None:
        return None
    if not isinstance(picture, str):
        raise _fail("picture", "give the name of a template file in the game's folder")
    inside_game(folder, picture, "picture")
    return picture


def _scoring(scoring_data: Any) -> ScoringRules:
    """The game's [scoring] table: its way of scoring and the figures it differs in."""
    for key in scoring_data:
        if key not in SCORING_KEYS:
            raise _fail(f"scoring.{key}", f"unknown key; [scoring] takes {', '.join(SCORING_KEYS)}")
    try:
        return ScoringRules.from_mapping(scoring_data)
    except SheetgenError as exc:
        raise exc.at(field=f"scoring.{exc.field}") from None


def _disputed(data: dict[str, Any]) -> frozenset[str]:
    """The toggles the sources disagree about, each with its sentence under [house_rules]."""
    disputed = frozenset(data.get("disputed", ()))
    for toggle in disputed:
        if toggle not in data.get("house_rules", {}):
            raise _fail("disputed", f"{toggle!r} has no sentence under [house_rules]")
    return disputed


def _dealing(data: dict[str, Any]) -> dict[str, Any]:
    """The [deal] table: the cards laid out on the table and those left to draw."""
    dealing: dict[str, Any] = data.get("deal", {})
    for key in dealing:
        if key not in ("laid_out", "draw_left"):
            raise _fail(f"deal.{key}", "unknown key; [deal] takes laid_out and draw_left")
    return dealing


def _check_game(game: GameDef, official: Mapping[int, int]) -> None:
    """What only the whole game can show: every house-rule sentence has its toggle, the
    official preset is there, and the deck deals every official stock."""
    for key in game.house_rules:
        if key not in game.toggle_defs:
            raise _fail(f"house_rules.{key}", f"no toggle {key!r} is declared under [toggles]")
    if "official" not in game.preset_names():
        raise _fail("presets", f"{game.presets_dir}/official.toml is missing")
    for players, size in official.items():
        if game.min_players <= players <= game.max_players:
            try:
                game.check_stock(players, size, game.official_deck)
            except RuleError as exc:
                raise GameDefinitionError(exc.problem, field="stock.official") from None


def _toggles(raw: Any, deck_ids: list[str]) -> dict[str, Toggle]:
    """Read the [toggles.NAME] tables: each toggle's kind, default, choices and help."""
    if not isinstance(raw, dict):
        raise _fail("toggles", "declare each toggle as a table: [toggles.first-player]")
    toggles: dict[str, Toggle] = {}
    for name, spec in raw.items():
        where = f"toggles.{name}"
        if not _TOGGLE_NAME.fullmatch(name) or name.replace("-", "_") in _RESERVED:
            raise _fail(
                where,
                "a toggle's name is lower-case words joined by hyphens, not "
                f"one of {', '.join(sorted(_RESERVED))}",
            )
        if not isinstance(spec, dict):
            raise _fail(where, "give a table: kind, default, choices, min, help")
        for key in spec:
            if key not in _TOGGLE_KEYS:
                raise _fail(
                    f"{where}.{key}", f"unknown key; a toggle has {', '.join(_TOGGLE_KEYS)}"
                )
        fixed = STRUCTURAL.get(name)
        if fixed is None and "kind" not in spec:
            raise _fail(f"{where}.kind", f"missing; give one of {', '.join(PLAIN_KINDS)}")
        kind = str(spec.get("kind", fixed))
        if fixed is not None and kind != fixed:
            raise _fail(f"{where}.kind", f"{name} is a {fixed} toggle, not {kind!r}")
        if fixed is None and kind not in PLAIN_KINDS:
            raise _fail(f"{where}.kind", f"{kind!r} is not a kind; choose {', '.join(PLAIN_KINDS)}")
        choices = tuple(spec.get("choices", ()))
        if kind == "choice" and not choices:
            raise _fail(f"{where}.choices", "a choice toggle lists its choices")
        if kind == "deck":
            choices = tuple(deck_ids)
        if kind == "scoring":
            choices = WAYS
        default = spec.get("default")
        if default is None:
            default = {"bool": False, "choice": choices[0] if choices else None}.get(kind)
        if kind == "number" and fixed is None and default is None:
            raise _fail(f"{where}.default", "a number toggle gives its default")
        if choices and default is not None and default not in choices:
            raise _fail(f"{where}.default", f"{default!r} is not one of its choices")
        low = spec.get("min")
        toggles[name] = Toggle(
            name=name,
            kind=kind,
            default=default,
            choices=choices,
            low=None if low is None else _whole(low, f"{where}.min", -(10**9)),
            help=str(spec.get("help", "")),
        )
    return toggles


def inside_game(
    folder: Path,
    name: str,
    field: str | None = None,
    *,
    kind: str = "file",
    file: Path | None = None,
) -> Path:
    """``folder / name`` resolved, refused if it is missing, is not a ``kind`` ("file" or
    "folder") or lies outside the game's folder (through ``..`` or a symbolic link): a game
    folder may be anyone's download. Every file and folder a game is read from passes here
    (sections, picture, the English and each language's game.toml, sections and examples)."""
    path = folder / name

    def refused(problem: str) -> GameDefinitionError:
        return GameDefinitionError(problem, file=file, field=field)

    try:
        resolved = os.path.realpath(path, strict=True)
    except (OSError, RuntimeError):
        raise refused(f"{name} does not exist") from None
    root = _real_folder(folder)
    if os.path.commonpath((resolved, root)) != root:
        raise refused(
            f"{name} lies outside the game's folder ({resolved}); a game may use only its own files"
        )
    if not (os.path.isdir(resolved) if kind == "folder" else os.path.isfile(resolved)):
        raise refused(f"{name} is not a {kind}")
    return Path(resolved)


def _real_folder(folder: Path) -> str:
    """The game folder with every link resolved (os.path: a dozen files are checked per game,
    and pathlib's resolve costs several times as much)."""
    return os.path.realpath(folder)


def _picture_place(value: object, where: str) -> str | None:
    """A section's ``picture``: true (after its text), "first" (ahead of its first
    subsection) or false."""
    if isinstance(value, bool):
        return "last" if value else None
    if value != "first":
        raise _fail(
            f"{where}, picture",
            'give true (after the section\'s text) or "first" (ahead of its first subsection)',
        )
    return "first"


def _sections(folder: Path, raw_sections: Any) -> tuple[Section, ...]:
    sections: list[Section] = []
    for index, raw in enumerate(raw_sections, start=1):
        for key in raw:
            if key not in _SECTION_KEYS:
                raise _fail(f"sections {index}", f"unknown key {key!r}")
        file = raw.get("file")
        if file is not None:
            if not isinstance(file, str):
                raise _fail(f"sections {index}", "file must be the name of a file in sections/")
            inside_game(folder, f"sections/{file}", f"sections {index}")
        sections.append(
            Section(
                file=file,
                when=raw.get("when"),
                picture=_picture_place(raw.get("picture", False), f"sections {index}"),
                own_page=bool(raw.get("own_page", False)),
                slot=raw.get("slot"),
            )
        )
    return tuple(sections)
