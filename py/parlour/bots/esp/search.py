"""Depth-limited paranoid alpha-beta over one determinised position (every hidden symbol drawn).

The searching seat maximises, every other seat minimises its value (with two players this is
plain minimax). A leaf is worth the window judgement, except that a seat to move with a set
it can complete and win already counts as having won. Wide nodes (placement offers a cell, a
symbol and a face: easily two hundred actions) keep only their best few actions by a one-ply
look, and so do the others' replies.
"""

from __future__ import annotations

from collections.abc import Container

from parlour.bots.esp.evaluate import WIN, Tracker

LOSS = -WIN
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
    ) -> None:
        self.tracker = tracker
        self.pos = tracker.pos
        self.me = me
        self.width = width  # actions kept at a node below the root
        self.drawn = drawn  # position keys whose next occurrence is a draw by repetition
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
            return 0.0
        return None

    def after(self, action: tuple, ply: int) -> float:
        """The judgement of the position after `action` (exact if it ends the game)."""
        tracker = self.tracker
        mover = self.pos.to_move
        played = tracker.play(action)
        end = self.outcome(played[1], mover, ply)
        if end is None:
            end = tracker.score(self.me)
        tracker.undo(played)
        return end

    def threats(self, mover: int) -> tuple[float | None, set[int]]:
        """What the next seat threatens, as the mover must see it: (a value if it already
        decides the game, else None; the cells the mover is forced to block)."""
        pos, tracker = self.pos, self.tracker
        following = mover + 1 if mover + 1 < pos.seats else 0
        cells = tracker.completions(following) if tracker.hot else set()
        if pos.placing:
            if len(cells) >= 2:  # one tile cannot block two cells
                return (WIN if following == self.me else LOSS), cells
            if not cells and tracker.warm:
                cells = tracker.locks(following)
                if len(cells) >= 2:
                    return None, set()  # it will lock one: the leaf judges that
        return None, cells

    def forced(self, cells: set[int]) -> list[tuple]:
        """The mover's actions that leave the next seat no completion (placing: a tile on
        the threatened cell, the best few by estimate)."""
        pos, tracker = self.pos, self.tracker
        ranked = tracker.ranked(self.me)
        if pos.placing:
            return [item for item in ranked if item[2] or item[1][1] in cells][:FORCED_WIDTH]
        mover = pos.to_move
        following = mover + 1 if mover + 1 < pos.seats else 0
        keep = []
        for item in ranked:
            played = tracker.play(item[1])
            if item[2] or not tracker.completions(following):
                keep.append(item)
            tracker.undo(played)
            if len(keep) >= FORCED_WIDTH:
                break
        return keep

    def value(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The minimax value of the position now in the tracker, `depth` plies deep (and
        deeper along forced lines: a seat that must block a threat is searched on)."""
        self.nodes += 1
        pos, tracker = self.pos, self.tracker
        mover = pos.to_move
        maximising = mover == self.me
        if tracker.hot and tracker.winning_action(mover) is not None:
            return WIN - ply - 1 if maximising else LOSS + ply + 1
        decided, cells = self.threats(mover)
        if decided is not None:
            return decided - ply - 2 if decided > 0 else decided + ply + 2
        if cells and (depth > 0 or ply < self.max_ply):
            # The mover must block: only blocks are searched (past the depth too, a little).
            ordered = self.forced(cells)
            if not ordered:
                ordered = tracker.ranked(self.me)[: self.width]
            below = max(0, depth - 1)
            bound = False
        elif depth <= 0:
            return tracker.leaf(self.me)
        else:
            ranked = tracker.ranked(self.me)
            # Actions that complete a set end the game: their value is exact, take them first.
            ordered = [item for item in ranked if item[2]]
            ordered += [item for item in ranked if not item[2]]
            below = depth - 1
            bound = depth == 1 and not self.drawn
        best = LOSS - 1 if maximising else WIN + 1
        searched = 0
        for est, action, complete in ordered:
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
            played = tracker.play(action)
            end = self.outcome(played[1], mover, ply + 1)
            if end is None:
                end = self.value(below, alpha, beta, ply + 1)
            tracker.undo(played)
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

    def root_value(self, action: tuple, depth: int, alpha: float) -> float:
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
