"""The rules text under every toggle: wrong, stale and missing sentences, counts, prose.

Most cases read the booklet's HTML (the words weasyprint would set), which is
quick; a few read real PDFs back. Each case names the game and its toggles as a
house-rules file would.
"""

from __future__ import annotations

import html as html_lib
import io
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from pagecheck import page_texts
from pypdf import PdfReader

from sheetgen.booklet.build import build_booklet, render_html
from sheetgen.game.definition import RULES_PATH_ENV
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4
from sheetgen.resources import rules_dir

# Every game with every toggle it has, one at a time, and the combinations the
# review asked for.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("skip-bo", {}),
    ("skip-bo", {"players": 2}),
    ("skip-bo", {"players": 3}),
    ("skip-bo", {"players": 5}),
    ("skip-bo", {"players": 6}),
    ("skip-bo", {"stock": "short"}),
    ("skip-bo", {"stock": 1}),
    ("skip-bo", {"stock": 12}),
    ("skip-bo", {"first-player": "youngest"}),
    ("skip-bo", {"partnerships": True}),
    ("skip-bo", {"players": 6, "partnerships": True}),
    ("skip-bo", {"series": False}),
    ("skip-bo", {"target": 300}),
    ("skip-bo", {"target": 1}),
    ("skip-bo", {"bonus": 600}),
    ("skip-bo", {"bonus": 1, "per-card": 1}),
    ("skip-bo", {"bonus": 0}),
    ("skip-bo", {"per-card": 0}),
    ("skip-bo", {"deck": "standard"}),
    ("skip-bo", {"must-play-stock": True}),
    ("skip-bo", {"no-wild-start": True}),
    ("skip-bo", {"partnerships": True, "stock": "short", "deck": "standard"}),
    ("skip-bo", {"partnerships": True, "stock": 1, "deck": "standard", "series": False}),
    ("skip-bo", {"players": 6, "partnerships": True, "stock": 1, "bonus": 600}),
    ("skip-bo", {"scoring": "cards-left"}),
    ("skip-bo", {"scoring": "cards-left", "partnerships": True, "stock": "short"}),
    ("spite-and-malice", {}),
    ("spite-and-malice", {"stock": 1}),
    ("spite-and-malice", {"stock": 46}),
    ("spite-and-malice", {"building-piles": 4}),
    ("spite-and-malice", {"series": True}),
    ("spite-and-malice", {"series": True, "stock": 1}),
    ("spite-and-malice", {"series": True, "bonus": 600}),
    ("spite-and-malice", {"series": True, "target": 300, "bonus": 10, "per-card": 2}),
    ("spite-and-malice", {"series": True, "per-card": 0}),
    ("skip-bo-board", {}),
    ("skip-bo-board", {"players": 2}),
    ("skip-bo-board", {"players": 3}),
    ("skip-bo-board", {"stock": 1}),
    ("skip-bo-board", {"players": 2, "stock": 45}),
]

# Sentences the review found wrong or stilted: none may come back under any toggle.
GONE = [
    "place it, showing",
    "on a discard pile of yours",
    "whichever card lies uppermost",
    "hand card",
    "Spotted while",
    "Spotted only after",
    "to pass ",
    "just two mistakes",
    "emptied together",
    "scored the Skip-Bo way",
    "rather than Skip-Bo's",
    "give no official scores",
    "not the player on the dealer's left",
    "instead of the official",
    "=  ",
    # The second review.
    "older rule sheet",
    "older sheet",
    "the Skip-Bo card it stands for",
    "you have just handed them",
    "The highest card deals",
    "however far apart",
    "sources do not say",
    "sources say nothing",
    "Skip-Bo manner",
    "into a new one",
    "plus 0 points",
    "+ 0 points",
    "0 more per card",
    "at 0 points each",
    "\u00d7 0 =",
    "mistakes",
    "last page of this booklet",
    "shuffles it and",
    "Play from your stock pile first",
    "Play then passes from player to player",
    "in this order",
    "think about your counters before you play",
]

PLURALS = r"(?:cards|games|wins|teams|players|points|stacks|piles|decks)"


def body_text(html: str) -> str:
    """The words of a booklet's HTML, one space between them, as a reader meets them."""
    html = re.sub(r"<(svg|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"</(p|li|h\d|td|th|tr|div|figcaption)>|<br\s*/?>", " ", html)
    words = html_lib.unescape(re.sub(r"<[^>]+>", "", html))
    return re.sub(r"\s+", " ", plain_marks(words))


def plain_marks(text: str) -> str:
    """``text`` with English typographic quotes and every apostrophe written straight, so
    the cases below quote sentences as typed (tests/test_typography.py holds the marks
    themselves); German „…“ stays as it is."""
    text = text.replace("\N{RIGHT SINGLE QUOTATION MARK}", "'").replace(
        "\N{LEFT SINGLE QUOTATION MARK}", "'"
    )
    text = re.sub("\N{LEFT DOUBLE QUOTATION MARK}(?=[\\w(])", '"', text)
    return text.replace("\N{RIGHT DOUBLE QUOTATION MARK}", '"')


def booklet_html(game: str, extra: str | None = None, **options: Any) -> str:
    return render_html(resolve(game=game, options=options), paper=A4, extra_markdown=extra)


def text_of(game: str, extra: str | None = None, **options: Any) -> str:
    return body_text(booklet_html(game, extra, **options))


def section(text: str, title: str, following: str) -> str:
    """The words of one chapter, from its heading (not the contents entry) to the next."""
    start = text.rindex(f" {title} ")
    return text[start : text.index(f" {following} ", start)]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    game, options = case
    return game + "".join(f" {key}={value}" for key, value in options.items())


@pytest.fixture(scope="module", params=CASES, ids=[case_id(case) for case in CASES])
def case_text(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any], str, str]:
    game, options = request.param
    html = booklet_html(game, **options)
    return game, options, html, body_text(html)


# ---------------------------------------------------------------- every case


