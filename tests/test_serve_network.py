"""``sheetgen serve``'s server on a real socket: connections a machine may hold, the
deadline for a request's headers, and no forwarding header believed.

The server is the one ``sheetgen serve`` runs (``run.make_server``), in a thread.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
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
    monkeypatch.setattr(connections, "REQUEST_SECONDS", 0.5)
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


def test_the_command_prints_its_addresses_and_stops_cleanly_at_ctrl_c(series_file: Path) -> None:
    """``sheetgen serve --lan``: the local address with its key, the network's with a QR
    code and the PIN; a page's event stream open at Ctrl-C costs a clean stop."""
    import re
    import signal
    import subprocess

    sheetgen = Path(sys.executable).with_name("sheetgen")
    process = subprocess.Popen(
        [str(sheetgen), "serve", str(series_file), "--lan", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    said = ""
    while "Ctrl-C" not in said:
        line = process.stderr.readline()
        assert line, said
        said += line
    local = re.search(r"http://127\.0\.0\.1:(\d+)/\?key=(\S+)", said)
    assert local, said
    if "No network address" not in said:
        assert re.search(r"enter the PIN \d{6}\b", said) and "█" in said  # the QR code
    url = f"http://127.0.0.1:{local.group(1)}"
    with httpx.Client(timeout=10, follow_redirects=True) as client:
        assert client.get(f"{url}/?key={local.group(2)}").status_code == 200
        with client.stream("GET", url + "/events") as stream:
            assert next(stream.iter_lines()).startswith("event: series")
            process.send_signal(signal.SIGINT)
            stopped = process.wait(10)
    rest = process.stderr.read()
    assert stopped in (0, 130) and "Traceback" not in rest, rest


def test_a_page_that_goes_away_mid_stream_leaves_nothing_behind(series_file: Path) -> None:
    with running(series_file) as (url, served):
        with httpx.Client(
            timeout=10, headers={"Authorization": f"Bearer {served.access.token}"}
        ) as client:
            for _ in range(5):
                with client.stream("GET", url + "/events") as stream:
                    lines = stream.iter_lines()
                    assert next(lines).startswith("event: series")
                    assert next(lines).startswith("data: ")
                    assert served.series.listeners >= 1
        deadline = time.monotonic() + 5
        while served.series.listeners and time.monotonic() < deadline:
            time.sleep(0.05)
        assert served.series.listeners == 0


@pytest.mark.skipif(
    os.getuid() != 0 or not Path("/usr/bin/python3").is_file(),
    reason="needs root (to connect as another account) and /usr/bin/python3",
)
def test_another_account_on_this_computer_is_not_let_in(series_file: Path) -> None:
    """Another account's browser would hold no cookie of ours, and could be handed one by a
    server of its own on another port: its connections are refused at the door."""
    with running(series_file) as (url, served):
        script = (
            "import socket, sys\n"
            f"s = socket.create_connection(('127.0.0.1', {url.rsplit(':', 1)[1]}))\n"
            f"s.sendall(b'GET /healthz HTTP/1.1\\r\\nHost: {url[7:]}\\r\\n"
            f"Authorization: Bearer {served.access.token}\\r\\n\\r\\n')\n"
            "s.settimeout(5)\n"
            "try:\n    print(repr(s.recv(100)))\nexcept ConnectionResetError:\n    print('reset')\n"
        )
        other = subprocess.run(
            ["/usr/bin/python3", "-c", script],
            user=65534,
            capture_output=True,
            text=True,
            timeout=20,
            cwd="/",
        )
        assert other.stdout.strip() in ("reset", "b''"), other
        assert httpx.get(url + "/healthz").json() == {"ok": True}  # its own account is


def test_the_server_holds_a_few_hundred_connections_in_all(
    series_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "MAX_OPEN", 6)
    with running(series_file) as (url, _):
        port = int(url.rsplit(":", 1)[1])
        held = []
        for last in range(2, 8):  # six machines, one connection each
            sock = socket.socket()
            sock.bind((f"127.0.0.{last}", 0))
            sock.connect(("127.0.0.1", port))
            held.append(sock)
        time.sleep(0.2)
        seventh = socket.socket()
        seventh.bind(("127.0.0.9", 0))
        seventh.connect(("127.0.0.1", port))
        assert closed(seventh, 2.0)
        for sock in held:
            sock.close()


def test_a_body_that_never_finishes_is_cut_off(
    series_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "REQUEST_SECONDS", 0.5)
    with running(series_file, pin="111222") as (url, _):
        (slow,) = idle(
            url,
            1,
            f"POST /pin HTTP/1.1\r\nHost: {url[7:]}\r\nContent-Length: 1000\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n\r\npin=1".encode(),
        )
        assert closed(slow, 3.0)


def test_the_key_leads_only_to_a_path_of_this_server(series_file: Path) -> None:
    with running(series_file) as (url, served):
        key = served.access.token
        raw = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])))
        for target in (
            "//evil.example/x",
            "/%2F%2Fevil.example",
            "/a%0d%0aSet-Cookie:x=1",
            "/%C3%A4",
        ):
            raw = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])))
            raw.sendall(
                f"GET {target}?key={key} HTTP/1.1\r\nHost: {url[7:]}\r\nConnection: close\r\n\r\n".encode()
            )
            answer = b""
            while chunk := raw.recv(4096):
                answer += chunk
            head = answer.split(b"\r\n\r\n")[0].decode("latin-1")
            assert head.startswith("HTTP/1.1 303"), (target, head)
            location = next(
                line for line in head.splitlines() if line.lower().startswith("location:")
            )
            assert location.split(":", 1)[1].strip().startswith("/"), location
            assert not location.split(":", 1)[1].strip().startswith("//"), location
            assert "x=1" not in head.replace("Location", ""), head
