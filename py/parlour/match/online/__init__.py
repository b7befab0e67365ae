"""Online play: one device's side of a match played over a network (pure: text in, text out).

The shape is a star. The host's device holds the authoritative log: it appends its own seats'
moves, checks every move a guest proposes with its own engine, and relays each new entry to every
guest, whose engines check it again. Nothing here touches a network: a transport (WebRTC, a
BroadcastChannel, or the in-memory one of the tests) hands `receive` the text it got, asks
`opened` and `closed` about connections, and sends what `outbox` collects. Time is passed in
(`now`, in seconds), so heartbeats and time-outs are tested without waiting.

How a match goes, and where each part lives:
1. Joining (joining.py). The host makes one invite per remote seat. A guest's device connects and
   says `hello`; the host answers `welcome` (the set-up and the guest's seat) and replays what
   came before.
2. The seed (seed.py). Every device deals its seats' private values and commits to them, and every
   seat commits to 32 random bytes (`seed-commit`); once all commitments are in, all reveal
   (`seed-reveal`) and every device computes the same public seed. Dealing before the seed means
   no device can deal again once it knows the seed. A seat that withholds its reveal once every
   commitment is in forfeits (seed_forfeit.py).
3. Play (moves.py). A guest `propose`s a move (sealed on its own device: secrets never travel);
   the host appends it or rejects it with the engine's sentence; `entries` carry new log entries.
   A move for a guest's own seat that it never proposed is refused as forged.
4. The end (verdicts.py). Every device sends the openings it holds; every device runs the audit
   and tells the others its verdict.
Robustness: every message is numbered per connection (a replay is refused), checked by
`wire.decode` first (malformed or oversized is refused), a heartbeat notices a silent peer within
`LOST_AFTER` seconds (links.py), a guest that comes back gets the log again from where it was,
and a seat that stalls on a step its own device must take (a seal, an answer, a reveal) forfeits
after the time-out chosen at set-up. A session is saved by saves.py and loaded by loading.py.

What every part shares is in device.py; session.py puts the parts together as `OnlineSession`
and holds the table of message types and their handlers.
"""

from parlour.match.online.device import DEFAULT_REVEAL_LIMIT, HOST, SLACK, Link, seat_peer
from parlour.match.online.links import HELLO_AGAIN, LOST_AFTER, PING_EVERY
from parlour.match.online.saves import FORMAT, FORMAT_VERSION
from parlour.match.online.session import OnlineSession, Phase
from parlour.match.online.verdicts import verdict_of

__all__ = [
    "DEFAULT_REVEAL_LIMIT",
    "FORMAT",
    "FORMAT_VERSION",
    "HELLO_AGAIN",
    "HOST",
    "LOST_AFTER",
    "PING_EVERY",
    "SLACK",
    "Link",
    "OnlineSession",
    "Phase",
    "seat_peer",
    "verdict_of",
]
