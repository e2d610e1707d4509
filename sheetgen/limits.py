"""How big a blank sheet may be: the command line's ranges and the core's checks read these."""

from __future__ import annotations

import tomllib
from typing import Any

DEFAULT_GAMES = 10
MAX_GAMES = 200
MAX_COPIES = 100
# A series file is read whole: 64 MiB holds about a million games, far more than any table
# records, and stops a stray disk image from filling the memory before it is refused.
MAX_SERIES_BYTES = 64 * 1024 * 1024

# How deeply a TOML file (a game definition, house rules, drawn examples) may nest its
# arrays and tables: real ones need four levels; tomllib and the code reading the data
# recurse, so a file nested thousands deep would end in a RecursionError.
MAX_TOML_DEPTH = 32


def toml_too_deep(text: str) -> bool:
    """Whether ``text`` opens more than MAX_TOML_DEPTH brackets or braces at once.

    A bound from above that needs no parse: brackets inside strings and comments
    count too, which only matters for files no game needs.
    """
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                return True
        elif char in "]}":
            depth = max(0, depth - 1)
    return False


def load_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads`` for every TOML sheetgen reads, refusing too deep a file first.

    Raises ``ValueError`` (a message without the file's name) for too deep or invalid TOML.
    """
    if toml_too_deep(text):
        raise ValueError(f"nested more than {MAX_TOML_DEPTH} levels deep")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML ({exc})") from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_TOML_DEPTH} levels deep") from None
