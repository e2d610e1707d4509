"""The blank score sheet: who sits where, how many games, which target, on which paper.

Options are checked here (through the table and scoring modules) before
anything is laid out, so bad input never leaves a file behind. The pages are
laid out by :mod:`sheetgen.layout` and painted by :mod:`sheetgen.painter`,
exactly as the filled sheet is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheetgen import fonts
from sheetgen.errors import RuleError
from sheetgen.layout import Heading, Layout, SheetSpec, layout_page, row_capacity
from sheetgen.paper import Paper, default_paper
from sheetgen.scoring import ScoringRules
from sheetgen.table import (
    MAX_PLAYERS,
    PARTNERSHIP_PLAYERS,
    TEAM_SIZE,
    Table,
    check_player_count,
    make_table,
)

DEFAULT_GAMES = 10
MAX_GAMES = 200
MAX_COPIES = 100
DEFAULT_TITLE = "Skip-Bo score sheet"
MAX_TEAMS = MAX_PLAYERS // TEAM_SIZE
STOCK_PILES = "stock piles"

Teams = Mapping[str, Sequence[str]] | int


def reminder(rules: ScoringRules, partnership: bool, piles: str = STOCK_PILES) -> str:
    """The one-line reminder of how the winner of a game scores (``piles``: the game's word)."""
    others = "the other teams'" if partnership else "the other players'"
    return (
        f"Scoring: a game's winner gets {rules.bonus}, and {rules.per_card} more per card "
        f"still in {others} {piles}; the rest get 0. Add it to the running total."
    )


def spec_for(
    table: Table | None,
    rules: ScoringRules,
    title: str,
    *,
    count: int,
    teams: bool,
    piles: str = STOCK_PILES,
) -> SheetSpec:
    """What a sheet's header says: named sides from ``table``, or numbered blanks to write on."""
    if table is not None:
        headings = tuple(
            Heading(side, table.members(side) if table.partnership else ()) for side in table.sides
        )
    elif teams:
        headings = tuple(
            Heading(members=("", ""), caption=f"Team {n}") for n in range(1, count + 1)
        )
    else:
        headings = tuple(Heading(caption=f"Player {n}") for n in range(1, count + 1))
    return SheetSpec(
        headings=headings,
        columns=MAX_TEAMS if teams else MAX_PLAYERS,
        target=rules.target,
        title=title,
        reminder=reminder(rules, teams, piles),
        partnership=teams,
    )


def page_layouts(paper: Paper, spec: SheetSpec, games: int, per_page: int) -> list[Layout]:
    """Lay out ``games`` rows over as many pages as they need, ``per_page`` game rows a page.

    Every page after the first opens with a row for the totals brought forward.
    """
    page = paper.landscape
    per_page = max(1, min(per_page, row_capacity(page, spec)))
    layouts: list[Layout] = []
    first = 1
    while first <= max(games, 1):
        numbers = tuple(range(first, min(first + per_page, games + 1)))
        layouts.append(layout_page(page, spec, numbers, first > 1, fonts.string_width))
        first += per_page
    return layouts


def _check_count(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(f"{name}: {value!r} is out of range; choose {low} to {high}")


def sheet_table(
    players: int | None, names: Sequence[str] | None, teams: Teams | None
) -> tuple[Table | None, int, bool]:
    """Check who sits at the table; the table if names are known, the side count, and team play."""
    if isinstance(teams, int) and not isinstance(teams, bool):
        partnership_sizes = [size // TEAM_SIZE for size in PARTNERSHIP_PLAYERS]
        if teams not in partnership_sizes:
            raise RuleError(f"teams: {teams} teams cannot sit at one table; choose 2 or 3")
        seated = teams * TEAM_SIZE
        if players is not None and players != seated:
            raise RuleError(
                f"teams: partnership play needs 4 or 6 players in teams of two, not {players}"
            )
        if names is not None:
            raise RuleError(
                "teams: name the partners with --teams RED=ANN+CY,... instead of --names"
            )
        return None, teams, True
    if isinstance(teams, Mapping):
        members = [member for partners in teams.values() for member in partners]
        seated_names = list(names) if names is not None else members
        if players is not None and players != len(seated_names):
            raise RuleError(
                f"teams: partnership play needs 4 or 6 players in teams of two, not {players}"
            )
        table = make_table(seated_names, teams=teams)
        return table, len(table.sides), True
    if names is not None:
        if players is not None and players != len(names):
            raise RuleError(f"names: {len(names)} names given, but --players asks for {players}")
        table = make_table(names)
        return table, len(table.players), False
    count = MAX_PLAYERS if players is None else players
    check_player_count(count)
    return None, count, False


def blank_sheet_pdf(
    *,
    paper: Paper | None = None,
    players: int | None = None,
    names: Sequence[str] | None = None,
    teams: Teams | None = None,
    games: int = DEFAULT_GAMES,
    target: int = ScoringRules().target,
    bonus: int = ScoringRules().bonus,
    per_card: int = ScoringRules().per_card,
    piles: str = STOCK_PILES,
    title: str | None = None,
    copies: int = 1,
) -> bytes:
    """A PDF of blank score sheets, ``copies`` times over, checked before anything is drawn.

    ``bonus``, ``per_card`` and ``piles`` (the game's word for the piles a
    winner empties) word the scoring reminder for related games.
    """
    from sheetgen.painter import Meta, Painter

    table, count, partnership = sheet_table(players, names, teams)
    rules = ScoringRules(bonus=bonus, per_card=per_card, target=target)
    _check_count("games", games, 1, MAX_GAMES)
    _check_count("copies", copies, 1, MAX_COPIES)
    heading = DEFAULT_TITLE if title is None else title
    if not heading.strip():
        raise RuleError("title: the title cannot be blank; leave --title out for the default")
    fonts.check_printable([heading], "title")
    if table is not None:
        fonts.check_printable(table.players, "names")
        fonts.check_printable(table.sides, "teams")
    sheet_paper = paper or default_paper()
    spec = spec_for(table, rules, heading, count=count, teams=partnership, piles=piles)
    layouts = page_layouts(sheet_paper, spec, games, games)
    painter = Painter(
        sheet_paper.landscape,
        Meta(title=heading, subject=f"Blank Skip-Bo score sheet, first to {rules.target}"),
    )
    for _ in range(copies):
        for layout in layouts:
            painter.sheet(layout)
    return painter.finish()
