"""Benchmark sheetgen as a user meets it: whole processes, timed side by side with baselines.

Run by hand from the repository root (pytest never collects this file)::

    python tests/perf/bench.py            # 7 runs of each single command, 3 of each batch
    python tests/perf/bench.py --quick    # 3 runs, 200 series, 1 run of each batch: a first look
    python tests/perf/bench.py --stages   # where the time of a batch and a booklet goes
    python tests/perf/bench.py --limits   # only the series files at the limits (issue 28)
    python tests/perf/bench.py --caches   # only the caches of `sheetgen rules` (issue 29)

Every measurement is a fresh process started with ``posix_spawn`` and reaped with
``os.wait4``, which returns the resource usage of that one child (and of the
children it waited for): wall time from the clock around it, processor time (user
and system, workers included) and peak memory from its ``ru_maxrss``. On a shared
machine the wall time drifts with the load; the processor time much less, so every
ratio is given both ways. For the batches, which may render in worker processes, the memory
of the whole process tree is also sampled from /proc, since a per-process peak
would hide the sum of the workers (sampled in the untimed warm-up run only). Each time is
the median of several runs; bytecode is cached as an installed copy's is (see child_env).

The baselines run in the same session under the same conditions: a minimal
reportlab script drawing a comparable grid with the same embedded typeface, a
bare weasyprint render of a one-line page (and of the booklet's own HTML), and
headless Chromium printing an HTML version of the sheet when /usr/bin/chromium is
there. The 1000 series of the batch are made from a seeded random generator, in the
real series format; so are the long series (the most games a series holds) that
``standings`` reads in YAML, JSON and CSV, the YAML as ``record`` writes it, each format
against JSON.

Series files at the limits (issue 28): every command that reads a series file answers in
under 10 s and 1 GB on the project's two-core machine, for the longest series a file may
hold (six players, padded to the byte limit with what costs ``record`` most) and for the
files of that size that cost a reader most per byte, which it refuses. Each is judged in
absolute terms, and shown against ``standings`` of the longest series in JSON.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "sheetgen" / "fonts" / "DejaVuSans.ttf"
FONT_BOLD = ROOT / "sheetgen" / "fonts" / "DejaVuSans-Bold.ttf"
SHEETGEN = [sys.executable, "-m", "sheetgen"]
CHROMIUM = Path("/usr/bin/chromium")
TASKSET = shutil.which("taskset")
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
STOCK = {2: 30, 3: 30, 4: 30, 5: 20, 6: 20}

# A grid like the score sheet's: title, target band, six sides of points and totals, ten games.
MINIMAL_REPORTLAB = """
import sys
from reportlab.lib.pagesizes import landscape, letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

out, regular, bold = sys.argv[1:4]
pdfmetrics.registerFont(TTFont("R", regular))
pdfmetrics.registerFont(TTFont("B", bold))
width, height = landscape(letter)
c = Canvas(out, pagesize=(width, height))
left, right, top = 30, width - 30, height - 30
c.setFont("B", 18)
c.drawString(left, top - 18, "Skip-Bo score sheet")
c.setFont("R", 10)
c.drawString(right - 300, top - 18, "Date ____________  Place ________________")
c.setLineWidth(1.6)
c.rect(left, top - 56, right - left, 24)
c.setFont("B", 13)
c.drawCentredString(width / 2, top - 48, "Target: 500 points. The first to reach 500 wins.")
rows, sides, row = 10, 6, 34.0
table_top = top - 90
column = (right - left - 44) / sides
bottom = table_top - 45 - rows * row - 26
c.setLineWidth(1.4)
c.rect(left, bottom, right - left, table_top - bottom)
for side in range(sides):
    x = left + 44 + side * column
    c.line(x, bottom, x, table_top)
    c.setLineWidth(0.5)
    c.line(x + column / 2, bottom, x + column / 2, table_top - 30)
    c.setLineWidth(1.4)
    c.setFont("B", 12)
    c.drawCentredString(x + column / 2, table_top - 20, f"Player {side + 1}")
    c.setFont("R", 9)
    c.drawCentredString(x + column / 4, table_top - 42, "Points")
    c.drawCentredString(x + 3 * column / 4, table_top - 42, "Total")
c.setLineWidth(0.5)
for game in range(rows + 1):
    y = table_top - 45 - game * row
    c.line(left, y, right, y)
    if game < rows:
        c.setFont("B", 12)
        c.drawCentredString(left + 22, y - row / 2 - 4, str(game + 1))
