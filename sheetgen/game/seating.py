"""Who sits at the table: players, partnerships and the size of the stock piles.

Pure data and checks: no I/O and no click. The deal arithmetic lives here too
because every document (sheet, booklet, series file) asks the same questions:
how many cards go in each stock pile, and what is left for the draw pile.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from sheetgen.errors import RuleError
from sheetgen.game.definition import TEAM_SIZE, GameDef, load_game
from sheetgen.game.names import (
    check_length,
    is_control,
    is_ignorable,
    name_key,
    normal,
    refuse_half_characters,
    refuse_lookalikes,
)


class Team(NamedTuple):
    """Two partners who play as one side."""

    name: str
    members: tuple[str, ...]


class Table(NamedTuple):
    """The players of a series, their partnerships if any, and the stock size."""

    players: tuple[str, ...]
    stock: int
    teams: tuple[Team, ...] = ()

    @property
    def partnership(self) -> bool:
        return bool(self.teams)

    @property
    def sides(self) -> tuple[str, ...]:
        """The names that score: the teams in partnership play, else the players."""
        if self.teams:
            return tuple(team.name for team in self.teams)
        return self.players

    def side_of(self, player: str) -> str:
        """The side a player scores for."""
        for team in self.teams:
            if player in team.members:
                return team.name
        return player

    def members(self, side: str) -> tuple[str, ...]:
        """The players who make up a side."""
        for team in self.teams:
            if team.name == side:
                return team.members
        return (side,)

    def side_label(self, side: str) -> str:
        """A side as standings and exports name it: ``Red (Ann + Cy)``, or the player."""
        if not self.partnership:
            return side
        return f"{side} ({' + '.join(self.members(side))})"


class Deal(NamedTuple):
    """The deal in numbers: what the stock piles take and what is left on the table."""

    players: int
    stock: int
    deck: int
    laid_out: int
    hand: int

    @property
    def dealt(self) -> int:
        """Cards in all the stock piles together."""
        return self.players * self.stock

    @property
    def draw_pile(self) -> int:
        """Cards left to draw after the stock piles and the laid-out cards, before hands."""
        return self.deck - self.dealt - self.laid_out

    @property
    def after_hands(self) -> int:
        """Cards left to draw once every player holds a first hand."""
        return self.draw_pile - self.players * self.hand


def _game(game: GameDef | None) -> GameDef:
    return game if game is not None else load_game()


def deal(
    players: int,
    stock: int | None = None,
    *,
    game: GameDef | None = None,
    deck: str | None = None,
) -> Deal:
    """How the game's deck divides between the stock piles and what is left to draw."""
    game = _game(game)
    game.check_players(players)
    chosen = game.official_deck if deck is None else game.deck(deck)
    size = game.default_stock(players) if stock is None else stock
    game.check_stock(players, size, chosen)
    return Deal(players, size, chosen.cards, game.laid_out, game.hand)


def deal_text(
    players: int,
    stock: int | None = None,
    *,
    game: GameDef | None = None,
    deck: str | None = None,
) -> str:
    """The deal in words and numbers, for the ``deal`` command."""
    game = _game(game)
    numbers = deal(players, stock, game=game, deck=deck)
    laid = f" and {numbers.laid_out} laid out" if numbers.laid_out else ""
    chosen = game.official_deck if deck is None else game.deck(deck)
    return (
        f"{players} players, {numbers.stock} cards in each {game.stock_word}: "
        f"{numbers.dealt} dealt{laid} from the {numbers.deck}-card deck, "
        f"{numbers.draw_pile} left in the {game.words.get('draw', 'draw pile')}.\n"
        f"The largest {game.stock_word} for {players} players is "
        f"{game.largest_stock(players, chosen.cards)} cards.\n"
    )


