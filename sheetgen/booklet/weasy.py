"""weasyprint, imported with a one-line answer when the system lacks Pango."""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import sys
import warnings
from types import ModuleType

from sheetgen.errors import MissingLibraryError

INSTALL_PANGO = {
    "linux": "on Debian or Ubuntu: sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0",
    "darwin": "on macOS with Homebrew: brew install pango",
    "win32": (
        "on Windows: install MSYS2, run pacman -S mingw-w64-x86_64-pango and add its bin "
        "folder to PATH (WeasyPrint's installation guide shows how)"
    ),
}


def load_weasyprint() -> ModuleType:
    """The weasyprint module; a missing Pango or GObject library is one clear error."""
    # weasyprint prints a banner of its own before it re-raises; the error below says it all.
    # Without system fonts fontconfig warns of "ugly output" while weasyprint loads; the
    # booklet brings its own fonts (@font-face), so the warning would only mislead.
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*FontConfig.*Expect ugly output")
        try:
            return importlib.import_module("weasyprint")
        except OSError as exc:
            raise MissingLibraryError(missing_pango_message(str(exc), sys.platform)) from None


def missing_pango_message(problem: str, platform: str) -> str:
    """What is missing and how to install it on ``platform`` (a ``sys.platform`` value)."""
    found = re.search(r"cannot load library '([^']+)'", problem)
    library = found.group(1) if found else "Pango"
    how = INSTALL_PANGO.get(platform, INSTALL_PANGO["linux"])
    return (
        f"rules booklets need the Pango library, which is not installed ({library} is "
        f"missing); install it {how}. Score sheets (sheet, fill) work without it."
    )
