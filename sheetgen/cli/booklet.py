"""The rules command: the booklet for how a table plays."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sheetgen.cli.options import (
    DOCUMENT_FORMATS,
    PLAYERS_HELP,
    RULES_FORMATS,
    DeckChoice,
    GameChoice,
    PresetChoice,
    SheetgenCommand,
    ToggleChoice,
    WholeNumber,
    lang_option,
    output_option,
    paper_option,
    print_options,
    scoring_option,
)
from sheetgen.cli.shared import check_source_date, said, send_to_printer

if TYPE_CHECKING:
    from sheetgen.printing import Request

RULES_SECTIONS = {
    "The table": (
        "game",
        "rules_dir",
        "players",
        "partnerships",
        "deck",
        "stock",
        "building_piles",
    ),
    "House rules": (
        "preset",
        "list_presets",
        "house_rules",
        "settings",
        "first_player",
        "must_play_stock",
        "no_wild_start",
        "extra",
    ),
    "The points game": ("series", "scoring", "target", "games_to_play", "bonus", "per_card"),
    "The document": ("table", "paper_name", "lang_code", "layout", "fmt", "output", "force"),
    "Printing": ("to_printer", "printer", "manual_duplex"),
}


@click.command(cls=SheetgenCommand, sections=RULES_SECTIONS)
@click.option("--game", type=GameChoice(), show_default="skip-bo", help="Which game's rules.")
@click.option(
    "--players",
    type=WholeNumber(),
    show_default="the game's official table",
    help=PLAYERS_HELP,
)
@click.option(
    "--stock",
    metavar="[official|short|N]",
    show_default="official",
    help="Cards in each stock pile: the game's official size, its short game (Skip-Bo: 10) "
    "or a number.",
)
@click.option(
    "--first-player",
    type=ToggleChoice("first-player"),
    show_default="left-of-dealer",
    help="Who starts the first game.",
)
@click.option(
    "--partnerships/--no-partnerships",
    default=None,
    show_default="no-partnerships",
    help="Teams of two (4 or 6).",
)
@click.option(
    "--series/--no-series",
    default=None,
    show_default="the game's; series for Skip-Bo",
    help="The points game and its score sheet.",
)
@click.option(
    "--target", type=WholeNumber(), show_default="the game's", help="Points that win the series."
)
@click.option(
    "--deck",
    type=DeckChoice(),
    show_default="the game's own",
    help="standard: three standard decks with their jokers.",
)
@click.option(
    "--building-piles",
    type=WholeNumber(),
    show_default="the game's",
    help="How many building piles (centre stacks) may stand at once, where the game allows.",
)
@click.option(
    "--bonus",
    type=WholeNumber(),
    show_default="the game's",
    help="Points for going out in the points game.",
)
@click.option(
    "--per-card",
    type=WholeNumber(),
    show_default="the game's",
    help="Points per card left in another's pile.",
)
@scoring_option
@click.option(
    "--games-to-play", type=WholeNumber(), help="With cards-left scoring: games in the series."
)
@click.option(
    "--must-play-stock", is_flag=True, default=None, help="A fitting stock card must be played."
)
@click.option(
    "--no-wild-start", is_flag=True, default=None, help="Reshuffle a stock pile showing a wild."
)
@click.option(
    "--extra",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The table's own rules, in Markdown.",
)
@click.option(
    "--house-rules",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A TOML house-rules file.",
)
@click.option(
    "--table",
    metavar="NAME",
    show_default="the house-rules file's table, else none",
    help='The table\'s name for the cover ("The Miller family"); a house-rules file may '
    "give it as table = ..., with date = 2026-12-06 for the day the rules were agreed.",
)
@click.option(
    "--preset",
    type=PresetChoice(),
    show_default="official",
    help="Start from a shipped preset (--list-presets says what each changes).",
)
@click.option(
    "--list-presets", is_flag=True, help="List the game's presets and what each changes, then stop."
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set any house rule the game declares in its game.toml, e.g. --set "
    "first-player=youngest (repeatable; sheetgen games lists them).",
)
@paper_option
@lang_option
@click.option(
    "--layout",
    type=click.Choice(["pages", "booklet"]),
    default="pages",
    show_default=True,
    help="pages: one page per sheet; booklet: half-size pages to print both sides and fold.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(RULES_FORMATS),
    show_default="pdf, or what -o's name ends in",
    help="png: a preview image of the first page; html: one self-contained page to read "
    "on a phone.",
)
@output_option("output/rules-GAME[-PRESET][-HOUSE-RULES][-LANG][-booklet].pdf")
@print_options
def rules(
    game: str | None,
    house_rules: Path | None,
    table: str | None,
    preset: str | None,
    list_presets: bool,
    settings: tuple[str, ...],
    paper_name: str | None,
    lang_code: str | None,
    layout: str,
    fmt: str | None,
    output: Path | None,
    print_on: Request | None,
    force: bool,
    **toggles: Any,
) -> None:
    """Write the rules booklet for how this table plays: house rules, numbers, score sheet.

    Options override --set, which overrides the --house-rules file, which
    overrides the --preset.

    \b
    Example:
        sheetgen rules --players 5 --stock short --no-series
        sheetgen rules --set first-player=youngest --scoring cards-left
        sheetgen rules --house-rules ours.toml --extra ours.md --paper a4 -o rules.pdf
        sheetgen rules --layout booklet --paper letter -o booklet.pdf
        sheetgen rules --layout booklet --printer office
        sheetgen rules --format html -o rules.html
    """
    from sheetgen.atomic import destination, write_document
    from sheetgen.booklet.build import check_layout, rules_document
    from sheetgen.game.houserules import parse_settings, resolve
    from sheetgen.game.presets import presets_text
    from sheetgen.paper import default_paper, paper

    if list_presets:
        click.echo(presets_text(game), nl=False)
        return
    check_source_date()

    house = resolve(
        game=game,
        preset=preset,
        house_rules=house_rules,
        options=_given(toggles),
        settings=parse_settings(settings),
        table=table,
    )
    from sheetgen.game.definition import load_game
    from sheetgen.game.language import booklet_language

    lang = booklet_language(load_game(house.game), lang_code)
    reads = [path for path in (house_rules, toggles.get("extra"), house.extra) if path is not None]
    check_layout(layout, fmt or DOCUMENT_FORMATS[0])  # before an output folder is made
    target = None
    if print_on is None or output is not None:
        target, fmt = destination(
            output,
            fmt,
            formats=RULES_FORMATS,
            stem=_default_stem(house.game, preset, house_rules, lang.code, layout),
            reads=reads,
            force=force,
        )
    chosen_paper = paper(paper_name) if paper_name else default_paper()
    document = rules_document(
        house, paper=chosen_paper, layout=layout, fmt=fmt or DOCUMENT_FORMATS[0], lang=lang
    )
    if target is not None:
        write_document(target, document)
        said(target)
    if print_on is not None:
        from sheetgen.printing import rules_plan

        send_to_printer(rules_plan(document, layout), print_on)


def _given(toggles: dict[str, Any]) -> dict[str, Any]:
    """The toggles given on the command line (not left at their defaults), keyed as a
    house-rules file keys them (first-player)."""
    given = click.get_current_context().get_parameter_source
    return {
        key.replace("_", "-"): value
        for key, value in toggles.items()
        if value is not None and given(key) is not click.core.ParameterSource.DEFAULT
    }


def _default_stem(
    game: str, preset: str | None, house_rules: Path | None, lang: str, layout: str
) -> str:
    """The default name of a booklet, after all that makes it differ from the game's plain
    one: a table that makes three booklets keeps three (rules-skip-bo-family-de-booklet)."""
    parts = [f"rules-{game}"]
    if preset not in (None, "official"):
        parts.append(str(preset))
    if house_rules is not None:
        parts.append(house_rules.stem)
    if lang != "en":
        parts.append(lang)
    if layout != "pages":
        parts.append(layout)
    return "-".join(parts)
