"""The in-memory transport: online sessions wired together in one process, for the tests.

It carries exactly the text the real transports carry, through the same three calls (`opened`,
`receive`, `closed`), with a clock the test moves by hand. A test can also drop, hold or rewrite
what travels, and read every message that went by (the recorded traffic).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.match.online import HOST, OnlineSession, seat_peer


class MemoryNet:
    """A host and its guests, each guest on its own connection to the host."""

    def __init__(self, host: OnlineSession, now: float = 0.0) -> None:
        self.host = host
        self.guests: dict[int, OnlineSession] = {}  # by the seat its invite was for
        self.up: set[int] = set()
        self.now = now
        self.traffic: list[tuple[str, str, str]] = []  # (from, to, text), in order
        self.tamper: Callable[[str, str, str], str | None] | None = None

    def connect(self, seat: int, guest: OnlineSession) -> None:
        """The guest opened the invite for `seat` and the host pasted its answer."""
        self.guests[seat] = guest
        self.up.add(seat)
        self.host.opened(seat_peer(seat), self.now)
        guest.opened(HOST, self.now)
        self.flush()

    def drop(self, seat: int) -> None:
        """The connection breaks without a word (a closed tab, a lost network)."""
        self.up.discard(seat)

    def flush(self, rounds: int = 200) -> None:
        """Deliver messages until nobody has anything more to say."""
        for _ in range(rounds):
            moved = False
            for text_from, to, text in self._drain():
                moved = True
                self._deliver(text_from, to, text)
            if not moved:
                return
        raise AssertionError("the sessions kept talking")

    def _drain(self) -> list[tuple[str, str, str]]:
        out = [("host", peer, text) for peer, text in self.host.take_outbox()]
        for seat, guest in self.guests.items():
            out += [(seat_peer(seat), "host", text) for _, text in guest.take_outbox()]
        return out

    def _deliver(self, sender: str, to: str, text: str) -> None:
        seat = int((to if sender == "host" else sender).removeprefix("seat-"))
        if seat not in self.up:
            return
        if self.tamper is not None:
            changed = self.tamper(sender, to, text)
            if changed is None:
                return
            text = changed
        self.traffic.append((sender, to, text))
        if sender == "host":
            self.guests[seat].receive(HOST, text, self.now)
        else:
            self.host.receive(sender, text, self.now)

    def tick(self, seconds: float) -> None:
        """Time passes: every session ticks, then talks."""
        self.now += seconds
        self.host.tick(self.now)
        for seat, guest in self.guests.items():
            if seat in self.up:
                guest.tick(self.now)
        self.flush()

    def everyone(self) -> list[OnlineSession]:
        return [self.host, *self.guests.values()]
