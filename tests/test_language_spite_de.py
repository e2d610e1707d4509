"""Spite and Malice in German: the booklet read back under every toggle.

The words are checked on the booklet's HTML (everything weasyprint sets, the pictures'
labels and alternatives included), the numbers against the English booklet for the
same toggles, and the pages on real PDFs in both layouts on Letter and A4.
"""

from __future__ import annotations

import html as html_lib
import io
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pagecheck import (
    Page,
    broken_ends,
    early_hyphens,
    lone_first_words,
    pages_with,
    problems,
    read_pages,
    strip_wants_room,
)
from pypdf import PdfReader

from sheetgen.booklet.build import render_html
from sheetgen.game.houserules import resolve
from sheetgen.game.language import ENGLISH, Language, glossary
from sheetgen.paper import A4, LETTER

pytestmark = pytest.mark.xdist_group("spite-de")

GAME = "spite-and-malice"
GERMAN = Language("de")
TERMS = glossary("de")["terms"]
AVOID = glossary("de")["avoid"]["words"]

# The table's own rules, written in German as a German table would hand them in.
EXTRA = """# Nach dem Spiel

Wer gewonnen hat, mischt für das nächste Spiel, und wer verloren hat, räumt auf.
"""

# Every toggle the English booklet's tests use for Spite and Malice, one at a time and
# in the combinations they ask for.
TOGGLES: dict[str, dict[str, Any]] = {
    "official": {},
    "stock-1": {"stock": 1},
    "stock-2": {"stock": 2},
    "stock-15": {"stock": 15},
    "stock-46": {"stock": 46},
    "four-stacks": {"building-piles": 4},
    "series": {"series": True},
    "series-stock-1": {"series": True, "stock": 1},
    "series-bonus-600": {"series": True, "bonus": 600},
    "series-own-figures": {"series": True, "target": 300, "bonus": 10, "per-card": 2},
    "series-no-per-card": {"series": True, "per-card": 0},
    "series-no-bonus": {"series": True, "bonus": 0},
    "series-target-20": {"series": True, "target": 20},
    "series-thousands": {"series": True, "bonus": 1500, "per-card": 100, "target": 5000},
    "series-stock-46-no-bonus": {"series": True, "stock": 46, "bonus": 0},
    "everything": {"stock": 15, "building-piles": 4, "series": True, "target": 300},
    "extra": {"extra": "EXTRA"},
}

# The game keeps its English name in German (no German name is established for it): the
# only English allowed.
NAME = "Spite and Malice"
# English words of this game that no German sentence needs (whole words, any case).
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|to|pay-off|pile|piles|stack|stacks|stock|centre|side|card|cards|"
    r"king|kings|queen|jack|ace|points?|player|players|turn|wins?)\b",
    re.IGNORECASE,
)
EN_NUMBERS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]
DE_NUMBERS = [
    "null",
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwölf",
]


def _options(toggles: str, extra: Path) -> dict[str, Any]:
    return {key: extra if value == "EXTRA" else value for key, value in TOGGLES[toggles].items()}


def words_of(html: str, pictures: bool = True) -> str:
    """Every word a reader meets, one space between them: the running text, and with
    ``pictures`` also the pictures' labels and titles and the alternatives."""
    html = re.sub(r"<style\b.*?</style>", " ", html, flags=re.S)
    said = " ".join(re.findall(r'\b(?:alt|aria-label)="([^"]*)"', html))
    if not pictures:
        html, said = re.sub(r"<svg\b.*?</svg>", " ", html, flags=re.S), ""
    html = re.sub(r"</(p|li|h\d|td|th|tr|div|figcaption|text|title)>|<br\s*/?>", " ", html)
    html = re.sub(r"</?(?:a|span|em|strong|q)\b[^>]*>", "", html)  # marks inside a sentence
    words = html_lib.unescape(re.sub(r"<[^>]+>", " ", html) + " " + said).replace(
        "\N{SOFT HYPHEN}", ""
    )
    return re.sub(r"\s+", " ", words)


def digits(text: str) -> Counter[str]:
    """The figures in a text, German thousands dots and English thousands commas taken out."""
    return Counter(re.findall(r"\d+", re.sub(r"(?<=\d)[.,](?=\d{3}\b)", "", text)))


