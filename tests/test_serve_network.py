"""``sheetgen serve``'s server on a real socket: connections a machine may hold, the
deadline for a request's headers, and no forwarding header believed.

The server is the one ``sheetgen serve`` runs (``run.make_server``), in a thread.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from sheetgen.serve import connections
from tests.test_serve_browser import SERIES, running


@pytest.fixture
def series_file(tmp_path: Path) -> Path:
    path = tmp_path / "friday.yaml"
    path.write_text(SERIES, encoding="utf-8")
    return path


def idle(url: str, count: int, partial: bytes = b"") -> list[socket.socket]:
    host, port = url.removeprefix("http://").split(":")
    held = []
    for _ in range(count):
        sock = socket.create_connection((host, int(port)))
        if partial:
            sock.sendall(partial)
        held.append(sock)
    return held


def closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_idle_connections_of_one_machine_are_capped_and_shut_the_page_for_no_one_else(
    series_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "MAX_PER_ADDRESS", 5)
    with running(series_file) as (url, _):
        held = idle(url, 5, b"GET / HTTP/1.1\r\nHost: x")  # headers never finished
        extra = idle(url, 1)[0]
        assert closed(extra, 2.0)  # the sixth is shut at the door
        for sock in held:
            sock.close()
        time.sleep(0.2)
        assert httpx.get(url + "/healthz").json() == {"ok": True}


def test_a_connection_that_never_sends_its_headers_is_closed(
    series_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "HEADER_SECONDS", 0.5)
    with running(series_file) as (url, _):
        (slow,) = idle(url, 1, b"GET / HTTP/1.1\r\n")
        assert closed(slow, 3.0)
        assert connections.open_connections("127.0.0.1") == 0


def test_a_forwarding_header_names_no_other_address(
    series_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wrong PINs sent "for" another address count against the sender's own."""
    from sheetgen.serve import access

    with running(series_file, pin="135790") as (url, served):
        for number in range(access.TRIES):
            httpx.post(
                url + "/pin",
                data={"pin": f"{number:06d}"},
                headers={"X-Forwarded-For": f"10.0.0.{number}", "Forwarded": "for=10.1.1.1"},
            )
        assert served.access.wait_left("127.0.0.1") > 0
        assert served.access.wait_left("10.0.0.1") == 0
