"""Hostile review of this round's new surfaces: the compiled-template cache, the HTML
booklet's picture, the language folders, Ctrl-C at start-up, fill's workers, YAML tags.

Each test holds sheetgen to the hostile suite's promises: one ``Error:`` line or
success, no traceback, inputs byte-identical, nothing left behind.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import (
    _env,
    assert_clean,
    assert_no_process_left,
    run,
    shared_folder,
    snapshot,
    temporaries,
    users,
)

from sheetgen.batching import usable_cores
from sheetgen.booklet import compiledcache
from sheetgen.booklet.compiledcache import CompiledTemplates, private_folder
from sheetgen.booklet.pictures import check_picture
from sheetgen.booklet.templating import make_environment, render_template
from sheetgen.errors import GameDefinitionError
from sheetgen.paper import paper
from sheetgen.resources import rules_dir
from sheetgen.series.inputs import series_paths
from sheetgen.sheet import fill

__all__ = ["users"]  # the fixture, imported for pytest to find

SERIES = """\
title: Friday nights
players: [Ann, Bob, Cy, Di]
games:
  - winner: Ann
    left: {Bob: 7, Cy: 12, Di: 3}
"""

# The installed ``sheetgen`` script (its entry point loaded as pip's script does), with
# Ctrl-C landing while the command line's heavy modules are imported: the moment ``click``
# is looked for, the process interrupts itself, as a terminal's Ctrl-C would.
INTERRUPTED_WHILE_IMPORTING = """\
import os, signal, sys
from importlib.metadata import entry_points

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ["CTRL_C_AT"]:
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv[0] = "sheetgen"
(script,) = entry_points(group="console_scripts", name="sheetgen")
sys.exit(script.load()())
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "f.yaml").write_text(SERIES, encoding="utf-8")
    return tmp_path


def _interrupted_at_start(
    folder: Path, *, ignored: bool, at: str = "click"
) -> subprocess.CompletedProcess[bytes]:
    script = folder / "ctrl_c.py"
    script.write_text(INTERRUPTED_WHILE_IMPORTING, encoding="utf-8")

    def start() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN if ignored else signal.SIG_DFL)

    process = subprocess.Popen(
        [sys.executable, str(script), "sheet", "-o", "s.pdf"],
        cwd=folder,
        env={**_env(), "CTRL_C_AT": at},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=start,
    )
    out, err = process.communicate(timeout=120)
    assert_no_process_left(process.pid)
    script.unlink()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


# Where the Ctrl-C lands: while click loads, and while the sheet's own modules load.
@pytest.mark.parametrize("at", ["click", "sheetgen.sheet.layout"])
def test_ctrl_c_while_the_command_line_is_imported_exits_quietly_with_130(
    folder: Path, at: str
) -> None:
    before = snapshot(folder)
    done = _interrupted_at_start(folder, ignored=False, at=at)
    assert (done.returncode, done.stderr) == (130, b"")
    assert snapshot(folder) == before
    assert temporaries(folder) == []


