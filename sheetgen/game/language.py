"""The language a document is written in: its short strings, numbers, dates and game words.

English is the language the code is written in; every other language is files.
Its short strings are a gettext catalogue, ``sheetgen/locale/<code>/LC_MESSAGES/
sheetgen.po``, compiled in memory when first used (so an installed wheel needs no
build step); its words for a game live beside the game, in ``rules/<game>/<code>/
game.toml``; its glossary (the terms its documents must use) in ``sheetgen/locale/
<code>/glossary.toml``. Numbers are written by Babel in the language's own style
(the documents hold no dates: the sheet's date is written in by hand).

A booklet in another language lays ``rules/<game>/<code>/`` over the game: its
``game.toml`` gives every prose key of the English one (name, words, sentences, deck
labels, picture labels), its ``sections/`` every section file, its ``examples.toml``
the words of the drawn examples; facts (numbers, toggles, order of sections) always
come from the English files. ``layer_problems`` says what such a folder lacks.
How a language counts in documents (its number words, its word for "one", its
quotation marks) is ``sheetgen/locale/<code>/language.toml``.

Without ``--lang`` the language follows the system as gettext does: LANGUAGE (a
list, first known wins), then LC_ALL, LC_MESSAGES and LANG; English when none
names a language sheetgen has.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sheetgen.errors import ChoiceError, GameDefinitionError
from sheetgen.game.definition import inside_game
from sheetgen.resources import PACKAGE_DIR
from sheetgen.tomlfile import load_toml, read_toml_text

if TYPE_CHECKING:
    from sheetgen.game.definition import GameDef

SOURCE = "en"
DOMAIN = "sheetgen"
LOCALE_DIR = PACKAGE_DIR / "locale"


def catalogue_path(code: str) -> Path:
    """Where the short strings of language ``code`` are kept."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def counting_path(code: str) -> Path:
    """Where the way language ``code`` counts in documents is kept."""
    return LOCALE_DIR / code / "language.toml"


def glossary_path(code: str) -> Path:
    """Where the terms language ``code`` must use are kept."""
    return LOCALE_DIR / code / "glossary.toml"


def languages() -> tuple[str, ...]:
    """Every language sheetgen writes documents in: English and each catalogue shipped."""
    found = sorted(
        folder.name
        for folder in LOCALE_DIR.iterdir()
        if folder.is_dir() and catalogue_path(folder.name).is_file()
    )
    return (SOURCE, *(code for code in found if code != SOURCE))


