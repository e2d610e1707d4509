"""Find the assets sheetgen ships: templates, rules text and fonts.

In a built wheel ``templates/`` and ``rules/`` live inside the package; in a
source checkout (or an editable install) they sit beside it at the top of the
repository. Everything else asks this module, never a path of its own.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> Path:
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"sheetgen is installed without its {name}/ folder")


def templates_dir() -> Path:
    """The folder of jinja2 templates and their stylesheets."""
    return _asset_dir("templates")


def rules_dir() -> Path:
    """The folder holding one sub-folder of rules text per game."""
    return _asset_dir("rules")


def fonts_dir() -> Path:
    """The folder of bundled font files."""
    return PACKAGE_DIR / "fonts"
