"""The replay viewer's screen (pure): a finished game stepped through, drawn by its own screen.

The board, the players panel, the log and the verdict are the play screen's own pieces
(`GameScreen.board`, `seats_tree`, `log_tree`, `audit_tree`): the viewer draws them for a
`Spectator`, a session that holds no seat. So at every position it shows the public view, as a
person watching the table would; the openings reach a screen (through `opened`) only once
"show everything" is on. Around them: the step controls, the switch, the link and the file.
"""

from __future__ import annotations

import re
from typing import Any

from parlour.match.play_on import offered
from parlour.match.replay import too_long_to_send
from parlour.match.signature_check import CAVEAT
from parlour.match.table import Table
from parlour.match.viewer import Replay
from parlour.ui import help as helps
from parlour.ui.online.screen import GAME_NAMES
from parlour.ui.outcome import outcome_title
from parlour.ui.seat import GameScreen
from parlour.ui.tree import Node, h, s
from parlour.ui.widgets import audit_tree, describe_entry, log_tree, seats_tree

START = "The start of the game: no move yet."
# What the check beside a replay's verdict proves, and what no link can (issue 25): anyone can
# write a record that follows the rules and its own seals.
VERDICT_SCOPE = (
    "The check proves that this record follows the rules and that every secret opened at the "
    "end matches its seal; it cannot prove who played, that the game took place, or that "
    "nobody saw another player's secrets."
)


class Spectator:
    """A `Seat` for a replay: no seat on screen, nothing to click, and no secret unless the
    replay shows everything."""

    viewer = None
    focus_to = None

    def __init__(self, replay: Replay, screen: GameScreen) -> None:
        self.replay = replay
        self.table = Table(replay.now(), {})
        self.selection = screen.new_selection()

    @property
    def match(self) -> Any:
        return self.table.match

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.match.config.seats

    def view(self) -> Any:
        return self.table.game.public_view(self.table.state)

    def legal(self) -> list:
        return []

    def act(self, choice: Any) -> bool:
        return False

    def opened(self, seat: int) -> Any:
        return self.replay.store_of(seat) if self.replay.everything else None

    def notes_of(self, seat: int) -> dict:
        return {}

    def you(self) -> int | None:
        return None  # nobody at a replay's table is addressed as "you"

    def alone_with_bots(self) -> bool:
        return False

    def run_stops(self) -> None:
        return None


def said_of(screen: GameScreen, replay_match: Any) -> list[str]:
    """Every entry of a replayed match in words ("" for routine steps)."""
    return [describe_entry(screen, replay_match, e) for e in replay_match.entries]


def replay_tree(replay: Replay, screen: GameScreen, said: list[str], link: str) -> Node:
    """The whole viewer at the replay's position."""
    helps.begin("replay")
    spectator = Spectator(replay, screen)
    match = spectator.table.match
    game = match.game
    view = dict(game.public_view(match.state))
    result = match.result()
    status = result.reason if result is not None else screen.status(view, 0)
    told = [line for line in said[: replay.step] if line]
    return h(
        "div",
        {
            "class": f"replay play play-{game.id}",
            "data-position": replay.position,
            "data-step": replay.step,
            "data-everything": "on" if replay.everything else "off",
        },
        _head(replay, game.id, link),
        _bar(replay),
        h(
            "p",
            {"class": "message", "role": "status", "aria-live": "polite", "data-role": "said"},
            _said_here(replay, said),
        ),
        h(
            "div",
            {"class": "play-main"},
            h(
                "div",
                {"class": "board-wrap"},
                h("p", {"class": "turn replay-status", "data-role": "status"}, status),
                screen.board(spectator, view),
            ),
            h(
                "aside",
                {"class": "side"},
                # beside the board (just under it on a phone): the board never moves as it comes
                # and goes
                _play_on(replay, view),
                _verdict(replay),
                _hidden(replay, spectator, screen),
                seats_tree(screen, view, spectator.names, _acting(view), None, {}),
                log_tree(told),
            ),
        ),
    )


