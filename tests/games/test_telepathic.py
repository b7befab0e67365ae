"""Telepathic: every rule of Telepathic (its rules page in index.html) and every Telepathic
ruling of docs/rulings.md.

The grid is written with two-letter tile codes, rows 1 (north) to 4 (south), columns A-D west to
east: the colour (B blue, O orange, G green, P purple) then the shape (s star, c circle, x cross,
t triangle), so "Bs" is the blue star; ".." is a blank that matches nothing. Positions that need
a particular grid are built on a bare state (`Position`); whole games go through `Table`, as the
product plays them, with the automatic steps (seals, "play on", reveals) taken by each seat's own
device. Expected tiles are worked out by hand in the comments, never with the engine's code;
only the helpers that look for a safe (or a losing) move on a seeded grid use `apply_card` and
`holds`, which are first checked against hand-worked positions here.
"""

from __future__ import annotations

import json
import typing
from dataclasses import replace

import pytest

from parlour.errors import CommitmentMismatch, IllegalAction, MalformedInput
from parlour.fair.commit import Context, Opening
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.telepathic.actions import (
    Action,
    Announce,
    Continue,
    DeclareLost,
    HandCard,
    Perform,
    PlayOn,
    Respond,
    Reveal,
    SealConditions,
)
from parlour.games.telepathic.grid import (
    ACTION_CARDS,
    CARDS_BY_ID,
    COLOURS,
    SHAPES,
    TILES,
    apply_card,
    holds,
    is_calm,
    set_names,
)
from parlour.games.telepathic.state import TeleState
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.config import MatchConfig
from parlour.match.match import Match
from parlour.match.table import Table

tele = GAMES["telepathic"]
NAMES = ("Mary", "Bob", "Cal", "Dee")
SEATS = {"pair": 2, "director": 3, "four": 4, "teams": 4}
MATCH_ID = "m-tele-test-01"
SEED = bytes(range(32))
LABEL = "conditions"
ALL_CARDS = tuple(c.id for c in ACTION_CARDS)
ALL_CONDITIONS = COLOURS + SHAPES
FIRST_GAME = {"shift-north", "shift-east", "rotate-cw", "rotate-ccw"}

COLOUR_CODES = {"B": "blue", "O": "orange", "G": "green", "P": "purple"}
SHAPE_CODES = {"s": "star", "c": "circle", "x": "cross", "t": "triangle"}
BLANK = ("-", "-")


# -- helpers ---------------------------------------------------------------------------------


def grid(*rows: str) -> tuple:
    """Four rows of four tile codes, north to south."""
    tiles = [
        BLANK if code == ".." else (COLOUR_CODES[code[0]], SHAPE_CODES[code[1]])
        for row in rows
        for code in row.split()
    ]
    assert len(tiles) == 16
    return tuple(tiles)


def cell(name: str) -> int:
    """ "C2" -> the grid index of column C, row 2."""
    return 4 * (int(name[1]) - 1) + "ABCD".index(name[0])


# A calm grid: colour index (column + 2 * row) % 4 and shape index (row + column) % 4, so no
# row or column repeats a shape and every column alternates two colours.
CALM = grid(
    "Bs Oc Gx Pt",
    "Gc Px Bt Os",
    "Bx Ot Gs Pc",
    "Gt Ps Bc Ox",
)

# The example of play, just before Mary's turn. Mary (colour): win blue, lose orange. Bob (shape):
# win star, lose circle. Column D already holds three stars (D1-D3); nothing else is a line.
#   - Shift north on column C (Os, Gx, Bc, Ot -> Gx, Bc, Ot, Os) makes row 2 Gt Bt Bc Bs: three
#     blue (B2-D2); row 1 becomes Ox Px Gx Gs: three crosses (A1-C1); no orange, no circles.
#   - Shift north on column A instead (Ox, Gt, Bx, Pc -> Gt, Bx, Pc, Ox) would make row 3
#     Pc Gc Bc Ps (three circles: Bob loses) and row 4 Ox Oc Ot Pt (three orange: Mary loses).
EXAMPLE = grid(
    "Ox Px Os Gs",
    "Gt Bt Gx Bs",
    "Bx Gc Bc Ps",
    "Pc Oc Ot Pt",
)
MARY = {"win": "blue", "lose": "orange"}
BOB = {"win": "star", "lose": "circle"}


# The cards each arrangement's tables are played with (dealing itself is tested on its own).
CARDS = {
    "pair": {0: MARY, 1: BOB},
    "director": {1: MARY, 2: BOB},
    "four": {0: {"lose": "orange"}, 1: {"win": "blue"}, 2: {"lose": "circle"}, 3: {"win": "star"}},
    "teams": {0: {"win": "blue"}, 1: {"win": "green"}, 2: {"win": "star"}, 3: {"win": "triangle"}},
}


def config(arrangement: str = "pair", mode: str = "standard", discard: int | None = None):
    variant: dict = {"arrangement": arrangement, "mode": mode}
    if discard is not None:
        variant["discard"] = discard
    return MatchConfig("telepathic", MATCH_ID, NAMES[: SEATS[arrangement]], variant)


def new_table(
    arrangement: str = "pair",
    mode: str = "standard",
    conditions: dict[int, dict] | None = None,
    seed: bytes = SEED,
    discard: int | None = None,
) -> Table:
    """A table with every seat local; `conditions` (by default CARDS) replace the dealt cards
    before the seals."""
    seats = SEATS[arrangement]
    table = Table.new(tele, config(arrangement, mode, discard), seed, range(seats))
    for seat, value in (conditions or CARDS[arrangement]).items():
        table.stores[seat].commit(LABEL, value, replace=True)
    settle(table)
    return table


def settle(table: Table) -> None:
    """Take the automatic steps until somebody has a real choice or the game is over."""
    while table.match.result() is None:
        for seat in sorted(tele.to_move(table.state)):
            action = tele.auto_action(table.state, seat, table.stores[seat])
            if action is not None:
                result = table.act(seat, action)
                assert result.ok, result.reason
                break
        else:
            return


def act(table: Table, seat: int, action) -> None:
    result = table.act(seat, action)
    assert result.ok, result.reason


def lose_cards(stores: dict[int, PrivateStore]) -> list[str]:
    held = [s.value(LABEL) for s in stores.values() if LABEL in s]
    return [cards["lose"] for cards in held if "lose" in cards]


def safe_turn(table: Table, finish: bool = True) -> tuple[int, int, str, int]:
    """The active seat hands a card and the performer picks a set that meets no lose condition;
    `finish` takes the automatic checks after it. Returns (active, performer, card id, set)."""
    state = table.state
    assert state.phase == "hand" and not tele.must_announce(state)
    loses = lose_cards(table.stores)
    for slot, card_id in enumerate(state.row):
        if card_id is None:
            continue
        for index in range(4):
            after = apply_card(state.grid, CARDS_BY_ID[card_id], index)
            if not any(holds(after, c) for c in loses):
                active = state.active
                act(table, active, HandCard(slot))
                performer = table.state.performer
                act(table, performer, Perform(index))
                if finish:
                    settle(table)
                return active, performer, card_id, index
    raise AssertionError("every card could lose the game here")


def announce(table: Table, seat: int, claims, answer: str | None = None) -> None:
    """`seat` makes the Announcement, the partner answers (pair, teams), everyone reveals."""
    act(table, seat, Announce(tuple(claims)))
    if answer is not None:
        settle(table)
        (responder,) = tele.to_move(table.state)
        act(table, responder, Respond(answer))
    settle(table)


def run_audit(table: Table, openings: dict | None = None):
    if openings is None:
        openings = {s: table.openings(s) for s in table.stores}
    match = table.match
    return audit(tele, match.config, match.seed, match.entries, openings)


