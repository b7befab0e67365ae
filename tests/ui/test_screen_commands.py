"""Issue 30: a game's screen turns clicks into moves through one table of commands (its
`COMMANDS`, as the session's own), so a new command is one entry: every command a screen draws
is a name in a table, each name reaches its entry, and a name no table holds is refused with a
sentence and changes nothing."""

from __future__ import annotations

import copy
import importlib
from types import ModuleType

import pytest

from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui import play_session
from parlour.ui.play import PlaySession
from parlour.ui.screens import screen_for
from parlour.ui.seat import NOT_A_COMMAND
from parlour.ui.tree import Node, to_html
from tests.test_conformance import SETUPS
from tests.ui.test_tree_html import screens_of_a_game

MODULES = {
    "esp": "parlour.ui.esp_screen",
    "espeers": "parlour.ui.espeers_screen",
    "psi-squad": "parlour.ui.psi_screen",
    "telepathic": "parlour.ui.tele_screen",
}
# What the page itself answers before a session sees the click (ui/app.py): the result's buttons.
PAGE_COMMANDS = {"rematch", "download-game"}
NOT_COMMANDS = (
    {"cmd": "no-such-command"},
    {"cmd": "__class__"},
    {"cmd": 7},
    {"cmd": None},
    {},
    {"cmd": "", "cell": "0,0"},
)


def screen_module(game_id: str) -> ModuleType:
    return importlib.import_module(MODULES[game_id])


def drawn_commands(tree: Node) -> set[str]:
    """The command of every control a screen draws; a board cell's click is "cell"."""
    found = {node.attrs["data-cmd"] for node in tree.find_all() if node.attrs.get("data-cmd")}
    if any(node.attrs.get("data-cell") is not None for node in tree.find_all()):
        found.add("cell")
    return found


def shown(game_id: str) -> PlaySession:
    """A fresh pass-and-play game of `game_id`, its first seat on screen."""
    _, names, variant = next(setup for setup in SETUPS if setup[0] == game_id)
    config = MatchConfig(game_id, f"m-commands-{game_id}", names, variant)
    table = Table.new(GAMES[game_id], config, Rng(game_id.encode()).read(32), range(len(names)))
    session = PlaySession(table, screen_for(game_id))
    session.handle({"cmd": "take-device"})
    assert session.viewer is not None
    return session


def test_every_command_a_screen_draws_is_a_name_in_its_table_or_the_sessions():
    for game_id, names, variant in SETUPS:
        table = screen_module(game_id).COMMANDS
        seed = f"{game_id}-commands".encode()
        drawn = set().union(*map(drawn_commands, screens_of_a_game(game_id, names, variant, seed)))
        assert drawn & set(table), game_id  # the journey drew the screen's own controls
        stray = drawn - set(table) - set(play_session.COMMANDS) - PAGE_COMMANDS
        assert stray == set(), (game_id, stray)


@pytest.mark.parametrize("game_id", sorted(MODULES))
def test_a_click_reaches_the_entry_of_its_name(game_id: str, monkeypatch):
    module = screen_module(game_id)
    assert module.COMMANDS
    reached: list[dict] = []
    for name in module.COMMANDS:
        session = shown(game_id)
        reached.clear()
        entries = {**module.COMMANDS, name: lambda _screen, _seat, event: reached.append(event)}
        monkeypatch.setattr(module, "COMMANDS", entries)
        event = {"cell": "0,0"} if name == "cell" else {"cmd": name, "key": "1"}
        session.handle(event)
        assert reached == [event], (game_id, name)
        monkeypatch.undo()


@pytest.mark.parametrize("game_id", sorted(MODULES))
def test_a_name_no_table_holds_is_refused_with_a_sentence_and_changes_nothing(game_id: str):
    session = shown(game_id)
    screen = session.screen
    for event in NOT_COMMANDS:
        before = (
            session.table.match.step,
            copy.deepcopy(session.selection),
            copy.deepcopy(session.notes),
            copy.deepcopy(vars(screen)),
            session.viewer,
        )
        session.handle(dict(event))
        assert session.message == NOT_A_COMMAND, (game_id, event)
        after = (
            session.table.match.step,
            session.selection,
            session.notes,
            vars(screen),
            session.viewer,
        )
        assert after == before, (game_id, event)
        assert NOT_A_COMMAND in to_html(session.render())


@pytest.mark.parametrize("game_id", sorted(set(MODULES) - {"psi-squad"}))
def test_a_key_press_a_screen_does_not_read_passes_in_silence(game_id: str):
    """Keys reach every game's screen (the page sends them to the region in focus): one the
    screen has no entry for is not a click, so it says nothing."""
    session = shown(game_id)
    selection = copy.deepcopy(session.selection)
    session.handle({"cmd": "key", "key": "x"})
    assert session.message == "" and session.selection == selection
