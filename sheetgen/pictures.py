"""Check a game's drawn picture (SVG) before it goes into a booklet's HTML and PDF.

A game folder is not trusted, and its pictures are pasted into the HTML booklet as
they are, where a browser would run a script in them or fetch what they name. So a
picture may hold only drawing: SVG shapes, text, patterns, markers and gradients,
styled by CSS that names nothing outside the picture (``url(#id)`` only). Anything else
is refused by name: a script, a foreign object, another kind of element, an event
attribute (``onload``), a link or ``url()`` to elsewhere, ``@import``, a CSS escape,
a DOCTYPE, CDATA, comment or processing instruction (where an HTML reader and an XML
reader could disagree about what is text). A picture that passes is used unchanged,
so the PDF looks as before.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

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
_FUNCTION = re.compile(r"([A-Za-z_-][\w-]*)\(")


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
        _check_css(value, place, what)
    elif "\\" in value or _outside(value):
        _refuse(place, what)


def _outside(css: str) -> bool:
    """Whether ``css`` names anything outside the picture with ``url()``."""
    return any(not match.group(2).startswith("#") for match in _URL.finditer(css))


def _check_css(css: str, place: str, what: str) -> None:
    if "\\" in css or "@" in css or _outside(css):
        _refuse(place, f"{what} that fetches or escapes ({css.strip()[:60]!r})")
    for function in _FUNCTION.findall(_URL.sub("", css)):
        if function.lower() not in COMPUTING:
            _refuse(place, f"{what} with the CSS function {function}()")
