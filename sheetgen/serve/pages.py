"""The pages a table opens: plain HTML forms that record, undo and replace games without
JavaScript, and the live part every open page refreshes from the event stream.

Every change goes through a page that shows it first (the points a game scores, the
game an undo removes), and is made against the number of games that page saw: if
another page or the command line changed the series meanwhile, nothing is changed and
the page shows the series as it is now.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any
from urllib.parse import quote, urlencode

from markupsafe import Markup
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from sheetgen.booklet.templating import make_environment, render_template
from sheetgen.errors import SheetgenError, StaleSeriesError
from sheetgen.game.language import Language, language, languages
from sheetgen.game.scoring import Game, GameResult, SeriesResult
from sheetgen.resources import templates_dir
from sheetgen.serve.access import same_site_path
from sheetgen.serve.served import Served, served_of
from sheetgen.serve.state import Snapshot
from sheetgen.serve.views import (
    chosen_language,
    form_problem,
    game_from_form,
    game_words,
    scored_game,
)

LANG_COOKIE = "sheetgen_lang"
# Scripts and styles from this server only; a booklet preview in a frame of its own.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
MAX_FIELDS = 100
# Points of layout per chart, drawn without its title and subtitle (the page sets them as
# text), and the most panels to a row: the narrow one (up to 30 rem wide) two thirds as
# wide as a phone's column in CSS pixels, so that its smallest words (8 pt) are drawn at
# 12 px or more on a 390 px phone (print review 35: 11.55 px at 248 points); the wide one
# (from 48 rem) 12 px or more on a desktop's column. Each is as tall as its panels need
# (``chart.web_height``).
CHART_SIZES = (("narrow", 236.0, 1), ("wide", 600.0, 3))


@cache
def _environment(code: str) -> Any:
    return make_environment([templates_dir() / "serve"], language(code))


def page_language(request: Request) -> Language:
    served = served_of(request)
    return chosen_language(
        request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"), served.lang
    )


def render(request: Request, name: str, context: Mapping[str, Any], status: int = 200) -> Response:
    """A page of ``name`` in the request's language, with what every page shows."""
    served = served_of(request)
    lang = page_language(request)
    snapshot = served.series.snapshot
    sid = request.state.sid
    words = game_words(snapshot.result, lang)
    known = sid is not None  # a browser let in (by the key or the PIN)
    data = {
        "lang": lang.code,
        "csrf": served.access.csrf_token(sid) if sid else "",
        # Before the PIN, not even the series' title is shown.
        "title": (snapshot.result.series.title or words["name"]) if known else "sheetgen",
        "game_name": words["name"],
        "stock_word": words["stock"],
        # Where the language links lead back to: this page (a form sent, the standings).
        "here": quote(request.url.path, safe="/") if request.method == "GET" else "/",
        "expected_games": snapshot.played,
        # Before the PIN or key, a file's problem (which may quote it) is not shown.
        "problem": snapshot.problem if known else None,
        "lan": served.lan,
        **context,
    }
    html = render_template(_environment(lang.code), name, data)
    return HTMLResponse(html, status_code=status, headers=HEADERS)


def live_fragment(served: Served, snapshot: Snapshot, code: str) -> str:
    """The standings, the chart and the games of ``snapshot`` in language ``code``: the
    part of the page every open page replaces at a change (rendered once per language)."""
    key = (snapshot.revision, code)
    if key not in served.fragments:
        if len(served.fragments) > 8:
            served.fragments.clear()
        lang = language(code)
        served.fragments[key] = render_template(
            _environment(code), "live.html.j2", _live(snapshot, lang)
        )
    return served.fragments[key]


def _said(snapshot: Snapshot, game: GameResult, lang: Language) -> str:
    """One game as the page says it: who scored how much, or who won."""
    winner = snapshot.result.series.table.side_label(game.winner)
    if snapshot.result.series.scoring.cards_left:
        return lang._("%(winner)s won the game.") % {"winner": winner}
    return lang._("%(winner)s won and scored %(points)s points.") % {
        "winner": winner,
        "points": lang.number(game.points),
    }


def summary(result: SeriesResult, lang: Language) -> str:
    """Who leads and by how much, who won, or that the lead is shared: one line."""
    _ = lang._
    table = result.series.table
    rules = result.series.scoring
    rows = result.standings
    if not result.games:
        return _("No games recorded yet.")
    if result.winner is not None:
        return _("{side} won the series in game {game}.").format(
            side=table.side_label(result.winner), game=result.won_in_game
        )
    if rules.cards_left and result.finished:
        return _("The series is over; the lowest total is shared.")
    if result.leader is None:
        return _("The lead is shared.")
    margin = abs(rows[0].total - rows[1].total) if len(rows) > 1 else rows[0].total
    if rules.cards_left:
        return _("{side} leads by {count} cards, with {games} games to play.").format(
            side=table.side_label(result.leader), count=margin, games=result.games_left
        )
    return _("{side} leads by {points} points and needs {needed} more.").format(
        side=table.side_label(result.leader),
        points=lang.number(margin),
        needed=lang.number(rows[0].needed),
    )


