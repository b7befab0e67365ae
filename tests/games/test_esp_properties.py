"""ESP under random legal play (Hypothesis): the invariants every position must keep.

Each example plays a 2-4 seat game through `Table`, choosing among `legal_actions` with the
acting seat's own store (so symbol-down choices are sealed), now and then offering a draw.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.esp.actions import AnswerDraw, Flip, Move, Place, ProposeDraw
from parlour.games.esp.hexgrid import is_connected, neighbours
from parlour.games.esp.rules import find_sets
from parlour.games.esp.state import TILES_PER_SEAT, EspState
from parlour.games.zener import Symbol
from parlour.match.audit import Verified, audit
from parlour.match.config import MatchConfig
from parlour.match.match import Match
from parlour.match.table import Table

esp = GAMES["esp"]
NAMES = ("Light", "Dark", "Violet", "Amber")
SEED = bytes(range(32))
MOVEMENT_ACTIONS = 30  # after the placement stage; the game may be abandoned there

DRAW_REASONS = {
    "Every player passed in a row.",
    "The same position arose for the third time.",
    "The players agreed to a draw.",
}


def check_position(state: EspState, table: Table) -> None:
    board = state.board
    assert is_connected(board)
    assert all(n <= TILES_PER_SEAT for n in state.placed)
    assert len(board) == sum(state.placed)
    for seat, n in enumerate(state.placed):
        assert sum(1 for t in board.values() if t.owner == seat) == n
    if state.outcome is None:
        assert find_sets(board) == () and state.sets == ()


def check_views(state: EspState, table: Table) -> None:
    """No seat's hidden symbol in the public view, nor in any other seat's view."""
    public = esp.public_view(state)
    for tile in public["tiles"]:
        assert ("symbol" in tile) == (tile["face"] == "up")
    hidden_tiles = [
        (cell, tile) for cell, tile in state.board.items() if not tile.up and tile.commitment
    ]
    for seat, store in table.stores.items():
        view = esp.seat_view(state, seat, store)
        me = view.pop("me")
        assert view == public
        own = {
            f"{cell[0]},{cell[1]}": store.value(f"tile:{tile.index}")
            for cell, tile in hidden_tiles
            if tile.owner == seat
        }
        assert me["hidden"] == own
    nonces = {o.nonce for store in table.stores.values() for o in store.openings.values()}
    text = json.dumps(public)
    assert not any(nonce in text for nonce in nonces)


def check_pins(state: EspState) -> None:
    """The engine's pins are the ruling's: six neighbours, or lifting it splits the group."""
    board = state.board
    for cell in board:
        pinned = all(n in board for n in neighbours(cell)) or not is_connected(
            c for c in board if c != cell
        )
        assert (esp.pin_problem(state, cell) is not None) == pinned


@settings(max_examples=30, deadline=None)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    hide_rate=st.sampled_from([0.1, 0.5, 0.9]),
)
def test_random_legal_games_keep_every_invariant(seats, seed, hide_rate):
    rng = random.Random(seed)
    config = MatchConfig("esp", f"m-prop-{seats}-0001", NAMES[:seats])
    table = Table.new(esp, config, SEED, local_seats=range(seats))
    movement = 0
    while table.match.result() is None and movement < MOVEMENT_ACTIONS:
        state = table.state
        seat = rng.choice(sorted(esp.to_move(state)))
        legal = table.legal(seat)
        assert legal, "a seat to move always has a legal action (Pass at worst)"
        if state.offer is None and rng.random() < 0.01:
            choice = ProposeDraw()
        elif state.offer is not None:
            choice = AnswerDraw(rng.random() < 0.25)
        else:
            hidden = [a for a in legal if getattr(a, "hidden", False)]
            shown = [a for a in legal if a not in hidden]
            pool = hidden if hidden and (not shown or rng.random() < hide_rate) else shown
            choice = rng.choice(pool)
        result = table.act(seat, choice)
        assert result.ok, result.reason
        after = table.state
        if not after.placing:
            movement += 1
            if isinstance(choice, (Flip, Move)):
                check_pins(state)
        check_position(after, table)
        check_views(after, table)

    outcome = table.match.result()
    event(f"placing={table.state.placing} end={outcome and outcome.reason[:40]}")
    if outcome is not None:
        final = table.state
        if outcome.termination is Termination.DRAW:
            assert outcome.reason in DRAW_REASONS and final.sets == ()
        else:
            assert outcome.termination in (Termination.WIN, Termination.SHARED_WIN)
            assert final.sets and final.sets == find_sets(final.board)
            assert all(final.board[c].up for window in final.sets for c in window)
            assert all(len({final.board[c].symbol for c in w}) == 5 for w in final.sets)
            mover = table.match.entries[-1].seat
            union = {c for window in final.sets for c in window}
            counts = Counter(final.board[c].owner for c in union)
            leaders = {s for s, n in counts.items() if n == max(counts.values())}
            assert outcome.winners == ({mover} if mover in leaders else leaders)
            assert (outcome.termination is Termination.SHARED_WIN) == (len(outcome.winners) > 1)
    if outcome is not None and "third time" in outcome.reason:
        assert max(table.state.seen.values()) == 3

    # Honest play passes the audit, whether the game ended or was abandoned.
    openings = {s: table.openings(s) for s in range(seats)}
    assert isinstance(audit(esp, config, SEED, table.match.entries, openings), Verified)

    # The log alone replays to the same states, and the saved game to the same table.
    again = Match.loads(table.match.dumps(), GAMES)
    assert again.states() == table.match.states()
    restored = Table.from_json(json.loads(json.dumps(table.to_json())), GAMES)
    assert restored.state == table.state
    for seat in range(seats):
        assert restored.view(seat) == table.view(seat)


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32))
@example(seats=3, seed=14340)  # no legal placement left after 24 of 30 tiles (it failed a run)
def test_public_views_do_not_depend_on_hidden_symbols(seats, seed):
    """Place on the same cells twice, hiding different symbols: everything public (views and
    log, with commitments replaced by their order of appearance) is identical."""
    traces = []
    for version in range(2):
        rng = random.Random(seed)
        config = MatchConfig("esp", f"m-swap-{seats}-0001", NAMES[:seats])
        table = Table.new(esp, config, SEED, local_seats=range(seats))
        commitments: dict[str, str] = {}
        trace = []
        for _ in range(TILES_PER_SEAT * seats):
            seat = min(esp.to_move(table.state))
            cells = esp.placement_cells(table.state)
            if not cells:  # the board left no legal placement: the seat would pass (rulings)
                break
            cell = rng.choice(cells)
            remaining = esp.remaining_symbols(table.state, seat, table.stores[seat])
            symbol = remaining[0] if version == 0 else remaining[-1]
            assert table.act(seat, Place(cell, symbol, hidden=True)).ok
            view = json.dumps(esp.public_view(table.state), sort_keys=True)
            log = json.dumps([e.action for e in table.match.entries], sort_keys=True)
            for tile in table.state.board.values():
                commitments.setdefault(tile.commitment, f"c{len(commitments)}")
            for real, blank in commitments.items():
                view, log = view.replace(real, blank), log.replace(real, blank)
            assert not any(s.value in view + log for s in Symbol)
            trace.append((view, log))
        traces.append(trace)
    assert traces[0] == traces[1]
