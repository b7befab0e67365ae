"""A fifth game is one catalog entry and its own files (issue 40), proven with a complete one.

Second Sight (tests/toy_game/) is a small hidden-information game with everything a game of the
site has: its declaration, state, actions, rules, views, words and facts, its bots, screen and
lesson, all in its own folder. In a copy of the site whose catalog gains its one entry
(tests/toy_game/entry.py) and nothing else, the build writes its page and the main thread's
lists, and then every suite parametrised over the catalog plays it as it plays the four games:
pass and play, online, by link, replays, play on, signed play, bots, lessons, screens and the
golden journeys. The steps are those of docs/architecture.md, "Adding a game or an option".
"""

from __future__ import annotations

import ast
import filecmp
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.games.catalog import Entry
from scripts import pages
from tests.toy_game.entry import LINE, with_the_toy

ROOT = Path(__file__).resolve().parents[2]
TOY = "second-sight"
REPORT = "toy-report.xml"  # the copy's run of the suites, as JUnit XML
CATALOG = "py/parlour/games/catalog.py"
FOLDER = "tests/toy_game"  # everything of the game's own
# What the copy leaves out: what .gitignore does (build output, caches, the runtime's
# download), and the repository itself.
NOT_THE_SITE = (".git", ".venv", "node_modules", "vendor", "build", "dist", "screenshots",
                "test-results", "__pycache__", "*.pyc", ".*cache", ".hypothesis", ".netlify",
                ".e2e-engine-seed", "sw.js")  # fmt: skip
# What the build writes from the catalog: the page and the main thread's lists.
WRITTEN_BY_THE_BUILD = {"index.html", *pages.LIST_FILES}

# Every suite parametrised over the catalog (its games, their example tables, their screens,
# lessons, bots and forms), and how many of each one's tests play the toy at the least: a suite
# that stops taking the games from the catalog drops below and fails here, and a new one that
# takes them must be named here.
SUITES = {
    "tests/test_conformance.py": 6,
    "tests/test_online.py": 1,
    "tests/test_by_link.py": 2,
    "tests/test_link_batches.py": 2,
    "tests/test_replay.py": 4,
    "tests/test_play_on.py": 1,
    "tests/test_signed_play.py": 3,
    "tests/test_words.py": 2,
    "tests/games/test_catalog.py": 3,
    "tests/games/test_options.py": 6,
    "tests/games/test_turns.py": 1,
    "tests/bots/test_hung.py": 1,
    "tests/ui/test_solo.py": 2,
    "tests/ui/test_tutorial.py": 5,
    "tests/ui/test_bot_seats.py": 1,
    "tests/ui/test_one_status.py": 1,
    "tests/ui/test_redraw.py": 1,
    "tests/ui/test_replay_screen.py": 1,
    "tests/ui/test_screen_commands.py": 3,
    "tests/ui/test_since_your_turn.py": 1,
    "tests/ui/test_golden_screens.py": 4,
    "tests/ui/test_link_app.py": 3,
    "tests/test_carry_on.py": 2,
}


PARTS = ("options", "engine", "screen", "lesson", "bots", "facts")  # an Entry's import paths