def _live(snapshot: Snapshot, lang: Language) -> dict[str, Any]:
    from sheetgen.sheet.chart import chart_subtitle, chart_title, web_height
    from sheetgen.sheet.shapes import as_printed
    from sheetgen.sheet.svg import chart_svg

    result = snapshot.result
    table = result.series.table
    rules = result.series.scoring
    leader = result.leader
    return {
        "lang": lang.code,
        "cards_left": rules.cards_left,
        "teams": table.partnership,
        "target": lang.number(rules.target),
        "status": summary(result, lang),
        "standings": [
            {
                "side": table.side_label(row.side),
                "total": lang.number(row.total),
                "won": row.games_won,
                "needed": lang.number(row.needed),
                "leads": row.side == leader,
            }
            for row in result.standings
        ],
        # Two drawings of one chart: narrow for a phone, wide for a desktop (CSS picks).
        "chart_title": as_printed(chart_title(result, lang)),
        "chart_subtitle": as_printed(chart_subtitle(result, lang)),
        "charts": [
            {
                "size": size,
                "svg": Markup(
                    chart_svg(
                        result,
                        lang,
                        width,
                        web_height(width, len(table.sides), columns),
                        headed=False,
                    )
                ),
            }
            for size, width, columns in CHART_SIZES
        ]
        if result.games
        else [],
        "games": [
            {
                "number": game.number,
                "winner": table.side_label(game.winner),
                "left": [{"name": name, "count": count} for name, count in game.left.items()],
                "points": lang.number(game.points),
            }
            for game in result.games
        ],
        "played": len(result.games),
        "problem": snapshot.problem,
    }


def _form_view(result: SeriesResult, values: Mapping[str, str]) -> dict[str, Any]:
    """The record form's fields, filled with ``values`` (a form sent back, or a game)."""
    table = result.series.table
    return {
        "sides": [
            {"name": side, "label": table.side_label(side), "members": list(table.members(side))}
            for side in table.sides
        ],
        "players": [
            {"index": index, "name": name, "value": values.get(f"left-{index}", "")}
            for index, name in enumerate(table.players)
        ],
        "winner": values.get("winner", ""),
        "stock": table.stock,
    }


def _values_of(result: SeriesResult, game: Game) -> dict[str, str]:
    table = result.series.table
    values = {"winner": game.winner}
    for index, name in enumerate(table.players):
        if name in game.left:
            values[f"left-{index}"] = str(game.left[name])
    return values


async def read_form(request: Request) -> FormData:
    return await request.form(max_files=0, max_fields=MAX_FIELDS)


def csrf_ok(request: Request, form: FormData) -> bool:
    token = form.get("csrf")
    return served_of(request).access.csrf_ok(
        request.state.sid, token if isinstance(token, str) else None
    )


def plain(form: FormData) -> dict[str, str]:
    return {key: value for key, value in form.items() if isinstance(value, str)}


async def index(request: Request) -> Response:
    return _index(request, {}, None)


def _index(
    request: Request, values: Mapping[str, str], error: str | None, status: int = 200
) -> Response:
    served = served_of(request)
    snapshot = served.series.snapshot
    lang = page_language(request)
    done = _done(lang, request.query_params.get("done", ""))
    return render(
        request,
        "index.html.j2",
        {
            "live": Markup(live_fragment(served, snapshot, lang.code)),
            "form": _form_view(snapshot.result, values),
            "error": error,
            "done": done,
            "action": "/record",
            "replacing": 0,
        },
        status,
    )


def _done(lang: Language, done: str) -> str:
    """What the page says after a change it redirected from (``3-recorded``)."""
    number, _, kind = done.partition("-")
    if not number.isdigit() or len(number) > 6:
        return ""
    said = {
        "recorded": lang._("Game {number} is recorded."),
        "replaced": lang._("Game {number} is replaced."),
        "removed": lang._("Game {number} is removed."),
    }
    return said[kind].format(number=int(number)) if kind in said else ""


async def record(request: Request) -> Response:
    return await _save_or_check(request, None)


async def edit(request: Request) -> Response:
    number = request.path_params["number"]
    snapshot = served_of(request).series.snapshot
    if not 1 <= number <= snapshot.played:
        raise HTTPException(404)
    if request.method == "POST":
        return await _save_or_check(request, number)
    game = snapshot.result.series.games[number - 1]
    return _form_page(request, _values_of(snapshot.result, game), None, number)


