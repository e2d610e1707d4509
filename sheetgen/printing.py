"""Printing through CUPS: each document's print plan, sent with CUPS's own ``lp``.

A plan is a list of plain jobs (a PDF and the options it must be printed
with), built from what sheetgen knows of each document: its paper, which
pages are read two-sided and on which edge they turn, which pages are the
score sheet. Printers that cannot print both sides get manual duplex: the
fronts, a pause while the stack goes back in turned over, then the backs.

Only CUPS's command-line clients are used (``lp``, ``lpstat``, ``lpoptions``
from Debian's cups-client), so ``CUPS_SERVER``, ``PRINTER``, ``LPDEST`` and
the user's lpoptions defaults work as they do for ``lp`` itself.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sheetgen.errors import PrintError
from sheetgen.paper import PAPERS

# pikepdf (about 0.1 s to import) is loaded only when a document is really printed.
if TYPE_CHECKING:
    import pikepdf

Sides = Literal["one-sided", "two-sided-long-edge", "two-sided-short-edge"]
TWO_SIDED: tuple[Sides, ...] = ("two-sided-long-edge", "two-sided-short-edge")
# The names lp and every PPD know the two papers by.
MEDIA = {"letter": "Letter", "a4": "A4"}
# IPP's orientation-requested values.
PORTRAIT, LANDSCAPE = 3, 4
# How far a page may be from a paper size and still be on it, in points.
SIZE_SLACK = 2.0
# PPD options by which printers say they print both sides; CUPS reads the same ones.
DUPLEX_OPTIONS = ("Duplex", "JCLDuplex", "EFDuplex", "EFDuplexing", "KD03Duplex", "ARDuplex")
ONE_SIDED_CHOICES = frozenset({"none", "off", "false", "simplex"})
CUPS_TIMEOUT = 60.0
# imposition draws the pages of a folded sheet as forms named /Page0, /Page1.
IMPOSED_FORM = re.compile(r"/Page\d+")
INSTALL_HINT = "install CUPS's client: sudo apt-get install cups-client (Debian and Ubuntu)"


def shown(text: str) -> str:
    """Text CUPS gave (a printer's name, a paper size, an answer) as it may be shown:
    control and format characters written as escapes (``\\x1b``), so a queue named with
    terminal escape sequences cannot clear or rewrite the user's screen."""
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp")
        else char
        for char in text
    )


@dataclass(frozen=True)
class Job:
    """One print job: a PDF and the options that print it as sheetgen laid it out."""

    pdf: bytes
    title: str
    media: str
    sides: Sides
    landscape: bool
    copies: int = 1


@dataclass(frozen=True)
class Request:
    """What the user asked for: a printer (None: the default) and whether to force manual duplex."""

    printer: str | None
    manual_duplex: bool = False


SIDES_SAID: dict[str, str] = {
    "one-sided": "one-sided",
    "two-sided-long-edge": "two-sided, turning on the long edge",
    "two-sided-short-edge": "two-sided, turning on the short edge",
}


def describe(job: Job) -> str:
    """How ``job`` is printed, in words: ``2 copies, A4, landscape, one-sided, full size``."""
    copies = "1 copy" if job.copies == 1 else f"{job.copies} copies"
    turn = "landscape" if job.landscape else "portrait"
    return f"{copies}, {job.media}, {turn}, {SIDES_SAID[job.sides]}, full size"


@dataclass(frozen=True)
class TurnStack:
    """Manual duplex: the fronts of ``sheets`` sheets are out; the stack goes back in."""

    title: str
    sheets: int

    def message(self, printer: str) -> str:
        sheets = "1 sheet" if self.sheets == 1 else f"{self.sheets} sheets"
        return (
            f"Printing the fronts of {sheets} of {self.title!r} on {printer}. When they are "
            "all out, take the stack from the output tray, turn it over without changing the "
            "order of the sheets and put it back in the paper tray with the same edge going "
            "in first. Then press Enter to print the backs."
        )


Step = Job | TurnStack


@dataclass(frozen=True)
class Printer:
    """A printer as CUPS describes it: its paper sizes and whether it prints both sides."""

    name: str
    default: bool
    two_sided: bool
    papers: tuple[str, ...]
    default_paper: str | None


@dataclass(frozen=True)
class Sent:
    """A job CUPS accepted: its request id and what was asked of it."""

    request: str
    job: Job


# Plans: which jobs print a document.


def score_sheet_plan(pdf: bytes, copies: int = 1) -> list[Job]:
    """A blank or filled score sheet: one-sided, landscape, ``copies`` printed copies."""
    return [_job(pdf, "one-sided", copies=copies)]


