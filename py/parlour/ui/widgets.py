"""The pieces every table screen shares: the players panel, the hand-off, the log, "Since your
turn", the board in words, the fair-play check; and the log's sentences (`describe_entry`), which
the play screen, the replay viewer and the online screens all tell the same way."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from parlour.errors import ParlourError
from parlour.match.audit import Cheat, Unverified, Verified
from parlour.match.match import declared, forfeited_seat, timed_out_seat
from parlour.ui.seat import GameScreen, LastMove
from parlour.ui.tree import Node, h
from parlour.words import and_list

# The log panel's rows: the newest moves, more than the longest real game tells (a forged replay
# may hold thousands: drawing them all froze the page, issue 25).
LOG_ROWS = 200


def newest_told(match: Any, screen: GameScreen) -> LastMove | None:
    """The newest entry of `match` that `screen` tells in words (forfeits aside), as a move."""
    for entry in reversed(match.entries):
        if not declared(entry.action) and describe_entry(screen, match, entry):
            before = told_before(match, entry.seq)
            return LastMove(entry.seq, entry.seat, match.game.parse_action(entry.action), before)
    return None


def last_move_of(match: Any, screen: GameScreen) -> LastMove | None:
    """The move a board marks: the newest entry of `match` that `screen` tells. None when
    there is nothing to read."""
    try:
        return newest_told(match, screen)
    except (ParlourError, ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None  # an entry its game does not read


def describe_entry(screen: GameScreen, match: Any, entry: Any) -> str:
    """A log entry of `match` in words ("" for a routine step the game does not tell)."""
    before = told_before(match, entry.seq)
    forfeit, timeout = forfeited_seat(entry.action), timed_out_seat(entry.action)
    if forfeit is not None:
        return f"{before.name(forfeit)} did not take a required step in time and forfeits."
    if timeout is not None:
        return f"{before.name(timeout)} ran out of time for a move and forfeits."
    return screen.describe(before, entry.seat, match.game.parse_action(entry.action))


def told_before(match: Any, seq: int) -> Any:
    """The state move `seq` was played in, as the log tells it: in a game played on from a
    replay (`match/play_on.py`) the original's moves under the names of who really made them,
    "Ada (original game)", not the new game's players who now hold those seats."""
    before = match.state_at(seq - 1)
    original = match.config.original_names(seq)
    if original is None:
        return before
    names = tuple(f"{name} (original game)" for name in original)
    return replace(before, setup=replace(before.setup, seat_names=names))


def seats_tree(
    screen: GameScreen,
    view: dict[str, Any],
    names: tuple[str, ...],
    acting: int | None,
    viewer: int | None,
    bots: dict[int, str],
) -> Node:
    """The one players panel: each seat's name, its line in the game's words, who acts."""
    items = []
    for seat, name in enumerate(names):
        classes = f"seat seat-{seat}" + (" acting" if seat == acting else "")
        items.append(
            h(
                "li",
                {"class": classes},
                h("span", {"class": "swatch", "aria-hidden": "true"}),
                h("strong", None, name),
                h("span", {"class": "seat-line"}, screen.seat_line(view, seat)),
                h("span", {"class": "you"}, "you") if seat == viewer else None,
                h("span", {"class": "bot-level"}, f"bot, {bots[seat]}") if seat in bots else None,
            )
        )
    return h("section", {"class": "seats", "aria-label": "Players"}, h("ul", None, *items))


def waiting_tree(view_names: list[str], seats: list[int], doing: str) -> Node:
    """While other seats act (online, where each device shows its own seat throughout)."""
    who = and_list([view_names[s] for s in seats]) or "the others"
    return h(
        "section",
        {"class": "controls waiting", "data-role": "waiting"},
        h("p", None, f"Waiting for {who} {doing}…"),
    )


def handoff_tree(name: str, last_move: str | None = None, mover: str | None = None) -> Node:
    """The one hand-off screen: nothing of any seat's secrets, just who takes the device; and,
    while `mover` (who has just moved) still holds it, their way to take the move back."""
    return h(
        "div",
        # a new hand-off opens at its top (the page scrolls to it: py/shell/dom.py show_top)
        {"class": "handoff", "data-role": "handoff", "data-opens-at-top": f"handoff:{name}"},
        h("p", {"class": "last-move", "data-role": "last-move"}, last_move) if last_move else None,
        h(
            "p",
            {"class": "take-back", "data-role": "take-back"},
            f"{mover}, not what you meant? ",
            h(
                "button",
                {"class": "button small", "data-cmd": "take-back", "type": "button"},
                "Take back my move",
            ),
        )
        if mover
        else None,
        h("p", {"class": "eyebrow"}, "Pass the device to"),
        h("h2", None, name),
        h("p", None, "Everyone else, look away: the next screen shows this player's secrets."),
        h(
            "button",
            {
                "class": "button primary",
                "data-cmd": "take-device",
                "type": "button",
                "data-autofocus": True,
            },
            f"I'm {name}: show my view",
        ),
    )