class Position:
    """A bare state and every seat's store, for positions built by hand (no log, no audit)."""

    def __init__(
        self,
        arrangement: str,
        conditions: dict[int, dict],
        grid: tuple | None = None,
        row: tuple[str, ...] | None = None,
        mode: str = "standard",
    ) -> None:
        seats = SEATS[arrangement]
        self.stores = {s: PrivateStore(Context(MATCH_ID, s)) for s in range(seats)}
        for seat, value in conditions.items():
            self.stores[seat].commit(LABEL, value)
        self.state: TeleState = tele.initial_state(config(arrangement, mode).setup(), SEED)
        self.settle()
        assert self.state.phase == "hand"
        if grid is not None:
            self.state = replace(self.state, grid=grid)
        if row is not None:
            rest = tuple(c for c in ALL_CARDS if c not in row)
            self.state = replace(self.state, row=row, deck=rest[: len(self.state.deck)])

    def act(self, seat: int, action) -> None:
        self.state = tele.apply(self.state, seat, action)

    def auto(self, seat: int):
        return tele.auto_action(self.state, seat, self.stores[seat])

    def settle(self) -> None:
        while self.state.outcome is None:
            for seat in sorted(tele.to_move(self.state)):
                action = self.auto(seat)
                if action is not None:
                    self.act(seat, action)
                    break
            else:
                return

    def turn(self, card_id: str, set_index: int, settle: bool = True) -> None:
        """The active seat hands `card_id`; the performer applies it to set `set_index`."""
        self.act(self.state.active, HandCard(self.state.row.index(card_id)))
        self.act(self.state.performer, Perform(set_index))
        if settle:
            self.settle()

    def refused(self, seat: int, action) -> str:
        with pytest.raises(IllegalAction) as caught:
            tele.apply(self.state, seat, action)
        return caught.value.sentence


EXAMPLE_ROW = ("shift-east", "shift-north", "flip-column", "shift-south")


def example(arrangement: str = "pair", conditions: dict[int, dict] | None = None) -> Position:
    return Position(arrangement, conditions or CARDS[arrangement], EXAMPLE, EXAMPLE_ROW)


# -- the action cards ------------------------------------------------------------------------


def test_the_ten_action_cards_are_the_rulings_table():
    table = {
        "Shift north": ("columns", True),
        "Shift south": ("columns", False),
        "Shift east": ("rows", True),
        "Shift west": ("rows", False),
        "Rotate clockwise": ("quadrants", True),
        "Rotate counter-clockwise": ("quadrants", True),
        "Spin half": ("quadrants", False),
        "Flip column": ("columns", False),
        "Flip row": ("rows", False),
        "Swap halves": ("columns", False),
    }
    assert {c.name: (c.sets, c.first_game) for c in ACTION_CARDS} == table
    assert len(set(ALL_CARDS)) == 10
    assert {c.id for c in ACTION_CARDS if c.first_game} == FIRST_GAME


def test_the_sets_a_card_offers_are_named_as_players_say_them():
    assert set_names("columns") == ("column A", "column B", "column C", "column D")
    assert set_names("rows") == ("row 1", "row 2", "row 3", "row 4")
    assert set_names("quadrants") == (
        "north-west quadrant",
        "north-east quadrant",
        "south-west quadrant",
        "south-east quadrant",
    )


def test_the_sixteen_tiles_are_every_colour_and_shape_once():
    assert COLOURS == ("blue", "orange", "green", "purple")
    assert SHAPES == ("star", "circle", "cross", "triangle")
    assert len(TILES) == len(set(TILES)) == 16
    assert set(TILES) == {(c, s) for c in COLOURS for s in SHAPES}


# Each hand check: after the card acts on the set, cell -> the cell its tile came from.
HAND_CHECKS = [
    ("shift-north", 2, {"C1": "C2", "C2": "C3", "C3": "C4", "C4": "C1"}),
    ("shift-north", 0, {"A1": "A2", "A4": "A1"}),
    ("shift-south", 3, {"D1": "D4", "D2": "D1", "D3": "D2", "D4": "D3"}),
    ("shift-south", 1, {"B1": "B4", "B3": "B2"}),
    ("shift-east", 0, {"A1": "D1", "B1": "A1", "C1": "B1", "D1": "C1"}),
    ("shift-east", 3, {"A4": "D4", "C4": "B4"}),
    ("shift-west", 1, {"A2": "B2", "B2": "C2", "C2": "D2", "D2": "A2"}),
    ("shift-west", 2, {"D3": "A3", "A3": "B3"}),
    # clockwise: A1 B1 / A2 B2 becomes A2 A1 / B2 B1
    ("rotate-cw", 0, {"A1": "A2", "B1": "A1", "B2": "B1", "A2": "B2"}),
    ("rotate-cw", 3, {"C3": "C4", "D3": "C3", "D4": "D3", "C4": "D4"}),
    # counter-clockwise: C1 D1 / C2 D2 becomes D1 D2 / C1 C2
    ("rotate-ccw", 1, {"C1": "D1", "D1": "D2", "D2": "C2", "C2": "C1"}),
    ("rotate-ccw", 2, {"A3": "B3", "A4": "A3", "B4": "A4", "B3": "B4"}),
    ("spin-half", 2, {"A3": "B4", "B4": "A3", "B3": "A4", "A4": "B3"}),
    ("spin-half", 1, {"C1": "D2", "D1": "C2", "C2": "D1", "D2": "C1"}),
    ("flip-column", 1, {"B1": "B4", "B2": "B3", "B3": "B2", "B4": "B1"}),
    ("flip-column", 3, {"D1": "D4", "D4": "D1"}),
    ("flip-row", 2, {"A3": "D3", "B3": "C3", "C3": "B3", "D3": "A3"}),
    ("flip-row", 0, {"A1": "D1", "D1": "A1"}),
    ("swap-halves", 3, {"D1": "D3", "D2": "D4", "D3": "D1", "D4": "D2"}),
    ("swap-halves", 0, {"A1": "A3", "A4": "A2"}),
]


@pytest.mark.parametrize(("card_id", "index", "moves"), HAND_CHECKS)
def test_tiles_move_as_checked_by_hand(card_id, index, moves):
    labelled = TILES  # cell i holds TILES[i], so every tile says where it started
    out = apply_card(labelled, CARDS_BY_ID[card_id], index)
    for to, came_from in moves.items():
        assert out[cell(to)] == labelled[cell(came_from)], (to, came_from)


def the_set(kind: str, index: int) -> set[tuple[int, int]]:
    """(row, column) of the cells of a set, by hand: column / row number, or a 2x2 corner."""
    if kind == "columns":
        return {(r, index) for r in range(4)}
    if kind == "rows":
        return {(index, c) for c in range(4)}
    top, left = {0: (0, 0), 1: (0, 2), 2: (2, 0), 3: (2, 2)}[index]
    return {(top + i, left + j) for i in range(2) for j in range(2)}


def destination(effect: str, index: int, r: int, c: int) -> tuple[int, int]:
    """Where the tile at (r, c) of the set goes, by the ruling's description of each effect."""
    top, left = {0: (0, 0), 1: (0, 2), 2: (2, 0), 3: (2, 2)}[index]
    i, j = r - top, c - left  # inside a quadrant
    return {
        "shift-north": lambda: ((r - 1) % 4, c),
        "shift-south": lambda: ((r + 1) % 4, c),
        "shift-east": lambda: (r, (c + 1) % 4),
        "shift-west": lambda: (r, (c - 1) % 4),
        "rotate-cw": lambda: (top + j, left + 1 - i),
        "rotate-ccw": lambda: (top + 1 - j, left + i),
        "spin-half": lambda: (top + 1 - i, left + 1 - j),
        "flip-column": lambda: (3 - r, c),
        "flip-row": lambda: (r, 3 - c),
        "swap-halves": lambda: ((r + 2) % 4, c),
    }[effect]()


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("card_id", ALL_CARDS)
def test_every_card_on_every_set_moves_exactly_its_own_four_tiles(card_id, index):
    card = CARDS_BY_ID[card_id]
    cells = the_set(card.sets, index)
    expected = list(TILES)
    for r, c in cells:
        nr, nc = destination(card.effect, index, r, c)
        assert (nr, nc) in cells
        expected[4 * nr + nc] = TILES[4 * r + c]
    out = apply_card(TILES, card, index)
    assert list(out) == expected
    moved = {i for i in range(16) if out[i] != TILES[i]}
    assert moved <= {4 * r + c for r, c in cells}
    assert len(moved) == 4  # the sixteen tiles differ, so all four move (even in a flip)
    assert sorted(out) == sorted(TILES)


