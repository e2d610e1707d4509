"""The one reader of whole numbers typed by people: in series files, house rules and options."""

from __future__ import annotations

import re

from sheetgen.errors import NumberTooLargeError, RuleError

_WHOLE = re.compile(r"[+-]?[0-9]+")
# Far more digits than any count of cards or points; Python refuses to read thousands.
MAX_DIGITS = 18


def whole_number(value: object, field: str | None = None) -> int:
    """``value`` as an int: an int (not a bool) or text such as ``"30"``, ``" +7"``, ``"-5"``.

    Anything else (a float, ``"7.0"``, ``"seven"``, ``True``) is refused with a
    :class:`RuleError` placed at ``field``.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)  # an int from TOML or JSON meets the same bound as typed text
    elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        text = value.strip()
    else:
        raise RuleError(f"{value!r} is not a whole number", field=field)
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise NumberTooLargeError(f"a number of {digits} digits is far too large", field=field)
    return int(text)