def log_tree(lines: list[str], open_: bool = True, scope: str = "replay") -> Node:
    """The one log panel: the moves in words, newest last, the newest `LOG_ROWS` of them (a
    longer log says how many earlier moves it leaves out: a page of thousands of rows froze
    the replay viewer, issue 25); it folds away to a button (the fold is the session's, so a
    redraw keeps it)."""
    shown = lines[-LOG_ROWS:]
    earlier = len(lines) - len(shown)
    items = [h("li", None, line) for line in shown]
    return h(
        "section",
        {"class": "log" + ("" if open_ else " folded"), "aria-label": "Game log"},
        h(
            "h3",
            None,
            h(
                "button",
                {
                    "class": "log-toggle",
                    "type": "button",
                    "data-cmd": "toggle-log",
                    "aria-expanded": "true" if open_ else "false",
                    "aria-controls": f"{scope}-game-log",
                },
                "Game log",
                h("span", {"class": "log-count"}, f" ({len(lines)})") if not open_ else None,
            ),
        ),
        h(
            "div",
            {"id": f"{scope}-game-log", "hidden": not open_},
            h(
                "p",
                {"class": "hint", "data-role": "log-earlier"},
                earlier_words(earlier, "move", "moves"),
            )
            if earlier
            else None,
            # it scrolls once long: Tab reaches it, so the arrow keys scroll it (axe)
            h(
                "ol",
                {
                    "data-role": "log",
                    "tabindex": "0",
                    "aria-label": "Moves, oldest first",
                    "start": earlier + 1 if earlier else None,
                },
                *items,
            )
            if items
            else h("p", None, "No moves yet."),
        ),
    )


def earlier_words(count: int, one: str, many: str) -> str:
    """The line beside a list drawn only in part: how many earlier rows it leaves out."""
    return f"… {count:,} earlier {one if count == 1 else many}, not shown here."


def since_tree(lines: list[str]) -> Node | None:
    """ "Since your turn:": the others' moves since yours, in one place beside the board."""
    if not lines:
        return None
    return h(
        "section",
        {"class": "since", "data-role": "since", "aria-label": "Since your turn"},
        h("h3", None, "Since your turn:"),
        # a phone shows a few lines and scrolls the rest (the board stays in view): focusable
        # so a keyboard can scroll it too
        h("ol", {"tabindex": "0"}, *(h("li", None, line) for line in lines)),
    )


def description_tree(sentences: list[str]) -> Node:
    """ "Describe the board": the position in sentences, under the play bar."""
    return h(
        "section",
        {"class": "board-description", "data-role": "description", "aria-label": "The board"},
        h("h3", None, "The board in words"),
        h("ul", None, *(h("li", None, s) for s in sentences)),
    )


def audit_tree(
    result: Verified | Cheat | Unverified | None,
    names: tuple[str, ...],
    online: bool = False,
    relayed: frozenset[int] = frozenset(),
) -> Node:
    """The fair-play check's result. `relayed`: seats whose every message reached this device
    through the host's (another guest's, seen from a guest): a cheat pinned on one of them could
    also be the host altering its messages on the way, and the reader is told how to tell."""
    if isinstance(result, Verified):
        return h(
            "p",
            {"class": "audit verified", "data-audit": "verified"},
            "Fair-play check: verified. ",
            result.summary,
        )
    if isinstance(result, Cheat):
        who = names[result.seat] if 0 <= result.seat < len(names) else "A player"
        return h(
            "p",
            {"class": "audit cheat", "data-audit": "cheat"},
            f"Fair-play check: {who} cheated. ",
            result.reason,
            f" {who}'s messages reached this device through the host's: if {who}'s own device "
            "says verified below, the host's device changed them on the way."
            if result.seat in relayed
            else None,
        )
    if isinstance(result, Unverified):
        return h(
            "p",
            {"class": "audit unverified", "data-audit": "unverified"},
            "Fair-play check: unverified. ",
            result.reason,
        )
    if online:
        return h(
            "p",
            {"class": "audit", "data-audit": "pending"},
            "Fair-play check: waiting for the other devices to open their secrets…",
        )
    return h("p", {"class": "audit"}, "Fair-play check pending.")
