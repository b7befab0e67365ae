"""Second Sight on the shared play screen: the scores and the rounds so far beside the five
symbols to seal or guess. The seat's own symbol is drawn from its own view only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from parlour.games.zener import SYMBOLS, Symbol
from parlour.ui.seat import Seat, run_command
from parlour.ui.tree import Node, h
from parlour.ui.widgets import waiting_tree
from tests.toy_game import words
from tests.toy_game.actions import Choose, Guess
from tests.toy_game.state import SightState, label
from tests.toy_game.views import SightPublicView, SightSeatView

DOING = {"seal": "to seal a symbol", "guess": "to guess", "reveal": "to open their seal"}


class SightScreen:
    def new_selection(self) -> None:
        return None

    def describe(self, before: SightState, seat: int, action: Any) -> str:
        return words.describe(before, seat, action)

    def status(self, view: SightPublicView, viewer: int, you: int | None = None) -> str:
        """What the game waits for; addressed to `you` (one person alone against bots)."""
        stage = view["stage"]
        if stage == "over":
            return "The game is over."
        round_ = f"Round {view['round']} of {view['rounds']}"
        if stage == "reveal":
            return f"{round_}: the seals are opened."
        doing = {"seal": "seal a symbol", "guess": "guess the other's symbol"}
        if you is not None and you in view["to_move"]:
            return f"Your turn: {doing[stage]} ({round_.lower()})."
        others = [view["seats"][s]["name"] for s in view["to_move"] if s != you]
        return f"{round_}: {' and '.join(others)} {DOING[stage]}."

    def seat_line(self, view: SightPublicView, seat: int) -> str:
        info = view["seats"][seat]
        return f"{info['score']} right" + (" · sealed" if info["sealed"] else "")

    def describe_board(self, view: SightPublicView, viewer: int | None) -> list[str]:
        lines = [self.status(view, viewer or 0)]
        for info in view["seats"]:
            lines.append(f"{info['name']}: {info['score']} right guesses.")
        for number, done in enumerate(view["history"], 1):
            lines.append(f"Round {number}: {' and '.join(done['symbols'])} were sealed.")
        return lines

    def board(self, session: Seat, view: SightPublicView) -> Node:
        names = [s["name"] for s in view["seats"]]
        key = label(view["round"] - 1)
        sealed = []  # the symbols under this round's seals, once the screen may show them
        for seat, info in enumerate(view["seats"]):
            store = session.opened(seat)
            if info["sealed"] and info["shown"] is None and store is not None and key in store:
                sealed.append(f"{names[seat]} sealed {store.value(key)}.")
        rows = [
            h(
                "tr",
                None,
                h("th", {"scope": "row"}, str(number)),
                *(
                    h("td", None, f"{done['symbols'][s]} (guessed {done['guesses'][s]})")
                    for s in (0, 1)
                ),
            )
            for number, done in enumerate(view["history"], 1)
        ]
        return h(
            "div",
            {"class": "sight-board", "data-role": "board"},
            h("p", {"class": "hint", "data-role": "sealed"}, " ".join(sealed)) if sealed else None,
            h(
                "p",
                {"class": "scores"},
                ", ".join(f"{n} {i['score']}" for n, i in zip(names, view["seats"], strict=True)),
            ),
            h(
                "table",
                {"class": "sight-rounds"},
                h(
                    "thead",
                    None,
                    h("tr", None, h("th", None, "Round"), *(h("th", None, n) for n in names)),
                ),
                h("tbody", None, *rows),
            ),
        )

    def controls(self, session: Seat, view: SightSeatView) -> Node | None:
        names = [s["name"] for s in view["seats"]]
        own = view["me"]["symbol"]
        mine = h("p", {"class": "hint", "data-role": "own-symbol"}, f"Your symbol: {own or '?'}")
        stage = view["stage"]
        if stage == "over":
            return None
        if session.viewer not in view["to_move"] or stage == "reveal":
            return h(
                "div",
                {"class": "sight-controls"},
                mine,
                waiting_tree(names, view["to_move"], DOING[stage]),
            )
        cmd = "seal" if stage == "seal" else "guess"
        buttons = [
            h(
                "button",
                {
                    "class": "button small",
                    "data-cmd": cmd,
                    "data-symbol": s.value,
                    "type": "button",
                },
                s.value,
            )
            for s in SYMBOLS
        ]
        title = "Seal a symbol" if cmd == "seal" else "Guess the other's symbol"
        return h(
            "section", {"class": "controls sight-controls"}, h("h3", None, title), mine, *buttons
        )

    def final_details(self, session: Seat) -> Node | None:
        view = cast(SightPublicView, session.view())  # the game's own view: SecondSight's
        return h(
            "p",
            {"data-role": "final"},
            " ".join(self.describe_board(view, session.viewer)[1:]),
        )

    def handle(self, session: Seat, event: dict[str, Any]) -> str | None:
        return run_command(COMMANDS, self, session, event)

    def _seal(self, session: Seat, event: dict[str, Any]) -> str | None:
        return self._act(session, event, Choose)

    def _guess(self, session: Seat, event: dict[str, Any]) -> str | None:
        return self._act(session, event, Guess)

    def _act(
        self, session: Seat, event: dict[str, Any], make: Callable[[Symbol], object]
    ) -> str | None:
        """A symbol's button: sealed or guessed (`make`); anything else is refused in words."""
        symbol = Symbol.parse(event.get("symbol"))
        if symbol is None:
            return "Choose one of the five symbols."
        session.act(make(symbol))
        return None


COMMANDS: dict[str, Callable[[SightScreen, Seat, dict[str, Any]], str | None]] = {
    "seal": SightScreen._seal,
    "guess": SightScreen._guess,
}
