"""The hidden cards of a Telepathic arrangement as worlds, for the bots' belief (`mind.py`):
two pairs (the two colour cards dealt, in the order of the arrangement's colour slots, and the
shape pair), twelve ordered pairs each, so 144 worlds; in each, what every seat holds (its
*type*) and each team's win and lose conditions as masks (`layout`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(4) for b in range(4) if a != b)
COLOUR, SHAPE = 0, 1

# The arrangements' slots: for each kind, the two cards dealt (seat, "win" or "lose").
SLOTS: dict[str, tuple[tuple[tuple[int, str], ...], tuple[tuple[int, str], ...]]] = {
    "pair": (((0, "win"), (0, "lose")), ((1, "win"), (1, "lose"))),
    "director": (((1, "win"), (1, "lose")), ((2, "win"), (2, "lose"))),
    "four": (((0, "lose"), (1, "win")), ((2, "lose"), (3, "win"))),
    "teams": (((0, "win"), (1, "win")), ((2, "win"), (3, "win"))),
}
TEAMS = {"teams": (0, 1, 0, 1)}  # seats 1 and 3 (0 and 2 here) against seats 2 and 4


@dataclass(frozen=True)
class Layout:
    """The arrangement's worlds and who holds what."""

    arrangement: str
    seats: int
    kind: tuple[int | None, ...]  # each seat's kind (None: the director)
    positions: tuple[tuple[int, ...], ...]  # each seat's slots in its kind's pair
    wins: tuple[tuple[int, ...], ...]  # per kind: the positions that are win slots
    team: tuple[int, ...]
    # per world (colour pair * 12 + shape pair): per team, the win mask and the lose mask
    goals: tuple[tuple[tuple[int, int], ...], ...]

    # per seat: its types, the type index of each pair of its kind, the pairs of each type,
    # and the type index of each world
    type_list: tuple[tuple[tuple[int, ...], ...], ...]
    type_index: tuple[tuple[int, ...], ...]
    members: tuple[tuple[tuple[int, ...], ...], ...]
    world_type: tuple[tuple[int, ...], ...]
    # per seat, per world: the masks of that seat's own win and lose cards
    own_goals: tuple[tuple[tuple[int, int], ...], ...]

    def type_of(self, seat: int, pair: int) -> tuple[int, ...]:
        return tuple(PAIRS[pair][p] for p in self.positions[seat])

    def types(self, seat: int) -> tuple[tuple[int, ...], ...]:
        return self.type_list[seat]

    def kind_of(self, seat: int) -> int:
        """The kind of the cards `seat` holds (COLOUR or SHAPE); the director holds none."""
        k = self.kind[seat]
        assert k is not None, "the director holds no condition cards"
        return k


@cache
def layout(arrangement: str, seats: int) -> Layout:
    slots = SLOTS[arrangement]
    kind: list[int | None] = [None] * seats
    positions: list[tuple[int, ...]] = [()] * seats
    for k, pair_slots in enumerate(slots):
        for pos, (seat, _) in enumerate(pair_slots):
            kind[seat] = k
            positions[seat] = (*positions[seat], pos)
    wins = tuple(tuple(p for p, (_, w) in enumerate(s) if w == "win") for s in slots)
    team = TEAMS.get(arrangement, (0,) * seats)
    goals = []
    for pc in range(12):
        for ps in range(12):
            per_team = []
            for t in sorted(set(team)):
                w = lose = 0
                for k, pair in ((COLOUR, pc), (SHAPE, ps)):
                    for pos, (seat, which) in enumerate(slots[k]):
                        bit = 1 << (PAIRS[pair][pos] + 4 * k)
                        if which == "lose":
                            lose |= bit
                        elif team[seat] == t:
                            w |= bit
                per_team.append((w, lose))
            goals.append(tuple(per_team))
    own_goals = []
    for seat in range(seats):
        mine = []
        for pc in range(12):
            for ps in range(12):
                w = lose = 0
                for k, pair in ((COLOUR, pc), (SHAPE, ps)):
                    for pos, (s, which) in enumerate(slots[k]):
                        if s == seat:
                            bit = 1 << (PAIRS[pair][pos] + 4 * k)
                            if which == "lose":
                                lose |= bit
                            else:
                                w |= bit
                mine.append((w, lose))
        own_goals.append(tuple(mine))
    type_list, type_index, members, world_type = [], [], [], []
    for seat in range(seats):
        of = [tuple(PAIRS[p][q] for q in positions[seat]) for p in range(12)]
        found = tuple(dict.fromkeys(of))
        index = tuple(found.index(t) for t in of)
        type_list.append(found)
        type_index.append(index)
        members.append(
            tuple(tuple(p for p in range(12) if index[p] == t) for t in range(len(found)))
        )
        seat_kind = kind[seat]
        world_type.append(
            tuple(index[w // 12 if seat_kind == COLOUR else w % 12] for w in range(144))
            if seat_kind is not None
            else (0,) * 144
        )
    return Layout(
        arrangement,
        seats,
        tuple(kind),
        tuple(positions),
        wins,
        team,
        tuple(goals),
        tuple(type_list),
        tuple(type_index),
        tuple(members),
        tuple(world_type),
        tuple(own_goals),
    )
