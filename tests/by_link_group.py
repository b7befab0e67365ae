"""A group chat in memory for play by link: devices, and the links on their way between them.

Every link a device makes goes to every other device (as in a group chat), as its own delivery;
the test chooses which delivery happens next, may deliver one twice or drop it (a dropped link's
records are sent again by the next link of that device, or by `resend`). Moves are chosen on the
device whose turn it is, from what that device shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from parlour.fair.rng import Rng
from parlour.fair.signing import Signed
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match.audit import Verified
from parlour.match.by_link import LinkPlay, packing
from tests.signers import Ed25519Signer, P256Signer, verify

BASE = "https://psi.example/"
Chooser = Callable[[int], int]  # n -> a choice below n (Hypothesis, or a seeded Rng)


class Group:
    def __init__(
        self,
        game: str,
        names: tuple[str, ...],
        variant: dict,
        bots: dict[int, str] | None = None,
        hours: float = 0,
        private: dict[int, dict] | None = None,
    ) -> None:
        private = private or {}
        creator, out = LinkPlay.create(
            game,
            list(names),
            variant,
            (0,),
            Ed25519Signer(),
            verify,
            0,
            BASE,
            bots,
            hours,
            {0: private.get(0, {})},
        )
        self.devices = [creator]
        self.queue: list[tuple[int, str]] = []  # (recipient, link)
        self.sizes: dict[str, list[int]] = {"start": [], "turn": []}
        self.first_move_links = 0  # links sent before the one that carries the first move
        self.sent = 0
        self.parts: dict[str, dict[int, str]] = {}
        self.carried: list[str] = []
        self.ended = False
        self.invite = out.links
        self.post(0, out.links)
        for seat in range(1, len(names)):
            if seat in (bots or {}):
                continue
            signer = P256Signer() if seat % 2 else Ed25519Signer()
            device, joined = LinkPlay.join(
                out.links, seat, names[seat], signer, verify, 0, BASE, private.get(seat)
            )
            assert device is not None, joined.sentence
            self.devices.append(device)
            self.post(len(self.devices) - 1, joined.links)
        self.now = 0.0

    @classmethod
    def of(cls, devices: list[LinkPlay], first: list[tuple[int, list[str]]]) -> Group:
        """A group of devices already made (a live game carried on by link), with the first
        links each sent."""
        group = cls.__new__(cls)
        group.devices = list(devices)
        group.queue, group.sizes = [], {"start": [], "turn": []}
        group.first_move_links = group.sent = 0
        group.parts, group.carried, group.ended, group.invite = {}, [], False, []
        group.now = 0.0
        for sender, links in first:
            group.post(sender, links)
        return group

    def post(self, sender: int, links: list[str]) -> None:
        """A device sends links to the group: each to every other device."""
        if not links:
            return
        self.devices[sender].mark_sent()  # its player says "Done: I sent it"
        self.read(links)
        started = any(d.match is not None and d.match.step for d in self.devices)
        for link in links:
            self.sizes["turn" if started else "start"].append(len(link))
            self.sent += 1
        if not started:
            self.first_move_links = self.sent
        for recipient in range(len(self.devices)):
            if recipient != sender:
                self.queue.extend((recipient, link) for link in links)

    def read(self, links: list[str]) -> None:
        """Keep what links carry, as text, while no device has opened its seals: the test
        checks that no secret travels before its reveal."""
        for link in links:
            fragment = packing.read_fragment(link)
            if isinstance(fragment, packing.Part):
                parts = self.parts.setdefault(fragment.tag, {})
                parts[fragment.index] = fragment.data
                if len(parts) < fragment.count:
                    continue
                fragment = packing.join_parts(parts, fragment.tag)
            records = packing.unpack(fragment).records
            if any(r.kind == "openings" for r in records):
                self.ended = True
            if not self.ended:
                self.carried.append(json.dumps([r.body for r in records]))

    def no_secret_before_its_reveal(self) -> None:
        """Every nonce of a sealed value that travelled before the end was revealed in the log
        (a move that shows it); every other one stayed on its device."""
        log = json.dumps([e.action for e in self.devices[0].match.entries])
        carried = "\n".join(self.carried)
        for device in self.devices:
            for store in device.stores.values():
                for opening in store.openings.values():
                    assert opening.nonce not in carried or opening.nonce in log, opening.label

    def deliver(self, index: int, again: bool = False) -> None:
        recipient, link = self.queue[index] if again else self.queue.pop(index)
        taken = self.devices[recipient].take_link(link, self.now)
        assert taken.ok or "part" in taken.sentence.lower(), taken.sentence
        self.post(recipient, taken.links)

    def resend(self) -> None:
        """Every device sends what the others may lack (after links were dropped)."""
        for i, device in enumerate(self.devices):
            self.post(i, device.links())

    def holder(self, seat: int) -> LinkPlay:
        return next(d for d in self.devices if seat in d.local)

    def finished(self) -> bool:
        return all(d.audit_result is not None for d in self.devices)

    def movers(self) -> list[tuple[int, int]]:
        """(device, seat) pairs that may act now by their own device's view: a person's seat
        the game waits on, with nothing of that device still on its way."""
        found = []
        for i, device in enumerate(self.devices):
            match = device.match
            if match is None or match.result() is not None:
                continue
            for seat in sorted(match.game.to_move(match.state)):
                if seat in device.local and str(seat) not in device.bots:
                    found.append((i, seat))
        return found

    def move(self, device_index: int, seat: int, rng: Rng) -> bool:
        device = self.devices[device_index]
        table = device.table
        assert table is not None
        state = table.state
        if table.game.id == "psi-squad" and state.setting_up:
            choice: object = ChooseCypher("".join(str(rng.below(10)) for _ in range(state.length)))
        elif table.game.id == "psi-squad" and state.pending is None and rng.below(2) == 0:
            target = state.targets(seat)[0]  # the test peeks, to end the game sooner
            choice = Guess(target, self.holder(target).stores[target].value("cypher"))
        else:
            legal = table.legal(seat)
            choice = legal[rng.below(len(legal))]
        result = device.act(seat, choice, self.now)
        if result.ok:
            self.post(device_index, result.links)
        return result.ok

    def play(self, choose: Chooser, rng: Rng, drops: int = 3, steps: int = 20_000) -> None:
        """Deliver, duplicate, drop and move until every device has checked the end."""
        for _ in range(steps):
            self.now += 60
            if self.finished():
                return
            if self.queue:
                index = choose(len(self.queue))
                what = choose(8)
                if what == 0 and drops:
                    drops -= 1
                    self.queue.pop(index)
                else:
                    self.deliver(index, again=what == 1)
                continue
            movers = self.movers()
            start = rng.below(len(movers)) if movers else 0
            turn = movers[start:] + movers[:start]
            if not any(self.move(d, s, rng) for d, s in turn):
                self.resend()
        raise AssertionError("the game did not end")

    def check_the_end(self) -> None:
        """One log everywhere, every device's audit verified, every link within the limit."""
        assert max(self.sizes["start"] + self.sizes["turn"]) <= packing.MAX_LINK
        heads = {d.match.head() for d in self.devices if d.match is not None}
        assert len(heads) == 1 and len(self.devices) > 1
        self.no_secret_before_its_reveal()
        for device in self.devices:
            assert device.audit_result == Verified(), device.audit_result
            assert device.waiting() == "The game is over and checked."


def stranger_link(match_id: str, kind: str, body: dict, device: str, then: bool = True) -> str:
    """A link a stranger who saw a game's match id makes: a `kind` record signed with a key of
    its own under `device`, then (`then`) a claim that the game is over, and its own head."""
    eve = Ed25519Signer()
    records = [Signed(device, 1, kind, body)]
    if then:
        records.append(Signed(device, 2, "claim", {"s": 0, "by": 1, "at": 0, "t": 0}))
    head = Signed(device, len(records), "head", {"have": {device: len(records)}, "n": 0})
    head.body["h"] = "0" * 16
    for record in (*records, head):
        record.signature = eve.sign(record.payload(match_id))
    data = packing.pack(packing.Packet(match_id, tuple(records), head))
    return packing.links(BASE, data)[0]
