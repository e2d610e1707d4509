"""SOURCE_DATE_EPOCH, the fixed time a reproducible document carries: read and checked."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from sheetgen.errors import SheetgenError

VARIABLE = "SOURCE_DATE_EPOCH"
# The last second a PDF date, with its four-digit year, can say: 9999-12-31 23:59:59 UTC.
LATEST = 253_402_300_799
_DIGITS = re.compile(r"[0-9]+")


def source_date_epoch(environ: Mapping[str, str] | None = None) -> int | None:
    """The time SOURCE_DATE_EPOCH fixes, in whole seconds since 1970; None if it is unset
    or blank, when documents carry the time they were made.

    A value that is not such a time is refused, as the reproducible-builds specification
    asks: ignoring it would make documents that differ on every run for a build that asked
    for identical ones. reportlab reads the variable itself when it dates a PDF, so the
    commands that make documents check it before they draw anything.
    """
    value = (os.environ if environ is None else environ).get(VARIABLE, "").strip()
    if not value:
        return None
    shown = repr(value) if len(value) <= 40 else f"{value[:30]!r}... ({len(value)} characters)"
    if not _DIGITS.fullmatch(value):
        raise SheetgenError(
            f"{shown} is not a time; give whole seconds since 1970-01-01 UTC in digits only "
            "(for example 1700000000), or unset it",
            file=VARIABLE,
        )
    if len(value) > len(str(LATEST)) or int(value) > LATEST:
        raise SheetgenError(
            f"{shown} is after the year 9999; give whole seconds since 1970-01-01 UTC, "
            f"at most {LATEST}, or unset it",
            file=VARIABLE,
        )
    return int(value)
