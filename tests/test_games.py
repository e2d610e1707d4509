"""Spite and Malice and the Skip-Bo board game: their booklets, facts, toggles and refusals."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pagecheck import chars_text, read_chars

from sheetgen.booklet.build import render_html, rules_document
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

A4_POINTS = (595, 842)
GAMES = ("spite-and-malice", "skip-bo-board")


def pdf_text(pdf: bytes) -> tuple[int, tuple[float, float], str]:
    """Page count, first page size and the whole text with lines joined as a reader sees it."""
    read = read_chars(pdf)
    pages = [chars_text(chars) for chars, _, _ in read]
    size = (float(read[0][1]), float(read[0][2]))
    text = "\n".join(pages)
    text = re.sub(r"(?<=\w)-\n(?=\w)", "-", text)
    return len(pages), size, re.sub(r"\s+", " ", text)


def html_text(game: str, **options: Any) -> str:
    """The booklet's words for these house rules, without rendering a PDF."""
    html = render_html(resolve(game=game, options=options), paper=A4)
    html = re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)
    html = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    html = re.sub(r"</(p|li|h\d|td|th|tr|div|figcaption)>|<br\s*/?>", " ", html)
    words = re.sub(r"<[^>]+>", "", html)
    words = words.replace("&#39;", "'").replace("&amp;", "&").replace("&#34;", '"')
    return re.sub(r"\s+", " ", words)


def picture(game: str, **options: Any) -> str:
    html = render_html(resolve(game=game, options=options), paper=A4)
    found = re.search(r"<svg.*?</svg>", html, flags=re.S)
    assert found, f"{game}: no picture in the booklet"
    return found.group(0)


@pytest.fixture(scope="module")
def official(booklet_pdf: Callable[..., bytes]) -> dict[str, tuple[int, tuple[float, float], str]]:
    """Each game's booklet with the official rules, as the run renders it once."""
    return {game: pdf_text(booklet_pdf(game, A4)) for game in GAMES}


# ---------------------------------------------------------------- the booklets


@pytest.mark.parametrize("game", GAMES)
def test_each_game_renders_a_booklet(official: Any, game: str) -> None:
    pages, size, text = official[game]
    assert pages >= 4
    assert tuple(round(side) for side in size) == A4_POINTS
    assert "Contents" in text
    assert "Quick reference" in text


def test_spite_and_malice_carries_its_own_facts(official: Any) -> None:
    _, _, text = official["spite-and-malice"]
    for fact in (
        "Spite and Malice",
        "Two ordinary packs of 52 cards",
        "one deck of 104 cards",
        "Kings are wild",
        "suits never matter",
        "a pay-off pile of 20 cards",
        "Deal 20 cards face down to each player",
        "Deal each player a hand of five cards",
        "it starts with 54 cards",
        "At most three centre stacks",
        "starts with an ace",
        "reaches the queen",
        "up to four side stacks",
        "in any order",
        "The player showing the higher card takes the first turn",
        "each player shuffles their own pay-off pile",
        "first player whose pay-off pile is empty",
    ):
        assert fact in text, fact


def test_spite_and_malice_carries_none_of_skip_bos_facts(official: Any) -> None:
    _, _, text = official["spite-and-malice"]
    for foreign in ("162", "500", "Skip-Bo card", "stock pile", "building pile", "30 cards"):
        assert foreign not in text, foreign
    assert "points series" not in text.replace("keeps a points series", "")


def test_the_board_game_carries_its_own_facts(official: Any) -> None:
    _, _, text = official["skip-bo-board"]
    for fact in (
        "Skip-Bo Board Game",
        "108 cards",
        "Eight sets of the numbers 1 to 12",
        "twelve wild Skip-Bo cards",
        "Eight counters. They come in four colours",
        "a played deck of ten cards",
        "Deal ten cards face down to every player",
        "Turn only its top card face up",
        "each of the six discard pile",
        "Put the remaining 62 cards face down",
        "auxiliary pile",
        "1\N{EN DASH}4",
        "5\N{EN DASH}8",
        "9\N{EN DASH}12",
        "draw pile",
        "once per turn",
        "only if you can then play the next card of the sequence",
        "any one missing number",
        "anywhere from 1 to 12 spaces",
        "a 1 or a Skip-Bo card",
        "Whoever empties their played deck first wins the game",
        "whose colour is the colour of a space where one of your own counters stands",
    ):
        assert fact in text, fact


