"""Depth-limited alpha-beta over one determinised position (every hidden symbol drawn).

The searching seat maximises, every other seat minimises its value (with two players this is
plain minimax). With three or four players the turn order can be searched in two ways:
paranoid (every seat in turn, each against the searcher) or best-reply search (`brs`; Schadd
and Winands, 2011): after the searcher's move, ONE of the others moves, whichever hurts the
searcher most, and then the searcher moves again. Best-reply search sees the searcher's next
move within three plies whatever the number of players, and does not let the others gang up
on two or three moves in a row, which a table seldom does.

A leaf is worth the window judgement, except that a seat to move with a set it can complete
and win already counts as having won. Wide nodes (placement offers a cell, a symbol and a
face: easily two hundred actions) keep only their best few actions by a one-ply look, and so
do the others' replies.
"""

from __future__ import annotations

from collections.abc import Container

from parlour.bots.esp.evaluate import WIN, Ranked, Tracker
from parlour.bots.esp.model import PLACE, ModelAction

LOSS = -WIN
# The searcher's own move into a third repetition while it is ahead: worse than any position
# a judgement can give, better than a forced loss (see `Search.outcome`).
SHUNNED_DRAW = LOSS / 2
BOUND_AFTER = 3  # children of a last-ply node searched before estimates may cut the rest
FORCED_WIDTH = 3  # blocks tried on a threatened cell while placing
EXTENSION = 2  # plies a search may go past its depth along forced lines


