"""Check a game's drawn picture (SVG) before it goes into a booklet's HTML and PDF.

A game folder is not trusted, and its pictures are pasted into the HTML booklet as
they are, where a browser would run a script in them or fetch what they name. So a
picture may hold only drawing: SVG shapes, text, patterns, markers and gradients,
styled by CSS that names nothing outside the picture (``url(#id)`` only). The CSS is read
as a browser reads it (tinycss2), every declaration and selector of it, and a ``<style>``
holds text only: ``<style><g/>@import url(...)</style>`` is refused, not passed because
its first run of text was harmless. Anything else is refused by name: a script, a
foreign object, another kind of element, an event attribute (``onload``), a link or
``url()`` to elsewhere, an at-rule (``@import``, ``@font-face``), a CSS escape, a
DOCTYPE, CDATA, comment or processing instruction (where an HTML reader and an XML
reader could disagree about what is text). A picture that passes is used unchanged,
so the PDF looks as before.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable
from typing import Any

import tinycss2

from sheetgen.errors import GameDefinitionError

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
DRAWING = frozenset(
    {
        "svg",
        "g",
        "defs",
        "title",
        "desc",
        "style",
        "rect",
        "circle",
        "ellipse",
        "line",
        "polyline",
        "polygon",
        "path",
        "text",
        "tspan",
        "pattern",
        "marker",
        "linearGradient",
        "radialGradient",
        "stop",
        "clipPath",
        "mask",
        "symbol",
        "use",
    }
)
# CSS functions that only compute (a colour, a transform); ``url`` is checked on its own.
COMPUTING = frozenset(
    {
        "rgb",
        "rgba",
        "hsl",
        "hsla",
        "calc",
        "rotate",
        "translate",
        "translatex",
        "translatey",
        "scale",
        "scalex",
        "scaley",
        "matrix",
        "skewx",
        "skewy",
    }
)
_MARKUP = re.compile(r"<[!?]")
_URL = re.compile(r"url\(\s*(['\"]?)\s*(.*?)\s*\1\s*\)", re.IGNORECASE | re.DOTALL)


def check_picture(svg: str, place: str) -> str:
    """``svg`` itself if it holds only drawing; else a GameDefinitionError naming ``place``
    and what it holds."""
    markup = _MARKUP.search(svg)
    if markup:
        _refuse(place, f"{markup.group()} (a DOCTYPE, CDATA, comment or processing instruction)")
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError as exc:
        raise GameDefinitionError(
            f"the picture is not well-formed SVG ({exc})", file=place
        ) from None
    for element in root.iter():
        tag = element.tag if isinstance(element.tag, str) else "?"
        if not tag.startswith(SVG) or tag.removeprefix(SVG) not in DRAWING:
            _refuse(place, f"a <{_local(tag)}> element")
        for name, value in element.attrib.items():
            _check_attribute(tag, name, value, place)
        if tag == f"{SVG}style":
            if len(element):
                _refuse(place, f"a <{_local(element[0].tag)}> inside a <style>")
            _check_css(element.text or "", place, "a <style>")

    return svg


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _refuse(place: str, what: str) -> None:
    raise GameDefinitionError(
        f"a picture may hold only drawing, not {what}; "
        "scripts, foreign objects, events and links out of the picture are refused",
        file=place,
    )


def _check_attribute(tag: str, name: str, value: str, place: str) -> None:
    local = _local(name)
    what = f'the attribute {local}="{value[:40]}"'
    if (name.startswith("{") and name != XLINK_HREF) or local.lower().startswith("on"):
        _refuse(place, what)
    if local == "href" and not value.startswith("#"):
        _refuse(place, what)
    if local == "style":
        _check_css(value, place, what, kind="declarations")
    elif "\\" in value or _outside(value):
        _refuse(place, what)
    elif "(" in value:
        # A presentation attribute (fill, mask, clip-path) is CSS too, where a url( left
        # open at the end still names a place: read it as CSS, as a browser does.
        _check_css(value, place, what, kind="value")


def _outside(css: str) -> bool:
    """Whether ``css`` names anything outside the picture with ``url()``."""
    return any(not match.group(2).startswith("#") for match in _URL.finditer(css))


def _check_css(css: str, place: str, what: str, kind: str = "sheet") -> None:
    """Refuse CSS that could fetch, escape or do more than compute a colour or a shape.

    The text is checked as it stands (an escape, ``@`` or ``url()`` to elsewhere anywhere
    in it) and then as parsed: a style sheet of plain rules, or for a ``style`` attribute
    a list of declarations (``kind="declarations"``), or one value (``kind="value"``),
    whose functions are COMPUTING ones or ``url(#id)``."""
    if "\\" in css or "@" in css or _outside(css):
        _refuse(place, f"{what} that fetches or escapes ({css.strip()[:60]!r})")
    if kind == "value":
        parts: list[Any] = tinycss2.parse_component_value_list(css, skip_comments=True)
    elif kind == "declarations":
        parts = tinycss2.parse_blocks_contents(css)
    else:
        parts = []
        for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
            if rule.type != "qualified-rule":
                _refuse(place, f"{what} holding {_shown(rule)}")
            parts += [*rule.prelude, *tinycss2.parse_blocks_contents(rule.content)]
    for token in _tokens(parts):
        if token.type in ("error", "at-rule", "at-keyword"):
            _refuse(place, f"{what} holding {_shown(token)}")
        if token.type == "url" and not token.value.startswith("#"):
            _refuse(place, f"{what} that fetches or escapes ({css.strip()[:60]!r})")
        if token.type == "function":
            name = token.lower_name
            if name == "url":
                inside = [part for part in token.arguments if part.type != "whitespace"]
                if not (len(inside) == 1 and str(inside[0].value).startswith("#")):
                    _refuse(place, f"{what} that fetches or escapes ({css.strip()[:60]!r})")
            elif name not in COMPUTING:
                _refuse(place, f"{what} with the CSS function {token.name}()")


def _tokens(parts: Iterable[Any]) -> Iterable[Any]:
    """Every token of parsed CSS, the insides of blocks, functions and declarations too."""
    for part in parts:
        yield part
        if part.type == "declaration":
            yield from _tokens(part.value)
        elif part.type in ("function", "() block", "[] block", "{} block"):
            yield from _tokens(part.arguments if part.type == "function" else part.content)


def _shown(node: Any) -> str:
    if node.type == "error":
        return f"a CSS error ({node.message})"
    return repr(tinycss2.serialize([node]).strip()[:60])