GRIDS = [TILES, CALM, EXAMPLE, tele.initial_state(config().setup(), SEED).grid]


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize(
    ("there", "back"),
    [("shift-north", "shift-south"), ("shift-east", "shift-west"), ("rotate-cw", "rotate-ccw")],
)
def test_opposite_cards_undo_each_other(there, back, index):
    for g in GRIDS:
        moved = apply_card(g, CARDS_BY_ID[there], index)
        assert moved != g
        assert apply_card(moved, CARDS_BY_ID[back], index) == g
        assert apply_card(apply_card(g, CARDS_BY_ID[back], index), CARDS_BY_ID[there], index) == g


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize(
    ("card_id", "period"),
    [
        ("rotate-cw", 4),
        ("rotate-ccw", 4),
        ("shift-north", 4),
        ("shift-south", 4),
        ("shift-east", 4),
        ("shift-west", 4),
        ("spin-half", 2),
        ("flip-column", 2),
        ("flip-row", 2),
        ("swap-halves", 2),
    ],
)
def test_repeating_a_card_comes_back_to_the_start(card_id, period, index):
    card = CARDS_BY_ID[card_id]
    for g in GRIDS:
        out = g
        for k in range(1, period + 1):
            out = apply_card(out, card, index)
            assert (out == g) == (k == period), k


@pytest.mark.parametrize("index", range(4))
def test_two_quarter_turns_are_a_half_spin(index):
    cw, ccw, half = (CARDS_BY_ID[c] for c in ("rotate-cw", "rotate-ccw", "spin-half"))
    for g in GRIDS:
        assert apply_card(apply_card(g, cw, index), cw, index) == apply_card(g, half, index)
        assert apply_card(apply_card(g, ccw, index), ccw, index) == apply_card(g, half, index)


def test_a_card_on_one_set_leaves_the_other_three_sets_alone():
    # Column C is indices 2, 6, 10, 14; the north-east quadrant is 2, 3, 6, 7.
    out = apply_card(CALM, CARDS_BY_ID["shift-north"], 2)
    assert [i for i in range(16) if out[i] != CALM[i]] == [2, 6, 10, 14]
    out = apply_card(CALM, CARDS_BY_ID["rotate-cw"], 1)
    assert [i for i in range(16) if out[i] != CALM[i]] == [2, 3, 6, 7]
    out = apply_card(CALM, CARDS_BY_ID["shift-west"], 3)  # row 4: 12-15
    assert [i for i in range(16) if out[i] != CALM[i]] == [12, 13, 14, 15]


# -- conditions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "condition", "met"),
    [
        # horizontal, at either end of a row
        (("Bs Bc Bx ..", ".. .. .. ..", ".. .. .. ..", ".. .. .. .."), "blue", True),
        ((".. .. .. ..", ".. .. .. ..", ".. .. .. ..", ".. Gc Gx Gt"), "green", True),
        # vertical, at either end of a column
        (("Ps .. .. ..", "Pc .. .. ..", "Px .. .. ..", ".. .. .. .."), "purple", True),
        ((".. .. .. ..", ".. .. .. Bs", ".. .. .. Os", ".. .. .. Gs"), "star", True),
        ((".. .. .. ..", ".. Oc Gc Pc", ".. .. .. ..", ".. .. .. .."), "circle", True),
        # four in a line is three in a line
        ((".. .. .. ..", "Bt Ot Gt Pt", ".. .. .. ..", ".. .. .. .."), "triangle", True),
        ((".. Ox .. ..", ".. Oc .. ..", ".. Os .. ..", ".. Ot .. .."), "orange", True),
        # diagonals do not count, either way
        (("Bs .. .. ..", ".. Bc .. ..", ".. .. Bx ..", ".. .. .. .."), "blue", False),
        ((".. .. .. Gx", ".. .. Bx ..", ".. Px .. ..", ".. .. .. .."), "cross", False),
        # no wrap-around: columns D, A, B of a row; rows 4, 1, 2 of a column
        (("Bs Bc .. Bx", ".. .. .. ..", ".. .. .. ..", ".. .. .. .."), "blue", False),
        ((".. Ps .. ..", ".. Pc .. ..", ".. .. .. ..", ".. Px .. .."), "purple", False),
        # nor from the end of one row to the start of the next (indices 2, 3, 4 in a row)
        ((".. .. Gs Gc", "Gx .. .. ..", ".. .. .. ..", ".. .. .. .."), "green", False),
        # two and a gap is not a line
        ((".. .. .. ..", "Ot Oc .. Ox", ".. .. .. ..", ".. .. .. .."), "orange", False),
        (("Bt .. .. ..", "Gt .. .. ..", ".. .. .. ..", "Pt .. .. .."), "triangle", False),
        # the wrong attribute: three blue tiles are not three stars
        (("Bs Bc Bx ..", ".. .. .. ..", ".. .. .. ..", ".. .. .. .."), "star", False),
    ],
)
def test_a_condition_is_three_in_an_unbroken_straight_line(rows, condition, met):
    assert holds(grid(*rows), condition) is met


def test_crossing_lines_both_count():
    # Row 2 is three blue (A2-C2); column B is three stars (B1-B3); they cross at B2, a blue star.
    g = grid(
        "Gc Ps Ox Gt",
        "Bx Bs Bt Pc",
        "Oc Gs Px Ot",
        "Gx Pt Oc Ps",
    )
    assert holds(g, "blue") and holds(g, "star")
    assert not any(holds(g, c) for c in ALL_CONDITIONS if c not in ("blue", "star"))


def test_the_calm_and_example_grids_are_what_the_comments_say():
    assert sorted(CALM) == sorted(TILES) and sorted(EXAMPLE) == sorted(TILES)
    assert is_calm(CALM) and not any(holds(CALM, c) for c in ALL_CONDITIONS)
    assert [c for c in ALL_CONDITIONS if holds(EXAMPLE, c)] == ["star"]
    north = CARDS_BY_ID["shift-north"]
    after_c = apply_card(EXAMPLE, north, 2)
    assert after_c[cell("B2") : cell("D2") + 1] == (
        ("blue", "triangle"),
        ("blue", "circle"),
        ("blue", "star"),
    )
    assert [c for c in ALL_CONDITIONS if holds(after_c, c)] == ["blue", "star", "cross"]
    after_a = apply_card(EXAMPLE, north, 0)
    assert [c for c in ALL_CONDITIONS if holds(after_a, c)] == ["orange", "star", "circle"]


# -- the starting grid -----------------------------------------------------------------------


def test_the_starting_grid_comes_from_the_seed_and_is_calm():
    setup = config().setup()
    grids = []
    for k in range(300):
        seed = k.to_bytes(2, "big") * 16
        g = tele.initial_state(setup, seed).grid
        assert g == tele.initial_state(setup, seed).grid
        assert sorted(g) == sorted(TILES)  # all sixteen tiles, each once
        assert not any(holds(g, c) for c in ALL_CONDITIONS), k
        grids.append(g)
    assert len(set(grids)) > 290
    view = tele.public_view(tele.initial_state(setup, SEED))
    assert [tuple(t) for t in view["grid"]] == list(tele.initial_state(setup, SEED).grid)


# -- set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arrangement", "seats", "variant", "sentence"),
    [
        ("pair", 3, {}, "That arrangement is played by 2 players, not 3."),
        ("director", 2, {}, "That arrangement is played by 3 players, not 2."),
        ("four", 3, {}, "That arrangement is played by 4 players, not 3."),
        ("teams", 2, {}, "That arrangement is played by 4 players, not 2."),
        ("circle", 2, {}, "Choose pair, director, four partners or teams."),
        ("pair", 2, {"mode": "expert"}, "The mode is first game, standard or challenge."),
        ("pair", 2, {"mode": "challenge", "discard": 0}, None),
        ("pair", 2, {"mode": "challenge", "discard": 4}, None),
        ("pair", 2, {"mode": "challenge", "discard": "2"}, None),
    ],
)
def test_set_ups_the_game_cannot_be_played_with_are_refused(arrangement, seats, variant, sentence):
    cfg = MatchConfig(
        "telepathic", MATCH_ID, NAMES[:seats], {"arrangement": arrangement, **variant}
    )
    with pytest.raises(IllegalAction) as caught:
        Table.new(tele, cfg, SEED, range(seats))
    assert caught.value.sentence == (sentence or "A challenge game sets aside 1 to 3 action cards.")


