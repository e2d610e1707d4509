"""Who sits at the table: players, partnerships and the size of the stock piles.

Pure data and checks: no I/O and no click. The deal arithmetic lives here too
because every document (sheet, booklet, series file) asks the same questions:
how many cards go in each stock pile, and what is left for the draw pile.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sheetgen.errors import RuleError

MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND_SIZE = 5
SKIP_BO_DECK = 162
SHORT_STOCK = 10
TEAM_SIZE = 2
PARTNERSHIP_PLAYERS = (4, 6)
# Embeddings, overrides and isolates reorder the text around them (marks like U+200F do not).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class Team:
    """Two partners who play as one side."""

    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Table:
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


@dataclass(frozen=True)
class Deal:
    """The deal in numbers."""

    players: int
    stock: int
    deck: int
    draw_pile: int


def default_stock(players: int) -> int:
    """The official stock pile: 30 cards for 2 to 4 players, 20 for 5 or 6."""
    return 30 if players <= 4 else 20


def max_stock(
    players: int, deck: int = SKIP_BO_DECK, hand: int = HAND_SIZE, reserved: int = 0
) -> int:
    """The largest stock pile the deck can deal and still fill every first hand.

    ``reserved`` cards stay out of the deal: laid out on a board, or kept to draw.
    """
    return (deck - reserved) // players - hand


def check_player_count(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            f"players: {players} is not a table size; Skip-Bo is played by "
            f"{MIN_PLAYERS} to {MAX_PLAYERS} players"
        )


def check_stock(players: int, stock: int, deck: int = SKIP_BO_DECK) -> None:
    """Refuse a stock size the deck cannot deal to this many players."""
    largest = max_stock(players, deck)
    if stock < 1 or stock > largest:
        raise RuleError(
            f"stock: {players} players cannot each be dealt a {stock}-card stock pile from a "
            f"{deck}-card deck: every player must still draw a first hand of {HAND_SIZE}; "
            f"choose 1 to {largest}"
        )


def deal(players: int, stock: int | None = None, deck: int = SKIP_BO_DECK) -> Deal:
    """How the deck divides between the stock piles and the draw pile."""
    check_player_count(players)
    size = default_stock(players) if stock is None else stock
    check_stock(players, size, deck)
    return Deal(players=players, stock=size, deck=deck, draw_pile=deck - players * size)


def deal_text(players: int, stock: int | None = None, deck: int = SKIP_BO_DECK) -> str:
    """The deal in words and numbers, for the ``deal`` command."""
    numbers = deal(players, stock, deck)
    return (
        f"{players} players, {numbers.stock} cards in each stock pile: "
        f"{players * numbers.stock} dealt from the {deck}-card deck, "
        f"{numbers.draw_pile} left in the draw pile.\n"
        f"The largest stock pile for {players} players is {max_stock(players, deck)} cards.\n"
    )


def check_name(name: object, field: str) -> str:
    if not isinstance(name, str):
        raise RuleError(f"{field}: a name must be text, not {name!r}")
    if not name.strip():
        raise RuleError(f"{field}: a name cannot be blank")
    if name != name.strip():
        raise RuleError(f"{field}: {name!r} starts or ends with spaces")
    control = next((char for char in name if _is_control(char)), None)
    if control is not None:
        raise RuleError(
            f"{field}: {name!r} holds the control character U+{ord(control):04X}; "
            "a name is one line of printable text"
        )
    return name


def _is_control(char: str) -> bool:
    """Line breaks, tabs, escapes and bidi overrides: they break tables and reorder text."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI_CONTROLS


def make_table(
    players: Iterable[str],
    *,
    stock: int | None = None,
    teams: Mapping[str, Iterable[str]] | None = None,
) -> Table:
    """Check a table's players, partnerships and stock, and build it."""
    names = tuple(players)
    check_player_count(len(names))
    seen: set[str] = set()
    for index, name in enumerate(names, start=1):
        check_name(name, f"players, player {index}")
        if name in seen:
            raise RuleError(f"players: {name} is listed twice; every name must be unique")
        seen.add(name)
    built_teams: tuple[Team, ...] = ()
    if teams:
        built_teams = _make_teams(names, teams)
    size = default_stock(len(names)) if stock is None else stock
    if isinstance(size, bool) or not isinstance(size, int):
        raise RuleError(f"stock: {size!r} is not a whole number of cards")
    check_stock(len(names), size)
    return Table(players=names, stock=size, teams=built_teams)


def _make_teams(names: tuple[str, ...], teams: Mapping[str, Iterable[str]]) -> tuple[Team, ...]:
    if len(names) not in PARTNERSHIP_PLAYERS:
        raise RuleError(
            f"teams: partnership play needs 4 or 6 players in teams of two, not {len(names)}"
        )
    built: list[Team] = []
    placed: dict[str, str] = {}
    for team_name, members in teams.items():
        check_name(team_name, "teams")
        if team_name in names:
            raise RuleError(f"teams: team {team_name} has the same name as a player")
        team_members = tuple(members)
        if len(team_members) != TEAM_SIZE:
            raise RuleError(
                f"teams: team {team_name} has {len(team_members)} players; "
                f"a team is {TEAM_SIZE} partners"
            )
        for member in team_members:
            if member not in names:
                raise RuleError(f"teams: {member} in team {team_name} is not one of the players")
            if member in placed:
                raise RuleError(
                    f"teams: {member} is in both team {placed[member]} and team {team_name}"
                )
            placed[member] = team_name
        built.append(Team(team_name, team_members))
    missing = [name for name in names if name not in placed]
    if missing:
        raise RuleError(f"teams: {', '.join(missing)} is on no team; every player needs one")
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
                f"teams: {chunk.strip()!r} is not a team; write NAME=PLAYER+PLAYER, "
                "for example Red=Ann+Cy"
            )
        if name in teams:
            raise RuleError(f"teams: team {name} is listed twice")
        teams[name] = [member.strip() for member in members.split("+")]
    return teams