c.setFont("B", 10)
c.drawCentredString(left + 22, bottom + 9, "Total")
c.setFont("R", 9)
c.drawString(left, bottom - 18, "Scoring: the winner scores 25 plus 5 per card left in other stock piles.")
c.showPage()
c.save()
"""

BARE_WEASYPRINT = """
import sys
from weasyprint import HTML
HTML(string="<p>Skip-Bo</p>").write_pdf(sys.argv[1])
"""


# The booklet's own HTML (written once by booklet_html), rendered by weasyprint alone: the
# time `sheetgen rules` is held to (issue 11: within 1.15x of it). A fourth argument names
# the PDF variant: like with like, the booklet is a tagged PDF/UA-1 (pdf/ua-1).
BARE_BOOKLET = """
import sys
from pathlib import Path
from weasyprint import HTML
variant = sys.argv[4] if len(sys.argv) > 4 else None
html = HTML(string=Path(sys.argv[1]).read_text(encoding="utf-8"), base_url=sys.argv[3])
html.write_pdf(sys.argv[2], pdf_variant=variant)
"""


def booklet_html(path: Path) -> str:
    """Write the official Skip-Bo booklet's HTML (Letter) to ``path``; return the base URL."""
    sys.path.insert(0, str(ROOT))
    from sheetgen.booklet.html import render_html
    from sheetgen.game.houserules import resolve
    from sheetgen.paper import LETTER
    from sheetgen.resources import templates_dir

    path.write_text(render_html(resolve(), paper=LETTER), encoding="utf-8")
    return templates_dir().as_uri()


def sheet_html() -> str:
    """The score sheet's grid as an HTML page, for the Chromium baseline."""
    head = "".join(f"<th colspan=2>Player {n}</th>" for n in range(1, 7))
    sub = "<th>Points</th><th>Total</th>" * 6
    body = "".join(f"<tr><th>{g}</th>" + "<td></td>" * 12 + "</tr>" for g in range(1, 11))
    return (
        "<!doctype html><html><head><style>@page{size:letter landscape;margin:30pt}"
        "body{font-family:'DejaVu Sans',sans-serif}"
        "table{width:100%;border-collapse:collapse}td,th{border:1px solid #000;height:30pt}"
        "</style></head><body><h1>Skip-Bo score sheet</h1>"
        "<p><b>Target: 500 points. The first to reach 500 wins.</b></p>"
        f"<table><tr><th>Game</th>{head}</tr><tr><th></th>{sub}</tr>{body}"
        "<tr><th>Total</th>" + "<td></td>" * 12 + "</tr></table></body></html>"
    )


# Series files ------------------------------------------------------------


def make_series(rng: random.Random, games: int = 10) -> str:
    """A valid series file (YAML) of ``games`` games in which no game follows the winning one."""
    players = rng.randint(2, 6)
    names = NAMES[:players]
    stock = STOCK[players]
    while True:
        totals = dict.fromkeys(names, 0)
        lines = []
        for number in range(1, games + 1):
            winner = rng.choice(names)
            left = {name: rng.randint(1, min(stock, 6)) for name in names if name != winner}
            totals[winner] += 25 + 5 * sum(left.values())
            if number < games and max(totals.values()) >= 500:
                break
            counts = ", ".join(f"{name}: {n}" for name, n in left.items())
            lines.append(f"  - winner: {winner}\n    left: {{{counts}}}\n")
        else:
            return (
                f"title: Table {rng.randint(1, 99)}\ntarget: 500\nstock: {stock}\n"
                f"players: [{', '.join(names)}]\ngames:\n" + "".join(lines)
            )


