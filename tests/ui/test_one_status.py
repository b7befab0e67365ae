"""One status per moment (issue 39): the play bar never says "Your turn" and a bot's
"Thinking…" at once. Psi Squad's cyphers are chosen by everyone together, and the screen said
both while the person chose theirs and the bots theirs. Whole games of every game, a person
alone against bots, the screen drawn after every single move (the person's and each bot's)."""

from __future__ import annotations

import pytest

from parlour.fair.rng import Rng
from parlour.match import bot_seats
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node
from tests.ui.test_bot_seats import SEATS, session


def bar(s: PlaySession) -> tuple[str | None, bool]:
    """The chip's words ("Your turn", ESPEERS's "Your answer") and whether "Thinking…" shows."""
    status = next(n for n in s.render().find_all(data_role="status") if n.tag == "h2")
    chips = [n.text() for n in status.walk() if isinstance(n, Node) and _chip(n)]
    thinking = status.find_all(data_role="thinking")
    return (chips[0] if chips else None), bool(thinking)


def _chip(node: Node) -> bool:
    return node.attrs.get("class") == "your-turn"


@pytest.mark.parametrize("game", sorted(SEATS))
def test_your_turn_and_thinking_never_show_together_in_a_whole_game(game):
    seats = SEATS[game]
    names = ("Ada", *(bot_seats.bot_name(n) for n in ("Bo", "Cy")[: seats - 1]))
    s = session(game, names, {seat: "medium" for seat in range(1, seats)})
    rng = Rng(b"one status " + game.encode())
    seen = set()
    for _ in range(3000):
        chip, thinking = bar(s)
        assert not (chip and thinking), (s.table.match.step, chip)
        seen.add((chip is not None, thinking))
        if s.table.match.result() is not None:
            break
        if s.bot_due():
            s.bot_move(rng.read(32))
            continue
        choice = bot_seats.decide(s.table, 0, "easy", rng.read(32)).choice
        assert s.act(choice), s.message
    assert s.table.match.result() is not None
    assert (True, False) in seen and (False, True) in seen  # each said, apart