def test_no_sentence_the_review_found_wrong_comes_back(case_text: Any) -> None:
    _, _, _, text = case_text
    for phrase in GONE:
        assert phrase not in text, phrase


def test_counts_are_grammatical(case_text: Any) -> None:
    _, _, html, text = case_text
    wrong = re.findall(rf"\b(?:1|one) {PLURALS}\b", text)
    assert wrong == []
    # The picture's labels and its text alternative too.
    picture = html_lib.unescape(re.sub(r"<[^>]+>", " ", html))
    assert re.findall(rf"\b(?:1|one) {PLURALS}\b", picture) == []


def test_counts_follow_one_number_style(case_text: Any) -> None:
    """Words up to twelve, figures above; points always in figures; a count compared with
    a number in figures is in figures too ("10 cards instead of 20", print review 5)."""
    _, _, html, _ = case_text
    prose = body_text(re.sub(r"<table.*?</table>", " ", html, flags=re.S))
    figures = re.findall(
        r"\b(?:[0-9]|1[0-2]) (?:cards?|games?|wins?|teams?|players?)\b(?! instead of \d)", prose
    )
    assert figures == []
    spelled = re.findall(
        r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten) points?\b", prose
    )
    assert spelled == []


def test_no_template_text_is_left(case_text: Any) -> None:
    _, _, _, text = case_text
    assert "{{" not in text and "{%" not in text


# ---------------------------------------------------------------- partnerships


@pytest.mark.parametrize(("players", "others"), [(4, "the other team's"), (6, "the other teams'")])
def test_partnerships_reach_every_sentence_about_piles_and_scores(
    players: int, others: str
) -> None:
    text = text_of("skip-bo", players=players, partnerships=True)
    turn = section(text, "Your turn, step by step", "An example")
    assert (
        "You may also play the top card of your partner's stock pile and the top card of any "
        "of your partner's discard piles, just as you play your own." in turn
    )
    quick = text[text.rindex(" Quick reference ") :]
    assert "and from the tops of your partner's stock pile and discard piles" in quick
    assert (
        f"The winning team scores 25 points plus 5 points per card left in {others} stock piles"
        in quick
    )
    assert "A cheat puts two cards from the draw pile into their own stock pile." in quick
    penalties = section(text, "Penalties", "Playing in partnerships")
    assert "The rules set three penalties." in penalties
    # The review found "Cheating means a partner talking or signalling" invented: the
    # penalty stands without a definition the rule sheets do not give.
    assert (
        "Cheating. A player caught cheating takes the top two cards of the draw pile and, "
        "without looking at them, adds them to their own stock pile." in penalties
    )
    assert "Cheating means" not in penalties
    question = section(text, "How is a series scored?", "Quick reference")
    assert (
        f"The winning team of each game scores 25 points plus 5 points for each card left in {others} stock piles."
        in question
    )
    assert "The first team to reach 500 points wins the series." in question
    assert "The partners need not finish together" in text
    assert "The partners need not empty their piles on the same turn." in text


def test_without_partnerships_no_sentence_speaks_of_partners_or_teams() -> None:
    text = text_of("skip-bo", players=4)
    assert "partner" not in text and "team" not in text.lower()
    assert "The rules set two penalties." in text
    assert "each card left in the other players' stock piles" in text


def test_two_players_speak_of_one_other_pile() -> None:
    text = text_of("skip-bo", players=2)
    assert "each card left in the other player's stock pile." in text


@pytest.mark.parametrize("partnerships", [False, True])
def test_a_cards_left_series_keeps_no_sentence_about_points(partnerships: bool) -> None:
    text = text_of("skip-bo", scoring="cards-left", partnerships=partnerships)
    side = "team" if partnerships else "player"
    assert "This table plays a series of ten games, scored by the cards left" in text
    assert f"Nobody scores points. After each game every {side} adds the cards left" in text
    assert "after ten games the lowest total wins" in text
    assert f"to {'its' if partnerships else 'their'} total" in text
    legit = ("carry no points", "nobody scores points", "Nobody scores points")
    for phrase in legit:
        text = text.replace(phrase, "")
    assert "points" not in text


# ---------------------------------------------------------------- counts


def test_a_one_card_stock_reads_one_card() -> None:
    text = text_of("skip-bo", stock=1)
    assert "The dealer gives every player one card, face down" in text
    assert "House rule: each stock pile holds 1 card instead of 30, so games run shorter." in text
    assert "One card for four players at this table, a house rule;" in text


def test_one_game_that_reaches_the_target_says_so() -> None:
    text = text_of("skip-bo", bonus=600)
    assert (
        "The 600 points for the win alone are already enough for the target of 500 points, so "
        "whoever wins the first game wins the series." in text
    )
    assert "That alone reaches" not in text
    text = text_of("spite-and-malice", series=True, bonus=600)
    assert "That one game reaches 500 points and wins the series." in text


def test_a_series_of_several_wins_counts_them_in_words() -> None:
    text = text_of("spite-and-malice", series=True)
    assert "At that pace it takes ten wins like this to reach 500 points." in text
    assert "Ann scores 25 + 5 \u00d7 5 = 50 points." in text


# ---------------------------------------------------------------- the standard deck


def test_standard_cards_have_suits_that_play_no_part() -> None:
    text = text_of("skip-bo", deck="standard")
    assert "Standard cards have suits, but the suits play no part" in text
    assert "no suits" not in text
    assert 'see "Reading standard cards"' in text
    html = booklet_html("skip-bo", deck="standard")
    assert re.search(r"<h3[^>]*>Reading standard cards</h3>\s*<p[^>]*>[^<]*</p>\s*<table>", html)


# ---------------------------------------------------------------- who starts


def test_the_booklet_says_the_rule_sheets_disagree_about_who_starts() -> None:
    text = text_of("skip-bo")
    assert (
        "Rule sheets differ: some let the player on the dealer's left start, others the youngest."
    ) in text
    assert "Neither is more official than the other" in text
    assert "The player on the dealer's left takes the first turn" in text


