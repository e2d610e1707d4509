"""The README's install command, run as a newcomer would: python3, a fresh venv, a fresh copy.

The checkout's tracked files are copied to a new folder (so the developer's own
environment and build files play no part), the developer's virtual environment is
taken off PATH, and the command runs there word for word through ``sh``.

The README's other command, the test command, is not run here: it is CI's own command
(``.ci/run`` runs it word for word, which test_packaging holds), so each CI run proves it
on a clean checkout and a fresh machine, with the whole suite rather than a part, and with
its ``.venv`` inside the checkout for the ruff checks to skip. Running it again in here
cost a fresh install of the test extra, a quarter of a minute of processor time a run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_packaging import ROOT, readme_command

# One checkout copy and its fresh venv: the module runs in one xdist worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("readme-setup")]


def _checkout_copy(destination: Path) -> Path:
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = destination / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def _newcomer_env() -> dict[str, str]:
    """The environment of a shell where no virtual environment is active."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
        and not key.startswith(("PYTEST_", "SHEETGEN_"))
    }
    active = os.environ.get("VIRTUAL_ENV")
    folders = env.get("PATH", "").split(os.pathsep)
    env["PATH"] = os.pathsep.join(
        folder for folder in folders if not (active and folder.startswith(active))
    )
    return env


def _sh(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def newcomer(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    env = _newcomer_env()
    if shutil.which("python3", path=env["PATH"]) is None:
        pytest.fail("no python3 on PATH outside the virtual environment")
    # pip installs the same files either way; without byte-compiling every module of mypy,
    # weasyprint and the rest it spends a fifth less CPU (Python compiles what it imports).
    # PIP_COMPILE=0, not PIP_NO_COMPILE=1: pip stores the value of a --no-* option's
    # variable as it is, so PIP_NO_COMPILE=1 left compiling on.
    env["PIP_COMPILE"] = "0"
    return _checkout_copy(tmp_path_factory.mktemp("checkout")), env


def test_one_worker_runs_the_module(request: pytest.FixtureRequest) -> None:
    """The checkout and its venv are made once a run only if xdist keeps this module's
    tests in one worker: it marks each test of a group in its id (pytest 9.2 lost that
    mark, and each worker made a venv of its own)."""
    if getattr(request.config.option, "loadgroup", False):  # an xdist worker under loadgroup
        assert request.node.nodeid.endswith("@readme-setup"), (
            f"{request.node.nodeid}: xdist ignored the module's group; a pytest the test extra"
            " allows (pip install -e '.[test]') keeps it"
        )


def test_install_command_prints_a_score_sheet(newcomer: tuple[Path, dict[str, str]]) -> None:
    checkout, env = newcomer
    result = _sh(readme_command("<!-- install-command -->"), checkout, env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    sheet = checkout / "output" / "score-sheet.pdf"
    assert sheet.read_bytes().startswith(b"%PDF")
    assert "score-sheet.pdf" in result.stderr
    # The installed command runs from any folder once the environment is named.
    elsewhere = checkout.parent / "elsewhere"
    elsewhere.mkdir()
    version = _sh(f"{checkout}/.venv/bin/sheetgen --version", elsewhere, env)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("sheetgen, version ")
    activated = _sh(f". {checkout}/.venv/bin/activate && sheetgen deal --players 4", elsewhere, env)
    assert activated.returncode == 0, activated.stderr
    assert "30" in activated.stdout


def test_the_checkouts_venv_stays_out_of_the_sdist_and_the_copy_check(
    newcomer: tuple[Path, dict[str, str]],
) -> None:
    """After the README's commands the checkout holds .venv: nothing else may read it."""
    import sys
    import tarfile

    checkout, _ = newcomer
    assert (checkout / ".venv" / "bin" / "python").exists()
    out = checkout.parent / "dist"
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(out)],
        cwd=checkout,
        check=True,
        capture_output=True,
    )
    (sdist,) = out.glob("sheetgen-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert any(name.endswith("/sheetgen/cli/__init__.py") for name in names)
    assert not [name for name in names if "/.venv/" in name or "site-packages" in name]
    tool = ROOT.parent / "shared" / "tools" / "check-copied"
    if tool.is_file():
        copied = subprocess.run(
            [sys.executable, str(tool)], cwd=checkout, capture_output=True, text=True, check=False
        )
        assert (copied.returncode, copied.stdout) == (0, "")