def test_the_board_game_carries_none_of_skip_bos_facts(official: Any) -> None:
    _, _, text = official["skip-bo-board"]
    # The section on the piles' names, which compares them with the card game's building
    # piles, is the only place the card game's word may appear.
    why = text.rindex("The names of the piles")
    text = text[:why] + text[text.index("Setting up", why) :]
    for foreign in ("162", "500", "stock pile", "building pile", "30 cards", "points"):
        assert foreign not in text, foreign


# ---------------------------------------------------------------- toggles


def test_four_centre_stacks_change_every_sentence_about_them() -> None:
    text = html_text("spite-and-malice", **{"building-piles": 4})
    assert "At most four centre stacks may be in play" in text
    assert "at most four are in play at once" in text
    assert "Up to four centre stacks may be in play at once instead of three." in text
    assert "At most three centre stacks" not in text
    three = picture("spite-and-malice")
    four = picture("spite-and-malice", **{"building-piles": 4})
    assert "at most three at once" in three
    assert "at most four at once" in four
    assert four.count('class="face"') == three.count('class="face"') + 1


def test_a_15_card_pay_off_pile_changes_the_deal() -> None:
    text = html_text("spite-and-malice", stock=15)
    assert "Deal 15 cards face down to each player" in text
    assert "a pay-off pile of 15 cards" in text
    assert "it starts with 64 cards" in text
    assert "Each pay-off pile holds 15 cards instead of 20." in text
    assert "20 cards" not in text


def test_the_points_series_is_scored_the_skip_bo_way() -> None:
    text = html_text("spite-and-malice", series=True)
    assert "pagat.com notes that Spite and Malice series are scored much as Skip-Bo’s" in text
    assert "It keeps Skip-Bo’s figures too." in text
    assert "give no official scores" not in text
    assert "25 points for going out" in text
    assert "5 points for every card" in text
    assert "reach 500 points wins the series" in text
    assert "at most 125 points" in text
    assert "Ann scores 25 + 5 \u00d7 5 = 50 points" in text


def test_a_series_on_the_tables_own_figures() -> None:
    text = html_text("spite-and-malice", series=True, target=300, bonus=10, **{"per-card": 2})
    assert "10 points for going out" in text
    assert "reach 300 points wins the series" in text
    assert "It uses this table’s own figures, played to 300 points instead of 500." in text
    assert (
        "scored as in Skip-Bo, but with this table’s own figures: 10 points for going out and "
        "2 points a card left in the loser’s pay-off pile, played to 300 points."
    ) in text
    assert "scored the Skip-Bo way" not in text


def test_an_8_card_played_deck_changes_the_deal() -> None:
    text = html_text("skip-bo-board", players=4, stock=8)
    assert "Deal eight cards face down to every player" in text
    assert "a played deck of eight cards" in text
    assert "Put the remaining 70 cards face down" in text
    assert "Each played deck holds eight cards instead of ten." in text
    assert "ten cards" not in text


@pytest.mark.parametrize("game", GAMES)
def test_pictures_read_in_black_and_white(game: str) -> None:
    svg = picture(game)
    assert re.search(r"<title[^>]*>[^<]{80,}</title>", svg)
    assert "viewBox" in svg
    assert not re.search(r"<svg[^>]*\s(width|height)=", svg)
    assert "href" not in svg
    if game == "skip-bo-board":
        for label in (
            "blue",
            "orange",
            "1\N{EN DASH}4",
            "5\N{EN DASH}8",
            "9\N{EN DASH}12",
            "Skip-Bo",
            "draw pile",
            "auxiliary pile",
        ):
            assert f">{label}<" in svg, label
        assert svg.count(">pink<") >= 3  # two of the six piles, and spaces of the ring


