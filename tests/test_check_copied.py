"""Every sentence of the project is its own: the shared check-copied tool finds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT.parent / "shared" / "tools" / "check-copied"


@pytest.mark.skipif(not TOOL.is_file(), reason="check-copied is not beside this checkout")
def test_nothing_is_copied_from_the_sources() -> None:
    result = subprocess.run(
        [sys.executable, str(TOOL)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.stdout == ""
    assert result.returncode == 0
