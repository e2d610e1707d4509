"""Spite and Malice's rules text in English and German, read back under its toggles (issue 30).

Each check names the issue's point it holds. The facts come from seed 003 and pagat.com's
published rules: a player who empties the hand draws five more and goes on; finished centre
stacks are shuffled into a new stock when the stock runs out; nobody ever lays a card on
the other player's side stacks. Where the rules are silent the booklet must say that the
ruling is its own suggestion.
"""

from __future__ import annotations

import html as html_lib
import re
from functools import cache
from typing import Any

import pytest

from sheetgen.booklet.build import render_html
from sheetgen.game.houserules import resolve
from sheetgen.game.language import language
from sheetgen.paper import A4

pytestmark = pytest.mark.xdist_group("spite-text")

GAME = "spite-and-malice"
HAND = 5

# The toggle boundaries this game has (`sheetgen games`): stock 1, 2 and the largest (46),
# three and four centre stacks, the series with per-card 0, bonus 0, a target below one
# game's bonus, figures above 999, and heavy combinations.
MATRIX: dict[str, dict[str, Any]] = {
    "official": {},
    "stock-1": {"stock": 1},
    "stock-2": {"stock": 2},
    "stock-46": {"stock": 46},
    "four-stacks": {"building-piles": 4},
    "series": {"series": True},
    "series-stock-1": {"series": True, "stock": 1},
    "series-stock-46": {"series": True, "stock": 46},
    "series-no-per-card": {"series": True, "per-card": 0},
    "series-no-bonus": {"series": True, "bonus": 0},
    "series-target-20": {"series": True, "target": 20},
    "series-bonus-600": {"series": True, "bonus": 600},
    "series-own-figures": {"series": True, "target": 300, "bonus": 10, "per-card": 2},
    "series-thousands": {"series": True, "bonus": 1500, "per-card": 100, "target": 5000},
    "heavy": {"stock": 1, "building-piles": 4, "series": True, "bonus": 0, "target": 3},
    "heavy-long": {"stock": 46, "building-piles": 4, "series": True, "per-card": 0, "target": 20},
}
CASES = [(toggles, lang) for toggles in MATRIX for lang in ("en", "de")]
IDS = [f"{toggles}-{lang}" for toggles, lang in CASES]


@cache
def html_of(toggles: str, lang: str) -> str:
    rules = resolve(game=GAME, options=dict(MATRIX[toggles]))
    return render_html(rules, paper=A4, lang=language(lang))


def plain(html: str) -> str:
    """Words with one space between them: inline marks dropped, blocks spaced, soft hyphens
    and typographic apostrophes read as the plain ones the tests are written with."""
    html = re.sub(r"</?(?:a|span|em|strong|q|b|i)\b[^>]*>", "", html)
    html = re.sub(r"<[^>]+>", " ", html)
    words = html_lib.unescape(html).replace("\N{SOFT HYPHEN}", "")
    words = words.replace("\N{RIGHT SINGLE QUOTATION MARK}", "'")
    return re.sub(r"\s+", " ", words)


def parts(toggles: str, lang: str) -> dict[str, str]:
    """The booklet's text in parts: ``box`` (the cover's house rules), ``body`` (every
    chapter's running text, no pictures), ``pictures`` (the table picture and the drawn
    examples: labels, titles, alternatives and captions) and ``all``."""
    html = html_of(toggles, lang)
    html = re.sub(r"<style\b.*?</style>", " ", html, flags=re.S)
    box = re.search(r'<(aside|section) class="house-rules"[^>]*>(.*?)</\1>', html, flags=re.S)
    assert box
    svgs = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", html, flags=re.S)
    alts = re.findall(r'\b(?:alt|aria-label)="([^"]*)"', html)
    body = re.sub(r"<svg\b.*?</svg>|<figcaption>.*?</figcaption>", " ", html, flags=re.S)
    body = body[body.index("</nav>") :]
    return {
        "box": plain(box.group(2)),
        "body": plain(body),
        "pictures": plain(" | ".join([*svgs, *captions, *alts])),
        "all": plain(html),
    }


