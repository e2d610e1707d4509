"""Printing through a real CUPS scheduler: the jobs sheetgen sends, read back over IPP.

Each module run starts its own ``cupsd`` (see cups_scheduler.py) on a free
loopback port with two stopped file queues: ``duplex`` prints both sides,
``simplex`` one. Jobs stay pending, so their attributes come back from
Get-Jobs and their documents from the scheduler's spool.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pytest
from cups_scheduler import Scheduler, missing_programs
from pagecheck import side_texts

from sheetgen import printing

# One CUPS scheduler for the module: its tests run in one xdist worker.
pytestmark = pytest.mark.xdist_group("cups")

MISSING = missing_programs()
needs_cups = pytest.mark.skipif(
    bool(MISSING),
    reason="printing tests need a real CUPS scheduler and its clients; missing: "
    + ", ".join(MISSING)
    + " (apt-get install cups cups-client cups-ipp-utils)",
)

SERIES = {
    "title": "Friday nights",
    "players": ["Ann", "Bob"],
    "games": [{"winner": "Ann", "left": {"Bob": 7}}],
}


@pytest.fixture(scope="module")
def cups() -> Iterator[Scheduler]:
    if MISSING:
        pytest.skip("no CUPS")
    # Not under pytest's own temporary folder: cupsd runs its filters as the lp user,
    # who must be able to reach the spool and the printer's output file.
    folder = Path(tempfile.mkdtemp(prefix="sheetgen-cups-"))
    folder.chmod(0o755)
    scheduler = Scheduler(folder)
    try:
        scheduler.start()
        scheduler.add_queue("duplex", two_sided=True)
        scheduler.add_queue("simplex", two_sided=False)
        scheduler.add_queue("closed", two_sided=True)
        scheduler.run("cupsreject", "-r", "out of paper", "closed")
        scheduler.add_queue("live", two_sided=True)
        scheduler.run("cupsenable", "live")
        yield scheduler
    finally:
        scheduler.stop()
        shutil.rmtree(folder)


@pytest.fixture
def on_cups(cups: Scheduler, monkeypatch: pytest.MonkeyPatch) -> Scheduler:
    """sheetgen's own CUPS clients talk to the tests' scheduler, with no default printer."""
    for key in ("PRINTER", "LPDEST"):
        monkeypatch.delenv(key, raising=False)
    for key in ("CUPS_SERVER", "CUPS_SERVERROOT", "HOME"):
        monkeypatch.setenv(key, cups.env[key])
    monkeypatch.setenv("PATH", cups.env["PATH"])
    return cups


def new_jobs(cups: Scheduler, printer: str, before: int) -> list[dict]:
    return [job for job in cups.jobs(printer) if job["job-id"] > before]


def last_id(cups: Scheduler) -> int:
    ids = [job["job-id"] for name in ("duplex", "simplex", "live") for job in cups.jobs(name)]
    return max(ids, default=0)


def page_boxes(pdf: bytes) -> list[tuple[float, float, int]]:
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return [
            (
                round(float(page.mediabox[2])),
                round(float(page.mediabox[3])),
                int(page.obj.get("/Rotate", 0)),
            )
            for page in document.pages
        ]


# Sending jobs: the attributes CUPS holds for each.


@needs_cups
@pytest.mark.parametrize(
    ("variable", "paper", "media"), [("PRINTER", "a4", "A4"), ("LPDEST", "letter", "Letter")]
)
def test_sheet_print_goes_to_the_default_printer_with_every_option(
    runner, on_cups, monkeypatch, tmp_path, variable, paper, media
) -> None:
    monkeypatch.setenv(variable, "simplex")
    before = last_id(on_cups)
    result = runner("sheet", "--print", "--paper", paper, "--copies", "3", "--title", "Café night")
    assert result.exit_code == 0, result.output
    [job] = new_jobs(on_cups, "simplex", before)
    assert job["job-name"] == "Café night"
    assert job["media"] == media
    assert job["sides"] == "one-sided"
    assert job["print-scaling"] == "none"
    assert job["copies"] == 3
    assert job["orientation-requested"] == 4  # landscape
    assert job["multiple-document-handling"] == "separate-documents-collated-copies"
    # The printer makes the copies: the document holds one.
    document = on_cups.document(job["job-id"])
    assert len(side_texts(document)) == 1
    assert "Café night" in side_texts(document)[0]
    assert not (tmp_path / "output").exists()  # --print without -o writes no file
    request = f"simplex-{job['job-id']}"
    assert (
        f"Printing 'Café night' (3 copies, {media}, landscape, one-sided, full size): {request}"
        in result.stderr
    )


@needs_cups
def test_sheet_with_o_writes_the_file_as_asked_and_prints_copies(runner, on_cups, tmp_path) -> None:
    before = last_id(on_cups)
    result = runner("sheet", "--printer", "duplex", "--copies", "2", "-o", "s.pdf")
    assert result.exit_code == 0, result.output
    assert len(side_texts((tmp_path / "s.pdf").read_bytes())) == 2  # the file as without --print
    [job] = new_jobs(on_cups, "duplex", before)
    assert job["copies"] == 2
    assert job["sides"] == "one-sided"  # even on a printer that prints both sides
    assert len(side_texts(on_cups.document(job["job-id"]))) == 1


@needs_cups
def test_fill_print_one_sided_landscape_named_after_the_series(runner, on_cups, tmp_path) -> None:
    (tmp_path / "friday.json").write_text(json.dumps(SERIES), encoding="utf-8")
    before = last_id(on_cups)
    result = runner("fill", "friday.json", "--printer", "duplex", "--paper", "a4")
    assert result.exit_code == 0, result.output
    [job] = new_jobs(on_cups, "duplex", before)
    assert (job["job-name"], job["media"], job["sides"]) == ("Friday nights", "A4", "one-sided")
    assert (job["print-scaling"], job["orientation-requested"], job["copies"]) == ("none", 4, 1)
    document = on_cups.document(job["job-id"])
    assert all(width > height for width, height, _ in page_boxes(document))
    assert not (tmp_path / "output").exists()


@needs_cups
def test_fill_split_print_writes_each_file_and_prints_each_series(
    runner, on_cups, tmp_path
) -> None:
    for name, title in (("a", "Monday"), ("b", "Tuesday")):
        (tmp_path / f"{name}.json").write_text(json.dumps({**SERIES, "title": title}), "utf-8")
    before = last_id(on_cups)
    result = runner("fill", "a.json", "b.json", "--split", "sheets", "--printer", "simplex")
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in (tmp_path / "sheets").iterdir()) == ["a.pdf", "b.pdf"]
    jobs = new_jobs(on_cups, "simplex", before)
    assert [(job["job-name"], job["sides"]) for job in jobs] == [
        ("Monday", "one-sided"),
        ("Tuesday", "one-sided"),
    ]
    assert on_cups.document(jobs[0]["job-id"]) == (tmp_path / "sheets" / "a.pdf").read_bytes()


@needs_cups
def test_rules_without_a_score_sheet_is_one_two_sided_job(runner, on_cups, rules_made_once) -> None:
    before = last_id(on_cups)
    result = runner("rules", "--no-series", "--printer", "duplex")
    assert result.exit_code == 0, result.output
    [job] = new_jobs(on_cups, "duplex", before)
    assert (job["job-name"], job["sides"]) == ("Skip-Bo rules", "two-sided-long-edge")
    assert all(width < height for width, height, _ in page_boxes(on_cups.document(job["job-id"])))


@needs_cups
def test_rules_pages_two_sided_long_edge_and_the_score_sheet_apart(
    runner, on_cups, tmp_path, rules_made_once
) -> None:
    before = last_id(on_cups)
    result = runner("rules", "--printer", "duplex", "--paper", "a4", "-o", "rules.pdf")
    assert result.exit_code == 0, result.output
    written = (tmp_path / "rules.pdf").read_bytes()
    body, sheet = new_jobs(on_cups, "duplex", before)
    assert (body["job-name"], body["sides"], body["media"]) == (
        "Skip-Bo rules",
        "two-sided-long-edge",
        "A4",
    )
    assert (body["orientation-requested"], body["print-scaling"]) == (3, "none")
    assert (sheet["job-name"], sheet["sides"], sheet["media"]) == (
        "Skip-Bo rules - score sheet",
        "one-sided",
        "A4",
    )
    assert (sheet["orientation-requested"], sheet["print-scaling"]) == (4, "none")
    # Together the two jobs are the file, page for page: the score sheet is its last page.
    texts = side_texts(written)
    assert side_texts(on_cups.document(body["job-id"])) == texts[:-1]
    assert side_texts(on_cups.document(sheet["job-id"])) == texts[-1:]
    assert f"Wrote {tmp_path / 'rules.pdf'}\n" in result.stderr


@needs_cups
def test_folded_booklet_gives_two_jobs_short_edge_then_one_sided(
    runner, on_cups, tmp_path, rules_made_once
) -> None:
    before = last_id(on_cups)
    result = runner(
        "rules", "--layout", "booklet", "--paper", "letter", "--printer", "duplex", "-o", "b.pdf"
    )
    assert result.exit_code == 0, result.output
    written = (tmp_path / "b.pdf").read_bytes()
    folded, sheet = new_jobs(on_cups, "duplex", before)
    assert (folded["sides"], folded["media"], folded["orientation-requested"]) == (
        "two-sided-short-edge",
        "Letter",
        4,
    )
    assert (sheet["sides"], sheet["media"], sheet["orientation-requested"]) == (
        "one-sided",
        "Letter",
        4,
    )
    assert folded["print-scaling"] == sheet["print-scaling"] == "none"
    folded_pages = page_boxes(on_cups.document(folded["job-id"]))
    sheet_pages = page_boxes(on_cups.document(sheet["job-id"]))
    assert len(folded_pages) % 2 == 0  # whole sheets, front and back
    assert len(folded_pages) + len(sheet_pages) == len(page_boxes(written))
    assert side_texts(on_cups.document(sheet["job-id"])) == side_texts(written)[-1:]
    assert "Series winner:" in side_texts(on_cups.document(sheet["job-id"]))[0]


@needs_cups
def test_printed_through_cups_filters_at_full_size_on_the_paper(runner, on_cups) -> None:
    """A queue that prints: CUPS's own filters turn the job into what the printer gets."""
    before = last_id(on_cups)
    result = runner("sheet", "--printer", "live", "--paper", "a4", "--copies", "2")
    assert result.exit_code == 0, result.output
    [job] = new_jobs(on_cups, "live", before)
    deadline = time.monotonic() + 60
    while job["job-state"] != 9 and time.monotonic() < deadline:  # 9: completed
        assert job["job-state"] < 7, (job["job-state-reasons"], on_cups.log())
        time.sleep(0.2)
        [job] = new_jobs(on_cups, "live", before)
    assert job["job-state"] == 9, on_cups.log()
    printed = (on_cups.folder / "out" / "live.prn").read_bytes()
    # pdftopdf leaves the copies to the printer and says how many in the header.
    assert b"%%PDFTOPDFNumCopies : 2" in printed[:200]
    assert b"%%PDFTOPDFCollate : true" in printed[:200]
    with pikepdf.open(io.BytesIO(printed)) as document:
        assert len(document.pages) == 1
        for page in document.pages:
            # A4 paper, portrait as it goes through the printer, the landscape sheet
            # turned onto it and drawn at scale 1: nothing shrunk to fit.
            assert [round(float(v)) for v in page.mediabox] in ([0, 0, 595, 842], [0, 0, 842, 595])
            shown = _shown(page)
            assert shown == (595, 842)
            [form] = page.Resources.XObject.values()
            assert [round(float(v)) for v in form.BBox] == [0, 0, 842, 595]
            matrix = pikepdf.Matrix(form.get("/Matrix", pikepdf.Array([1, 0, 0, 1, 0, 0])))
            drawn = pikepdf.Matrix(*_page_matrix(page)) @ matrix
            assert sorted(abs(round(v, 3)) for v in (drawn.a, drawn.b, drawn.c, drawn.d)) == [
                0,
                0,
                1,
                1,
            ]


