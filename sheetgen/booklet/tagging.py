"""The tagged booklet's structure as a screen reader needs it: the contents' leader dots are
drawn, not read.

weasyprint sets the contents' leaders (CSS ``leader(". ")``) as text and tags every dot of
them as a span of the structure, so a screen reader read hundreds of ". " between each
title and its page number. ``leaders_as_artifacts`` finds each run of them (an element of
three or more spans that show nothing but dots and spaces), takes it out of the structure
tree and marks what it draws as an artifact: the page looks exactly as before, and the
structure holds each entry's title and page number only.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import Any

# The characters a leader shows, and the fewest spans that make one (a full stop after a
# link is one span of its own, never three).
LEADER_CHARACTERS = frozenset(". ")
LEADER_SPANS = 3
_CODE = re.compile(rb"<([0-9A-Fa-f]+)>")


def leaders_as_artifacts(pdf: bytes) -> bytes:
    """``pdf`` (a tagged booklet) with the runs of its leader dots out of the structure tree
    and drawn as artifacts; the same bytes when it has none."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        if "/StructTreeRoot" not in document.Root:
            return pdf
        pages = {page.obj.objgen: number for number, page in enumerate(document.pages)}
        shown = [_shown_by_mcid(page) for page in document.pages]
        leaders: dict[int, set[int]] = {}
        (root,) = _kids(document.Root.StructTreeRoot)
        _drop_leaders(root, pages, shown, leaders)
        if not leaders:
            return pdf
        for number, mcids in leaders.items():
            page = document.pages[number]
            page.Contents = document.make_stream(_as_artifacts(page, mcids))
            parents = document.Root.StructTreeRoot.ParentTree.Nums[2 * number + 1]
            for mcid in mcids:
                parents[mcid] = None
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
    return out.getvalue()


def _kids(element: Any) -> list[Any]:
    import pikepdf

    kids = element.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def _drop_leaders(
    element: Any, pages: dict[tuple[int, int], int], shown: list[dict[int, str]], found: Any
) -> bool:
    """Take the leader runs out of ``element``'s subtree, noting their marked content in
    ``found`` (page -> MCIDs); whether ``element`` is left empty by it."""
    import pikepdf

    kept = []
    changed = False
    for kid in _kids(element):
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            leader = _leader(kid, pages, shown)
            if leader is not None:
                number, mcids = leader
                found.setdefault(number, set()).update(mcids)
                changed = True
                continue
            if _drop_leaders(kid, pages, shown, found):
                changed = True
                continue
        kept.append(kid)
    if changed:
        element.K = pikepdf.Array(kept)
    return changed and not kept


def _leader(
    element: Any, pages: dict[tuple[int, int], int], shown: list[dict[int, str]]
) -> tuple[int, list[int]] | None:
    """(page, MCIDs) when ``element`` is a run of leader dots: LEADER_SPANS or more spans
    on one page, each showing only LEADER_CHARACTERS."""
    import pikepdf

    kids = _kids(element)
    if len(kids) < LEADER_SPANS or "/Pg" not in element:
        return None
    number = pages[element.Pg.objgen]
    mcids = []
    for kid in kids:
        if not isinstance(kid, pikepdf.Dictionary) or kid.get("/S") != "/Span":
            return None
        if "/Pg" in kid and pages[kid.Pg.objgen] != number:
            return None
        inner = _kids(kid)
        if len(inner) != 1 or not isinstance(inner[0], int):
            return None
        text = shown[number].get(int(inner[0]))
        if not text or "." not in text or not set(text) <= LEADER_CHARACTERS:
            return None
        mcids.append(int(inner[0]))
    return number, mcids


def _shown_by_mcid(page: Any) -> dict[int, str]:
    """The text each marked-content id of ``page`` shows, as its fonts map it to Unicode."""
    import pikepdf

    fonts = page.Resources.get("/Font", {})
    maps: dict[str, dict[int, str]] = {}
    shown: dict[int, str] = {}
    current: int | None = None
    font: dict[int, str] = {}
    for instruction in pikepdf.parse_content_stream(page):
        operands, name = instruction.operands, str(instruction.operator)
        if name == "BDC" and isinstance(operands[1], pikepdf.Dictionary):
            mcid = operands[1].get("/MCID")
            current = None if mcid is None else int(mcid)
        elif name == "EMC":
            current = None
        elif name == "Tf":
            key = str(operands[0])
            if key not in maps:
                maps[key] = _unicode_map(fonts.get(key))
            font = maps[key]
        elif current is not None and name in ("Tj", "TJ", "'", '"'):
            shown[current] = shown.get(current, "") + "".join(_decoded(operands, font))
    return shown


def _decoded(operands: Iterable[Any], font: dict[int, str]) -> Iterator[str]:
    """The characters two-byte codes show (``?`` for one the font does not map)."""
    import pikepdf

    for operand in operands:
        parts = operand if isinstance(operand, pikepdf.Array) else [operand]
        for part in parts:
            if isinstance(part, pikepdf.String):
                data = bytes(part)
                for at in range(0, len(data) - 1, 2):
                    yield font.get(int.from_bytes(data[at : at + 2], "big"), "?")


def _unicode_map(font: Any) -> dict[int, str]:
    """A composite font's codes and the text they stand for, read from its ToUnicode CMap
    (its bfchar and bfrange entries); empty for a font without one."""
    if font is None or "/ToUnicode" not in font:
        return {}
    cmap = bytes(font.ToUnicode.read_bytes())
    found: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, flags=re.S):
        codes = _CODE.findall(block)
        for code, text in zip(codes[::2], codes[1::2], strict=False):
            found[int(code, 16)] = bytes.fromhex(text.decode()).decode("utf-16-be", "replace")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, flags=re.S):
        for line in block.strip().splitlines():
            codes = _CODE.findall(line)
            if len(codes) == 3 and b"[" not in line:
                low, high, start = (int(code, 16) for code in codes)
                for offset in range(high - low + 1):
                    found[low + offset] = chr(start + offset)
    return found


def _as_artifacts(page: Any, mcids: set[int]) -> bytes:
    """``page``'s content with the marked content of ``mcids`` marked as an artifact."""
    import pikepdf

    instructions: list[Any] = []
    for instruction in pikepdf.parse_content_stream(page):
        operands = instruction.operands
        if (
            str(instruction.operator) == "BDC"
            and isinstance(operands[1], pikepdf.Dictionary)
            and operands[1].get("/MCID") is not None
            and int(operands[1].MCID) in mcids
        ):
            instruction = pikepdf.ContentStreamInstruction(
                [pikepdf.Name.Artifact], pikepdf.Operator("BMC")
            )
        instructions.append(instruction)
    return pikepdf.unparse_content_stream(instructions)
