"""Shared fixtures: a click runner, readers for the PDFs sheetgen writes, and the fonts.

Font discovery is pointed at a fontconfig configuration the tests build, so the
suite means the same whatever fonts the machine has: by default it lists an
empty folder (no system font covers anything), and ``system_fonts`` lets a test
name the font files fontconfig should see.

Rendering is what the suite spends its time on, so a document is made once per run
and shared. A test that only reads a document asks for it by what makes it:

    def test_x(rendered):
        pdf = rendered("rules", "--paper", "a4", "--lang", "de")   # a Path, read-only
    def test_y(booklet_pdf):
        pdf = booklet_pdf("skip-bo", A4, "booklet", lang="de", players=5)  # PDF bytes

Both run in the suite's default conditions (no system font, English unless asked),
whatever the asking test changed, and are shared by every test and xdist worker of
the run (``once`` does the same for any derived reading). Paths in the arguments
must be absolute and name files no test changes; copy a document to ``tmp_path``
before changing it. A rules document is one document however it is asked for: both
take it from ``rules_documents``, keyed by the house rules it is made for (not by how
they were spelt), and a test of what the command does with it (printing it, say) can
take it from there too:

    def test_z(runner, rules_made_once):
        result = runner("rules", "--printer", "duplex")  # sheetgen rules, its booklet shared

Tests run in parallel (pytest-xdist, ``-n auto``); a module whose tests share an
expensive module-scoped fixture or one process (a scheduler, a fresh venv) is one
``xdist_group``.
"""

from __future__ import annotations

import ast
import compileall
import contextlib
import dataclasses
import hashlib
import logging
import os
import pickle
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from filelock import FileLock

import sheetgen.booklet.build
from sheetgen import fonts
from sheetgen.booklet.build import rules_document
from sheetgen.cli import cli
from sheetgen.game.houserules import HouseRules, resolve
from sheetgen.game.language import ENGLISH, Language, language
from sheetgen.paper import Paper
from sheetgen.resources import rules_dir

# The machine's own fontconfig set-up, before the tests replace it.
MACHINE_ENV = dict(os.environ)

