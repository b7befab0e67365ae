"""A game saved on this device, named without replaying it, and the question asked before a
new game would replace it."""

from __future__ import annotations

from parlour.ui.tree import Node, h


def saved_summary(saved: object) -> dict | None:
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


def replace_game_tree(game_id: str, game_name: str, summary: dict) -> Node:
    """Starting a new game would replace the one saved on this device: ask first."""
    names = summary["names"]
    who = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
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
            f"Your game with {who} ({so_far}) is saved on this device. Starting a new game "
            "will lose it: this device keeps one game of each kind.",
        ),
        h(
            "div",
            {"class": "actions"},
            h(
                "a",
                {"class": "button primary", "href": f"#play-{game_id}", "autofocus": True},
                "Back to my game",
            ),
            h(
                "button",
                {"class": "button", "type": "button", "data-cmd": "replace-game"},
                "Start the new game",
            ),
        ),
    )