def test_the_house_rules_box_always_says_who_starts_and_that_the_sheets_differ() -> None:
    text = text_of("skip-bo")
    box = text[: text.index(" Contents ")]
    assert (
        "This table's choices No house rules of its own: this table plays by the official rules. "
        "Where the rules differ or say nothing, this booklet suggests: Rule sheets differ: some let the player on the "
        "dealer's left start, others the youngest. This table lets the player on the dealer's "
        "left start."
    ) in box
    # A folk game keeps the usual rules.
    text = text_of("spite-and-malice")
    assert (
        "No house rules of its own: this table plays by the usual rules."
        in text[: text.index(" Contents ")]
    )


def test_a_disputed_toggle_needs_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runner: Any
) -> None:
    shelf = tmp_path / "shelf"
    game = shelf / "odd-bo"
    shutil.copytree(rules_dir() / "skip-bo", game)
    toml = game / "game.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace(
            'disputed = ["first-player"]', 'disputed = ["first-player", "games-to-play"]'
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv(RULES_PATH_ENV, str(shelf))
    result = runner("rules", "--game", "odd-bo")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {toml.resolve()}, disputed: 'games-to-play' has no sentence under [house_rules]\n"
    )


def test_with_the_youngest_starting_the_booklet_says_who_starts_later_games() -> None:
    text = text_of("skip-bo", **{"first-player": "youngest"})
    box = text[: text.index(" Contents ")]
    assert (
        "The youngest player starts the first game (rule sheets differ on this); in later games "
        "this booklet suggests the player on the dealer's left."
    ) in box
    assert "In the first game, the youngest player takes the first turn" in text
    assert "in each later game the player on the new dealer's left starts" in text
    assert (
        "The youngest player starts the first game; after that, the player on the dealer's left."
        in text
    )


# ---------------------------------------------------------------- Spite and Malice's series


def test_spite_and_malice_says_what_is_known_about_its_series() -> None:
    text = text_of("spite-and-malice", series=True).replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    box = text[: text.index(" Contents ")]
    assert (
        "Games count toward a points series, scored as in Skip-Bo: 25 points for going out and "
        "5 points a card left in the loser's pay-off pile, played to 500 points. pagat.com "
        "notes that Spite and Malice series are scored much as Skip-Bo's; this booklet scores "
        "them so."
    ) in box
    assert "pagat.com notes that Spite and Malice series are scored much as Skip-Bo's" in text
    assert "which pagat.com notes for this game" not in text


def test_spite_and_malice_box_does_not_contradict_itself() -> None:
    text = text_of("spite-and-malice", series=True, bonus=10, **{"per-card": 2}).replace(
        "\N{RIGHT SINGLE QUOTATION MARK}", "'"
    )
    box = text[: text.index(" Contents ")]
    assert (
        "scored as in Skip-Bo, but with this table's own figures: 10 points for going out and "
        "2 points a card left in the loser's pay-off pile, played to 500 points."
    ) in box
    assert "Skip-Bo gives" not in box


# ---------------------------------------------------------------- the table's own rules

TABLE_TALK = "# Table talk\n\nNo phones.\n\n## Snacks\n\nThe loser buys.\n\n# Music\n\nQuiet.\n"


def headings(html: str) -> list[tuple[int, str]]:
    """Each heading with its level in the contents: a chapter's (an h2, below the booklet's
    title, the one h1) is 1."""
    return [
        (int(level) - 1, html_lib.unescape(re.sub(r"<[^>]+>", "", title)))
        for level, title in re.findall(r"<h(\d)[^>]*>(.*?)</h\1>", html, flags=re.S)
    ]


@pytest.mark.parametrize("game", ["skip-bo", "spite-and-malice", "skip-bo-board"])
def test_the_tables_own_rules_are_a_chapter_titled_by_their_first_heading(game: str) -> None:
    html = booklet_html(game, TABLE_TALK)
    found = headings(html)
    assert (1, "Table talk") in found
    # Every other heading of the file nests under it, the second "#" too.
    assert (2, "Snacks") in found and (2, "Music") in found
    assert (1, "Our own rules") not in found
    chapter = re.search(r'<section class="chapter[^"]*">\s*<h2 id="extra">Table talk</h2>', html)
    assert chapter, "the table's own rules open a chapter of their own"
    text = body_text(html)
    assert 'This table has rules of its own: see "Table talk".' in text
    contents = re.search(r'<nav class="toc"[^>]*>(.*?)</nav>', html, flags=re.S)
    assert contents
    assert 'class="toc-1"><span class="entry"><a href="#extra">Table talk</a>' in contents.group(1)


def test_own_rules_without_a_heading_are_titled_our_own_rules() -> None:
    html = booklet_html("skip-bo", "We shuffle twice.\n\n### Snacks\n\nThe loser buys.\n")
    found = headings(html)
    assert (1, "Our own rules") in found and (2, "Snacks") in found
    text = body_text(html)
    assert 'This table has rules of its own: see "Our own rules".' in text
    questions = section(text, "Common questions", "Our own rules")
    assert "We shuffle twice" not in questions


def test_own_rules_from_the_house_rules_point_to_their_printed_heading(tmp_path: Path) -> None:
    extra = tmp_path / "ours.md"
    extra.write_text("# Table talk\n\nNo phones.\n", encoding="utf-8")
    html = render_html(resolve(options={"extra": extra}), paper=A4)
    pointer = re.search(r"see &#34;(.+?)&#34;", html) or re.search(r'see "(.+?)"', html)
    assert pointer is not None
    assert (1, pointer.group(1)) in headings(html)


# ---------------------------------------------------------------- rules the sources leave out


