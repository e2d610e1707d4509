"""Names and titles as people type them: one form for each, and the nearest for a typo.

A name is compared by what a reader sees: composed Unicode (NFC), any case,
invisible characters and runs of spaces ignored. Two players a reader cannot
tell apart are refused; a name typed with another case or stray spaces finds
its player.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from sheetgen.errors import RuleError

MAX_NAME = 200
MAX_TITLE = 300
# Embeddings, overrides and isolates reorder the text around them (marks like U+200F do not).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): characters that
# show nothing. The joiner and variation selectors that emoji are built with stay allowed.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_EMOJI_PARTS = frozenset({0x200D, 0xFE0E, 0xFE0F, *range(0xE0020, 0xE0080)})

# Cyrillic and Greek letters drawn like Latin ones (a small part of Unicode's confusables).
_SKELETON = str.maketrans(
    "АВЕКМНОРСТХУаеорсухіјѕԁԛԝһӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧονικ",
    "ABEKMHOPCTXYaeopcyxijsdqwhlABEZHIKMNOPTYXovik",
)


def is_ignorable(char: str) -> bool:
    """Whether ``char`` is a Default_Ignorable_Code_Point other than an emoji's joiner."""
    code = ord(char)
    if code in _EMOJI_PARTS:
        return False
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def skeleton(text: str) -> str:
    """``name_key`` with Cyrillic and Greek look-alikes read as the Latin letters they
    look like: two names with one skeleton cannot be told apart on paper."""
    return name_key(text.translate(_SKELETON)).translate(_SKELETON)


def _scripts(text: str) -> set[str]:
    found = set()
    for char in text:
        if char.isalpha():
            found.add(unicodedata.name(char, "?").split(" ")[0])
    return found


def is_control(char: str) -> bool:
    """Line breaks, tabs, escapes and bidi overrides: they break lines and reorder text."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS


def refuse_half_characters(text: str, field: str) -> None:
    """Refuse a lone surrogate: half of a character, which a ``\\ud800`` escape in JSON (or a
    byte that is not UTF-8 in a command's arguments) gives, but no file or page can hold."""
    half = next((char for char in text if "\ud800" <= char <= "\udfff"), None)
    if half is not None:
        raise RuleError(
            f"{text!r} holds U+{ord(half):04X}, half of a character (a lone surrogate); "
            "write the character itself, or escape both of its halves",
            field=field,
        )


def normal(text: str) -> str:
    """The composed (NFC) form: ``José`` typed either way is one name."""
    return unicodedata.normalize("NFC", text)


def name_key(text: str) -> str:
    """What a reader sees of a name: no case, no invisible characters, single spaces."""
    visible = "".join(c for c in normal(text) if unicodedata.category(c) != "Cf")
    return " ".join(visible.split()).casefold()


def check_title(title: object, field: str) -> str:
    """A title is one line of printable text, not too long to print; returned in NFC."""
    if not isinstance(title, str):
        raise RuleError(f"{title!r} is not text", field=field)
    if not title.strip():
        raise RuleError("a title cannot be blank", field=field)
    refuse_half_characters(title, field)
    control = next((char for char in title if is_control(char)), None)
    if control is not None:
        raise RuleError(
            f"the title holds the control character U+{ord(control):04X}; "
            "a title is one line of printable text",
            field=field,
        )
    if len(title) > MAX_TITLE:
        raise RuleError(
            f"the title has {len(title)} characters; a sheet prints at most {MAX_TITLE}",
            field=field,
        )
    return normal(title)


def check_length(name: str, field: str) -> None:
    if len(name) > MAX_NAME:
        raise RuleError(
            f"a name of {len(name)} characters is too long; a name has at most {MAX_NAME}",
            field=field,
        )


def refuse_lookalikes(names: Sequence[str], field: str) -> None:
    """Refuse two names a reader cannot tell apart (case, spacing, invisible characters)."""
    seen: dict[str, str] = {}
    looks: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        shape = skeleton(name)
        if key not in seen and shape in looks:
            scripts = sorted(_scripts(name) - {"LATIN"} or _scripts(looks[shape]) - {"LATIN"})
            kind = " and ".join(script.title() for script in scripts) or "other"
            how = (
                f"it mixes {kind} and Latin letters"
                if "LATIN" in _scripts(name)
                else f"it is written in {kind} letters"
            )
            raise RuleError(
                f"{name!r} looks the same as {looks[shape]!r} ({how}); "
                "give every player a name of their own",
                field=field,
            )
        looks.setdefault(shape, name)
        if key in seen:
            first = seen[key]
            problem = (
                f"{name} is listed twice; every name must be unique"
                if first == name
                else f"{first!r} and {name!r} differ only in case, spacing or invisible "
                "characters; give every player a name of their own"
            )
            raise RuleError(problem, field=field)
        seen[key] = name


def find_name(typed: str, names: Sequence[str]) -> str | None:
    """The one of ``names`` that ``typed`` means, ignoring case and surrounding spaces."""
    key = name_key(typed)
    return next((name for name in names if name_key(name) == key), None)


def choices(typed: str, names: Sequence[str]) -> str:
    """``choose from Ann, Bob; did you mean Ann?``: the names, and the nearest to ``typed``."""
    import difflib  # only when a name was mistyped

    keys = {name_key(name): name for name in names}
    near = difflib.get_close_matches(name_key(typed), list(keys), n=1, cutoff=0.6)
    hint = f"; did you mean {keys[near[0]]}?" if near else ""
    return f"choose from {', '.join(names)}{hint}"