@pytest.mark.parametrize(
    ("arrangement", "roles"),
    [
        ("pair", [("colour", {"win", "lose"}), ("shape", {"win", "lose"})]),
        ("director", [None, ("colour", {"win", "lose"}), ("shape", {"win", "lose"})]),
        (
            "four",
            [("colour", {"lose"}), ("colour", {"win"}), ("shape", {"lose"}), ("shape", {"win"})],
        ),
        (
            "teams",
            [("colour", {"win"}), ("colour", {"win"}), ("shape", {"win"}), ("shape", {"win"})],
        ),
    ],
)
def test_condition_cards_are_dealt_privately_by_role_and_never_twice(arrangement, roles):
    for _ in range(12):
        table = Table.new(tele, config(arrangement), SEED, range(SEATS[arrangement]))
        held: list[str] = []
        for seat, role in enumerate(roles):
            store = table.stores[seat]
            if role is None:  # the director holds no condition card
                assert LABEL not in store
                continue
            kind, which = role
            cards = store.value(LABEL)
            assert set(cards) == which
            assert all(c in (COLOURS if kind == "colour" else SHAPES) for c in cards.values())
            held += cards.values()
        assert len(held) == len(set(held))


def test_every_seat_seals_its_cards_before_play():
    table = Table.new(tele, config("director"), SEED, range(3))
    assert tele.to_move(table.state) == {1, 2}  # the director has nothing to seal
    assert table.act(0, HandCard(0)).reason == "It is not Mary's turn."
    assert table.act(1, HandCard(0)).reason == (
        "First every player seals the condition cards they were dealt."
    )
    act(table, 2, tele.auto_action(table.state, 2, table.stores[2]))
    assert tele.to_move(table.state) == {1} and table.state.phase == "setup"
    seal = tele.auto_action(table.state, 1, table.stores[1])
    assert isinstance(seal, SealConditions)
    act(table, 1, seal)
    assert table.state.phase == "hand" and tele.to_move(table.state) == {0}
    assert [s["sealed"] for s in table.view(0)["seats"]] == [False, True, True]
    assert table.state.sealed[1][0] == seal.commitment


# -- modes -----------------------------------------------------------------------------------


def test_the_first_game_uses_the_four_first_game_cards_and_returns_them():
    table = new_table(mode="first")
    row = table.state.row
    assert set(row) == FIRST_GAME and table.state.deck == ()
    names = {CARDS_BY_ID[c].name for c in row}
    assert names == {"Shift north", "Shift east", "Rotate clockwise", "Rotate counter-clockwise"}
    for _ in range(14):
        safe_turn(table)
        assert table.state.row == row and table.state.used == ()
        assert not tele.must_announce(table.state)
        assert HandCard(0) in table.legal(table.state.active)
    assert table.state.turns == 14 and table.match.result() is None


def test_the_standard_game_draws_a_row_of_four_from_a_shuffled_deck():
    setup = config().setup()
    orders = set()
    for k in range(12):
        state = tele.initial_state(setup, bytes([k]) * 32)
        assert len(state.row) == 4 and len(state.deck) == 6
        assert sorted(state.row + state.deck) == sorted(ALL_CARDS)
        assert state == tele.initial_state(setup, bytes([k]) * 32)
        orders.add(state.row + state.deck)
    assert len(orders) > 6


def test_a_used_card_is_discarded_and_replaced_from_the_deck():
    table = new_table()
    before = table.state
    act(table, 0, HandCard(2))
    assert table.view(0)["handed"] == before.row[2] and table.state.performer == 1
    act(table, 1, Perform(0))
    settle(table)
    after = table.state
    assert after.used == (before.row[2],)
    assert after.row == (before.row[0], before.row[1], before.deck[0], before.row[3])
    assert after.deck == before.deck[1:]
    assert table.view(1)["deck"] == 5 and table.view(1)["used"] == 1


def test_the_announcement_is_compulsory_once_every_card_is_used():
    table = new_table()
    used = []
    for turn in range(10):
        assert not tele.must_announce(table.state)
        used.append(safe_turn(table)[2])
        assert len(table.state.deck) == max(0, 5 - turn)
    state = table.state
    assert sorted(used) == sorted(ALL_CARDS) and state.row == (None,) * 4 and state.deck == ()
    assert tele.must_announce(state) and table.view(0)["must_announce"]
    active = state.active
    legal = table.legal(active)
    assert legal and all(isinstance(a, Announce) for a in legal)
    assert len(legal) == 4  # the partner's win condition: one of four cards
    assert table.act(active, HandCard(0)).reason == "Hand over one of the face-up action cards."
    # either partner may make it: the other one names the active seat's card
    cards = COLOURS if active == 0 else SHAPES
    assert table.legal(1 - active) == [Announce(((active, name),)) for name in cards]
    win = table.stores[1 - active].value(LABEL)["win"]
    mine = table.stores[active].value(LABEL)["win"]
    announce(table, active, [(1 - active, win)], mine)
    assert table.match.result() is not None
    assert isinstance(run_audit(table), Verified)


@pytest.mark.parametrize("discard", [1, 2, 3])
def test_a_challenge_sets_aside_cards_unseen(discard):
    table = new_table(mode="challenge", discard=discard)
    state = table.state
    assert len(state.row) == 4 and len(state.deck) == 6 - discard and state.removed == discard
    aside = set(ALL_CARDS) - set(state.row) - set(state.deck)
    assert len(aside) == discard
    view = json.dumps(table.view(0))
    assert table.view(0)["removed"] == discard
    assert not any(f'"{card}"' in view for card in aside)
    turns = 0
    while not tele.must_announce(table.state):
        safe_turn(table)
        turns += 1
    assert turns == 10 - discard
    assert not aside & set(table.state.used)


@pytest.mark.parametrize("discard", [None, 2])
def test_the_action_deck_follows_from_the_public_seed(discard):
    """docs/fair-play.md, "Telepathic's action deck is public": anyone holding the public seed
    can compute every coming card and the cards a challenge sets aside. This keeps that claim
    true; if the deck is ever hidden, this fails and the docs must change."""
    table = new_table(mode="standard" if discard is None else "challenge", discard=discard)
    order = Rng(table.match.seed).derive("telepathic:deck").shuffled(list(ALL_CARDS))
    aside = order[4 : 4 + (discard or 0)]
    assert list(table.state.row) == order[:4]
    assert set(ALL_CARDS) - set(table.state.row) - set(table.state.deck) == set(aside)
    drawn = []
    while table.state.deck:
        before = table.state.row
        safe_turn(table)
        drawn += [new for old, new in zip(before, table.state.row, strict=True) if new != old]
    assert drawn == order[4 + len(aside) :]


def test_the_standard_game_discards_nothing():
    state = tele.initial_state(config().setup(), SEED)
    assert state.removed == 0 and len(state.deck) == 6


# -- turn order ------------------------------------------------------------------------------


def test_pair_the_performer_takes_the_next_turn():
    table = new_table()
    turns = [safe_turn(table)[:2] for _ in range(6)]
    assert turns == [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1), (1, 0)]


def test_pair_only_the_active_seat_hands_and_only_the_performer_performs():
    table = new_table()
    assert table.act(1, HandCard(0)).reason == "It is not Bob's turn."
    act(table, 0, HandCard(0))
    assert table.act(0, Perform(0)).reason == "It is not Mary's turn."
    assert (
        table.act(1, HandCard(1)).reason
        == "Bob chooses one of the four sets on the card handed over."
    )
    assert table.legal(1) == [Perform(i) for i in range(4)]


