"""How big a blank sheet may be: the command line's ranges and the core's checks read these."""

from __future__ import annotations

DEFAULT_GAMES = 10
MAX_GAMES = 200
MAX_COPIES = 100