def _head(replay: Replay, game_id: str, link: str) -> Node:
    names = replay.record.config.seats
    too_long = too_long_to_send(link)  # then the game file is what to send
    ending = replay.match.result()
    title = (  # no spoiler: the ending is told at the end, or when asked for
        (outcome_title(ending, names) if ending is not None else "The game was not finished.")
        if replay.tells_result
        else None
    )
    return h(
        "header",
        {"class": "replay-head"},
        h(
            "div",
            {"class": "replay-title"},
            h("p", {"class": "eyebrow"}, f"Replay · {GAME_NAMES.get(game_id, game_id)}"),
            h("h2", {"id": "replay-title"}, " · ".join(names)),
            h("p", {"class": "replay-ending", "data-role": "ending"}, title)
            if title
            else h(
                "button",
                {"class": "button small", "data-cmd": "show-result", "type": "button"},
                "Show the result",
            ),
        ),
        h(
            "div",
            {"class": "tools"},
            h(
                "button",
                {"class": "button small", "data-cmd": "copy", "data-copy": link, "type": "button"},
                "Copy link",
            )
            if too_long is None
            else None,
            h(
                "button",
                {"class": "button small", "data-cmd": "download", "type": "button"},
                "Download the game file",
            ),
            h("a", {"class": "button small", "href": "#replay"}, "Open another"),
            h("a", {"class": "button small", "href": "#home"}, "All games"),
        ),
        h("p", {"class": "hint", "data-role": "long-link"}, too_long) if too_long else None,
    )


# The step buttons' icons, drawn here (a font may lack ⏮ and ⏭): SVG paths in a 16-unit box.
ICONS = {
    "first": "M2 2h2.5v12H2zM14 2 5.5 8 14 14z",
    "previous": "M13 2 4 8l9 6z",
    "next": "M3 2l9 6-9 6z",
    "last": "M11.5 2H14v12h-2.5zM2 2l8.5 6L2 14z",
    "play": "M4 2l10 6-10 6z",
    "pause": "M3 2h3.5v12H3zM9.5 2H13v12H9.5z",
}


def icon(name: str) -> Node:
    return s(
        "svg",
        {"class": "icon", "viewBox": "0 0 16 16", "aria-hidden": "true", "focusable": "false"},
        s("path", {"d": ICONS[name]}),
    )


def _button(cmd: str, label: str, disabled: bool, *words: object, **more: object) -> Node:
    return h(
        "button",
        {
            "class": f"button small step-{cmd}",
            "data-cmd": cmd,
            "type": "button",
            "aria-label": label,
            "title": label,
            "disabled": disabled,
            **more,
        },
        *words,
    )


def _bar(replay: Replay) -> Node:
    """First, previous, play or pause, next, last; the slider; where we are."""
    at_start, at_end = replay.position == 0, replay.at_end
    playing = replay.playing
    where = (
        "Start"
        if replay.position == 0
        else f"Move {replay.position} of {replay.last}"
        if not at_end
        else f"End · {replay.last} moves"
    )
    return h(
        "div",
        {"class": "replay-bar", "role": "toolbar", "aria-label": "Step through the game"},
        h(
            "div",
            {"class": "replay-buttons"},
            _button("first", "First: the start (Home)", at_start, icon("first")),
            _button("previous", "Previous move (←)", at_start, icon("previous")),
            _button(
                "play",
                "Pause" if playing else "Play the moves one by one",
                replay.last == 0,
                icon("pause" if playing else "play"),
                "Pause" if playing else "Play",
                aria_pressed="true" if playing else "false",
                data_play="off" if playing else "on",
            ),
            _button("next", "Next move (→)", at_end, icon("next")),
            _button("last", "Last: the end (End)", at_end, icon("last")),
        ),
        h(
            "div",
            {"class": "replay-slider"},
            h(
                "input",
                {
                    "type": "range",
                    "aria-label": "Move",
                    "min": 0,
                    "max": replay.last,
                    "value": replay.position,
                    "step": 1,
                    "data-cmd": "seek",
                    "data-field": "position",
                    "aria-valuetext": where,
                },
            ),
            h("span", {"class": "replay-where", "data-role": "where"}, where),
        ),
    )


def _play_on(replay: Replay, view: dict) -> Node | None:
    """ "Play on from here against the computer", where the position hides nothing of the
    original game (`match/play_on.py`): the person takes the seat whose move it is."""
    if not offered(replay):
        return None
    seat = _acting(view)
    whose = replay.record.config.seats[seat] if seat is not None else "the next player"
    return h(
        "section",
        {"class": "replay-play-on", "aria-label": "Play on"},
        h(
            "button",
            {"class": "button primary", "type": "button", "data-cmd": "play-on"},
            "Play on from here against the computer",
        ),
        h(
            "p",
            {"class": "hint"},
            f"You take {whose}'s move; medium bots play the others. Nothing of this "
            "position is hidden, so it is a fair new game.",
        ),
    )


def _said_here(replay: Replay, said: list[str]) -> str:
    if replay.position == 0:
        return START
    told = [line for line in said[: replay.step] if line]
    return told[-1] if told else START


def _acting(view: dict) -> int | None:
    to_move = view.get("to_move") or []
    return min(to_move) if to_move else None


