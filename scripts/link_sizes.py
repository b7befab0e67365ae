"""Play by link, measured: the length of each link per turn and at the start, and how many links
a game's start takes before the first move, for every game and variant family.

    PYTHONPATH=py:. python -m scripts.link_sizes [--games 3] [--only "Psi Squad"]

Each game is played by links only between devices in memory (tests/by_link_group.py), every
link delivered once, in the order sent, to every other device (a group chat); moves are drawn at
random from the legal ones. Needs the test-only `cryptography` (real Ed25519 and P-256 keys: a
signature's size is what it is). Prints a Markdown table (docs/links.md, "Sizes"); "sends
split": the sends (each device's links at one time, start and turns) that needed parts.
"""

from __future__ import annotations

import argparse
import statistics

from parlour.fair.rng import Rng
from parlour.games.catalog import ids
from parlour.games.declared import facts_for
from tests.by_link_group import Group
from tests.tables import large_psi_squad

# Every game's example tables and its further ones, as its facts declare them
# (games/<game>/facts.py): a new game's tables are measured with the others.
SETUPS = [
    (example.label, game, example.names, dict(example.variant), dict(example.bots) or None)
    for game in ids()
    for example in (*facts_for(game).examples, *facts_for(game).more)
]
# Psi Squad's other tables of 5 to 8 seats (issue 38's goal), measured here and in
# tests/test_link_batches.py only (the other suites play the facts' tables).
SETUPS += [
    (e.label, "psi-squad", e.names, dict(e.variant), dict(e.bots) or None)
    for e in large_psi_squad()
    if e.label not in {label for label, *_ in SETUPS}
]


class Measured(Group):
    """A group that notes each post: its links' lengths, and whether it carries a move."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.posts: list[tuple[bool, list[int]]] = []
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def post(self, sender: int, links: list[str]) -> None:
        if links:
            device = self.devices[sender]
            moved = any(r.kind == "act" and d == device.me for (d, _), r in device.records.items())
            self.posts.append((moved, [len(x) for x in links]))
        super().post(sender, links)


def measure(games: int, only: str = "") -> None:
    print(
        "| game | links before the first move | start: longest (parts) | turn: median | p95 | max "
        "| sends split |"
    )
    print("|---|---|---|---|---|---|---|")
    for label, game, names, variant, bots in SETUPS:
        if only not in label:
            continue
        turns: list[int] = []
        start_max, before, parts, split, sends = 0, [], 0, 0, 0
        for i in range(games):
            group = Measured(game, names, variant, bots)
            rng = Rng(f"{label}-{i}".encode())
            group.play(lambda n: 0, rng, drops=0)  # every link in the order sent
            first = next(k for k, (move, _) in enumerate(group.posts) if move)
            before.append(first)
            for k, (_, lengths) in enumerate(group.posts):
                sends += 1
                split += len(lengths) > 1
                if k < first:
                    start_max = max(start_max, *lengths)
                    parts = max(parts, len(lengths))
                else:
                    turns += lengths
        turns.sort()
        p95 = turns[int(0.95 * (len(turns) - 1))]
        print(
            f"| {label} | {max(before)} | {start_max} ({parts}) | "
            f"{statistics.median(turns):.0f} | {p95} | {max(turns)} | "
            f"{split} of {sends} ({100 * split / sends:.1f}%) |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--only", default="", help="only the tables whose label holds this")
    arguments = parser.parse_args()
    measure(arguments.games, arguments.only)
