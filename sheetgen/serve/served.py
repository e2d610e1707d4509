"""What every route of a served series shares: the series, the keys, the server's choices."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.requests import Request

from sheetgen.paper import Paper
from sheetgen.serve.access import Access
from sheetgen.serve.state import ServedSeries


@dataclass
class Served:
    """Everything the routes share: the series, the keys, and the server's choices."""

    series: ServedSeries
    access: Access
    paper: Paper
    lang: str | None = None  # --lang: every page in it, whatever the browser asks
    printer: str | None = None  # --printer: else CUPS's default
    lan: bool = False
    fragments: dict[tuple[int, str], str] = field(default_factory=dict)
    # Documents made lately (by series state, kind and choices) and the one maker of them.
    documents: dict[tuple[object, ...], tuple[bytes, str]] = field(default_factory=dict)
    making: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    waiting: int = 0
    printed_at: float = -1e9


def served_of(request: Request) -> Served:
    """The served series of the application ``request`` came to."""
    served = request.app.state.served
    assert isinstance(served, Served)
    return served