def _shown(page: pikepdf.Page) -> tuple[int, int]:
    width, height = round(float(page.mediabox[2])), round(float(page.mediabox[3]))
    return (height, width) if int(page.obj.get("/Rotate", 0)) % 180 == 90 else (width, height)


def _page_matrix(page: pikepdf.Page) -> tuple[float, ...]:
    """The transformation the page's content stream sets before drawing its one form."""
    matrix = pikepdf.Matrix()
    for operands, operator in pikepdf.parse_content_stream(page):
        if str(operator) == "cm":
            matrix = pikepdf.Matrix(*[float(v) for v in operands]) @ matrix
    return (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)


# Manual duplex on a printer that prints one side.


@needs_cups
def test_one_sided_printer_gets_fronts_a_prompt_then_backs(
    runner, on_cups, tmp_path, rules_made_once, monkeypatch
) -> None:
    monkeypatch.setattr("sheetgen.cli.shared.stdin_is_terminal", lambda: True)
    before = last_id(on_cups)
    result = runner("rules", "--printer", "simplex", "--paper", "a4", "-o", "r.pdf", input="\n")
    assert result.exit_code == 0, result.output
    texts = side_texts((tmp_path / "r.pdf").read_bytes())
    body = texts[:-1]
    fronts, backs, sheet = new_jobs(on_cups, "simplex", before)
    assert [job["sides"] for job in (fronts, backs, sheet)] == ["one-sided"] * 3
    assert fronts["job-name"] == "Skip-Bo rules (fronts)"
    assert backs["job-name"] == "Skip-Bo rules (backs)"
    assert side_texts(on_cups.document(fronts["job-id"])) == body[0::2]
    back_texts = side_texts(on_cups.document(backs["job-id"]))
    sheets = (len(body) + 1) // 2
    assert back_texts == body[1::2] + [""] * (sheets - len(body[1::2]))  # a blank after an odd page
    assert side_texts(on_cups.document(sheet["job-id"])) == texts[-1:]
    prompt = (
        f"Printing the fronts of {sheets} sheets of 'Skip-Bo rules' on simplex. When they are "
        "all out, take the stack from the output tray, turn it over without changing the "
        "order of the sheets and put it back in the paper tray with the same edge going in "
        "first. Then press Enter to print the backs."
    )
    assert prompt in result.stderr