def test_director_hands_alternately_to_the_two_partners():
    table = new_table("director")
    turns = []
    for _ in range(6):
        assert tele.to_move(table.state) == {0}
        turns.append(safe_turn(table)[:2])
    assert turns == [(0, 1), (0, 2), (0, 1), (0, 2), (0, 1), (0, 2)]


def test_director_only_the_director_announces_and_names_both():
    table = new_table("director")
    for _ in range(3):
        safe_turn(table)
        for partner in (1, 2):
            assert tele.announcement_shape(table.state, partner) == []
            assert table.act(partner, Announce(((1, "blue"), (2, "star")))).ok is False
    assert tele.announcement_shape(table.state, 0) == [1, 2]
    announcements = [a for a in table.legal(0) if isinstance(a, Announce)]
    assert len(announcements) == 16
    assert all([s for s, _ in a.claims] == [1, 2] for a in announcements)
    assert table.act(0, Announce(((1, "blue"),))).reason == (
        "Name the win condition of each partner you announce for."
    )
    assert table.act(0, Announce(((1, "star"), (2, "blue")))).reason == (
        "'star' cannot be Bob's win condition."
    )


def test_four_partners_turns_go_round_and_hand_to_the_right_with_one_reshuffle():
    table = new_table("four")
    active, performers, decks, reshuffles, empty = [], [], [], [], []
    while not tele.must_announce(table.state):
        a, p, _, _ = safe_turn(table)
        active.append(a)
        performers.append(p)
        decks.append(len(table.state.deck))
        reshuffles.append(table.state.reshuffles)
        empty.append(table.state.row.count(None))
        if len(active) == 7:
            # the deck ran out after six turns: the seven used cards became the new deck
            assert table.state.used == ()
            assert sorted(table.state.deck + table.state.row) == sorted(ALL_CARDS)
    assert len(active) == 17  # 4 + 6 cards, then the 7 used ones once more
    assert active == [t % 4 for t in range(17)]
    assert performers == [(t - 1) % 4 for t in range(17)]  # 0 hands to 3, 1 to 0, ...
    assert decks == [5, 4, 3, 2, 1, 0, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0]
    assert reshuffles == [0] * 6 + [1] * 11
    assert empty == [0] * 13 + [1, 2, 3, 4]
    # the compulsory Announcement names both win conditions (seats 2 and 4)
    seat = table.state.active
    assert seat == 1 and tele.announcement_shape(table.state, seat) == [1, 3]
    assert all(isinstance(a, Announce) for a in table.legal(seat))
    assert tele.announcement_shape(table.state, 0) == []


def test_four_partners_each_seat_announces_on_its_own_turn_only():
    table = new_table("four")
    safe_turn(table)
    assert tele.to_move(table.state) == {1}
    for seat in (0, 2, 3):
        assert table.act(seat, Announce(((1, "blue"), (3, "star")))).reason == (
            f"It is not {NAMES[seat]}'s turn."
        )
    assert tele.announcement_shape(table.state, 1) == [1, 3]


def test_teams_hand_to_the_partner_opposite_who_may_then_announce_or_go_on():
    table = new_table("teams")
    active, performers, decks = [], [], []
    for _ in range(21):
        state = table.state
        assert state.phase == "hand" and None not in state.row
        a = state.active
        act(table, a, HandCard(0))
        p = table.state.performer
        act(table, p, Perform(0))
        settle(table)
        window = table.state
        assert window.phase == "window" and tele.to_move(window) == {p}
        legal = table.legal(p)
        assert legal[0] == Continue() and len(legal) == 5
        assert all([s for s, _ in x.claims] == [a] for x in legal[1:])
        assert table.act(a, Continue()).ok is False
        act(table, p, Continue())
        active.append(a)
        performers.append(p)
        decks.append(len(table.state.deck))
    assert active == [t % 4 for t in range(21)]
    assert performers == [(t + 2) % 4 for t in range(21)]  # 0 -> 2, 1 -> 3, 2 -> 0, 3 -> 1
    # the deck is rebuilt from the used cards each time it runs out
    assert decks == [5, 4, 3, 2, 1, 0, 6] * 3 and table.state.reshuffles == 3
    assert table.match.result() is None


def test_teams_have_no_lose_conditions_and_no_check():
    table = Table.new(tele, config("teams"), SEED, range(4))  # the cards as dealt
    for seat in range(4):
        assert set(table.stores[seat].value(LABEL)) == {"win"}
    assert lose_cards(table.stores) == []
    settle(table)
    act(table, 0, HandCard(0))
    act(table, 2, Perform(0))
    assert table.state.phase == "window"  # straight after the action, no "play on" round
    assert tele.announcement_shape(table.state, 2) == [0]
    assert tele.announcement_shape(table.state, 0) == []


# -- lose conditions -------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_a_met_lose_condition_is_declared_with_proof_and_ends_the_game(first):
    # Flip column A (Ox, Gt, Bx, Pc -> Pc, Bx, Gt, Ox): row 4 becomes Ox Oc Ot Pt, three orange.
    pos = example()
    pos.turn("flip-column", 0, settle=False)
    assert pos.state.phase == "check" and tele.to_move(pos.state) == {0, 1}
    assert isinstance(pos.auto(0), DeclareLost) and pos.auto(1) == PlayOn()
    if first == 1:
        pos.act(1, pos.auto(1))
    pos.act(0, pos.auto(0))
    outcome = tele.result(pos.state)
    assert outcome.termination == Termination.LOSS and outcome.winners == frozenset()
    assert outcome.reason == (
        "Mary's lose condition (orange: three in a line) is met: the game is lost."
    )
    assert pos.state.revealed == {0: MARY} and tele.to_move(pos.state) == frozenset()
    assert pos.refused(1, PlayOn()) == "The game is over."


def test_the_shape_players_lose_condition_is_checked_too():
    # Shift south column C (Os, Gx, Bc, Ot -> Ot, Os, Gx, Bc): row 4 becomes Pc Oc Bc Pt.
    pos = example()
    pos.turn("shift-south", 2)
    assert tele.result(pos.state).termination == Termination.LOSS
    assert "Bob's lose condition (circle" in tele.result(pos.state).reason
    assert pos.state.revealed == {1: BOB}


def test_director_and_four_partners_check_the_lose_holders():
    pos = example("director")
    pos.turn("flip-column", 0, settle=False)
    assert tele.to_move(pos.state) == {1, 2}
    pos.settle()
    assert tele.result(pos.state).reason.startswith("Bob's lose condition (orange")
    pos = example("four")  # seat 0 lose orange, 1 win blue, 2 lose circle, 3 win star
    pos.turn("shift-north", 2, settle=False)  # Mary hands to Dee; nobody's lose is met
    assert pos.state.phase == "check" and tele.to_move(pos.state) == {0, 2}
    assert pos.auto(1) is None and pos.auto(3) is None
    pos.settle()
    assert pos.state.phase == "hand" and pos.state.active == 1
    pos.turn("shift-south", 3)  # column D: no loss either
    assert pos.state.outcome is None


def test_nobody_loses_while_no_lose_condition_is_met():
    pos = example()
    pos.turn("shift-north", 2, settle=False)
    assert pos.auto(0) == PlayOn() and pos.auto(1) == PlayOn()
    opening = pos.stores[0].opening(LABEL)
    assert pos.refused(0, DeclareLost(opening)) == (
        "Mary's lose condition is not met: the game goes on."
    )
    assert pos.refused(1, DeclareLost(pos.stores[1].opening(LABEL))) == (
        "Bob's lose condition is not met: the game goes on."
    )
    pos.settle()
    assert pos.state.outcome is None and pos.state.phase == "hand"


def test_a_forged_proof_of_loss_is_refused():
    pos = example()
    pos.turn("flip-column", 0, settle=False)
    real = pos.stores[0].opening(LABEL)
    forged = [
        Opening(LABEL, {"win": "green", "lose": "orange"}, real.nonce),
        Opening(LABEL, real.value, "0" * 64),
        Opening("cards", real.value, real.nonce),
    ]
    for opening in forged:
        with pytest.raises(CommitmentMismatch) as caught:
            tele.apply(pos.state, 0, DeclareLost(opening))
        assert caught.value.seat == 0
    # Bob cannot declare with Mary's cards either: they are bound to her seat
    with pytest.raises(CommitmentMismatch):
        tele.apply(pos.state, 1, DeclareLost(real))
    pos.act(0, DeclareLost(real))
    assert pos.state.outcome.termination == Termination.LOSS


