"""YAML series files: read from the parser's events, nothing typed; written and edited
line by line, keeping every comment and every byte of what is not changed.

A player name is text whatever it looks like: ``No``, ``007`` or ``2024-05-01`` stay
exactly those names.
"""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path
from typing import Any

from sheetgen.errors import SeriesFileError
from sheetgen.game.scoring import Game, Series, game_of
from sheetgen.limits import MAX_SERIES_DEPTH
from sheetgen.series.schema import new_head, too_deep

# The tags a value may carry: none, YAML's "!" (none either) or the one it has anyway.
# Every other tag (!!binary, !!float, !foo) would change or drop what the value says.
_YAML_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = frozenset({None, "!", _YAML_TAG + "str"})
_SEQUENCE_TAGS = frozenset({None, "!", _YAML_TAG + "seq"})
_MAPPING_TAGS = frozenset({None, "!", _YAML_TAG + "map"})
_YAML11_WORDS = re.compile(r"(?i)y|n|yes|no|on|off|true|false|null|~")
# Characters YAML cannot hold as they are (its "printable" set, inverted).
_YAML_UNPRINTABLE = re.compile(
    "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_PLAIN_SAFE = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#,\[\]{}\n]*")


def read(text: str, path: Path) -> Any:
    """A YAML series file as plain data, made from the parser's events one at a time.

    No tree of nodes is built (a node and its two marks cost a hundred times the bytes it
    was read from), nothing recurses however deep the text nests, and no tag is resolved:
    every scalar is the text written. The parser is libyaml's where PyYAML has it, else
    PyYAML's own, which gives the same events.
    """
    import yaml

    # Many lists and mappings, none of them in a cycle: the garbage collector's passes over
    # them, as they are made, would cost more than making them.
    collecting = gc.isenabled()
    gc.disable()
    loader = None
    try:
        loader = (_text_loader() or yaml.BaseLoader)(text)
        return _YamlReader(path).read(loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if "nesting depth" in problem:
            # libyaml's own bound (a thousand levels), met while it looks ahead for a key.
            raise too_deep(path) from None
        raise SeriesFileError(file=path, problem=f"{where}not valid YAML ({problem})") from None
    finally:
        if loader is not None:
            loader.dispose()
        if collecting:
            gc.enable()


def _text_loader() -> Any:
    """libyaml's base loader, or None where PyYAML was built without libyaml.

    Only its parser is used: a base loader says that nothing is resolved or constructed.
    """
    import yaml

    return getattr(yaml, "CBaseLoader", None)


# A mapping waiting for its next key (rather than for the value of the key it has).
_KEY = object()


class _YamlReader:
    """Parser events turned into plain data, refusing what no series file needs: an alias,
    a tag, a second document and lists or mappings nested deeper than MAX_SERIES_DEPTH."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # Each list or mapping being read: its value so far, for a mapping the key whose
        # value comes next (or _KEY), and the event that started it.
        self.open: list[list[Any]] = []

    def read(self, loader: Any) -> Any:
        from yaml.events import (
            AliasEvent,
            DocumentStartEvent,
            MappingEndEvent,
            MappingStartEvent,
            ScalarEvent,
            SequenceEndEvent,
            SequenceStartEvent,
        )

        path, open_ = self.path, self.open
        documents = 0
        root = None
        while (event := loader.get_event()) is not None:
            kind = type(event)
            if kind is ScalarEvent:  # most events: checked first
                if event.tag not in _SCALAR_TAGS:
                    raise self.tagged(event)
                # Only a plain empty value or ~ is "nothing": a player called Null keeps the
                # name. (libyaml calls the plain style "", the pure-Python parser None.)
                value = None if not event.style and event.value in ("", "~") else event.value
                where = event
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                mapping = kind is MappingStartEvent
                if event.tag not in (_MAPPING_TAGS if mapping else _SEQUENCE_TAGS):
                    raise self.tagged(event)
                if len(open_) == MAX_SERIES_DEPTH:
                    raise too_deep(path)
                open_.append([{} if mapping else [], _KEY, event])
                continue
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                value, _, where = open_.pop()
            elif kind is AliasEvent:
                # Refused, not followed: a few hundred bytes of nested aliases would expand
                # into billions of values.
                raise SeriesFileError(
                    file=path,
                    problem=f"line {event.start_mark.line + 1}: this value is used again "
                    "through an alias (*name); a series file writes every value out in full",
                )
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise SeriesFileError(
                        file=path,
                        problem=f"line {event.start_mark.line + 1}: not valid YAML "
                        "(but found another document)",
                    )
                continue
            else:
                continue
            if not open_:
                root = value
                continue
            top = open_[-1]
            container = top[0]
            if type(container) is list:
                container.append(value)
            elif top[1] is _KEY:
                if type(value) is not str:
                    raise SeriesFileError(
                        file=path,
                        problem=f"line {where.start_mark.line + 1}: a key must be a plain name",
                    )
                if value in container:
                    raise SeriesFileError(
                        file=path,
                        problem=f"line {where.start_mark.line + 1}: {value!r} is given twice",
                    )
                top[1] = value
            else:
                container[top[1]] = value
                top[1] = _KEY
        if not documents:
            raise SeriesFileError(
                file=path, problem="the file is empty; a series needs at least its players"
            )
        return root

    def place(self) -> list[str | int]:
        """The keys and (1-based) positions that lead to the value being read."""
        steps: list[str | int] = []
        for container, key, _ in self.open:
            if type(container) is list:
                steps.append(len(container) + 1)
            elif key is _KEY:
                break  # the value is a key, or inside one
            else:
                steps.append(key)
        return steps

    def tagged(self, event: Any) -> SeriesFileError:
        """The refusal of a value carrying a YAML tag, naming the game and field it is in."""
        tag = str(event.tag)
        shown = "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag
        place = self.place()
        game = None
        field = " ".join(str(step) for step in place) or None
        if len(place) >= 2 and place[0] == "games" and isinstance(place[1], int):
            game, field = place[1], " ".join(str(step) for step in place[2:]) or None
        elif len(place) == 2 and place[0] == "players":
            field = f"players, player {place[1]}"
        return SeriesFileError(
            file=self.path,
            game=game,
            field=field,
            problem=f"line {event.start_mark.line + 1}: a YAML tag ({shown}) is not allowed; "
            "write the value as plain text",
        )


def new_text(series: Series) -> str:
    """The text of a new YAML series file holding ``series`` (no games yet)."""
    table = series.table
    head = new_head(series)
    name = game_of(series).name
    lines = [f"# A {name} series kept by sheetgen. Add games with: sheetgen record FILE"]
    lines += [
        f"{key}: {yaml_scalar(value) if isinstance(value, str) else value}"
        for key, value in head.items()
    ]
    lines.append(f"players: [{', '.join(yaml_scalar(name) for name in table.players)}]")
    if table.teams:
        lines.append("teams:")
        lines += [
            f"  {yaml_scalar(team.name)}: [{', '.join(yaml_scalar(m) for m in team.members)}]"
            for team in table.teams
        ]
    lines.append("games:")
    return "\n".join(lines) + "\n"


def keep_comments(old: list[str], comments: dict[int, str], new: list[str]) -> list[str]:
    """A game's new lines in place of its old ones, keeping every comment among them.

    ``comments`` holds the comment at the end of an old line (by its place in ``old``,
    with the spaces before it). Comment and blank lines stay where they are; the new lines
    take the places of the old game's lines, each keeping its comment; an old line left
    over gives its comment a line of its own.
    """
    newline = "\r\n" if old[0].endswith("\r\n") else "\n"
    out: list[str] = []
    waiting = list(new)
    after_content = 0
    for number, line in enumerate(old):
        body = line.strip()
        if not body or body.startswith("#"):
            out.append(line)
            continue
        comment = comments.get(number, "")
        if waiting:
            out.append(waiting.pop(0) + comment + newline)
        elif comment:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + comment.strip() + newline)
        after_content = len(out)
    out[after_content:after_content] = [line + newline for line in waiting]
    return out


def game_lines_at(text: str, path: Path, index: int) -> tuple[int, int, str, dict[int, str]]:
    """The lines of game ``index`` in a YAML block list: first, one past the last, the
    indent of its dash and the comments at the ends of its lines (by line from the first,
    with the spaces before them)."""
    import yaml
    from yaml.nodes import MappingNode, SequenceNode

    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    games = None
    if isinstance(root, MappingNode):
        games = next((value for key, value in root.value if key.value == "games"), None)
    if not isinstance(games, SequenceNode) or games.flow_style:
        raise SeriesFileError(
            "the list is written in flow style; sheetgen edits only a block list",
            file=path,
            field="games",
        )
    items = games.value
    lines = text.splitlines()
    start = items[index].start_mark.line
    if index + 1 < len(items):
        end = items[index + 1].start_mark.line
    else:
        mark = items[index].end_mark
        end = mark.line if mark.column == 0 else mark.line + 1
    # Comments and blank lines after a game belong to what follows it.
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip()[0] == "#"):
        end -= 1
    line = lines[start]
    dash = line[: len(line) - len(line.lstrip())]
    if not line.lstrip().startswith("-") or end <= start:
        raise SeriesFileError(
            "it is not on lines of its own; edit the file by hand", file=path, game=index + 1
        )
    return start, end, dash, _end_comments(items[index], lines, start, end)


def _end_comments(item: Any, lines: list[str], start: int, end: int) -> dict[int, str]:
    """The comment after the last value on each line of ``item`` (lines start to end)."""
    from yaml.nodes import MappingNode, SequenceNode

    ends: dict[int, int] = {}
    stack = [item]
    while stack:
        node = stack.pop()
        line = node.end_mark.line
        if start <= line < end and node.end_mark.column:
            ends[line] = max(ends.get(line, 0), node.end_mark.column)
        if isinstance(node, MappingNode):
            stack += [part for pair in node.value for part in pair]
        elif isinstance(node, SequenceNode):
            stack += node.value
    comments = {}
    for line, column in ends.items():
        rest = lines[line][column:]
        if rest.lstrip().startswith("#"):
            comments[line - start] = rest.rstrip("\r\n")
    return comments


def yaml_scalar(text: str) -> str:
    """A name as YAML: plain when every reader takes it as that text, else quoted."""
    from yaml.nodes import ScalarNode
    from yaml.resolver import Resolver

    resolver = Resolver()
    plain = (
        _PLAIN_SAFE.fullmatch(text) and not text.endswith(" ") and not _YAML11_WORDS.fullmatch(text)
    )
    if plain and resolver.resolve(ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str":
        return text
    # YAML may not hold some characters (U+FFFF, lone controls) as they are: escape those.
    return json.dumps(text, ensure_ascii=_YAML_UNPRINTABLE.search(text) is not None)


def game_lines(game: Game, dash_indent: str) -> list[str]:
    left = ", ".join(f"{yaml_scalar(name)}: {count}" for name, count in game.left.items())
    return [
        f"{dash_indent}- winner: {yaml_scalar(game.winner)}",
        f"{dash_indent}  left: {{{left}}}",
    ]


def append_game(text: str, game: Game) -> str:
    """Add a game after the last line of the games list, leaving every other line alone."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    games_at = next(
        (i for i, line in enumerate(lines) if re.match(r"""(["']?)games\1\s*:""", line)),
        None,
    )
    if games_at is None:
        return "".join([*lines, f"games:{newline}", *_lines(game_lines(game, "  "), newline)])
    head = lines[games_at]
    rest = re.sub(r"\s#.*$", "", " " + head.split(":", 1)[1].strip()).strip()
    if rest == "[]":
        comment = head[head.index("[]") + 2 :].rstrip("\n")
        lines[games_at] = "games:" + comment.rstrip("\r") + newline
    elif rest:
        raise SeriesFileError(
            "the list is written in flow style; sheetgen appends only to a block list",
            field="games",
        )
    end = games_at + 1
    dash_indent: str | None = None
    last_content = games_at
    while end < len(lines):
        line = lines[end]
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            if not line[0].isspace() and not line.startswith("-"):
                break
            if dash_indent is None and stripped.startswith("-"):
                dash_indent = line[: len(line) - len(line.lstrip())]
            last_content = end
        end += 1
    indent = "  " if dash_indent is None else dash_indent
    insert = _lines(game_lines(game, indent), newline)
    return "".join([*lines[: last_content + 1], *insert, *lines[last_content + 1 :]])


def _lines(items: list[str], newline: str) -> list[str]:
    return [item + newline for item in items]
