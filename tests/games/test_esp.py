"""ESP: every rule of ESP (its rules page in index.html) and every ESP ruling of
docs/rulings.md, one test each.

Positions are built directly (`build`) where a rule needs a particular board: the figures of the
rules text are rebuilt that way. A tile is written as a short code: owner (L, D, V, A), symbol
(o circle, x cross, ~ waves, # square, * star) and a trailing "?" for symbol-down, e.g. "D*?".
Whole games go through `Table`, as the product plays them.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from parlour.errors import CommitmentMismatch, IllegalAction, MalformedInput
from parlour.fair.commit import Context
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.esp.actions import AnswerDraw, Flip, Move, Pass, Place, ProposeDraw
from parlour.games.esp.hexgrid import AXES, DIRECTIONS, is_connected, neighbours, step
from parlour.games.esp.rules import find_sets, position_key, repetition_warning
from parlour.games.esp.state import EspState, Tile
from parlour.games.zener import Symbol
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.config import MatchConfig
from parlour.match.log import entry_hash
from parlour.match.match import Match
from parlour.match.table import Table
from parlour.ui.esp.screen import EspScreen

esp = GAMES["esp"]
E, SE, SW, W, NW, NE = range(6)
CIRCLE, CROSS, WAVES, SQUARE, STAR = Symbol
NAMES = ("Light", "Dark", "Violet", "Amber")
MATCH_ID = "m-test-0001"
SEED = bytes(range(32))
SYMBOL_CODES = {"o": CIRCLE, "x": CROSS, "~": WAVES, "#": SQUARE, "*": STAR}
OWNER_CODES = {"L": 0, "D": 1, "V": 2, "A": 3}
# A seat's ten tiles, in the order `place_strip` hides them: circle, circle, cross, cross, ...
HAND = [s for s in Symbol for _ in range(2)]

PINNED_SIX = "That tile is pinned: all six of its neighbours are taken."
PINNED_SPLIT = "That tile is pinned: lifting it would split the group."
TOUCH_TWO = "A tile must touch at least two tiles already on the board."
ENCLOSE = "That would enclose a tile on all six sides."


# -- helpers ---------------------------------------------------------------------------------


def config(seats: int = 2) -> MatchConfig:
    return MatchConfig("esp", MATCH_ID, NAMES[:seats])


def start(seats: int = 2) -> EspState:
    return esp.initial_state(config(seats).setup(), SEED)


def line(first, direction: int, codes: str) -> dict:
    """Tiles along a line from `first`; "." leaves a cell empty."""
    return {step(first, direction, i): code for i, code in enumerate(codes.split()) if code != "."}


def build(
    tiles: dict, seats: int = 2, to_move: int = 0, placing: bool = False, honest: bool = True
) -> tuple[EspState, list[PrivateStore]]:
    """A position with these tiles (placed in the dict's order) and each seat's private store.

    Movement stage unless `placing`: every seat has placed its ten tiles, even if fewer are
    drawn. The position is checked to be one the rules allow: one group, no set, no seat with
    more than ten tiles or two of a symbol (unless not `honest`).
    """
    stores = [PrivateStore(Context(MATCH_ID, s)) for s in range(seats)]
    board, count, symbols = {}, [0] * seats, [Counter() for _ in range(seats)]
    for ply, (cell, code) in enumerate(tiles.items(), start=1):
        owner, symbol, down = OWNER_CODES[code[0]], SYMBOL_CODES[code[1]], code.endswith("?")
        index = count[owner]
        count[owner] += 1
        symbols[owner][symbol] += 1
        commitment = stores[owner].commit(f"tile:{index}", symbol.value) if down else None
        board[cell] = Tile(owner, index, ply, None if down else symbol, commitment)
    assert all(n <= 10 for n in count)
    assert all(n <= 2 for c in symbols for n in c.values()) or not honest
    assert is_connected(board) and find_sets(board) == ()
    placed = tuple(count) if placing else (10,) * seats
    state = dataclasses.replace(
        start(seats), board=board, placed=placed, to_move=to_move, ply=len(board)
    )
    assert state.placing == placing
    return state, stores


def reveal(state: EspState, stores: list[PrivateStore], cell) -> Flip:
    """The honest flip of the symbol-down tile on `cell`."""
    tile = state.board[cell]
    return Flip(cell, stores[tile.owner].opening(f"tile:{tile.index}"))


def refused(state: EspState, seat: int, action) -> str:
    with pytest.raises(IllegalAction) as caught:
        esp.apply(state, seat, action)
    return caught.value.sentence


def new_table(seats: int = 2) -> Table:
    return Table.new(esp, config(seats), SEED, local_seats=range(seats))


def mover(table: Table) -> int:
    (seat,) = esp.to_move(table.state)
    return seat


def strip_cell(i: int):
    """The i-th cell of a two-row strip; each one after the second touches two before it."""
    return (i // 2, i % 2)


def place_strip(table: Table, count: int, up: dict | None = None) -> None:
    """Place `count` tiles along the strip, each seat hiding its hand in order (circle, circle,
    cross, ...), except the cells given in `up`, placed symbol-up with the symbol given."""
    up = up or {}
    for _ in range(count):
        seat, cell = mover(table), strip_cell(len(table.state.board))
        if cell in up:
            choice = Place(cell, up[cell])
        else:
            choice = Place(cell, HAND[table.state.placed[seat]], hidden=True)
        result = table.act(seat, choice)
        assert result.ok, result.reason


def play_randomly(table: Table, rng: random.Random, actions: int) -> None:
    """Up to `actions` legal choices picked at random, stopping if the game ends."""
    for _ in range(actions):
        if table.match.result() is not None:
            return
        seat = min(esp.to_move(table.state))
        choice = rng.choice(table.legal(seat))
        result = table.act(seat, choice)
        assert result.ok, result.reason


def openings(table: Table) -> dict:
    return {s: table.openings(s) for s in table.stores}


def reforge(log: list[dict], genesis: str) -> list[dict]:
    """What a cheater who controls the whole log can do: recompute every hash."""
    prev = genesis
    for entry in log:
        entry["prev"] = prev
        entry["hash"] = entry_hash(MATCH_ID, entry["seq"], entry["seat"], entry["action"], prev)
        prev = entry["hash"]
    return log


# -- placement -------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", [(0, 0), (7, -3), (-40, 25)])
def test_placement_the_first_tile_goes_anywhere(cell):
    state = esp.apply(start(), 0, Place(cell, STAR))
    assert state.board == {cell: Tile(0, 0, 1, STAR)}
    assert state.placed == (1, 0) and state.to_move == 1


def test_placement_the_second_tile_must_touch_the_first():
    state = esp.apply(start(), 0, Place((7, -3), STAR))
    for far in [(9, -3), (7, -1), (5, -3), (0, 0)]:
        assert refused(state, 1, Place(far, STAR)) == "The second tile must touch the first."
    assert esp.placement_cells(state) == sorted(neighbours((7, -3)))
    for cell in neighbours((7, -3)):
        assert esp.apply(state, 1, Place(cell, STAR)).board[cell].owner == 1


def test_placement_later_tiles_must_touch_two_tiles():
    state = esp.apply(start(), 0, Place((0, 0), STAR))
    state = esp.apply(state, 1, Place((1, 0), STAR))
    for one_contact in [(2, 0), (-1, 0), (0, -1), (1, 1), (2, -1), (-1, 1)]:
        assert refused(state, 0, Place(one_contact, CIRCLE)) == TOUCH_TWO
    assert refused(state, 0, Place((5, 5), CIRCLE)) == TOUCH_TWO
    assert esp.placement_cells(state) == [(0, 1), (1, -1)]
    for two_contacts in [(0, 1), (1, -1)]:
        assert two_contacts in esp.apply(state, 0, Place(two_contacts, CIRCLE)).board


def test_placement_may_not_enclose_the_new_tile():
    ring = {
        cell: code
        for cell, code in zip(neighbours((0, 0)), ["Lo", "Do", "Lx", "Dx", "L~", "D~"], strict=True)
    }
    state, _ = build(ring, placing=True)
    assert refused(state, 0, Place((0, 0), STAR)) == ENCLOSE
    assert (0, 0) not in esp.placement_cells(state)


def test_placement_may_not_enclose_an_old_tile():
    """(0, 0) has five neighbours: the sixth, (1, -1), touches three tiles but is refused."""
    five = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    tiles = {(0, 0): "L*", **dict(zip(five, ["Do", "Lx", "Dx", "L~", "D~"], strict=True))}
    state, _ = build(tiles, placing=True)
    assert state.to_move == 0 and sum(1 for n in neighbours((1, -1)) if n in state.board) == 3
    assert refused(state, 0, Place((1, -1), CIRCLE)) == ENCLOSE
    assert refused(state, 0, Place((1, -1), None, True, "0" * 64)) == ENCLOSE
    assert (1, -1) not in esp.placement_cells(state)
    assert (1, 1) in esp.apply(state, 0, Place((1, 1), CIRCLE)).board


def test_enclosing_a_tile_is_allowed_in_the_movement_stage():
    """The rule against enclosing is for the placement stage only: a move may fill the sixth
    neighbour, and the enclosed tile is then pinned."""
    five = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    tiles = {(0, 0): "D*", **dict(zip(five, ["Do", "Lx", "Dx", "L~", "D~"], strict=True))}
    tiles |= {(1, -2): "D#", (1, -3): "L#"}
    state, _ = build(tiles)
    after = esp.apply(state, 0, Move((1, -3), SE))
    assert after.board[(1, -1)].owner == 0 and (1, -3) not in after.board
    assert all(n in after.board for n in neighbours((0, 0)))
    assert esp.pin_problem(after, (0, 0)) == PINNED_SIX


def test_placement_on_a_taken_cell_is_refused():
    state = esp.apply(start(), 0, Place((0, 0), STAR))
    assert refused(state, 1, Place((0, 0), CIRCLE)) == "That cell is already taken."


def test_placement_symbol_up_is_limited_to_two_of_each_symbol():
    table = new_table()
    place_strip(table, 4, up={(0, 0): STAR, (1, 0): STAR})  # Light's two stars, Dark hides two
    state = table.state
    assert refused(state, 0, Place((2, 0), STAR)) == "Light has already shown both of their stars."
    assert not any(a.symbol is STAR for a in table.legal(0))
    assert esp.apply(state, 0, Place((2, 0), CIRCLE)).board[(2, 0)].symbol is CIRCLE
    # Dark's count is its own.
    dark = esp.apply(esp.apply(state, 0, Place((2, 0), CIRCLE)), 1, Place((2, 1), STAR))
    assert dark.board[(2, 1)] == Tile(1, 2, 6, STAR)


def test_placement_symbol_down_commits_the_symbol():
    table = new_table()
    result = table.act(0, Place((0, 0), STAR, hidden=True))
    assert result.ok
    assert set(result.entry.action) == {"type", "cell", "commitment"}
    tile = table.state.board[(0, 0)]
    store = table.stores[0]
    assert tile.symbol is None and tile.commitment == result.entry.action["commitment"]
    assert store.value("tile:0") == "star"
    # Symbol-down tiles count against the seat's own remaining symbols...
    table.act(1, Place((0, 1), CIRCLE))
    table.act(0, Place((1, 0), STAR, hidden=True))
    table.act(1, Place((1, 1), CIRCLE, hidden=True))
    assert not any(a.symbol is STAR for a in table.legal(0))
    assert "star" not in table.view(0)["me"]["tray"]
    # ...but not against anybody else's.
    assert esp.remaining_symbols(table.state, 1, table.stores[1]) == [CROSS, WAVES, SQUARE, STAR]


def test_placement_symbol_down_is_locked_to_its_symbol():
    """The owner may not change a hidden symbol later: a new opening for it does not flip."""
    state, stores = build(line((0, 0), E, "L*? Do Dx"))
    with pytest.raises(ValueError):
        stores[0].commit("tile:0", "circle")
    stores[0].commit("tile:0", "circle", replace=True)
    with pytest.raises(CommitmentMismatch) as caught:
        esp.apply(state, 0, reveal(state, stores, (0, 0)))
    assert caught.value.sentence == (
        "Light's reveal of the tile placed at move 1 does not match the commitment made at move 1."
    )


def test_placement_of_an_unsealed_symbol_down_tile_is_refused():
    state = start()
    sentence = "A symbol-down tile must be sealed before it is placed."
    assert refused(state, 0, Place((0, 0), STAR, hidden=True)) == sentence
    with pytest.raises(ValueError):
        esp.action_to_json(Place((0, 0), STAR, hidden=True))


def test_placement_a_symbol_down_tile_must_carry_a_commitment():
    """Neither a symbol nor a commitment: that is no tile the rules know."""
    sentence = "A symbol-down tile must be sealed before it is placed."
    assert refused(start(), 0, Place((0, 0))) == sentence
    with pytest.raises(ValueError):
        esp.action_to_json(Place((0, 0)))


def test_placement_the_eleventh_tile_is_refused():
    table = new_table()
    place_strip(table, 19)
    assert table.state.placed == (10, 9) and table.state.placing
    state = dataclasses.replace(table.state, to_move=0)  # Light's turn again, out of order
    assert refused(state, 0, Place((9, 1), STAR)) == "Light has placed all ten tiles."
    assert esp.legal_actions(state, 0, table.stores[0]) == [Pass()]
    after = esp.apply(esp.apply(state, 0, Pass()), 1, Place((9, 1), STAR))
    assert after.placed == (10, 10) and not after.placing


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_seat_owns_ten_tiles_two_of_each_symbol(seats):
    table = new_table(seats)
    for seat in range(seats):
        tray = table.view(seat)["me"]["tray"]
        assert len(tray) == 10 and Counter(tray) == {s.value: 2 for s in Symbol}
        assert esp.remaining_symbols(table.state, seat, table.stores[seat]) == list(Symbol)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_placement_turn_order_is_light_dark_violet_amber(seats):
    table = new_table(seats)
    view = table.view(0)
    assert [s["colour"] for s in view["seats"]] == list(NAMES[:seats])
    assert [s["unplaced"] for s in view["seats"]] == [10] * seats
    for i in range(3 * seats):
        assert esp.to_move(table.state) == {i % seats}
        other = (i + 1) % seats
        refusal = table.act(other, Place(strip_cell(i), HAND[0], hidden=True))
        assert refusal.reason == f"It is not {NAMES[other]}'s turn."
        place_strip(table, 1)
        assert table.match.entries[-1].seat == i % seats
    assert table.state.placed == (3,) * seats


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_placement_cells_agree_with_apply(seed):
    """Every listed cell is accepted; every other empty cell next to the group is refused."""
    rng = random.Random(seed)
    table = new_table(3)
    for _ in range(24):
        state = table.state
        listed = esp.placement_cells(state)
        assert listed
        for cell in listed:
            assert esp.placement_problem(state, cell) is None
            assert cell in esp.apply(state, mover(table), Place(cell, STAR, False, None)).board
        others = {n for c in state.board for n in neighbours(c)} - set(state.board) - set(listed)
        for cell in others:
            with pytest.raises(IllegalAction) as caught:
                esp.apply(state, mover(table), Place(cell, STAR))
            assert caught.value.sentence in (TOUCH_TWO, ENCLOSE)
        seat = mover(table)
        symbol = esp.remaining_symbols(state, seat, table.stores[seat])[0]
        assert table.act(seat, Place(rng.choice(listed), symbol, hidden=True)).ok


# -- movement --------------------------------------------------------------------------------


def test_movement_starts_only_when_every_tile_is_placed():
    table = new_table()
    place_strip(table, 19)
    state, stores = table.state, table.stores
    flip = Flip((0, 0), stores[0].opening("tile:0"))
    sentence = "Tiles are still being placed: place one of yours."
    assert refused(dataclasses.replace(state, to_move=0), 0, flip) == sentence
    assert refused(state, 1, Move((0, 1), E)) == sentence
    assert not any(isinstance(a, (Flip, Move)) for a in table.legal(1))
    place_strip(table, 1)
    assert not table.state.placing and table.view(0)["stage"] == "movement"
    assert len(table.state.seen) == 1  # the first position of the movement stage counts
    assert table.act(0, Place((10, 0), STAR)).reason == (
        "Every tile is placed: flip or move one of your tiles."
    )
    assert table.act(0, flip).ok and table.state.board[(0, 0)].symbol is CIRCLE


def test_movement_flip_only_your_own_symbol_down_tiles():
    state, stores = build(line((0, 0), E, "L*? Do? L~ Dx"))
    sentence = "You can flip only one of your own symbol-down tiles."
    assert refused(state, 0, reveal(state, stores, (1, 0))) == sentence  # Dark's tile
    assert refused(state, 0, Flip((2, 0), stores[0].opening("tile:0"))) == sentence  # face up
    assert refused(state, 0, Flip((5, 5), stores[0].opening("tile:0"))) == sentence  # empty
    after = esp.apply(state, 0, reveal(state, stores, (0, 0)))
    assert after.board[(0, 0)] == dataclasses.replace(state.board[(0, 0)], symbol=STAR)
    assert after.to_move == 1 and after.board[(0, 0)].commitment == state.board[(0, 0)].commitment


def test_movement_a_wrong_opening_is_refused_naming_its_move():
    state, stores = build(line((0, 0), E, "Do L#? Dx L*?"))
    liar = PrivateStore(Context(MATCH_ID, 0))
    liar.commit("tile:1", "circle")
    with pytest.raises(CommitmentMismatch) as caught:
        esp.apply(state, 0, Flip((3, 0), liar.opening("tile:1")))
    assert caught.value.sentence == (
        "Light's reveal of the tile placed at move 4 does not match the commitment made at move 4."
    )
    assert caught.value.seat == 0
    with pytest.raises(CommitmentMismatch, match="is not for that tile"):
        esp.apply(state, 0, Flip((3, 0), stores[0].opening("tile:0")))
    with pytest.raises(CommitmentMismatch, match="is not for that tile"):
        esp.apply(state, 0, Flip((3, 0), None))


def test_movement_a_flip_showing_a_third_symbol_is_refused():
    state, stores = build(line((0, 0), E, "L* Do L* Dx L*?"), honest=False)
    with pytest.raises(CommitmentMismatch) as caught:
        esp.apply(state, 0, reveal(state, stores, (4, 0)))
    assert caught.value.sentence == "Light's tile placed at move 5 shows a third star."


def test_movement_a_symbol_down_tile_cannot_move():
    state, _ = build(line((0, 0), E, "L*? Do Dx"))
    assert refused(state, 0, Move((0, 0), E)) == "A symbol-down tile cannot move; flip it first."


def test_movement_only_your_own_tiles_move():
    state, _ = build(line((0, 0), E, "L* Do Dx"))
    assert refused(state, 0, Move((2, 0), W)) == "You can move only one of your own tiles."
    assert refused(state, 0, Move((3, 0), W)) == "You can move only one of your own tiles."


def test_movement_only_symbol_up_tiles_move_and_symbol_down_tiles_flip():
    """Figure 2's point: of Light's tiles only the symbol-up one moves; the others can flip."""
    tiles = {(0, 0): "L*?", (0, 1): "Do", (1, 0): "L#", (1, 1): "Dx?", (2, 0): "Lo?"}
    state, stores = build(tiles)
    legal = esp.legal_actions(state, 0, stores[0])
    moves = {(a.cell, a.direction) for a in legal if isinstance(a, Move)}
    assert moves == {((1, 0), d) for d in (E, SE, SW, W)}
    assert [a.cell for a in legal if isinstance(a, Flip)] == [(0, 0), (2, 0)]
    assert all(isinstance(a, (Move, Flip)) for a in legal)


@pytest.mark.parametrize("direction", range(6))
def test_movement_a_tile_jumps_the_unbroken_run_to_the_first_empty_cell(direction):
    state, _ = build(line((0, 0), direction, "L* Do Dx D~"))
    landing = step((0, 0), direction, 4)
    assert esp.landing(state, (0, 0), direction) == landing
    after = esp.apply(state, 0, Move((0, 0), direction))
    assert (0, 0) not in after.board and after.board[landing] == state.board[(0, 0)]
    assert len(after.board) == 4 and after.to_move == 1 and is_connected(after.board)


def test_movement_a_jump_stops_at_the_first_gap():
    tiles = {**line((0, 0), E, "L* Do Dx . D*"), (3, -1): "D~", (4, -1): "D#"}
    state, _ = build(tiles)
    after = esp.apply(state, 0, Move((0, 0), E))
    assert after.board[(3, 0)] == state.board[(0, 0)] and (0, 0) not in after.board


def test_movement_the_neighbour_in_the_direction_must_be_occupied():
    state, _ = build(line((0, 0), E, "L* Do Dx"))
    sentence = "A tile moves by jumping: the next cell that way must hold a tile."
    for direction in (SE, SW, W, NW, NE):
        assert refused(state, 0, Move((0, 0), direction)) == sentence
    assert {a.direction for a in esp.legal_actions(state, 0, None)} == {E}


@pytest.mark.parametrize("direction", [6, 7, -1, -6])
def test_movement_a_direction_that_does_not_exist_is_refused(direction):
    """Only directions 0 to 5 exist (-1 must not quietly mean north-east)."""
    state, _ = build(line((0, 0), NE, "L* Do Dx"))
    sentence = "A tile moves in one of the six directions."
    assert refused(state, 0, Move((0, 0), direction)) == sentence


def figure_3() -> dict:
    """Two light stars, pinned: one on all six sides, one whose lifting would cut off (3, 0)."""
    ring = dict(zip(neighbours((0, 0)), ["Do", "Dx", "D~", "D#", "D*", "Do"], strict=True))
    return {(0, 0): "L*", **ring, (2, 0): "L*", (3, 0): "Dx"}


def test_movement_figure_3_the_two_light_stars_are_pinned():
    state, stores = build(figure_3())
    assert esp.pin_problem(state, (0, 0)) == PINNED_SIX
    assert esp.pin_problem(state, (2, 0)) == PINNED_SPLIT
    for direction in range(6):
        assert refused(state, 0, Move((0, 0), direction)) == PINNED_SIX
    assert refused(state, 0, Move((2, 0), W)) == PINNED_SPLIT
    assert refused(state, 0, Move((2, 0), E)) == PINNED_SPLIT
    assert esp.legal_actions(state, 0, stores[0]) == [Pass()]
    # Dark, on its turn, has tiles free to move: (3, 0), and ring tiles other than (1, 0).
    darks = esp.legal_actions(dataclasses.replace(state, to_move=1), 1, stores[1])
    free = set(figure_3()) - {(0, 0), (1, 0), (2, 0)}
    assert {a.cell for a in darks if isinstance(a, Move)} == free


def test_movement_a_pinned_tile_cannot_flip():
    tiles = figure_3()
    tiles[(0, 0)] = "L*?"
    tiles[(2, 0)] = "Lo?"
    state, stores = build(tiles)
    assert refused(state, 0, reveal(state, stores, (0, 0))) == PINNED_SIX
    assert refused(state, 0, reveal(state, stores, (2, 0))) == PINNED_SPLIT
    assert esp.legal_actions(state, 0, stores[0]) == [Pass()]


def test_movement_pinned_if_lifting_splits_the_group_even_if_the_move_reconnects_it():
    """(0, 0) is the only link from (1, 0) to a chain that curls round to (3, -1). Jumping east
    it would land on (2, 0), next to both: the group would be whole again, but lifting it splits
    the group, so the move is refused."""
    chain = [(-1, 0), (-1, -1), (0, -2), (1, -2), (2, -2), (3, -2), (3, -1)]
    tiles = {
        (0, 0): "L*",
        (1, 0): "D*",
        **dict(zip(chain, ["Do", "Lo", "Dx", "Lx", "D~", "L~", "D#"], strict=True)),
    }
    state, _ = build(tiles)
    after_jump = {c for c in state.board if c != (0, 0)} | {esp.landing(state, (0, 0), E)}
    assert esp.landing(state, (0, 0), E) == (2, 0) and is_connected(after_jump)
    assert refused(state, 0, Move((0, 0), E)) == PINNED_SPLIT
    assert refused(state, 0, Move((0, 0), W)) == PINNED_SPLIT
    assert not any(
        isinstance(a, Move) and a.cell == (0, 0) for a in esp.legal_actions(state, 0, None)
    )


# -- sets and the end --------------------------------------------------------------------------


@pytest.mark.parametrize("direction", [E, SE, NE], ids=["E-W", "SE-NW", "NE-SW"])
def test_a_set_along_each_of_the_three_axes_ends_the_game(direction):
    assert DIRECTIONS[direction] in AXES
    state, stores = build(line((0, 0), direction, "Lo Dx L~ D# L*?"))
    after = esp.apply(state, 0, reveal(state, stores, step((0, 0), direction, 4)))
    window = tuple(step((0, 0), direction, i) for i in range(5))
    assert after.sets == (window,)
    assert after.outcome.termination is Termination.WIN and after.outcome.winners == {0}
    assert after.outcome.reason == "Light completes a set: Light 3, Dark 2."
    assert esp.to_move(after) == frozenset()
    assert refused(after, 1, Pass()) == "The game is over."


def test_a_window_with_a_symbol_down_tile_is_not_a_set():
    """Only symbol-up tiles count; once the last one is up, the owner of most tiles wins, even
    though another seat completed the set."""
    state, stores = build(line((0, 0), E, "L~? Dx Lo L* D#?"))
    after = esp.apply(state, 0, reveal(state, stores, (0, 0)))
    assert after.outcome is None and after.sets == () and find_sets(after.board) == ()
    end = esp.apply(after, 1, reveal(after, stores, (4, 0)))
    assert end.outcome.winners == {0} and end.outcome.termination is Termination.WIN
    assert end.outcome.reason == "Dark completes a set: Light 3, Dark 2. Light wins."


def test_a_window_with_a_repeated_symbol_is_not_a_set():
    state, stores = build(line((0, 0), E, "Lo Dx L~ D# Lo?"))
    after = esp.apply(state, 0, reveal(state, stores, (4, 0)))
    assert after.board[(4, 0)].symbol is CIRCLE
    assert after.outcome is None and after.sets == () and find_sets(after.board) == ()


def test_a_set_is_five_consecutive_cells_not_five_symbols_with_a_gap():
    tiles = {**line((0, 0), E, "Lo Dx L~ D# . L*?"), (4, -1): "D*", (5, -1): "Do"}
    state, stores = build(tiles)
    after = esp.apply(state, 0, reveal(state, stores, (5, 0)))
    assert after.outcome is None


def test_figure_4_dark_wins_three_to_two():
    """Dark's star jumps north-west over (4, 1) onto (4, 0) and completes the line of five."""
    tiles = {**line((0, 0), E, "Lo Dx D~ L#"), (3, 1): "Lx?", (4, 1): "Do?", (4, 2): "D*"}
    state, _ = build(tiles, to_move=1)
    after = esp.apply(state, 1, Move((4, 2), NW))
    assert after.board[(4, 0)].symbol is STAR
    assert after.sets == (((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),)
    assert after.outcome.termination is Termination.WIN and after.outcome.winners == {1}
    assert after.outcome.reason == "Dark completes a set: Light 2, Dark 3."


def test_figure_5_three_sets_tied_five_all_go_to_the_mover():
    """Dark's cross lands on (1, 0), where a line of six (two sets) crosses a line of five (one
    set): three sets of ten different tiles, 5:5, and the tie goes to the mover, Dark."""
    tiles = {
        **line((0, 0), E, "Lo . L~ D# L* Do"),
        **line((1, -2), SE, "Lo D~ . L# D*"),
        (0, 1): "Lx",
        (-1, 2): "Dx",
    }
    state, _ = build(tiles, to_move=1)
    after = esp.apply(state, 1, Move((-1, 2), NE))
    assert after.board[(1, 0)].symbol is CROSS
    assert len(after.sets) == 3 and all((1, 0) in window for window in after.sets)
    union = {c for window in after.sets for c in window}
    assert len(union) == 10
    assert Counter(after.board[c].owner for c in union) == {0: 5, 1: 5}
    assert after.outcome.termination is Termination.WIN and after.outcome.winners == {1}
    assert after.outcome.reason == (
        "Dark completes 3 sets: Light 5, Dark 5 (ties go to the mover)."
    )


def test_a_tie_between_non_movers_is_a_shared_win():
    """Violet completes the set with one tile; Light and Dark have two each and share the win."""
    tiles = {**line((0, 0), E, "Lo Dx . L# D*"), (1, 1): "Dx?", (2, 1): "V~?", (2, 2): "V~"}
    state, _ = build(tiles, seats=3, to_move=2)
    after = esp.apply(state, 2, Move((2, 2), NW))
    assert after.sets == (((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),)
    assert after.outcome.termination is Termination.SHARED_WIN
    assert after.outcome.winners == {0, 1}
    assert after.outcome.reason == (
        "Violet completes a set: Light 2, Dark 2, Violet 1. Light and Dark share the win."
    )


def test_a_game_can_be_won_during_placement():
    table = new_table()
    light = dict(zip([(i, 0) for i in range(5)], [CIRCLE, CROSS, WAVES, SQUARE, STAR], strict=True))
    place_strip(table, 8, up=light)
    assert table.match.result() is None
    place_strip(table, 1, up=light)
    state = table.state
    assert state.placing and state.placed == (5, 4)
    assert state.outcome.termination is Termination.WIN and state.outcome.winners == {0}
    assert state.outcome.reason == "Light completes a set: Light 5."
    assert table.act(1, Place((4, 1), STAR)).reason == "The game is over."


def test_the_winning_sets_are_recorded_and_shown():
    state, stores = build(line((0, 0), SE, "Lo Dx L~ D# L*?"))
    after = esp.apply(state, 0, reveal(state, stores, (0, 4)))
    view = esp.public_view(after)
    assert view["sets"] == [[[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]]
    assert view["outcome"] == {
        "termination": "win",
        "winners": [0],
        "reason": "Light completes a set: Light 3, Dark 2.",
    }
    assert view["to_move"] == [] and esp.result(after) == after.outcome
    assert json.loads(json.dumps(view)) == view


# -- passes and draws ------------------------------------------------------------------------


def test_pass_is_refused_while_a_legal_action_exists():
    sentence = "You can pass only when you have no legal move."
    state, _ = build(line((0, 0), E, "L* Do Dx"))
    assert refused(state, 0, Pass()) == sentence
    state, _ = build(line((0, 0), E, "L*? Do Dx"))  # a flip is a legal action too
    assert refused(state, 0, Pass()) == sentence
    assert refused(start(), 0, Pass()) == sentence  # placing the first tile


def test_a_seat_with_no_legal_action_passes():
    state, stores = build(figure_3())
    assert esp.legal_actions(state, 0, stores[0]) == [Pass()]
    after = esp.apply(state, 0, Pass())
    assert after.passes == 1 and after.to_move == 1 and after.outcome is None
    assert after.board == state.board
    dark = esp.apply(after, 1, Move((3, 0), W))  # a board action ends the run of passes
    assert dark.passes == 0 and dark.outcome is None


@pytest.mark.parametrize("seats", [2, 3])
def test_every_seat_passing_in_a_row_is_a_draw(seats):
    """A lone symbol-up tile cannot move and the other seats have nothing to flip or move.
    (On a real board some tile is always free, so this position is built, not played.)"""
    state, stores = build({(0, 0): "L*"}, seats=seats)
    for seat in range(seats):
        assert state.outcome is None
        assert esp.legal_actions(state, seat, stores[seat]) == [Pass()]
        state = esp.apply(state, seat, Pass())
    assert state.outcome.termination is Termination.DRAW and state.outcome.winners == set()
    assert state.outcome.reason == "Every player passed in a row."


def test_threefold_repetition_is_a_draw():
    """Light's star and Dark's cross hop back and forth over (1, 0): the position after the
    first move arises again after the fifth and, for the third time, after the ninth."""
    state, _ = build({(0, 0): "L*", (1, 0): "Lo?", (0, 1): "Dx"})
    first = state
    cycle = [Move((0, 0), E), Move((0, 1), NE), Move((2, 0), W), Move((2, -1), SW)]
    for ply in range(8):
        state = esp.apply(state, ply % 2, cycle[ply % 4])
        assert state.outcome is None
    assert state.board == first.board and state.to_move == 0
    state = esp.apply(state, 0, Move((0, 0), E))
    assert state.outcome.termination is Termination.DRAW
    assert state.outcome.reason == "The same position arose for the third time."


def test_a_position_seen_twice_is_warned_of_before_the_third_decides():
    """The same hops: the warning shows from the fifth move's position on (each seen twice),
    and stands in the status before the ninth move draws the game (issue 28, point 4)."""
    state, _ = build({(0, 0): "L*", (1, 0): "Lo?", (0, 1): "Dx"})
    cycle = [Move((0, 0), E), Move((0, 1), NE), Move((2, 0), W), Move((2, -1), SW)]
    warned = []
    for ply in range(8):
        state = esp.apply(state, ply % 2, cycle[ply % 4])
        view = esp.public_view(state)
        warned.append(repetition_warning(view["seen"], view["draw_at"]) is not None)
    assert warned == [False] * 4 + [True] * 4
    said = EspScreen().status(esp.public_view(state), 0)
    assert said.endswith("This position has been seen twice; a third time is a draw.")
    assert esp.apply(state, 0, Move((0, 0), E)).outcome.termination is Termination.DRAW


def test_a_position_includes_faces_and_the_player_to_move():
    state, stores = build(line((0, 0), E, "L*? Do Dx"))
    assert position_key(state.board, 0) != position_key(state.board, 1)
    flipped = esp.apply(state, 0, reveal(state, stores, (0, 0))).board
    assert position_key(flipped, 0) != position_key(state.board, 0)
    moved = {(5, 5): state.board[(1, 0)], **{c: t for c, t in state.board.items() if c != (1, 0)}}
    assert position_key(moved, 0) != position_key(state.board, 0)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_draw_by_agreement_needs_every_other_seat(seats):
    state, _ = build(line((0, 0), E, "L* Do Dx"), seats=seats)
    state = esp.apply(state, 0, ProposeDraw())
    assert esp.to_move(state) == set(range(1, seats))
    assert esp.legal_actions(state, 1, None) == [AnswerDraw(True), AnswerDraw(False)]
    assert esp.legal_actions(state, 0, None) == []
    assert refused(state, 0, AnswerDraw(True)) == "It is not Light's turn."
    for seat in reversed(range(1, seats)):
        assert state.outcome is None
        state = esp.apply(state, seat, AnswerDraw(True))
    assert state.outcome.termination is Termination.DRAW and state.outcome.winners == set()
    assert state.outcome.reason == "The players agreed to a draw."


def test_a_declined_draw_resumes_play_with_the_proposer_to_move():
    state, _ = build(line((0, 0), E, "L* Do Dx"), seats=3)
    state = esp.apply(state, 0, ProposeDraw())
    state = esp.apply(state, 2, AnswerDraw(True))
    assert esp.to_move(state) == {1} and esp.public_view(state)["offer"] == {
        "proposer": 0,
        "accepted": [2],
    }
    state = esp.apply(state, 1, AnswerDraw(False))
    assert state.offer is None and state.outcome is None
    assert esp.to_move(state) == {0}
    assert esp.apply(state, 0, Move((0, 0), E)).board[(3, 0)].owner == 0


def test_an_offer_of_a_draw_must_be_answered_first():
    state, _ = build(line((0, 0), E, "L* Do Dx"))
    assert refused(state, 0, AnswerDraw(True)) == "Nobody has offered a draw."
    assert refused(state, 1, ProposeDraw()) == "It is not Dark's turn."
    offered = esp.apply(state, 0, ProposeDraw())
    assert refused(offered, 1, Move((1, 0), E)) == "First answer the offer of a draw."


# -- the audit -------------------------------------------------------------------------------


def test_audit_an_honest_game_is_verified():
    table = new_table()
    place_strip(table, 20)
    play_randomly(table, random.Random(5), 40)
    assert any(not t.up for t in table.state.board.values())  # seals are left to open
    assert any(e.action["type"] == "flip" for e in table.match.entries)
    result = audit(esp, table.match.config, SEED, table.match.entries, openings(table))
    assert isinstance(result, Verified)


def test_audit_catches_a_seat_that_hid_a_third_star():
    """Light shows two stars, then hides a third; play goes on, the audit names move 5."""
    table = new_table()
    place_strip(table, 4, up={(0, 0): STAR, (1, 0): STAR})
    assert table.act(0, Place((2, 0), STAR, hidden=True)).ok
    place_strip(table, 15)
    result = audit(esp, table.match.config, SEED, table.match.entries, openings(table))
    assert result == Cheat(0, 5, "Light hid a third star under the tile placed at move 5.")
    # Nor can the tile ever be flipped honestly.
    with pytest.raises(CommitmentMismatch, match="shows a third star"):
        esp.apply(table.state, 0, Flip((2, 0), table.stores[0].opening("tile:2")))


def test_audit_a_flip_that_lies_is_refused_and_a_forged_one_is_a_cheat():
    table = new_table()
    place_strip(table, 20)
    liar = PrivateStore(Context(MATCH_ID, 0))
    liar.commit("tile:0", "star")
    lie = Flip((0, 0), liar.opening("tile:0"))
    sentence = (
        "Light's reveal of the tile placed at move 1 does not match the commitment made at move 1."
    )
    assert table.act(0, lie) == table.match.submit(0, lie)
    assert table.match.submit(0, lie).reason == sentence and table.match.step == 20
    assert table.act(0, Flip((0, 0), table.stores[0].opening("tile:0"))).ok
    log = [e.to_json() for e in table.match.entries]
    log[20]["action"] = esp.action_to_json(lie)
    reforge(log, table.match.genesis)
    result = audit(esp, table.match.config, SEED, log, openings(table))
    assert result == Cheat(0, 21, sentence)


def test_audit_is_unverified_when_a_seat_withholds_its_openings():
    table = new_table()
    place_strip(table, 20)
    withheld = openings(table)
    withheld[1] = None
    result = audit(esp, table.match.config, SEED, table.match.entries, withheld)
    assert isinstance(result, Unverified) and result.seats == (1,)
    assert "Dark did not open a hidden value in time" in result.reason
    partial = openings(table)
    partial[0] = [o for o in partial[0] if o.label != "tile:3"]
    result = audit(esp, table.match.config, SEED, table.match.entries, partial)
    assert isinstance(result, Unverified) and result.seats == (0,)


# -- views -----------------------------------------------------------------------------------


def test_public_view_never_shows_the_symbol_of_a_symbol_down_tile():
    table = new_table()
    place_strip(table, 20)
    view = esp.public_view(table.state)
    text = json.dumps(view) + json.dumps([e.action for e in table.match.entries])
    assert not any(symbol.value in text for symbol in Symbol)
    assert all(t["face"] == "down" and "symbol" not in t for t in view["tiles"])
    assert table.act(0, Flip((0, 0), table.stores[0].opening("tile:0"))).ok
    tiles = esp.public_view(table.state)["tiles"]
    assert [t["symbol"] for t in tiles if t["face"] == "up"] == ["circle"]
    assert sum(json.dumps(tiles).count(s.value) for s in Symbol) == 1


def test_seat_view_shows_a_seat_only_its_own_hidden_symbols():
    table = new_table()
    place_strip(table, 20)
    public = esp.public_view(table.state)
    for seat in (0, 1):
        view = table.view(seat)
        me = view.pop("me")
        assert view == public
        assert me["seat"] == seat and me["tray"] == []
        assert me["hidden"] == {f"{k},{seat}": HAND[k].value for k in range(10)}
    assert esp.seat_view(table.state, 0, None)["me"]["hidden"] == {}
    assert Counter(table.view(0)["me"]["hidden"].values()) == {s.value: 2 for s in Symbol}


def test_seat_view_tray_lists_the_symbols_still_to_place():
    table = new_table()
    place_strip(table, 3, up={(0, 1): STAR})
    tray = ["cross", "cross", "waves", "waves", "square", "square", "star", "star"]
    assert table.view(0)["me"]["tray"] == tray
    assert table.view(1)["me"]["tray"].count("star") == 1


# -- the log's JSON --------------------------------------------------------------------------


def test_json_round_trip_of_every_action_kind():
    store = PrivateStore(Context(MATCH_ID, 0))
    sealed = esp.seal(start(), 0, Place((0, 0), STAR, hidden=True), store)
    actions = [
        Place((3, -2), CIRCLE),
        sealed,
        Flip((3, -2), store.opening("tile:0")),
        *(Move((-1, 4), d) for d in range(6)),
        Pass(),
        ProposeDraw(),
        AnswerDraw(True),
        AnswerDraw(False),
    ]
    assert sealed.symbol is None and sealed.commitment is not None
    for action in actions:
        data = esp.action_to_json(action)
        assert json.loads(json.dumps(data)) == data
        assert esp.parse_action(data) == action
        assert esp.action_to_json(esp.parse_action(data)) == data


COMMITMENT = "ab" * 32
OPENING = {"label": "tile:0", "value": "star", "nonce": "cd" * 32}


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "pass",
        {},
        {"type": 1},
        {"type": "jump"},
        {"type": "place", "cell": [0], "symbol": "star"},
        {"type": "place", "cell": [0, 0, 0], "symbol": "star"},
        {"type": "place", "cell": ["0", 0], "symbol": "star"},
        {"type": "place", "cell": [True, 0], "symbol": "star"},
        {"type": "place", "cell": [0.0, 0], "symbol": "star"},
        {"type": "place", "cell": [1001, 0], "symbol": "star"},
        {"type": "place", "cell": "0,0", "symbol": "star"},
        {"type": "place", "symbol": "star"},
        {"type": "place", "cell": [0, 0], "symbol": "triangle"},
        {"type": "place", "cell": [0, 0], "symbol": "STAR"},
        {"type": "place", "cell": [0, 0]},
        {"type": "place", "cell": [0, 0], "commitment": "abc"},
        {"type": "place", "cell": [0, 0], "commitment": COMMITMENT.upper()},
        {"type": "place", "cell": [0, 0], "symbol": "star", "commitment": COMMITMENT},
        {"type": "place", "cell": [0, 0], "symbol": "star", "hidden": True},
        {"type": "flip", "cell": [0, 0]},
        {"type": "flip", "cell": [0, 0], "opening": {"label": "tile:0", "value": "star"}},
        {"type": "flip", "cell": [0, 0], "opening": {**OPENING, "nonce": "xyz"}},
        {"type": "flip", "cell": [0, 0], "opening": OPENING, "extra": 1},
        {"type": "move", "cell": [0, 0], "direction": 6},
        {"type": "move", "cell": [0, 0], "direction": -1},
        {"type": "move", "cell": [0, 0], "direction": "1"},
        {"type": "move", "cell": [0, 0], "direction": 1.0},
        {"type": "move", "cell": [0, 0], "direction": True},
        {"type": "move", "cell": [0, 0]},
        {"type": "move", "cell": [0, 0], "direction": 1, "extra": 1},
        {"type": "pass", "cell": [0, 0]},
        {"type": "propose-draw", "accept": True},
        {"type": "answer-draw", "accept": "yes"},
        {"type": "answer-draw", "accept": 1},
        {"type": "answer-draw", "accept": None},
        {"type": "answer-draw"},
    ],
)
def test_json_malformed_actions_are_refused(data):
    with pytest.raises(MalformedInput):
        esp.parse_action(data)


def test_json_a_malformed_action_in_a_log_is_refused_by_the_match():
    match = Match(esp, config(), SEED)
    assert match.submit(0, Place((0, 0), STAR)).ok
    assert not match.submit(1, Move((0, 0), 6)).ok
    assert match.step == 1