def write_series(folder: Path, count: int, seed: int = 8) -> list[Path]:
    """``count`` series files in ``folder``, the same ones for the same seed."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"series-{index:04d}.yaml"
        path.write_text(make_series(rng), encoding="utf-8")
        paths.append(path)
    return paths


def write_long_series(
    folder: Path,
    games: int,
    scoring: str,
    names: tuple[str, ...] = tuple(NAMES[:3]),
    pad_to: int = 0,
) -> dict[str, Path]:
    """One series of ``games`` games in YAML and JSON (both as ``record`` writes them) and
    CSV; the same games in each. With ``pad_to``, each file is filled up to that many bytes
    at its end with what costs ``record`` most and the reader least: YAML comment lines,
    blank lines in JSON and CSV."""
    rng = random.Random(14)
    stock = STOCK[len(names)]
    played = []
    for _ in range(games):
        winner = rng.choice(names)
        played.append((winner, {name: rng.randint(1, stock) for name in names if name != winner}))
    # A target no series of this length reaches, so that every game counts.
    goal = ("games_to_play", games) if scoring == "cards-left" else ("target", 100 * 25 * games)
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"long-{scoring}-{len(names)}"
    lines = [f"scoring: {scoring}\n{goal[0]}: {goal[1]}\nstock: {stock}\n"]
    lines.append(f"players: [{', '.join(names)}]\ngames:\n")
    for winner, left in played:
        counts = ", ".join(f"{name}: {n}" for name, n in left.items())
        lines.append(f"  - winner: {winner}\n    left: {{{counts}}}\n")
    data = {"scoring": scoring, goal[0]: goal[1], "stock": stock, "players": names}
    data["games"] = [{"winner": winner, "left": left} for winner, left in played]
    rows = [f"scoring,{scoring}", f"{goal[0]},{goal[1]}", "game,winner," + ",".join(names)]
    for number, (winner, left) in enumerate(played, 1):
        rows.append(f"{number},{winner}," + ",".join(str(left.get(n, 0)) for n in names))
    texts = {
        "yaml": ("".join(lines), "#\n"),
        "json": (json.dumps(data, indent=2) + "\n", "\n"),
        "csv": ("\n".join(rows) + "\n", "\n"),
    }
    paths = {}
    for fmt, (text, pad) in texts.items():
        paths[fmt] = stem.with_suffix(f".{fmt}")
        size = len(text.encode("utf-8"))
        paths[fmt].write_text(text + pad * max(0, (pad_to - size) // len(pad)), encoding="utf-8")
    return paths


# What costs a reader most for each byte: the most values (one-letter names in a flow list)
# or the most lists (empty ones) in YAML and JSON; the most rows (team rows before any
# header) or cells (a header of one-letter players) in CSV. Each file is refused. The text
# before, the text repeated, the text after.
COSTLIEST = {
    "names.yaml": ("players: [", "a,", "a]\n"),
    "lists.yaml": ("games: [", "[],", "[]]\n"),
    "lists.json": ('{"games": [', "[],", "[]]}"),
    "teams.csv": ("", "team,a,b\n", ""),
    "players.csv": ("game,winner,", "p,", "p\n"),
}


def write_costliest_series(folder: Path, size: int) -> dict[str, Path]:
    """The files of COSTLIEST, each as near ``size`` bytes as its repeated text allows."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, (head, unit, tail) in COSTLIEST.items():
        paths[name] = folder / name
        repeats = (size - len(head) - len(tail)) // len(unit)
        paths[name].write_text(head + unit * repeats + tail, encoding="utf-8")
    return paths


# Measuring ---------------------------------------------------------------


@dataclass
class Run:
    seconds: float
    maxrss_mb: float
    tree_mb: float
    cpu: float = 0.0  # user + system seconds of the process and the children it waited for


@dataclass
class Measure:
    label: str
    runs: list[Run] = field(default_factory=list)
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(run.seconds for run in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(run.cpu for run in self.runs)

    @property
    def peak_mb(self) -> float:
        return max(max(run.maxrss_mb, run.tree_mb) for run in self.runs)


def _tree_rss_kb(root: int) -> int:
    """Resident memory of ``root`` and all its descendants, from /proc (0 if gone)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(stat[1]), []).append(pid)
        rss[pid] = int(stat[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        total += rss.get(pid, 0)
        pending.extend(children.get(pid, []))
    return total


def child_env(work: Path) -> dict[str, str]:
    """The environment of every measured process: bytecode cached, as after ``pip install``.

    An editable install under PYTHONDONTWRITEBYTECODE would compile every sheetgen module
    from source on every run, which no installed copy does; the cache goes in the work folder.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    return env


def run_once(argv: list[str], cwd: Path, sample_tree: bool = False, refused: bool = False) -> Run:
    """Run one process to the end; its wall time and peak memory. Fails loudly on exit != 0,
    or if ``refused``, on anything but exit 1 with one ``Error:`` line."""
    log = cwd / ".bench-stderr"
    with open(log, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, env=child_env(cwd)
        )
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.02):
                peak[0] = max(peak[0], _tree_rss_kb(proc.pid))

        sampler = threading.Thread(target=sample) if sample_tree else None
        if sampler:
            sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        if sampler:
            sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
    said = log.read_text(errors="replace")
    clean_refusal = said.startswith("Error: ") and len(said.splitlines()) == 1
    if proc.returncode != (1 if refused else 0) or (refused and not clean_refusal):
        raise SystemExit(f"{' '.join(argv)[:300]} exited {proc.returncode}:\n{said[-2000:]}")
    return Run(seconds, usage.ru_maxrss / 1024, peak[0] / 1024, usage.ru_utime + usage.ru_stime)


def measure(
    label: str, argv: list[str], cwd: Path, runs: int, sample_tree: bool = False
) -> Measure:
    """Time one command ``runs`` times in a row (for the batches)."""
    return measure_interleaved({label: argv}, cwd, runs, sample_tree)[label]


