"""The PIN page and the page's own script and style.

The script and the style are files of sheetgen's templates folder, named here one by
one: no path of a request reaches the file system.
"""

from __future__ import annotations

import hashlib
import math
from functools import cache

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from sheetgen.resources import templates_dir
from sheetgen.serve.access import address_of, session_cookie
from sheetgen.serve.pages import page_language, plain, read_form, render
from sheetgen.serve.served import served_of

STATIC = {
    "live.js": "text/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
}


@cache
def _static(name: str) -> tuple[bytes, str]:
    data = (templates_dir() / "serve" / name).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:16]


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return Response("There is no such file here.", 404, media_type="text/plain")
    data, etag = _static(name)
    if request.headers.get("if-none-match") == f'"{etag}"':
        return Response(status_code=304)
    return Response(
        data,
        media_type=STATIC[name],
        headers={
            "ETag": f'"{etag}"',
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
        },
    )


async def pin(request: Request) -> Response:
    served = served_of(request)
    access = served.access
    if request.state.sid is not None:
        return RedirectResponse("/", status_code=303)
    lang = page_language(request)
    if access.pin is None:
        message = lang._(
            "Open this page by the address sheetgen serve printed where it runs: that "
            "address carries the key that lets this browser in."
        )
        return render(request, "pin.html.j2", {"error": message, "closed": True}, 403)
    # The whole form is read before the limits are asked, and nothing is awaited between
    # asking them and counting the guess: guesses sent at once count one by one.
    given = plain(await read_form(request)).get("pin", "")[:20] if request.method == "POST" else ""
    address = address_of(request.scope)
    if access.closed:
        message = lang._(
            "Too many wrong PINs were entered. Start sheetgen serve again for a new PIN."
        )
        return render(request, "pin.html.j2", {"error": message, "closed": True}, 429)
    wait = access.wait_left(address)
    if wait > 0:
        message = lang._("Too many wrong PINs. Try again in {seconds} seconds.").format(
            seconds=math.ceil(wait)
        )
        return render(request, "pin.html.j2", {"error": message, "closed": False}, 429)
    if request.method == "GET":
        return render(request, "pin.html.j2", {"error": None, "closed": False})
    if not access.try_pin(address, given):
        message = lang._("That PIN is not right. The PIN is shown where sheetgen serve runs.")
        return render(request, "pin.html.j2", {"error": message, "closed": False}, 403)
    response = RedirectResponse("/", status_code=303)
    response.headers.append("set-cookie", session_cookie(access.new_session(address)))
    return response


def routes() -> list[Route]:
    return [
        Route("/pin", pin, methods=["GET", "POST"]),
        Route("/static/{name}", static),
    ]