def spelled(text: str, names: list[str]) -> set[int]:
    """The counts from two to twelve a text spells out (one is also an article)."""
    found = {word.lower() for word in re.findall(r"\w+", text)}
    return {number for number, word in enumerate(names) if number >= 2 and word in found}


@pytest.fixture(scope="module")
def booklets(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, Language], str]:
    """The HTML of one booklet (toggles, language), rendered once per run."""
    folder = tmp_path_factory.mktemp("extra")
    extra = folder / "ours.md"
    extra.write_text(EXTRA, encoding="utf-8")
    made: dict[tuple[str, str], str] = {}

    def get(toggles: str, lang: Language) -> str:
        if (toggles, lang.code) not in made:
            rules = resolve(game=GAME, options=_options(toggles, extra))
            made[toggles, lang.code] = render_html(rules, paper=A4, lang=lang)
        return made[toggles, lang.code]

    return get


@pytest.mark.parametrize("toggles", TOGGLES)
def test_the_booklet_uses_the_german_leaflets_terms(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    text = words_of(booklets(toggles, GERMAN))
    for english in ("stock pile", "draw pile", "building pile", "discard pile", "hand"):
        assert TERMS[english] in text, english
    assert text.count(NAME) >= 3  # cover, running text, pictures
    # Neither an invented German name nor another English one; no term off the glossary.
    for wrong in ("Katz", "Maus", "Cat and Mouse", "Mittelstapel", "Nachziehstapel"):
        assert wrong not in text, wrong
    for wrong in ("Ablegestapel", "Partei", "Spielstapel"):
        assert wrong not in text, wrong


@pytest.mark.parametrize("toggles", TOGGLES)
def test_no_english_is_left_in_the_german_booklet(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    text = words_of(booklets(toggles, GERMAN))
    text = text.replace(NAME, "")
    for word in AVOID:
        assert word not in text, word
    assert ENGLISH_WORDS.findall(text) == []
    # Quotation marks are German ones; none of the English ones is left.
    assert "\N{RIGHT DOUBLE QUOTATION MARK}" not in text and '"' not in text


@pytest.mark.parametrize("toggles", TOGGLES)
def test_the_same_numbers_as_the_english_booklet(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    english, german = booklets(toggles, ENGLISH), booklets(toggles, GERMAN)
    # The running text has the very same figures, as often; the pictures the same ones.
    running = words_of(german, pictures=False), words_of(english, pictures=False)
    assert digits(running[0]) == digits(running[1])
    assert set(digits(words_of(german))) == set(digits(words_of(english)))
    assert spelled(words_of(german), DE_NUMBERS) == spelled(words_of(english), EN_NUMBERS)


@pytest.mark.parametrize(
    ("toggles", "sentences"),
    [
        (
            "official",
            [
                "Keine eigenen Hausregeln: An diesem Tisch gelten die üblichen Regeln.",
                "Höchstens drei Ablagestapel dürfen zugleich im Spiel sein.",
                "Jeder Spieler bekommt einen Spielerstapel mit 20 Karten.",
                "Punkte werden nicht notiert: Jedes Spiel steht für sich.",
            ],
        ),
        (
            "stock-1",
            [
                "Jeder Spielerstapel umfasst 1 Karte statt 20.",
                "Jeder Spieler bekommt einen Spielerstapel aus nur einer Karte.",
                "Wer als Erster die einzige Karte seines Spielerstapels auf einen Ablagestapel "
                "gespielt hat, gewinnt das Spiel.",
            ],
        ),
        (
            "stock-15",
            [
                "Jeder Spielerstapel umfasst 15 Karten statt 20.",
                f"An diesem Tisch sind das zu Beginn {104 - 2 * (15 + 5)} Karten.",
            ],
        ),
        (
            "four-stacks",
            [
                "Statt drei dürfen bis zu vier Ablagestapel zugleich im Spiel sein.",
                "Höchstens vier Ablagestapel dürfen zugleich im Spiel sein.",
                "(Üblich sind höchstens drei; an diesem Tisch sind es vier.)",
                "Ablagestapel: höchstens vier zugleich",
            ],
        ),
        (
            "series",
            [
                "Laut pagat.com wird eine Serie bei Spite and Malice ähnlich abgerechnet wie "
                "bei Skip-Bo, und so rechnet auch dieses Heft ab. Es übernimmt dabei auch die "
                "Zahlen von Skip-Bo.",
                "Der Gewinner erhält 25 Punkte für den leer gespielten Spielerstapel und dazu "
                "5 Punkte für jede Karte",
                "Wer zuerst 500 Punkte erreicht, gewinnt die Serie.",
                "Danach wird das Spiel für die Punkteserie abgerechnet",
            ],
        ),
        (
            "series-own-figures",
            [
                "Es gelten dabei die eigenen Zahlen dieses Tisches; gespielt wird auf 300 "
                "Punkte statt auf 500.",
                "Der Gewinner erhält 10 Punkte für den leer gespielten Spielerstapel und dazu "
                "2 Punkte für jede Karte",
                "je Karte im Spielerstapel des Verlierers. Wer zuerst 300 Punkte erreicht,",
            ],
        ),
        (
            "series-bonus-600",
            [
                "Anna erhält 600 + 5 \N{MULTIPLICATION SIGN} 5 = 625 Punkte",
                "Schon mit diesem einen Spiel ist das Ziel von 500 Punkten erreicht und die "
                "Serie gewonnen.",
            ],
        ),
        (
            "series-no-per-card",
            [
                "die Karten, die noch im Spielerstapel des Verlierers liegen, bringen nichts.",
                "Die übrigen Karten bringen nichts; Anna erhält also 25 Punkte",
            ],
        ),
        (
            "series-no-bonus",
            ["und darüber hinaus nichts für den leer gespielten Spielerstapel."],
        ),
        (
            "extra",
            [
                "Dieser Tisch hat eigene Regeln: siehe \N{DOUBLE LOW-9 QUOTATION MARK}Nach dem "
                "Spiel\N{LEFT DOUBLE QUOTATION MARK}.",
                "Wer gewonnen hat, mischt für das nächste Spiel",
            ],
        ),
    ],
)
def test_each_toggle_has_its_german_sentence(
    booklets: Callable[[str, Language], str], toggles: str, sentences: list[str]
) -> None:
    text = words_of(booklets(toggles, GERMAN))
    for sentence in sentences:
        assert sentence in text, sentence


@pytest.mark.parametrize("toggles", [name for name in TOGGLES if "series" in name])
def test_the_worked_example_adds_up_as_in_english(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    figure = r"(\d{1,3}(?:[.,]\d{3})*)"
    times = "\N{MULTIPLICATION SIGN}"
    sum_ = rf"(?:{figure} \+ )?{figure} {times} {figure} = {figure}"
    english = re.search(
        rf"(\w+) scores {sum_} points?|(\w+) scores {figure} points? for going out",
        words_of(booklets(toggles, ENGLISH)),
    )
    german = re.search(
        rf"(\w+) erhält {sum_} Punkte?|(\w+) erhält also {figure} Punkte? für den leeren "
        r"Spielerstapel",
        words_of(booklets(toggles, GERMAN)),
    )
    assert english and german
    # The same figures, each grouped as its language writes them (1,500 and 1.500); the
    # names are each language's own example names (Ann, Anna).
    figures = [n for n in range(1, 8) if n not in (1, 6)]
    said = {
        lang: [
            None if group is None else group.replace(",", "").replace(".", "") for group in found
        ]
        for lang, found in (("en", english.group(*figures)), ("de", german.group(*figures)))
    }
    assert said["en"] == said["de"]
    assert not any("." in group for group in english.group(*figures) if group)
    assert not any("," in group for group in german.group(*figures) if group)
    assert (german.group(1) or german.group(6)) in GERMAN.counting.example_names
    if german.group(5):
        bonus, cards, per_card, points = (
            int((german.group(n) or "0").replace(".", "")) for n in range(2, 6)
        )
        assert bonus + cards * per_card == points


def test_the_pictures_speak_german(booklets: Callable[[str, Language], str]) -> None:
    text = words_of(booklets("official", GERMAN))
    for label in ("Spieler A", "Spieler B", "Tischmitte (gemeinsam)", "Hilfsstapel: bis zu vier"):
        assert label in text
    assert "20 Karten, oben offen" in text
    html = booklets("official", GERMAN)
    shown = set(re.findall(r"<text\b[^>]*>([^<]*)</text>", html))
    # German cards: B for Bube and D for Dame, as in the examples' words.
    assert {"A", "B", "D", "K"} <= shown and not {"J", "Q"} & shown


# The pages, read back from PDFs -------------------------------------------------------

# Each paper in each layout; the toggles that lengthen the booklet most among them.
PAGES = [
    ("official", "letter", "pages"),
    ("official", "a4", "booklet"),
    ("everything", "a4", "pages"),
    ("everything", "letter", "booklet"),
    ("extra", "a4", "pages"),
]
PAPERS = {"letter": LETTER, "a4": A4}
# An entry: its title, dot leaders where the PDF sets them as text, and where it is.
WHERE = re.compile(r"^(.+?)\s*(?:(?:\.\s?){2,})?\s+(\d+|Rückseite|eigenes Blatt)$")


@pytest.fixture(scope="module")
def pdfs(once: Any, rendered: Callable[..., Path]) -> Callable[[str, str, str], bytes]:
    """``sheetgen rules --lang de`` for the toggles, paper and layout, made once a run."""

    def write_extra(path: Path) -> None:
        path.write_text(EXTRA, encoding="utf-8")

    extra = once(("spite-and-malice-de", "extra"), write_extra, ".md")

    def get(toggles: str, paper: str, layout: str) -> bytes:
        args = ["rules", "--game", GAME, "--lang", "de", "--paper", paper, "--layout", layout]
        for key, value in _options(toggles, extra).items():
            if value is True:
                args.append(f"--{key}")
            else:
                args += [f"--{key}", str(value)]
        return rendered(*args).read_bytes()

    return get


def contents(pages: list[Page]) -> list[tuple[str, str]]:
    """The German contents: (title, page number, Rückseite or eigenes Blatt). They stand on
    the cover or, where a long house-rules box leaves the cover no room, whole on the page
    after it (the test checks the entries from the first to the last)."""
    for page in pages[:2]:
        texts = [line.text.strip() for line in page.lines]
        if "Inhalt" not in texts:
            continue
        # Only the lines under the heading "Inhalt" are entries.
        found = (WHERE.match(text) for text in texts[texts.index("Inhalt") + 1 :])
        entries = [(match.group(1).strip(" ."), match.group(2)) for match in found if match]
        if entries:
            return entries
    return []


@pytest.mark.parametrize(("toggles", "paper", "layout"), PAGES, ids=["-".join(c) for c in PAGES])
def test_the_german_pages_flow_like_the_english_ones(
    pdfs: Callable[[str, str, str], bytes], toggles: str, paper: str, layout: str
) -> None:
    pdf = pdfs(toggles, paper, layout)
    folded = layout == "booklet"
    pages = read_pages(pdf, folded=folded)
    assert problems(pages, folded=folded) == []
    assert early_hyphens(pages) == []
    assert lone_first_words(pages) == []  # print review: "• Nichts" alone
    assert broken_ends(pages, folded=folded) == []
    entries = contents(pages)
    titles = [title for title, _ in entries]
    assert titles[:2] == ["Das Spiel und sein Ziel", "Was ihr braucht"] or titles[:2] == [
        "Das Spiel und sein Ziel",
        "Vorbereitung",
    ]
    assert "Kurzübersicht" in titles
    portrait = [page for page in pages if not page.landscape]
    for title, where in entries:
        if where.isdigit():
            page = pages[int(where) - 1]
            assert title in " ".join(page.text.split()), (title, where)
        elif where == "Rückseite":
            assert folded and title in portrait[-1].text
        else:
            assert title == "Spielblock" and pages[-1].landscape
    if "series" in toggles or toggles == "everything":
        assert "Spielen auf Punkte" in titles
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.trailer["/Root"]["/Lang"] == "de"
    sheet = PAPERS[paper]
    first = reader.pages[0].mediabox
    assert (round(float(first.width)), round(float(first.height))) in {
        (round(sheet.width), round(sheet.height)),
        (round(sheet.height), round(sheet.width)),
    }


def test_review_27_no_page_of_the_running_text_ends_far_short(
    pdfs: Callable[[str, str, str], bytes],
) -> None:
    """Print review 27: on A4, flat, page 5 ended 193 pt (a quarter of the page) short: the
    last page of the text was balanced by moving the card strip over, and no closer or
    looser spacing was tried, as the page before stayed over FULL_BEFORE_LAST. Every page
    of running text before the last is now at least 80% as full as the fullest."""
    pages = read_pages(pdfs("official", "a4", "pages"), folded=False)
    portrait = [page for page in pages if not page.landscape]
    running = portrait[1:-2]  # the cover, then the text; its last page and the reference after
    fullest = max(page.fill for page in running)
    assert all(page.fill >= 0.8 * fullest for page in running), [
        round(page.fill / fullest, 2) for page in running
    ]


# The German editor's findings (findings/de-sm.md), read back -----------------------


def test_review_1_the_quick_reference_stays_inside_the_page(
    pdfs: Callable[[str, str, str], bytes],
) -> None:
    import pdfplumber

    for paper in ("letter", "a4"):  # two of the booklets above, flat and folded
        layout = "pages" if paper == "letter" else "booklet"
        toggles = "official"
        pdf_bytes = pdfs(toggles, paper, layout)
        # pdfplumber reads only the pages pdfium finds the word on.
        holding = pages_with(pdf_bytes, "Kurzübersicht")
        with pdfplumber.open(io.BytesIO(pdf_bytes), pages=holding) as pdf:
            pages = [page for page in pdf.pages if "Kurzübersicht" in (page.extract_text() or "")]
            labels = ("Spieler.", "Karten.", "Jeder Zug.", "Ablagestapel.", "Leerer Kartenstock.")
            # The side with the quick reference (the contents name it too, on a side of
            # their own where they open page 2).
            page = max(
                pages,
                key=lambda page: sum(label in (page.extract_text() or "") for label in labels),
            )
            text = " ".join((page.extract_text() or "").split())
            # Every letter sits at least a centimetre inside the paper's right edge.
            assert max(char["x1"] for char in page.chars) < float(page.width) - 28
            # Each label whole on its line, none broken over two.
            for label in labels:
                assert label in text, (paper, label)


@pytest.mark.parametrize("toggles", TOGGLES)
def test_review_19_30_the_other_player_is_the_opponent(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    text = words_of(booklets(toggles, GERMAN))
    assert "danach ist dein Gegner an der Reihe" in text
    assert "vor deinem Gegner verborgen" in text
    for other in ("Gegenüber", "Mitspieler", "anderen Spieler"):
        assert other not in text, other


@pytest.mark.parametrize("toggles", TOGGLES)
def test_review_22_du_for_the_player_ihr_for_the_table(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    text = words_of(booklets(toggles, GERMAN))
    assert re.findall(r"\bman\b", text, flags=re.IGNORECASE) == []
    for sentence in (
        "Ihr spielt abwechselnd",
        "Was ihr braucht",
        "Mischt beide Blätter gründlich zusammen.",
        "Gebt jedem Spieler",
        "Vergleicht die beiden offenen Karten auf euren Spielerstapeln.",
        "Fülle deine Hand auf.",
        "Spiele auf die Ablagestapel. Lege so viele Karten an, wie du kannst und möchtest.",
        "Beende den Zug. Lege zum Schluss eine Handkarte auf einen deiner Hilfsstapel;",
        "nehmt ihr von jedem Ablagestapel alle Karten",
        "Hast du alle Karten deiner Hand auf die Ablagestapel gespielt, ziehst du fünf Karten "
        "vom Kartenstock nach und spielst im selben Zug weiter.",
        "Leerer Kartenstock. Die fertigen Ablagestapel werden zu einem neuen Kartenstock gemischt.",
    ):
        assert sentence in text, sentence
    # No step of the running text is an infinitive any more.
    for infinitive in ("zusammenmischen.", "verdeckt geben.", "auffüllen.", "legen.**"):
        assert infinitive not in words_of(booklets(toggles, GERMAN), pictures=False)


@pytest.mark.parametrize("toggles", ["official", "everything"])
def test_review_23_24_28_packs_steps_and_number_words(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    text = words_of(booklets(toggles, GERMAN))
    piles = TOGGLES[toggles].get("building-piles", 3)
    # 23: a 52-card pack has no jokers to sort out.
    assert "Zwei gewöhnliche französische Blätter (ohne Joker, je 52 Karten)" in text
    assert "ohne Joker, je 52 Karten, zusammen 104." in text
    assert "aussortiert" not in text and "zu je 52" not in text
    # 24: the centre stacks climb in steps of one, in the quick reference (the picture
    # names the stacks only: print review 10, finding 6).
    assert text.count("in Einerschritten bis zur Dame") == 1
    assert "einzeln" not in text
    # 28: counts up to twelve are words in the picture's labels too, in both languages.
    assert f"Ablagestapel: höchstens {DE_NUMBERS[piles]} zugleich" in text
    assert re.findall(r"höchstens \d+ zugleich", text) == []
    english = words_of(booklets(toggles, ENGLISH))
    assert f"centre stacks: at most {EN_NUMBERS[piles]} at once" in english
    assert re.findall(r"at most \d+ at once", english) == []


@pytest.mark.parametrize("toggles", ["official", "stock-15", "series", "extra"])
def test_review_40_the_cover_box_does_not_say_none_before_the_proposals(
    booklets: Callable[[str, Language], str], toggles: str
) -> None:
    text = words_of(booklets(toggles, GERMAN))
    box = text[text.index("Was dieser Tisch gewählt hat") : text.index(" Inhalt ")]
    assert "Keine:" not in box
    # The notes' heading is the shared template's (the lead words it); it ends the same way.
    notes = box.index("schlägt dieses Heft vor:")
    if toggles == "official":
        own = "Keine eigenen Hausregeln: An diesem Tisch gelten die üblichen Regeln."
        assert box.index(own) < notes
    else:
        assert "Keine" not in box[:notes]
    assert "Wer beginnt: Ein aufgedeckter König schlägt jede andere Karte" in box[notes:]
    # An empty hand is the usual rules' own: no suggestion for it.
    assert "Keine Handkarten mehr" not in box


def test_review_24_the_pictures_step_label_fits_the_picture(
    pdfs: Callable[[str, str, str], bytes],
) -> None:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdfs("official", "letter", "pages"))) as pdf:
        # The picture's page: its label for the middle of the table, not the running text's.
        page = next(page for page in pdf.pages if "(gemeinsam)" in (page.extract_text() or ""))
        lines = page.extract_text_lines()
    step = next(line for line in lines if "zugleich" in line["text"].replace(" ", ""))
    # The picture's right-hand labels (the hand of five) mark its right edge.
    edge = max(line["x1"] for line in lines if "geheim" in line["text"])
    assert step["x1"] <= edge


@pytest.mark.parametrize(
    ("toggles", "paper"), [("official", "a4"), ("official", "letter"), ("everything", "letter")]
)
def test_review_15_the_kings_strip_stays_with_its_bullet(
    pdfs: Callable[[str, str, str], bytes], toggles: str, paper: str
) -> None:
    """Print review 15: the strip of a king filling a gap opened page 6 of the folded A4
    booklet, the bullets it shows on page 5 (review 18: on Letter, the king's bullet a page
    turn from it). The list now ends with the king's bullet, and the strip stays on its
    page; unless that takes the bullet over the page and leaves the page before short
    (print review 34: 85 pt white at the foot of the Letter booklet's page 5): then the
    bullet ends its page and the strip, which would not fit under it, opens the next."""
    pages = read_pages(pdfs(toggles, paper, "booklet"), folded=True)
    squeezed = [re.sub(r"\s+", "", page.text).replace("-", "") for page in pages]

    def page_of(words: str) -> int:
        piece = re.sub(r"\s+", "", words).replace("-", "")
        (found,) = [number for number, text in enumerate(squeezed) if piece in text]
        return found

    bullet, strip = page_of("die der Stapel als Nächstes braucht."), page_of("Ein König füllt")
    if bullet != strip:
        assert strip == bullet + 1
        assert strip_wants_room(pages, bullet, strip, "EinKönigfüllt")
