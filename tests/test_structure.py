"""The package's shape: four wings, the served page over them, and a face; imports
pointing one way, no circle.

The import graph is read from the source with ``ast``: every import counts, those inside
functions (lazy ones) and those made only for type checking included.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sheetgen"
WINGS = ("game", "series", "sheet", "booklet", "serve")
# What each part may import besides itself and the basics at the package's top.
ALLOWED = {
    "basics": set(),
    "game": set(),
    "series": {"game"},
    "sheet": {"game", "series"},
    "booklet": {"game", "series", "sheet"},
    # The table-side page (sheetgen serve) shows what the wings make; only the face uses it.
    "serve": {"game", "series", "sheet", "booklet"},
    "cli": {"game", "series", "sheet", "booklet", "serve"},
    "start": {"cli"},
}
MAX_LINES = 700
MAX_FUNCTION = 80


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The package's modules that ``name`` imports, lazily or not."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target != "sheetgen":
                yield target


def part(name: str) -> str:
    """The wing, the face or the basics a module belongs to."""
    pieces = name.split(".")
    if len(pieces) == 1:
        return "basics"
    if pieces[1] in (*WINGS, "cli"):
        return pieces[1]
    if pieces[1] == "start" or pieces[1] == "__main__":
        return "start"
    return "basics"


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imports(name, path, set(known))) for name, path in known.items()}


def test_every_import_points_down() -> None:
    wrong = []
    for name, targets in graph().items():
        for target in targets:
            here, there = part(name), part(target)
            if there not in (here, "basics") and there not in ALLOWED[here]:
                wrong.append(f"{name} imports {target} ({here} may not use {there})")
    assert wrong == []


def test_no_import_circle() -> None:
    edges = graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == 1:
                circles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert circles == []


@pytest.mark.parametrize("name", sorted(modules()))
def test_modules_and_functions_are_short(name: str) -> None:
    path = modules()[name]
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    assert lines <= MAX_LINES, f"{path} has {lines} lines, over {MAX_LINES}"
    long = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            source = ast.get_source_segment(text, node) or ""
            # A function may be longer with its reason in a comment that says "long:".
            if length > MAX_FUNCTION and "# long:" not in source:
                long.append(f"{node.name} ({length} lines)")
    assert long == [], f"{path}: functions over {MAX_FUNCTION} lines without a reason"


def test_only_the_face_imports_click() -> None:
    users = [
        name
        for name, path in modules().items()
        if part(name) != "cli"
        and any(
            target.split(".")[0] == "click"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Import | ast.ImportFrom)
            for target in (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
        )
    ]
    assert users == []