def test_a_false_loss_is_refused_at_the_table():
    table = new_table()
    safe_turn(table, finish=False)  # nobody's lose condition is met after a safe turn
    assert table.state.phase == "check" and tele.to_move(table.state) == {0, 1}
    step = table.match.step
    for seat in (0, 1):
        assert tele.auto_action(table.state, seat, table.stores[seat]) == PlayOn()
        reason = table.act(seat, DeclareLost(table.stores[seat].opening(LABEL))).reason
        assert reason == f"{NAMES[seat]}'s lose condition is not met: the game goes on."
    assert table.match.step == step and table.match.result() is None


# -- the example of play ---------------------------------------------------------------------


def test_the_example_of_play():
    """Mary (colour: win blue, lose orange) and Bob (shape: win star, lose circle), standard game.

    See EXAMPLE: Mary hands Shift north, Bob shifts column C, row 2 becomes three blue (B2-D2),
    column D is three stars, nobody loses; Bob announces Mary's blue, Mary answers star."""
    pos = example()
    assert pos.state.active == 0  # it is Mary's turn
    assert tele.seat_view(pos.state, 1, pos.stores[1])["me"]["met"] == {"win": True, "lose": False}
    pos.act(0, HandCard(EXAMPLE_ROW.index("shift-north")))
    assert pos.state.performer == 1 and tele.to_move(pos.state) == {1}
    deck_top = pos.state.deck[0]
    pos.act(1, Perform(2))  # column C
    # column C was Os, Gx, Bc, Ot: it is now Gx, Bc, Ot, Os
    assert pos.state.grid == grid(
        "Ox Px Gx Gs",
        "Gt Bt Bc Bs",
        "Bx Gc Ot Ps",
        "Pc Oc Os Pt",
    )
    # Bob discards the card and draws a new one into its place
    assert pos.state.used == ("shift-north",) and pos.state.row[1] == deck_top
    # Mary's device confirms no three orange: play goes on
    assert pos.auto(0) == PlayOn() and pos.auto(1) == PlayOn()
    pos.settle()
    assert pos.state.outcome is None and pos.state.active == 1  # Bob's turn
    assert tele.seat_view(pos.state, 0, pos.stores[0])["me"]["met"] == {"win": True, "lose": False}
    # Bob risks it: "Your win condition is blue"
    pos.act(1, Announce(((0, "blue"),)))
    assert pos.state.phase == "respond" and tele.to_move(pos.state) == {0}
    assert [a.name for a in tele.legal_actions(pos.state, 0, pos.stores[0])] == list(SHAPES)
    assert pos.refused(0, Respond("blue")) == "Name a shape for Bob."
    # row 1 is three crosses too, but Mary answers star
    pos.act(0, Respond("star"))
    assert tele.to_move(pos.state) == {0, 1}
    assert pos.auto(0) == Reveal(pos.stores[0].opening(LABEL))
    pos.settle()
    outcome = tele.result(pos.state)
    assert outcome.termination == Termination.WIN and outcome.winners == {0, 1}
    assert pos.state.revealed == {0: MARY, 1: BOB}


def test_the_example_of_play_answered_with_crosses_is_lost():
    pos = example()
    pos.turn("shift-north", 2)
    pos.act(1, Announce(((0, "blue"),)))
    pos.act(0, Respond("cross"))
    pos.settle()
    outcome = tele.result(pos.state)
    assert outcome.termination == Termination.LOSS and outcome.winners == frozenset()
    assert outcome.reason == "Bob's win condition is star, not cross."


def test_the_example_of_play_with_column_a_loses_at_once():
    pos = example()
    pos.turn("shift-north", 0, settle=False)
    assert isinstance(pos.auto(0), DeclareLost) and isinstance(pos.auto(1), DeclareLost)
    pos.settle()
    assert tele.result(pos.state).termination == Termination.LOSS


# -- the Announcement ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mary_win", "named", "answer", "termination", "reason"),
    [
        ("blue", "blue", "star", Termination.WIN, None),
        ("blue", "green", "star", Termination.LOSS, "Mary's win condition is blue, not green."),
        ("blue", "blue", "circle", Termination.LOSS, "Bob's win condition is star, not circle."),
        # both names right, but there is no purple line on the grid
        ("purple", "purple", "star", Termination.LOSS, "Mary's purple is not three in a line."),
    ],
)
def test_pair_announcement(mary_win, named, answer, termination, reason):
    pos = example(conditions={0: {**MARY, "win": mary_win}, 1: BOB})
    pos.turn("shift-north", 2)
    pos.act(1, Announce(((0, named),)))
    pos.act(0, Respond(answer))
    pos.settle()
    outcome = tele.result(pos.state)
    assert outcome.termination == termination
    assert outcome.winners == (frozenset({0, 1}) if termination == Termination.WIN else frozenset())
    if reason:
        assert outcome.reason == reason


def test_pair_an_announcement_names_only_the_partner():
    pos = example()
    pos.turn("shift-north", 2)
    assert tele.announcement_shape(pos.state, 1) == [0]
    assert pos.refused(1, Announce(((1, "star"),))) == (
        "Name the win condition of each partner you announce for."
    )
    assert pos.refused(1, Announce(((0, "star"),))) == "'star' cannot be Mary's win condition."
    assert pos.refused(1, Announce(((0, "blue"), (1, "star")))) == (
        "Name the win condition of each partner you announce for."
    )


def test_pair_either_partner_may_announce_after_a_completed_turn():
    """Rules step 5 and the ruling: "either partner, after a completed turn"."""
    pos = example()
    pos.turn("shift-north", 2)  # Mary handed, Bob performed: Bob is active, Mary may announce too
    assert tele.announcement_shape(pos.state, 0) == [1]
    assert Announce(((1, "star"),)) in tele.legal_actions(pos.state, 0, pos.stores[0])
    assert not any(isinstance(a, HandCard) for a in tele.legal_actions(pos.state, 0, None))
    assert pos.refused(0, HandCard(0)) == "It is not Mary's turn."
    pos.act(0, Announce(((1, "star"),)))
    assert pos.state.announcer == 0 and tele.to_move(pos.state) == {1}
    pos.act(1, Respond("blue"))
    pos.settle()
    assert tele.result(pos.state).termination == Termination.WIN


def test_no_announcement_before_the_first_turn_is_complete():
    pos = example()
    for seat in (0, 1):
        assert tele.announcement_shape(pos.state, seat) == []
        assert not any(
            isinstance(a, Announce) for a in tele.legal_actions(pos.state, seat, pos.stores[seat])
        )
    pos = example("director")
    assert pos.refused(0, Announce(((1, "blue"), (2, "star")))) == (
        "Mary cannot make the Announcement now."
    )


def test_no_announcement_in_the_middle_of_a_turn():
    pos = example()
    pos.act(0, HandCard(1))
    assert pos.refused(1, Announce(((0, "blue"),))) == "Bob cannot make the Announcement now."
    pos.act(1, Perform(2))
    assert pos.state.phase == "check"
    assert pos.refused(0, Announce(((1, "star"),))) == "Mary cannot make the Announcement now."


@pytest.mark.parametrize(
    ("claims", "termination"),
    [
        (((1, "blue"), (2, "star")), Termination.WIN),
        (((1, "blue"), (2, "cross")), Termination.LOSS),
        (((1, "green"), (2, "star")), Termination.LOSS),
    ],
)
def test_director_announcement_names_both_and_both_must_be_right(claims, termination):
    pos = example("director")
    pos.turn("shift-north", 2)  # the director hands to Mary's seat (seat 1), who shifts column C
    assert pos.state.active == 0 and pos.state.turns == 1
    pos.act(0, Announce(claims))
    assert pos.state.phase == "reveal" and tele.to_move(pos.state) == {1, 2}
    pos.settle()
    outcome = tele.result(pos.state)
    assert outcome.termination == termination
    assert outcome.winners == ({0, 1, 2} if termination == Termination.WIN else frozenset())


