"""The built wheel carries every asset, and the README's commands are CI's commands."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

# The wheel is built once: the tests that read it run in one xdist worker.
pytestmark = pytest.mark.xdist_group("wheel")

ROOT = Path(__file__).resolve().parent.parent


def readme_command(marker: str) -> str:
    """The shell command in the README's fenced block that follows ``marker``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split(marker, 1)[1].split("```", 2)[1]
    lines = [line for line in block.splitlines()[1:] if line.strip()]
    assert len(lines) == 1, lines
    return lines[0].strip()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """CI's last step is the README's test command, word for word, in the checkout's root
    and after ``set -e``: each CI run is the proof that the command installs the test
    extra on a fresh machine and passes the whole suite (test_readme_setup relies on it)."""
    command = readme_command("<!-- test-command -->")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    steps = [line.strip() for line in ci.splitlines() if line.strip() and not line.startswith("#")]
    assert steps[-1] == command
    assert 'cd "$(dirname "$0")/.."' in steps
    assert steps.index("set -euo pipefail") < steps.index('cd "$(dirname "$0")/.."')


def test_readme_commands_make_a_virtual_environment_with_python3() -> None:
    install = readme_command("<!-- install-command -->")
    test = readme_command("<!-- test-command -->")
    assert install == "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/sheetgen sheet"
    assert test == (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("sheetgen-*.whl")
    return built


def test_wheel_carries_templates_rules_and_fonts(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    for asset in ("templates", "rules"):
        source = sorted(str(p.relative_to(ROOT)) for p in (ROOT / asset).rglob("*") if p.is_file())
        assert source, asset
        for path in source:
            assert f"sheetgen/{path}" in names
    assert "sheetgen/fonts/DejaVuSans.ttf" in names
    assert "sheetgen/fonts/DejaVuSans-Bold.ttf" in names
    assert "sheetgen/locale/de/LC_MESSAGES/sheetgen.po" in names
    assert "sheetgen/locale/de/glossary.toml" in names


def fresh_venv_with_our_dependencies(env_dir: Path) -> Path:
    """A new virtual environment that finds sheetgen's dependencies where the tests found
    them, and sheetgen nowhere: only the wheel installed into it will provide it.

    Installing the dependencies themselves from the README's command is proven by
    test_readme_setup.py; here the wheel is what is under test, so the minute that
    installing weasyprint, pikepdf and the rest again would take is not spent twice.
    """
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    # A plain path line: the folder joins sys.path, but the .pth files in it (such as an
    # editable install's pointer back to this checkout) are not read.
    (Path(site) / "test-dependencies.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return python


def test_the_fresh_venv_cannot_import_sheetgen_before_the_wheel(tmp_path: Path) -> None:
    python = fresh_venv_with_our_dependencies(tmp_path / "venv")
    probe = (
        "import importlib.util as u;"
        "print(u.find_spec('sheetgen.cli') is not None, u.find_spec('weasyprint') is not None)"
    )
    done = subprocess.run(
        [str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.slow
def test_wheel_in_a_fresh_venv_finds_its_assets(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    python = fresh_venv_with_our_dependencies(env_dir)
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"),
            *("--quiet", "--disable-pip-version-check", "--no-compile", str(wheel)),
        ],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{env_dir / 'bin'}:{env['PATH']}"
    sheetgen = str(env_dir / "bin" / "sheetgen")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sheetgen, *args], cwd=elsewhere, env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr
        return result

    where = subprocess.run(
        [
            str(python),
            "-c",
            "import sheetgen.resources as r; print(r.templates_dir());"
            "print(r.rules_dir()); print(r.fonts_dir())",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for folder in where:
        assert folder.startswith(str(env_dir)), folder
    run("sheet")
    run("rules", "--players", "3", "-o", "rules.pdf")
    run("sheet", "--lang", "de", "-o", "de.pdf")  # the catalogue, compiled from the wheel's .po
    for name in ("output/score-sheet.pdf", "rules.pdf", "de.pdf"):
        data = (elsewhere / name).read_bytes()
        assert data.startswith(b"%PDF")
        assert b"DejaVuSans" in data
    import pdfplumber

    with pdfplumber.open(elsewhere / "de.pdf") as document:
        text = " ".join((document.pages[0].extract_text() or "").split())
    assert "Ziel: 500 Punkte. Wer zuerst 500 erreicht, gewinnt die Serie." in text
    assert "Wertung:" in text and "Spielerstapel" in text
    # The served page, from the wheel's own templates, script and style.
    run("new", "friday.yaml", "--players", "Ann,Bob")
    page = subprocess.run(
        [
            str(python),
            "-c",
            "from pathlib import Path\n"
            "from starlette.testclient import TestClient\n"
            "from sheetgen.paper import A4\n"
            "from sheetgen.serve.access import Access, local_hosts\n"
            "from sheetgen.serve.app import make_app\n"
            "from sheetgen.serve.served import Served\n"
            "from sheetgen.serve.state import ServedSeries\n"
            "served = Served(ServedSeries(Path('friday.yaml')), Access(local_hosts(80), None), A4)\n"
            "client = TestClient(make_app(served, watch=False), base_url='http://127.0.0.1:80')\n"
            "print(client.get('/?key=' + served.access.token).status_code)\n"
            "print(client.get('/static/live.js').status_code)\n"
            "print(client.get('/static/page.css').status_code)\n",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert page.stdout.split() == ["200", "200", "200"], page.stderr
