"""The play screen drawn: the play bar, the message, the board and controls a game's screen
brings, the players panel and the log, the result with its fair-play check and share box.

`PlaySession` is the session (play_session.py) that draws itself; the pieces it shares with the
replay viewer and the online screens are in widgets.py.
"""

from __future__ import annotations

from typing import Any

from parlour.match.replay import too_long_to_send
from parlour.ui import help as helps
from parlour.ui.help import with_help
from parlour.ui.online.screen import (
    copy_box,
    online_bar,
    play_again_button,
    play_again_note,
    table_trust,
    verdicts_tree,
)
from parlour.ui.outcome import outcome_title
from parlour.ui.pace import pace_tool
from parlour.ui.play_session import Session
from parlour.ui.seat import LastMove
from parlour.ui.tree import Node, h
from parlour.ui.widgets import (
    audit_tree,
    description_tree,
    handoff_tree,
    log_tree,
    newest_told,
    seats_tree,
    since_tree,
)
from parlour.words import capital

SINCE_MOST = 6  # lines in "Since your turn:"; the log has the rest


class PlaySession(Session):
    """The play screen of one device, drawn (see `Session` for what it holds)."""

    quick_bots: bool | None = None  # "Quick bots" pressed or not; None: no toggle (ui/pace.py)

    def relayed(self) -> frozenset[int]:
        """On a guest: the other guests' seats (all they say comes through the host)."""
        online = self.online
        if online is None or online.is_host:
            return frozenset()
        host = online.links.get("host")
        near = set(online.local) | set(host.seats if host else ())
        return frozenset(s for s in range(len(self.names)) if s not in near)

    def since_your_turn(self) -> list[str]:
        """What happened since the seat shown last decided a move, oldest first, in the log's
        words (the others' moves, and the steps taken for it meanwhile): the short list a person
        reads on coming back to the game. Empty unless that seat is to move now and another seat
        has moved since; the newest SINCE_MOST lines only."""
        viewer, match = self.viewer, self.table.match
        if viewer is None or self.to_act() != viewer or match.result() is not None:
            return []
        entries = match.entries
        start = next(
            (
                i + 1
                for i in range(len(entries) - 1, -1, -1)
                if entries[i].seat == viewer and self.persons_move(entries[i])
            ),
            0,
        )
        news = entries[start:]
        if all(e.seat == viewer for e in news):
            return []
        lines = [line for line in (self.entry_words(e) for e in news) if line]
        if len(lines) > SINCE_MOST:
            earlier = len(lines) - SINCE_MOST + 1
            lines = [f"{earlier} earlier moves (in the game log)", *lines[-SINCE_MOST + 1 :]]
        return lines

    def last_move(self) -> LastMove | None:
        """The newest move the log tells in words: the one the board marks, the message and
        the hand-off screen name (a routine step, told with "", is passed over)."""
        return newest_told(self.table.match, self.screen)

    def render(self) -> Node:
        helps.begin(self.scope)
        result = self.table.match.result()
        game = self.game
        if self.viewer is None and result is None and self.to_act() is not None:
            lines = self.log_lines()
            mover = self.take_back_seat()
            main = handoff_tree(
                self.names[self.to_act()],
                self.handoff_note or (lines[-1] if lines else None),
                None if mover is None else self.names[mover],
            )
        else:
            main = self._table_tree(self.view())
        banner = self.banner() if self.banner else online_bar(self.online) if self.online else None
        children: list[Any] = [banner, main]
        return h("div", {"class": f"play play-{game.id}", "data-viewer": self.viewer}, *children)

    def _table_tree(self, view: dict) -> Node:
        viewer = self.viewer
        over = self.table.match.result() is not None
        lines = self.log_lines()
        since = self.since_your_turn()
        shown = self.message or (lines[-1] if lines else "")
        # the message repeats what "Since your turn" ends with (the last move, or a bot's move
        # and the passes taken after it): hidden, so the board keeps its height
        said_above = bool(shown) and any(shown == " ".join(since[i:]) for i in range(len(since)))
        status = (
            self.table.match.result().reason
            if over
            else self.screen.status(view, viewer if viewer is not None else 0, self.you())
        )
        tools = self._tools(view, over)
        return h(
            "div",
            {"class": "play-table"},
            h(
                "header",
                {"class": "play-bar"},
                h(
                    "h2",
                    {"class": "turn", "data-role": "status", "tabindex": "-1"},
                    *self._status_words(view, status),
                ),
                h("div", {"class": "tools"}, *tools),
            ),
            # the first thing a returning player reads, just under the play bar, in every game
            # and at every width (issue 39: in Psi Squad on a phone it sat 1,800 px down)
            since_tree(since),
            # a hint or a refusal while there is one, else the last move (a click on notes or
            # a target must not blank it), unless "Since your turn" just said it
            # (the page's own live region, #announcer, says each move: see `take_said`)
            h(
                "p",
                {"class": "message", "data-role": "message", "hidden": said_above or None},
                shown,
            ),
            self._undo_question() if self.asking_undo else None,
            description_tree(self.board_sentences()) if self.describing else None,
            h(
                "div",
                {"class": "play-main"},
                # the result, beside the board and never over it (its marks tell the end); else
                # the controls: first, as Tab follows a turn (choose, then where on the board)
                self._result_tree(self.table.match.result())
                if over and self.result_open
                else h("div", {"class": "side play-controls"}, self.screen.controls(self, view))
                if viewer is not None
                else None,
                h("div", {"class": "board-wrap"}, self.screen.board(self, view)),
                h(
                    "aside",
                    {"class": "side"},
                    self._seats_tree(view),
                    # beside the players, where the bots are: how long each bot pauses
                    pace_tool(self.quick_bots) if self.quick_bots is not None else None,
                    log_tree(lines, self.log_open, self.scope),
                ),
            ),
        )

    def _tools(self, view: dict, over: bool) -> list[Node | None]:
        """The play bar's buttons, each with its "?"."""

        def tool(cmd: str, label: str, text: str, disabled: bool = False, **more: Any) -> Node:
            button = h(
                "button",
                {"class": "button small", "data-cmd": cmd, "type": "button", **more},
                label,
            )
            if disabled:
                button.attrs["disabled"] = ""
            return with_help(button, cmd, label, text)

        watching = self.viewer is None
        return [
            tool(
                "undo",
                "Undo",
                "Takes back the last move; never back past a secret once it is shown.",
                disabled=over or watching or not self.can_undo(),
            )
            if self.online is None
            else None,
            tool(
                "offer-draw",
                "Offer a draw",
                "Proposes to end the game as a draw; the other player accepts or plays on.",
                disabled=over or view.get("offer") is not None,
            )
            if "offer" in view
            else None,
            tool(
                "describe-board",
                "Describe the board",
                "Reads the position out in sentences, for a screen reader or a second look.",
                disabled=watching and not over,
                aria_expanded="true" if self.describing else "false",
            ),
            tool("show-result", "Result", "Opens the result and the fair-play check again.")
            if over
            else None,
            with_help(
                h("a", {"class": "button small", "href": f"#rules-{self.game.id}"}, "Rules"),
                "rules",
                "Rules",
                "Opens this game's rules; your game waits here.",
            ),
            with_help(
                h("a", {"class": "button small", "href": f"#new-{self.game.id}"}, "New game"),
                "new-game",
                "New game",
                "Goes to the set-up form; you are asked before this game is replaced.",
            ),
        ]

    def _undo_question(self) -> Node | None:
        """Pass-and-play: taking back another player's move needs that player's yes."""
        mover = self.undo_asks()
        viewer = self.viewer if self.viewer is not None else 0
        if mover is None:
            return None
        shown, asker = self.names[viewer], self.names[mover]
        move = self.entry_words(self.undo_target())
        return h(
            "div",
            {
                "class": "confirm undo-question",
                "data-role": "undo-question",
                "role": "alertdialog",
                "aria-labelledby": f"{self.scope}-undo-question",
            },
            h(
                "h2",
                {"id": f"{self.scope}-undo-question", "tabindex": "-1"},
                f"{shown}: take back {asker}'s move?",
            ),
            h("p", None, f"{asker}'s move: {move}"),
            h(
                "p",
                None,
                f"Only if {asker} asks: the game goes back to {asker}'s turn and the device "
                f"goes to {asker}. Your own turn comes after.",
            ),
            h(
                "div",
                {"class": "actions"},
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "allow-undo", "type": "button"},
                    f"Allow: take back {asker}'s move",
                ),
                h(
                    "button",
                    {
                        "class": "button",
                        "data-cmd": "refuse-undo",
                        "type": "button",
                        "data-autofocus": True,
                    },
                    "Keep the move",
                ),
            ),
        )

    def _status_words(self, view: dict, status: str) -> list[Node | str | None]:
        """The heading's words: the chip ("Your turn", or ESPEERS's "Your answer") where the
        person acts by hand, else a bot's "Thinking…", and the status sentence. A sentence that
        already opens with the chip's words ("Your turn: place a tile") gives them to the
        chip, so they show once: [Your turn] Place a tile."""
        chip = self._turn_words(view) if self.my_turn() else None
        if chip is not None and status.startswith(f"{chip}: "):
            status = capital(status[len(chip) + 2 :])
        return [
            h("span", {"class": "your-turn"}, chip) if chip is not None else None,
            h("span", {"class": "visually-hidden"}, ": ") if chip is not None else None,
            # one status at a time: while the person has a move to make (Psi Squad's cyphers
            # are chosen by all at once), a bot thinking meanwhile is not theirs to wait for
            h("span", {"class": "thinking", "data-role": "thinking"}, "Thinking…")
            if chip is None and self.bot_thinking() is not None
            else None,
            status,
        ]

    def _turn_words(self, view: dict) -> str:
        """The chip of `my_turn`: "Your turn", unless the game says this is a chance to
        answer in another player's turn (ESPEERS's Opportunity)."""
        words = getattr(self.screen, "turn_words", None)
        seat = self.viewer if self.viewer is not None else 0
        return str(words(view, seat)) if words is not None else "Your turn"

    def _seats_tree(self, view: dict) -> Node:
        acting = self.to_act()
        if acting is None:
            acting = self.bot_thinking()
        return seats_tree(self.screen, view, self.names, acting, self.viewer, self.bots)

    def _result_tree(self, result: Any) -> Node:
        title = outcome_title(result, self.names, self.you())
        return h(
            "div",
            # opened, it shows from its top (py/shell/dom.py show_top)
            {"class": "result-panel", "data-role": "result", "data-opens-at-top": "result"},
            h(
                "section",
                {"class": "dialog", "aria-labelledby": f"{self.scope}-result-title"},
                h("h2", {"id": f"{self.scope}-result-title", "tabindex": "-1"}, title),
                h("p", None, result.reason),
                self.screen.final_details(self),
                audit_tree(
                    self.audit_result,
                    self.names,
                    online=self.online is not None,
                    relayed=self.relayed(),
                ),
                *self._result_notes(),
                self._share_tree() if self.sharing else None,
                h(
                    "div",
                    {"class": "actions"},
                    h(
                        "button",
                        {"class": "button primary", "data-cmd": "rematch", "type": "button"},
                        "Rematch",
                    )
                    if self.online is None
                    else None
                    if self.result_extras
                    else play_again_button(self.online),
                    h("a", {"class": "button", "href": f"#new-{self.game.id}"}, "New game"),
                    h(
                        "button",
                        {"class": "button", "data-cmd": "close-result", "type": "button"},
                        "Close",
                    ),
                    h(
                        "button",
                        {
                            "class": "button",
                            "data-cmd": "share",
                            "type": "button",
                            "aria-pressed": "true" if self.sharing else "false",
                        },
                        "Share this game",
                    ),
                    h("a", {"class": "button", "href": "#home"}, "All games"),
                ),
            ),
        )

    def _result_notes(self) -> list[Node | None]:
        """Online: every device's verdict, the table code, who can play again; by link, its
        own notes."""
        if self.result_extras is not None:
            return self.result_extras()
        if self.online is None:
            return []
        online = self.online
        return [verdicts_tree(online), table_trust(online, long=True), play_again_note(online)]

    def _share_tree(self) -> Node:
        """The link that replays this game anywhere, and the game as a file."""
        record = self.replay_record()
        online = self.online is not None
        missing = online and any(v is None for v in self.end_openings().values())
        return h(
            "section",
            {
                "class": "share",
                "data-role": "share",
                "aria-labelledby": f"{self.scope}-share-title",
            },
            h("h3", {"id": f"{self.scope}-share-title"}, "Share this game"),
            h(
                "p",
                {"class": "hint"},
                "Anyone with this link can watch the game move by move and check it themselves: "
                "it holds every move and the secrets opened at the end.",
                " Secrets not opened yet are left out." if missing else None,
            ),
            _share_link(record.link(self.site)),
            h(
                "div",
                {"class": "actions"},
                h(
                    "a",
                    {"class": "button small", "href": "#replay=" + record.code()},
                    "Watch the replay",
                ),
                h(
                    "button",
                    {"class": "button small", "data-cmd": "download-game", "type": "button"},
                    "Download the game file",
                ),
            ),
        )


def _share_link(link: str) -> Node:
    """The link to copy; one too long for a messenger is not offered: the game file is."""
    too_long = too_long_to_send(link)
    if too_long is None:
        return copy_box(link, "Link to this game's replay", "share-link")
    return h("p", {"class": "hint", "data-role": "long-link"}, too_long)
