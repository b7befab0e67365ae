""" "Since your turn:" (issue 28, point 4): the others' moves since yours, from the log, in one
place above the board; against a bot and in pass-and-play."""

from __future__ import annotations

import pytest

from parlour.fair.rng import Rng
from parlour.match import bot_seats
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node
from tests.ui.test_bot_seats import SEATS
from tests.ui.test_bot_seats import session as seated
from tests.ui.test_espeers_pacing import solo


def since(s: PlaySession) -> list[str]:
    found = s.render().find_all(data_role="since")
    items = found[0].walk() if found else []
    return [n.text() for n in items if isinstance(n, Node) and n.tag == "li"]


def test_since_your_turn_lists_the_others_moves_since_your_last_one():
    s = solo()
    rng = Rng(b"since")
    checked = 0
    for _ in range(3000):
        if s.table.match.result() is not None or checked >= 5:
            break
        if s.bot_due():
            s.bot_move()
            continue
        entries = s.table.match.entries
        mine = [e.seq for e in entries if e.seat == 0 and s.persons_move(e)]
        after = [e for e in entries if e.seq > (mine[-1] if mine else 0)]
        told = [s.entry_words(e) for e in after if s.entry_words(e)]
        shown = since(s)
        if any(e.seat == 1 and s.entry_words(e) for e in after):
            assert shown == s.since_your_turn()
            assert shown[-1] == told[-1]  # the newest last, in the log's words
            assert len(shown) <= 6 and shown[-5:] == told[-5:]
            checked += 1
        else:
            assert shown == []
        s.act(bot_seats.decide(s.table, 0, "medium", rng.read(32)).choice)
    assert checked >= 5


def test_since_your_turn_names_every_move_of_the_others_in_pass_and_play():
    s = seated("psi-squad", ("Ada", "Bo", "Cy"), {})
    rng = Rng(b"psi since")
    for _ in range(3):  # three seals, then Ada guesses Bo's cypher
        if s.viewer is None:
            s.handle({"cmd": "take-device"})
        s.act(bot_seats.decide(s.table, s.viewer, "easy", rng.read(32)).choice)
    guesses = 0
    while guesses < 3:
        if s.viewer is None:
            s.handle({"cmd": "take-device"})
        seat = s.viewer
        shown = since(s)
        if guesses >= 2:  # the two before this seat's turn, each with its answer
            # each guess and its answer, with the guess: "Bo guessed 2732 at Cy: 2 correct..."
            assert len(shown) == 4 and " guessed " in shown[1] and " guessed " in shown[3]
            others = [s.names[(seat + k) % 3] for k in (1, 2)]
            assert [line.split(" ")[0] for line in shown] == [others[0]] * 2 + [others[1]] * 2
        s.act(bot_seats.decide(s.table, seat, "easy", rng.read(32)).choice)
        guesses += 1


@pytest.mark.parametrize("game", sorted(SEATS))
def test_since_your_turn_is_read_first_just_under_the_play_bar(game):
    """Issue 39: "Since your turn:" sat under the board, controls and status board (in Psi
    Squad on a phone, 1,800 px down); it comes right after the play bar, in every game, before
    the message, the controls and the board."""
    names = ("Ada", "Bo", "Cy")[: SEATS[game]]
    s = seated(game, names, {})
    rng = Rng(b"since first " + game.encode())
    for _ in range(400):
        if s.table.match.result() is not None:
            break
        if s.viewer is None:
            s.handle({"cmd": "take-device"})
        if since(s):
            table = s.render().find_all(**{"class": "play-table"})[0]
            kids = [c for c in table.children if isinstance(c, Node)]
            assert kids[0].tag == "header" and kids[1].attrs.get("data-role") == "since", [
                k.attrs.get("class") for k in kids
            ]
            return
        s.act(bot_seats.decide(s.table, s.viewer, "easy", rng.read(32)).choice)
    raise AssertionError(f"{game}: no 'Since your turn' in a whole game")
