"""What the page prints and downloads: the filled sheet, a blank sheet, the exports and the
rules booklet with the table's house rules, each made in memory from the series shown.

Nothing here reads a file but the series (already read) and sheetgen's own assets, or
writes one: documents go to the browser or, on paper, to CUPS's ``lp`` on its standard
input. A booklet's house rules come from a form of the toggles the game declares, as
text, and are checked as ``--set NAME=VALUE`` is; a toggle that names a file (``extra``)
is not offered, so no field of the form reaches the file system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sheetgen.errors import ChoiceError, PrintError
from sheetgen.game.definition import GameDef, Toggle
from sheetgen.game.houserules import HouseRules, resolve
from sheetgen.game.language import Language
from sheetgen.game.scoring import SeriesResult, game_of
from sheetgen.paper import Paper

# Toggles the page does not offer: the table is the series' own, and a file is never read.
NOT_OFFERED = frozenset({"players", "partnerships", "extra"})
MAX_FIELD = 200  # characters of one toggle's value


@dataclass(frozen=True)
class Download:
    """A document to send: its bytes, its media type and the name it is saved as."""

    data: bytes
    media_type: str
    filename: str


EXPORTS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "json": "application/json",
}


def offered_toggles(game: GameDef) -> list[Toggle]:
    """The toggles a table may set on the page, in the game's order."""
    return [
        toggle
        for name, toggle in game.toggle_defs.items()
        if name not in NOT_OFFERED and toggle.kind != "file"
    ]


def settings_from(game: GameDef, form: Mapping[str, str]) -> dict[str, str]:
    """The toggles a form sets, as ``--set`` would give them: only those offered, only
    those filled in, each at most MAX_FIELD characters."""
    settings: dict[str, str] = {}
    for toggle in offered_toggles(game):
        value = form.get(f"t-{toggle.name}", "").strip()
        if toggle.kind == "bool":
            # An unticked box is sent as nothing: only a form that showed the boxes
            # (``t-shown``) says that a rule is off; without it, the game's own holds.
            if not value and "t-shown" not in form:
                continue
            value = "true" if value in ("on", "true", "1") else "false"
        if not value:
            continue
        if len(value) > MAX_FIELD:
            raise ChoiceError(f"is longer than {MAX_FIELD} characters", field=toggle.name)
        settings[toggle.name] = value
    return settings


def house_rules(result: SeriesResult, settings: Mapping[str, str]) -> HouseRules:
    """The booklet's house rules: the series' table and scoring, then the form's toggles."""
    series = result.series
    game = game_of(series)
    options: dict[str, Any] = {"players": len(series.table.players)}
    if "partnerships" in game.toggle_defs:
        options["partnerships"] = series.table.partnership
    given = dict(settings)
    if given.get("series") != "false":
        # The series' own scoring, where it is not the game's and the form leaves it.
        scoring, own = series.scoring, game.scoring
        figures: list[tuple[str, object, object]] = [("scoring", scoring.way, own.way)]
        if scoring.cards_left:
            figures.append(("games-to-play", scoring.games_to_play, own.games_to_play))
        else:
            figures += [
                ("target", scoring.target, own.target),
                ("bonus", scoring.bonus, own.bonus),
                ("per-card", scoring.per_card, own.per_card),
            ]
        for name, value, default in figures:
            if name in game.toggle_defs and value != default and name not in given:
                given[name] = str(value)
    if "stock" in game.toggle_defs:
        given.setdefault("stock", str(series.table.stock))
    return resolve(game=series.game, options=options, settings=given, table=series.title)


def filled_sheet(result: SeriesResult, paper: Paper, lang: Language) -> bytes:
    from sheetgen.sheet.fill import check_printable, fill_pdf

    typeface = check_printable(result, str(result.series.title or "series"))
    return fill_pdf([result], paper, typeface=typeface, lang=lang)


def blank_sheet(result: SeriesResult, paper: Paper, lang: Language) -> bytes:
    from sheetgen.sheet.blank import blank_sheet as make

    series = result.series
    table = series.table
    teams = {team.name: list(team.members) for team in table.teams} or None
    return make(
        paper=paper,
        game=game_of(series),
        scoring=series.scoring,
        names=list(table.players),
        teams=teams,
        title=series.title,
        lang=lang,
    ).pdf


def booklet(rules: HouseRules, paper: Paper, lang: Language, fmt: str, layout: str) -> bytes:
    from sheetgen.booklet.build import rules_document

    return rules_document(rules, paper=paper, layout=layout, fmt=fmt, lang=lang)


def export(result: SeriesResult, fmt: str, lang: Language, stem: str) -> Download:
    from sheetgen.series.csvfile import DIALECTS
    from sheetgen.series.export import export_series

    if fmt not in EXPORTS:
        raise ChoiceError(f"{fmt!r} is not an export; choose csv, xlsx or json", field="format")
    dialect = DIALECTS["excel-de" if lang.code == "de" else "excel"]
    data = export_series(result, fmt, lang, dialect)
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    return Download(raw, EXPORTS[fmt], f"{stem}.{fmt}")


def print_document(pdf: bytes, kind: str, printer_name: str | None, layout: str = "pages") -> str:
    """Send a document to CUPS (the printer named at start, else the default); what the
    page says of it. A booklet needs a printer that prints both sides: turning a stack
    by hand needs someone at the printer, which a page cannot ask for."""
    from sheetgen.printing import (
        find_printer,
        rules_plan,
        score_sheet_plan,
        send,
        shown,
        turns_by_hand,
    )

    plan = rules_plan(pdf, layout) if kind == "rules" else score_sheet_plan(pdf)
    printer = find_printer(printer_name)
    if turns_by_hand(plan, printer, False):
        raise PrintError(
            f"{shown(printer.name)} prints on one side only, and the booklet needs both; "
            "download the PDF, or print it with: sheetgen rules --print"
        )

    def refuse(message: str) -> None:
        raise PrintError(message)

    sent = send(plan, printer, ask=refuse)
    return ", ".join(job.request for job in sent) + f" on {shown(printer.name)}"
