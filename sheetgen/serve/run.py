"""Running the server: the socket, the keys, what the terminal is told, and a clean stop.

The socket is bound before anything is said, so the address printed is the one that
answers (``--port 0`` takes any free port). On this machine only (the default) it
listens on 127.0.0.1; with ``lan`` on every address, and the terminal shows the
machine's address as a URL and a QR code, the PIN and the bearer token.
"""

from __future__ import annotations

import io
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sheetgen.errors import OutputError
from sheetgen.paper import Paper
from sheetgen.serve.access import Access, local_hosts, new_pin
from sheetgen.serve.app import make_app
from sheetgen.serve.connections import GuardedH11
from sheetgen.serve.served import Served
from sheetgen.serve.state import ServedSeries

GRACE_SECONDS = 2  # open event streams get this long to close at Ctrl-C


def lan_address() -> str | None:
    """The address other machines on the network reach this one by (no packet is sent:
    connecting a UDP socket only chooses the route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else str(address)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or one clear message why there is none."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OutputError(
            f"cannot listen on port {port} ({exc.strerror}); another program may use it: "
            "choose another with --port, or --port 0 for any free one",
            field="--port",
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn in the terminal's characters."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def make_server(served: Served) -> Any:
    """The uvicorn server of ``served``, as ``sheetgen serve`` runs it: connections capped
    per address, a deadline for headers, no forwarding header believed."""
    import uvicorn

    config = uvicorn.Config(
        make_app(served),
        http=GuardedH11,
        log_level="warning",
        timeout_graceful_shutdown=GRACE_SECONDS,
        server_header=False,
        proxy_headers=False,  # the socket's address is the only one believed
        h11_max_incomplete_event_size=16 * 1024,
    )
    return uvicorn.Server(config)


def serve(
    path: Path,
    *,
    lan: bool,
    port: int,
    paper: Paper,
    lang: str | None,
    printer: str | None,
    say: Callable[[str], None],
    start: Callable[[], None] | None = None,
) -> None:
    """Serve the series file at ``path`` until Ctrl-C; ``start`` (``--new``) makes the file
    once the port is taken, so that a port in use leaves nothing behind."""
    address = lan_address() if lan else None
    sock = bind("0.0.0.0" if lan else "127.0.0.1", port)
    try:
        if start is not None:
            start()
        series = ServedSeries(path)
    except BaseException:
        sock.close()
        raise
    port = sock.getsockname()[1]
    names = (address, socket.gethostname(), f"{socket.gethostname()}.local") if address else ()
    hosts = local_hosts(port, tuple(name for name in names if name))
    access = Access(hosts, new_pin() if lan else None)
    served = Served(series, access, paper, lang=lang, printer=printer, lan=lan)
    say(f"Serving {path}. On this computer, open:")
    say(f"  http://127.0.0.1:{port}/?key={access.token}")
    if lan and address is None:
        say("No network address was found: only this computer can open the page for now.")
    elif lan:
        url = f"http://{address}:{port}/"
        say(f"Phones and other computers on this network: scan the code or open {url}")
        say(qr_text(url))
        say(f"and enter the PIN {access.pin}")
    say(
        "The key and the PIN let anyone who has them change the series: keep them to the "
        "table. Scripts send the key as: Authorization: Bearer KEY. Stop with Ctrl-C."
    )
    server = make_server(served)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
