"""Markdown to HTML for the booklet: the game's sections and the table's --extra rules.

CommonMark plus tables, with raw HTML, images and links switched off: raw
HTML shows as text, and nothing in the Markdown can make the renderer fetch a
file or a URL. Headings get ids (for the table of contents) and can be moved
down a level, so a table's own "# Heading" nests under its section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt

MAX_HEADING = 6


@dataclass(frozen=True)
class Heading:
    """A heading as the table of contents lists it."""

    level: int
    id: str
    title: str


@dataclass(frozen=True)
class RenderedMarkdown:
    """HTML and the headings found in it."""

    html: str
    headings: tuple[Heading, ...]


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False})
    md.enable("table")
    md.disable(["image", "link", "autolink", "reference", "html_inline", "html_block"])
    return md


def slug(text: str) -> str:
    """A lower-case, hyphenated id for a heading."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def render_markdown(text: str, *, id_prefix: str, shift: int = 0) -> RenderedMarkdown:
    """Render Markdown safely; headings get ids ``<id_prefix>-<slug>`` and move down ``shift``."""
    md = _parser()
    tokens = md.parse(text)
    headings: list[Heading] = []
    seen: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type not in ("heading_open", "heading_close"):
            continue
        level = min(MAX_HEADING, int(token.tag[1:]) + shift)
        token.tag = f"h{level}"
        if token.type == "heading_open":
            inline = tokens[index + 1].children or []
            title = "".join(child.content for child in inline if child.type != "softbreak")
            anchor = f"{id_prefix}-{slug(title)}"
            while anchor in seen:
                anchor += "-x"
            seen.add(anchor)
            token.attrSet("id", anchor)
            headings.append(Heading(level, anchor, title))
    html = md.renderer.render(tokens, md.options, {})
    return RenderedMarkdown(html, tuple(headings))