def measure_interleaved(
    commands: dict[str, list[str]],
    cwd: Path,
    runs: int,
    sample_tree: bool = False,
    refused: frozenset[str] = frozenset(),
) -> dict[str, Measure]:
    """Time every command ``runs`` times, round by round, so drift in the machine's load
    falls on a command and its baseline alike. The commands labelled in ``refused`` must
    refuse their input."""
    results = {label: Measure(label) for label in commands}
    # The warm-up fills the page cache and the bytecode cache and is not timed; for a batch it
    # also samples the process tree's memory, since walking /proc would slow the timed runs.
    warm = {
        label: run_once(argv, cwd, sample_tree, label in refused)
        for label, argv in commands.items()
    }
    for _ in range(runs):
        for label, argv in commands.items():
            results[label].runs.append(run_once(argv, cwd, refused=label in refused))
    for label, result in results.items():
        result.runs[0].tree_mb = warm[label].tree_mb
        print(
            f"  {label}: {result.median:.3f} s, {result.cpu:.3f} s CPU, {result.peak_mb:.0f} MB",
            file=sys.stderr,
        )
    return results


def has_command(name: str) -> bool:
    done = subprocess.run([*SHEETGEN, name, "--help"], capture_output=True, check=False)
    return done.returncode == 0


def pinned(argv: list[str], cores: str) -> list[str]:
    return [TASKSET, "-c", cores, *argv] if TASKSET else argv


# The table ---------------------------------------------------------------


@dataclass
class Row:
    what: str
    seconds: str
    memory: str
    compared: str
    target: str
    verdict: str
    cpu: str = ""


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "**missed**")


STAGES = """
import sys, time
from pathlib import Path

def lap(label, start):
    print(f"  {label:<54} {1000 * (time.perf_counter() - start):6.0f} ms")
    return time.perf_counter()

folder = Path(sys.argv[1])
t = time.perf_counter()
from sheetgen.sheet.fill import fill_pdf, load_results
from sheetgen.paper import paper
from sheetgen.series.inputs import series_paths
t = lap("import sheetgen.sheet.fill (reportlab)", t)
paths = series_paths([folder])
loaded, _ = load_results(paths)
t = lap(f"read, check and score {len(paths)} series files", t)
fill_pdf([item.result for item in loaded], paper("letter"))
t = lap(f"paint {len(paths)} filled sheets and race charts", t)
import weasyprint
t = lap("import weasyprint", t)
from sheetgen.booklet import pdf as booklet
from sheetgen.booklet.html import render_html
from sheetgen.game.houserules import official_rules
from sheetgen.resources import templates_dir
rules, letter = official_rules("skip-bo", 4), paper("letter")
html = render_html(rules, paper=letter)
t = lap("booklet: templates and Markdown to HTML", t)
document = weasyprint.HTML(
    string=html, base_url=templates_dir().as_uri(), url_fetcher=booklet._fetcher()
).render()
t = lap(f"booklet: weasyprint layout of {len(document.pages)} pages", t)
pdf = document.write_pdf(pdf_variant="pdf/ua-1")
t = lap("booklet: weasyprint write_pdf (PDF/UA, font subsets)", t)
sheet = booklet._sheet_pdf(rules, letter)
t = lap("booklet: draw the score sheet (reportlab)", t)
booklet._lay_sheet(pdf, sheet)
t = lap("booklet: lay the score sheet in (pikepdf)", t)
"""


def stages(work: Path, series_dir: Path) -> None:
    """Where the time of the batch and the booklet goes, stage by stage, in one process."""
    script = work / "stages.py"
    script.write_text(STAGES)
    print("\nStages (one process, after a warm-up):")
    for _ in range(2):  # the first run fills the bytecode cache
        done = subprocess.run(
            [sys.executable, str(script), str(series_dir)],
            cwd=work,
            env=child_env(work),
            capture_output=True,
            text=True,
            check=False,
        )
    print(done.stdout or done.stderr)


def from_a_fresh_copy(source: Path, copy: Path, argv: list[str]) -> list[str]:
    """``argv`` run on a fresh copy of ``source`` (a command that changes the file it reads)."""
    return ["sh", "-c", 'cp "$1" "$2" && shift 2 && exec "$@"', "sh", str(source), str(copy), *argv]