def _verdict(replay: Replay) -> Node:
    names = replay.record.config.seats
    cut = (
        h(
            "p",
            {"class": "hint", "data-role": "cut-short"},
            f"This replay stops at move {replay.match.step}: the move after it breaks the "
            "rules, so it cannot be shown.",
        )
        if replay.cut_short
        else None
    )
    return h(
        "section",
        {"class": "replay-verdict", "aria-label": "Fair-play check"},
        audit_tree(replay.verdict, names),
        cut,
        _signatures(replay),
        h(
            "p",
            {"class": "hint", "data-role": "verdict-scope"},
            "Checked here, in this browser, from the moves and the secrets in the link. ",
            VERDICT_SCOPE,
        ),
    )


def _signatures(replay: Replay) -> Node:
    """Whether the replay is signed, and which device made which moves (or the move whose
    signature fails); what a signature cannot prove set apart from the list of devices."""
    report = replay.signatures
    if report is None:
        return None
    first, *rest = report.sentences
    caveat = rest.pop() if rest and rest[-1] == CAVEAT else None
    return h(
        "div",
        {"class": "replay-signatures", "data-role": "signatures", "data-state": report.state},
        h(
            "p",
            {"class": "alert" if report.state == "failed" else "signed-summary"},
            *_codes(first),
        ),
        h("ul", {"class": "signed-by"}, *(h("li", None, *_codes(line)) for line in rest))
        if rest
        else None,
        h("p", {"class": "hint", "data-role": "signature-scope"}, caveat) if caveat else None,
    )


# A table code or a key's fingerprint in a sentence ("DF8L-FLWK"): set as the table code is set
# everywhere else, and never broken at its hyphen.
_CODE = re.compile(r"\b([0-9A-Z]{4}-[0-9A-Z]{4})\b")


def _codes(sentence: str) -> list[Node | str]:
    parts = _CODE.split(sentence)
    return [h("strong", {"class": "code"}, part) if i % 2 else part for i, part in enumerate(parts)]


def _hidden(replay: Replay, spectator: Spectator, screen: GameScreen) -> Node:
    """The "show everything" switch and, while it is on, what the game had hidden."""
    refusal = replay.everything_refusal()
    on = replay.everything
    details = screen.final_details(spectator) if on else None
    return h(
        "section",
        {"class": "replay-hidden", "aria-label": "Hidden values"},
        h(
            "button",
            {
                "class": "switch",
                "type": "button",
                "role": "switch",
                "aria-checked": "true" if on else "false",
                "data-cmd": "everything",
                "data-on": "off" if on else "on",
                "disabled": refusal is not None and not on,
            },
            h("span", {"class": "switch-track", "aria-hidden": "true"}),
            "Show everything",
        ),
        h("p", {"class": "hint", "data-role": "everything-note"}, refusal)
        if refusal is not None
        else h(
            "p",
            {"class": "hint"},
            "Every hidden value is shown, as it was opened at the end."
            if on
            else "Shows what each player had hidden, at every move.",
        ),
        details,
    )


def open_tree(error: str | None) -> Node:
    """No replay to show (or one that could not be read): open a link or a file."""
    return h(
        "section",
        {"class": "replay-open", "aria-labelledby": "replay-open-title"},
        h("h2", {"id": "replay-open-title"}, "Watch a game again"),
        h("p", {"class": "error", "role": "alert", "data-role": "replay-error"}, error or ""),
        h(
            "p",
            {"class": "lede"},
            "Open a game someone shared with you: paste its link, or open a game file (.json) "
            "downloaded from Psi Parlour. The game is replayed and checked here, in your browser.",
        ),
        h(
            "div",
            {"class": "field"},
            h("label", {"for": "replay-link"}, "A replay link"),
            h(
                "div",
                {"class": "copy-box"},
                h(
                    "input",
                    {
                        "id": "replay-link",
                        "data-field": "replay-link",
                        "placeholder": "https://…#replay=1.…",
                        "autocomplete": "off",
                        "spellcheck": "false",
                    },
                ),
                h(
                    "button",
                    {"class": "button small primary", "data-cmd": "open-link", "type": "button"},
                    "Open",
                ),
            ),
        ),
        h(
            "div",
            {"class": "field"},
            h("label", {"for": "replay-file"}, "A game file"),
            h(
                "input",
                {
                    "id": "replay-file",
                    "type": "file",
                    "accept": ".json,application/json",
                    "data-replay-file": True,
                },
            ),
        ),
        h("p", None, h("a", {"href": "#home"}, "← All games")),
    )