@pytest.mark.parametrize("game", GAMES)
def test_the_tables_own_rules_join_either_game(game: str, tmp_path: Path) -> None:
    extra = tmp_path / "ours.md"
    extra.write_text("# Table talk\n\nWe play <b>fast</b>.\n", encoding="utf-8")
    html = render_html(resolve(game=game, options={"extra": extra}), paper=A4)
    assert '<h2 id="extra">Table talk</h2>' in html
    assert "Our own rules" not in html
    assert (
        'This table has rules of its own: see <a class="xref" href="#extra">'
        "“Table talk”</a>." in html
    )
    assert "&lt;b&gt;fast&lt;/b&gt;" in html
    assert "<b>fast</b>" not in html


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_title_with_an_apostrophe_is_linked_too(lang: str, tmp_path: Path) -> None:
    """Print review 34: the cover's "see “Our table’s rules”" had no page, because the
    title's apostrophe stood escaped in the text and straight in the heading."""
    extra = tmp_path / "ours.md"
    extra.write_text("# Our table's rules\n\nWe play fast.\n", encoding="utf-8")
    rules = resolve(options={"extra": extra})
    html = render_html(rules, paper=A4, lang=language(lang))
    assert (
        len(re.findall(r'<a class="xref" href="#extra">[“„]Our table’s rules“?”?</a>', html)) == 2
    )
    pdf = rules_document(rules, paper=A4, layout="pages", lang=language(lang))
    text = " ".join(chars_text(chars) for chars, _, _ in read_chars(pdf))
    page = "page" if lang == "en" else "Seite"
    assert re.search(rf"table’s rules[”“] \({page} \d+\)", text), text[:2000]


# ---------------------------------------------------------------- the command line


def test_the_cli_renders_spite_and_malice_from_a_house_rules_file(
    runner: Any, tmp_path: Path
) -> None:
    (tmp_path / "ours.toml").write_text(
        'game = "spite-and-malice"\nbuilding-piles = 4\nstock = 15\n', encoding="utf-8"
    )
    result = runner("rules", "--house-rules", "ours.toml", "--paper", "a4")
    assert result.exit_code == 0, result.output
    _, size, text = pdf_text((tmp_path / "output" / "rules-spite-and-malice-ours.pdf").read_bytes())
    assert tuple(round(side) for side in size) == A4_POINTS
    assert "At most four centre stacks" in text
    assert "Each pay-off pile holds 15 cards instead of 20." in text


REFUSALS = [
    (
        ["--game", "skip-bo-board", "--partnerships"],
        "--partnerships: does not apply to Skip-Bo Board Game; "
        "its settings are extra, players, stock",
    ),
    (
        ["--game", "skip-bo-board", "--series"],
        "--series: does not apply to Skip-Bo Board Game; its settings are extra, players, stock",
    ),
    (
        ["--game", "skip-bo-board", "--deck", "standard"],
        "--deck: does not apply to Skip-Bo Board Game; its settings are extra, players, stock",
    ),
    (
        ["--game", "spite-and-malice", "--first-player", "youngest"],
        "--first-player: does not apply to Spite and Malice; its settings are bonus, "
        "building-piles, extra, per-card, players, series, stock, target",
    ),
    (
        ["--game", "spite-and-malice", "--no-wild-start"],
        "--no-wild-start: does not apply to Spite and Malice; its settings are bonus, "
        "building-piles, extra, per-card, players, series, stock, target",
    ),
    (
        ["--game", "spite-and-malice", "--players", "3"],
        "--players: Spite and Malice is played by 2 players, not 3",
    ),
    (
        ["--game", "skip-bo-board", "--players", "5"],
        "--players: Skip-Bo Board Game is played by 2 to 4 players, not 5",
    ),
    (
        ["--game", "spite-and-malice", "--stock", "47"],
        "--stock: 2 players cannot each be dealt a 47-card pay-off pile from a 104-card deck: "
        "every player must still draw a first hand of 5 and leave 1 card to draw; choose 1 to 46",
    ),
    (
        ["--game", "skip-bo-board", "--players", "4", "--stock", "21"],
        "--stock: 4 players cannot each be dealt a 21-card played deck from a 108-card deck "
        "with 6 cards laid out: every player must still draw a first hand of 5 and leave 1 card to draw; "
        "choose 1 to 20",
    ),
    (
        ["--game", "skip-bo-board", "--stock", "0"],
        "--stock: a Skip-Bo Board Game played deck needs at least 1 card; choose 1 to 20",
    ),
    (
        ["--game", "skip-bo-board", "--stock", "short"],
        "--stock: 'short' is not a played deck size; give official or a number",
    ),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS)
