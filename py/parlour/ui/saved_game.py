"""A game saved on this device, named without replaying it, and the question asked before a
new game would replace it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from parlour.errors import ParlourError
from parlour.ui.page import Storage
from parlour.ui.tree import Node, h
from parlour.words import and_list

if TYPE_CHECKING:
    from parlour.match.table import Table
    from parlour.ui.play_session import Session

STORAGE = "psi-parlour:{game}:pass-and-play"
FINISHED = ":finished"  # beside a saved game's key: that game is over
# A person's standing option of a game's screen (ESPEERS's "Pass unless..."), kept for their
# next game against the bots: the screen names the notes it keeps (`remembered`).
OPTION = "psi-parlour:{game}:option:{name}"


def saved_what(game_id: str) -> str:
    """A pass-and-play save, named for the player ("Your saved ESP game")."""
    from parlour.ui.online.screen import GAME_NAMES

    return f"Your saved {GAME_NAMES.get(game_id, game_id)} game"


def save_session(storage: Storage, game_id: str, session: Session) -> None:
    """Save this device's game of `game_id`: a reload loses nothing."""
    key = STORAGE.format(game=game_id)
    over = session.table.match.result() is not None
    if over and not session.result_open:
        storage.remove(key)
    else:
        storage.set(key, json.dumps(session.to_json()))
    remember_options(storage, game_id, session)
    # a finished game kept for its result is not one to resume (shell/page.py reads keys
    # only, so the end is a key of its own)
    if over != (storage.get(key + FINISHED) is not None):
        storage.set(key + FINISHED, "1" if over else None)


def _options(session: Session) -> tuple[int | None, tuple[str, ...]]:
    """The one person against bots at this device, and the options their screen keeps."""
    names = tuple(getattr(session.screen, "remembered", ()))
    return (session.humans[0] if session.alone_with_bots() else None), names


def remember_options(storage: Storage, game_id: str, session: Session) -> None:
    """Keep the person's standing options (on or off) for their next game against bots."""
    seat, names = _options(session)
    if seat is None:
        return
    for name in names:
        key, on = OPTION.format(game=game_id, name=name), bool(session.notes_of(seat).get(name))
        if (storage.get(key) == "1") != on:
            storage.set(key, "1" if on else None)


def recall_options(storage: Storage, game_id: str, session: Session) -> None:
    """A new game against bots starts with the options the person last chose."""
    seat, names = _options(session)
    if seat is None:
        return
    for name in names:
        if storage.get(OPTION.format(game=game_id, name=name)) == "1":
            session.notes_of(seat)[name] = True
    session.run_stops()


def read_saved(storage: Storage, game_id: str) -> object:
    """The save of `game_id` as stored (None: none, or one set aside as unreadable)."""
    return storage.read(STORAGE.format(game=game_id), saved_what(game_id))


def saved_table(storage: Storage, game_id: str) -> tuple[Table[Any, Any], dict[int, Any]] | None:
    """The saved game's table and its seats' notes; None if there is none. A save that cannot
    be read back is set aside (the storage note says so)."""
    from parlour.match.table import Table

    saved = read_saved(storage, game_id)
    if saved is None:
        return None
    try:
        if not isinstance(saved, dict):
            raise ValueError("not a save")
        table = Table.from_json(saved["table"])
        notes = {int(k): v for k, v in saved.get("notes", {}).items() if isinstance(v, dict)}
    except (ParlourError, ValueError, TypeError, KeyError, AttributeError):
        storage.set_aside(STORAGE.format(game=game_id), saved_what(game_id))
        return None
    return table, notes


def saved_summary(saved: object) -> dict[str, Any] | None:
    """Who plays a saved game and how far it went, read without replaying it; None if there is
    no game in progress worth asking about (none, finished, or unreadable)."""
    if not isinstance(saved, dict):
        return None
    summary = saved.get("summary")
    if isinstance(summary, dict):
        if summary.get("over"):
            return None
        names, moves = summary.get("names"), summary.get("moves")
    else:  # saved before summaries: read the config and count the log
        match = (
            saved.get("table", {}).get("match", {}) if isinstance(saved.get("table"), dict) else {}
        )
        names = match.get("config", {}).get("seats") if isinstance(match, dict) else None
        moves = len(match.get("log", [])) if isinstance(match, dict) else 0
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    return {"names": names, "moves": moves if isinstance(moves, int) else 0}


def replace_game_tree(game_id: str, game_name: str, summary: dict[str, Any]) -> Node:
    """Starting a new game would replace the one saved on this device: ask first."""
    names = summary["names"]
    who = and_list(names)
    moves = summary["moves"]
    so_far = f"{moves} move{'s' if moves != 1 else ''} in" if moves else "not started yet"
    return h(
        "div",
        {
            "class": "confirm",
            "data-role": "replace-game",
            "role": "alertdialog",
            "aria-labelledby": f"replace-{game_id}-title",
        },
        h("h2", {"id": f"replace-{game_id}-title"}, f"Replace your game of {game_name}?"),
        h(
            "p",
            None,
            f"Your game{f' with {who}' if who else ''} ({so_far}) is saved on this device. "
            "Starting a new game "
            "will lose it: this device keeps one game of each kind.",
        ),
        h(
            "div",
            {"class": "actions"},
            h(
                "a",
                {"class": "button primary", "href": f"#play-{game_id}", "data-autofocus": True},
                "Back to my game",
            ),
            h(
                "button",
                {"class": "button", "type": "button", "data-cmd": "replace-game"},
                "Start the new game",
            ),
        ),
    )
