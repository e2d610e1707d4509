"""Who may use a served series: the Host check, the PIN, the session, CSRF and the token.

- Every request must name the server by a host it listens as (``127.0.0.1:PORT``,
  ``localhost:PORT``, and with ``--lan`` the machine's own address): a page of another
  site that has its name point at this machine (DNS rebinding) is refused.
- A browser gets its session (an HttpOnly, SameSite=Strict cookie signed with a key made
  at start, bound to the browser's address) by opening the address printed at start, whose
  ``?key=`` is the run's key, or, on the local network (``--lan``), by entering the PIN
  printed at start once. Nothing else gets one: not another user of the same computer,
  not a page of another site. Wrong PINs from one address are limited (a ban that doubles
  with each round of failures); so many wrong PINs in all that the PIN could be guessed
  close PIN entry until the server is started again.
- Every form carries a CSRF token bound to its session, and every change through the
  HTTP interface with a session carries it as ``X-CSRF-Token``; scripts may instead send
  the bearer token printed at start.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "sheetgen_session"
PIN_DIGITS = 6
TRIES = 5  # wrong PINs from one address before it must wait
BAN_SECONDS = 60.0  # the first wait; each further round of failures doubles it
# Wrong PINs in all before PIN entry closes: a guess in 1,000,000 is then still out of reach.
CLOSE_AFTER = 100


def address_of(scope: Mapping[str, Any]) -> str:
    """The address a request came from: the socket's (no forwarding header is believed)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def same_site_path(path: str) -> str:
    """``path`` if it is a path of this server (never ``//elsewhere`` or a backslash a
    browser reads as one), written in plain ASCII; else the standings' "/"."""
    from urllib.parse import quote

    if not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return quote(path, safe="/-_.~")


def session_cookie(value: str) -> str:
    """The Set-Cookie value of a session: never read by scripts, never sent cross-site."""
    return f"{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict"


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


@dataclass
class _Failures:
    count: int = 0
    rounds: int = 0
    until: float = 0.0


@dataclass
class Access:
    """The keys of one run of the server: ``token`` (the key of the printed address, and
    the bearer token of scripts), and ``pin``, None when it listens on this machine only."""

    hosts: frozenset[str]
    pin: str | None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    clock: object = time.monotonic
    _failures: dict[str, _Failures] = field(default_factory=dict)
    _wrong: int = 0

    def __post_init__(self) -> None:
        self._cookies = URLSafeSerializer(self.key, salt="session")

    # --- the Host header ---------------------------------------------------------------
    def host_allowed(self, host: str | None) -> bool:
        return host is not None and host.lower() in self.hosts

    # --- sessions ----------------------------------------------------------------------
    def new_session(self, address: str) -> str:
        """A signed cookie value for a new session of the browser at ``address``."""
        return str(self._cookies.dumps({"sid": secrets.token_urlsafe(16), "at": address}))

    def session_id(self, cookie: str | None, address: str) -> str | None:
        """The session a cookie names, or None if it is missing, not signed by this run or
        made for a browser at another address (a cookie another server on this host
        was sent is no key here)."""
        if not cookie or len(cookie) > 300:
            return None
        try:
            data = self._cookies.loads(cookie)
        except BadSignature:
            return None
        if not isinstance(data, dict) or data.get("at") != address:
            return None
        sid = data.get("sid")
        return sid if isinstance(sid, str) else None

    def key_ok(self, given: str | None) -> bool:
        """Whether ``given`` is the run's key (the printed address's ``?key=``)."""
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def csrf_token(self, sid: str) -> str:
        return hmac.new(self.key, f"csrf:{sid}".encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, sid: str | None, given: str | None) -> bool:
        return (
            sid is not None
            and given is not None
            and hmac.compare_digest(self.csrf_token(sid), given)
        )

    def token_ok(self, authorization: str | None) -> bool:
        if not authorization or not authorization.startswith("Bearer "):
            return False
        return self.key_ok(authorization[7:].strip())

    # --- the PIN -----------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        """Whether so many wrong PINs were entered that PIN entry is shut for this run."""
        return self._wrong >= CLOSE_AFTER

    def wait_left(self, address: str) -> float:
        """Seconds ``address`` must still wait before it may try a PIN again."""
        now = self._now()
        failures = self._failures.get(address)
        return max(0.0, failures.until - now) if failures else 0.0

    def try_pin(self, address: str, given: str) -> bool:
        """Whether ``given`` is the PIN; a wrong one counts against ``address``. The caller
        checks ``closed`` and ``wait_left`` first."""
        assert self.pin is not None
        if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
            self._failures.pop(address, None)
            return True
        self._wrong += 1
        failures = self._failures.setdefault(address, _Failures())
        failures.count += 1
        if failures.count >= TRIES:
            failures.count = 0
            failures.rounds += 1
            failures.until = self._now() + BAN_SECONDS * 2 ** (failures.rounds - 1)
        return False

    def _now(self) -> float:
        clock = self.clock
        assert callable(clock)
        return float(clock())


def local_hosts(port: int, addresses: tuple[str, ...] = ()) -> frozenset[str]:
    """Every Host header a browser sends for this server: the loopback names, and each
    address it listens on, with the port and (for port 80) without."""
    names = ["127.0.0.1", "localhost", "[::1]", *addresses]
    hosts = set()
    for name in names:
        shown = f"[{name}]" if ":" in name and not name.startswith("[") else name
        hosts.add(f"{shown}:{port}".lower())
        if port == 80:
            hosts.add(shown.lower())
    return frozenset(hosts)