@pytest.mark.parametrize(
    ("claims", "termination"),
    [
        (((1, "blue"), (3, "star")), Termination.WIN),
        (((1, "blue"), (3, "triangle")), Termination.LOSS),
        (((1, "orange"), (3, "star")), Termination.LOSS),
    ],
)
def test_four_partners_announcement_names_both_win_conditions(claims, termination):
    pos = example("four")  # seat 0 lose orange, 1 win blue, 2 lose circle, 3 win star
    pos.turn("shift-north", 2)  # seat 1 hands to seat 4 (index 3), who shifts column C
    assert pos.state.active == 1
    pos.act(1, Announce(claims))
    pos.settle()
    outcome = tele.result(pos.state)
    assert outcome.termination == termination
    assert outcome.winners == ({0, 1, 2, 3} if termination == Termination.WIN else frozenset())
    # the lose cards stay sealed: only the two named seats opened theirs
    assert set(pos.state.revealed) == {1, 3}
    assert {s.seat for s in tele.sealed(pos.state)} == {0, 2}


@pytest.mark.parametrize(
    ("named", "answer", "winners"),
    [("blue", "star", {0, 2}), ("green", "star", {1, 3}), ("blue", "circle", {1, 3})],
)
def test_teams_the_announcing_team_wins_or_the_other_team_does(named, answer, winners):
    pos = example("teams")  # wins: seat 0 blue, 1 green, 2 star, 3 triangle
    pos.turn("shift-north", 2)  # seat 0 hands to seat 2 opposite, who shifts column C
    assert pos.state.phase == "window" and tele.to_move(pos.state) == {2}
    pos.act(2, Announce(((0, named),)))
    assert tele.to_move(pos.state) == {0}
    pos.act(0, Respond(answer))
    pos.settle()
    outcome = tele.result(pos.state)
    assert outcome.termination == Termination.WIN and outcome.winners == winners
    assert set(pos.state.revealed) == {0, 2}


def test_teams_both_names_right_but_a_condition_unmet_gives_the_other_team_the_win():
    """The text only says "if either of you are incorrect, the other team wins"; the engine
    treats an unmet condition the same way."""
    teams = {0: {"win": "purple"}, 1: {"win": "green"}, 2: {"win": "star"}, 3: {"win": "cross"}}
    pos = example("teams", teams)
    pos.turn("shift-north", 2)
    pos.act(2, Announce(((0, "purple"),)))
    pos.act(0, Respond("star"))
    pos.settle()
    outcome = tele.result(pos.state)
    assert outcome.termination == Termination.WIN and outcome.winners == {1, 3}
    assert "Mary's purple is not three in a line" in outcome.reason


def test_teams_announce_only_straight_after_performing():
    pos = example("teams")  # wins: seat 0 blue, 1 green, 2 star, 3 triangle
    pos.turn("shift-north", 2)
    pos.act(2, Continue())
    assert pos.state.phase == "hand" and pos.state.active == 1
    for seat in range(4):
        assert tele.announcement_shape(pos.state, seat) == []
    assert pos.refused(1, Announce(((3, "triangle"),))) == "Bob cannot make the Announcement now."


# -- the audit -------------------------------------------------------------------------------


def plan_a_loss(table: Table) -> tuple[int, int, str]:
    """A first move (slot, set) that makes some colour three in a line and no shape; the colour."""
    state = table.state
    for slot, card_id in enumerate(state.row):
        for index in range(4):
            after = apply_card(state.grid, CARDS_BY_ID[card_id], index)
            colours = [c for c in COLOURS if holds(after, c)]
            if colours and not any(holds(after, s) for s in SHAPES):
                return slot, index, colours[0]
    raise AssertionError("no such move from this seed")


def cheating_table() -> tuple[Table, int, str]:
    """Mary's device says "play on" although her lose condition is met; returns the step."""
    table = Table.new(tele, config(), SEED, range(2))
    slot, index, colour = plan_a_loss(table)
    other = next(c for c in COLOURS if c != colour)
    table.stores[0].commit(LABEL, {"win": other, "lose": colour}, replace=True)
    table.stores[1].commit(LABEL, {"win": "star", "lose": "circle"}, replace=True)
    settle(table)
    act(table, 0, HandCard(slot))
    act(table, 1, Perform(index))
    assert isinstance(tele.auto_action(table.state, 0, table.stores[0]), DeclareLost)
    act(table, 0, PlayOn())  # the lie
    step = table.match.step
    settle(table)
    assert table.match.result() is None and table.state.phase == "hand"
    return table, step, colour


def test_audit_an_honest_game_is_verified():
    table = new_table()
    for _ in range(3):
        safe_turn(table)
    active = table.state.active
    announce(table, active, [(1 - active, "green")], "cross")
    assert table.match.result() is not None
    assert isinstance(run_audit(table), Verified)


def test_audit_an_honest_loss_is_verified():
    table = Table.new(tele, config(), SEED, range(2))
    slot, index, colour = plan_a_loss(table)
    other = next(c for c in COLOURS if c != colour)
    table.stores[0].commit(LABEL, {"win": other, "lose": colour}, replace=True)
    table.stores[1].commit(LABEL, {"win": "star", "lose": "circle"}, replace=True)
    settle(table)
    act(table, 0, HandCard(slot))
    act(table, 1, Perform(index))
    settle(table)
    outcome = table.match.result()
    assert outcome.termination == Termination.LOSS and colour in outcome.reason
    assert isinstance(run_audit(table), Verified)


def test_audit_an_honest_four_partner_game_opens_the_lose_cards_at_the_end():
    table = new_table("four")
    for _ in range(5):
        safe_turn(table)
    seat = table.state.active
    announce(table, seat, [(1, "blue"), (3, "star")])
    assert table.match.result() is not None
    assert {s.seat for s in tele.sealed(table.state)} == {0, 2}
    assert isinstance(run_audit(table), Verified)
    # without seat 3's opening (already revealed) the result is the same
    openings = {s: table.openings(s) for s in table.stores}
    openings[3] = []
    assert isinstance(run_audit(table, openings), Verified)


def test_audit_catches_play_on_said_while_the_lose_condition_was_met():
    table, step, colour = cheating_table()
    for _ in range(2):
        safe_turn(table)
    result = run_audit(table)
    assert isinstance(result, Cheat)
    assert result.seat == 0 and result.step == step
    assert result.reason == (
        f"Mary let play go on at move {step} although their lose condition ({colour}) was "
        "met: the game was lost."
    )


def test_audit_a_cheat_outranks_the_other_seat_refusing_to_open():
    table, step, _ = cheating_table()
    result = run_audit(table, {0: table.openings(0), 1: None})
    assert isinstance(result, Cheat) and result.seat == 0 and result.step == step


def test_audit_the_cheat_who_refuses_to_open_is_unverified():
    table, _, _ = cheating_table()
    result = run_audit(table, {0: None, 1: table.openings(1)})
    assert isinstance(result, Unverified) and result.seats == (0,)


@pytest.mark.parametrize(
    ("arrangement", "cards", "seat", "words"),
    [
        ("pair", {0: {"win": "blue", "lose": "blue"}}, 0, "same card as win and lose"),
        ("pair", {0: {"win": "star", "lose": "orange"}}, 0, "win card 'star' is not a colour"),
        ("pair", {1: {"win": "star", "lose": "green"}}, 1, "lose card 'green' is not a shape"),
        ("pair", {0: {"win": "blue"}}, 0, "not the cards of that seat"),
        ("four", {0: {"lose": "blue"}, 1: {"win": "blue"}}, 1, "both hold blue"),
        ("teams", {2: {"win": "cross"}, 3: {"win": "cross"}}, 3, "a card was dealt twice"),
    ],
)
def test_audit_catches_condition_cards_that_break_the_deal(arrangement, cards, seat, words):
    table = Table.new(tele, config(arrangement), SEED, range(SEATS[arrangement]))
    for s, value in cards.items():
        table.stores[s].commit(LABEL, value, replace=True)
    settle(table)
    seal_step = table.state.sealed[seat][1]
    act(table, table.state.active, HandCard(0))
    result = run_audit(table)
    assert isinstance(result, Cheat)
    assert result.seat == seat and result.step == seal_step
    assert words in result.reason and NAMES[seat] in result.reason