@cache
def _translations(code: str) -> gettext.NullTranslations:
    if code == SOURCE:
        return gettext.NullTranslations()
    # Babel (about 30 ms to import, with the decimal, pickle and time-zone modules it brings)
    # is loaded only for a language other than English.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalogue_path(code).open("rb") as source:
        catalog = read_po(source, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@dataclass(frozen=True)
class Counting:
    """How a language writes counts in a booklet: the booklet's number style is counts of
    things in words up to twelve and figures above, points always in figures."""

    numbers: tuple[str, ...]
    one: str  # the word for 1 before a noun ("one", German "ein"; a noun may ask for "eine")
    plural_ending: str  # what makes a plural when none is given ("s"; German: none)
    # The cards filter: singular, plural, the word for one, and the word for one after a
    # preposition that asks for the dative ("mit einer Karte"; English: "one" again).
    card: tuple[str, str, str, str]
    figures: frozenset[str]  # nouns always counted in figures ("point")
    quotes: tuple[str, str, str, str]  # opening and closing marks, then the inner pair
    # Where a compound breaks that the hyphenation patterns get wrong ("Hilfs-stapel", not
    # "Hilfss-tapel"): each word with a hyphen at its break.
    breaks: tuple[str, ...] = ()
    # Whether a score sheet writes its count of games as the booklet does, in words up to
    # twelve ("Acht Spiele"), rather than in figures.
    sheet_games_in_words: bool = False
    # The players of the booklet's worked examples and table picture: names a reader of the
    # language knows as names.
    example_names: tuple[str, ...] = ()
    # The language whose way of grouping digits a figure follows (Babel's locale code).
    code: str = SOURCE
    # Short words nearly every sentence of the language has: a table's own text is taken to
    # be in the language whose words it uses most (see ``written_in``).
    common_words: frozenset[str] = frozenset()

    def figure(self, number: int) -> str:
        """A number in figures as the language groups them: 1,500 in English, 1.500 in
        German (Babel's format for the language)."""
        if self.code == SOURCE:
            return f"{number:,}"
        from babel import numbers as babel_numbers

        return str(babel_numbers.format_decimal(number, locale=self.code))

    def spelled(self, number: int) -> bool:
        """Whether ``number`` is written in words (a small count)."""
        return 0 <= number < len(self.numbers)

    def spell(self, number: int, beside: int | None = None) -> str:
        """A small count in words ("four", "vier"), larger ones in figures; in figures too
        ``beside`` a number set so ("10 cards instead of 20", not "ten cards instead of
        20")."""
        if self.spelled(number) and (beside is None or self.spelled(beside)):
            return self.numbers[number]
        return self.figure(number)

    def plural(self, word: str, number: int) -> str:
        """``word`` for ``number`` things when the language makes plurals by an ending."""
        return word if number == 1 else f"{word}{self.plural_ending}"

    def count(
        self,
        number: int,
        singular: str,
        plural: str | None = None,
        one: str | None = None,
        beside: int | None = None,
    ) -> str:
        """A grammatical count: ``one card``, ``30 cards``, ``1 point``; ``ein Spiel``,
        ``eine Karte`` (``one="eine"``), ``zwölf Karten``; in figures ``beside`` a number
        set so (see ``spell``)."""
        if singular in self.figures or (beside is not None and not self.spelled(beside)):
            shown = self.figure(number)
        elif number == 1:
            shown = self.one if one is None else one
        else:
            shown = self.spell(number)
        if number == 1:
            return f"{shown} {singular}"
        return f"{shown} {self.plural(singular, number) if plural is None else plural}"

    def cards(self, number: int, case: str = "", beside: int | None = None) -> str:
        """The count the rules text needs most: ``one card``, ``eine Karte``; with
        ``case="dative"`` the form after "mit": ``einer Karte``; ``beside`` as ``count``."""
        singular, plural, one, dative_one = self.card
        one = dative_one if case == "dative" else one
        return self.count(number, singular, plural, one, beside)

    def soft_hyphens(self, text: str) -> str:
        """``text`` with a soft hyphen at each break of ``breaks``, so that a line ends there
        rather than where the patterns would put it; not in a word joined by a hyphen of its
        own ("Kartenstock-Feld" breaks there)."""
        for word in self.breaks:
            plain = re.escape(word.replace("-", ""))
            text = re.sub(plain + r"(?!-)", word.replace("-", "\N{SOFT HYPHEN}"), text)
        return text

    def quoted(self, text: str) -> str:
        """``text`` in this language's quotation marks."""
        return f"{self.quotes[0]}{text}{self.quotes[1]}"


_ENGLISH_WORDS = frozenset(
    {"the", "and", "of", "to", "a", "is", "in", "it", "you", "that", "for", "on", "with",
     "are", "be", "this", "your", "not", "or"}
)  # fmt: skip
ENGLISH_COUNTING = Counting(
    numbers=(
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
    ),
    one="one",
    plural_ending="s",
    card=("card", "cards", "one", "one"),
    figures=frozenset({"point"}),
    example_names=("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou"),
    common_words=_ENGLISH_WORDS,
    quotes=(
        "\N{LEFT DOUBLE QUOTATION MARK}",
        "\N{RIGHT DOUBLE QUOTATION MARK}",
        "\N{LEFT SINGLE QUOTATION MARK}",
        "\N{RIGHT SINGLE QUOTATION MARK}",
    ),
)


@cache
def _counting(code: str) -> Counting:
    if code == SOURCE:
        return ENGLISH_COUNTING
    path = counting_path(code)
    try:
        data = load_toml(read_toml_text(path))
        return Counting(
            numbers=tuple(str(word) for word in data["numbers"]),
            one=str(data["one"]),
            plural_ending=str(data.get("plural_ending", "")),
            card=(
                str(data["card"][0]),
                str(data["card"][1]),
                str(data["card"][2]),
                str(data["card"][3] if len(data["card"]) > 3 else data["card"][2]),
            ),
            figures=frozenset(str(word) for word in data.get("figures", ())),
            quotes=(
                str(data["quotes"][0]),
                str(data["quotes"][1]),
                str(data["quotes"][2]),
                str(data["quotes"][3]),
            ),
            breaks=tuple(str(word) for word in data.get("breaks", ())),
            sheet_games_in_words=bool(data.get("sheet_games_in_words", False)),
            example_names=tuple(str(name) for name in data.get("example_names", ())),
            code=code,
            common_words=frozenset(str(word) for word in data.get("common_words", ())),
        )
    except (OSError, UnicodeDecodeError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise GameDefinitionError(f"cannot read how {code!r} counts ({exc})", file=path) from None


class Language(NamedTuple):
    """A language documents are written in; only its code travels (to worker processes too)."""

    code: str

    def _(self, message: str) -> str:
        """``message`` (English) in this language."""
        return _translations(self.code).gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of a message for ``count`` things, in this language."""
        return _translations(self.code).ngettext(singular, plural, count)

    def number(self, value: int) -> str:
        """A whole number as this language writes it: German groups thousands (1.250); English
        keeps the plain digits its sheets always had."""
        if self.code == SOURCE:
            return str(value)
        from babel import numbers as babel_numbers

        return babel_numbers.format_decimal(value, locale=self.code)

    def words(self, game: GameDef) -> GameWords:
        """The game's name and its words in this language."""
        return game_words(game, self.code)

    @property
    def counting(self) -> Counting:
        """How this language writes counts in a booklet."""
        return _counting(self.code)

    def translations(self) -> gettext.NullTranslations:
        """The short strings of this language, as gettext (and jinja2's i18n) use them."""
        return _translations(self.code)

    def game(self, game: GameDef) -> GameDef:
        """``game`` with its prose in this language (see ``translated``)."""
        return translated(game, self.code)


class GameWords(NamedTuple):
    """A game's name and its words (stock pile ...) in one language."""

    name: str
    words: Mapping[str, str]

    @property
    def stocks(self) -> str:
        return self.words.get("stocks", "stock piles")

    @property
    def stock(self) -> str:
        return self.words.get("stock", "stock pile")


def game_layer(game: GameDef, code: str) -> Path:
    """The folder holding a game's text in language ``code`` (the game's own for English);
    one that lies outside the game's folder (a link) is refused, as any file of a game is."""
    if code == SOURCE:
        return game.folder
    folder = game.folder / code
    if os.path.lexists(folder):
        inside_game(game.folder, code, "lang", kind="folder", file=game.folder)
    return folder


def layer_file(game: GameDef, code: str, name: str, *, kind: str = "file") -> Path:
    """``name`` in the game's folder of language ``code``, refused if it lies outside the
    game's folder; it may be missing (the caller says what that means)."""
    path = game_layer(game, code) / name
    if os.path.lexists(path):
        inside_game(
            game.folder, str(path.relative_to(game.folder)), "lang", kind=kind, file=game.folder
        )
    return path


def _read_toml(path: Path, within: Path | None = None) -> dict[str, Any]:
    try:
        return load_toml(read_toml_text(path, within))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise GameDefinitionError(f"cannot read it ({exc})", file=path) from None


def _layer_toml(game: GameDef, code: str) -> dict[str, Any]:
    return _read_layer_toml(layer_file(game, code, "game.toml"), game.folder)


@cache
def _read_layer_toml(path: Path, within: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    return _read_toml(path, within)


# The prose keys of a game.toml: a language's game.toml gives each one the English has.
PROSE_TEXTS = ("name", "picture_caption", "standard_rules", "subtitle")
PROSE_TABLES = ("words", "picture_labels", "house_rules")


def translated(game: GameDef, code: str) -> GameDef:
    """``game`` with the prose of its ``<code>/game.toml`` laid over the English: name,
    words, sentences, deck labels and picture labels. Facts stay the English file's."""
    if code == SOURCE:
        return game
    layer = _layer_toml(game, code)
    tables = {key: {**getattr(game, key), **layer.get(key, {})} for key in PROSE_TABLES}
    labels = layer.get("decks", {})
    decks = tuple(
        deck._replace(
            label=str(labels.get(deck.id, {}).get("label", deck.label)),
            words={
                key: str(value)
                for key, value in labels.get(deck.id, {}).get("words", deck.words).items()
            },
        )
        for deck in game.decks
    )
    return game._replace(
        lang=code,
        name=str(layer.get("name", game.name)),
        picture_caption=str(layer.get("picture_caption", game.picture_caption)),
        standard_rules=str(layer.get("standard_rules", game.standard_rules)),
        subtitle=str(layer.get("subtitle", game.subtitle)),
        suggested=tuple(str(line) for line in layer.get("suggested", game.suggested)),
        words={key: str(value) for key, value in tables["words"].items()},
        picture_labels={key: str(value) for key, value in tables["picture_labels"].items()},
        house_rules={key: str(value) for key, value in tables["house_rules"].items()},
        decks=decks,
    )


def _prose_problems(english: Mapping[str, Any], layer: Mapping[str, Any]) -> list[str]:
    problems = []
    for key in PROSE_TEXTS:
        if key in english and not isinstance(layer.get(key), str):
            problems.append(f"{key}: missing (a text)")
    for key in PROSE_TABLES:
        given = layer.get(key, {})
        if not isinstance(given, dict):
            problems.append(f"{key}: must be a table")
            continue
        for name in english.get(key, {}):
            if not isinstance(given.get(name), str):
                problems.append(f"{key}.{name}: missing (a text)")
        problems += [
            f"{key}.{name}: English has no such key"
            for name in given
            if name not in english.get(key, {})
        ]
    suggested = layer.get("suggested", [])
    if len(english.get("suggested", [])) != (len(suggested) if isinstance(suggested, list) else -1):
        problems.append(
            f"suggested: give {len(english.get('suggested', []))} texts, as English does"
        )
    decks = layer.get("decks", {})
    for deck in english.get("decks", {}):
        if not isinstance(
            decks.get(deck, {}).get("label") if isinstance(decks, dict) else None, str
        ):
            problems.append(f"decks.{deck}.label: missing (a text)")
    known = {*PROSE_TEXTS, *PROSE_TABLES, "suggested", "decks"}
    problems += [
        f"{key}: not a prose key (facts come from the English game.toml)"
        for key in layer
        if key not in known
    ]
    return problems


def layer_problems(game: GameDef, code: str) -> list[str]:
    """What ``rules/<game>/<code>/`` lacks, or has that English has not, to give the
    game's booklet in language ``code``; each problem names its file and key."""
    from sheetgen.game.examples import EXAMPLES, example_problems

    folder = game_layer(game, code)
    english = _read_toml(game.folder / "game.toml")
    path = layer_file(game, code, "game.toml")
    problems = (
        [f"{path}: {problem}" for problem in _prose_problems(english, _read_toml(path))]
        if path.is_file()
        else [f"{path}: missing"]
    )
    sections = layer_file(game, code, "sections", kind="folder")
    wanted = {section.file for section in game.sections if section.file is not None}
    for name in sorted(wanted):
        if not layer_file(game, code, f"sections/{name}").is_file():
            problems.append(f"{sections / name}: missing")
    if sections.is_dir():
        problems += [
            f"{file}: English has no such section"
            for file in sorted(sections.iterdir())
            if file.name not in wanted
        ]
    if (game.folder / EXAMPLES).is_file():
        problems += [
            f"{folder / EXAMPLES}: {problem}" for problem in example_problems(game.folder, folder)
        ]
    return problems


def game_words(game: GameDef, code: str) -> GameWords:
    """A game's name and words in language ``code``; English where the game has none."""
    if code == SOURCE:
        return GameWords(game.name, dict(game.words))
    layer = _layer_toml(game, code)
    words = {**game.words, **layer.get("words", {})}
    return GameWords(str(layer.get("name", game.name)), words)


def written_in(text: str, default: Language) -> Language:
    """The language ``text`` (a table's own rules) is written in, as far as its commonest
    words tell; ``default`` when they do not tell."""
    words = re.findall(r"\w+", text.lower())
    counts = {
        code: sum(word in language(code).counting.common_words for word in words)
        for code in languages()
    }
    best = max(counts, key=lambda code: counts[code])
    if counts[best] <= counts.get(default.code, 0) or counts[best] < 3:
        return default
    return Language(best)


def language(code: str) -> Language:
    """The language called ``code`` (en, de ...), refused if sheetgen has no catalogue for it."""
    name = code.strip().lower()
    if name not in languages():
        raise ChoiceError(
            f"{code!r} is not a language sheetgen writes; choose {' or '.join(languages())}",
            field="lang",
        )
    return Language(name)


def system_language(environ: Mapping[str, str] | None = None) -> Language:
    """The language the system asks for, as gettext reads it; English if sheetgen lacks it."""
    env = os.environ if environ is None else environ
    known = languages()
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "").strip()
        if not value:
            continue
        for entry in value.split(":") if variable == "LANGUAGE" else [value]:
            code = entry.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].lower()
            if code in known:
                return Language(code)
        if variable != "LANGUAGE":  # the first locale variable set decides
            break
    return Language(SOURCE)


def glossary(code: str) -> dict[str, Any]:
    """The glossary of language ``code``: the terms its documents use, and English ones they must
    not."""
    return _read_toml(glossary_path(code))


def booklet_language(
    game: GameDef, asked: str | None, environ: Mapping[str, str] | None = None
) -> Language:
    """The language of a game's booklet: ``asked`` (--lang) or the system's.

    A booklet needs the game's sections in that language (``rules/<game>/<code>/sections/``):
    one asked for by name without them is refused; the system's falls back to English.
    """
    lang = language(asked) if asked else system_language(environ)
    if lang.code == SOURCE:
        return lang
    if layer_file(game, lang.code, "sections", kind="folder").is_dir():
        problems = layer_problems(game, lang.code)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise GameDefinitionError(
                f"the {game.name} booklet in {lang.code!r} is incomplete: {problems[0]}{more}"
            )
        return lang
    if asked:
        raise ChoiceError(
            f"the {game.name} booklet is not written in {lang.code!r} yet; "
            f"choose en (score sheets and exports come in {lang.code!r})",
            field="lang",
        )
    return ENGLISH


ENGLISH = Language(SOURCE)
