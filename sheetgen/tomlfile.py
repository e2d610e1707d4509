"""Reading the TOML files of a game folder, a preset or a table's house rules: each opened
once, a regular file of a bounded size, refused before tomllib reads it if it nests too
deep."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from sheetgen.folders import real_path

# How deeply a TOML file (a game definition, house rules, drawn examples) may nest its
# arrays and tables: real ones need four levels; tomllib and the code reading the data
# recurse, so a file nested thousands deep would end in a RecursionError.
MAX_TOML_DEPTH = 32


def toml_too_deep(text: str) -> bool:
    """Whether ``text`` opens more than MAX_TOML_DEPTH brackets or braces at once, or has a
    key or table name of more than MAX_TOML_DEPTH dotted parts (``a.a.a... = 1``, which
    tomllib reads in time and memory that grow with the square of its parts).

    A bound from above that needs no parse: brackets and dots inside strings and
    comments count too, which only matters for files no game needs.
    """
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                return True
        elif char in "]}":
            depth = max(0, depth - 1)
    for line in text.splitlines():
        if line.lstrip().startswith("["):
            key = line.split("]", 1)[0]
        elif "=" in line:
            key = line.split("=", 1)[0]
        else:  # a line inside a string or an array holds no key
            continue
        if key.count(".") > MAX_TOML_DEPTH:
            return True
    return False


# A TOML file sheetgen reads (a game definition, its examples, a preset, house rules, a
# language's counting words): real ones are a few kilobytes.
MAX_TOML_BYTES = 1_000_000


def read_toml_text(path: Path, within: Path | None = None) -> str:
    """The text of the TOML file ``path``, opened once and read from what was opened: a
    regular file (not a FIFO that would block) of at most MAX_TOML_BYTES, and with
    ``within`` (a resolved folder) one that really lies in it, whatever links on the
    way were swapped after the name was checked.

    Raises OSError, UnicodeDecodeError, or ValueError for what is no such file.
    """
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(handle, "rb") as opened:
        if within is not None:
            real = real_path(opened.fileno(), path)
            if not real.is_relative_to(within):
                raise ValueError(f"it lies outside the game's folder ({real})")
        found = os.fstat(opened.fileno())
        if not stat.S_ISREG(found.st_mode):
            raise ValueError("not an ordinary file")
        raw = opened.read(MAX_TOML_BYTES + 1)
    if len(raw) > MAX_TOML_BYTES:
        raise ValueError(f"larger than {MAX_TOML_BYTES:,} bytes, the most such a file holds")
    return raw.decode("utf-8-sig")


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
    except (RecursionError, MemoryError):
        raise ValueError(f"nested more than {MAX_TOML_DEPTH} levels deep") from None
