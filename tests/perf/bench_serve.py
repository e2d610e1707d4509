"""Benchmark of ``sheetgen serve`` on loopback, against a bare server run the same way.

    .venv/bin/python tests/perf/bench_serve.py [--games 40] [--pages 10] [--burst 200]

Starts ``sheetgen serve`` (the real command, ``--port 0``) and, as the baseline in the
same process tree, a bare Starlette + sse-starlette server that only relays a posted
number to its event streams (no file, no scoring, no templates). Measures:

- **Live updates**: with PAGES event streams open, a game posted through ``/api/games``
  until every stream has its event; the 95th percentile (target: under 100 ms), and its
  ratio to the bare relay's.
- **First load**: the page, its style and its script, in bytes (target: under 60 KB; the
  page fetches nothing else: no font, no outside address).
- **Booklet preview**: ``/booklet/preview`` with a toggle changed each time (target: under
  300 ms at the median).
- **A burst**: four scripted clients record BURST games as fast as the server takes them,
  each retrying a refused (409) game against the state it is shown; the file must then
  hold exactly BURST more games, none lost and none twice (target: 200 a minute).

Absolute times drift on shared machines; the ratios to the bare server are the figures
to compare between runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
SHEETGEN = Path(sys.executable).with_name("sheetgen")
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
BARE = textwrap.dedent(
    """
    import asyncio, sys, uvicorn
    from sse_starlette import EventSourceResponse
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    queues = set()
    async def events(request):
        async def stream():
            queue = asyncio.Queue()
            queues.add(queue)
            try:
                while True:
                    yield {"event": "series", "data": await queue.get()}
            finally:
                queues.discard(queue)
        return EventSourceResponse(stream())
    async def post(request):
        body = await request.body()
        for queue in list(queues):
            queue.put_nowait(body.decode())
        return JSONResponse({"ok": True}, status_code=201)
    app = Starlette(routes=[Route("/events", events), Route("/api/games", post, methods=["POST"])])
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    sock = config.bind_socket()
    print(f"Serving bare at http://127.0.0.1:{sock.getsockname()[1]}/", file=sys.stderr, flush=True)
    server.run(sockets=[sock])
    """
)


def start(argv: list[str], cwd: Path) -> tuple[subprocess.Popen[str], str, str]:
    """A server process, its address and its bearer token (empty for the bare one)."""
    process = subprocess.Popen(argv, cwd=cwd, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    address = token = ""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (address and (token or "bare" in argv[-1])):
        line = process.stderr.readline()
        if found := re.search(r"(http://127\.0\.0\.1:\d+)/", line):
            address = found.group(1)
        if found := re.search(r"\?key=(\S+)", line):
            token = found.group(1)
    return process, address, token


def game(number: int) -> dict[str, object]:
    """Game ``number`` of a scripted evening, told from every other by its cards left (the
    number's three digits in base 29): a game recorded twice shows."""
    winner = PLAYERS[number % 4]
    digits = [1 + number // 29**place % 29 for place in range(3)]
    others = [name for name in PLAYERS if name != winner]
    return {"winner": winner, "left": dict(zip(others, digits, strict=True))}


async def listen(
    client: httpx.AsyncClient, url: str, seen: list[float], ready: asyncio.Event, first: bool
) -> None:
    """Note the time of every event on the stream; ``first``: the stream opens with the
    state as it is (sheetgen's does; the bare relay's does not)."""
    async with client.stream("GET", url + "/events") as stream:
        async for line in stream.aiter_lines():
            if line.startswith("event:"):
                if first:
                    first = False
                    ready.set()
                    continue
                seen.append(time.perf_counter())


async def live(url: str, token: str, pages: int, games: int, bare: bool) -> list[float]:
    """Milliseconds from each post until the last of ``pages`` streams has its event."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    delays = []
    async with httpx.AsyncClient(timeout=30, headers=headers) as client:
        seen: list[list[float]] = [[] for _ in range(pages)]
        readies = [asyncio.Event() for _ in range(pages)]
        tasks = [
            asyncio.create_task(listen(client, url, seen[i], readies[i], not bare))
            for i in range(pages)
        ]
        if bare:
            for ready in readies:
                ready.set()  # the bare relay sends nothing at connect
            await asyncio.sleep(0.3)
        await asyncio.gather(*(ready.wait() for ready in readies))
        played = 0 if bare else (await client.get(url + "/api/series")).json()["expected_games"]
        for number in range(games):
            counts = [len(page) for page in seen]
            start_at = time.perf_counter()
            body = {**game(number), "expected_games": played + number}
            answer = await client.post(url + "/api/games", json=body)
            assert answer.status_code == 201, answer.text
            while any(len(page) <= count for page, count in zip(seen, counts, strict=True)):
                await asyncio.sleep(0.0005)
            delays.append(
                (max(page[count] for page, count in zip(seen, counts, strict=True)) - start_at)
                * 1000
            )
        for task in tasks:
            task.cancel()
    return delays


async def burst(url: str, token: str, total: int) -> tuple[float, int]:
    """Seconds to record ``total`` games from four clients, and the 409s met on the way."""
    headers = {"Authorization": f"Bearer {token}"}
    refused = 0
    todo = list(range(1000, 1000 + total))
    async with httpx.AsyncClient(timeout=30, headers=headers) as client:

        async def worker() -> None:
            nonlocal refused
            while todo:
                number = todo.pop()
                while True:
                    expected = (await client.get(url + "/api/series")).json()["expected_games"]
                    answer = await client.post(
                        url + "/api/games", json={**game(number), "expected_games": expected}
                    )
                    if answer.status_code == 201:
                        break
                    assert answer.status_code == 409, answer.text
                    refused += 1

        start_at = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(4)))
        return time.perf_counter() - start_at, refused


def first_load(url: str, key: str) -> dict[str, int]:
    """Bytes a browser downloads on opening the page (compressed as sent), by file."""
    sizes = {}
    with httpx.Client() as client:
        client.get(f"{url}/?key={key}")  # the printed address: its key becomes a session
        page = client.get(url + "/")
        sizes["page"] = page.num_bytes_downloaded
        for name in re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text):
            sizes[name] = client.get(url + name).num_bytes_downloaded
        outside = re.findall(r'(?:href|src)="(https?:|//)', page.text)
        sizes["outside requests"] = len(outside)
    return sizes


def previews(url: str, key: str, runs: int) -> list[float]:
    times = []
    with httpx.Client(timeout=60, headers={"Authorization": f"Bearer {key}"}) as client:
        for run in range(runs):
            query = f"t-shown=1&t-series=on&t-target={300 + 10 * run}&t-deck={'standard' if run % 2 else 'skip-bo'}"
            start_at = time.perf_counter()
            answer = client.get(f"{url}/booklet/preview?{query}")
            assert answer.status_code == 200, answer.text[:200]
            times.append((time.perf_counter() - start_at) * 1000)
    return times


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games posted while pages listen")
    parser.add_argument("--pages", type=int, default=10, help="open event streams")
    parser.add_argument("--burst", type=int, default=200, help="games of the scripted burst")
    parser.add_argument("--previews", type=int, default=10, help="booklet previews")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        series = work / "friday.yaml"
        series.write_text(
            "players: [Ann, Bob, Cy, Di]\ntarget: 1000000\ngames: []\n", encoding="utf-8"
        )
        env_python = sys.executable
        bare_script = work / "bare.py"
        bare_script.write_text(BARE, encoding="utf-8")
        served, url, token = start(
            [str(SHEETGEN), "serve", str(series), "--port", "0", "--lang", "en"], work
        )
        bare, bare_url, _ = start([env_python, str(bare_script)], work)
        try:
            ours = live(url, token, args.pages, args.games, bare=False)
            delays = asyncio.run(ours)
            base = asyncio.run(live(bare_url, "", args.pages, args.games, bare=True))
            sizes = first_load(url, token)
            shown = previews(url, token, args.previews)
            took, refused = asyncio.run(burst(url, token, args.burst))
            held = httpx.get(
                url + "/api/series", headers={"Authorization": f"Bearer {token}"}
            ).json()
        finally:
            for process in (served, bare):
                process.terminate()
                process.wait(10)
        recorded = len(held["games"])
        keys = [json.dumps([g["winner"], g["left"]], sort_keys=True) for g in held["games"]]
        print(f"sheetgen serve benchmark ({os.cpu_count()} cores, Python {sys.version.split()[0]})")
        print(f"live update, {args.pages} pages, {args.games} games:")
        print(
            f"  sheetgen  median {statistics.median(delays):6.1f} ms  p95 {p95(delays):6.1f} ms  (target p95 < 100 ms)"
        )
        print(f"  bare relay median {statistics.median(base):6.1f} ms  p95 {p95(base):6.1f} ms")
        print(f"  ratio p95 {p95(delays) / p95(base):.1f}x the bare relay")
        print(
            f"first load: {sum(v for k, v in sizes.items() if k != 'outside requests') / 1024:.1f} KB {sizes} (target < 60 KB, no outside request)"
        )
        print(
            f"booklet preview: median {statistics.median(shown):.0f} ms, max {max(shown):.0f} ms (target median < 300 ms)"
        )
        rate = args.burst / took * 60
        print(
            f"burst: {args.burst} games in {took:.1f} s = {rate:.0f} a minute, {refused} refused and retried (target 200 a minute)"
        )
        print(
            f"  file holds {recorded} games: {recorded - args.games} from the burst (expected {args.burst}), "
            f"{len(keys) - len(set(keys))} doubled"
        )


if __name__ == "__main__":
    main()