def parts_of_the_line() -> dict[str, str]:
    """The import paths the toy's catalog line names, read from its text."""
    call = ast.parse(LINE.strip().rstrip(","), mode="eval").body
    assert isinstance(call, ast.Call) and ast.unparse(call.func) == Entry.__name__
    return {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg in PARTS}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the site with the toy's entry in its catalog, built."""
    copy = tmp_path_factory.mktemp("site") / "site"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*NOT_THE_SITE))
    catalog = copy / CATALOG
    catalog.write_text(with_the_toy(catalog.read_text(encoding="utf-8")), encoding="utf-8")
    built = subprocess.run(
        [sys.executable, "-c", "from scripts import pages; pages.main()"],
        cwd=copy,
        env=environment(copy),
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    return copy


def environment(copy: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{copy / 'py'}{os.pathsep}{copy}"}


def outside_the_site(name: str) -> bool:
    """Whether a file or folder's name is one the copy leaves out (a cache, build output)."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in NOT_THE_SITE)


def site_files(root: Path) -> Iterator[str]:
    """The site's files under `root`, by their paths from it: none of what it leaves out."""
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if not outside_the_site(f))
        for file in sorted(files):
            if not outside_the_site(file):
                yield (Path(folder) / file).relative_to(root).as_posix()


def changed_files(copy: Path) -> set[str]:
    """The files of the copy that differ from the checkout's, or that it alone holds."""
    found = set()
    for name in site_files(copy):
        if name == REPORT:
            continue
        path, mine = copy / name, ROOT / name
        if not mine.is_file() or not filecmp.cmp(path, mine, shallow=False):
            found.add(name)
    return found


def test_the_toy_game_needs_no_file_but_its_own_and_the_catalog_line(site: Path):
    """Registered the way docs/architecture.md says, the toy changed one file by hand, the
    catalog, by one entry; the build rewrote the page and the main thread's lists from it; every
    part the entry names is a module of the toy's own folder, and that folder holds nothing
    else. So a new game needs no file outside its own folders but the catalog's line."""
    assert changed_files(site) == {CATALOG} | WRITTEN_BY_THE_BUILD
    source = (site / CATALOG).read_text(encoding="utf-8")
    assert source.replace(LINE, "") == (ROOT / CATALOG).read_text(encoding="utf-8")
    parts = parts_of_the_line()
    assert set(parts) == set(PARTS)
    modules = {part.partition(":")[0] for part in parts.values()}
    files = {module.replace(".", "/") + ".py" for module in modules}
    assert all(name.startswith(f"{FOLDER}/") and (ROOT / name).is_file() for name in files)
    # the folder: the entry's parts, the modules they import from it, and the line itself
    own = {p.relative_to(ROOT).as_posix() for p in (ROOT / FOLDER).glob("*.py")}
    imported = set()
    for name in own:
        text = (ROOT / name).read_text(encoding="utf-8")
        imported |= {f"{FOLDER}/{m}.py" for m in re.findall(r"tests\.toy_game\.(\w+)", text)}
        imported |= {
            f"{FOLDER}/{m}.py" for m in re.findall(r"from tests\.toy_game import (\w+)", text)
        }
    assert own == files | imported | {f"{FOLDER}/__init__.py", f"{FOLDER}/entry.py"}


# How a file would refer to the toy: an import from its folder, or its id as a literal.
MENTIONS = re.compile(r"""tests\.toy_game|["']second-sight["']""")
CODE = ("*.py", "*.js", "*.mjs", "*.html", "*.css", "*.json", "*.toml")


def test_no_file_of_the_site_but_its_own_refers_to_the_toy_game():
    """Everything else takes the toy from the catalog: no module, script, page, style or
    setting of the site imports it or names its id, but its own files, this test, and the type
    checker's list of packages (pyproject.toml), which checks it as strictly as the games it
    stands for (a game under py/parlour/ is in that list already)."""
    found = {
        name
        for name in site_files(ROOT)
        if any(fnmatch.fnmatch(name, pattern) for pattern in CODE)
        and not name.startswith(f"{FOLDER}/")
        and MENTIONS.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))
    }
    assert found == {"tests/games/test_toy_game.py", "pyproject.toml"}, found


# Run in the copy: the worker's lists, the bots and the facts take the toy from its catalog.
IN_THE_COPY = """
from parlour.bots.arena import sweep_levels, tables
from parlour.bots.registry import bot_for, player_levels
from parlour.games import GAMES
from parlour.games.declared import facts_for
from parlour.ui.online.screen import GAME_NAMES
from parlour.ui.screens import SCREENS
from shell.embed import choices
from shell.page import REGIONS
from tests.toy_game.bots import LEVELS

assert GAMES["second-sight"].name == "Second Sight" and GAMES["second-sight"].max_seats == 2
assert GAME_NAMES["second-sight"] == "Second Sight" and "second-sight" in SCREENS
assert bot_for("second-sight", "hard") is LEVELS["hard"]
assert player_levels("second-sight") == ("easy", "medium", "hard")
assert choices({"game": "second-sight"})["game"] == "second-sight"
assert ("#play-second-sight .play-root", "play:second-sight") in REGIONS
assert facts_for("second-sight").hidden is not None
assert tables("second-sight") == [(2, {"rounds": 3}), (2, {"rounds": 5})]
assert sweep_levels("second-sight") == ("easy", "medium", "hard")
print("the copy takes it")
"""