def test_skip_bo_says_what_to_do_with_nothing_left_to_draw() -> None:
    text = text_of("skip-bo", players=6)
    rule = section(text, "Nothing left to draw", "Discard piles")
    assert (
        "At this table only twelve cards are left to draw once everyone holds a first hand." in rule
    )
    assert "The rule sheets do not cover this, so each table decides for itself." in rule
    assert "lift off all its cards but the top one" in rule
    assert 'If none is finished yet, see "Nothing left to draw".' in text


def test_spite_and_malice_covers_an_empty_hand_finished_stacks_and_an_empty_stock() -> None:
    text = text_of("spite-and-malice")
    assert "draw five more from the stock and go on with the same turn" in text
    turn = section(text, "Your turn", "A turn in short")
    assert "say what happens" not in turn and "house rule" not in turn
    rule = section(text, "Finished stacks and an empty stock", "Side stacks")
    assert "house decisions" not in rule
    assert "Take a finished centre stack off the table and put its cards to one side." in rule
    shuffled = "shuffle the finished stacks that were put aside: they are the new stock."
    assert shuffled in rule
    assert rule.index(shuffled) < rule.index("The usual rules stop there.")


def test_the_board_game_covers_the_draw_pile_space_an_empty_draw_pile_and_its_word() -> None:
    text = text_of("skip-bo-board")
    space = section(text, "The draw pile space", "Completing a discard pile")
    assert (
        "This booklet suggests that it does not: a counter on the draw pile space works on its own"
        in space
    )
    empty = section(text, "Nothing left to draw", "Winning")
    assert "shuffle all the cards beneath the top card of the auxiliary pile" in empty
    why = section(text, "The names of the piles", "Setting up")
    assert "do the job of the card game" in why and "building piles" in why


# ---------------------------------------------------------------- real PDFs


def pdf_lines(pdf: bytes) -> list[str]:
    return [line for text in page_texts(pdf) for line in text.splitlines()]


def test_pdf_partnerships_short_stock_and_standard_deck(tmp_path: Path) -> None:
    rules = resolve(options={"partnerships": True, "stock": "short", "deck": "standard"})
    pdf = build_booklet(rules, paper=A4)
    text = re.sub(r"\s+", " ", " ".join(pdf_lines(pdf)))
    assert "Standard cards have suits" in text
    assert "no suits" not in text
    assert "The rules set three penalties." in text
    assert "ten cards in each stock pile" in text
    assert "1 cards" not in text
    for phrase in GONE:
        assert phrase not in text, phrase


def test_pdf_spite_and_malice_series_sets_the_sum_with_single_spaces() -> None:
    pdf = build_booklet(resolve(game="spite-and-malice", options={"series": True}), paper=A4)
    lines = pdf_lines(pdf)
    joined = " ".join(lines)
    assert "= 50 points" in joined and "=  " not in joined
    text = re.sub(r"\s+", " ", joined)
    assert "pagat.com notes" in text


def test_pdf_bookmarks_list_the_tables_own_chapter() -> None:
    pdf = build_booklet(resolve(game="skip-bo-board"), paper=A4, extra_markdown=TABLE_TALK)
    reader = PdfReader(io.BytesIO(pdf))
    top = [item["/Title"] for item in reader.outline if not isinstance(item, list)]
    assert "Table talk" in top
    assert top[top.index("Table talk") - 1] == "Winning"
    assert top.index("Table talk") < top.index("Quick reference")
    assert "Music" not in top


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("### Deep\n\nText.\n\n#### Deeper\n\nMore.\n", [(1, "Deep"), (2, "Deeper")]),
        (
            "Some words first.\n\n# Table talk\n\nNo phones.\n",
            [(1, "Our own rules"), (2, "Table talk")],
        ),
        ("# **Bold** talk\n", [(1, "Bold talk")]),
    ],
)
def test_the_chapter_title_is_the_opening_heading_only(
    markdown: str, expected: list[tuple[int, str]]
) -> None:
    found = headings(booklet_html("skip-bo", markdown))
    start = found.index(expected[0])
    assert found[start : start + len(expected)] == expected


# ---------------------------------------------------------------- refusals

UNWINNABLE = "no game pays any points; give --bonus or --per-card 1 or more"

REFUSALS = [
    (
        ["--bonus", "0", "--per-card", "0"],
        "--bonus, --per-card: a Skip-Bo series could never be won: with 0 points for going out "
        f"and 0 per card left, {UNWINNABLE}",
    ),
    (
        ["--partnerships", "--bonus", "0", "--per-card", "0"],
        "--bonus, --per-card: a Skip-Bo series could never be won: with 0 points for going out "
        f"and 0 per card left, {UNWINNABLE}",
    ),
    (
        ["--game", "spite-and-malice", "--series", "--bonus", "0", "--per-card", "0"],
        "--bonus, --per-card: a Spite and Malice series could never be won: with 0 points for "
        f"going out and 0 per card left, {UNWINNABLE}",
    ),
    (
        ["--game", "spite-and-malice", "--target", "300"],
        "--target: Spite and Malice keeps no points without the series, so --target changes "
        "nothing; add --series or leave --target out",
    ),
    (
        ["--no-series", "--target", "300", "--bonus", "40"],
        "--target: Skip-Bo keeps no points without the series, so --target changes nothing; "
        "add --series or leave --target out",
    ),
    (
        ["--no-series", "--per-card", "2"],
        "--per-card: Skip-Bo keeps no points without the series, so --per-card changes "
        "nothing; add --series or leave --per-card out",
    ),
    (
        ["--preset", "family", "--bonus", "10"],
        "--bonus: Skip-Bo keeps no points without the series, so --bonus changes nothing; "
        "add --series or leave --bonus out",
    ),
    (
        ["--stock", "0"],
        "--stock: a Skip-Bo stock pile needs at least 1 card; choose 1 to 35",
    ),
    (
        ["--game", "spite-and-malice", "--stock", "0"],
        "--stock: a Spite and Malice pay-off pile needs at least 1 card; choose 1 to 46",
    ),
    (
        ["--deck", "tarot"],
        "--deck: Skip-Bo is not played with 'tarot'; choose skip-bo, standard",
    ),
    (
        ["--preset", "silly"],
        "--preset: Skip-Bo has no preset 'silly'; choose family, official, short, strict",
    ),
    (
        ["--game", "spite-and-malice", "--preset", "silly"],
        "--preset: Spite and Malice has no preset 'silly'; choose official",
    ),
    (
        ["--game", "skip-bo-board", "--preset", "silly"],
        "--preset: Skip-Bo Board Game has no preset 'silly'; choose official",
    ),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS, ids=[" ".join(a) for a, _ in REFUSALS])
