"""What a device's game by link sends out: the links for the group (every record some device
may lack, and our signed head), what waits for the page's signature first, and the codes and
signatures the players check the game by (the table code, the invite's code, the replay's).

`Outcome` is what each step the screens ask for comes to: a sentence, and the links to send.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.errors import MalformedInput
from parlour.fair.encoding import Json
from parlour.fair.signing import Signed, invite_code, table_code
from parlour.match.by_link import packing
from parlour.match.by_link.telling import Telling
from parlour.match.signed_replay import Signatures, of_link
from parlour.numbers import whole


@dataclass
class Outcome:
    """What taking a link or acting did: a sentence for the player, and the links to send now
    (empty when there is nothing new for the others)."""

    sentence: str
    ok: bool = True
    links: list[str] = field(default_factory=list)
    since: int = 0  # the log's length before: the screens show what came after ("Since...")
    fresh: bool = True  # False: the link brought nothing new (a duplicate, an old link)
    signing: bool = False  # links wait for signatures: `to_sign`, `signed`, then `links`


class Sending(Telling):
    """The links, signatures and codes that leave this device."""

    def _have(self) -> dict[str, int]:
        """For each device, the last of its records held here with none missing before it."""
        have: dict[str, int] = {}
        for device in self.keys:
            q = 0
            while (device, q + 1) in self.records:
                q += 1
            have[device] = q
        return have

    def links(self, limit: int = packing.MAX_LINK) -> list[str]:
        """The link(s) to send the group now: every record some other device may lack (all of
        them for a device not heard from yet), and our signed head; split into parts longer
        than `limit` (a huge `limit`: one long link, for a game file or a long paste, when a
        step needs more parts than a chat takes)."""
        others = [d for d in self.keys if d != self.me]
        seats_known = sum(len(s) for s in self.held.values())
        everything = not others or seats_known < len(self.names)
        rows = [
            r
            for key, r in sorted(self.records.items())
            if everything or any(self.heads.get(d, {}).get(key[0], 0) < key[1] for d in others)
        ]
        head = self._head()
        if head.signature is None or any(r.signature is None for r in rows):
            return []  # the page signs later: `to_sign`, then `signed`, then `links` again
        data = packing.pack(packing.Packet(self.match_id, tuple(rows), head))
        return packing.links(self.base, data, limit)

    def table_code(self) -> str | None:
        """The code players compare once by another way (signed play's): equal on every
        device only if all saw the same keys and the same start. None before the start."""
        if self.match is None:
            return None
        return table_code(self.match_id, self.match.genesis, self.keys, {"limit": str(self.limit)})

    def invite_code(self) -> str | None:
        """The invite's code (fair/signing.py), the same as the join screen showed: from the
        creator's signed `open`. None before this device holds it."""
        opened = self.records.get((self.creator, 1)) if self.creator else None
        if opened is None:
            return None
        return invite_code(self.match_id, self.creator, opened.body)

    def replay_signatures(self) -> Signatures | None:
        """This game's signatures for its replay (match/signed_replay.py): every device's first
        record (its key and seats: the keys the table code is made from), the record each log
        entry came from, and the openings taken at the end. None before the start, or while one
        of them waits for its signature."""
        if self.match is None:
            return None
        start = [self.records[(device, 1)] for device in sorted(self.keys)]
        moves = [self.records[source] for source in self.sources]
        openings = [
            r
            for (device, q), r in sorted(self.records.items())
            if r.kind == "openings" and q <= self.consumed.get(device, 0)
        ]
        return of_link(start, moves, openings)

    def _head(self) -> Signed:
        """Our signed word on what we hold, for the next link (signed once per position)."""
        step = self.match.step if self.match is not None else 0
        head_hash = self.match.head()[:16] if self.match is not None else "0" * 16
        body: dict[str, Json] = {"have": dict(self._have()), "n": step, "h": head_hash}
        head = Signed(self.me, max(self._mine(), 1), "head", body)
        kept = self._signed_head
        if kept is not None and kept.same_content(head) and kept.seq == head.seq:
            return kept
        head.signature = self.signer.sign(head.payload(self.match_id))
        self._signed_head = head
        return head

    def to_sign(self) -> list[tuple[str, bytes]]:
        """What waits for this device's signature (a page whose signer answers later, as
        WebCrypto's promise does): (which, bytes to sign), our records by number and "head"."""
        waiting = [
            (str(r.seq), r.payload(self.match_id))
            for (d, _), r in sorted(self.records.items())
            if d == self.me and r.signature is None
        ]
        head = self._head()
        if head.signature is None:
            waiting.append(("head", head.payload(self.match_id)))
        return waiting

    def signed(self, which: str, signature: bytes) -> bool:
        """A signature the page made for `which` (from `to_sign`), kept if it holds."""
        key = self.keys.get(self.me)
        record = self._signed_head if which == "head" else None
        if which != "head":
            number = whole(which)
            record = self.records.get((self.me, number)) if number is not None else None
        if key is None or record is None:
            return False
        record.signature = bytes(signature)
        if not record.verified_by(key, self.match_id, self.verify):
            record.signature = None
            return False
        return True

    def _after(self, sentence: str, before: int | None = None) -> Outcome:
        """An outcome with links when we made new records since `before` (our count then)."""
        mine = max((q for d, q in self.records if d == self.me), default=0)
        if before is not None and mine == before and not self._behind():
            return Outcome(sentence)  # (behind: our head asks the others for our own records)
        try:
            links = self.links()
        except MalformedInput as error:
            return Outcome(f"{sentence} {error.sentence}", ok=False)
        return Outcome(sentence, links=links, signing=not links)