def rules_plan(pdf: bytes, layout: str) -> list[Job]:
    """The rules: read two-sided, the score sheet at the end as a job of its own, one-sided.

    ``pages`` turns on the long edge; the folded ``booklet`` turns on the short
    edge, as a sheet folded down its middle must.
    """
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        pages = list(document.pages)
        if layout == "booklet":
            whole = _trailing(pages, lambda page: not _is_imposed_side(page))
        else:
            whole = _trailing(pages, _is_landscape)
        if whole == len(pages):
            whole = 0
        body = _pages_pdf(document, range(len(pages) - whole))
        sheet = _pages_pdf(document, range(len(pages) - whole, len(pages))) if whole else None
    sides: Sides = "two-sided-short-edge" if layout == "booklet" else "two-sided-long-edge"
    jobs = [_job(body, sides)]
    if sheet is not None:
        jobs.append(_job(sheet, "one-sided", title=f"{jobs[0].title} - score sheet"))
    return jobs


def _job(pdf: bytes, sides: Sides, *, copies: int = 1, title: str | None = None) -> Job:
    """A job for ``pdf`` with the paper and orientation its pages show and its own title."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        page = document.pages[0]
        width, height = _shown_size(page)
        media = _media(width, height)
        name = title or str(document.docinfo.get("/Title", "")).strip() or "sheetgen"
    return Job(pdf, name, media, sides, landscape=width > height, copies=copies)


def _media(width: float, height: float) -> str:
    short, long = sorted((width, height))
    for paper in PAPERS.values():
        if abs(paper.width - short) <= SIZE_SLACK and abs(paper.height - long) <= SIZE_SLACK:
            return MEDIA[paper.name]
    raise PrintError(f"a page of {width:.0f} x {height:.0f} pt is neither Letter nor A4")


def _shown_size(page: pikepdf.Page) -> tuple[float, float]:
    box = page.mediabox
    width = abs(float(box[2]) - float(box[0]))
    height = abs(float(box[3]) - float(box[1]))
    turned = int(page.obj.get("/Rotate", 0)) % 180 == 90
    return (height, width) if turned else (width, height)


def _is_landscape(page: pikepdf.Page) -> bool:
    width, height = _shown_size(page)
    return width > height


def _is_imposed_side(page: pikepdf.Page) -> bool:
    """A side of a folded sheet: imposition draws the booklet's pages on it as forms, nothing else.

    The score sheet after the folded sheets is a page of its own, with its own fonts.
    """
    import pikepdf

    resources = page.obj.get("/Resources", pikepdf.Dictionary())
    if set(resources.keys()) != {"/XObject"}:
        return False
    return all(IMPOSED_FORM.fullmatch(str(name)) for name in resources.XObject)


def _trailing(pages: Sequence[pikepdf.Page], test: Callable[[pikepdf.Page], bool]) -> int:
    count = 0
    while count < len(pages) and test(pages[len(pages) - 1 - count]):
        count += 1
    return count


def _pages_pdf(
    document: pikepdf.Pdf, numbers: Sequence[int], *, turn: bool = False, blank: bool = False
) -> bytes:
    """A PDF of the pages ``numbers`` of ``document`` (0-based), each turned 180 degrees
    if ``turn``, with a blank page of the last page's size added if ``blank``."""
    import pikepdf

    out = io.BytesIO()
    with pikepdf.new() as part:
        for number in numbers:
            part.pages.append(document.pages[number])
            if turn:
                part.pages[-1].rotate(180, relative=True)
        if blank:
            box = part.pages[-1].mediabox
            part.add_blank_page(page_size=(float(box[2]), float(box[3])))
        for key, value in document.docinfo.items():
            part.docinfo[key] = part.copy_foreign(value) if value.is_indirect else value
        part.save(out, deterministic_id=True)
    return out.getvalue()