def check_name(name: object, field: str) -> str:
    if name is None:  # YAML's ~ or an empty value
        raise RuleError("a name cannot be blank or ~ (which YAML reads as nothing)", field=field)
    if not isinstance(name, str):
        raise RuleError(f"a name must be text, not {name!r}", field=field)
    if not name.strip():
        raise RuleError("a name cannot be blank", field=field)
    if name != name.strip():
        raise RuleError(f"{name!r} starts or ends with spaces", field=field)
    refuse_half_characters(name, field)
    control = next((char for char in name if is_control(char)), None)
    if control is not None:
        raise RuleError(
            f"{name!r} holds the control character U+{ord(control):04X}; "
            "a name is one line of printable text",
            field=field,
        )
    hidden = next((char for char in name if is_ignorable(char)), None)
    if hidden is not None:
        raise RuleError(
            f"{name!r} holds the invisible character U+{ord(hidden):04X}; "
            "a name is made of characters a reader can see",
            field=field,
        )
    check_length(name, field)
    return normal(name)


def make_table(
    players: Iterable[str],
    *,
    stock: int | None = None,
    teams: Mapping[str, Iterable[str]] | None = None,
    game: GameDef | None = None,
    deck: str | None = None,
) -> Table:
    """Check a table's players, partnerships and stock against the game, and build it."""
    game = _game(game)
    names = tuple(players)
    game.check_players(len(names))
    names = tuple(check_name(name, f"players, player {i}") for i, name in enumerate(names, 1))
    refuse_lookalikes(names, "players")
    built_teams: tuple[Team, ...] = ()
    if teams:
        built_teams = _make_teams(names, teams, game)
    size = game.default_stock(len(names)) if stock is None else stock
    if isinstance(size, bool) or not isinstance(size, int):
        raise RuleError(f"{size!r} is not a whole number of cards", field="stock")
    game.check_stock(len(names), size, game.official_deck if deck is None else game.deck(deck))
    return Table(players=names, stock=size, teams=built_teams)


def _make_teams(
    names: tuple[str, ...], teams: Mapping[str, Iterable[str]], game: GameDef
) -> tuple[Team, ...]:
    try:
        game.check_partnerships(len(names))
    except RuleError as exc:
        raise exc.at(field="teams") from None
    built: list[Team] = []
    placed: dict[str, str] = {}
    for typed_name, members in teams.items():
        team_name = check_name(typed_name, "teams")
        if name_key(team_name) in {name_key(name) for name in names}:
            raise RuleError(f"team {team_name} has the same name as a player", field="teams")
        team_members = tuple(normal(m) if isinstance(m, str) else m for m in members)
        if len(team_members) != TEAM_SIZE:
            raise RuleError(
                f"team {team_name} has {len(team_members)} players; a team is {TEAM_SIZE} partners",
                field="teams",
            )
        for member in team_members:
            if member not in names:
                raise RuleError(
                    f"{member} in team {team_name} is not one of the players", field="teams"
                )
            if member in placed:
                raise RuleError(
                    f"{member} is in both team {placed[member]} and team {team_name}",
                    field="teams",
                )
            placed[member] = team_name
        built.append(Team(team_name, team_members))
    refuse_lookalikes([team.name for team in built], "teams")
    missing = [name for name in names if name not in placed]
    if missing:
        raise RuleError(
            f"{', '.join(missing)} is on no team; every player needs one", field="teams"
        )
    return tuple(built)


def parse_names(text: str) -> list[str]:
    """Split a comma-separated list of names as typed on the command line."""
    return [part.strip() for part in text.split(",")]


def parse_teams(text: str) -> dict[str, list[str]]:
    """Read ``Red=Ann+Cy,Blue=Bob+Di`` into a mapping of team to partners."""
    teams: dict[str, list[str]] = {}
    for chunk in text.split(","):
        name, sep, members = chunk.partition("=")
        name = name.strip()
        if not sep or not name or not members.strip():
            raise RuleError(
                f"{chunk.strip()!r} is not a team; write NAME=PLAYER+PLAYER, "
                "for example Red=Ann+Cy",
                field="teams",
            )
        if name in teams:
            raise RuleError(f"team {name} is listed twice", field="teams")
        teams[name] = [member.strip() for member in members.split("+")]
    return teams