@needs_cups
def test_manual_duplex_waits_for_the_stack_before_the_backs(on_cups, booklet_pdf) -> None:
    from sheetgen.paper import LETTER

    pdf = booklet_pdf("skip-bo", LETTER, "booklet")
    plan = printing.rules_plan(pdf, "booklet")
    printer = printing.find_printer("duplex")
    assert printer.two_sided
    before = last_id(on_cups)
    seen: list[list[str]] = []

    def ask(message: str) -> None:
        seen.append([job["job-name"] for job in new_jobs(on_cups, "duplex", before)])

    sent = printing.send(plan, printer, ask=ask, force_manual_duplex=True)
    assert seen == [["Skip-Bo rules (fronts)"]]  # nothing else was sent before the turn
    fronts, backs, sheet = new_jobs(on_cups, "duplex", before)
    assert [job["sides"] for job in (fronts, backs, sheet)] == ["one-sided"] * 3
    assert [item.request for item in sent] == [
        f"duplex-{job['job-id']}" for job in (fronts, backs, sheet)
    ]
    folded = page_boxes(plan[0].pdf)
    # Turning the stack over by hand turns each sheet on its long edge; a short-edge
    # booklet's backs are therefore sent upside down.
    assert page_boxes(on_cups.document(fronts["job-id"])) == folded[0::2]
    assert page_boxes(on_cups.document(backs["job-id"])) == [
        (width, height, (turn + 180) % 360) for width, height, turn in folded[1::2]
    ]