def chapter(text: str, title: str, following: str) -> str:
    """One chapter's words, from its heading to the next (both as printed)."""
    start = text.index(f" {title} ")
    return text[start : text.index(f" {following} ", start + len(title) + 2)]


def stock_of(toggles: str) -> int:
    stock = MATRIX[toggles].get("stock", 20)
    assert isinstance(stock, int)
    return stock


# ---------------------------------------------------------------- 1: an empty hand


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_1_an_empty_hand_draws_five_more_as_the_rules_say(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    if lang == "en":
        rule = (
            "Hand empty? If you have played every card in your hand onto the centre stacks, "
            "draw five more from the stock and go on with the same turn."
        )
        wrong = ("say what happens", "suggests a house rule", "Empty hand:")
        short = "Hand empty? Draw five more and go on."
    else:
        rule = (
            "Keine Handkarten mehr? Hast du alle Karten deiner Hand auf die Ablagestapel "
            "gespielt, ziehst du fünf Karten vom Kartenstock nach und spielst im selben Zug "
            "weiter."
        )
        wrong = ("lassen die üblichen Regeln offen", "Hausregel wie bei Skip-Bo", "Keine Hand")
        short = "Ist deine Hand leer, ziehe fünf Karten nach und spiele weiter."
    assert rule in text["body"]
    assert short in text["body"]
    for phrase in wrong[:2]:
        assert phrase not in text["all"], phrase
    # A rule of the game is no suggestion of this booklet's.
    assert wrong[2] not in text["box"]


# ---------------------------------------------------------------- 2: finished stacks


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_2_finished_stacks_become_the_new_stock(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    if lang == "en":
        section = chapter(text["body"], "Finished stacks and an empty stock", "Side stacks")
        rules = (
            "Take a finished centre stack off the table and put its cards to one side.",
            "When the stock runs out, even in the middle of drawing, shuffle the finished "
            "stacks that were put aside: they are the new stock.",
        )
        border, suggestion = "The usual rules stop there.", "If the stock runs out while no"
        short = "Empty stock. Shuffle the finished centre stacks into a new stock."
        wrong = ("house decision", "say nothing about either", "Empty stock: shuffle the finished")
    else:
        section = chapter(
            text["body"], "Fertige Stapel und ein leerer Kartenstock", "Die Hilfsstapel"
        )
        rules = (
            "Ein fertiger Ablagestapel wird vom Tisch genommen und beiseitegelegt.",
            "Ist der Kartenstock aufgebraucht, auch mitten im Nachziehen, werden die "
            "beiseitegelegten Stapel gemischt und bilden den neuen Kartenstock.",
        )
        border, suggestion = "Mehr sagen die üblichen Regeln dazu nicht.", "und liegt kein fertiger"
        short = "Leerer Kartenstock. Die fertigen Ablagestapel werden zu einem neuen Kartenstock"
        wrong = (
            "schweigen die üblichen Regeln",
            "entscheidet es also selbst",
            "Mischt die fertigen",
        )
    for rule in rules:
        # The published rule comes before the line where the booklet's suggestions begin.
        assert section.index(rule) < section.index(border) < section.index(suggestion)
    assert short in text["body"]
    for phrase in wrong:
        assert phrase not in text["all"], phrase


# ---------------------------------------------------------------- 3: who deals, who starts


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_3_no_invented_draw_for_the_deal(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    if lang == "en":
        deal = "Who deals is the table's choice: the usual rules do not say."
        king = (
            "This booklet suggests that a king beats every other card, and that two kings "
            "are a tie."
        )
        wrong = ("highest card deals", "draw again", "cut for", "deals first")
    else:
        deal = "Wer gibt, entscheidet ihr selbst; die üblichen Regeln legen es nicht fest."
        king = (
            "Dieses Heft schlägt vor: Ein König schlägt jede andere Karte, zwei Könige sind "
            "gleich hoch."
        )
        wrong = ("höchste Karte gibt", "ziehen erneut", "Geber ist, wer")
    assert deal in text["body"] and king in text["body"]
    for phrase in wrong:
        assert phrase not in text["all"], phrase


# ---------------------------------------------------------------- 4: good play


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_4_side_stacks_are_built_downward_not_by_like_values(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    if lang == "en":
        advice = (
            "Good play. Although any order is allowed, build each side stack downward where "
            "you can, a 9 on a 10 and then an 8 on the 9."
        )
        picture = "the 10 is laid face up on a side stack that showed a jack, one step down"
        wrong = ("similar values", "like values", "long run")
    else:
        advice = (
            "Tipp. Auch wenn jede Reihenfolge erlaubt ist, baue deine Hilfsstapel möglichst "
            "absteigend auf, etwa eine 9 auf eine 10 und dann eine 8 auf die 9."
        )
        picture = (
            "die 10 wird offen auf einen Hilfsstapel gelegt, auf dem ein Bube liegt "
            "\N{EN DASH} eine Stufe tiefer \N{EN DASH},"
        )
        wrong = ("ähnliche Werte", "gleiche Werte", "lange Reihe")
    assert advice in text["body"]
    assert picture in text["pictures"]
    for phrase in wrong:
        assert phrase not in text["all"], phrase


# ---------------------------------------------------------------- 5: the opponent's side stacks


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_5_never_a_card_on_the_other_players_side_stacks(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    if lang == "en":
        rule = (
            "Never lay a card on your opponent's side stacks, and never play from them: you "
            "use only your own."
        )
        short = "Side stacks. You have your own only, at most four."
    else:
        rule = (
            "Lege nie eine Karte auf die Hilfsstapel deines Gegners, und spiele nie von ihnen: "
            "Du benutzt nur deine eigenen."
        )
        short = "Hilfsstapel. Jeder legt nur auf seine eigenen, höchstens vier."
    assert rule in text["body"] and short in text["body"]


# ---------------------------------------------------------------- 6: stock sizes and the tie


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_6_the_tie_for_the_first_turn_always_ends(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    single = stock_of(toggles) == 1
    if lang == "en":
        one = "This booklet suggests instead that on a tie the player who did not deal starts."
        one_box = "Shuffling a one-card pay-off pile changes nothing, so on a tie the player who"
        many = (
            "The rules do not say when this stops; this booklet suggests that if the cards tie "
            "three times running, the player who did not deal starts."
        )
        many_box = "If the cards tie three times running, the player who did not deal starts."
    else:
        one = "Dieses Heft schlägt deshalb vor: Bei Gleichstand beginnt, wer nicht gegeben hat."
        one_box = "Bei einem Spielerstapel aus nur einer Karte ändert Neumischen nichts"
        many = (
            "Wann das endet, sagen die Regeln nicht. Dieses Heft schlägt vor: Sind die Karten "
            "dreimal hintereinander gleich hoch, beginnt, wer nicht gegeben hat."
        )
        many_box = "Sind die Karten dreimal hintereinander gleich hoch, beginnt, wer nicht"
    assert (one in text["body"]) is single
    assert (one_box in text["box"]) is single
    assert (many in text["body"]) is not single
    assert (many_box in text["box"]) is not single


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_6_every_sentence_about_the_pay_off_pile_fits_its_size(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    stock = stock_of(toggles)
    if lang == "en":
        many = [
            "Each player turns the top card of their pay-off pile face up",
            "Turn up the next card. Whenever you have played the top card of your pay-off pile,",
            "the last of their",
            "with its top card face up",
            "top card face up",
            "whose next card is turned up",
            "plan each turn around its top card",
        ]
        one = [
            "Deal one card face down to each player. That card is the player's pay-off pile.",
            "Each player turns that card face up.",
            "Your pay-off pile is a single card. Once you have played it onto a centre stack, "
            "your pay-off pile is empty and you have won.",
            "The first player whose pay-off pile is empty wins the game: their one card has",
            "a pay-off pile of one card, lying face up",
            "the pay-off pile's only card",
        ]
    else:
        many = [
            "Jeder deckt die oberste Karte seines Spielerstapels auf",
            "Decke die nächste Karte auf. Ist die oberste Karte deines Spielerstapels gespielt,",
            "alle Karten seines Spielerstapels",
            "dessen oberste Karte offen liegt",
            "oben offen",
            "dessen nächste Karte aufgedeckt wird",
            "Richte deshalb jeden Zug nach seiner obersten Karte aus",
        ]
        one = [
            "Gebt jedem Spieler eine Karte verdeckt. Sie allein ist sein Spielerstapel.",
            "Jeder deckt die Karte seines Spielerstapels auf.",
            "Dein Spielerstapel besteht aus einer einzigen Karte. Sobald du sie auf einen "
            "Ablagestapel gespielt hast, ist dein Spielerstapel leer, und du hast gewonnen.",
            "Wer als Erster die einzige Karte seines Spielerstapels",
            "aus einer einzigen, offen liegenden Karte",
            "der Bube, die einzige Karte des Spielerstapels",
        ]
    for sentence in many:
        assert (sentence in text["all"]) is (stock > 1), sentence
    for sentence in one:
        assert (sentence in text["all"]) is (stock == 1), sentence
    # Nothing is ever counted wrong: no "1 cards", "one cards", "eine Karten".
    assert not re.search(r"\b(?:1|one|eine|einer) (?:cards|Karten)\b", text["all"])


@pytest.mark.parametrize("toggles", MATRIX)
def test_6_the_picture_draws_each_pile_no_bigger_than_it_is(toggles: str) -> None:
    html = html_of(toggles, "en")
    picture = re.search(r"<svg\b.*?</svg>", html, flags=re.S)
    assert picture
    backs = picture.group(0).count('class="back"')
    stock = stock_of(toggles)
    left = 104 - 2 * (stock + HAND)
    # Two hands, the stock in the middle (up to three cards drawn), the key's card, and
    # under each pay-off pile's face-up card up to two more, never more than it holds.
    assert backs == 2 * HAND + min(left, 3) + 1 + 2 * (min(stock, 3) - 1)


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_6_the_stock_left_after_the_deal_is_counted(toggles: str, lang: str) -> None:
    left = 104 - 2 * (stock_of(toggles) + HAND)
    shown = {2: ("two cards", "zwei Karten"), 92: ("92 cards", "92 Karten")}
    said = shown.get(left, (f"{left} cards", f"{left} Karten"))[lang == "de"]
    sentence = (
        f"At this table it starts with {said}."
        if lang == "en"
        else f"An diesem Tisch sind das zu Beginn {said}."
    )
    assert sentence in parts(toggles, lang)["body"]


# ---------------------------------------------------------------- 7: the points series


SERIES = [case for case in CASES if MATRIX[case[0]].get("series")]


@pytest.mark.parametrize(("toggles", "lang"), SERIES, ids=[f"{t}-{lang}" for t, lang in SERIES])
def test_7_no_stale_figure_in_the_series(toggles: str, lang: str) -> None:
    options = MATRIX[toggles]
    text = parts(toggles, lang)
    bonus, per_card = options.get("bonus", 25), options.get("per-card", 5)
    target = options.get("target", 500)
    points = "points?" if lang == "en" else "Punkte?"
    times = "\N{MULTIPLICATION SIGN}"
    assert not re.search(rf"\b0 {points}\b|{times} 0\b|\+ 0\b", text["all"])
    # Two players: one loser, one pay-off pile to count.
    for plural in ("losing", "losers", "other players", "Verlierern", "anderen Spieler"):
        assert plural not in text["all"], plural
    every = "for every card" if lang == "en" else "für jede Karte"
    card_rate = "a card left" if lang == "en" else "je Karte"
    if per_card == 0:
        for stale in (every, card_rate, "per card"):
            assert stale not in text["all"], stale
        same = (
            f"Every win pays the same {bonus} points."
            if lang == "en"
            else f"Jeder Sieg bringt also gleich viel: {bonus} Punkte."
        )
        assert same in text["body"]
    else:
        assert every in text["body"] and card_rate in text["box"]
    if bonus == 0:
        nothing = (
            "and nothing more for going out"
            if lang == "en"
            else "und darüber hinaus nichts für den leer gespielten Spielerstapel"
        )
        assert nothing in text["body"]
    # The official figures show only where this table keeps them.
    if lang == "en":
        stale = {25: ["25 points for going out"], 5: ["5 points for every card", "5 points a card"]}
    else:
        stale = {
            25: ["25 Punkte für den leer gespielten"],
            5: ["5 Punkte für jede Karte", "5 Punkte je Karte"],
        }
    for figure, own in ((25, bonus), (5, per_card)):
        for phrase in stale[figure]:
            found = re.search(rf"(?<![\d.,]){phrase}", text["all"]) is not None
            assert found is (own == figure), phrase
    first_win = (
        f"Every win is worth at least {bonus} points, so one win is enough."
        if lang == "en"
        else f"Jeder Sieg bringt mindestens {bonus} Punkte; ein Sieg genügt also."
    )
    assert (first_win in text["body"]) is (bonus >= target and per_card > 0)
    for stale in (
        "so the first game won also wins the series",
        "wer das erste Spiel gewinnt, gewinnt also auch die Serie",
    ):
        assert stale not in text["all"], stale


@pytest.mark.parametrize("lang", ["en", "de"])
def test_7_figures_above_999_are_grouped(lang: str) -> None:
    text = parts("series-thousands", lang)["all"]
    mark = "," if lang == "en" else "."
    for figure in ("1{}500", "5{}000", "3{}500", "2{}000"):
        assert figure.format(mark) in text, figure
    assert not re.search(r"\b\d{4,}\b", text)


def test_7_the_worked_example_names_no_sex() -> None:
    for toggles in ("series", "series-stock-1", "series-no-bonus"):
        text = parts(toggles, "en")["all"]
        assert not re.search(r"\b(?:her|his|she|he)\b", text, flags=re.IGNORECASE)
        assert "still holds" in text and "when Ann goes out." in text


# ---------------------------------------------------------------- 8: published or house


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_8_no_published_rule_is_called_a_house_rule(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)
    house = r"house rule|house decision" if lang == "en" else r"Hausregel|Hausentscheidung"
    # The chapters call nothing a house rule: what they suggest they mark as this booklet's.
    assert not re.search(house, text["body"], flags=re.IGNORECASE)
    assert not re.search(r"official|offiziell", text["all"], flags=re.IGNORECASE)
    marker = (
        r"this booklet suggests" if lang == "en" else r"dieses heft schlägt|schlägt dieses heft"
    )
    assert len(re.findall(marker, text["body"].lower())) >= 3


# ---------------------------------------------------------------- 9: German name and terms


@pytest.mark.parametrize("toggles", MATRIX)
def test_9_the_german_booklet_keeps_the_english_name(toggles: str) -> None:
    html = html_of(toggles, "de")
    assert re.search(r'<(p|h1) class="title">Spite and Malice</\1>', html)
    assert re.search(r"<title>Spite and Malice\b[^<]*Spielregeln</title>", html)
    text = parts(toggles, "de")
    # The first sentence says what the English name stands for (no standfirst of its own,
    # which no other booklet has: print review 10).
    assert text["body"].startswith(
        " Das Spiel und sein Ziel Spite and Malice ist ein Wettlauf zu zweit"
    )
    for wrong in ("Katz", "Maus", "Cat and Mouse", "Partei"):
        assert wrong not in text["all"], wrong


@pytest.mark.parametrize("toggles", MATRIX)
def test_9_the_german_piles_are_the_glossarys(toggles: str) -> None:
    text = parts(toggles, "de")["all"]
    for term in ("Spielerstapel", "Kartenstock", "Ablagestapel", "Hilfsstapel"):
        assert term in text, term
    for wrong in ("Ablegestapel", "Nachziehstapel", "Spielstapel", "Mittelstapel", "Seitenstapel"):
        assert wrong not in text, wrong
    # A joker here is the real card, named only to leave it out; the kings are wild.
    assert text.count("Joker") == text.count("ohne Joker")
    assert "Ein König kann jede Karte ersetzen." in text
    assert "Die Könige ersetzen jede Karte." not in text


@pytest.mark.parametrize("toggles", MATRIX)
def test_9_german_grammar_the_issue_named(toggles: str) -> None:
    text = parts(toggles, "de")["all"]
    for wrong in (
        "so viele du kannst",
        "Ein Zug, der",
        "Entscheidung des Tisches",
        "frei einsetzbar",
        "Gegenüber",
    ):
        assert wrong not in text, wrong
    # A zero before "Punkte" read as an ordinal ("0. Punkte"), not a sentence's end (500.).
    assert not re.search(r"(?<!\d)0\. Punkte", text)


def test_9_the_german_game_definition_has_no_invented_name() -> None:
    from sheetgen.game.definition import load_game
    from sheetgen.game.language import Language

    assert Language("de").words(load_game(GAME)).name == "Spite and Malice"


# ---------------------------------------------------------------- 10: read under every toggle


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_10_nothing_is_left_of_a_template_or_a_gap(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)["all"]
    for leftover in ("{{", "}}", "{%", "%}", "None", "True", "False", " ,", " .", " ;", " :"):
        assert leftover not in text, leftover
    # Counts up to twelve are words wherever the booklet counts things (centre stacks here).
    assert not re.search(
        r"(?:at most|up to|höchstens|bis zu) \d\b(?![.,]\d| points?\b| Punkte?\b)", text
    )


# ------------------------------------------------- the outside reviews (rules and German)


def after_hands(toggles: str) -> int:
    rules = resolve(game=GAME, options=dict(MATRIX[toggles]))
    return 104 - 2 * (rules.stock if isinstance(rules.stock, int) else 20) - 2 * HAND


# (right, wrong) per language: the reviews' findings that hold under every toggle.
REVIEWED = {
    "en": [
        # rules 4: the game ends only after a whole round without a play to a centre stack
        (
            "If there is nothing left to draw and a whole round passes in which neither player "
            "can play a card to a centre stack, the game ends without a winner.",
            "If neither player can play and there is nothing to draw",
        ),
        # rules 10
        (
            "Play to the centre stacks. Play as many cards as you can and wish.",
            "as often as you can and want to",
        ),
        # rules 12: no run of words copied from seed 003
        (
            "must rank exactly one above the card beneath it",
            "one higher than the card it covers",
        ),
    ],
    "de": [
        ("kann dein Gegner sie dort spielen.", "kann er sie dort anlegen"),  # 2
        ("Gewinnen kannst du nur, indem du deinen Spielerstapel abbaust.", "nur über deinen"),  # 3
        ("Mehr sagen die üblichen Regeln dazu nicht.", "Weiter gehen die üblichen Regeln"),  # 4
        (  # 5 (the caption is one line, the lead-in's place since print review 8)
            "Ein laufendes Spiel von oben: jeder hat seine Stapel vor sich, die gemeinsamen "
            "liegen in der Mitte.",
            "Zwischen ihnen liegen der verdeckte Kartenstock und Platz",
        ),
        ("Fülle deine Hand auf fünf Karten auf", "Fülle deine Handkarten auf"),  # 6
        ("Ein König kann jede Karte ersetzen.", "Die Könige ersetzen jede Karte."),  # 7
        ("die Karte, die der Stapel als Nächstes braucht", "die als Nächstes fehlt"),  # 7
        ("Handkarten: keine passt", "kein Zug mehr"),  # 11
        ("auf dem ein Bube liegt \N{EN DASH} eine Stufe tiefer \N{EN DASH},", "ein Bube lag"),
        ("Eine neue Karte kommt auf irgendeinen deiner", "einen beliebigen deiner"),  # 12
        ("auch mitten im Nachziehen", "mitten beim Nachziehen"),  # 12
        (
            "Gibt es nichts mehr nachzuziehen und vergeht eine ganze Runde, in der keiner von "
            "euch eine Karte auf einen Ablagestapel spielen kann, endet das Spiel ohne Sieger.",
            "Kann keiner von euch mehr spielen",
        ),
    ],
}


@pytest.mark.parametrize(("toggles", "lang"), CASES, ids=IDS)
def test_review_findings_are_fixed_under_every_toggle(toggles: str, lang: str) -> None:
    text = parts(toggles, lang)["all"]
    for right, wrong in REVIEWED[lang]:
        assert right in text, right
        assert wrong not in text, wrong
    # rules 13: a stock that starts with less than a hand warns that it runs out at once
    short = "That is fewer than a full hand" if lang == "en" else "Das ist weniger als eine volle"
    assert (short in text) is (after_hands(toggles) < HAND)
    # German 9: the pencil is for the series only, and then it is asked for
    pencil = (
        "A pencil and the score sheet at the end of this booklet."
        if lang == "en"
        else "Dazu einen Stift und den Spielblock (letztes Blatt)."
    )
    unless = "unless your table keeps a points series" if lang == "en" else "es sei denn, ihr"
    series = bool(MATRIX[toggles].get("series"))
    assert (pencil in text) is series and (unless in text) is not series


@pytest.mark.parametrize(("toggles", "lang"), SERIES, ids=[f"{t}-{lang}" for t, lang in SERIES])
def test_review_the_series_says_what_pagat_notes_and_no_more(toggles: str, lang: str) -> None:
    options = MATRIX[toggles]
    text = parts(toggles, lang)
    bonus, per_card = options.get("bonus", 25), options.get("per-card", 5)
    target = options.get("target", 500)
    if lang == "en":
        noted = "pagat.com notes that Spite and Malice series are scored much as Skip-Bo's"
        wrong = ("which pagat.com notes for this game", "give no scores of their own")
        decided = "but with these figures the first game won decides it."
        several = "This table plays several games in a row and adds up points."
        at_least = "Every win is worth at least"
    else:
        noted = "Laut pagat.com wird eine Serie bei Spite and Malice ähnlich abgerechnet wie"
        wrong = ("die pagat.com für dieses Spiel nennt", "kennen keine eigene Wertung")
        decided = "doch mit diesen Zahlen entscheidet schon das erste gewonnene Spiel die Serie."
        several = "An diesem Tisch werden mehrere Spiele hintereinander gespielt"
        at_least = "Jeder Sieg bringt mindestens"
    # rules 1 / German 8: pagat's note, said as a note, in the box and in the chapter
    assert noted in text["box"] and noted in text["body"]
    for phrase in wrong:
        assert phrase not in text["all"], phrase
    # rules 2: no "several games" where the first win decides the series
    first_win_decides = bonus >= target
    assert (decided in text["body"]) is first_win_decides
    assert (several in text["body"]) is not first_win_decides
    # rules 3: "at least" only where a win can pay more than the bonus
    assert (at_least in text["body"]) is (first_win_decides and per_card > 0)
    # German 10: the worked example names the winner, never "den eigenen" pile
    if lang == "de":
        assert "spielt den eigenen" not in text["all"] and "In diesem Tempo" not in text["all"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_table_picture_is_described_once(lang: str) -> None:
    """Print review 8: a lead-in ("Each player's piles lie on their own side of the table,
    the shared ones in the middle"), the drawing's labels and its caption said the same.
    The caption alone says it; the paragraph before the picture is about something else."""
    html = html_of("official", lang)
    found = re.search(r"<p>((?:(?!<p>).)*?)</p>\s*<figure class=\"picture\">", html, re.S)
    caption = re.search(r'<figure class="picture">.*?<figcaption>(.*?)</figcaption>', html, re.S)
    assert found is not None and caption is not None
    lead, said = plain(found.group(1)), plain(caption.group(1))
    middle = "middle" if lang == "en" else "Mitte"
    assert middle in said and middle not in lead, lead
