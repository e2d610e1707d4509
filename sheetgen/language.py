"""The language a document is written in: its short strings, numbers, dates and game words.

English is the language the code is written in; every other language is files.
Its short strings are a gettext catalogue, ``sheetgen/locale/<code>/LC_MESSAGES/
sheetgen.po``, compiled in memory when first used (so an installed wheel needs no
build step); its words for a game live beside the game, in ``rules/<game>/<code>/
game.toml``; its glossary (the terms its documents must use) in ``sheetgen/locale/
<code>/glossary.toml``. Numbers are written by Babel in the language's own style
(the documents hold no dates: the sheet's date is written in by hand).

Without ``--lang`` the language follows the system as gettext does: LANGUAGE (a
list, first known wins), then LC_ALL, LC_MESSAGES and LANG; English when none
names a language sheetgen has.
"""

from __future__ import annotations

import gettext
import io
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetgen.errors import ChoiceError
from sheetgen.resources import PACKAGE_DIR

if TYPE_CHECKING:
    from sheetgen.games import GameDef

SOURCE = "en"
DOMAIN = "sheetgen"
LOCALE_DIR = PACKAGE_DIR / "locale"


def catalogue_path(code: str) -> Path:
    """Where the short strings of language ``code`` are kept."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


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
class Language:
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


@dataclass(frozen=True)
class GameWords:
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
    """The folder holding a game's text in language ``code`` (the game's own for English)."""
    return game.folder if code == SOURCE else game.folder / code


@cache
def _layer_toml(folder: Path) -> dict[str, Any]:
    path = folder / "game.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as source:
        return tomllib.load(source)


def game_words(game: GameDef, code: str) -> GameWords:
    """A game's name and words in language ``code``; English where the game has none."""
    if code == SOURCE:
        return GameWords(game.name, dict(game.words))
    layer = _layer_toml(game_layer(game, code))
    words = {**game.words, **layer.get("words", {})}
    return GameWords(str(layer.get("name", game.name)), words)


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
    with glossary_path(code).open("rb") as source:
        return tomllib.load(source)


def booklet_language(
    game: GameDef, asked: str | None, environ: Mapping[str, str] | None = None
) -> Language:
    """The language of a game's booklet: ``asked`` (--lang) or the system's.

    A booklet needs the game's sections in that language (``rules/<game>/<code>/sections/``):
    one asked for by name without them is refused; the system's falls back to English.
    """
    lang = language(asked) if asked else system_language(environ)
    if lang.code == SOURCE or (game_layer(game, lang.code) / "sections").is_dir():
        return lang
    if asked:
        raise ChoiceError(
            f"the {game.name} booklet is not written in {lang.code!r} yet; "
            f"choose en (score sheets and exports come in {lang.code!r})",
            field="lang",
        )
    return ENGLISH


ENGLISH = Language(SOURCE)