# Long chains that one xdist worker must run alone (a fresh venv and pip, a wheel, a CUPS
# scheduler) start first, so the other workers share the rest meanwhile instead of
# waiting for them at the end.
LONG_FIRST = (
    "test_readme_setup.py",
    "test_packaging.py",
    "test_printing.py",
    # Then the modules that render the most booklets, several as one group, so that the
    # run does not end waiting on one of them (the slowest first: a shorter run).
    "test_german_booklets.py",
    "test_language_spite_de.py",
    "test_language_board_de.py",
    "test_booklet_pages.py",
    "test_booklet_pictures.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Byte-compile sheetgen once, as an installed copy is: the suite starts sheetgen in
    hundreds of processes, and where PYTHONDONTWRITEBYTECODE is set (as on our machines)
    an editable checkout would otherwise be compiled afresh by every one of them."""
    if not hasattr(config, "workerinput"):  # once, in the run's first process
        compileall.compile_dir(Path(fonts.__file__).parent, quiet=1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)

    items.sort(key=rank)


class Runner:
    """Invoke ``sheetgen`` in-process, from a temporary working folder."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self._runner = CliRunner()

    def __call__(self, *args: str, input: str | bytes | None = None, **kwargs: Any) -> Result:
        import os

        old = Path.cwd()
        os.chdir(self.cwd)
        try:
            return self._runner.invoke(
                cli, list(args), input=input, catch_exceptions=True, **kwargs
            )
        finally:
            os.chdir(old)


@pytest.fixture
def runner(tmp_path: Path) -> Runner:
    """A CLI runner whose working folder is ``tmp_path``."""
    return Runner(tmp_path)


def folder_snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` with its bytes, to prove nothing was written."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def snapshot() -> Callable[[Path], dict[str, bytes]]:
    return folder_snapshot


def write_fontconfig(folder: Path, font_files: list[Path]) -> Path:
    """A fonts.conf under ``folder`` that offers only ``font_files`` (linked into its own dir)."""
    folder.mkdir(parents=True, exist_ok=True)
    fonts_dir = folder / "fonts"
    fonts_dir.mkdir(exist_ok=True)
    for index, font in enumerate(font_files):
        (fonts_dir / f"{index}-{font.name}").symlink_to(font)
    config = folder / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?>\n'
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        f"<fontconfig><dir>{fonts_dir}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>\n",
        encoding="utf-8",
    )
    return config


@pytest.fixture(scope="session")
def no_system_fonts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fontconfig(tmp_path_factory.mktemp("fontconfig"), [])


@pytest.fixture(autouse=True)
def controlled_fonts(no_system_fonts: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts with no system font and with nothing remembered of one."""
    monkeypatch.setenv("FONTCONFIG_FILE", str(no_system_fonts))
    fonts.clear_caches()
    yield
    fonts.clear_caches()


@pytest.fixture
def system_fonts(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., None]:
    """Let fontconfig see exactly the given font files for the rest of the test."""

    def offer(*font_files: Path) -> None:
        config = write_fontconfig(tmp_path_factory.mktemp("fontconfig"), list(font_files))
        monkeypatch.setenv("FONTCONFIG_FILE", str(config))
        fonts.clear_caches()

    return offer


def machine_font_covering(chars: str) -> Path | None:
    """A TrueType font file on this machine (its own fontconfig) that covers ``chars``."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    charset = " ".join(f"{ord(char):x}" for char in chars)
    done = subprocess.run(
        [fc_list, "--format", "%{file}\n", f":charset={charset}"],
        capture_output=True,
        text=True,
        env=MACHINE_ENV,
        check=False,
    )
    found = sorted(line for line in done.stdout.splitlines() if line.lower().endswith(".ttf"))
    return Path(found[0]) if found else None


@pytest.fixture(autouse=True)
def english_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Documents in English whatever the tester's own locale says (LANGUAGE decides first);
    the tests of other languages ask with --lang or set the variables themselves."""
    monkeypatch.setenv("LANGUAGE", "en")


# ---------------------------------------------------------------- documents made once a run


@contextlib.contextmanager
def default_conditions(fontconfig: Path) -> Iterator[None]:
    """The environment the autouse fixtures give a test, whatever the caller changed."""
    saved = {key: os.environ.get(key) for key in ("FONTCONFIG_FILE", "LANGUAGE")}
    os.environ.update(FONTCONFIG_FILE=str(fontconfig), LANGUAGE="en")
    fonts.clear_caches()
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        fonts.clear_caches()


def booklet_group(game: str, toggles: str, paper: str, layout: str, lang: str = "en") -> str:
    """The xdist group of the tests that read one booklet, whichever module they are in: they
    run in one worker, so no worker waits on another making the same booklet, and the
    booklets are made side by side. ``toggles`` names its house rules ("default" and
    "official" are the game's own)."""
    toggles = "official" if toggles == "default" else toggles
    return f"booklet-{game}-{toggles}-{paper}-{layout}-{lang}"


class Once:
    """Files made once per test run, shared by the run's xdist workers through a folder
    they all see; a lock per file makes the second asker wait for the first."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def __call__(
        self, key: tuple[Any, ...], make: Callable[[Path], None], suffix: str = ""
    ) -> Path:
        name = hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:24] + suffix
        path = self.folder / name
        if not path.exists():
            with FileLock(str(self.folder / f"{name}.lock")):
                if not path.exists():
                    part = self.folder / f"{name}.part{suffix}"
                    make(part)
                    os.replace(part, path)
        return path

    def value(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """A picklable value (pages read back from a PDF, say) computed once per run."""

        def store(path: Path) -> None:
            path.write_bytes(pickle.dumps(make()))

        return pickle.loads(self(key, store, ".pickle").read_bytes())


@pytest.fixture(scope="session")
def once(tmp_path_factory: pytest.TempPathFactory) -> Once:
    base = tmp_path_factory.getbasetemp()
    # Under xdist a worker's folder is <this run's folder>/popen-gwN: the parent is the run's.
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return Once(shared / "made-once")


@pytest.fixture(scope="session")
def rendered(
    once: Once, no_system_fonts: Path, rules_documents: Callable[..., bytes]
) -> Callable[..., Path]:
    """``rendered(*args)``: the file ``sheetgen *args -o FILE`` writes, made once a run (a
    rules document it writes comes from ``rules_documents``)."""

    def get(*args: str, suffix: str = ".pdf") -> Path:
        def make(out: Path) -> None:
            with default_conditions(no_system_fonts), pytest.MonkeyPatch.context() as patch:
                patch.setattr(sheetgen.booklet.build, "rules_document", rules_documents)
                result = CliRunner().invoke(cli, [*args, "-o", str(out)], catch_exceptions=True)
            assert result.exit_code == 0, (args, result.output, result.exception)

        return once(("sheetgen", *args), make, suffix)

    return get


class LayoutCount(logging.Handler):
    """Collects how many layouts each booklet took, as ``build_booklet`` logs it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.counts: list[int] = []

    def emit(self, record: logging.LogRecord) -> None:
        layouts = getattr(record, "layouts", None)
        if isinstance(layouts, int):
            self.counts.append(layouts)


@contextlib.contextmanager
def counting_layouts() -> Iterator[list[int]]:
    """The number of layouts of each booklet built inside the block, in order."""
    logger = logging.getLogger("sheetgen.booklet.pdf")
    handler, level = LayoutCount(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler.counts
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _document_key(
    rules: HouseRules, paper: Paper, layout: str, fmt: str, lang: Language
) -> tuple[Any, ...] | None:
    """What a rules document is made from: the game's folder, every compared field of the
    house rules, the paper, layout, format and language. None for a game from outside the
    package, whose folder a test may change."""
    folder = rules.definition.folder
    if not folder.resolve().is_relative_to(rules_dir().resolve()):
        return None
    table = tuple(
        (field.name, tuple(sorted(value.items())) if field.name == "toggles" else value)
        for field in dataclasses.fields(rules)
        if field.compare
        for value in [getattr(rules, field.name)]
    )
    return ("rules_document", str(folder), table, paper.name, layout, fmt, lang.code)


@pytest.fixture(scope="session")
def rules_documents(once: Once, no_system_fonts: Path) -> Callable[..., bytes]:
    """``rules_documents(rules, paper=..., layout="pages", fmt="pdf", lang=ENGLISH)``:
    ``sheetgen.booklet.build.rules_document``'s bytes for these house rules, made once a run in
    the default conditions (with the number of layouts it took, which ``booklet_layouts``
    reads). A game from outside the package is made afresh each time."""
    memo: dict[tuple[Any, ...], bytes] = {}

    def get(
        rules: HouseRules,
        *,
        paper: Paper,
        layout: str = "pages",
        fmt: str = "pdf",
        lang: Language = ENGLISH,
    ) -> bytes:
        key = _document_key(rules, paper, layout, fmt, lang)
        if key is None:
            return rules_document(rules, paper=paper, layout=layout, fmt=fmt, lang=lang)
        if key not in memo:

            def make(out: Path) -> None:
                # At one fixed time, whichever test asks first: a booklet made without one
                # carries the time it was made, and test_booklet_is_reproducible compared a
                # copy made at a fixed time with one made by another test at its own.
                with (
                    default_conditions(no_system_fonts),
                    counting_layouts() as counts,
                    pytest.MonkeyPatch.context() as patch,
                ):
                    patch.setenv("SOURCE_DATE_EPOCH", "1700000000")
                    document = rules_document(rules, paper=paper, layout=layout, fmt=fmt, lang=lang)
                once(("layouts", *key), lambda path: path.write_text(repr(counts)), ".txt")
                out.write_bytes(document)

            memo[key] = once(key, make, f".{fmt}").read_bytes()
        return memo[key]

    return get


@pytest.fixture
def rules_made_once(rules_documents: Callable[..., bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """For the rest of the test, ``sheetgen rules`` (and whatever else makes a rules
    document) takes it from ``rules_documents``: for tests of what is done with it."""
    monkeypatch.setattr(sheetgen.booklet.build, "rules_document", rules_documents)


def _booklet_key(
    game: str, paper: Paper, layout: str, lang: str, options: dict[str, Any]
) -> tuple[Any, ...]:
    rules = resolve(game=game, options=options)
    key = _document_key(rules, paper, layout, "pdf", language(lang))
    assert key is not None, f"{game} is not one of the package's games"
    return key


@pytest.fixture(scope="session")
def booklet_pdf(
    no_system_fonts: Path, rules_documents: Callable[..., bytes]
) -> Callable[..., bytes]:
    """``booklet_pdf(game, paper, layout, lang="en", **options)``: ``rules_document``'s PDF
    for the house rules ``options`` in the language ``lang``, made once a run (through
    ``rules_documents``)."""

    def get(
        game: str, paper: Paper, layout: str = "pages", lang: str = "en", **options: Any
    ) -> bytes:
        with default_conditions(no_system_fonts):
            rules = resolve(game=game, options=options)
        return rules_documents(rules, paper=paper, layout=layout, lang=language(lang))

    return get


@pytest.fixture(scope="session")
def booklet_layouts(once: Once, booklet_pdf: Callable[..., bytes]) -> Callable[..., list[int]]:
    """``booklet_layouts(game, paper, layout, lang="en", **options)``: how many layouts the
    booklet ``booklet_pdf`` makes for the same arguments took (one number per booklet
    built: one)."""

    def get(
        game: str, paper: Paper, layout: str = "pages", lang: str = "en", **options: Any
    ) -> list[int]:
        booklet_pdf(game, paper, layout, lang, **options)

        def missing(path: Path) -> None:
            raise AssertionError(f"no layout count for {game} {paper.name} {layout} {lang}")

        path = once(("layouts", *_booklet_key(game, paper, layout, lang, options)), missing, ".txt")
        counts: list[int] = ast.literal_eval(path.read_text())
        return counts

    return get
