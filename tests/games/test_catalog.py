"""The one catalog of games (games/catalog.py): every list of the games is derived from it, every
entry's parts load and play, and every game's package has one layout. A fifth game registered in
a copy's catalog and played by every suite: tests/games/test_toy_game.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from e2e.games import driver
from parlour.bots.arena import sweep_levels
from parlour.bots.registry import BOTS, player_levels
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.base import Game
from parlour.games.catalog import CATALOG, Entry, _parts, ids, load, names, package_of
from parlour.games.declared import GAME_IDS, facts_for, options_for
from parlour.games.facts import Facts
from parlour.games.options import Options
from parlour.games.turns import first_automatic
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.lesson_steps import Lesson
from parlour.ui.online.screen import GAME_NAMES
from parlour.ui.screens import SCREENS
from parlour.ui.tutorial import LESSONS
from scripts import pages

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = [pytest.param(entry, id=entry.id) for entry in CATALOG]
MOVES = 10


# The one deliberate list of the games in the repository (OpenSpiel's EXPECTED_GAMES): an
# inventory, so that adding or dropping a game is a decision a test records. Every other list
# of the games, in the product, the build, the bench and the tests, is derived from the catalog
# and each game's own declarations (test_no_other_hand_list_of_the_games).
EXPECTED_GAMES = ("esp", "espeers", "telepathic", "psi-squad")


def test_the_catalog_holds_the_expected_games():
    assert ids() == EXPECTED_GAMES


# Where a literal naming every game may stand: the inventory above, and the main thread's lists,
# which the build writes from the catalog (py/shell/, between "The catalog's games" comments).
MAY_LIST_THE_GAMES = {"tests/games/test_catalog.py", "py/shell/page.py", "py/shell/embed.py"}


def hand_lists(root: Path, games: set[str]) -> dict[str, list[int]]:
    """Each Python file's literals (list, tuple, set, dict keys, or rows of them) that name
    every one of `games`, by line."""

    def named(node: ast.expr) -> set[str]:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
        return {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}

    found: dict[str, list[int]] = {}
    for folder in ("py", "scripts", "bench", "tests", "e2e"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
                    items: list[ast.expr] = list(node.elts)
                elif isinstance(node, ast.Dict):
                    items = [k for k in node.keys if k is not None]
                else:
                    continue
                if games <= set().union(set(), *map(named, items)):
                    found.setdefault(path.relative_to(root).as_posix(), []).append(node.lineno)
    return found


def test_no_other_hand_list_of_the_games():
    """Lists of the four games by hand (the sweep's levels, play on's hidden, the suites' tables,
    the screens' modules) each had to learn of a fifth game; they are derived from the catalog
    and each game's facts now (tests/tables.py), and no new one may appear."""
    found = hand_lists(ROOT, set(EXPECTED_GAMES))
    assert set(found) - MAY_LIST_THE_GAMES == set(), found


def test_every_game_has_its_driver_for_the_browser_tests():
    """The browser tests take each game's clicks, its colour picture and its lesson's photos
    from its own module of e2e/games/ (found by its package name), not from lists of the four."""
    for game in ids():
        module = driver(game)
        assert callable(module.click), game
        seats, moves = module.COLOUR_PICTURE
        assert GAMES[game].min_seats <= seats <= GAMES[game].max_seats and moves > 0, game
        assert list(module.LESSON_PHOTOS) == sorted(set(module.LESSON_PHOTOS)), game


def test_the_hand_list_finder_sees_rows_and_keys(tmp_path: Path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text(
        'A = [("x", "a", 1), ("b", {})]\nB = {"a": 1, "b": 2}\nC = ["a"]\nD = "a", "c"\n'
    )
    assert hand_lists(tmp_path, {"a", "b"}) == {"tests/t.py": [1, 2]}


def test_every_list_of_the_games_is_the_catalog_s():
    listed = ids()
    assert len(set(listed)) == len(listed) >= 4
    assert tuple(GAMES) == listed == GAME_IDS
    assert tuple(SCREENS) == listed and tuple(LESSONS) == listed
    assert names() == GAME_NAMES
    assert {game for game, _ in BOTS} == set(listed)


def test_the_page_and_the_main_thread_s_lists_are_as_the_catalog_says():
    """index.html's catalog parts and generated forms, py/shell/page.py, py/shell/embed.py and
    assets/early.js are what the build writes from the catalog (run `python -m scripts.build`
    after changing it)."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    assert pages.render(page) == page
    for name in pages.LIST_FILES:
        source = (ROOT / name).read_text(encoding="utf-8")
        assert pages.game_list(source) == source, name
        assert all(f'"{game}"' in source for game in ids()), name
    for game in ids():
        for screen in ("new", "start", "solo", "link", "host", "play", "learn", "rules"):
            assert page.count(f'<section id="{screen}-{game}"') == 1, (screen, game)
        assert page.count(f'<li class="game-card" data-game="{game}"') == 1


@pytest.mark.parametrize(
    ("game", "module"), [("zener", "games/zener.py"), ("registry", "bots/registry.py")]
)
def test_an_id_whose_package_would_be_a_module_is_refused_with_a_sentence(game, module):
    """`zener` was impossible for a game: games/zener.py (the five symbols) stood where its
    package would be, and the error came from deep in an import. The catalog says so first."""
    with pytest.raises(ValueError, match=f"cannot have the id '{game}'.*{module} is a module"):
        _parts(game, "zener_screen:ZenerScreen", "Zener")
    assert package_of("psi-squad") == "psi_squad" and package_of("zener-cards") == "zener_cards"


@pytest.mark.parametrize("entry", ENTRIES)
def test_every_entry_s_parts_load_and_agree(entry: Entry):
    options = load(entry.options)
    assert isinstance(options, Options) and options is options_for(entry.id)
    assert (options.game, options.name) == (entry.id, entry.name)
    engine = load(entry.engine)
    assert issubclass(engine, Game) and isinstance(GAMES[entry.id], engine)
    counts = options.seats.counts
    assert (engine.id, engine.name) == (entry.id, entry.name)
    assert (engine.min_seats, engine.max_seats) == (min(counts), max(counts))
    assert callable(getattr(load(entry.screen)(), "board", None))
    assert isinstance(load(entry.lesson), Lesson)
    levels = load(entry.bots)
    assert set(player_levels(entry.id)) == {"easy", "medium", "hard"} <= set(levels)
    facts = load(entry.facts)
    assert isinstance(facts, Facts) and facts is facts_for(entry.id) and facts.examples
    for example in (*facts.examples, *facts.more):
        options.check(example.variant, example.seats)  # a table the form offers
        assert (
            set(example.bots.values()) <= set(levels)
            and max(example.bots, default=0) < example.seats
        )
    assert set(sweep_levels(entry.id)) <= set(levels)


def next_step(table: Table, levels: dict[int, str]) -> tuple[int, object] | None:
    """The next step of a game between bots: an automatic one, or a bot's decision; None once
    the game has a result."""
    if table.match.result() is not None:
        return None
    step = first_automatic(table.game, table.state, table.stores)
    if step is None:
        decision = bot_seats.next_decision(table, levels)
        assert decision is not None and decision.choice is not None
        step = (decision.seat, decision.choice)
    return step


def seeded_moves(game_id: str, moves: int, seed: bytes) -> list[tuple[int, object]]:
    """`moves` actions of a seeded game of `game_id` at its default seat count, every seat a bot
    of the game's own (the levels offered to players, in turn); the actions taken."""
    options = options_for(game_id)
    seats = options.seats.default
    levels = player_levels(game_id)
    bots = {str(s): levels[s % len(levels)] for s in range(seats)}
    names = tuple(f"Bot {s + 1}" for s in range(seats))
    config = MatchConfig(game_id, f"m-catalog-{game_id}", names, {}, bots=bots)
    rng = Rng(seed)
    table = Table.new(GAMES[game_id], config, rng.read(32), range(seats))
    taken: list[tuple[int, object]] = []
    while len(taken) < moves and (step := next_step(table, config.bot_levels)) is not None:
        result = table.act(*step)
        assert result.ok, result.reason
        taken.append(step)
    return taken


@pytest.mark.parametrize("entry", ENTRIES)
def test_ten_seeded_moves_of_every_game_with_its_bots(entry: Entry):
    taken = seeded_moves(entry.id, MOVES, b"catalog:" + entry.id.encode())
    assert len(taken) == MOVES


LAYOUT = ("options", "state", "actions", "rules", "views", "words", "facts")


@pytest.mark.parametrize("entry", ENTRIES)
def test_every_game_package_has_one_layout_and_its_words(entry: Entry):
    """Every game's package is laid out alike: its declaration, its state, its actions with their
    JSON, its rules, views and log sentences (words.py, `describe`); its screen says a move in
    those words: no sentence of the log lives in the UI layer or in the rules."""
    package = entry.options.partition(":")[0].rsplit(".", 1)[0]
    for module in LAYOUT:
        load(f"{package}.{module}")
    describe = load(f"{package}.words:describe")
    assert not hasattr(GAMES[entry.id], "describe")
    table = Table.new(
        GAMES[entry.id],
        MatchConfig(entry.id, "m-catalog-words", ("Ada", "Bo"), {}),
        Rng(b"words").read(32),
        range(2),
    )
    assert type(table.state).__module__ == f"{package}.state"
    codec = (load(f"{package}.actions:parse_action"), load(f"{package}.actions:action_to_json"))
    screen = load(entry.screen)()
    for _ in range(MOVES):
        step = next_step(table, {0: "easy", 1: "easy"})
        if step is None:
            break
        seat, choice = step
        before = table.state
        assert table.act(seat, choice).ok
        logged = table.match.entries[-1].action  # the action as the log holds it
        action = codec[0](logged)
        assert type(action).__module__ == f"{package}.actions" and codec[1](action) == logged
        sentence = describe(before, seat, action)
        assert screen.describe(before, seat, action) == sentence
        assert "acts." not in sentence, sentence