@needs_cups
def test_manual_duplex_stopped_at_the_prompt_sends_no_backs(
    runner, on_cups, rules_made_once, monkeypatch
) -> None:
    monkeypatch.setattr("sheetgen.cli.shared.stdin_is_terminal", lambda: True)
    before = last_id(on_cups)
    result = runner("rules", "--manual-duplex", "--printer", "duplex", input="")
    assert result.exit_code == 1
    assert [job["job-name"] for job in new_jobs(on_cups, "duplex", before)] == [
        "Skip-Bo rules (fronts)"
    ]


@needs_cups
def test_manual_duplex_without_a_terminal_sends_nothing(runner, on_cups, rules_made_once) -> None:
    """Without a terminal nobody can say when the stack is turned: refused before the
    fronts go, with what to do instead."""
    before = last_id(on_cups)
    result = runner("rules", "--manual-duplex", "--printer", "duplex")
    assert result.exit_code == 1
    assert "no terminal" in result.output and "--printer" in result.output
    assert "Aborted" not in result.output
    assert new_jobs(on_cups, "duplex", before) == []


# What CUPS says about its printers.


@needs_cups
def test_printers_lists_papers_and_sides_as_ipp_says(runner, on_cups, monkeypatch) -> None:
    monkeypatch.setenv("PRINTER", "duplex")
    result = runner("printers")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "closed            two-sided  paper: Letter (default), A4",
        "duplex   default  two-sided  paper: Letter (default), A4",
        "live              two-sided  paper: Letter (default), A4",
        "simplex           one-sided  paper: Letter (default), A4",
    ]
    for printer in printing.printers():
        sides = on_cups.printer_attributes(printer.name)["sides-supported"]
        sides = [sides] if isinstance(sides, str) else sides
        assert printer.two_sided == any(side.startswith("two-sided") for side in sides)


