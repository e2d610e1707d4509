"""The blank score sheet: who sits where, how many games, which target, on which paper.

Options are checked here (through the table and scoring modules) before
anything is laid out, so bad input never leaves a file behind. The pages are
laid out by :mod:`sheetgen.sheet.layout` and painted by :mod:`sheetgen.sheet.painter`,
exactly as the filled sheet is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from sheetgen import fonts
from sheetgen.errors import RuleError
from sheetgen.game.definition import TEAM_SIZE, GameDef, load_game
from sheetgen.game.language import ENGLISH, Language
from sheetgen.game.scoringrules import ScoringRules
from sheetgen.game.seating import Table, make_table
from sheetgen.game.wording import caption, goal, labels, outcome, reminder, title_for
from sheetgen.limits import DEFAULT_GAMES, MAX_COPIES, MAX_GAMES
from sheetgen.paper import Paper, default_paper
from sheetgen.sheet.layout import Heading, Layout, SheetSpec, layout_sheet

Teams = Mapping[str, Sequence[str]] | int


def spec_for(
    table: Table | None,
    rules: ScoringRules,
    title: str,
    *,
    count: int,
    teams: bool,
    piles: str = "stock piles",
    pile: str | None = None,
    status: str = "",
    legend: bool = False,
    lang: Language = ENGLISH,
    in_words: bool = False,
) -> SheetSpec:
    """What a sheet's header says, in ``lang``: one column per side, named from ``table``, or
    ``count`` numbered blanks to write on (a team's with a line for each partner); with
    ``in_words`` a count of games is written as the booklet writes it."""
    if table is not None:
        headings = tuple(
            Heading(side, table.members(side) if table.partnership else ()) for side in table.sides
        )
    elif teams:
        headings = tuple(
            Heading(members=("", ""), caption=caption(True, n, lang)) for n in range(1, count + 1)
        )
    else:
        headings = tuple(Heading(caption=caption(False, n, lang)) for n in range(1, count + 1))
    return SheetSpec(
        headings=headings,
        goal=goal(rules, lang, in_words=in_words),
        title=title,
        reminder=reminder(
            rules, teams, piles, lang, sides=len(headings), pile=pile, in_words=in_words
        ),
        partnership=teams,
        status=status,
        legend=legend,
        cards_left=rules.cards_left,
        labels=labels(lang),
        carried=lang._("Carried forward"),
        lang=lang.code,
    )


def page_layouts(
    paper: Paper,
    spec: SheetSpec,
    games: int,
    typeface: fonts.Typeface = fonts.BUNDLED,
    *,
    whole_pages: bool = False,
) -> list[Layout]:
    """Lay out ``games`` rows over as few landscape pages as hold them, spread evenly.

    Every page after the first opens with a row for the totals brought forward;
    with ``whole_pages`` the last page, too, is filled with rows to write on. Texts
    are measured in ``typeface``, the one the pages will be drawn with.
    """
    return layout_sheet(
        paper.landscape, spec, games, typeface.string_width, whole_pages=whole_pages
    )


def _check_count(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(f"{value!r} is out of range; choose {low} to {high}", field=name)


def sheet_table(
    players: int | None,
    names: Sequence[str] | None,
    teams: Teams | None,
    game: GameDef | None = None,
) -> tuple[Table | None, int, bool]:
    """Check who sits at the table; the table if names are known, the side count, and team play."""
    game = game or load_game()
    if isinstance(teams, int) and not isinstance(teams, bool):
        team_counts = [size // TEAM_SIZE for size in game.partnership_players]
        if teams not in team_counts:
            choose = " or ".join(str(count) for count in team_counts) or "none"
            raise RuleError(
                f"{teams} teams cannot sit at one {game.name} table; choose {choose}",
                field="teams",
            )
        seated = teams * TEAM_SIZE
        if players is not None and players != seated:
            try:
                game.check_partnerships(players)
            except RuleError as exc:
                raise exc.at(field="teams") from None
            raise RuleError(
                f"{teams} teams of two are {seated} players, not {players}", field="teams"
            )
        if names is not None:
            raise RuleError(
                "name the partners with --teams RED=ANN+CY,... instead of --names", field="teams"
            )
        return None, teams, True
    if isinstance(teams, Mapping):
        members = [member for partners in teams.values() for member in partners]
        seated_names = list(names) if names is not None else members
        if players is not None and players != len(seated_names):
            raise RuleError(
                f"the teams seat {len(seated_names)} players, but --players asks for {players}",
                field="teams",
            )
        table = make_table(seated_names, teams=teams, game=game)
        return table, len(table.sides), True
    if names is not None:
        if players is not None and players != len(names):
            raise RuleError(
                f"{len(names)} names given, but --players asks for {players}", field="names"
            )
        table = make_table(names, game=game)
        return table, len(table.players), False
    count = game.max_players if players is None else players
    game.check_players(count)
    return None, count, False


class BlankSheet(NamedTuple):
    """Blank score sheets as PDF, and the fonts they print with."""

    pdf: bytes
    typeface: fonts.Typeface


def blank_sheet(
    *,
    paper: Paper | None = None,
    game: GameDef | None = None,
    scoring: ScoringRules | None = None,
    players: int | None = None,
    names: Sequence[str] | None = None,
    teams: Teams | None = None,
    games: int | None = None,
    title: str | None = None,
    copies: int = 1,
    lang: Language = ENGLISH,
    in_words: bool = False,
) -> BlankSheet:
    """Blank score sheets, ``copies`` times over, checked before anything is drawn.

    ``game`` (Skip-Bo unless told) decides who may sit at the table and the
    words of the scoring reminder; ``scoring`` (the game's own unless told)
    how the table scores; ``lang`` the language the sheet is written in. ``games``
    rows are drawn: unless told, ten, or with cards-left scoring the games agreed on
    (and then, if told, no other number). ``in_words``: a count of games in words, as the
    booklet the sheet is attached to writes it.
    """
    from sheetgen.sheet.painter import Meta, Painter

    game = game or load_game()
    rules = scoring or game.scoring
    table, count, partnership = sheet_table(players, names, teams, game)
    if rules.cards_left:
        agreed = rules.games_to_play
        if games is not None and games != agreed:
            raise RuleError(
                f"a cards-left series is {agreed} games (--games-to-play), "
                f"so the sheet has {agreed} rows, not {games}; leave --games out",
                field="games",
            )
        games = agreed
    elif games is None:
        games = DEFAULT_GAMES
    _check_count("games", games, 1, MAX_GAMES)
    _check_count("copies", copies, 1, MAX_COPIES)
    heading = title_for(game, lang) if title is None else title
    if not heading.strip():
        raise RuleError(
            "the title cannot be blank; leave --title out for the default", field="title"
        )
    typeface = fonts.check_printable([heading], "title")
    if table is not None:
        typeface |= fonts.check_printable(table.players, "names")
        typeface |= fonts.check_printable(table.sides, "teams")
    sheet_paper = paper or default_paper()
    spec = spec_for(
        table,
        rules,
        heading,
        count=count,
        teams=partnership,
        piles=lang.words(game).stocks,
        pile=lang.words(game).stock,
        lang=lang,
        in_words=in_words,
    )
    layouts = page_layouts(sheet_paper, spec, games, typeface)
    painter = Painter(
        sheet_paper.landscape,
        Meta(
            title=heading,
            subject=lang._("Blank {game} score sheet, {outcome}").format(
                game=lang.words(game).name, outcome=outcome(rules, lang)
            ),
            lang=lang.code,
        ),
        typeface,
    )
    for _ in range(copies):
        for layout in layouts:
            painter.sheet(layout)
    return BlankSheet(painter.finish(), typeface)
