"""Play by link, measured: the length of each link per turn and at the start, and how many links
a game's start takes before the first move, for every game and variant family.

    PYTHONPATH=py:. python scripts/link_sizes.py [--games 3]

Each game is played by links only between devices in memory (tests/by_link_group.py), every
link delivered once, in the order sent, to every other device (a group chat); moves are drawn at
random from the legal ones. Needs the test-only `cryptography` (real Ed25519 and P-256 keys: a
signature's size is what it is). Prints a Markdown table (docs/links.md, "Sizes").
"""

from __future__ import annotations

import argparse
import statistics

from parlour.fair.rng import Rng
from parlour.match.by_link import packing
from tests.by_link_group import Group

SETUPS = [
    ("ESP, 2", "esp", ("Ada", "Bo"), {}, None),
    ("ESP, 4 (one bot)", "esp", ("Ada", "Bo", "Cy", "Di"), {}, {3: "easy"}),
    ("ESPEERS", "espeers", ("Ada", "Bo"), {}, None),
    ("Telepathic pair", "telepathic", ("Ada", "Bo"), {"arrangement": "pair"}, None),
    ("Telepathic director", "telepathic", ("Ada", "Bo", "Cy"), {"arrangement": "director"}, None),
    ("Telepathic four partners", "telepathic", tuple("ABCD"), {"arrangement": "four"}, None),
    ("Telepathic teams", "telepathic", tuple("ABCD"), {"arrangement": "teams"}, None),
    ("Psi Squad, 2", "psi-squad", ("Ada", "Bo"), {"length": 4}, None),
    ("Psi Squad, 3", "psi-squad", ("Ada", "Bo", "Cy"), {"length": 4}, None),
    (
        "Psi Squad, 8 (two bots)",
        "psi-squad",
        tuple("ABCDEFGH"),
        {"length": 4},
        {6: "easy", 7: "easy"},
    ),
]


class Measured(Group):
    """A group that notes each post: its links' lengths, whether it carries a move, and its
    round: one more than the latest round of any link its device had taken (links that cross
    in the chat are one round; a link that needed another's is the next)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.posts: list[tuple[bool, list[int], int]] = []
        self.rounds: dict[str, int] = {}  # link -> its round
        self.reached: dict[int, int] = {}  # device -> the latest round it took in
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def post(self, sender: int, links: list[str]) -> None:
        if links:
            level = self.reached.get(sender, 1 if sender else 0) + 1  # a joiner took the invite
            self.reached[sender] = level
            self.rounds.update((link, level) for link in links)
            moves = any(_moves(link) for link in links)
            self.posts.append((moves, [len(x) for x in links], level))
        super().post(sender, links)

    def deliver(self, index: int, again: bool = False) -> None:
        recipient, link = self.queue[index]
        level = max(self.reached.get(recipient, 0), self.rounds.get(link, 0))
        self.reached[recipient] = level
        super().deliver(index, again)


def _moves(link: str) -> bool:
    read = packing.read_fragment(link)
    if not isinstance(read, str):
        return False
    return any(r.kind == "act" for r in packing.unpack(read).records)


def measure(games: int) -> None:
    print(
        "| game | links before the first move | rounds | start: longest (parts) "
        "| turn: median | p95 | max |"
    )
    print("|---|---|---|---|---|---|---|")
    for label, game, names, variant, bots in SETUPS:
        turns: list[int] = []
        start_max, before, rounds, parts = 0, [], [], 0
        for i in range(games):
            group = Measured(game, names, variant, bots)
            rng = Rng(f"{label}-{i}".encode())
            group.play(lambda n: 0, rng, drops=0)  # every link in the order sent
            first = next(k for k, (move, _, _) in enumerate(group.posts) if move)
            before.append(first)
            rounds.append(group.posts[first][2] - 1)
            for k, (_, lengths, _) in enumerate(group.posts):
                if k < first:
                    start_max = max(start_max, *lengths)
                    parts = max(parts, len(lengths))
                else:
                    turns += lengths
        turns.sort()
        p95 = turns[int(0.95 * (len(turns) - 1))]
        print(
            f"| {label} | {max(before)} | {max(rounds)} | {start_max} ({parts}) | "
            f"{statistics.median(turns):.0f} | {p95} | {max(turns)} |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    measure(parser.parse_args().games)