# Bad cases: one line, nothing lost.


@needs_cups
def test_no_default_printer_names_the_ones_there_are(runner, on_cups, tmp_path) -> None:
    result = runner("sheet", "--print", "-o", "kept.pdf")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "Error: no default printer: name one with --printer NAME (CUPS has closed, duplex, "
        "live, simplex), or choose a default with lpoptions -d NAME"
    )
    assert len(side_texts((tmp_path / "kept.pdf").read_bytes())) == 1  # the file is still written


@needs_cups
def test_no_such_printer(runner, on_cups, tmp_path, rules_made_once) -> None:
    result = runner("rules", "--printer", "office", "--layout", "booklet")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "Error: no printer called 'office': CUPS has closed, duplex, live, simplex"
    )
    assert not (tmp_path / "output").exists()


@needs_cups
def test_default_printer_that_is_not_there(runner, on_cups, monkeypatch) -> None:
    monkeypatch.setenv("PRINTER", "gone")
    result = runner("sheet", "--print")
    assert result.stderr.splitlines()[-1] == (
        "Error: no printer called 'gone' (the default printer, from PRINTER): "
        "CUPS has closed, duplex, live, simplex"
    )


@needs_cups
def test_refused_job_gives_cups_own_reason_and_keeps_the_file(runner, on_cups, tmp_path) -> None:
    result = runner("sheet", "--printer", "closed", "-o", "kept.pdf")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "Error: closed refused 'Skip-Bo score sheet': Destination \"closed\" is not accepting jobs."
    )
    assert (tmp_path / "kept.pdf").read_bytes().startswith(b"%PDF")