def manual_duplex(plan: Sequence[Job]) -> list[Step]:
    """The plan for a printer that prints one side: each two-sided job as fronts, turn, backs.

    The stack goes back in turned over with the same edge first, which turns
    each sheet on the edge parallel to its travel: the long edge of the paper.
    Backs of a short-edge job are therefore printed upside down. The backs
    job holds one page per sheet (a blank one after an odd last page) so that
    CUPS can put it in the printer's own output order, as it did the fronts:
    on a printer that stacks face up it prints both jobs last page first.
    """
    import pikepdf

    steps: list[Step] = []
    for job in plan:
        if job.sides not in TWO_SIDED:
            steps.append(job)
            continue
        with pikepdf.open(io.BytesIO(job.pdf)) as document:
            count = len(document.pages)
            fronts = _pages_pdf(document, range(0, count, 2))
            backs = (
                _pages_pdf(
                    document,
                    range(1, count, 2),
                    turn=job.sides == "two-sided-short-edge",
                    blank=count % 2 == 1,
                )
                if count > 1
                else None
            )
        steps.append(Job(fronts, f"{job.title} (fronts)", job.media, "one-sided", job.landscape))
        if backs is not None:
            steps.append(TurnStack(job.title, (count + 1) // 2))
            steps.append(Job(backs, f"{job.title} (backs)", job.media, "one-sided", job.landscape))
    return steps


# lp and its options.


def lp_arguments(job: Job, printer: str) -> list[str]:
    """The ``lp`` command line that prints ``job`` (sent on standard input) on ``printer``."""
    options = [
        f"media={job.media}",
        "print-scaling=none",
        f"sides={job.sides}",
        f"orientation-requested={LANDSCAPE if job.landscape else PORTRAIT}",
    ]
    if job.copies > 1:
        options.append("multiple-document-handling=separate-documents-collated-copies")
    arguments = ["lp", "-d", printer, "-t", job.title, "-n", str(job.copies)]
    for option in options:
        arguments += ["-o", option]
    return arguments


# Asking CUPS.


def _environment(environ: Mapping[str, str] | None) -> dict[str, str]:
    # CUPS's clients speak the user's language; sheetgen reads their answers in English.
    env = dict(os.environ if environ is None else environ)
    env.update(LC_ALL="C", LANG="C")
    return env


def _run(
    arguments: Sequence[str], env: Mapping[str, str], data: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    program = shutil.which(arguments[0], path=env.get("PATH"))
    if program is None:
        raise PrintError(f"printing needs CUPS's {arguments[0]} command: {INSTALL_HINT}")
    try:
        return subprocess.run(
            list(arguments),
            executable=program,
            input=data if data is not None else b"",
            capture_output=True,
            env=dict(env),
            timeout=CUPS_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise PrintError(
            f"CUPS did not answer {arguments[0]} within {CUPS_TIMEOUT:.0f} s"
        ) from None
    except OSError as exc:
        raise PrintError(f"could not run {program}: {exc.strerror}") from None


def _said(result: subprocess.CompletedProcess[bytes]) -> str:
    """What a CUPS client said, without its own name in front."""
    text = (result.stderr or result.stdout).decode("utf-8", "replace").strip()
    line = text.splitlines()[-1] if text else f"exit status {result.returncode}"
    for prefix in ("lp: ", "lpstat: ", "lpoptions: ", "Error - "):
        line = line.removeprefix(prefix)
    return shown(line)


def _require_scheduler(env: Mapping[str, str]) -> None:
    result = _run(["lpstat", "-r"], env)
    if b"scheduler is running" not in result.stdout:
        where = f" at {env['CUPS_SERVER']}" if env.get("CUPS_SERVER") else ""
        raise PrintError(
            f"CUPS is not running{where}: start it (sudo systemctl start cups) and print again"
        )


def _names(env: Mapping[str, str]) -> list[str]:
    result = _run(["lpstat", "-e"], env)
    return [line.strip() for line in result.stdout.decode("utf-8", "replace").splitlines() if line]


def _default_name(env: Mapping[str, str]) -> tuple[str | None, str]:
    """The printer ``lp`` prints on when none is named, and where that choice comes from.

    lp takes LPDEST, then PRINTER, then the user's lpoptions default, then
    CUPS's; lpstat reports the choice only when it names a printer that exists.
    """
    result = _run(["lpstat", "-d"], env)
    text = result.stdout.decode("utf-8", "replace")
    _, sep, name = text.partition("system default destination:")
    if sep and name.strip():
        return name.strip(), "the default printer"
    for variable in ("LPDEST", "PRINTER"):
        value = env.get(variable, "").strip()
        if value and not (variable == "PRINTER" and value == "lp"):
            return value, f"the default printer, from {variable}"
    return None, ""


def parse_lpoptions(text: str) -> tuple[tuple[str, ...], str | None, bool]:
    """Paper sizes, the default one and two-sidedness from ``lpoptions -p NAME -l``."""
    papers: tuple[str, ...] = ()
    default: str | None = None
    two_sided = False
    for line in text.splitlines():
        key, sep, choices = line.partition(":")
        if not sep:
            continue
        option = key.split("/", 1)[0].strip()
        values = choices.split()
        if option == "PageSize":
            papers = tuple(value.lstrip("*") for value in values)
            default = next((value[1:] for value in values if value.startswith("*")), None)
        elif option in DUPLEX_OPTIONS:
            two_sided = two_sided or any(
                value.lstrip("*").lower() not in ONE_SIDED_CHOICES for value in values
            )
    return papers, default, two_sided


def _describe(name: str, default: bool, env: Mapping[str, str]) -> Printer:
    result = _run(["lpoptions", "-p", name, "-l"], env)
    # A queue without a PPD (a raw queue) has no options to read: it prints one side.
    text = result.stdout.decode("utf-8", "replace") if result.returncode == 0 else ""
    papers, paper, two_sided = parse_lpoptions(text)
    return Printer(name, default, two_sided, papers, paper)


def printers_text(found: Sequence[Printer]) -> str:
    """The printers as lines for a terminal: name, default, sides and paper sizes."""
    if not found:
        return "CUPS knows no printers yet: add one in the system's printer settings.\n"
    width = max(len(shown(printer.name)) for printer in found)
    lines = []
    for printer in found:
        papers = [
            f"{shown(paper)} (default)" if paper == printer.default_paper else shown(paper)
            for paper in printer.papers
        ]
        lines.append(
            f"{shown(printer.name):<{width}}  {'default' if printer.default else '':<7}  "
            f"{'two-sided' if printer.two_sided else 'one-sided'}  "
            f"paper: {', '.join(papers) or 'not said'}".rstrip()
        )
    return "\n".join(lines) + "\n"


def printers(environ: Mapping[str, str] | None = None) -> list[Printer]:
    """Every printer CUPS knows, the default one marked."""
    env = _environment(environ)
    _require_scheduler(env)
    default, _ = _default_name(env)
    return [_describe(name, name == default, env) for name in _names(env)]


def find_printer(name: str | None, environ: Mapping[str, str] | None = None) -> Printer:
    """The printer called ``name``, or the one ``lp`` would choose; a clear error if none."""
    env = _environment(environ)
    if shutil.which("lp", path=env.get("PATH")) is None:
        raise PrintError(f"printing needs CUPS's lp command: {INSTALL_HINT}")
    _require_scheduler(env)
    names = _names(env)
    there = f"CUPS has {', '.join(map(shown, names))}" if names else "CUPS has no printers yet"
    default, chosen_by = _default_name(env)
    wanted = name or default
    if wanted is None:
        raise PrintError(
            f"no default printer: name one with --printer NAME ({there}), "
            "or choose a default with lpoptions -d NAME"
        )
    if wanted.split("/", 1)[0] not in names:
        how = "" if name else f" ({chosen_by})"
        raise PrintError(f"no printer called {shown(repr(wanted))}{how}: {there}")
    return _describe(wanted, wanted == default, env)


def paper_warning(plan: Sequence[Job], printer: Printer) -> str | None:
    """A warning when ``printer`` lists its paper sizes and the plan's paper is not among them."""
    loaded = {paper.split(".", 1)[0].lower() for paper in printer.papers}
    wanted = sorted({job.media for job in plan if job.media.lower() not in loaded})
    if not printer.papers or not wanted:
        return None
    return (
        f"{shown(printer.name)} lists no {' or '.join(wanted)} paper (it has "
        f"{', '.join(map(shown, printer.papers))}); --paper chooses the document's paper"
    )


def turns_by_hand(plan: Sequence[Job], printer: Printer, force_manual_duplex: bool) -> bool:
    """Whether printing ``plan`` on ``printer`` stops for the stack to be turned by hand."""
    steps = manual_duplex(plan) if force_manual_duplex or not printer.two_sided else plan
    return any(isinstance(step, TurnStack) for step in steps)


def send(
    plan: Sequence[Job],
    printer: Printer,
    *,
    ask: Callable[[str], None],
    report: Callable[[Sent], None] | None = None,
    force_manual_duplex: bool = False,
    environ: Mapping[str, str] | None = None,
) -> list[Sent]:
    """Print ``plan`` on ``printer``; ``ask`` shows a manual-duplex message and waits.

    ``report`` hears of each job as CUPS accepts it.

    Two-sided jobs go as they are to a printer that prints both sides, as
    fronts and backs otherwise (or when ``force_manual_duplex``).
    """
    env = _environment(environ)
    steps: Sequence[Step] = (
        manual_duplex(plan) if force_manual_duplex or not printer.two_sided else plan
    )
    sent = []
    for step in steps:
        if isinstance(step, TurnStack):
            ask(step.message(shown(printer.name)))
            continue
        result = _run(lp_arguments(step, printer.name), env, step.pdf)
        if result.returncode != 0:
            raise PrintError(f"{shown(printer.name)} refused {step.title!r}: {_said(result)}")
        answer = result.stdout.decode("utf-8", "replace")
        request = shown(answer.removeprefix("request id is ").split(" ", 1)[0].strip())
        sent.append(Sent(request, step))
        if report is not None:
            report(sent[-1])
    return sent
