"""Play by link's keeping and trust, measured (pure CPython, no browser): how many bytes a
device's save grows per link it takes, median and worst, against the link's own length in the
same run (the baseline: a save can keep no less than what came); what a stranger's link adds
(nothing); and the step at which the table code is first shown (it was shown only at the end).

Games are played by links only between devices in memory (tests/by_link_group.py), every link
delivered once, in the order sent, to every other device; moves at random.
"""

from __future__ import annotations

import json
import statistics

from parlour.fair.rng import Rng
from parlour.fair.signing import DeviceKey
from tests.by_link_group import Group, stranger_link
from tests.signers import Ed25519Signer

SETUPS = [
    ("ESP, 2", "esp", ("Ada", "Bo"), {}),
    ("Psi Squad, 3", "psi-squad", ("Ada", "Bo", "Cy"), {"length": 4}),
    ("Telepathic four partners", "telepathic", tuple("ABCD"), {"arrangement": "four"}),
]


class Kept(Group):
    """A group that notes, for each link a device takes, its save's growth and the link's
    length, and the step at which every device first shows a table code."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.growth: list[tuple[int, int]] = []  # (save bytes added, link characters)
        self.code_at: int | None = None
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def deliver(self, index: int, again: bool = False) -> None:
        recipient, link = self.queue[index]
        device = self.devices[recipient]
        before = len(json.dumps(device.to_json()))
        super().deliver(index, again)
        self.growth.append((len(json.dumps(device.to_json())) - before, len(link)))
        if self.code_at is None and all(d.table_code() for d in self.devices):
            self.code_at = self.devices[0].match.step if self.devices[0].match else 0


def _play(game: str, names: tuple[str, ...], variant: dict, seed: bytes) -> Kept:
    group = Kept(game, names, variant)
    rng = Rng(seed)
    for _ in range(3000):
        while group.queue:
            group.deliver(0)
        if group.finished():
            return group
        movers = group.movers()
        if not movers:
            group.resend()
            continue
        device, seat = movers[0]
        group.move(device, seat, rng)
    raise AssertionError(f"{game} by link did not end")


def _stranger_growth() -> int:
    """Bytes a stranger's join (a seat the game lacks) adds to the save of the device that
    opens it: records from outside the game are never kept."""
    group = Group("esp", ("Ada", "Bo"), {})
    ada = group.devices[0]
    body = {"s": 7, "n": "Eve", "k": DeviceKey.of(Ed25519Signer()).to_json(), "t": 0}
    link = stranger_link(ada.match_id, "join", body, "s7", then=False)
    before = len(json.dumps(ada.to_json()))
    ada.take_link(link, 0)
    return len(json.dumps(ada.to_json())) - before


def run(games: int = 2) -> list[str]:
    lines = [
        "By link: a save's growth per link taken, against the link's length (same run)",
        "| game | table code first shown at step (was: the last) | growth median | worst "
        "| worst / its link |",
        "|---|---|---|---|---|",
    ]
    for label, game, names, variant in SETUPS:
        grown: list[tuple[int, int]] = []
        code_at: list[int] = []
        last: list[int] = []
        for g in range(games):
            group = _play(game, names, variant, f"{game}-{g}".encode())
            grown += group.growth
            code_at.append(group.code_at if group.code_at is not None else -1)
            last.append(group.devices[0].match.step)
        added = [a for a, _ in grown]
        worst = max(grown)
        lines.append(
            f"| {label} | {max(code_at)} (of {min(last)}-{max(last)}) | "
            f"{statistics.median(added):.0f} B | {worst[0]} B | {worst[0] / worst[1]:.2f} |"
        )
    lines.append(
        f"A stranger's link (a join for a seat the game lacks) adds {_stranger_growth()} B."
    )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