@needs_cups
def test_cups_not_running(runner, on_cups, monkeypatch, tmp_path) -> None:
    from cups_scheduler import free_port

    server = f"127.0.0.1:{free_port()}"
    monkeypatch.setenv("CUPS_SERVER", server)
    result = runner("sheet", "--print", "-o", "k.pdf")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        f"Error: CUPS is not running at {server}: start it (sudo systemctl start cups) and print again"
    )
    assert (tmp_path / "k.pdf").exists()
    printers_result = runner("printers")
    assert printers_result.exit_code == 1
    assert "CUPS is not running" in printers_result.stderr


def test_no_lp_says_which_package(runner, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = runner("sheet", "--print", "-o", "k.pdf")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "Error: printing needs CUPS's lp command: install CUPS's client: "
        "sudo apt-get install cups-client (Debian and Ubuntu)"
    )
    assert (tmp_path / "k.pdf").exists()


def test_print_refuses_png(runner, tmp_path) -> None:
    result = runner("sheet", "--print", "--format", "png")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: --print sends the PDF to the printer; leave out --format png"
    )
    assert not (tmp_path / "output").exists()


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["sheet"], "s.png"),
        (["sheet"], "s.html"),
        (["rules"], "r.PNG"),
        (["rules", "--layout", "booklet"], "r.html"),
        (["fill", "friday.yaml"], "f.png"),
    ],
)
def test_print_refuses_an_image_or_page_named_by_o(runner, tmp_path, command, name) -> None:
    """`-o s.png --print` wrote the PNG and then printed the PDF: refused before either."""
    result = runner(*command, "-o", name, "--print")
    assert result.exit_code == 2
    suffix = name.rsplit(".", 1)[1].lower()
    assert result.stderr.splitlines()[-1] == (
        f"Error: --print sends the PDF to the printer, but {name} names a .{suffix} file; "
        "write a .pdf or leave out --print"
    )
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


@needs_cups
def test_scheduler_stops_and_leaves_no_process(tmp_path) -> None:
    scheduler = Scheduler(tmp_path)
    scheduler.start()
    assert scheduler.process is not None
    pid = scheduler.process.pid
    scheduler.run("lpadmin", "-p", "x", "-v", "file:///dev/null", "-P", "/dev/null", check=False)
    scheduler.stop()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    config = str(tmp_path / "cupsd.conf")
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                assert config.encode() not in (entry / "cmdline").read_bytes()
            except OSError:
                continue


# The plans themselves, without a scheduler.


def test_lp_arguments_carry_every_option() -> None:
    from sheetgen.sheet.blank import blank_sheet

    [job] = printing.score_sheet_plan(blank_sheet(title="Tuesday").pdf, copies=4)
    assert printing.lp_arguments(job, "office") == [
        "lp", "-d", "office", "-t", "Tuesday", "-n", "4",
        "-o", f"media={job.media}", "-o", "print-scaling=none", "-o", "sides=one-sided",
        "-o", "orientation-requested=4",
        "-o", "multiple-document-handling=separate-documents-collated-copies",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "PageSize/Media Size: *Letter A4 Legal\nDuplex/2-Sided Printing: *None DuplexNoTumble DuplexTumble\n",
            (("Letter", "A4", "Legal"), "Letter", True),
        ),
        ("PageSize/Media Size: Letter *A4\n", (("Letter", "A4"), "A4", False)),
        ("PageSize/Page Size: *A4\nDuplex/Duplex: *None\n", (("A4",), "A4", False)),
        ("JCLDuplex/Two-Sided: *False True\n", ((), None, True)),
        ("", ((), None, False)),
    ],
)
def test_parse_lpoptions(text, expected) -> None:
    assert printing.parse_lpoptions(text) == expected