def test_impossible_and_irrelevant_options_are_refused(
    runner: Any, tmp_path: Path, snapshot: Any, args: list[str], message: str
) -> None:
    before = snapshot(tmp_path)
    result = runner("rules", *args)
    assert result.exit_code == 1
    assert result.output == f"Error: {message}\n"
    assert snapshot(tmp_path) == before


def test_a_house_rules_file_is_named_when_it_sets_figures_without_the_series(
    runner: Any, tmp_path: Path
) -> None:
    (tmp_path / "ours.toml").write_text("series = false\ntarget = 300\n", encoding="utf-8")
    result = runner("rules", "--house-rules", "ours.toml")
    assert result.exit_code == 1
    assert result.output == (
        "Error: ours.toml, target: Skip-Bo keeps no points without the series, so target "
        "changes nothing; set series = true or leave target out\n"
    )
    (tmp_path / "ours.toml").write_text("bonus = 0\nper-card = 0\n", encoding="utf-8")
    result = runner("rules", "--house-rules", "ours.toml")
    assert result.output == (
        "Error: ours.toml, bonus, per-card: a Skip-Bo series could never be won: with 0 points "
        "for going out and 0 per card left, no game pays any points; give bonus or per-card "
        "1 or more\n"
    )


@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        (None, {"per-card": 0}, {"series": True, "bonus": 25, "per_card": 0}),
        (None, {"bonus": 0}, {"series": True, "bonus": 0, "per_card": 5}),
        ("family", {}, {"series": False, "target": 500}),
        (None, {"series": False}, {"series": False}),
        (None, {"target": 300, "bonus": 40, "per-card": 1}, {"target": 300, "bonus": 40}),
    ],
)
def test_figures_that_can_still_decide_a_series_are_accepted(
    preset: str | None, options: dict[str, Any], expected: dict[str, Any]
) -> None:
    rules = resolve(preset=preset, options=options)
    assert {key: getattr(rules, key) for key in expected} == expected


# ---------------------------------------------------------------- the second review


def box_of(text: str) -> str:
    """The house-rules box on the cover: from its heading to the contents."""
    return text[text.index(" This table's choices ") : text.index(" Contents ")]


@pytest.mark.parametrize("partnerships", [False, True])
def test_review2_1_a_cards_left_booklet_teaches_no_points(partnerships: bool) -> None:
    html = booklet_html("skip-bo", scoring="cards-left", partnerships=partnerships)
    text = body_text(html)
    assert "Most points one game can pay" not in text
    for phrase in ("25 points", "500 points", "first player to reach", "first team to reach"):
        assert phrase not in text, phrase
    question = section(text, "How is a series scored?", "Printing these rules")
    assert "lowest total wins the series" in question
    assert "Series. After each game" in text[text.rindex(" Quick reference ") :]


def test_review2_2_only_one_page_is_the_last_page() -> None:
    text = text_of("skip-bo")
    assert "The blank score sheet follows this booklet on a sheet of its own." in text
    assert text.count("last page") <= 1  # the contents entry of the quick reference


def test_review2_3_a_standard_deck_speaks_of_kings_and_jokers() -> None:
    html = booklet_html("skip-bo", deck="standard")
    text = body_text(html)
    assert "Read every card by the number it stands for:" in text
    assert re.search(r"<h2[^>]*>The cards</h2>", html)
    assert "What is in the box" not in text
    assert (
        "Kings and jokers count for nothing in this draw, so a queen is the highest card." in text
    )
    quick = text[text.rindex(" Quick reference ") :]
    assert "Kings and jokers. Each stands for any number" in quick
    assert "Skip-Bo cards. Each stands for" not in quick
    # With the Skip-Bo deck the box keeps its own words.
    plain = text_of("skip-bo")
    assert "What is in the box" in plain and "Skip-Bo cards. Each stands for any number" in plain


@pytest.mark.parametrize("options", [{"series": False}, {"preset": "family"}])
def test_review2_4_single_games_say_so_in_the_box(options: dict[str, Any]) -> None:
    preset = options.pop("preset", None)
    rules = resolve(game="skip-bo", preset=preset, options=options)
    text = body_text(render_html(rules, paper=A4))
    assert (
        "Single games, the basic game of the published rules: each game stands alone, and no "
        "points are kept." in box_of(text)
    )
    assert "House rule:" not in box_of(text)  # every change here is a published option


def test_review2_5_suggested_rulings_are_listed_in_the_box() -> None:
    text = text_of("spite-and-malice")
    box = box_of(text)
    assert "No house rules of its own: this table plays by the usual rules." in box
    assert "official" not in box
    for ruling in (
        "Who starts: a king turned up beats every other card",
        "Empty stock and no finished centre stack set aside: shuffle all but the top card",
        "Nothing left to draw and a whole round in which neither player can play a card to a "
        "centre stack: the game ends without a winner.",
    ):
        assert ruling in box, ruling
    # The usual rules cover an empty hand and finished stacks: they are no suggestions.
    assert "Empty hand" not in box and "A finished centre stack is set aside" not in box
    assert "If you have played every card in your hand onto the centre stacks, draw five" in text
    board = box_of(text_of("skip-bo-board"))
    assert "No house rules of its own: this table plays by the official rules." in board
    for ruling in (
        "Turn order: the turn passes to the player on the left.",
        "Draw pile space: it works wherever your other counter stands.",
        "Nothing left to draw",
        "No card in hand for the auxiliary pile: the turn ends, and no counter moves.",
    ):
        assert ruling in board, ruling
    assert "clockwise" not in board


