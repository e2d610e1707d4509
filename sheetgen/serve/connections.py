"""Connections the server keeps open: from this computer only its own user's, at most a
few per address and a few hundred in all, and none that never says what it wants.

- A connection made on this computer (the browser of whoever started sheetgen, or any
  other account) belongs to the account that opened it, as the kernel's table of sockets
  (``/proc/net/tcp``) says: only the account that runs the server (or root) is let in.
  Another account holds no session cookie it could use and cannot tie up connections.
- uvicorn counts every open connection against one limit and waits for a request without
  end, so a handful of idle sockets could shut the page for the whole table. Here each
  address may hold MAX_PER_ADDRESS connections (a phone needs two or three: the page,
  its event stream, a download), all of them MAX_OPEN (well below the files a process
  may open), and a connection whose first request (headers and body) has not arrived
  within REQUEST_SECONDS is closed.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections import Counter
from pathlib import Path
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_PER_ADDRESS = 24
MAX_OPEN = 400
REQUEST_SECONDS = 10.0
TABLE = Path("/proc/net/tcp")  # the server listens on IPv4 only

_open: Counter[str] = Counter()


def _hex_address(host: str, port: int) -> str:
    """An IPv4 address and port as the kernel's socket table writes them."""
    packed = socket.inet_aton(host)
    return f"{int.from_bytes(packed, 'little'):08X}:{port:04X}"


def local_owner(peer: tuple[str, int], own: tuple[str, int]) -> int | None:
    """The account that opened the connection from ``peer`` to ``own``, when it was opened
    on this computer (its socket is in this computer's table); None when it came from
    another machine, or where there is no such table (not Linux)."""
    try:
        wanted = (_hex_address(*peer), _hex_address(*own))
    except (OSError, ValueError):
        return None
    try:
        lines = TABLE.read_text(encoding="ascii").splitlines()[1:]
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 7 and (fields[1], fields[2]) == wanted:
            return int(fields[7])
    return None


def _welcome(transport: Any) -> str | None:
    """The address to count a new connection against, or None to refuse it: another
    account's on this computer, one more than an address or the server may hold."""
    peer = transport.get_extra_info("peername")
    own = transport.get_extra_info("sockname")
    if not peer or not own:
        return None
    owner = local_owner((str(peer[0]), int(peer[1])), (str(own[0]), int(own[1])))
    if owner is not None and owner not in (os.getuid(), 0):
        return None
    address = str(peer[0])
    if _open[address] >= MAX_PER_ADDRESS or sum(_open.values()) >= MAX_OPEN:
        return None
    return address


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, its connections welcomed as the module says."""

    _address: str | None = None
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        address = _welcome(transport)
        if address is None:
            transport.abort()
            return
        _open[address] += 1
        self._address = address
        super().connection_made(transport)
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _too_slow(self) -> None:
        # Not one whole request in all this time: headers missing, or a body still coming.
        if self.cycle is None or (self.cycle.more_body and not self.cycle.response_started):
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
