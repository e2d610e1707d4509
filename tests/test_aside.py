"""Work done aside in a forked child comes back as if it had run here."""

from __future__ import annotations

import os
import threading

import pytest

from sheetgen.aside import Aside
from sheetgen.errors import HouseRulesError


def test_the_value_comes_back_from_another_process() -> None:
    parent = os.getpid()
    aside = Aside(lambda: (os.getpid(), "Łukasz" * 3))
    pid, text = aside.result()
    assert text == "ŁukaszŁukaszŁukasz"
    assert pid != parent
    assert aside.result() == (pid, text)


def test_a_sheetgen_error_is_raised_here_with_its_message() -> None:
    def fail() -> None:
        raise HouseRulesError("extra.md: lists, quotes or emphasis are nested too deep")

    aside = Aside(fail)
    with pytest.raises(HouseRulesError, match=r"extra\.md: lists, quotes or emphasis"):
        aside.result()


def test_with_other_threads_running_the_work_runs_here() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert Aside(os.getpid).result() == os.getpid()
    finally:
        stop.set()
        other.join()