def test_review2_6_who_starts_is_a_note_unless_the_table_changed_it() -> None:
    differ = (
        "Rule sheets differ: some let the player on the dealer's left start, others the youngest."
    )
    text = text_of("skip-bo")
    box = box_of(text)
    assert "No house rules of its own: this table plays by the official rules." in box
    notes = box[box.index("Where the rules differ or say nothing, this booklet suggests:") :]
    assert differ in notes
    assert differ in section(text, "Who starts", "Your turn, step by step")
    box = box_of(text_of("skip-bo", **{"first-player": "youngest"}))
    assert "No house rules of its own" not in box
    listed = box[: box.index("Where the rules differ or say nothing, this booklet suggests:")]
    assert "The youngest player starts the first game (rule sheets differ on this)" in listed
    assert differ not in box  # said once, in the table's own line
    notes = box[box.index("Where the rules differ or say nothing, this booklet suggests:") :]
    assert "The youngest player" not in notes and "This table lets the player" not in notes


def test_review2_7_a_spite_and_malice_series_is_one_bullet() -> None:
    options = {"stock": 15, "building-piles": 4, "series": True, "target": 300}
    text = text_of("spite-and-malice", **options)
    box = box_of(text).replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    text = text.replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    assert box.count("300 points") == 1
    assert (
        "Games count toward a points series, scored as in Skip-Bo: 25 points for going out and "
        "5 points a card left in the loser's pay-off pile, played to 300 points."
    ) in box
    assert "own figures" not in text
    assert "It keeps Skip-Bo's figures too, but plays to 300 points instead of 500." in text
    own = text_of("spite-and-malice", series=True, bonus=10)
    own_box = box_of(own).replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    own = own.replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    assert "but with this table's own figures: 10 points for going out" in own_box
    assert "It uses this table's own figures." in section(
        own, "A points series", "A worked example"
    )


def test_review2_8_counts_read_one_game_one_pile_one_other_side() -> None:
    text = text_of("skip-bo", scoring="cards-left", **{"games-to-play": 1})
    assert "after one game the lowest total wins" in text
    assert "1 games" not in text
    assert "every player adds up the cards left in their own stock pile," in box_of(text)
    assert "still in their own stock pile and adds them" in text
    board = text_of("skip-bo-board", players=2)
    assert "how many cards your opponent has left" in board
    assert "how many cards your opponents have left" in text_of("skip-bo-board", players=3)


