"""The ordered map: results in the items' order, the first error first, workers that die
with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sheetgen.batching import AHEAD_PER_WORKER, Workers, ordered_map


def slower_first(n: int) -> tuple[int, int]:
    """Early items take longest, so the workers finish them last."""
    time.sleep(0.02 * (8 - n % 8))
    return n, os.getpid()


def fails_at_three_and_six(n: int) -> int:
    if n in (3, 6):
        raise ValueError(f"item {n} is bad")
    return n * n


@pytest.fixture(scope="module")
def workers() -> Iterator[Workers]:
    with Workers(2) as pool:
        yield pool


def test_results_come_in_the_items_order(workers: Workers) -> None:
    results = list(ordered_map(slower_first, range(12), workers))
    assert [n for n, _ in results] == list(range(12))
    assert os.getpid() not in {pid for _, pid in results}


@pytest.mark.parametrize("parallel", [False, True], ids=["here", "in-workers"])
def test_the_first_error_stops_the_map_after_every_earlier_result(
    workers: Workers, parallel: bool
) -> None:
    seen: list[int] = []
    with pytest.raises(ValueError, match=r"^item 3 is bad$"):
        for result in ordered_map(fails_at_three_and_six, range(10), workers if parallel else None):
            seen.append(result)
    assert seen == [0, 1, 4]


def test_only_a_few_items_run_ahead(workers: Workers) -> None:
    taken: list[int] = []

    def items() -> Iterator[int]:
        for n in range(100):
            taken.append(n)
            yield n

    results = ordered_map(fails_at_three_and_six, items(), workers)
    assert next(results) == 0
    assert len(taken) == AHEAD_PER_WORKER * workers.size
    results.close()
    assert len(taken) == AHEAD_PER_WORKER * workers.size


def test_without_workers_the_work_runs_here_in_order() -> None:
    assert list(ordered_map(lambda n: (n, os.getpid()), range(3))) == [
        (n, os.getpid()) for n in range(3)
    ]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def wait_until(condition, what: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.01)


STUCK = """
import sys, time
from sheetgen.batching import Workers, ordered_map

def stuck(n):
    time.sleep(600)
    return n

print("started", flush=True)
with Workers(2) as workers:
    for result in ordered_map(stuck, range(4), workers):
        print(result)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", STUCK], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None and parent.stdout.readline() == "started\n"
    wait_until(lambda: len(children(parent.pid)) >= 2, "two workers")
    workers = children(parent.pid)
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=30)
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to die")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_a_fill_batch_leaves_no_worker_running(tmp_path: Path) -> None:
    """A batch big enough for workers (asked for: the machine may be busy), killed once they
    are seen: they go with it."""
    from sheetgen.sheet.fill import PARALLEL_FROM

    source = (
        "players: [Ann, Bob, Cy]\ngames:\n" + "  - winner: Ann\n    left: {Bob: 4, Cy: 9}\n" * 30
    )
    for index in range(PARALLEL_FROM):
        (tmp_path / f"s{index:03d}.yaml").write_text(source, encoding="utf-8")
    parent = subprocess.Popen(
        [sys.executable, "-m", "sheetgen", "fill", ".", "-o", "all.pdf", "--jobs", "2"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_until(lambda: children(parent.pid) or parent.poll() is not None, "the workers")
    workers = children(parent.pid)
    assert workers, "the batch ended before its workers were seen; make it bigger"
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=30)
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to die")
    assert not (tmp_path / "all.pdf").exists()


@pytest.mark.parametrize(
    ("loadavg", "idle"),
    [
        ("0.05 0.10 0.20 1/180 4242\n", 2),  # only this process runs: both cores are free
        ("1.90 1.50 1.20 2/180 4242\n", 1),  # another process keeps one core busy
        ("6.00 5.00 4.00 7/400 4242\n", 1),  # more work than cores: still one for us
        ("", 2),  # unreadable: every usable core counts
    ],
)
def test_idle_cores_leave_out_the_cores_others_keep_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loadavg: str, idle: int
) -> None:
    from sheetgen import batching

    (tmp_path / "loadavg").write_text(loadavg, encoding="ascii")
    monkeypatch.setattr(batching, "LOADAVG", str(tmp_path / "loadavg"))
    monkeypatch.setattr(batching, "usable_cores", lambda: 2)
    assert batching.idle_cores() == idle