async def _save_or_check(request: Request, number: int | None) -> Response:
    form = await read_form(request)
    if not csrf_ok(request, form):
        return forbidden(request)
    served = served_of(request)
    values = plain(form)
    snapshot = served.series.snapshot
    series = snapshot.result.series
    if values.get("action") == "edit":
        return _form_page(request, values, None, number)
    problem = form_problem(series, values, page_language(request))
    if problem is not None:
        return _form_page(request, values, problem, number, 400)
    try:
        expected = int(values.get("expected_games", "-1")[:6])
        game = game_from_form(series, values)
        scored = scored_game(series, game, number)
        if values.get("action") != "save" or expected != snapshot.played:
            if expected != snapshot.played:
                raise StaleSeriesError("the page saw another state of the series")
            return _confirm(request, values, game, scored, number)
        if number is None:
            await served.series.record(game, expected)
        else:
            await served.series.replace(number, game, expected)
    except StaleSeriesError:
        return await _stale(request, values, number)
    except (SheetgenError, ValueError) as exc:
        message = exc.problem if isinstance(exc, SheetgenError) else "reload the page"
        return _form_page(request, values, message, number, 400)
    done = f"{number or snapshot.played + 1}-{'replaced' if number else 'recorded'}"
    return RedirectResponse("/?" + urlencode({"done": done}), status_code=303)


def _form_page(
    request: Request,
    values: Mapping[str, str],
    error: str | None,
    number: int | None,
    status: int = 200,
) -> Response:
    """The record form again (on the standings page) or the form that replaces game
    ``number``, filled with ``values``."""
    if number is None:
        return _index(request, values, error, status)
    result = served_of(request).series.snapshot.result
    return render(
        request,
        "edit.html.j2",
        {
            "form": _form_view(result, values),
            "error": error,
            "action": f"/games/{number}",
            "replacing": number,
        },
        status,
    )


async def _stale(request: Request, values: Mapping[str, str], number: int | None) -> Response:
    """The page again, as the file is now, saying why nothing was changed; the game typed
    stays in the form, to save again once the list shows it is not there yet."""
    series = served_of(request).series
    await series.refresh(force=True)
    lang = page_language(request)
    message = lang._(
        "The series changed before this was saved (on another phone, or in the file): it "
        "now holds {count} games. Nothing was saved. Check the list: if this game is not "
        "there, save it again."
    ).format(count=series.snapshot.played)
    return _form_page(request, values, message, number, 409)


def _confirm(
    request: Request, values: Mapping[str, str], game: Game, scored: Any, number: int | None
) -> Response:
    result = served_of(request).series.snapshot.result
    table = result.series.table
    return render(
        request,
        "confirm.html.j2",
        {
            "values": [
                {"name": key, "value": value}
                for key, value in values.items()
                if key == "winner" or key.startswith("left-")
            ],
            "winner": table.side_label(game.winner),
            "points": scored.points,
            "cards_left": result.series.scoring.cards_left,
            "left": [{"name": name, "count": count} for name, count in game.left.items()],
            "replacing": number or 0,
            "action": f"/games/{number}" if number else "/record",
        },
    )


async def undo(request: Request) -> Response:
    served = served_of(request)
    snapshot = served.series.snapshot
    if request.method == "POST":
        form = await read_form(request)
        if not csrf_ok(request, form):
            return forbidden(request)
        try:
            expected = int(str(form.get("expected_games", "-1"))[:6])
            await served.series.undo(expected)
        except StaleSeriesError:
            return await _stale(request, {}, None)
        except (SheetgenError, ValueError) as exc:
            return _index(request, {}, getattr(exc, "problem", "reload the page"), 400)
        return RedirectResponse(
            "/?" + urlencode({"done": f"{snapshot.played}-removed"}), status_code=303
        )
    if not snapshot.played:
        return _index(request, {}, page_language(request)._("There is no game to undo."), 400)
    last = snapshot.result.games[-1]
    return render(
        request,
        "undo.html.j2",
        {
            "number": last.number,
            "line": _said(snapshot, last, page_language(request)),
            "left": [{"name": name, "count": count} for name, count in last.left.items()],
        },
    )


def forbidden(request: Request) -> Response:
    lang = page_language(request)
    message = lang._(
        "This form is out of date or not from this page. Reload the page and try again."
    )
    return render(request, "message.html.j2", {"message": message}, 403)


def not_here(request: Request) -> Response:
    message = page_language(request)._("There is no such page here.")
    return render(request, "message.html.j2", {"message": message}, 404)


async def not_found(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith(("/api/", "/events")):
        from starlette.responses import JSONResponse

        return JSONResponse({"error": f"there is no {request.url.path[:80]} here"}, 404)
    return not_here(request)


async def not_allowed(request: Request, exc: Exception) -> Response:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": f"{request.method} is not taken here"}, 405)


async def set_language(request: Request) -> Response:
    code = request.path_params["code"]
    back = request.query_params.get("next", "/")
    response = RedirectResponse(same_site_path(back if len(back) <= 100 else "/"), 303)
    if code in languages():
        response.set_cookie(LANG_COOKIE, code, max_age=31_536_000, samesite="strict")
    return response


def routes() -> list[Route]:
    return [
        Route("/", index),
        Route("/record", record, methods=["POST"]),
        Route("/games/{number:int}", edit, methods=["GET", "POST"]),
        Route("/undo", undo, methods=["GET", "POST"]),
        Route("/lang/{code}", set_language),
    ]
