"""The rules booklet, the one way in: house rules -> context -> HTML -> PDF -> bytes.

``rules_document`` checks every choice, then goes down once: ``sheetgen.booklet.html``
renders the text (its context from ``sheetgen.booklet.context``, built once) with one
jinja2 Environment; for paper, ``sheetgen.booklet.pdf`` lays that HTML out with
weasyprint, which may fetch only the package's own templates and fonts, and lays the
blank score sheet onto the last page; a folded booklet is then imposed.
"""

from __future__ import annotations

from sheetgen.booklet.html import render_html
from sheetgen.booklet.pdf import build_booklet
from sheetgen.errors import ChoiceError
from sheetgen.fonts import retagged
from sheetgen.game.houserules import HouseRules
from sheetgen.game.language import ENGLISH, Language
from sheetgen.paper import Paper
from sheetgen.preview import in_format
from sheetgen.resources import rules_dir

LAYOUTS = ("pages", "booklet")
FORMATS = ("pdf", "png", "html")


def check_layout(layout: str, fmt: str) -> None:
    """Refuse a layout or format sheetgen cannot make, or a pair that makes no sense."""
    if layout not in LAYOUTS:
        raise ChoiceError(
            f"{layout!r} is not a layout; choose {' or '.join(LAYOUTS)}", field="layout"
        )
    if fmt not in FORMATS:
        choices = f"{', '.join(FORMATS[:-1])} or {FORMATS[-1]}"
        raise ChoiceError(f"{fmt!r} is not a format; choose {choices}", field="format")
    if fmt == "html" and layout == "booklet":
        raise ChoiceError(
            "a folded booklet is for paper, and an html page is read on a screen; "
            "leave out --layout booklet, or write a pdf to fold",
            field="layout",
        )


def rules_document(
    rules: HouseRules,
    *,
    paper: Paper,
    layout: str = "pages",
    fmt: str = "pdf",
    lang: Language = ENGLISH,
) -> bytes:
    """The rules booklet in ``lang``, laid out for printing: one page per sheet, or folded.

    ``pages`` prints each page on its own sheet of ``paper``; ``booklet`` sets
    half-size pages and imposes them for folding (the score sheet stays whole).
    ``png`` gives a preview of the first sheet as it will print instead of the PDF,
    ``html`` one self-contained page to read on a screen.
    Every choice is checked before anything is rendered.
    """
    check_layout(layout, fmt)
    if not rules.definition.folder.is_relative_to(rules_dir().resolve()):
        # A game folder from outside the package: the last line behind the sandbox.
        from sheetgen.isolated import run_limited

        def made() -> bytes:
            return _document(rules, paper=paper, layout=layout, fmt=fmt, lang=lang)

        return run_limited(made, f"the booklet of {rules.definition.folder}")
    return _document(rules, paper=paper, layout=layout, fmt=fmt, lang=lang)


def _document(rules: HouseRules, *, paper: Paper, layout: str, fmt: str, lang: Language) -> bytes:
    if fmt == "html":
        return render_html(rules, paper=paper, screen=True, lang=lang).encode("utf-8")
    if layout == "booklet":
        # pikepdf, which imposition needs, loads only for a folded booklet or a score sheet.
        from sheetgen.booklet.imposition import half_paper, impose_saddle_stitch

        half = half_paper(paper)
        pdf = impose_saddle_stitch(
            build_booklet(rules, paper=paper, page_size_override=half.portrait, lang=lang), paper
        )
    else:
        pdf = build_booklet(rules, paper=paper, lang=lang)
    return in_format(retagged(pdf), fmt)