class Search:
    """One search from one determinised position on behalf of seat `me`."""

    def __init__(
        self,
        tracker: Tracker,
        me: int,
        width: int,
        drawn: Container[int] = (),
        brs: bool = False,
        ahead: bool = False,
    ) -> None:
        self.tracker = tracker
        self.pos = tracker.pos
        self.me = me
        self.width = width  # actions kept at a node below the root
        self.drawn = drawn  # position keys whose next occurrence is a draw by repetition
        self.ahead = ahead  # the searcher judges itself ahead at the root
        self.brs = brs and tracker.pos.seats > 2  # best-reply search (see the module)
        self.others = [s for s in range(tracker.pos.seats) if s != me]
        self.nodes = 0
        self.max_ply = 0

    # -- values --------------------------------------------------------------------------

    def outcome(self, changed: int | None, mover: int, ply: int) -> float | None:
        """The value of the game's end if the last action (by `mover`) ended it, else None."""
        pos = self.pos
        if changed is None:
            return 0.0 if pos.passes >= pos.seats else None
        sets = pos.sets_through(changed)
        if sets:
            winners = pos.winners(sets, mover)
            if self.me in winners:
                return WIN - ply if len(winners) == 1 else 0.0
            return LOSS + ply
        if pos.key in self.drawn:
            # A draw is worth 0, like an even position. A searcher that is ahead and whose
            # positions after any other move judge a little below 0 (the reply to come counted
            # against it) would take the draw and throw its lead away: issue 25's game shuttled
            # a tile until the third repetition. Its own move into one is shunned instead,
            # unless every other move loses by force. (The others' repetitions stay 0: a
            # searcher cannot stop those.)
            return SHUNNED_DRAW if self.ahead and mover == self.me else 0.0
        return None

    def after(self, action: ModelAction, ply: int) -> float:
        """The judgement of the position after `action` (exact if it ends the game)."""
        tracker = self.tracker
        mover = self.pos.to_move
        played = tracker.play(action)
        end = self.outcome(played[1], mover, ply)
        if end is None:
            end = tracker.score(self.me)
        tracker.undo(played)
        return end

    def following(self, mover: int) -> list[int]:
        """The seats that may move after `mover` in the search."""
        if self.brs:
            return self.others if mover == self.me else [self.me]
        return [mover + 1 if mover + 1 < self.pos.seats else 0]

    def threats(self, mover: int) -> tuple[float | None, set[int]]:
        """What the next seat threatens, as the mover must see it: (a value if it already
        decides the game, else None; the cells the mover is forced to block)."""
        pos, tracker = self.pos, self.tracker
        following = self.following(mover)
        cells: set[int] = set()
        if tracker.hot:
            for seat in following:
                cells |= tracker.completions(seat)
        if pos.placing:
            if len(cells) >= 2:  # one tile cannot block two cells
                return (WIN if following[0] == self.me else LOSS), cells
            if not cells and tracker.warm:
                for seat in following:
                    if len(tracker.locks(seat)) >= 2:
                        return None, set()  # it will lock one: the leaf judges that
                    cells |= tracker.locks(seat)
                if len(cells) >= 2:
                    return None, set()
        return None, cells

    def forced(self, cells: set[int]) -> list[Ranked]:
        """The mover's actions that leave the next seat no completion (placing: a tile on
        the threatened cell, the best few by estimate)."""
        pos, tracker = self.pos, self.tracker
        ranked = tracker.ranked(self.me)
        if pos.placing:
            # (In best-reply search a seat may have no tile left to place: it passes.)
            return [
                item for item in ranked if item[2] or (item[1][0] == PLACE and item[1][1] in cells)
            ][:FORCED_WIDTH]
        following = self.following(pos.to_move)
        keep = []
        for item in ranked:
            played = tracker.play(item[1])
            if item[2] or not any(tracker.completions(s) for s in following):
                keep.append(item)
            tracker.undo(played)
            if len(keep) >= FORCED_WIDTH:
                break
        return keep

    def value(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The minimax value of the position now in the tracker, `depth` plies deep (and
        deeper along forced lines: a seat that must block a threat is searched on). In
        best-reply search a node where the searcher is not to move is every other seat's."""
        self.nodes += 1
        pos, tracker = self.pos, self.tracker
        mover = pos.to_move
        maximising = mover == self.me
        movers = self.others if self.brs and not maximising else [mover]
        if tracker.hot:
            for seat in movers:
                if seat != mover:
                    pos.set_turn(seat)
                won = tracker.winning_action(seat) is not None
                if seat != mover:
                    pos.set_turn(mover)
                if won:
                    return WIN - ply - 1 if maximising else LOSS + ply + 1
        decided, cells = self.threats(mover)
        if decided is not None:
            return decided - ply - 2 if decided > 0 else decided + ply + 2
        forced = bool(cells) and (depth > 0 or ply < self.max_ply)
        if not forced and depth <= 0:
            return tracker.leaf(self.me)
        ordered: list[tuple[float, ModelAction, bool, int]] = []
        for seat in movers:
            if seat != mover:
                pos.set_turn(seat)
            ordered.extend((*item, seat) for item in self.candidates(cells, forced))
            if seat != mover:
                pos.set_turn(mover)
        if len(movers) > 1:
            # One list for all the others: exact ends first, then the best for them.
            ordered.sort(key=lambda item: (not item[2], item[0]))
        if forced:
            below = max(0, depth - 1)
            bound = False
        else:
            below = depth - 1
            bound = depth == 1 and not self.drawn
        best = LOSS - 1 if maximising else WIN + 1
        searched = 0
        for est, action, complete, seat in ordered:
            if not complete:
                if (
                    bound
                    and searched >= BOUND_AFTER
                    and (est <= best if maximising else est >= best)
                ):
                    break  # past the first few, a leaf is seldom worth more than its estimate
                if searched >= self.width:
                    break
                searched += 1
            if seat != mover:
                pos.set_turn(seat)
            played = tracker.play(action)
            end = self.outcome(played[1], seat, ply + 1)
            if end is None:
                if self.brs and seat != self.me:
                    pos.set_turn(self.me)
                end = self.value(below, alpha, beta, ply + 1)
            tracker.undo(played)
            if seat != mover:
                pos.set_turn(mover)
            if maximising:
                if end > best:
                    best = end
                    if end > alpha:
                        alpha = end
            elif end < best:
                best = end
                if end < beta:
                    beta = end
            if alpha >= beta:
                break
        return best

    def candidates(self, cells: set[int], forced: bool) -> list[Ranked]:
        """The actions of the seat to move worth searching, best first for it: blocks if it
        is forced to block, else every action with those that end the game first."""
        tracker = self.tracker
        if forced:
            return self.forced(cells) or tracker.ranked(self.me)[: self.width]
        ranked = tracker.ranked(self.me)
        # Actions that complete a set end the game: their value is exact, take them first.
        return [item for item in ranked if item[2]] + [item for item in ranked if not item[2]]

    def root_value(self, action: ModelAction, depth: int, alpha: float) -> float:
        """The value of the root action `action` searched `depth` plies in all (itself
        included); below `alpha` only an upper bound is exact."""
        tracker = self.tracker
        mover = self.pos.to_move
        self.max_ply = depth + EXTENSION
        played = tracker.play(action)
        end = self.outcome(played[1], mover, 1)
        if end is None:
            end = self.value(depth - 1, alpha, WIN + 1, 1)
        tracker.undo(played)
        return end
