"""What a device's game by link sends out: the links for the group (our records some device
may lack, others' records some device is shown to lack, and our signed head), what waits for
the page's signature first, and the codes and signatures the players check the game by (the
table code, the invite's code, the replay's).

`Outcome` is what each step the screens ask for comes to: a sentence, and the links to send.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from parlour.errors import MalformedInput
from parlour.fair.encoding import Json
from parlour.fair.signing import (
    MAX_BATCH,
    Signed,
    batch_bytes,
    invite_code,
    proof_parts,
    record_digest,
    table_code,
)
from parlour.match.by_link import packing
from parlour.match.by_link.keeping import LOST, Ranges
from parlour.match.by_link.telling import Telling
from parlour.match.signed_replay import Signatures, of_link

# A shared deal's steps (a lock is the whole deck of 1536-bit numbers, about 1,100 characters):
# once one has gone to the group in its signer's link, sending it again goes only as far as it
# adds no part to a link (`Sending.links`).
BULKY = frozenset({"lock", "unlock"})


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

    _told_cuts: frozenset[tuple[str, int]] | None = None  # in memory only: `_told_cut`
    _offered_maybe: set[str] | None = None  # in memory only: `_maybe_news`

    def links(self, limit: int = packing.MAX_LINK) -> list[str]:
        """The link(s) to send the group now: every record of ours some other device may lack
        (all of them for a device not heard from yet), others' records some device is shown to
        lack (`_relays`), and our signed head; split into parts longer than `limit` (a huge
        `limit`: one long link, for a game file or a long paste, when a step needs more parts
        than a chat takes). Records a device only may lack (the start's joins, to a device
        that may have joined after them) go too as far as they add no part; so do, while a seat
        is free, the records carried for a device that may join from this link, and a shared
        deck's steps (`BULKY`) of ours sent before: a device that joins from it and lacks them
        shows so in its head, and our next link carries them (ours go again while any head
        lacks them: `_outgoing_rows`). Our records that must go in it and our head are signed
        once, as one batch (`_batches`), those sent before again with the new ones (each kept
        under its first proof here: a device's run of moves the others have not answered yet
        took a signature per link, 8 records 1,308 characters); the others' records keep
        their own proofs."""
        rows, head, optional = self._outgoing_rows()
        proofs: dict[int, bytes] = {}
        for members, signed in self._batches(rows, head, optional):
            proof = self._batch_proof(members, signed)
            if proof is None:
                return []  # the page signs later: `to_sign`, then `signed`, then `links`
            proofs.update((r.seq, proof) for r in members if r.kind != "head")
        signed_head = self._signed_head
        assert signed_head is not None and signed_head.same_content(head)
        rows = [_under(r, proofs.get(r.seq)) if r.device == self.me else r for r in rows]
        self._answering = None
        made = self._fitted_links(rows, signed_head, limit, optional)
        cut = [d for d in self.heads if d != self.me and self._cut_held(d)]
        self._answering = {d: dict(self.heads[d]) for d in cut}  # `mark_sent`
        return made

    def _fitted_links(
        self, rows: list[Signed], signed_head: Signed, limit: int, optional: set[tuple[str, int]]
    ) -> list[str]:
        """`links`' text: every row that must go, and those that may as far as they add no
        part."""
        if not optional:
            return self._packed(rows, signed_head, limit)
        parts = len(
            self._packed([r for r in rows if (r.device, r.seq) not in optional], signed_head, limit)
        )
        made = self._fitted(rows, signed_head, limit)
        # left out until no part is added: another device's shared-deal steps first (their
        # bulk), then its other records (the set-up and joins, for a device that may join from
        # this link), the last device's first; then our steps sent before, one at a time, the
        # newest first (a device takes a device's records in order: the oldest are of use
        # first); ours left out go again in our next link while a head lacks them. The same
        # state gives the same link: the screen draws it more than once.
        others = sorted({d for d, _ in optional if d != self.me}, reverse=True)
        units = [
            *(
                [(d, q) for d2, q in optional if d2 == d and self.records[(d2, q)].kind in BULKY]
                for d in others
            ),
            *(
                [
                    (d, q)
                    for d2, q in optional
                    if d2 == d and self.records[(d2, q)].kind not in BULKY
                ]
                for d in others
            ),
            *([key] for key in sorted((k for k in optional if k[0] == self.me), reverse=True)),
        ]
        for unit in units:
            if made is not None and len(made) <= parts:
                break
            rows = [r for r in rows if (r.device, r.seq) not in unit]
            made = self._fitted(rows, signed_head, limit)
        assert made is not None  # every unit left out: the rows that must go, which fit
        return made

    def _fitted(self, rows: list[Signed], head: Signed, limit: int) -> list[str] | None:
        """`_packed`, or None where it needs more parts than a link may have: records that
        only may go must not turn a link that fits into none (`links(limit=SCAN_PART)`)."""
        try:
            return self._packed(rows, head, limit)
        except MalformedInput:
            return None

    def _packed(self, rows: list[Signed], head: Signed, limit: int) -> list[str]:
        text = packing.pack(packing.Packet(self.match_id, tuple(rows), head))
        return packing.links(self.base, text, limit, (self.match_id, self.me))

    def _batch_proof(self, members: list[Signed], data: bytes) -> bytes | None:
        """A batch's proof (its signature, and its digests when it holds more than one), signed
        here now if the signer answers at once: our records in it not signed before keep it for
        good, and our head with it (one sent again keeps its first proof here: the link carries
        it under this one, `links`). None while the page has not signed it."""
        signature = self._batch_signed.get(data)
        if signature is None:
            made = self.signer.sign(data)
            if made is None:
                return None
            signature = bytes(made)
            self._remember(data, signature)
        digests = b"".join(self._digests(members)) if len(members) > 1 else b""
        proof = signature + digests
        for record in members:
            if record.kind == "head":
                self._signed_head = Signed(record.device, record.seq, "head", record.body, proof)
            elif record.signature is None:
                record.signature = proof
        return proof

    def _outgoing_rows(self) -> tuple[list[Signed], Signed, set[tuple[str, int]]]:
        """The records to send, our head (unsigned), and which of the records a device only
        may lack (sent as far as they add no part). Ours that some other device may lack
        (those not yet signed always), and another device's only where `_relays` finds a
        device lacks them: every device sends its own records to the whole group, so carrying
        everyone's on to a device not heard from lately only repeated them (an eight-player
        link carried up to a round of moves). While a seat has no device yet, everything: the
        others' records and our shared-deck steps the others hold as far as they add no part
        (issue 38: two locks of a shared deck filled two parts)."""
        others = [d for d in self.keys if d != self.me]
        seats_known = sum(len(s) for s in self.held.values())
        everything = not others or seats_known < len(self.names)
        shown, maybe = self._relays(others) if others else ({}, {})
        if everything:
            shown, maybe = {k: v for k, v in shown.items() if k == self.me}, {}

        def within(ranges: Ranges, device: str, q: int) -> bool:
            low, high = ranges.get(device, (0, 0))
            if q == 1 and device in ranges and device != self.me:  # its join, for a device
                # that may not know its key
                return any(not self.heads.get(d, {}).get(device) for d in others if d != device)
            return low < q <= high

        rows: list[Signed] = []
        optional: set[tuple[str, int]] = set()
        for (device, q), record in sorted(self.records.items()):
            if device == self.me:
                # a shared deck's step sent before goes again only as far as it adds no part
                # while no device is shown to lack it (a head from before it came lacks it)
                # (sent: its signer's player said so: the page signs a step before drawing its
                # link, so a signature alone does not show it went)
                stale = not others or any(self.heads.get(d, {}).get(device, 0) < q for d in others)
                sent = record.signature is not None and q <= self.sent_upto
                lacked = stale and (not sent or within(shown, device, q))
                if stale and not lacked:
                    lacked = record.kind not in BULKY
                    if not lacked:
                        optional.add((device, q))
            else:
                lacked = within(shown, device, q)
                if not lacked and within(maybe, device, q):
                    lacked = True
                    optional.add((device, q))
            if everything and not lacked and (device != self.me or record.kind in BULKY):
                optional.add((device, q))  # for a device that may join from this link
            if everything or lacked or (device, q) in optional:
                rows.append(record)
        return rows, self._head_body(), optional

    def _batches(
        self, rows: list[Signed], head: Signed, optional: set[tuple[str, int]]
    ) -> list[tuple[list[Signed], bytes]]:
        """Our records of a link that must go (not `optional`: those that go only as far as
        they add no part keep their first proof) and our head, in batches of at most
        `MAX_BATCH` (one, but for many records made before a link), each with the bytes its
        signature is over: a batch's (`batch_bytes`), or, for the head alone, the head's own.
        No batch when no record of ours goes and our head as it is now is signed. The same
        records and head make the same bytes: a link drawn again is signed once (`_remember`)."""
        mine = [r for r in rows if r.device == self.me and r.signature is None]
        again = self._signed_again(rows, optional)
        if len(mine) + len(again) < MAX_BATCH:
            keys = {(r.device, r.seq) for r in again}
            mine = [
                r
                for r in rows
                if (r.signature is None and r.device == self.me) or (r.device, r.seq) in keys
            ]
        kept = self._signed_head
        if not mine and kept is not None and kept.seq == head.seq and kept.same_content(head):
            return []
        size = MAX_BATCH - 1
        chunks = [mine[i : i + size] for i in range(0, len(mine), size)] or [[]]
        batches: list[tuple[list[Signed], bytes]] = []
        for i, chunk in enumerate(chunks):
            members = [*chunk, head] if i == len(chunks) - 1 else chunk
            if len(members) == 1:
                data = members[0].payload(self.match_id)
            else:
                data = batch_bytes(self.match_id, self.me, self._digests(members))
            batches.append((members, data))
        return batches

    def _signed_again(self, rows: list[Signed], optional: set[tuple[str, int]]) -> list[Signed]:
        """Our records sent before that go again in this link's batch (`_batches`): those that
        must go, unless their first batch lists one of ours that may be left out (a join first
        sent with its lock: signed again without it, a joiner holding the join alone would see
        no batch cut, tell us nothing, and wait for good). All of them, or none where they and
        our new records need more than one batch (kept under their first proofs: a page asked
        for many signatures at once keeps the last few)."""
        ours = [r for r in rows if r.device == self.me]
        left = {
            record_digest(r.payload(self.match_id)) for r in ours if (r.device, r.seq) in optional
        }

        def with_left(record: Signed) -> bool:
            parts = proof_parts(record.signature) if record.signature is not None else None
            return parts is not None and any(d in left for d in parts[1])

        return [
            r
            for r in ours
            if r.signature is not None
            and (r.device, r.seq) not in optional
            and not (left and with_left(r))
        ]

    def _digests(self, members: list[Signed]) -> list[bytes]:
        return [record_digest(r.payload(self.match_id)) for r in members]

    def _remember(self, data: bytes, signature: bytes) -> None:
        """A batch's signature, kept while its batch may be sent again (the last few)."""
        self._batch_signed[data] = signature
        while len(self._batch_signed) > 8:
            del self._batch_signed[next(iter(self._batch_signed))]

    def _asks_to_send(self) -> bool:
        """Does the link just taken call for one of ours (`_shown_news`, `_told_cut`,
        `_maybe_news`)? Each notes what it asked for, so all are asked; what a device lacks is
        found once for both that need it, and only once every seat has a device (before,
        our links carry everything)."""
        others = [d for d in self.keys if d != self.me]
        seated = sum(len(s) for s in self.held.values()) >= len(self.names)
        shown, maybe = self._lacking(others) if others and seated else ({}, {})
        return any([self._shown_news(shown), self._told_cut(), self._maybe_news(maybe)])

    def _shown_news(self, shown: dict[str, Ranges]) -> bool:
        """Is a device newly shown to lack records held here (a link lost on the way, records
        it signed and lost, a log that parts from ours: `_lacking`'s `shown`)? Then this device
        asks to send a link that carries them, once for each: nobody waits on a link nobody was
        asked to send. (What a device only may lack is not asked for: its signer's links carry
        it.)"""
        found = {(d, s, high) for d, ranges in shown.items() for s, (_, high) in ranges.items()}
        if self._offered is None:
            self._offered = set()
        news = found - self._offered
        self._offered |= found
        return bool(news)

    def _maybe_news(self, maybe: dict[str, Ranges]) -> bool:
        """Once links came here out of order (`Keeping._note_order`): is a device newly found
        to *may* lack records held here (`_lacking`'s `maybe`: a joiner whose head shows nothing
        of a device that joined before it)? Then this device asks to send a link that carries
        them (as far as they add no part), once for each: in such a chat nobody else may be
        about to send them, and the start waited for "Show the link again". In a chat opened in
        order this never asks: the joiner opens the earlier links itself."""
        if not self._out_of_order:
            return False
        skip = self._join_carried or frozenset()
        found = {
            d
            for d, ranges in maybe.items()
            if self.me in ranges and d not in skip and not self._opens_every_join(d)
        }
        if self._offered_maybe is None:
            self._offered_maybe = set()
        news = found - self._offered_maybe
        self._offered_maybe |= found
        return bool(news)

    def _told_cut(self) -> bool:
        """Do we newly hold part of another device's batch without the rest (`_cut_batches`)?
        Then this device asks to send its head, once for each: it shows the signer what we
        lack, and the signer's next link brings it (`_lacking`: a head that holds part of a
        batch of ours). Without it a joiner that opened the invite alone, and got another
        device's join carried on without its bulky lock, waited for good."""
        found = self._cut_batches()
        told = self._told_cuts or frozenset()
        self._told_cuts = told | found
        return bool(found - told)

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
        if self.match is None or self.live is not None:
            return None  # a live game carried on: its first records are no invite (links.md)
        start = [self.records[(device, 1)] for device in sorted(self.keys)]
        moves = [self.records[source] for source in self.sources]
        openings = [
            r
            for (device, q), r in sorted(self.records.items())
            if r.kind == "openings" and q <= self.consumed.get(device, 0)
        ]
        return of_link(start, moves, openings)

    def _head(self) -> Signed:
        """Our head signed alone (a plain signature; None from a page that signs later)."""
        head = self._head_body()
        head.signature = self.signer.sign(head.payload(self.match_id))
        return head

    def _head_body(self) -> Signed:
        """Our word on what we hold, for the next link: unsigned (our batch signs it). Its
        number is our last record's (its kind tells it from that record)."""
        step = self.match.step if self.match is not None else 0
        head_hash = self.match.head()[:16] if self.match is not None else "0" * 16
        if self._behind():  # we lost records of ours: say so (`Keeping._note_head`)
            step, head_hash = 0, LOST
        body: dict[str, Json] = {"have": dict(self._have()), "n": step, "h": head_hash}
        return Signed(self.me, max(self._mine(), 1), "head", body)

    def to_sign(self) -> list[tuple[str, bytes]]:
        """What waits for this device's signature (a page whose signer answers later, as
        WebCrypto's promise does): (which, bytes to sign), one per batch of the next link."""
        rows, head, optional = self._outgoing_rows()
        waiting = []
        for members, data in self._batches(rows, head, optional):
            if self._batch_proof(members, data) is None:
                which = "b" + hashlib.sha256(data).hexdigest()[:16]
                self._asked[which] = (members, data)
                while len(self._asked) > 8:  # the last few asked: one is signed, or asked again
                    del self._asked[next(iter(self._asked))]
                waiting.append((which, data))
        return waiting

    def signed(self, which: str, signature: bytes) -> bool:
        """A signature the page made for `which` (from `to_sign`), kept if it holds."""
        key = self.keys.get(self.me)
        asked = self._asked.get(which)
        if key is None or asked is None:
            return False
        members, data = asked
        if not self.verify(key.algorithm, key.public, data, bytes(signature)):
            return False
        self._remember(data, bytes(signature))
        self._batch_proof(members, data)  # our records in it keep their proof at once
        return True

    def _after(self, sentence: str, before: int | None = None, taken: bool = False) -> Outcome:
        """An outcome with links when we made new records since `before` (our count then), or,
        after a link `taken` in, when it showed a device lacking records held here."""
        quiet = before is not None and self._mine() == before and not self._behind()
        if quiet and not (taken and self._asks_to_send()):
            return Outcome(sentence)  # (behind: our head asks the others for our own records)
        try:
            links = self.links()
        except MalformedInput as error:
            return Outcome(f"{sentence} {error.sentence}", ok=False)
        return Outcome(sentence, links=links, signing=not links)


def _under(record: Signed, proof: bytes | None) -> Signed:
    """Our record as a link carries it: under this link's batch when it is in it (a copy: the
    record keeps its first proof here)."""
    if proof is None or proof == record.signature:
        return record
    return Signed(record.device, record.seq, record.kind, record.body, proof)
