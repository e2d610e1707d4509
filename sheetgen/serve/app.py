"""The served series as a web application: its routes, the guard in front of them, and
the server that runs it.

The guard sees every request first: a body larger than MAX_BODY is refused before it is
read (by its Content-Length, or as it arrives), a Host the server does not listen as is
refused, and a browser without a session gets one (on this machine) or is sent to the
PIN page (on the local network). The routes then do their work as ``sheetgen.serve.pages``
(HTML forms that work without JavaScript) and ``sheetgen.serve.api`` (JSON and the event
stream) say.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import PlainTextResponse, Response

from sheetgen.serve import access_pages, api, document_pages, pages
from sheetgen.serve.access import COOKIE, Access, address_of, same_site_path, session_cookie
from sheetgen.serve.served import Served

MAX_BODY = 64 * 1024  # a game, a PIN or a booklet's toggles: a few hundred bytes
PUBLIC = ("/pin", "/static/", "/healthz")  # what a browser reaches before its PIN

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class _TooLarge(Exception):
    pass


class Guard:
    """Body size, Host and session, before any route runs."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], served: Served):
        self.app = app
        self.served = served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        access = self.served.access
        refusal = _refusal(headers, access)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        path = scope["path"]
        address = address_of(scope)
        sid = access.session_id(_cookie(headers), address)
        if sid is None and scope["method"] == "GET" and access.key_ok(_key(scope)):
            # The printed address: its key becomes a session, and leaves the address bar.
            cookie = session_cookie(access.new_session(address))
            await Response(
                status_code=303,
                headers={
                    "Location": same_site_path(path),
                    "Set-Cookie": cookie,
                    "Cache-Control": "no-store",
                    "Referrer-Policy": "no-referrer",
                },
            )(scope, receive, send)
            return
        scope.setdefault("state", {})["sid"] = sid
        public = path in PUBLIC or path.startswith(PUBLIC[1])
        if sid is None and not public and not access.token_ok(headers.get("authorization")):
            await _unknown_browser(path)(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, _limited(receive), sending)
        except _TooLarge:
            if not started:
                await _too_large()(scope, receive, send)


def _key(scope: Scope) -> str | None:
    from urllib.parse import parse_qs

    query = scope.get("query_string", b"").decode("latin-1")
    keys = parse_qs(query).get("key") if len(query) < 500 else None
    return keys[0] if keys else None


def _cookie(headers: Headers) -> str | None:
    raw = headers.get("cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    with contextlib.suppress(Exception):
        jar.load(raw)
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else None


def _refusal(headers: Headers, access: Access) -> Response | None:
    if not access.host_allowed(headers.get("host")):
        return PlainTextResponse(
            "This server answers only to its own address (the Host header names another).",
            status_code=421,
        )
    length = headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return _too_large()
    return None


def _too_large() -> Response:
    return PlainTextResponse(
        f"The request is larger than {MAX_BODY // 1024} KB; nothing was changed.",
        status_code=413,
    )


def _unknown_browser(path: str) -> Response:
    if path.startswith(("/api/", "/events")):
        return Response(
            json.dumps({"error": "enter the PIN on the page first, or send the bearer token"}),
            status_code=401,
            media_type="application/json",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return Response(status_code=303, headers={"Location": "/pin"})


def _limited(receive: Receive) -> Receive:
    seen = 0

    async def counted() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise _TooLarge
        return message

    return counted


def make_app(served: Served, *, watch: bool = True) -> Starlette:
    """The application for ``served``; ``watch`` looks at the file for outside edits."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(served.series.watch()) if watch else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    app = Starlette(
        routes=[
            *pages.routes(),
            *document_pages.routes(),
            *access_pages.routes(),
            *api.routes(),
        ],
        lifespan=lifespan,
        exception_handlers={404: pages.not_found, 405: pages.not_allowed},
    )
    app.state.served = served
    app.add_middleware(Guard, served=served)
    # Pages, charts and scripts travel compressed (an event stream never is).
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    return app