def test_the_build_writes_its_page_and_the_worker_takes_it(site: Path):
    """The build wrote its home card, set-up form, screens, rules page skeleton and Embed
    choice, and the main thread's lists; a second build changes nothing; the worker's registry,
    online names, screens and the tools' facts take it."""
    page = (site / "index.html").read_text(encoding="utf-8")
    for screen in ("new", "start", "solo", "link", "host", "play", "learn", "rules"):
        assert page.count(f'<section id="{screen}-second-sight"') == 1, screen
    form = page[page.index('<section id="new-second-sight"') :]
    form = form[: form.index("</section>")]
    assert '<h2 id="new-second-sight-title">New game of Second Sight</h2>' in form
    assert 'name="second-sight-rounds" data-variant="rounds" value="5"> Five' in form
    rules = page[page.index('<section id="rules-second-sight"') :]
    rules = rules[: rules.index("</section>")]
    assert "<h2>Second Sight</h2>" in rules and 'href="#learn-second-sight"' in rules
    assert "<td>Rounds</td><td>Three; Five</td><td>Three</td>" in rules
    assert '<option value="second-sight">Second Sight</option>' in page
    assert "All five games" in page and '<li class="game-card" data-game="second-sight"' in page
    assert '"second-sight"' in (site / "assets/early.js").read_text(encoding="utf-8")
    run = [sys.executable, "-c"]
    again = subprocess.run(
        [*run, "from scripts import pages; assert not pages.write()"],
        cwd=site,
        env=environment(site),
    )
    assert again.returncode == 0
    checked = subprocess.run(
        [*run, IN_THE_COPY], cwd=site, env=environment(site), capture_output=True, text=True
    )
    assert checked.returncode == 0 and "the copy takes it" in checked.stdout, checked.stderr


def test_the_finder_of_changed_files_sees_one_byte(tmp_path: Path):
    """The test above could pass by seeing nothing: a byte changed anywhere is a changed file."""
    (tmp_path / "README.md").write_bytes((ROOT / "README.md").read_bytes() + b" ")
    shutil.copyfile(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "new.txt").write_text("x")
    (tmp_path / ".hypothesis").mkdir()
    (tmp_path / ".hypothesis" / "examples").write_text("x")  # a cache: not the site
    assert changed_files(tmp_path) == {"README.md", "new.txt"}


def test_every_suite_parametrised_over_the_catalog_plays_the_toy_game(site: Path):
    """In the copy, every test of tests/ whose id names the toy game runs and passes: in each
    suite of SUITES, as many as it has for a game, and in no other (the games come from the
    catalog there, not from a list of four)."""
    report = site / REPORT
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests",
            "-k",
            TOY,
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            f"--junitxml={report}",
        ],
        cwd=site,
        env=environment(site),
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    passed: dict[str, int] = {}
    for case in ElementTree.parse(report).iter("testcase"):
        failed = any(child.tag in ("failure", "error", "skipped") for child in case)
        assert not failed, case.attrib
        assert TOY in case.attrib["name"], case.attrib
        module = case.attrib["classname"].replace(".", "/") + ".py"
        passed[module] = passed.get(module, 0) + 1
    assert set(passed) == set(SUITES), set(passed) ^ set(SUITES)
    short = {suite: (passed[suite], least) for suite, least in SUITES.items()}
    assert all(ran >= least for ran, least in short.values()), short
