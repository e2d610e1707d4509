"""The HTTP interface beside the page, for scripts, tests and the page's own script.

``GET /api/series`` the series as JSON; ``POST /api/games`` a game (``{"winner": "Ann",
"left": {"Bob": 7}, "expected_games": 3}``, with ``"replace": N`` in place of game N);
``POST /api/preview`` how a game would score, nothing written; ``POST /api/undo``
(``{"expected_games": 3}``); ``GET /events`` the event stream: one ``series`` event now
and one at every change; ``GET /healthz``.

A change needs the session's CSRF token in ``X-CSRF-Token``, or the bearer token. Every
refusal is a JSON object ``{"error": ...}`` with the message ``sheetgen record`` would
give and the place (``file``, ``game``, ``field``); a change against an older state than
the file holds is 409 and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from sse_starlette import EventSourceResponse
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sheetgen.errors import SheetgenError, StaleSeriesError
from sheetgen.serve import pages
from sheetgen.serve.served import Served, served_of
from sheetgen.serve.state import Snapshot
from sheetgen.serve.views import (
    expected_games,
    form_of,
    form_problem,
    game_from_json,
    scored_game,
    series_json,
)

PING_SECONDS = 15


def error_json(exc: SheetgenError, status: int | None = None) -> JSONResponse:
    """A refusal as the HTTP interface gives it: the message and its place."""
    code = status or (409 if isinstance(exc, StaleSeriesError) else 400)
    body: dict[str, object] = {"error": str(exc), "problem": exc.problem, "file": exc.file}
    body.update({"game": exc.game, "field": exc.field})
    return JSONResponse(body, status_code=code)


def _refused(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> Any:
    """The request's JSON object; a refusal (as a response) when it is none."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _refused("send the request as JSON (Content-Type: application/json)", 415)
    raw = await request.body()
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return _refused(f"the request is not valid JSON ({str(exc)[:120]})", 400)


def _allowed(request: Request, served: Served) -> bool:
    """Whether a change may be made: the bearer token, or the session and its CSRF token."""
    access = served.access
    if access.token_ok(request.headers.get("authorization")):
        return True
    return access.csrf_ok(request.state.sid, request.headers.get("x-csrf-token"))


async def _change_request(request: Request) -> tuple[Served, Any] | Response:
    served = served_of(request)
    if not _allowed(request, served):
        return _refused("this change needs the page's CSRF token or the bearer token", 403)
    data = await _body(request)
    return data if isinstance(data, Response) else (served, data)


async def get_series(request: Request) -> Response:
    return JSONResponse(series_json(served_of(request).series.snapshot))


async def post_game(request: Request) -> Response:
    asked = await _change_request(request)
    if isinstance(asked, Response):
        return asked
    served, data = asked
    series = served.series
    try:
        game, expected, number = game_from_json(series.snapshot.result.series, data)
        if number is None:
            snapshot = await series.record(game, expected)
        else:
            snapshot = await series.replace(number, game, expected)
    except SheetgenError as exc:
        return error_json(exc)
    return JSONResponse(series_json(snapshot), status_code=201 if number is None else 200)


async def post_preview(request: Request) -> Response:
    asked = await _change_request(request)
    if isinstance(asked, Response):
        return asked
    served, data = asked
    series = served.series.snapshot.result.series
    if isinstance(data, dict):
        # The page's own words first, in its language, as the form's checks give them.
        problem = form_problem(series, form_of(series, data), pages.page_language(request))
        if problem is not None:
            return JSONResponse({"error": problem, "problem": problem}, status_code=400)
    try:
        game, _, number = game_from_json(series, {"expected_games": 0, **data})
        scored = scored_game(series, game, number)
    except SheetgenError as exc:
        return error_json(exc)
    except TypeError:
        return _refused("the request must be a JSON object", 400)
    return JSONResponse({"points": scored.points, "scores": dict(scored.scores)})


async def post_undo(request: Request) -> Response:
    asked = await _change_request(request)
    if isinstance(asked, Response):
        return asked
    served, data = asked
    try:
        if not isinstance(data, Mapping):
            raise SheetgenError("the request must be a JSON object", field="body")
        snapshot = await served.series.undo(expected_games(data))
    except SheetgenError as exc:
        return error_json(exc)
    return JSONResponse(series_json(snapshot))


def event_data(served: Served, snapshot: Snapshot, lang: str) -> str:
    """One ``series`` event: the state a change is made against, and the page's live part
    in ``lang``, rendered once for every page that reads that language."""
    return json.dumps(
        {
            "revision": snapshot.revision,
            "expected_games": snapshot.played,
            "problem": snapshot.problem,
            "html": pages.live_fragment(served, snapshot, lang),
        },
        ensure_ascii=False,
    )


async def events(request: Request) -> Response:
    served = served_of(request)
    lang = pages.page_language(request).code

    async def stream() -> AsyncIterator[dict[str, str]]:
        with served.series.listening() as listener:
            yield {"event": "series", "data": event_data(served, served.series.snapshot, lang)}
            while True:
                snapshot = await listener.next()
                yield {"event": "series", "data": event_data(served, snapshot, lang)}

    return EventSourceResponse(stream(), ping=PING_SECONDS, send_timeout=30)


async def healthz(request: Request) -> Response:
    return JSONResponse({"ok": True})


def routes() -> list[Route]:
    return [
        Route("/api/series", get_series),
        Route("/api/games", post_game, methods=["POST"]),
        Route("/api/preview", post_preview, methods=["POST"]),
        Route("/api/undo", post_undo, methods=["POST"]),
        Route("/events", events),
        Route("/healthz", healthz),
    ]