def limits_rows(work: Path, runs: int) -> list[Row]:
    """Issue 28: standings, record, fill and export of series files at the limits, each
    within 10 s and 1 GB; against standings of the longest series in JSON."""
    from sheetgen.limits import MAX_SERIES_BYTES, MAX_SERIES_GAMES

    folder = work / "limits"
    size = f"{MAX_SERIES_BYTES // 2**20} MB"
    # A game short of the most a series holds, so that record adds the last one.
    games = MAX_SERIES_GAMES - 1
    # Six players with names of a good length: the longest rows of a sheet and of an export.
    players = tuple(f"{name} of the long table" for name in NAMES)
    longest = write_long_series(folder, games, "winner", players, pad_to=MAX_SERIES_BYTES)
    costliest = write_costliest_series(folder, MAX_SERIES_BYTES)
    left = ",".join(f"{name}=3" for name in players[1:])

    def commands(path: Path) -> dict[str, list[str]]:
        record = [*SHEETGEN, "record", str(folder / f"copy{path.suffix}"), "--yes"]
        return {
            "standings": [*SHEETGEN, "standings", str(path)],
            "record": from_a_fresh_copy(
                path,
                folder / f"copy{path.suffix}",
                [*record, "--winner", players[0], "--left", left],
            ),
            "fill": [*SHEETGEN, "fill", str(path), "-o", str(folder / "out.pdf")],
            "export": [*SHEETGEN, "export", str(path), "-o", str(folder / "out.json")],
        }

    argvs = {
        f"{command} {name}": argv
        for name, path in {**longest, **costliest}.items()
        for command, argv in commands(path).items()
    }
    refused = frozenset(label for label in argvs if label.split()[1] in costliest)
    timed = measure_interleaved(argvs, work, runs, refused=refused)
    base = timed["standings json"]
    rows = []
    for label, m in timed.items():
        command, name = label.split()
        what = (
            f"`sheetgen {command}`, {games:,} games of six players padded to {size}, {name.upper()}"
            if name in longest
            else f"`sheetgen {command}` refusing {name} ({size})"
        )
        rows.append(
            Row(
                what,
                f"{m.median:.3f}",
                f"{m.peak_mb:.0f}",
                f"{m.median / base.median:.2f}x standings of the JSON (CPU {m.cpu / base.cpu:.2f}x)",
                "<= 10 s, <= 1024 MB",
                verdict(m.median <= 10 and m.peak_mb <= 1024),
                f"{m.cpu:.3f}",
            )
        )
    return rows


# Caches (issue 29) -------------------------------------------------------

# The folders under the user's cache folder that sheetgen keeps things in between runs, by
# what each serves. A cache is measured by blocking its folder (a file where the folder
# would be), which makes sheetgen pass it by as it does any folder that is not the user's.
CACHES: tuple[str, ...] = ("templates",)
# A cache stays only where it makes the command it serves this much faster (issue 29).
CACHE_GAIN = 0.25


def with_cache_folder(
    folder: Path, argv: list[str], cold: bool, blocked: tuple[str, ...]
) -> list[str]:
    """``argv`` run with ``folder`` as XDG_CACHE_HOME: emptied first if ``cold``, and the
    caches named in ``blocked`` made unusable."""
    script = 'folder="$1"; cold="$2"; shift 2; '
    script += '[ "$cold" = cold ] && rm -rf "$folder"; mkdir -p "$folder/sheetgen"; '
    for name in blocked:
        script += f'[ -d "$folder/sheetgen/{name}" ] && rm -rf "$folder/sheetgen/{name}"; '
        script += f': > "$folder/sheetgen/{name}"; '
    script += 'XDG_CACHE_HOME="$folder" exec "$@"'
    return ["sh", "-c", script, "sh", str(folder), "cold" if cold else "warm", *argv]


def cache_rows(work: Path, runs: int, against: Path | None = None) -> list[Row]:
    """Issue 29: `sheetgen rules` (PDF and HTML) with its caches cold (emptied before every
    run) and warm (kept from the run before), and warm without each cache in turn; each
    cache is held to making its command CACHE_GAIN faster. With ``against``, the same
    command from that checkout (its caches warm) for a before-and-after in one run."""
    folder = work / "caches"
    commands: dict[str, list[str]] = {}
    for fmt in ("pdf", "html"):
        argv = [*SHEETGEN, "rules", "--paper", "letter", "--format", fmt, "-o", f"c.{fmt}"]
        commands[f"{fmt} cold"] = with_cache_folder(folder / f"{fmt}-cold", argv, True, ())
        commands[f"{fmt} warm"] = with_cache_folder(folder / f"{fmt}-warm", argv, False, ())
        commands[f"{fmt} none"] = with_cache_folder(folder / f"{fmt}-none", argv, False, CACHES)
        for name in CACHES:
            commands[f"{fmt} no-{name}"] = with_cache_folder(
                folder / f"{fmt}-no-{name}", argv, False, (name,)
            )
        if against is not None:
            commands[f"{fmt} against"] = [
                "env",
                f"PYTHONPATH={against}",
                *with_cache_folder(folder / f"{fmt}-against", argv, False, ()),
            ]
    timed = measure_interleaved(commands, work, runs)
    rows = []

    def row(what: str, key: str, base: str, target: str = "", ok: bool | None = None) -> None:
        m, b = timed[key], timed[base]
        rows.append(
            Row(
                what,
                f"{m.median:.3f}",
                f"{m.peak_mb:.0f}",
                f"{m.median / b.median:.2f}x {base} (CPU {m.cpu / b.cpu:.2f}x)",
                target,
                "" if ok is None else verdict(ok),
                f"{m.cpu:.3f}",
            )
        )

    for fmt in ("pdf", "html"):
        row(f"`sheetgen rules --format {fmt}`, no caches", f"{fmt} none", f"{fmt} none")
        row(f"`sheetgen rules --format {fmt}`, caches cold", f"{fmt} cold", f"{fmt} none")
        row(f"`sheetgen rules --format {fmt}`, caches warm", f"{fmt} warm", f"{fmt} none")
        for name in CACHES:
            gain = 1 - timed[f"{fmt} warm"].median / timed[f"{fmt} no-{name}"].median
            row(
                f"`sheetgen rules --format {fmt}`, warm, {name} cache: {100 * gain:.0f}% faster",
                f"{fmt} warm",
                f"{fmt} no-{name}",
                f">= {100 * CACHE_GAIN:.0f}% faster (one format is enough)",
                gain >= CACHE_GAIN,
            )
        if against is not None:
            row(
                f"`sheetgen rules --format {fmt}`, {against}, warm", f"{fmt} against", f"{fmt} warm"
            )
    return rows