@pytest.mark.parametrize(
    ("args", "goal", "footer"),
    [
        (
            ["--scoring", "cards-left", "--games-to-play", "1"],
            "One game: the lowest total after it wins the series.",
            "every player writes down the cards still in their own stock pile; the lowest",
        ),
        (["--teams", "2"], None, "still in the other team's stock piles; the losing team gets 0"),
        (["--teams", "3"], None, "still in the other teams' stock piles; the rest get 0"),
        (
            ["--game", "spite-and-malice", "--names", "Ann,Bob"],
            None,
            "still in the other player's pay-off pile; the loser gets 0",
        ),
    ],
)
def test_review2_8_the_score_sheet_counts_grammatically(
    tmp_path: Path, runner: Any, args: list[str], goal: str | None, footer: str
) -> None:
    out = tmp_path / "sheet.pdf"
    result = runner("sheet", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    text = plain_marks(re.sub(r"\s+", " ", " ".join(pdf_lines(out.read_bytes()))))
    if goal is not None:
        assert goal in text
    assert footer in text
    assert "1 games" not in text


def test_review2_9_spite_and_malice_warns_about_the_word_stock() -> None:
    text = text_of("spite-and-malice")
    assert (
        "Skip-Bo players, take care: here the stock is the shared pile you draw from; "
        "your own pile is the pay-off pile."
    ) in text


def test_review2_10_the_quiet_partner_says_what_cheating_is() -> None:
    html = booklet_html("skip-bo", partnerships=True)
    text = body_text(html)
    assert not re.search(r"<h\d[^>]*>Cheating</h\d>", html)
    assert '<a href="#cheating"' not in html
    quiet = section(text, "The quiet partner", "When a team wins")
    # The review found the old definition ("A partner who talks or signals during your turn
    # is cheating") invented; the section now says what may be said, and by whom.
    assert (
        "During your turn your partner says nothing. You may play the top cards of your "
        "partner's piles yourself. You may also ask your partner to play one of them, and that "
        "is the only thing you may say" in quiet
    )
    assert "Your partner then plays the card, without a word." in quiet
    assert "is cheating" not in quiet and "signals" not in quiet
    assert "penalties" in section(text, "Penalties", "Playing in partnerships")


@pytest.mark.parametrize("must", [False, True])
def test_review2_11_playing_the_stock_is_advice_unless_the_table_makes_it_a_rule(
    must: bool,
) -> None:
    text = text_of("skip-bo", **{"must-play-stock": must})
    turn = section(text, "Your turn, step by step", "An example")
    advice = "The rules advise playing from your stock pile whenever you can"
    rule = (
        "whenever the top card of your own stock pile fits a building pile, it must be your next "
        "play, before any other card and before you discard."
    )
    assert (advice in turn) is not must
    assert (rule in turn) is must


def test_review2_12_a_wild_start_reshuffles_the_whole_pile_until_it_is_not_wild() -> None:
    text = text_of("skip-bo", **{"no-wild-start": True})
    assert (
        "its owner shuffles the whole pile and turns up a new top card, and repeats this until "
        "the top card is not a wild."
    ) in box_of(text)
    assert (
        "shuffles the whole pile and turns up a new top card, and repeats this until the top card "
        "is not a wild (a house rule" in text
    )
    assert "again until" not in text


def test_review2_13_the_board_game_turn_counters_and_direction() -> None:
    text = text_of("skip-bo-board")
    assert "steps 2 and 3 may be mixed" in text
    assert "Your counters move only at the end of your turn." in text
    assert "This booklet suggests that the turn passes to the player on the left." in text
    assert "clockwise" not in text and "so plan that move" not in text


def test_review2_14_a_one_card_stock_has_no_next_card() -> None:
    text = text_of("skip-bo", stock=1)
    for phrase in (
        "leaves the rest unseen",
        "turn up the next card",
        "If it is a 9",
        "turn the next card face up",
    ):
        assert phrase not in text, phrase
    assert "Each player turns that one card face up." in text
    assert "That was the only card in your stock pile, so you have won the game." in text
    longer = text_of("skip-bo", stock=2)
    assert "The cards beneath it stay face down" in longer
    assert "Now turn up the next card of your stock pile" in longer


@pytest.mark.parametrize(
    ("options", "most"), [({"target": 300}, 475), ({"stock": 35}, 550), ({"players": 6}, 525)]
)
def test_review2_15_one_game_that_can_win_the_series_says_so(
    options: dict[str, Any], most: int
) -> None:
    text = text_of("skip-bo", **options)
    assert (
        f"the most one game can pay at this table is {most} points, so a single game can win the series."
        in text
    )


def test_review2_16_a_short_own_rules_chapter_stays_on_one_page(tmp_path: Path) -> None:
    extra = " ".join(["Our table lets the dealer shuffle twice before every game."] * 4)
    extra = f"{extra}\n\n{extra}\n"
    html = booklet_html("skip-bo", extra)
    assert '<section class="chapter keep-together">\n<h2 id="extra">Our own rules</h2>' in html
    long = "\n\n".join([extra] * 6)
    assert (
        "keep-together"
        not in booklet_html("skip-bo", long).split("<body", 1)[1].split('id="extra"')[0][-80:]
    )
    # In the PDF the heading and both paragraphs share a page.
    source = tmp_path / "ours.md"
    source.write_text(extra, encoding="utf-8")
    rules = resolve(options={"extra": str(source)})
    pages = [
        page.extract_text() or ""
        for page in PdfReader(io.BytesIO(build_booklet(rules, paper=A4))).pages
    ]
    holding = [n for n, page in enumerate(pages) if "dealer shuffle twice" in page]
    assert len(holding) == 1
    assert "Our own rules" in pages[holding[0]]


def test_review2_17_prose() -> None:
    text = text_of("skip-bo")
    assert (
        "a pile you leave one below the top card of their stock pile hands them a free play."
        in text
    )
    assert (
        "The rules do not say what happens when the highest cards tie in the draw for the deal; "
        "this booklet suggests that those players draw again." in text
    )
    assert "if the highest cards tie, those players draw again" not in text
    assert text.count("gone out") == 1
    assert "they have gone out, and they win" in text
    team = text_of("skip-bo", partnerships=True)
    assert "the team has gone out" in team
    spite = text_of("spite-and-malice", series=True)
    assert "still holds five cards when Ann goes out." in spite
    assert "her pay-off pile" not in spite
    for game in ("spite-and-malice", "skip-bo-board"):
        html = booklet_html(game)
        assert re.search(r"<p><strong>Who starts\.</strong> [A-Z]", html), game
    assert "Shuffle the finished centre stacks into a new stock." in text_of("spite-and-malice")


@pytest.mark.parametrize(
    ("options", "present", "absent"),
    [
        ({"bonus": 0}, "the win itself earns nothing", "for the win:"),
        (
            {"per-card": 0},
            "the cards left earn nothing, so Ann scores only the win: 25 points",
            "Points Bob",
        ),
        (
            {"per-card": 0, "partnerships": True},
            "the cards left in the other team's stock piles earn nothing",
            "0 points for every card",
        ),
    ],
)
def test_review2_17_a_zero_figure_is_left_out(
    options: dict[str, Any], present: str, absent: str
) -> None:
    text = text_of("skip-bo", **options)
    assert present in text
    assert absent not in text
    assert not re.search(r"\b0 points\b|Winning the game 0\b|stock pile 0\b", text)


def test_review2_17_zero_figures_in_spite_and_malice() -> None:
    text = text_of("spite-and-malice", series=True, **{"per-card": 0})
    assert "The cards left earn nothing, so Ann scores 25 points for going out." in text
    assert not re.search(r"\b0 points|\u00d7 0\b", text)


def test_review2_the_refusal_speaks_of_settings(runner: Any, tmp_path: Path) -> None:
    result = runner("rules", "--building-piles", "5", "-o", str(tmp_path / "r.pdf"))
    assert result.exit_code == 1
    assert "its settings are bonus, deck," in result.output
    assert "house rules are" not in result.output


@pytest.mark.parametrize("lang", ["en", "de"])
def test_review2_8_a_one_game_series_file_is_filled_without_1_games(
    tmp_path: Path, runner: Any, lang: str
) -> None:
    series = tmp_path / "one.yaml"
    made = runner(
        "new",
        str(series),
        "--players",
        "Ann,Bob",
        "--scoring",
        "cards-left",
        "--games-to-play",
        "1",
    )
    assert made.exit_code == 0, made.output
    out = tmp_path / "one.pdf"
    result = runner("fill", str(series), "--lang", lang, "-o", str(out))
    assert result.exit_code == 0, result.output
    text = plain_marks(re.sub(r"\s+", " ", " ".join(pdf_lines(out.read_bytes()))))
    assert not re.search(r"\b1 (?:games|Spielen)\b", text)
    if lang == "en":
        assert "Lowest total after one game" in text
        assert "lowest total after one game" in text
        assert "Each player's cards left after the game; the fewest wins" in text
    else:
        assert "Niedrigste Summe nach einem Spiel" in text


# ---------------------------------------------------------------- review 3


def html_in(code: str, game: str, **options: Any) -> str:
    rules = resolve(game=game, options=options)
    return render_html(rules, paper=A4, lang=language(code))


def german_text(game: str, **options: Any) -> str:
    return body_text(html_in("de", game, **options))


def test_review3_4_german_capitalises_the_youngest_and_speaks_of_colours() -> None:
    text = german_text("skip-bo")
    assert "nach den anderen der Jüngste." in text
    assert "der jüngste." not in text
    assert "Die Karten haben keine Farben" not in text
    assert "doch auf die Farbe kommt es nicht an" in text


def test_review3_3_the_drawn_discard_goes_downwards_as_strategy_advises() -> None:
    from sheetgen.game.examples import load_examples

    folder = rules_dir() / "skip-bo"
    for layer in (None, folder / "de"):
        data = load_examples(folder, layer)
        (discard,) = [ex for ex in data["examples"] if ex["after"] == "05-discard.md"]
        laid = discard["piles"][-1]["cards"]
        assert laid[-1] == laid[-2] - 1, laid  # one step down, as Strategy advises
    text = text_of("skip-bo")
    assert "Build your discard piles downwards where you can." in text
    html = booklet_html("skip-bo")
    assert "the 9 is laid face up on a discard pile that showed 10" in html


def test_review3_5_board_setup_and_picture_agree_on_the_blue_pairs_corners() -> None:
    html = booklet_html("skip-bo-board")
    text = body_text(html)
    assert "corners marked for its colour" not in text
    assert (
        "its two counters go on the two corners that carry a dot of its colour" in text
        and "one on the orange corner, the two corners with a blue dot." in text
    )
    # The picture draws the blue pair's dot on exactly the blue and the orange corner.
    svg = html[html.index("<svg") : html.index("</svg>")]
    corners = re.findall(r'<circle class="blue-start"', svg)
    assert len(corners) == 2
    assert "the blue pair starts on those two" in svg
    german = german_text("skip-bo-board")
    assert "Beide tragen einen blauen Kreis." in german
    assert "die für seine Farbe markiert sind" not in german


def test_review3_2_which_piles_win_and_what_an_empty_partner_plays_follow_the_toggle() -> None:
    team = text_of("skip-bo", players=4, partnerships=True)
    alone = text_of("skip-bo", players=4)
    for gone in (
        "Your stock pile is the only pile that wins.",
        "that is the pile that wins.",
        "play from the discard piles they still have",
        "plays from the discard piles that are left",
        "write the winner's points in the winner's column",
    ):
        assert gone not in team, gone
    assert (
        "because your team wins only once your stock pile and your partner's are both empty" in team
    )
    assert "Your team goes out only when your stock pile and your partner's are both empty" in team
    empty = "their hand, their own discard piles and their partner's stock pile and discard piles."
    # Once under "Winning", once under "When a team wins".
    assert team.count(empty) == 2
    assert "still draws up and plays from " + empty in team
    assert "drawing up, then playing from " + empty in team
    assert "write the winning team's points in that team's column" in team
    # Without partners the booklet speaks of one player's own pile.
    assert "Emptying it is the only way to win" in alone
    assert (
        "playing from your stock pile whenever you can, because emptying it is how you win" in alone
    )
    assert "write the winner's points in the winner's column" in alone
    assert "partner" not in alone.lower()
    german_team = german_text("skip-bo", players=4, partnerships=True)
    assert "Nur wer ihn leer spielt, gewinnt" not in german_team
    assert "nur wer ihn leer spielt, gewinnt" not in german_team
    assert "Euer Team gewinnt erst, wenn" in german_team
    assert "Team ist erst fertig" not in german_team
    assert "von den Hilfsstapeln, die ihm bleiben" not in german_team
    assert "Nur wer ihn leer spielt, gewinnt" in german_text("skip-bo", players=4)


@pytest.mark.parametrize(
    ("lang", "options"),
    [
        ("en", {"deck": "standard"}),
        ("en", {"deck": "standard", "players": 6, "partnerships": True, "no-wild-start": True}),
        ("de", {"deck": "standard"}),
        ("de", {"deck": "standard", "players": 6, "partnerships": True, "no-wild-start": True}),
    ],
)
def test_review3_1_standard_cards_name_the_wild_by_the_deck(
    lang: str, options: dict[str, Any]
) -> None:
    text = body_text(html_in(lang, "skip-bo", **options))
    # The box names the deck this table does without ("instead of a Skip-Bo deck", "statt
    # des SKIP-BO-Kartenspiels"); no card is called a Skip-Bo card.
    cards = re.sub(r"SKIP-BO-Kartenspiels?\b", "", text)
    for name in (
        "Skip-Bo card",
        "SKIP-BO-Karte",
        "Skip-Bo-Karte",
        'says "Skip-Bo',
        "read \u201cking",
    ):
        assert name not in cards, name
    assert "Skip-Bo" in text  # the game's own name stays
    if lang == "en":
        for said in (
            "A king or joker can stand for any number",
            "with a king or joker standing for the 1.",
            "A king or joker counts as the number",
            "A king or joker is worth most as the missing link",
            "What is a king or joker good for?",
        ):
            assert said in text, said
        if options.get("partnerships"):
            assert '"put your king on as a 4"' in text
            assert "king or joker on as a 4" not in text
    else:
        for said in (
            "Könige und Joker können für jede Zahl stehen",
            "auch Könige und Joker dürfen ihn als 1 eröffnen.",
            "Wofür sind Könige und Joker gut?",
            "Am wertvollsten ist ein König oder Joker als fehlendes Glied",
        ):
            assert said in text, said


def test_review3_1_the_skip_bo_deck_keeps_its_skip_bo_cards() -> None:
    text = text_of("skip-bo")
    assert "A Skip-Bo card can stand for any number" in text
    assert "A Skip-Bo card is worth most as the missing link" in text
    assert "Wofür sind SKIP-BO-Karten gut?" in german_text("skip-bo")
