"""Connections the server keeps open: at most a few per address, and none that never says
what it wants.

uvicorn counts every open connection against one limit and waits for a request's headers
without end, so a handful of idle sockets from one machine could shut the page for the
whole table. Here each address may hold MAX_PER_ADDRESS connections (a phone needs two or
three: the page, its event stream, a download), and a connection that has not sent its
first request's headers within HEADER_SECONDS is closed.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_PER_ADDRESS = 24
HEADER_SECONDS = 10.0

_open: Counter[str] = Counter()


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a cap per address and a deadline for headers."""

    _address: str | None = None
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if _open[address] >= MAX_PER_ADDRESS:
            transport.abort()
            return
        _open[address] += 1
        self._address = address
        super().connection_made(transport)
        self._deadline = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _too_slow(self) -> None:
        if self.cycle is None:  # not one request's headers in all this time
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        if self._address is None:
            return  # refused at the door
        _open[self._address] -= 1
        if not _open[self._address]:
            del _open[self._address]
        self._address = None
        super().connection_lost(exc)


def open_connections(address: str) -> int:
    """How many connections ``address`` holds now."""
    return _open[address]