def test_ci_installs_cups_before_the_readme_test_command() -> None:
    root = Path(__file__).resolve().parent.parent
    lines = [line.strip() for line in (root / ".ci" / "run").read_text().splitlines()]
    commands = [line for line in lines if line and not line.startswith("#")]
    install = next(i for i, line in enumerate(commands) if "apt-get install" in line)
    assert {"cups", "cups-client", "cups-ipp-utils", "-y", "-qq"} <= set(commands[install].split())
    assert "export DEBIAN_FRONTEND=noninteractive" in commands[:install]
    readme = (root / "README.md").read_text()
    test_command = readme.split("<!-- test-command -->", 1)[1].split("```sh\n", 1)[1]
    assert commands[-1] == test_command.splitlines()[0].strip()
    assert install < len(commands) - 1


def test_readme_printing_section_starts_with_print() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("\n## Printing\n", 1)[1].lstrip()
    assert section.startswith("`--print`")


@pytest.mark.parametrize(
    ("papers", "warning"),
    [
        (("Letter", "A4"), None),
        (("A4.Borderless", "Letter"), None),
        ((), None),  # a printer that does not say: nothing to warn about
        (
            ("Letter", "Legal"),
            "office lists no A4 paper (it has Letter, Legal); --paper chooses the document's paper",
        ),
    ],
)
def test_paper_warning(papers, warning) -> None:
    from sheetgen.paper import A4
    from sheetgen.sheet.blank import blank_sheet

    plan = printing.score_sheet_plan(blank_sheet(paper=A4).pdf)
    printer = printing.Printer("office", False, True, papers, papers[0] if papers else None)
    assert printing.paper_warning(plan, printer) == warning


def _fake_cups(folder: Path, printer: str) -> Path:
    """lpstat and lpoptions that answer like CUPS for one queue named ``printer``: a
    hostile name (CUPS takes almost any byte in a queue name over IPP)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    answers = {
        "lpstat": '[ "$1" = -r ] && echo "scheduler is running"\n'
        '[ "$1" = -e ] && printf "%s\\n" "$PRINTER_NAME"\n'
        '[ "$1" = -d ] && printf "system default destination: %s\\n" "$PRINTER_NAME"\n'
        "exit 0\n",
        "lpoptions": 'printf "PageSize/Media Size: *Letter A4 \\033[2J\\n"\n',
        "lp": 'printf "lp: \\033]0;owned\\007 %s refused\\n" "$PRINTER_NAME" >&2\nexit 1\n',
    }
    for name, body in answers.items():
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\n{body}", encoding="utf-8")
        script.chmod(0o755)
    return bin_dir


HOSTILE_PRINTER = "office\x1b[2J\x1b]0;pwned\x07\u202eboss"
HOSTILE_SHOWN = "office\\x1b[2J\\x1b]0;pwned\\x07\\u202eboss"


def test_printer_names_with_control_characters_are_shown_escaped(
    runner, monkeypatch, tmp_path
) -> None:
    bin_dir = _fake_cups(tmp_path, HOSTILE_PRINTER)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv("PRINTER_NAME", HOSTILE_PRINTER)
    result = runner("printers")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"{HOSTILE_SHOWN}  default  one-sided  paper: Letter (default), A4, \\x1b[2J\n"
    )
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    result = runner("sheet", "--print", "-o", "k.pdf")
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"Error: {HOSTILE_SHOWN} refused 'Skip-Bo score sheet': "
        f"\\x1b]0;owned\\x07 {HOSTILE_SHOWN} refused"
    )
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    result = runner("sheet", "--print", "--printer", "x\x1by", "-o", "k.pdf")
    assert result.stderr.splitlines()[-1] == (
        f"Error: no printer called 'x\\x1by': CUPS has {HOSTILE_SHOWN}"
    )