def test_ctrl_c_meeting_a_half_loaded_module_still_exits_quietly_with_130(tmp_path: Path) -> None:
    """The attacker's Ctrl-C landed while sheetgen.atomic was half-loaded: the handler's own
    import of it failed (ImportError, status 1). It now asks only what is loaded."""
    code = (
        "import sys, types\n"
        "sys.modules['sheetgen.atomic'] = types.ModuleType('sheetgen.atomic')\n"
        "from sheetgen.interrupt import _on_ctrl_c\n"
        "_on_ctrl_c(2, None)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=_env(), capture_output=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (130, b"")


def test_the_start_module_loads_nothing_before_it_answers_ctrl_c() -> None:
    """Until its handler is set, a Ctrl-C is Python's: a trace if it lands mid-import. The
    start module therefore imports only what Python has loaded before any script runs."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import sheetgen.start\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=_env(), capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["sheetgen", "sheetgen.start"], done.stderr


def test_an_ignored_ctrl_c_stays_ignored(folder: Path) -> None:
    """A script's background job (``sheetgen ... &``) starts with Ctrl-C ignored: it runs on."""
    done = _interrupted_at_start(folder, ignored=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"Wrote {folder / 's.pdf'}\n".encode()
    assert (folder / "s.pdf").read_bytes().startswith(b"%PDF-")


def test_jobs_never_start_more_workers_than_usable_cores(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []

    class Counted(fill.Workers):
        def __init__(self, size: int) -> None:
            started.append(size)
            super().__init__(size)

    monkeypatch.setattr(fill, "Workers", Counted)
    monkeypatch.setattr(fill, "PARALLEL_FROM", 1)
    paths = series_paths([folder])
    for asked in (1000, 10**6):
        documents, _ = fill.fill_documents(
            paths, paper=paper("letter"), output=folder / "all.pdf", workers=asked
        )
        assert [path.name for path, _ in documents] == ["all.pdf"]
    cores = usable_cores()
    assert started == ([cores] * 2 if cores > 1 else [])


def test_a_huge_jobs_is_taken_as_the_usable_cores(folder: Path) -> None:
    before = snapshot(folder)
    done = run(["fill", "f.yaml", "--split", "out", "--jobs", "100000"], folder)
    assert_clean(done)
    assert done.code == 0
    assert sorted(p.name for p in (folder / "out").iterdir()) == ["f.pdf"]
    assert {name: snapshot(folder)[name] for name in before} == before
    assert temporaries(folder) == []
    help_text = run(["fill", "--help"], folder).out.decode()
    assert "at most one per usable core" in " ".join(help_text.split())


# 1 and 6: the compiled-template cache.


def test_a_link_planted_where_a_cache_would_be_changes_nothing(users: tuple[str, str]) -> None:
    """Another user plants links where jinja2's cache was (``$TMPDIR/_jinja2-cache-<uid>``)
    and where sheetgen's is (``$XDG_CACHE_HOME/sheetgen``) in a sticky shared folder:
    the booklet is made, and the files the links point at keep their mode and bytes."""
    _, other = users
    with shared_folder(mode=0o1777) as sticky, shared_folder() as victim:
        secret = victim / "secret.txt"
        secret.write_bytes(b"mine\n")
        secret.chmod(0o644)
        for name in (f"_jinja2-cache-{os.geteuid()}", "sheetgen"):
            os.symlink(secret, sticky / name)
            os.lchown(sticky / name, *_ids(other))
        done = run(
            ["rules", "--format", "html", "-o", "r.html"],
            victim,
            environ={"TMPDIR": str(sticky), "XDG_CACHE_HOME": str(sticky)},
        )
        assert_clean(done)
        assert done.code == 0
        assert stat.S_IMODE(secret.stat().st_mode) == 0o644
        assert secret.read_bytes() == b"mine\n"
        assert sorted(p.name for p in sticky.iterdir()) == sorted(
            [f"_jinja2-cache-{os.geteuid()}", "sheetgen"]
        )
        assert all((sticky / name).is_symlink() for name in os.listdir(sticky))


def _ids(user: str) -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid


def test_the_cache_folder_is_made_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = private_folder("sheetgen", "templates")
    assert folder == tmp_path / "cache" / "sheetgen" / "templates"
    for made in (folder, folder.parent, folder.parent.parent):
        assert stat.S_IMODE(made.stat().st_mode) & 0o077 == 0


@pytest.mark.parametrize("trouble", ["link", "group-writable", "world-writable", "a file"])
def test_a_cache_folder_others_could_write_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, trouble: str
) -> None:
    base = tmp_path / "cache"
    base.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(base))
    if trouble == "link":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        (base / "sheetgen").symlink_to(tmp_path / "elsewhere")
    elif trouble == "a file":
        (base / "sheetgen").write_bytes(b"")
    else:
        (base / "sheetgen").mkdir()
        (base / "sheetgen").chmod(0o770 if trouble == "group-writable" else 0o777)
    before = snapshot(tmp_path)
    assert private_folder("sheetgen", "templates") is None
    assert snapshot(tmp_path) == before
    assert not (tmp_path / "elsewhere" / "templates").exists()


def test_another_users_cache_folder_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, users: tuple[str, str]
) -> None:
    base = tmp_path / "cache"
    (base / "sheetgen" / "templates").mkdir(parents=True, mode=0o700)
    for folder in (base / "sheetgen", base / "sheetgen" / "templates"):
        os.chown(folder, *_ids(users[1]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(base))
    assert private_folder("sheetgen", "templates") is None


def test_a_cache_home_linked_by_another_user_in_a_shared_folder_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link another user planted in /tmp for the cache folder the user names is not
    followed, not even to make the folder it points at (as protected_symlinks)."""
    if os.geteuid() != 0:
        pytest.skip("giving a link to another user needs root")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    chosen = tmp_path / "chosen-by-them"
    link = shared / "cache"
    link.symlink_to(chosen)
    monkeypatch.setenv("XDG_CACHE_HOME", str(link))
    os.lchown(link, 4242, 4242)
    assert compiledcache.private_folder("sheetgen", "sheets") is None
    assert not chosen.exists()
    os.lchown(link, os.geteuid(), os.getegid())  # the user's own link is followed
    assert compiledcache.private_folder("sheetgen", "sheets") == chosen / "sheetgen" / "sheets"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.cache"))


@pytest.mark.parametrize(
    "damage", ["garbage", "pickle", "truncated", "empty", "fifo", "link", "folder", "huge"]
)
def test_a_damaged_cache_entry_is_a_miss(tmp_path: Path, damage: str) -> None:
    """Whatever lies in the cache folder in an entry's place, the template is compiled
    afresh: no trace, no hang on a FIFO, nothing followed through a link."""
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "page.md").write_text("{{ n | spell }} {{ 1 | cards }}", encoding="utf-8")
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)

    def rendered() -> str:
        env = make_environment([tmp_path / "t"])
        env.bytecode_cache = CompiledTemplates(folder, "en-test")
        return render_template(env, "page.md", {"n": 3})

    assert rendered() == "three one card"
    [entry] = _entries(folder)
    good = entry.read_bytes()
    entry.unlink()
    if damage == "garbage":
        entry.write_bytes(compiledcache.MAGIC + b"\x80\x05garbage")
    elif damage == "pickle":
        entry.write_bytes(b"j2\x80\x02K\x05.\x80\x05garbage" * 4)
    elif damage == "truncated":
        entry.write_bytes(good[: len(good) - 20])
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "fifo":
        os.mkfifo(entry)
    elif damage == "link":
        (tmp_path / "target").write_bytes(good)
        entry.symlink_to(tmp_path / "target")
    elif damage == "folder":
        entry.mkdir()
    else:
        entry.write_bytes(good + b"\0" * compiledcache.MAX_ENTRY)
    assert rendered() == "three one card"


def test_an_entry_of_the_cache_is_code_for_its_template_only(tmp_path: Path) -> None:
    """A cached entry is used again (the cache works), but not for another source."""
    (tmp_path / "page.md").write_text("{{ 2 | cards }}", encoding="utf-8")
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    cache = CompiledTemplates(folder, "en-test")
    env = make_environment([tmp_path])
    env.bytecode_cache = cache
    assert render_template(env, "page.md", {}) == "two cards"
    again = make_environment([tmp_path])
    bucket = cache.get_bucket(again, "page.md", str(tmp_path / "page.md"), "{{ 2 | cards }}")
    assert bucket.code is not None
    other = cache.get_bucket(again, "page.md", str(tmp_path / "page.md"), "{{ 3 | cards }}")
    assert other.code is None
    [entry] = _entries(folder)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert temporaries(tmp_path) == []


def test_the_cache_folder_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(compiledcache, "MAX_ENTRIES", 10)
    for index in range(30):
        (folder / f"en-old-{index:02}.cache").write_bytes(b"x")
        os.utime(folder / f"en-old-{index:02}.cache", (index, index))
    (tmp_path / "page.md").write_text("{{ 2 | cards }}", encoding="utf-8")
    env = make_environment([tmp_path])
    env.bytecode_cache = CompiledTemplates(folder, "en-test")
    assert render_template(env, "page.md", {}) == "two cards"
    left = sorted(p.name for p in folder.iterdir())
    assert len(left) <= 6
    assert any(name.startswith("en-test-") for name in left)
    assert "en-old-29.cache" in left and "en-old-00.cache" not in left


# 2: a game folder's picture in the HTML booklet.

HOSTILE_PICTURE = (
    "<script>alert(7)</script><foreignObject><iframe xmlns="
    '"http://www.w3.org/1999/xhtml" src="http://evil.example/f"></iframe></foreignObject>'
    "<style>@import url(http://evil.example/c.css);</style>"
)


def test_a_game_folders_hostile_picture_is_refused(tmp_path: Path) -> None:
    shelf = tmp_path / "shelf"
    shutil.copytree(rules_dir() / "skip-bo-board", shelf / "xg")
    picture = shelf / "xg" / "table.svg.j2"
    text = picture.read_text(encoding="utf-8")
    # Into every drawing the template holds (the page's and the phone's).
    starts = [found.start() for found in re.finditer("<svg", text)]
    assert starts
    for start in reversed(starts):
        head = text.index(">", start) + 1
        text = text[:head] + HOSTILE_PICTURE + text[head:]
    picture.write_text(text, encoding="utf-8")
    before = snapshot(tmp_path)
    for out in ("g.html", "g.pdf"):
        done = run(["rules", "--rules-dir", "shelf", "--game", "xg", "-o", out], tmp_path)
        assert_clean(done)
        assert done.code == 1
        assert done.err == (
            f"Error: {picture}: a picture may hold only drawing, not a <script> element; "
            "scripts, foreign objects, events and links out of the picture are refused\n"
        )
        assert "evil.example" not in done.err
    assert snapshot(tmp_path) == before
    assert temporaries(tmp_path) == []


SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'


@pytest.mark.parametrize(
    ("inside", "named"),
    [
        ("<script>alert(1)</script>", "a <script> element"),
        ("<SCRIPT>alert(1)</SCRIPT>", "a <SCRIPT> element"),
        ("<foreignObject><p>x</p></foreignObject>", "a <foreignObject> element"),
        ('<image href="http://evil.example/i.png"/>', "a <image> element"),
        ('<a href="javascript:alert(1)"><rect/></a>', "a <a> element"),
        ('<animate attributeName="href" to="javascript:alert(1)"/>', "a <animate> element"),
        ('<rect onload="alert(1)"/>', 'the attribute onload="alert(1)"'),
        ('<rect ONCLICK="alert(1)"/>', 'the attribute ONCLICK="alert(1)"'),
        ('<use href="http://evil.example/s.svg#a"/>', "the attribute href="),
        ('<use xlink:href="data:image/svg+xml,x"/>', "the attribute href="),
        ('<rect fill="url(http://evil.example/p)"/>', "the attribute fill="),
        ("<rect fill=\"URL( 'https://evil.example/p' )\"/>", "the attribute fill="),
        ('<rect style="fill: url(//evil.example/p)"/>', "that fetches"),
        ("<rect style=\"background: image-set('x.png' 1x)\"/>", "image-set()"),
        ("<style>@import url(http://evil.example/c.css);</style>", "that fetches"),
        ("<style>@font-face { src: local(x) }</style>", "that fetches"),
        ("<style>.a { fill: u\\rl(http://evil.example/p) }</style>", "that fetches"),
        ('<rect xml:base="http://evil.example/"/>', "the attribute base="),
        ("<title><![CDATA[</title><img src=x onerror=alert(1)>]]></title>", "<!"),
        ("<!-- a comment -->", "<!"),
        ('<?xml-stylesheet href="http://evil.example/c.css"?>', "<?"),
    ],
)
def test_a_picture_holds_only_drawing(inside: str, named: str) -> None:
    with pytest.raises(GameDefinitionError) as refused:
        check_picture(f"{SVG_OPEN}{inside}</svg>", "xg/table.svg.j2")
    assert str(refused.value).startswith("xg/table.svg.j2: a picture may hold only drawing, not ")
    assert named in str(refused.value)


def test_a_doctype_with_entities_is_refused_before_it_is_expanded() -> None:
    laughs = '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>' + SVG_OPEN + "<text>&a;</text></svg>"
    with pytest.raises(GameDefinitionError, match=r"not <! \(a DOCTYPE"):
        check_picture(laughs, "p.svg.j2")


def test_a_broken_picture_is_one_message() -> None:
    with pytest.raises(
        GameDefinitionError, match=r"^p\.svg\.j2: the picture is not well-formed SVG"
    ):
        check_picture(SVG_OPEN + "<rect>", "p.svg.j2")


def test_a_drawing_passes_unchanged() -> None:
    drawing = (
        SVG_OPEN + "<defs><pattern id='p'><rect width='8' height='8'/></pattern></defs>"
        "<style>.a { fill: url(#p); stroke: rgb(0, 0, 0); }</style>"
        '<g transform="translate(4 6) rotate(45)"><rect class="a" fill="url(#p)"/>'
        '<use xlink:href="#p"/><text aria-label="Pile (one card)">7</text></g></svg>'
    )
    assert check_picture(drawing, "p.svg.j2") is drawing


# 3: a game's language folders and game.toml stay inside the game's folder.


@pytest.fixture
def shelf(tmp_path: Path) -> Path:
    """A copy of the board game (English and German) on a shelf of its own."""
    shutil.copytree(rules_dir() / "skip-bo-board", tmp_path / "shelf" / "myboard")
    return tmp_path


def _secret_copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
        first = sorted(target.rglob("*.md"))[0]
        first.write_text(first.read_text(encoding="utf-8") + "\nTOPSECRET-LINE\n", "utf-8")
    else:
        text = source.read_text(encoding="utf-8")
        target.write_text(text.replace('name = "', 'name = "TOPSECRET-', 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("linked", "args"),
    [
        ("de", ["--lang", "de"]),
        ("de/game.toml", ["--lang", "de"]),
        ("de/sections", ["--lang", "de"]),
        ("de/sections/01-box.md", ["--lang", "de"]),
        ("game.toml", []),
    ],
)
def test_a_language_folder_or_game_toml_linked_out_of_the_game_is_refused(
    shelf: Path, linked: str, args: list[str]
) -> None:
    game = shelf / "shelf" / "myboard"
    outside = shelf / "outside"
    original = game / linked
    _secret_copy(original, outside)
    shutil.rmtree(original) if original.is_dir() else original.unlink()
    original.symlink_to(outside)
    before = snapshot(shelf)
    for command in (
        ["rules", "--format", "html", "-o", "b.html"],
        ["sheet", "-o", "s.pdf"],
    ):
        done = run(
            [command[0], "--rules-dir", "shelf", "--game", "myboard", *args, *command[1:]], shelf
        )
        assert_clean(done)
        if command[0] == "sheet" and linked.startswith("de/sections"):
            assert done.code == 0  # a score sheet reads no sections
            (shelf / "s.pdf").unlink()
            continue
        assert done.code == 1, done.err
        assert "TOPSECRET" not in done.err
        assert f"{linked} lies outside the game's folder ({outside.resolve()})" in done.err
        assert done.err.endswith("a game may use only its own files\n")
    assert snapshot(shelf) == before
    assert temporaries(shelf) == []


# 8: YAML tags and YAML's "nothing" in series files.


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "players: [!!binary QW5u, Bob]\ngames: []\n",
            "players, player 1: line 1: a YAML tag (!!binary) is not allowed",
        ),
        (
            "target: !!float 500\nplayers: [Ann, Bob]\ngames: []\n",
            "target: line 1: a YAML tag (!!float) is not allowed",
        ),
        ("target: !foo 500\nplayers: [Ann, Bob]\n", "target: line 1: a YAML tag (!foo) is not"),
        (
            "players: [Ann, Bob]\ngames:\n  - winner: Ann\n    left: {Bob: !!int 3}\n",
            "game 1, left Bob: line 4: a YAML tag (!!int) is not allowed",
        ),
        ("players: !!set {Ann, Bob}\n", "players: line 1: a YAML tag (!!set) is not allowed"),
        ("players: [!!null '', Bob]\n", "players, player 1: line 1: a YAML tag (!!null) is not"),
        ("players: [~, Bob]\ngames: []\n", "players, player 1: a name cannot be blank or ~"),
        ("players:\n  - Ann\n  - ~\n", "players, player 2: a name cannot be blank or ~"),
        ("players:\n  - Ann\n  -\n", "players, player 2: a name cannot be blank or ~"),
    ],
)
def test_yaml_tags_and_null_names_are_refused(folder: Path, text: str, message: str) -> None:
    (folder / "t.yaml").write_text(text, encoding="utf-8")
    before = snapshot(folder)
    for command in (["standings", "t.yaml"], ["record", "t.yaml", "--winner", "Bob"]):
        done = run(command, folder)
        assert_clean(done)
        assert done.code == 1
        assert done.err.startswith(f"Error: t.yaml, {message}"), done.err
        assert len(done.err.splitlines()) == 1
    assert snapshot(folder) == before
    assert temporaries(folder) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players: [Ann, ~]\n", "t.yaml, players, player 2: a name cannot be blank or ~"),
        ("players: [Ann, '']\n", "t.yaml, players, player 2: a name cannot be blank"),
        ("players: [Ann, !x Cy]\n", "t.yaml, players, player 2: line 1: a YAML tag (!x)"),
    ],
)
def test_both_yaml_readers_see_nothing_and_tags_alike(
    monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    """libyaml's reader (the usual one) and the pure-Python one (deeply nested text)."""
    from sheetgen.errors import SeriesFileError
    from sheetgen.series import file as seriesfile
    from sheetgen.series import yamlfile

    for reader in (yamlfile._text_loader, lambda: None):
        monkeypatch.setattr(yamlfile, "_text_loader", reader)
        with pytest.raises(SeriesFileError) as refused:
            seriesfile.parse_series(text, Path("t.yaml"))
        assert str(refused.value).startswith(message)