def print_table(rows: list[Row]) -> None:
    print("| What | Median s | CPU s | Peak MB | Compared | Target | |")
    print("| --- | ---: | ---: | ---: | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row.what} | {row.seconds} | {row.cpu} | {row.memory} | {row.compared} "
            f"| {row.target} | {row.verdict} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each single command")
    parser.add_argument("--batch-runs", type=int, default=3, help="runs of each batch")
    parser.add_argument("--series", type=int, default=1000, help="series in the batch")
    parser.add_argument(
        "--games",
        type=int,
        help="games in the long series standings reads (the most a series holds)",
    )
    parser.add_argument("--quick", action="store_true", help="3 runs, 1 batch run, 200 series")
    parser.add_argument("--keep", type=Path, help="keep the work folder here")
    parser.add_argument(
        "--stages", action="store_true", help="only time the stages of a batch and a booklet"
    )
    parser.add_argument(
        "--limits", action="store_true", help="only measure series files at the limits"
    )
    parser.add_argument(
        "--caches", action="store_true", help="only measure the caches of `sheetgen rules`"
    )
    parser.add_argument(
        "--against", type=Path, help="with --caches: also time `rules` from this checkout"
    )
    args = parser.parse_args()
    # An installed sheetgen is byte-compiled (pip does it); a checkout may not be, and where
    # PYTHONDONTWRITEBYTECODE is set every run would compile it afresh and be timed doing so.
    compileall.compile_dir(ROOT / "sheetgen", quiet=1)
    if args.quick:
        args.runs, args.batch_runs, args.series = 3, 1, 200
    sys.path.insert(0, str(ROOT))
    from sheetgen.limits import MAX_GAMES, MAX_SERIES_GAMES

    if args.games is None:
        args.games = MAX_SERIES_GAMES

    work = args.keep or Path(tempfile.mkdtemp(prefix="sheetgen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.caches:
        table = cache_rows(work, args.runs, args.against)
        print(f"\nMedian wall time of {args.runs} runs of each command, in turn; CPU is")
        print("the median processor time; peak memory the largest resident set of the process.")
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores.\n")
        print_table(table)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return
    if args.limits:
        table = limits_rows(work, args.batch_runs)
        print(f"\nMedian wall time of {args.batch_runs} runs of each command, in turn; CPU is")
        print("the median processor time; peak memory the largest resident set of the process.")
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores.\n")
        print_table(table)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return
    (work / "minimal_reportlab.py").write_text(MINIMAL_REPORTLAB)
    (work / "bare_weasyprint.py").write_text(BARE_WEASYPRINT)
    (work / "bare_booklet.py").write_text(BARE_BOOKLET)
    (work / "sheet.html").write_text(sheet_html())
    series_dir = work / "series"
    paths = write_series(series_dir, args.series)
    one = paths[0]
    if args.stages:
        stages(work, series_dir)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return
    runs, batch_runs = args.runs, args.batch_runs
    print(f"Working in {work}; {runs} runs each, {batch_runs} per batch.", file=sys.stderr)

    singles: dict[str, list[str]] = {
        "reportlab": [sys.executable, "minimal_reportlab.py", "rl.pdf", str(FONT), str(FONT_BOLD)],
        "weasyprint": [sys.executable, "bare_weasyprint.py", "wp.pdf"],
        "help": [*SHEETGEN, "--help"],
    }
    if CHROMIUM.exists():
        singles["chromium"] = [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--print-to-pdf={work / 'chrome.pdf'}",
            (work / "sheet.html").as_uri(),
        ]
    built = {name: has_command(name) for name in ("sheet", "fill", "rules")}
    if built["sheet"]:
        singles["sheet"] = [*SHEETGEN, "sheet", "-o", "blank.pdf"]
    if built["fill"]:
        singles["fill"] = [*SHEETGEN, "fill", str(one), "-o", "one.pdf"]
    if built["rules"]:
        base_url = booklet_html(work / "booklet.html")
        singles["weasyprint booklet"] = [
            sys.executable,
            "bare_booklet.py",
            "booklet.html",
            "wpb.pdf",
            base_url,
        ]
        singles["weasyprint booklet, PDF/UA"] = [
            *singles["weasyprint booklet"][:3],
            "wpbua.pdf",
            base_url,
            "pdf/ua-1",
        ]
        singles["rules"] = [*SHEETGEN, "rules", "--paper", "letter", "-o", "rules.pdf"]
        singles["rules toggled"] = [
            *SHEETGEN,
            "rules",
            "--players",
            "4",
            "--partnerships",
            "--stock",
            "short",
            "--must-play-stock",
            "--no-wild-start",
            "--target",
            "300",
            "-o",
            "toggled.pdf",
        ]
        singles["rules folded"] = [*SHEETGEN, "rules", "--layout", "booklet", "-o", "folded.pdf"]
    timed = measure_interleaved(singles, work, runs)

    rows: list[Row] = []

    def plain_row(what: str, m: Measure) -> None:
        rows.append(Row(what, f"{m.median:.3f}", f"{m.peak_mb:.0f}", "", "", "", f"{m.cpu:.3f}"))

    def ratio_row(
        what: str, key: str, base: str, limit: float, table: dict[str, Measure] | None = None
    ) -> None:
        table = timed if table is None else table
        m = table[key]
        ratio = m.median / table[base].median
        compared = f"{ratio:.2f}x {base} (CPU {m.cpu / table[base].cpu:.2f}x)"
        if "chromium" in table and base == "reportlab":
            compared += f", {m.median / table['chromium'].median:.2f}x Chromium"
        rows.append(
            Row(
                what,
                f"{m.median:.3f}",
                f"{m.peak_mb:.0f}",
                compared,
                f"<= {limit}x",
                verdict(ratio <= limit),
                f"{m.cpu:.3f}",
            )
        )

    plain_row("minimal reportlab script (baseline)", timed["reportlab"])
    plain_row("bare weasyprint, one line (baseline)", timed["weasyprint"])
    if "chromium" in timed:
        plain_row("headless Chromium, HTML sheet (baseline)", timed["chromium"])
    else:
        rows.append(Row("headless Chromium (baseline)", "skipped", "", "not installed", "", ""))
    plain_row("`sheetgen --help`", timed["help"])

    if built["sheet"]:
        ratio_row("`sheetgen sheet`", "sheet", "reportlab", 1.5)
        size_kb = (work / "blank.pdf").stat().st_size / 1024
        rows.append(
            Row(
                "blank sheet PDF size",
                f"{size_kb:.1f} KB",
                "",
                "",
                "<= 30 KB",
                verdict(size_kb <= 30),
            )
        )
    else:
        rows.append(Row("`sheetgen sheet`", "not built yet", "", "", "<= 1.5x", "n/a"))

    if built["fill"]:
        ratio_row("`sheetgen fill`, one ten-game series", "fill", "reportlab", 1.7)
        batch = [*SHEETGEN, "fill", str(series_dir), "-o", "all.pdf"]
        one_core = measure(
            f"fill x{len(paths)} (one core)", pinned(batch, "0"), work, batch_runs, True
        )
        two_cores = measure(
            f"fill x{len(paths)} (two cores)", pinned(batch, "0,1"), work, batch_runs, True
        )
        two_workers = measure(
            f"fill x{len(paths)} (two cores, --jobs 2)",
            pinned([*batch, "--jobs", "2"], "0,1"),
            work,
            batch_runs,
        )
        for label, m, target, ok in (
            (
                "one core",
                one_core,
                ">= 250 sheets/s, <= 150 MB",
                len(paths) / one_core.median >= 250 and one_core.peak_mb <= 150,
            ),
            (
                "two cores (workers on idle cores)",
                two_cores,
                "not slower than one core (5% for noise)",
                two_cores.median <= 1.05 * one_core.median,
            ),
            (
                "two cores, --jobs 2",
                two_workers,
                "10% faster than one core",
                two_workers.median < 0.9 * one_core.median,
            ),
        ):
            rows.append(
                Row(
                    f"`sheetgen fill` {len(paths)} series -> one PDF, {label}",
                    f"{m.median:.3f}",
                    f"{m.peak_mb:.0f}",
                    f"{len(paths) / m.median:.0f} sheets/s, {m.median / one_core.median:.2f}x "
                    f"one core (CPU {m.cpu / one_core.cpu:.2f}x)",
                    target,
                    verdict(ok),
                    f"{m.cpu:.3f}",
                )
            )
        # The threshold above which fill starts workers: there two must not be slower than one.
        from sheetgen.sheet.fill import PARALLEL_FROM

        edge = [*SHEETGEN, "fill", *map(str, paths[:PARALLEL_FROM]), "-o", "edge.pdf"]
        at_edge = measure_interleaved(
            {"one worker": [*edge, "--jobs", "1"], "two workers": [*edge, "--jobs", "2"]},
            work,
            batch_runs,
        )
        ratio_row(
            f"`sheetgen fill` {PARALLEL_FROM} series (where workers start), two workers",
            "two workers",
            "one worker",
            1.0,
            at_edge,
        )
        split = measure(
            f"fill x{len(paths)} --split",
            [*SHEETGEN, "fill", str(series_dir), "--split", str(work / "split")],
            work,
            batch_runs,
            True,
        )
        rows.append(
            Row(
                f"`sheetgen fill` {len(paths)} series --split",
                f"{split.median:.3f}",
                f"{split.peak_mb:.0f}",
                f"{len(paths) / split.median:.0f} sheets/s",
                "<= 150 MB",
                verdict(split.peak_mb <= 150),
                f"{split.cpu:.3f}",
            )
        )
    else:
        rows.append(Row("`sheetgen fill`", "not built yet", "", "", "", "n/a"))

    if built["rules"]:
        plain_row("bare weasyprint, the booklet's HTML (baseline)", timed["weasyprint booklet"])
        plain_row(
            "bare weasyprint, the booklet's HTML as tagged PDF/UA-1 (baseline)",
            timed["weasyprint booklet, PDF/UA"],
        )
        # sheetgen writes the booklet as PDF/UA-1: held to weasyprint writing the same.
        ratio_row(
            "`sheetgen rules` (official, PDF/UA-1)", "rules", "weasyprint booklet, PDF/UA", 1.15
        )
        m, base = timed["rules"], timed["weasyprint booklet"]
        rows.append(
            Row(
                "`sheetgen rules` (official) against the untagged render",
                f"{m.median:.3f}",
                f"{m.peak_mb:.0f}",
                f"{m.median / base.median:.2f}x (CPU {m.cpu / base.cpu:.2f}x)",
                "",
                "",
                f"{m.cpu:.3f}",
            )
        )
        ratio_row(
            "`sheetgen rules` (partnerships, short, house rules)",
            "rules toggled",
            "weasyprint",
            2.0,
        )
        ratio_row("`sheetgen rules --layout booklet` (imposed)", "rules folded", "weasyprint", 2.0)
    else:
        rows.append(Row("`sheetgen rules`", "not built yet", "", "", "<= 2x", "n/a"))

    # Issue 14: reading any series stays within 2x of JSON for the same games (a cards-left
    # series is as long as the games it agrees on, at most a sheet's rows).
    long_dir = work / "long"
    for scoring, games in (("winner", args.games), ("cards-left", min(args.games, MAX_GAMES))):
        files = write_long_series(long_dir, games, scoring)
        read = measure_interleaved(
            {fmt: [*SHEETGEN, "standings", str(path)] for fmt, path in files.items()},
            work,
            batch_runs,
        )
        plain_row(f"`sheetgen standings`, {games:,} games, {scoring}, JSON", read["json"])
        for fmt in files:
            if fmt != "json":
                ratio_row(
                    f"`sheetgen standings`, {games:,} games, {scoring}, {fmt.upper()}",
                    fmt,
                    "json",
                    2.0,
                    read,
                )

    # Issue 28: every command on series files at the limits, within 10 s and 1 GB.
    rows += limits_rows(work, batch_runs)
    # Issue 29: each cache of `sheetgen rules` earns its place.
    if built["rules"]:
        rows += cache_rows(work, batch_runs)

    print()
    print(f"Median wall time of {runs} runs of each command, taken in turn with the baselines")
    print(f"({batch_runs} runs per batch and per long series); CPU is the median processor")
    print("time (user + system, workers included); peak memory is the largest resident set")
    print("of the process (for batches: of its whole process tree). Targets are judged on")
    print("the wall-time ratio; the CPU ratio is the steadier view on a shared machine.")
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
        f"{'taskset' if TASKSET else 'no taskset'}."
    )
    print()
    print_table(rows)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
