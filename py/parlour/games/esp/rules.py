"""ESP, by Cameron Browne, with the project's rulings (docs/rulings.md).

A symbol-down tile is a commitment to one of its owner's remaining symbols; flipping it is the
reveal. Everything public about a tile is its cell, owner, face and, once up, its symbol. The
sets a move completes, and who wins by them, are in sets.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from parlour.errors import CommitmentMismatch, IllegalAction
from parlour.fair.commit import Context, check_opening
from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome, Sealed, Setup, Termination
from parlour.games.esp.actions import (
    Action,
    AnswerDraw,
    Flip,
    Move,
    Pass,
    Place,
    ProposeDraw,
    action_to_json,
    parse_action,
)
from parlour.games.esp.hexgrid import (
    DIRECTIONS,
    Cell,
    cut_cells,
    neighbours,
    step,
)
from parlour.games.esp.options import OPTIONS, SEAT_COLOURS
from parlour.games.esp.sets import find_sets, tally
from parlour.games.esp.state import (
    COPIES,
    REPETITIONS_FOR_DRAW,
    TILES_PER_SEAT,
    DrawOffer,
    EspState,
    PositionKey,
    Tile,
    tile_json,
    tile_label,
)
from parlour.games.esp.views import EspMe, EspPublicView, EspSeatView
from parlour.games.zener import SYMBOLS, Symbol
from parlour.words import nth, times

# -- the game --------------------------------------------------------------------------------


class ESP(Game[EspState, Action]):
    options = OPTIONS  # its id, name and seat counts too (Game.__init_subclass__)

    def initial_state(self, setup: Setup, seed: bytes) -> EspState:
        self.check_setup(setup)
        return EspState(setup, {}, (0,) * setup.seats)

    def to_move(self, state: EspState) -> frozenset[int]:
        if state.outcome is not None:
            return frozenset()
        if state.offer is not None:
            answered = state.offer.accepted | {state.offer.proposer}
            return frozenset(s for s in range(state.seats) if s not in answered)
        return frozenset({state.to_move})

    # -- legality ----------------------------------------------------------------------------

    def legal_actions(self, state: EspState, seat: int, store: PrivateStore | None) -> list[Action]:
        """Board actions and Pass (a draw offer is always open on your turn, not listed here)."""
        if seat not in self.to_move(state):
            return []
        if state.offer is not None:
            return [AnswerDraw(True), AnswerDraw(False)]
        actions: list[Action] = []
        if state.placing:
            if state.placed[seat] < TILES_PER_SEAT:
                remaining = self.remaining_symbols(state, seat, store)
                shown = self._shown(state, seat)
                for cell in self.placement_cells(state):
                    for symbol in remaining:
                        if shown[symbol] < COPIES:
                            actions.append(Place(cell, symbol))
                        if store is not None:
                            actions.append(Place(cell, symbol, hidden=True))
        else:
            actions.extend(self._flips(state, seat, store))
            actions.extend(self._moves(state, seat))
        if not actions and not self._has_board_action(state, seat):
            actions.append(Pass())
        return actions

    def placement_cells(self, state: EspState) -> list[Cell]:
        """Where the next tile may go (the first tile may go anywhere: (0, 0) stands for it)."""
        board = state.board
        if not board:
            return [(0, 0)]
        candidates = {n for cell in board for n in neighbours(cell) if n not in board}
        return sorted(c for c in candidates if self.placement_problem(state, c) is None)

    def placement_problem(self, state: EspState, cell: Cell) -> str | None:
        """Why a tile may not go on `cell` now, in words; None when it may."""
        board = state.board
        if cell in board:
            return "That cell is already taken."
        if not board:
            return None
        touching = sum(1 for n in neighbours(cell) if n in board)
        if len(board) == 1:
            return None if touching else "The second tile must touch the first."
        if touching < 2:
            return "A tile must touch at least two tiles already on the board."
        if touching == 6 or any(
            n in board and all(m in board or m == cell for m in neighbours(n))
            for n in neighbours(cell)
        ):
            return "That would enclose a tile on all six sides."
        return None

    def pin_problem(self, state: EspState, cell: Cell) -> str | None:
        """Why the tile on `cell` is pinned, in words; None when it is free."""
        board = state.board
        if all(n in board for n in neighbours(cell)):
            return "That tile is pinned: all six of its neighbours are taken."
        if cell in cut_cells(frozenset(board)):
            return "That tile is pinned: lifting it would split the group."
        return None

    def move_problem(self, state: EspState, cell: Cell, direction: int) -> str | None:
        if type(direction) is not int or not 0 <= direction < len(DIRECTIONS):
            return "A tile moves in one of the six directions."
        if step(cell, direction) not in state.board:
            return "A tile moves by jumping: the next cell that way must hold a tile."
        return None

    def landing(self, state: EspState, cell: Cell, direction: int) -> Cell:
        """The first empty cell past the unbroken run of tiles from `cell` in `direction`."""
        target = step(cell, direction)
        while target in state.board:
            target = step(target, direction)
        return target

    def remaining_symbols(
        self, state: EspState, seat: int, store: PrivateStore | None
    ) -> list[Symbol]:
        """Symbols `seat` still has to place (its own hidden ones known only through its store)."""
        used = self._shown(state, seat)
        if store is not None:
            for tile in state.board.values():
                label = tile_label(tile.index)
                if tile.owner == seat and not tile.up and label in store:
                    used[Symbol(store.value(label))] += 1
        return [s for s in SYMBOLS if used[s] < COPIES]

    def _shown(self, state: EspState, seat: int) -> Counter[Symbol]:
        return Counter(
            t.symbol for t in state.board.values() if t.owner == seat and t.symbol is not None
        )

    def _flips(self, state: EspState, seat: int, store: PrivateStore | None) -> list[Flip]:
        flips = []
        for cell, tile in sorted(state.board.items()):
            if tile.owner == seat and not tile.up and self.pin_problem(state, cell) is None:
                label = tile_label(tile.index)
                opening = store.opening(label) if store is not None and label in store else None
                flips.append(Flip(cell, opening))
        return flips

    def _moves(self, state: EspState, seat: int) -> list[Move]:
        moves: list[Move] = []
        for cell, tile in sorted(state.board.items()):
            if tile.owner == seat and tile.up and self.pin_problem(state, cell) is None:
                moves.extend(
                    Move(cell, d)
                    for d in range(len(DIRECTIONS))
                    if self.move_problem(state, cell, d) is None
                )
        return moves

    def _has_board_action(self, state: EspState, seat: int) -> bool:
        if state.placing:
            return state.placed[seat] < TILES_PER_SEAT and bool(self.placement_cells(state))
        return bool(self._flips(state, seat, None) or self._moves(state, seat))

    # -- apply -------------------------------------------------------------------------------

    def seal(self, state: EspState, seat: int, action: Action, store: PrivateStore) -> Action:
        """Commit a symbol-down choice through the seat's store; other actions pass through."""
        if isinstance(action, Place) and action.hidden and action.symbol is not None:
            label = tile_label(state.placed[seat])
            commitment = store.commit(label, action.symbol.value, replace=True)
            return Place(action.cell, None, True, commitment)
        return action

    def apply(self, state: EspState, seat: int, action: Action) -> EspState:
        if seat not in self.to_move(state):
            if state.outcome is not None:
                raise IllegalAction("The game is over.")
            raise IllegalAction(f"It is not {state.name(seat)}'s turn.")
        if state.offer is not None:
            if not isinstance(action, AnswerDraw):
                raise IllegalAction("First answer the offer of a draw.")
            return self._answer_draw(state, seat, action.accept)
        if isinstance(action, ProposeDraw):
            return replace(state, offer=DrawOffer(seat, frozenset()), ply=state.ply + 1)
        if isinstance(action, Pass):
            return self._pass(state, seat)
        if isinstance(action, AnswerDraw):
            raise IllegalAction("Nobody has offered a draw.")
        if state.placing:
            if not isinstance(action, Place):
                raise IllegalAction("Tiles are still being placed: place one of yours.")
            board, changed = self._place(state, seat, action)
        elif isinstance(action, Flip):
            board, changed = self._flip(state, seat, action)
        elif isinstance(action, Move):
            board, changed = self._move(state, seat, action)
        else:
            raise IllegalAction("Every tile is placed: flip or move one of your tiles.")
        return self._after(state, seat, board, changed, action)

    def _place(self, state: EspState, seat: int, action: Place) -> tuple[dict[Cell, Tile], Cell]:
        if not action.sealed:
            raise IllegalAction("A symbol-down tile must be sealed before it is placed.")
        if state.placed[seat] >= TILES_PER_SEAT:
            raise IllegalAction(f"{state.name(seat)} has placed all ten tiles.")
        problem = self.placement_problem(state, action.cell)
        if problem:
            raise IllegalAction(problem)
        if action.symbol is not None and self._shown(state, seat)[action.symbol] >= COPIES:
            raise IllegalAction(
                f"{state.name(seat)} has already shown both of their {action.symbol.value}s."
            )
        commitment = None if action.symbol else action.commitment
        tile = Tile(seat, state.placed[seat], state.ply + 1, action.symbol, commitment)
        board = dict(state.board)
        board[action.cell] = tile
        return board, action.cell

    def _flip(self, state: EspState, seat: int, action: Flip) -> tuple[dict[Cell, Tile], Cell]:
        tile = state.board.get(action.cell)
        if tile is None or tile.owner != seat or tile.up:
            raise IllegalAction("You can flip only one of your own symbol-down tiles.")
        problem = self.pin_problem(state, action.cell)
        if problem:
            raise IllegalAction(problem)
        opening = action.opening
        name, what = state.name(seat), f"the tile placed at move {tile.placed_at}"
        if opening is None or opening.label != tile_label(tile.index):
            raise CommitmentMismatch(f"{name}'s reveal of {what} is not for that tile.", seat)
        assert tile.commitment is not None  # a symbol-down tile always carries its commitment
        context = Context(state.setup.match_id, seat)
        check_opening(context, tile.commitment, opening, who=name, what=what, step=tile.placed_at)
        symbol = Symbol.parse(opening.value)
        if symbol is None:
            raise CommitmentMismatch(f"{name} hid {opening.value!r}, which is no symbol.", seat)
        if self._shown(state, seat)[symbol] >= COPIES:
            raise CommitmentMismatch(
                f"{name}'s tile placed at move {tile.placed_at} shows a third {symbol.value}.",
                seat,
            )
        board = dict(state.board)
        board[action.cell] = replace(tile, symbol=symbol)
        return board, action.cell

    def _move(self, state: EspState, seat: int, action: Move) -> tuple[dict[Cell, Tile], Cell]:
        tile = state.board.get(action.cell)
        if tile is None or tile.owner != seat:
            raise IllegalAction("You can move only one of your own tiles.")
        if not tile.up:
            raise IllegalAction("A symbol-down tile cannot move; flip it first.")
        problem = self.pin_problem(state, action.cell) or self.move_problem(
            state, action.cell, action.direction
        )
        if problem:
            raise IllegalAction(problem)
        target = self.landing(state, action.cell, action.direction)
        board = dict(state.board)
        del board[action.cell]
        board[target] = tile
        return board, target

    def _pass(self, state: EspState, seat: int) -> EspState:
        if self._has_board_action(state, seat):
            raise IllegalAction("You can pass only when you have no legal move.")
        passes = state.passes + 1
        if passes >= state.seats:
            outcome = Outcome(Termination.DRAW, frozenset(), "Every player passed in a row.")
            return replace(state, passes=passes, ply=state.ply + 1, outcome=outcome)
        new = replace(state, passes=passes, ply=state.ply + 1, to_move=(seat + 1) % state.seats)
        return new if new.placing else self._count_position(new)

    def _answer_draw(self, state: EspState, seat: int, accept: bool) -> EspState:
        offer = state.offer
        assert offer is not None
        if not accept:
            return replace(state, offer=None, ply=state.ply + 1)
        accepted = offer.accepted | {seat}
        if len(accepted) == state.seats - 1:
            outcome = Outcome(Termination.DRAW, frozenset(), "The players agreed to a draw.")
            return replace(state, offer=None, outcome=outcome, ply=state.ply + 1)
        return replace(state, offer=DrawOffer(offer.proposer, accepted), ply=state.ply + 1)

    def _after(
        self, state: EspState, seat: int, board: dict[Cell, Tile], changed: Cell, action: Action
    ) -> EspState:
        placed = state.placed
        if isinstance(action, Place):
            placed = tuple(n + (i == seat) for i, n in enumerate(placed))
        following = (seat + 1) % state.seats
        new = replace(
            state, board=board, placed=placed, to_move=following, ply=state.ply + 1, passes=0
        )
        sets = find_sets(board, changed)
        if sets:
            return replace(new, sets=sets, outcome=tally(new, sets, seat))
        return new if new.placing else self._count_position(new)

    def _count_position(self, new: EspState) -> EspState:
        """Count the position now on the table (tiles, faces, player to move): the third is a
        draw."""
        key = position_key(new.board, new.to_move)
        seen = dict(new.seen)
        seen[key] = seen.get(key, 0) + 1
        new = replace(new, seen=seen)
        limit = repetitions_for_draw(new.setup)
        if seen[key] >= limit:
            reason = f"The same position arose for the {nth(limit)} time."
            return replace(new, outcome=Outcome(Termination.DRAW, frozenset(), reason))
        return new

    # -- results and views -------------------------------------------------------------------

    def result(self, state: EspState) -> Outcome | None:
        return state.outcome

    def public_view(self, state: EspState) -> EspPublicView:
        return {
            "game": self.id,
            "stage": "placement" if state.placing else "movement",
            "to_move": sorted(self.to_move(state)),
            "seats": [
                {"name": state.name(s), "colour": SEAT_COLOURS[s], "unplaced": TILES_PER_SEAT - n}
                for s, n in enumerate(state.placed)
            ],
            "tiles": [tile_json(cell, tile) for cell, tile in sorted(state.board.items())],
            "sets": [[list(c) for c in window] for window in state.sets],
            "passes": state.passes,
            "seen": state.seen.get(position_key(state.board, state.to_move), 0),
            "draw_at": repetitions_for_draw(state.setup),
            "offer": None
            if state.offer is None
            else {"proposer": state.offer.proposer, "accepted": sorted(state.offer.accepted)},
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def seat_view(self, state: EspState, seat: int, store: PrivateStore | None) -> EspSeatView:
        view = self.public_view(state)
        hidden: dict[str, str] = {}
        if store is not None:
            for cell, tile in state.board.items():
                label = tile_label(tile.index)
                if tile.owner == seat and not tile.up and label in store:
                    hidden[f"{cell[0]},{cell[1]}"] = store.value(label)
        unplaced = Counter({s: COPIES for s in SYMBOLS})
        unplaced.subtract(self._shown(state, seat))
        unplaced.subtract(Symbol(v) for v in hidden.values())
        me: EspMe = {
            "seat": seat,
            "hidden": hidden,
            "tray": [s.value for s in SYMBOLS for _ in range(max(0, unplaced[s]))],
        }
        return {**view, "me": me}

    def reveals(self, action: Action) -> bool:
        return isinstance(action, Flip)

    # -- the log's JSON ----------------------------------------------------------------------

    def parse_action(self, data: Json) -> Action:
        return parse_action(data)

    def action_to_json(self, action: Action) -> Json:
        return action_to_json(action)

    # -- audit -------------------------------------------------------------------------------

    def sealed(self, state: EspState) -> list[Sealed]:
        return [
            Sealed(
                tile.owner,
                tile_label(tile.index),
                tile.commitment,
                tile.placed_at,
                f"the tile placed at move {tile.placed_at}",
            )
            for tile in state.board.values()
            if not tile.up and tile.commitment is not None
        ]

    def check_secrets(
        self, states: Sequence[EspState], opened: Mapping[tuple[int, str], Json]
    ) -> None:
        """Each seat's tiles, shown and hidden, hold at most two of each symbol."""
        final = states[-1]
        for seat in range(final.seats):
            counts = self._shown(final, seat)
            hidden = sorted(
                (t for t in final.board.values() if t.owner == seat and not t.up),
                key=lambda t: t.placed_at,
            )
            for tile in hidden:
                if (seat, tile_label(tile.index)) not in opened:
                    continue  # not opened (that seat is unverified): nothing to check
                value = opened[(seat, tile_label(tile.index))]
                symbol = Symbol.parse(value)
                where = f"the tile placed at move {tile.placed_at}"
                if symbol is None:
                    raise CommitmentMismatch(
                        f"{final.name(seat)} hid {value!r} under {where}, which is no symbol.",
                        seat,
                        tile.placed_at,
                    )
                counts[symbol] += 1
                if counts[symbol] > COPIES:
                    raise CommitmentMismatch(
                        f"{final.name(seat)} hid a third {symbol.value} under {where}.",
                        seat,
                        tile.placed_at,
                    )


# -- repetitions --------------------------------------------------------------------------------


def repetitions_for_draw(setup: Setup) -> int:
    """How many times the same position arises before the game is drawn: three by the rules,
    or the set-up's choice should ESP declare an option "repetitions" (the bots read it here
    too, from the set-up they are given)."""
    return OPTIONS.fixed(setup.variant, "repetitions", REPETITIONS_FOR_DRAW)


def repetition_warning(seen: int, draw_at: int) -> str | None:
    """The warning before a repetition decides the game: the position on the table (its
    public view's "seen") has been there as often as one short of the draw, `draw_at` (the
    public view's, from the set-up: the rules' three, or an option's choice)."""
    if seen != draw_at - 1 or seen < 1:
        return None
    return f"This position has been seen {times(seen)}; a {nth(seen + 1)} time is a draw."


def position_key(board: Mapping[Cell, Tile], to_move: int) -> PositionKey:
    """A position as players see it: which cells hold whose tile, which face, and who moves."""
    return (
        tuple(sorted((c, t.owner, t.symbol.value if t.symbol else "") for c, t in board.items())),
        to_move,
    )