def test_inapplicable_toggles_and_bad_sizes_are_refused(
    runner: Any,
    tmp_path: Path,
    snapshot: Callable[[Path], dict[str, bytes]],
    args: list[str],
    message: str,
) -> None:
    before = snapshot(tmp_path)
    result = runner("rules", *args)
    assert result.exit_code == 1
    assert result.output == f"Error: {message}\n"
    assert snapshot(tmp_path) == before


def test_a_house_rules_file_is_named_when_it_asks_the_wrong_game(
    runner: Any, tmp_path: Path, snapshot: Callable[[Path], dict[str, bytes]]
) -> None:
    (tmp_path / "ours.toml").write_text(
        'game = "spite-and-malice"\nbuilding-piles = 5\n', encoding="utf-8"
    )
    (tmp_path / "board.toml").write_text(
        'game = "skip-bo-board"\npartnerships = true\n', encoding="utf-8"
    )
    before = snapshot(tmp_path)
    result = runner("rules", "--house-rules", "ours.toml")
    assert result.exit_code == 1
    assert result.output == (
        "Error: ours.toml, building-piles: 5 is not a choice for Spite and Malice; choose 3, 4\n"
    )
    result = runner("rules", "--house-rules", "board.toml")
    assert result.exit_code == 1
    assert result.output == (
        "Error: board.toml, partnerships: does not apply to Skip-Bo Board Game; "
        "its settings are extra, players, stock\n"
    )
    assert snapshot(tmp_path) == before


def test_the_rules_command_offers_both_games(runner: Any) -> None:
    result = runner("rules", "--help")
    assert result.exit_code == 0
    assert "spite-and-malice" in result.output
    assert "skip-bo-board" in result.output


def test_cli_sets_centre_stacks_and_the_series_figures(runner: Any, tmp_path: Path) -> None:
    result = runner(
        "rules",
        "--game",
        "spite-and-malice",
        "--building-piles",
        "4",
        "--series",
        "--bonus",
        "30",
        "--per-card",
        "2",
        "--target",
        "200",
        "-o",
        "sm.pdf",
    )
    assert result.exit_code == 0, result.output
    pdf = (tmp_path / "sm.pdf").read_bytes()
    _, _, text = pdf_text(pdf)
    assert "At most four centre stacks" in text
    assert "30 points for going out" in text
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        sheet = doc.pages[-1]
        assert sheet.width > sheet.height
        footer = re.sub(r"\s+", " ", sheet.extract_text())
    assert "Target: 200 points" in footer
    assert "gets 30, and 2 more per card still in the other player’s pay-off pile" in footer


def test_building_piles_are_refused_where_the_game_has_no_choice(runner: Any) -> None:
    result = runner("rules", "--building-piles", "3")
    assert result.exit_code == 1
    assert result.output.startswith("Error: --building-piles: does not apply to Skip-Bo;")


def test_every_game_definition_pickles_for_fill_s_workers() -> None:
    """fill sends each series, with its game, to worker processes: a read-only mapping
    (MappingProxyType) in a game definition could not be pickled, and the batch failed."""
    import pickle

    from sheetgen.game.definition import game_folders, load_game
    from sheetgen.game.language import translated

    for game_id in game_folders():
        for code in ("en", "de"):
            game = translated(load_game(game_id), code)
            assert pickle.loads(pickle.dumps(game)) == game
