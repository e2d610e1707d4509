"""``sheetgen serve`` through Starlette's TestClient: every route, the 409 race, the PIN
limit, CSRF, the Host check, the file edited from outside, and bad input.

Each test serves a series file of its own (three players, one game unless told) and
reads what the page and the file say afterwards.
"""

from __future__ import annotations

import asyncio
import html as markup
import io
import json
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from starlette.testclient import TestClient

from sheetgen.errors import StaleSeriesError
from sheetgen.game.scoring import Game
from sheetgen.paper import A4
from sheetgen.series.file import load_series
from sheetgen.series.record import record_game
from sheetgen.serve import access as access_module
from sheetgen.serve.access import Access, local_hosts
from sheetgen.serve.app import MAX_BODY, make_app
from sheetgen.serve.served import Served
from sheetgen.serve.state import ServedSeries

SERIES = """\
# Friday nights at the club
game: skip-bo
title: Friday
players: [Ann, Bob, Cy]
stock: 30
games:
  - winner: Ann   # a close one
    left: {Bob: 4, Cy: 7}
"""
HOST = "http://127.0.0.1:8765"


class Page:
    """A browser on the served page: its client, its CSRF token and what it last saw."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.html = client.get("/").text
        self.csrf = field(self.html, "csrf")
        self.seen = int(field(self.html, "expected_games"))

    def post(self, url: str, **data: Any) -> Any:
        return self.client.post(url, data={"csrf": self.csrf, **data}, follow_redirects=False)

    def api(self, url: str, body: Any) -> Any:
        return self.client.post(url, json=body, headers={"X-CSRF-Token": self.csrf})


def field(html: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]* value="([^"]*)"', html)
    assert found, f"no {name} field"
    return found.group(1)


def texts(html: str, css_class: str) -> list[str]:
    return [
        markup.unescape(re.sub(r"<[^>]+>", "", text)).strip()
        for text in re.findall(rf'class="{css_class}"[^>]*>(.*?)</p>', html, re.S)
    ]


@pytest.fixture
def series_file(tmp_path: Path) -> Path:
    path = tmp_path / "friday.yaml"
    path.write_text(SERIES, encoding="utf-8")
    return path


@pytest.fixture
def serve(series_file: Path) -> Iterator[Callable[..., TestClient]]:
    """A browser (a client with cookies of its own) on the one server of its settings."""
    apps: dict[tuple[str | None, str | None], Any] = {}
    clients: list[TestClient] = []

    def make(
        *, pin: str | None = None, lang: str | None = None, key: bool = True, **headers: str
    ) -> TestClient:
        """A browser; on this machine only (no ``pin``) it opens the printed address with
        its key first, unless ``key`` is False."""
        if (pin, lang) not in apps:
            access = Access(local_hosts(8765), pin)
            served = Served(ServedSeries(series_file), access, A4, lang=lang)
            apps[pin, lang] = make_app(served, watch=False)
        client = TestClient(apps[pin, lang], base_url=HOST, headers=headers)
        client.__enter__()
        clients.append(client)
        if pin is None and key:
            token = apps[pin, lang].state.served.access.token
            assert client.get(f"/?key={token}").status_code == 200
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def games_in(path: Path) -> list[Game]:
    return list(load_series(path).games)


# --- the page, without JavaScript ------------------------------------------------------


def test_the_page_shows_standings_chart_games_and_a_form_that_works_alone(serve: Any) -> None:
    html = serve().get("/").text
    assert "<h1" in html and "Standings" in html
    standings = re.search(r'<table class="standings">.*?</table>', html, re.S).group(0)
    assert re.findall(r'<th scope="row">(\w+)', standings) == ["Ann", "Bob", "Cy"]
    assert "<svg" in html and 'role="img"' in html  # the race chart, drawn as SVG
    form = re.search(r'<form method="post" action="/record".*?</form>', html, re.S).group(0)
    assert 'value="check"' in form  # without JavaScript: check, then save
    assert re.findall(r'name="(left-\d)"', form) == ["left-0", "left-1", "left-2"]
    assert 'inputmode="numeric"' in form
    assert '<script src="/static/live.js" defer>' in html


def test_record_shows_the_points_before_saving_and_saves_once(
    serve: Any, series_file: Path
) -> None:
    page = Page(serve())
    check = page.post(
        "/record", expected_games=1, winner="Bob", **{"left-0": "3", "left-2": "5"}, action="check"
    )
    assert check.status_code == 200
    assert texts(check.text, "big") == ["Bob scores 65 points."]
    assert len(games_in(series_file)) == 1  # shown, not written
    saved = page.post(
        "/record", expected_games=1, winner="Bob", **{"left-0": "3", "left-2": "5"}, action="save"
    )
    assert saved.status_code == 303 and saved.headers["location"] == "/?done=2-recorded"
    assert games_in(series_file)[-1] == Game("Bob", {"Ann": 3, "Cy": 5})
    assert texts(page.client.get(saved.headers["location"]).text, "done") == ["Game 2 is recorded."]
    # The file keeps its comments: the write is record's own.
    text = series_file.read_text(encoding="utf-8")
    assert "# Friday nights at the club" in text and "# a close one" in text


def test_a_page_that_saw_an_older_series_is_refused_and_shown_the_new_one(
    serve: Any, series_file: Path
) -> None:
    first, second = Page(serve()), Page(serve())
    game = {"winner": "Cy", "left-0": "2", "left-1": "9", "action": "save", "expected_games": 1}
    assert first.post("/record", **game).status_code == 303
    again = second.post("/record", **game)
    assert again.status_code == 409
    assert "Nothing was saved. Check the list" in texts(again.text, "error")[0]
    assert field(again.text, "expected_games") == "2"  # the page now shows two games
    assert field(again.text, "left-0") == "2"  # and keeps what was typed, to save again
    assert len(games_in(series_file)) == 2


def test_two_phones_recording_one_game_at_once_make_one_game(serve: Any, series_file: Path) -> None:
    pages = [Page(serve()) for _ in range(6)]
    body = {"winner": "Bob", "left": {"Ann": 1, "Cy": 2}, "expected_games": 1}
    answers: list[int] = []
    start = threading.Barrier(len(pages))

    def send(page: Page) -> None:
        start.wait()
        answers.append(page.api("/api/games", body).status_code)

    threads = [threading.Thread(target=send, args=(page,)) for page in pages]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201] + [409] * 5
    assert games_in(series_file) == [
        Game("Ann", {"Bob": 4, "Cy": 7}),
        Game("Bob", {"Ann": 1, "Cy": 2}),
    ]


@pytest.mark.parametrize(
    ("fields", "english", "german"),
    [
        (
            {"winner": "Bob", "left-0": "3", "left-2": "31"},
            "Cy cannot have 31 cards left: a pile holds 30.",
            "Cy kann nicht 31 Karten übrig haben: Ein Stapel hat 30.",
        ),
        (
            {"winner": "Bob", "left-0": "3"},
            "Enter how many cards Cy has left.",
            "Tragt ein, wie viele Karten Cy übrig hat.",
        ),
        (
            {"winner": "Bob", "left-0": "x", "left-2": "1"},
            "Enter the cards Ann has left: a number from 0 to 30.",
            "eine Zahl von 0 bis 30",
        ),
        ({"winner": "Bob", "left-0": "-2", "left-2": "1"}, "a number from 0 to 30", "von 0 bis 30"),
        (
            {"winner": "Bob", "left-0": "1", "left-1": "2", "left-2": "1"},
            "Bob won, but has 2 cards written down",
            "Bob hat gewonnen",
        ),
        (
            {"winner": "Zed", "left-0": "3", "left-1": "1", "left-2": "1"},
            "Choose who won the game.",
            "Wählt aus, wer das Spiel gewonnen hat.",
        ),
        ({"left-0": "3"}, "Choose who won the game.", "Wählt aus"),
        (
            {"winner": "Bob", "left-0": "0", "left-2": "0"},
            "Ann must have cards left",
            "Ann muss noch Karten haben",
        ),
    ],
)
def test_bad_games_are_told_in_the_players_words_and_change_nothing(
    serve: Any, series_file: Path, fields: dict[str, str], english: str, german: str
) -> None:
    before = series_file.read_bytes()
    for lang, message in (("en", english), ("de", german)):
        page = Page(serve(lang=lang))
        answer = page.post("/record", expected_games=1, action="save", **fields)
        assert answer.status_code == 400, fields
        top, shown = texts(answer.text, "error")  # at the top of the page, and in the form
        assert message in top
        assert message in shown, fields
        assert not shown.startswith(("game", "left", "winner"))  # no developer's words
        for name, value in fields.items():  # what was typed stays in the form
            if name.startswith("left-"):
                assert field(answer.text, name) == value
    assert series_file.read_bytes() == before


def test_a_winners_empty_pile_may_be_written_as_0_and_is_left_out(
    serve: Any, series_file: Path
) -> None:
    """The page clears a winner's field (JavaScript); without it, 0 there is fine, and any
    other count is asked about (see the bad games above)."""
    page = Page(serve())
    saved = page.post(
        "/record",
        expected_games=1,
        action="save",
        winner="Bob",
        **{"left-0": "3", "left-1": "0", "left-2": "5"},
    )
    assert saved.status_code == 303
    assert games_in(series_file)[-1] == Game("Bob", {"Ann": 3, "Cy": 5})


def test_undo_asks_first_and_removes_only_the_game_it_showed(serve: Any, series_file: Path) -> None:
    page = Page(serve())
    shown = page.client.get("/undo")
    assert re.findall(r"<h1>(.*?)</h1>", shown.text) == ["Remove game 1?"]
    assert "Ann won and scored 80 points." in shown.text
    assert "Bob: 4 cards left" in shown.text
    record_game(series_file, Game("Cy", {"Ann": 1, "Bob": 1}))  # another table member, meanwhile
    stale = page.post("/undo", expected_games=field(shown.text, "expected_games"))
    assert stale.status_code == 409 and len(games_in(series_file)) == 2
    done = page.post("/undo", expected_games=2)
    assert done.status_code == 303 and games_in(series_file) == [Game("Ann", {"Bob": 4, "Cy": 7})]


def test_a_past_game_is_replaced_after_a_confirmation(serve: Any, series_file: Path) -> None:
    page = Page(serve())
    form = page.client.get("/games/1").text
    assert field(form, "left-1") == "4" and field(form, "left-2") == "7"
    check = page.post(
        "/games/1", expected_games=1, winner="Ann", **{"left-1": "2", "left-2": "7"}, action="check"
    )
    assert "Replace game 1?" in check.text and "Ann scores 70 points." in check.text
    saved = page.post(
        "/games/1", expected_games=1, winner="Ann", **{"left-1": "2", "left-2": "7"}, action="save"
    )
    assert saved.status_code == 303
    assert games_in(series_file) == [Game("Ann", {"Bob": 2, "Cy": 7})]
    assert page.client.get("/games/9").status_code == 404


def test_the_page_speaks_the_browsers_language_or_the_one_chosen(serve: Any) -> None:
    german = serve(**{"accept-language": "de-DE,de;q=0.9,en;q=0.5"}).get("/").text
    assert '<html lang="de">' in german and "Spielstand" in german
    assert "Wer hat das Spiel gewonnen?" in german and "abgelegt" not in german
    assert "Übrige Karten in jedem Spielerstapel" in german
    client = serve()
    assert '<html lang="en">' in client.get("/").text
    client.get("/lang/de")
    assert "Spiel eintragen" in client.get("/").text
    assert '<html lang="en">' in serve(lang="en", **{"accept-language": "de"}).get("/").text


# --- the HTTP interface ----------------------------------------------------------------


def test_the_api_gives_the_series_and_takes_games_and_undo(serve: Any, series_file: Path) -> None:
    page = Page(serve())
    data = page.client.get("/api/series").json()
    assert data["players"] == ["Ann", "Bob", "Cy"] and data["expected_games"] == 1
    assert [row["side"] for row in data["standings"]] == ["Ann", "Bob", "Cy"]
    preview = page.api("/api/preview", {"winner": "Cy", "left": {"Ann": 2, "Bob": 2}})
    assert preview.json()["points"] == 45 and len(games_in(series_file)) == 1
    added = page.api(
        "/api/games", {"winner": "Cy", "left": {"Ann": 2, "Bob": 2}, "expected_games": 1}
    )
    assert added.status_code == 201 and added.json()["totals"] == {"Ann": 80, "Bob": 0, "Cy": 45}
    undone = page.api("/api/undo", {"expected_games": 2})
    assert undone.status_code == 200 and undone.json()["expected_games"] == 1


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"{not json", 400, "not valid JSON"),
        (b"[1, 2]", 400, "must be a JSON object"),
        (
            b'{"winner": "Bob", "left": {"Ann": 1, "Cy": 2}}',
            400,
            "number of games the page last saw",
        ),
        (
            b'{"winner": "Bob", "left": {"Ann": 1, "Zed": 2}, "expected_games": 1}',
            400,
            "'Zed' is not a player",
        ),
        (
            b'{"winner": "Bob", "left": {"Ann": 1, "Cy": 99}, "expected_games": 1}',
            400,
            "stock piles hold 30",
        ),
        (
            b'{"winner": "Bob", "left": {"Ann": true, "Cy": 2}, "expected_games": 1}',
            400,
            "not a whole number",
        ),
        (
            b'{"winner": "Bob", "left": {"Ann": 1, "Cy": 2}, "expected_games": 0}',
            409,
            "nothing was changed",
        ),
        (b"[" * 100_000, 413, "larger than"),
    ],
)
def test_bad_requests_are_refused_with_one_message(
    serve: Any, series_file: Path, body: bytes, status: int, message: str
) -> None:
    page = Page(serve())
    before = series_file.read_bytes()
    answer = page.client.post(
        "/api/games",
        content=body,
        headers={"X-CSRF-Token": page.csrf, "Content-Type": "application/json"},
    )
    assert answer.status_code == status
    assert message in answer.text
    assert series_file.read_bytes() == before


def test_a_ten_megabyte_body_is_refused_before_it_is_read(serve: Any, series_file: Path) -> None:
    page = Page(serve())
    before = series_file.read_bytes()
    sent = 0

    def chunks() -> Iterator[bytes]:  # no Content-Length: refused as it arrives
        nonlocal sent
        for _ in range(160):
            sent += 65536
            yield b" " * 65536

    answer = page.client.post(
        "/api/games",
        content=chunks(),
        headers={"X-CSRF-Token": page.csrf, "Content-Type": "application/json"},
    )
    assert answer.status_code == 413
    told = page.client.post(
        "/record",
        content=b"x" * (10 << 20),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert told.status_code == 413 and MAX_BODY < 1 << 20
    assert series_file.read_bytes() == before


def test_unknown_paths_and_methods_are_refused_plainly(serve: Any) -> None:
    client = serve()
    assert client.get("/nowhere").status_code == 404
    assert client.get("/api/nowhere").json() == {"error": "there is no /api/nowhere here"}
    assert client.get("/static/../../etc/passwd").status_code == 404
    assert client.get("/static/page.css%2f..%2f..%2fpyproject.toml").status_code == 404
    assert client.get("/download/..%2fsecret.pdf").status_code == 404
    assert client.delete("/api/games").status_code == 405
    assert client.get("/healthz").json() == {"ok": True}


# --- who may use it --------------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["evil.example:8765", "127.0.0.1:9999", "localhost.evil.example", ""]
)
def test_a_host_the_server_does_not_listen_as_is_refused(serve: Any, host: str) -> None:
    client = serve()
    assert client.get("/", headers={"host": host}).status_code == 421
    assert client.get("/api/series", headers={"host": host}).status_code == 421


def test_forms_need_their_csrf_token_and_the_api_its_header_or_the_token(
    serve: Any, series_file: Path
) -> None:
    page = Page(serve())
    game = {"winner": "Bob", "left-0": "3", "left-2": "5", "action": "save", "expected_games": 1}
    assert page.client.post("/record", data=game).status_code == 403
    assert page.client.post("/record", data={**game, "csrf": "0" * 64}).status_code == 403
    other = Page(serve())  # another browser's token is not this one's
    assert page.client.post("/record", data={**game, "csrf": other.csrf}).status_code == 403
    body = {"winner": "Bob", "left": {"Ann": 3, "Cy": 5}, "expected_games": 1}
    assert page.client.post("/api/games", json=body).status_code == 403
    assert len(games_in(series_file)) == 1
    token = page.client.app.state.served.access.token
    bare = serve()
    bare.cookies.clear()
    assert (
        bare.post("/api/games", json=body, headers={"Authorization": f"Bearer {token}"}).status_code
        == 201
    )


def test_on_this_machine_only_the_printed_address_with_its_key_lets_a_browser_in(
    serve: Any, series_file: Path
) -> None:
    """Another user of the computer, or a page of another site, has no key: no session."""
    stranger = serve(key=False)
    first = stranger.get("/", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/pin"
    assert "set-cookie" not in first.headers
    told = stranger.get("/pin")
    assert told.status_code == 403 and "the key" in told.text
    assert stranger.get("/api/series").status_code == 401
    made = stranger.get("/download/rules.pdf?layout=booklet", follow_redirects=False)
    assert made.status_code == 303
    assert stranger.post("/record", data={"winner": "Bob"}).status_code in (303, 403)
    assert stranger.get("/?key=wrong", follow_redirects=False).headers["location"] == "/pin"
    token = stranger.app.state.served.access.token
    entered = stranger.get(f"/documents?key={token}", follow_redirects=False)
    assert entered.status_code == 303 and entered.headers["location"] == "/documents"
    cookie = entered.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and token not in cookie
    assert stranger.get("/documents").status_code == 200
    assert "Content-Security-Policy" in stranger.get("/").headers
    assert len(games_in(series_file)) == 1


def test_a_session_cookie_is_no_key_from_another_address() -> None:
    access = Access(local_hosts(8765), None)
    cookie = access.new_session("192.0.2.7")
    assert access.session_id(cookie, "192.0.2.7") is not None
    assert access.session_id(cookie, "192.0.2.8") is None
    assert Access(local_hosts(8765), None).session_id(cookie, "192.0.2.7") is None


def test_before_the_pin_a_broken_file_is_not_quoted(serve: Any, series_file: Path) -> None:
    client = serve(pin="123456")
    served = client.app.state.served
    series_file.write_text("players: [Ann, Bob]\ngames:\n  - {winner: Ann, left: {Bob: hunter2}}\n")
    asyncio.run(served.series.refresh())
    assert served.series.snapshot.problem and "hunter2" in served.series.snapshot.problem
    assert "hunter2" not in client.get("/pin").text
    client.post("/pin", data={"pin": "123456"})
    assert "hunter2" in client.get("/").text  # the table sees what is wrong with its file


def test_on_the_network_a_browser_needs_the_pin_once(serve: Any, series_file: Path) -> None:
    client = serve(pin="123456")
    answer = client.get("/", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/pin"
    assert client.get("/api/series").status_code == 401
    assert "Friday" not in client.get("/pin").text  # not even the title before the PIN
    assert client.post("/pin", data={"pin": "000000"}).status_code == 403
    entered = client.post("/pin", data={"pin": "123456"}, follow_redirects=False)
    assert entered.status_code == 303
    assert "HttpOnly" in entered.headers["set-cookie"]
    assert client.get("/api/series").json()["title"] == "Friday"
    assert Page(client).seen == 1


def test_wrong_pins_ban_an_address_for_longer_each_round(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = serve(pin="123456")
    access = client.app.state.served.access
    now = [1000.0]
    access.clock = lambda: now[0]
    for _ in range(access_module.TRIES):
        assert client.post("/pin", data={"pin": "111111"}).status_code == 403
    banned = client.post("/pin", data={"pin": "123456"})
    assert banned.status_code == 429 and "Try again in 60 seconds" in banned.text
    now[0] += 61
    for _ in range(access_module.TRIES):
        client.post("/pin", data={"pin": "111111"})
    assert "Try again in 120 seconds" in client.post("/pin", data={"pin": "123456"}).text
    now[0] += 121
    assert client.post("/pin", data={"pin": "123456"}, follow_redirects=False).status_code == 303


def test_guesses_sent_at_once_are_counted_one_by_one(serve: Any) -> None:
    """The limits are asked after the guess is read: a burst of guesses sent together
    gets no more tries than one sent after another."""
    client = serve(pin="123456")
    answers: list[int] = []
    start = threading.Barrier(20)

    def guess(number: int) -> None:
        start.wait()
        answers.append(client.post("/pin", data={"pin": f"{number:06d}"}).status_code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers.count(403) == access_module.TRIES
    assert answers.count(429) == 20 - access_module.TRIES


def test_so_many_wrong_pins_in_all_close_pin_entry(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(access_module, "CLOSE_AFTER", 3)
    client = serve(pin="123456")
    for address in ("a", "b", "c"):
        client.app.state.served.access.try_pin(address, "0")
    closed = client.post("/pin", data={"pin": "123456"})
    assert closed.status_code == 429 and "Start sheetgen serve again" in closed.text


def test_a_forged_session_cookie_is_no_session(serve: Any) -> None:
    client = serve(pin="123456")
    client.cookies.set("sheetgen_session", "eyJzaWQiOiJ4In0.forged")
    assert client.get("/api/series").status_code == 401


# --- documents -------------------------------------------------------------------------


def pdf_pages(data: bytes) -> list[tuple[float, float]]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [tuple(float(v) for v in page.mediabox[2:]) for page in pdf.pages]


def test_documents_download_as_sheetgen_makes_them(serve: Any, series_file: Path) -> None:
    client = serve()
    folder = sorted(series_file.parent.iterdir())
    sheet = client.get("/download/sheet.pdf?paper=a4")
    assert sheet.headers["content-type"] == "application/pdf"
    assert 'filename="friday-sheet.pdf"' in sheet.headers["content-disposition"]
    width, height = pdf_pages(sheet.content)[0]
    assert width > height and round(height) == 595  # landscape A4
    letter = client.get("/download/blank.pdf?paper=letter").content
    assert [round(side) for side in pdf_pages(letter)[0]] == [792, 612]
    csv = client.get("/download/series.csv").text
    assert "Ann" in csv and "80" in csv
    assert client.get("/download/series.xlsx").content[:2] == b"PK"
    assert json.loads(client.get("/download/series.json").text)["totals"]["Ann"] == 80
    booklet = client.get("/download/rules.pdf?t-deck=standard&layout=booklet&paper=a4")
    assert booklet.status_code == 200 and 'booklet.pdf"' in booklet.headers["content-disposition"]
    assert sorted(series_file.parent.iterdir()) == folder  # nothing written beside the series


def test_the_booklet_form_offers_the_games_toggles_and_previews_them(serve: Any) -> None:
    client = serve()
    page = client.get("/documents").text
    offered = re.findall(r'name="t-([a-z-]+)"', page)
    assert "deck" in offered and "must-play-stock" in offered
    assert "extra" not in offered and "players" not in offered  # no file, the series' table
    preview = client.get("/booklet/preview?t-shown=1&t-deck=standard")
    assert preview.status_code == 200 and "sandbox" in preview.headers["content-security-policy"]
    assert "joker" in preview.text.lower()
    bad = client.get("/documents?t-stock=99")
    assert bad.status_code == 400 and "choose 1 to" in bad.text
    assert client.get("/booklet/preview?t-stock=99").status_code == 400


def test_printing_without_cups_says_so_for_a_player_and_a_print_needs_csrf(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = Page(serve(lang="de"))
    monkeypatch.setenv("PATH", "/nonexistent")
    assert page.client.post("/print", data={"kind": "blank"}).status_code == 403
    answer = page.post("/print", kind="blank")
    assert answer.status_code == 503
    assert "keinen Drucker bereit" in answer.text and 'href="/documents"' in answer.text
    assert "CUPS" not in answer.text and "sudo" not in answer.text
    again = page.post("/print", kind="blank")  # nothing was sent: trying again is no flood
    assert again.status_code == 503


def test_documents_are_made_one_at_a_time_and_a_crowd_is_told_to_wait(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sheetgen.serve import document_pages

    page = Page(serve())
    served = page.client.app.state.served
    served.waiting = document_pages.MAX_WAITING
    busy = page.client.get("/download/rules.pdf?t-bonus=30")
    assert busy.status_code == 503 and "busy" in busy.text
    served.waiting = 0
    made = []
    real = document_pages._make
    monkeypatch.setattr(document_pages, "_make", lambda *a: made.append(a[1]) or real(*a))
    for _ in range(3):  # asked again (a reload, a print): made once
        assert page.client.get("/download/blank.pdf?paper=a4").status_code == 200
    assert made == ["blank"]


def test_the_booklet_form_speaks_a_players_words_and_keeps_the_games_own_rules(
    serve: Any,
) -> None:
    client = serve(lang="de")
    page = client.get("/documents").text
    assert "wer links vom Geber sitzt" in page and "drei Rommé-Blätter mit Jokern" in page
    assert "left-of-dealer</option>" not in page and "cards-left</option>" not in page
    series_box = re.search(r'<input type="checkbox" name="t-series"[^>]*>', page).group(0)
    assert "checked" in series_box  # a series is played unless the box is unticked
    ticked = client.get("/booklet/preview?t-shown=1&t-series=on").text
    unticked = client.get("/booklet/preview?t-shown=1").text
    assert "500" in ticked and ticked != unticked


# --- the file, edited from outside -----------------------------------------------------


def test_an_edit_by_hand_reaches_every_listener_within_a_second(series_file: Path) -> None:
    async def run() -> tuple[int, int]:
        served = ServedSeries(series_file)
        watch = asyncio.create_task(served.watch(0.05))
        try:
            with served.listening() as first, served.listening() as second:
                await asyncio.to_thread(record_game, series_file, Game("Bob", {"Ann": 1, "Cy": 1}))
                one = await asyncio.wait_for(first.next(), 1.0)
                two = await asyncio.wait_for(second.next(), 1.0)
                return one.played, two.played
        finally:
            watch.cancel()

    assert asyncio.run(run()) == (2, 2)


def test_a_file_that_cannot_be_read_keeps_the_last_good_state(series_file: Path) -> None:
    async def run() -> Any:
        served = ServedSeries(series_file)
        series_file.write_text("games: [", encoding="utf-8")
        return await served.refresh()

    snapshot = asyncio.run(run())
    assert snapshot.played == 1 and "friday.yaml" in snapshot.problem


def test_a_stale_change_is_refused_under_the_lock(series_file: Path) -> None:
    with pytest.raises(StaleSeriesError, match="shown with 3 games and now holds 1 game"):
        record_game(series_file, Game("Bob", {"Ann": 1, "Cy": 1}), expected_games=3)
    assert len(games_in(series_file)) == 1


# --- the command -----------------------------------------------------------------------


def test_serve_without_its_extra_says_which_command_installs_it(
    runner: Any, series_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "sse_starlette" else real(name, *a),
    )
    result = runner("serve", str(series_file))
    assert result.exit_code == 1
    assert "pip install 'sheetgen[serve]'" in result.output and "Traceback" not in result.output


def test_serve_refuses_a_bad_file_and_stray_options_before_listening(
    runner: Any, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [Ann]\n", encoding="utf-8")
    result = runner("serve", str(bad), "--port", "0")
    assert result.exit_code == 1 and "bad.yaml" in result.output
    result = runner("serve", str(bad), "--players", "Ann,Bob")
    assert result.exit_code == 2 and "--new" in result.output
    result = runner("serve", str(tmp_path / "new.yaml"), "--new")
    assert result.exit_code == 2 and "--players" in result.output


def test_a_port_in_use_is_one_clear_message(runner: Any, series_file: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = runner("serve", str(series_file), "--port", str(port))
        started = runner(
            "serve",
            str(series_file.with_name("new.yaml")),
            "--new",
            "--players",
            "Ann,Bob",
            "--port",
            str(port),
        )
    assert result.exit_code == 1
    assert f"cannot listen on port {port}" in result.output and "--port 0" in result.output
    assert started.exit_code == 1 and not series_file.with_name("new.yaml").exists()


def test_on_this_machine_nothing_of_the_series_shows_before_the_key(
    serve: Any, series_file: Path
) -> None:
    client = serve(key=False)
    served = client.app.state.served
    series_file.write_text("players: [Ann, Bob]\ngames:\n  - {winner: Ann, left: {Bob: wifi}}\n")
    asyncio.run(served.series.refresh())
    told = client.get("/pin").text
    assert "Friday" not in told and "wifi" not in told and "Ann" not in told


def test_prints_sent_together_make_one_print(serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetgen.serve import document_pages

    page = Page(serve())
    sent: list[str] = []
    monkeypatch.setattr(
        document_pages.documents, "print_document", lambda pdf, kind, *a: sent.append(kind) or "1"
    )
    answers: list[int] = []
    start = threading.Barrier(5)

    def press() -> None:
        start.wait()
        answers.append(page.post("/print", kind="blank").status_code)

    threads = [threading.Thread(target=press) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sent == ["blank"] and sorted(answers) == [200, 429, 429, 429, 429]


def test_a_mistake_in_the_file_is_shown_on_every_page_with_the_game_to_fix(
    serve: Any, series_file: Path
) -> None:
    client = serve(lang="de")
    served = client.app.state.served
    with series_file.open("a", encoding="utf-8") as file:
        file.write("  - winner: Opa\n    left: {Ann: 1, Bob: 2, Cy: 3}\n")
    asyncio.run(served.series.refresh())
    banner = texts(client.get("/").text, "problem")
    assert banner and "Fehler" in banner[0] and "game 2" in banner[0] and "'Opa'" in banner[0]
    html = served.fragments[(served.series.snapshot.revision, "de")]  # what the pages are sent
    assert 'class="problem"' in html


def test_the_points_shown_while_typing_speak_the_pages_language(serve: Any) -> None:
    page = Page(serve(lang="de"))
    answer = page.api("/api/preview", {"winner": "Bob", "left": {"Ann": 31, "Cy": 2}})
    assert answer.status_code == 400
    assert answer.json()["problem"] == "Ann kann nicht 31 Karten übrig haben: Ein Stapel hat 30."
    answer = page.api("/api/preview", {"winner": "Bob", "left": {"Ann": -2, "Cy": 2}})
    assert "eine Zahl von 0 bis 30" in answer.json()["problem"]


def test_reading_the_file_again_unchanged_tells_no_page(series_file: Path) -> None:
    async def run() -> tuple[int, int, bool]:
        served = ServedSeries(series_file)
        with served.listening() as listener:
            again = await served.refresh(force=True)
            told = listener._ready.is_set()
        return served.snapshot.revision, again.revision, told

    assert asyncio.run(run()) == (1, 1, False)


def test_a_new_series_says_there_are_no_games_yet(serve: Any, series_file: Path) -> None:
    series_file.write_text("players: [Ann, Bob]\n", encoding="utf-8")
    page = serve().get("/").text
    assert "No games recorded yet." in page and "Undo the last game" not in page


def test_the_language_links_lead_back_to_the_same_page(serve: Any) -> None:
    client = serve()
    page = client.get("/documents").text
    assert 'href="/lang/de?next=/documents"' in page
    moved = client.get("/lang/de?next=/documents", follow_redirects=False)
    assert moved.headers["location"] == "/documents"
    assert (
        client.get("/lang/de?next=//evil.example", follow_redirects=False).headers["location"]
        == "/"
    )
