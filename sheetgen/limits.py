"""How big a sheet or a series may be: the command line's ranges and the core's checks."""

from __future__ import annotations

from sheetgen.errors import HouseRulesError

DEFAULT_GAMES = 10
# Game rows on a sheet, and so the most games a cards-left series may agree to play.
MAX_GAMES = 200
MAX_COPIES = 100
# Every command reads a whole series file: these bounds keep each of them (standings,
# record, fill, export) under 10 s and 1 GB on a two-core machine, both for the longest
# series and for the 10 MiB that cost a reader most (tests/perf/bench.py --limits; the
# slowest, a YAML list of one-letter names, takes 4 s). 10,000 games are decades of
# weekly play; 10 MiB holds them with six long names and comments to spare.
MAX_SERIES_BYTES = 10 * 1024 * 1024
MAX_SERIES_GAMES = 10_000
# How deeply a series file's lists and mappings may nest: a series needs four levels.
MAX_SERIES_DEPTH = 32

# A table's own rules (Markdown): a dozen printed pages of prose, far more than any table's
# own rules, and quick to set.
MAX_MARKDOWN = 30_000


def check_markdown_size(text: str, source: str) -> None:
    """Refuse Markdown longer than a booklet sets in reasonable time."""
    if len(text) > MAX_MARKDOWN:
        raise HouseRulesError(
            f"{source}: the text has {len(text):,} characters; a booklet takes at most "
            f"{MAX_MARKDOWN:,} of a table's own rules"
        )