def test_audit_a_seat_that_does_not_open_is_unverified():
    table = new_table()
    safe_turn(table)
    result = run_audit(table, {0: table.openings(0), 1: None})
    assert isinstance(result, Unverified) and result.seats == (1,)
    result = run_audit(table, {0: [], 1: table.openings(1)})
    assert isinstance(result, Unverified) and result.seats == (0,)
    assert isinstance(run_audit(table), Verified)


def test_audit_an_opening_that_does_not_match_its_seal_is_a_cheat():
    table = new_table()
    safe_turn(table)
    real = table.stores[1].opening(LABEL)
    assert real.value == BOB
    fake = Opening(LABEL, {"win": "cross", "lose": "triangle"}, real.nonce)
    result = run_audit(table, {0: table.openings(0), 1: [fake]})
    assert isinstance(result, Cheat) and result.seat == 1
    assert "does not match the commitment" in result.reason


def test_a_saved_game_replays_to_the_same_state():
    table = new_table("four")
    for _ in range(8):
        safe_turn(table)
    again = Match.from_json(json.loads(table.match.dumps()))
    assert again.state == table.state


# -- views -----------------------------------------------------------------------------------


def secrets_in(value, path: str = "") -> list[str]:
    """Paths of every object in a view that holds a win or lose card by name."""
    found = []
    if isinstance(value, dict):
        if any(k in ("win", "lose") for k in value):
            found.append(path)
        for k, v in value.items():
            found += secrets_in(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += secrets_in(v, f"{path}/{i}")
    return found


@pytest.mark.parametrize("arrangement", ["pair", "director", "four", "teams"])
def test_views_show_only_your_own_condition_cards(arrangement):
    table = new_table(arrangement)
    safe_turn(table)
    nonces = {
        s: table.stores[s].opening(LABEL).nonce for s in table.stores if LABEL in table.stores[s]
    }
    public = tele.public_view(table.state)
    assert secrets_in(public) == [] and public["revealed"] == {}
    text = json.dumps(public)
    assert not any(n in text for n in nonces.values())
    for seat in table.stores:
        view = table.view(seat)
        mine = table.stores[seat].value(LABEL) if seat in nonces else {}
        assert view["me"]["conditions"] == mine
        assert secrets_in(view) == (["/me/conditions", "/me/met"] if mine else [])
        text = json.dumps(view)
        assert not any(n in text for s, n in nonces.items())
    # the log holds commitments only
    log = json.dumps([e.to_json() for e in table.match.entries])
    assert not any(n in log for n in nonces.values()) and '"win"' not in log


def test_the_views_after_a_loss_show_only_the_proof():
    pos = example()
    pos.turn("flip-column", 0)
    public = tele.public_view(pos.state)
    assert public["revealed"] == {"0": MARY}
    assert secrets_in(public) == ["/revealed/0"]
    assert public["outcome"]["termination"] == "loss"
    assert BOB["lose"] not in json.dumps(public["revealed"])


def test_the_win_hint_is_private():
    pos = example()
    mary = tele.seat_view(pos.state, 0, pos.stores[0])
    bob = tele.seat_view(pos.state, 1, pos.stores[1])
    assert mary["me"] == {"seat": 0, "conditions": MARY, "met": {"win": False, "lose": False}}
    assert bob["me"] == {"seat": 1, "conditions": BOB, "met": {"win": True, "lose": False}}
    assert "met" not in json.dumps(tele.public_view(pos.state))


def test_there_is_no_channel_for_messages():
    kinds = {t.__name__ for t in typing.get_args(Action)}
    assert kinds == {
        "SealConditions",
        "HandCard",
        "Perform",
        "PlayOn",
        "DeclareLost",
        "Announce",
        "Continue",
        "Respond",
        "Reveal",
    }
    for data in (
        {"type": "message", "text": "blue!"},
        {"type": "chat", "text": "hi"},
        {"type": "say", "text": "the game is lost"},
        {"type": "signal", "value": 1},
        {"type": "hand", "slot": 0, "note": "blue"},
        {"type": "play-on", "text": "psst"},
    ):
        with pytest.raises(MalformedInput):
            tele.parse_action(data)


# -- JSON ------------------------------------------------------------------------------------

OPENING = Opening(LABEL, {"win": "blue", "lose": "orange"}, "ab" * 32)
COMMITMENT = "cd" * 32


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (SealConditions(COMMITMENT), {"type": "seal", "commitment": COMMITMENT}),
        (HandCard(0), {"type": "hand", "slot": 0}),
        (HandCard(3), {"type": "hand", "slot": 3}),
        (Perform(2), {"type": "perform", "set": 2}),
        (PlayOn(), {"type": "play-on"}),
        (DeclareLost(OPENING), {"type": "lost", "opening": OPENING.to_json()}),
        (Announce(((1, "star"),)), {"type": "announce", "claims": [[1, "star"]]}),
        (
            Announce(((1, "blue"), (3, "star"))),
            {"type": "announce", "claims": [[1, "blue"], [3, "star"]]},
        ),
        (Continue(), {"type": "continue"}),
        (Respond("circle"), {"type": "respond", "name": "circle"}),
        (Reveal(OPENING), {"type": "reveal", "opening": OPENING.to_json()}),
    ],
)
def test_json_round_trip_of_every_action_kind(action, data):
    assert tele.action_to_json(action) == data
    assert tele.parse_action(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "hand",
        {},
        {"type": 5},
        {"type": "hand"},
        {"type": "hand", "slot": 4},
        {"type": "hand", "slot": -1},
        {"type": "hand", "slot": "0"},
        {"type": "hand", "slot": True},
        {"type": "hand", "slot": 1.0},
        {"type": "perform", "set": 4},
        {"type": "perform", "slot": 0},
        {"type": "seal", "commitment": "xyz"},
        {"type": "seal", "commitment": "AB" * 32},
        {"type": "seal"},
        {"type": "respond", "name": "red"},
        {"type": "respond", "name": None},
        {"type": "announce", "claims": []},
        {"type": "announce", "claims": "blue"},
        {"type": "announce", "claims": [[0]]},
        {"type": "announce", "claims": [[4, "blue"]]},
        {"type": "announce", "claims": [["0", "blue"]]},
        {"type": "announce", "claims": [[0, "red"]]},
        {"type": "announce", "claims": [[0, "blue"], [1, "star"], [2, "cross"]]},
        {"type": "announce", "claims": [(0, "blue")]},
        {"type": "lost"},
        {"type": "lost", "opening": {}},
        {"type": "reveal", "opening": {"label": LABEL, "value": {}, "nonce": "zz"}},
        {"type": "reveal", "opening": OPENING.to_json(), "extra": 1},
        {"type": "continue", "name": "blue"},
    ],
)
def test_json_malformed_actions_are_refused(data):
    with pytest.raises(MalformedInput):
        tele.parse_action(data)


def test_telepathic_is_laid_out_as_espeers_is():
    """Issue 30: the state (state.py) and the actions with their JSON (actions.py) live beside
    the rules, as ESPEERS's do, and the rules read them from there."""
    from parlour.games.espeers import actions as espeers_actions
    from parlour.games.espeers.state import EspeersState
    from parlour.games.telepathic import actions, state

    assert TeleState.__module__ == state.__name__ and EspeersState.__module__.endswith(".state")
    assert {t.__module__ for t in typing.get_args(Action)} == {actions.__name__}
    assert espeers_actions.parse_action.__module__.endswith(".actions")
    hand = actions.parse_action({"type": "hand", "slot": 2})
    assert actions.action_to_json(hand) == {"type": "hand", "slot": 2}
    assert tele.parse_action({"type": "hand", "slot": 2}) == hand
