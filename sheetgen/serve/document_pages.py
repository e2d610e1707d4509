"""The documents page: downloads of the filled sheet, a blank sheet, the exports and the
rules booklet; the booklet's house-rules form with its preview; printing through CUPS.

Every document is made in memory for the request and sent, or handed to ``lp``. The
booklet's form is read as ``GET`` parameters (a form that changes nothing), so a
preview, a download and a print of the same choices share one address.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from sheetgen.errors import PrintError, SheetgenError
from sheetgen.game.houserules import HouseRules
from sheetgen.game.scoring import SeriesResult, game_of
from sheetgen.paper import Paper, paper
from sheetgen.serve import documents
from sheetgen.serve.pages import (
    csrf_ok,
    forbidden,
    not_here,
    page_language,
    plain,
    read_form,
    render,
)
from sheetgen.serve.served import Served, served_of

# The preview is the booklet's own self-contained page: its styles inline, no script.
PREVIEW_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
    "frame-ancestors 'self'; base-uri 'none'; form-action 'none'; sandbox"
)
PAPERS = ("a4", "letter")


def N_(text: str) -> str:
    """Mark ``text`` for the catalogue; the page translates it when shown."""
    return text


# What the form calls the toggles and choices the three games declare, in a player's words
# (a game of a table's own shows its own help text and choice names).
TOGGLE_LABELS = {
    "stock": N_("Cards in each stock pile"),
    "first-player": N_("Who takes the first turn"),
    "series": N_("Play a series for points, with the score sheet"),
    "scoring": N_("How the series is scored"),
    "target": N_("Points that win the series"),
    "bonus": N_("Points for the game’s winner"),
    "per-card": N_("Points for each card left in the other piles"),
    "games-to-play": N_("Games in the series (cards-left scoring)"),
    "deck": N_("Cards to play with"),
    "must-play-stock": N_("House rule: a stock card that fits must be played at once"),
    "no-wild-start": N_("House rule: deal again if a stock pile shows a wild card"),
    "building-piles": N_("Piles in the middle at once"),
}
CHOICE_LABELS = {
    "left-of-dealer": N_("the player on the dealer’s left"),
    "youngest": N_("the youngest player"),
    "winner": N_("the winner scores points"),
    "cards-left": N_("everyone counts their cards left; lowest wins"),
    "skip-bo": N_("the Skip-Bo deck"),
    "standard": N_("three standard decks with jokers"),
}


def _paper(served: Served, asked: Mapping[str, str]) -> Paper:
    name = asked.get("paper", "")
    return paper(name) if name in PAPERS else served.paper


def _toggles_view(
    result: SeriesResult, asked: Mapping[str, str], lang: Any
) -> list[dict[str, Any]]:
    game = game_of(result.series)
    try:
        own = _rules(result, {})  # the series' own rules, as the boxes first show them
    except SheetgenError:
        own = None
    shown = []
    for toggle in documents.offered_toggles(game):
        value = asked.get(f"t-{toggle.name}")
        if toggle.kind == "bool" and value is None and "t-shown" in asked:
            value = ""
        if value is None and toggle.kind == "bool":
            value = "true" if own is not None and own.value(toggle.name) else ""
        shown.append(
            {
                "name": toggle.name,
                "kind": toggle.kind,
                # sheetgen's own words translated here; a game's own text shown as text.
                "help": lang._(TOGGLE_LABELS[toggle.name])
                if toggle.name in TOGGLE_LABELS
                else toggle.help,
                "choices": [
                    {
                        "value": str(choice),
                        "label": lang._(CHOICE_LABELS[str(choice)])
                        if str(choice) in CHOICE_LABELS
                        else str(choice),
                    }
                    for choice in toggle.choices
                ],
                "value": value if value is not None else "",
                "given": value is not None,
            }
        )
    return shown


def _rules(result: SeriesResult, asked: Mapping[str, str]) -> HouseRules:
    return documents.house_rules(result, documents.settings_from(game_of(result.series), asked))


async def documents_page(request: Request) -> Response:
    served = served_of(request)
    result = served.series.snapshot.result
    asked = dict(request.query_params)
    error = None
    try:
        _rules(result, asked)
    except SheetgenError as exc:
        error = _shown(exc)
    chosen = _paper(served, asked)
    kept = {key: value for key, value in asked.items() if key.startswith(("t-", "paper"))}
    query = urlencode(kept)
    return render(
        request,
        "documents.html.j2",
        {
            "toggles": _toggles_view(result, asked, page_language(request)),
            "paper": "letter" if chosen.name.lower() == "letter" else "a4",
            "query": query,
            "fields": [{"name": key, "value": value} for key, value in kept.items()],
            "error": error,
            "printer": served.printer or "",
            "stem": served.series.path.stem,
        },
        400 if error else 200,
    )


MAX_WAITING = 3  # documents asked for while one is made; more are refused as busy
KEPT = 8  # documents kept, so that asking again (a reload, a print) costs nothing
PRINT_GAP = 10.0  # seconds between two prints from the page


class Busy(SheetgenError):
    """More documents are asked for than the server makes at once."""


async def _made(request: Request, kind: str, asked: Mapping[str, str]) -> tuple[bytes, str]:
    """The document ``kind`` for the request: its PDF (HTML for the preview) and layout.
    One is made at a time, in a thread of its own; a few more may wait, and the last
    ones made are kept."""
    served = served_of(request)
    lang = page_language(request)
    sheet_paper = _paper(served, asked)
    layout = "booklet" if asked.get("layout") == "booklet" and kind == "rules" else "pages"
    choices = tuple(sorted((k, v) for k, v in asked.items() if k.startswith("t-")))
    key = (served.series.snapshot.revision, kind, lang.code, sheet_paper.name, layout, choices)
    if key in served.documents:
        return served.documents[key]
    if served.waiting >= MAX_WAITING:
        raise Busy(lang._("The server is busy making other documents; try again in a moment."))
    served.waiting += 1
    try:
        async with served.making:
            if key in served.documents:  # made while this one waited its turn
                return served.documents[key]
            made = await asyncio.to_thread(_make, served, kind, asked, sheet_paper, lang, layout)
    finally:
        served.waiting -= 1
    if len(served.documents) >= KEPT:
        served.documents.pop(next(iter(served.documents)))
    served.documents[key] = made, layout
    return made, layout


def _make(
    served: Served, kind: str, asked: Mapping[str, str], sheet_paper: Paper, lang: Any, layout: str
) -> bytes:
    result = served.series.snapshot.result
    if kind == "sheet":
        return documents.filled_sheet(result, sheet_paper, lang)
    if kind == "blank":
        return documents.blank_sheet(result, sheet_paper, lang)
    fmt = "html" if kind == "preview" else "pdf"
    return documents.booklet(_rules(result, asked), sheet_paper, lang, fmt, layout)


def _refusal(request: Request, exc: SheetgenError) -> Response:
    if isinstance(exc, Busy):
        return render(request, "message.html.j2", {"message": exc.problem}, 503)
    return render(request, "message.html.j2", {"message": _shown(exc)}, 400)


def _shown(exc: SheetgenError) -> str:
    """A refused choice as the page says it: the toggle and the problem (the form's
    fields reach the rules as ``--set``, which the page does not show)."""
    return f"{exc.field}: {exc.problem}".removeprefix("--set ") if exc.field else exc.problem


async def download(request: Request) -> Response:
    served = served_of(request)
    name = request.path_params["name"]
    stem, _, suffix = name.rpartition(".")
    asked = dict(request.query_params)
    lang = page_language(request)
    try:
        if suffix in documents.EXPORTS and stem == "series":
            sent = documents.export(
                served.series.snapshot.result, suffix, lang, served.series.path.stem
            )
            data, media, filename = sent.data, sent.media_type, sent.filename
        elif suffix == "pdf" and stem in ("sheet", "blank", "rules"):
            data, layout = await _made(request, stem, asked)
            media = "application/pdf"
            filename = (
                f"{served.series.path.stem}-{stem}{'-booklet' if layout == 'booklet' else ''}.pdf"
            )
        else:
            return render(
                request, "message.html.j2", {"message": lang._("There is no such page here.")}, 404
            )
    except SheetgenError as exc:
        return _refusal(request, exc)
    return Response(
        data,
        media_type=media,
        headers={
            "Content-Disposition": f'attachment; filename="{_ascii(filename)}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        },
    )


def _ascii(name: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in name)


async def preview(request: Request) -> Response:
    try:
        html, _ = await _made(request, "preview", dict(request.query_params))
    except SheetgenError as exc:
        return HTMLResponse(
            f"<!doctype html><p>{_escape(str(exc))}</p>",
            status_code=400,
            headers={"Content-Security-Policy": PREVIEW_CSP},
        )
    return HTMLResponse(
        html.decode("utf-8"),
        headers={
            "Content-Security-Policy": PREVIEW_CSP,
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        },
    )


def _escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


async def print_page(request: Request) -> Response:
    form = await read_form(request)
    if not csrf_ok(request, form):
        return forbidden(request)
    served = served_of(request)
    asked = plain(form)
    kind = asked.get("kind", "")
    lang = page_language(request)
    if kind not in ("sheet", "blank", "rules"):
        return not_here(request)
    if time.monotonic() - served.printed_at < PRINT_GAP:
        message = lang._("A print was just sent; wait a few seconds before the next one.")
        return render(request, "message.html.j2", {"message": message}, 429)
    served.printed_at = time.monotonic()  # before the document is made: one print at a time
    try:
        pdf, layout = await _made(request, kind, asked)
        said = await asyncio.to_thread(documents.print_document, pdf, kind, served.printer, layout)
    except PrintError:
        served.printed_at = -PRINT_GAP  # nothing was sent: the next try may go at once
        message = lang._(
            "Nothing was printed: the computer running sheetgen serve has no printer ready. "
            "Download the PDF instead and print it from any device."
        )
        return render(request, "message.html.j2", {"message": message, "documents": True}, 503)
    except SheetgenError as exc:
        return _refusal(request, exc)
    message = lang._("Sent to the printer: {jobs}.").format(jobs=said)
    return render(request, "message.html.j2", {"message": message}, 200)


def routes() -> list[Route]:
    return [
        Route("/documents", documents_page),
        Route("/download/{name}", download),
        Route("/booklet/preview", preview),
        Route("/print", print_page, methods=["POST"]),
    ]
