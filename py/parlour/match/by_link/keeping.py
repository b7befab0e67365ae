"""What a device keeps of the others' word and owes them, by link: what each device says it
holds (its signed head), which of the others' records our links carry on (only where a device
is shown to lack them), a log that parts from ours (resent from where it parts), a link that
carries more than a game can use (refused whole), a proven fork (kept once), records of ours we
lost (a refused save), and whether the player has sent all of ours.
"""

from __future__ import annotations

from parlour.fair.encoding import canonical_json
from parlour.fair.signing import Fork, Signed, proof_parts, record_digest
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import LinkState

VOID_MOST = 8  # moves of one device in one link that cannot count (honest play: a race, 1)
WAITING_MOST = 256  # records of one device held but not yet taken (honest play: a few)
HEADS_NOTED = 64  # heads of one device remembered word for word (an old link opened again)
# a head's `h` (with `n` 0) from a device that lost records it signed: `n` 0 keeps a page from
# before the mark from reading it as a fork; the mark alone tells a loss from an old link
LOST = "lost"
DUE_MOST = 7  # `due` records of one device: one at most on each other seat (8 seats at most)
Ranges = dict[str, tuple[int, int]]  # device -> its records after the first up to the second


class Keeping(LinkState):
    """The others' heads, forks and bounds; what this device lost and what it has not sent."""

    # device -> {signer: record number}: the log that parts from ours, which our next links carry
    # to it again (`_resend_from`), whatever `_relays` finds; kept in memory only
    _resending: dict[str, dict[str, int]] | None = None
    # (device, signer, record number): what a device was shown to lack when we last offered a
    # link for it (`Sending._shown_news`); in memory only
    _offered: set[tuple[str, str, int]] | None = None
    # device -> its heads noted lately, word for word (`_note_head`); in memory only
    _heads_noted: dict[str, dict[bytes, None]] | None = None
    # devices whose head said they lost records they signed (`_note_head`), until a head of
    # theirs holds all of theirs held here: our links carry those back to them; saved ("lost")
    _lost: frozenset[str] = frozenset()
    # a link's head named records we did not hold after taking it (`_note_order`); saved
    _out_of_order = False
    # device -> its head (as held here) that showed part of a batch of ours held when our link
    # was drawn, kept once the player said they sent that link: the rest went in it, and that
    # head asks for nothing more (`_lacking`); saved
    _answered: dict[str, dict[str, int]] | None = None
    # the heads our link drawn last carried the rest of a batch for (`Sending.links`)
    _answering: dict[str, dict[str, int]] | None = None
    _join_carried: frozenset[str] | None = None  # devices a link carried our join on to
    _digested: dict[tuple[str, int], tuple[Signed, bytes]] | None = None  # `_held_of`

    def _have(self) -> dict[str, int]:
        """For each device, the last of its records held here with none missing before it."""
        have: dict[str, int] = {}
        for device in self.keys:
            q = 0
            while (device, q + 1) in self.records:
                q += 1
            have[device] = q
        return have

    def _relays(self, others: list[str]) -> tuple[Ranges, Ranges]:
        """The records this device sends on, for each signer (us too) the records after `low`
        up to `high`: first those some other device is shown to lack, then those
        one may lack (sent only as far as they add no part to the link: `Sending.links`); for
        each device, `_lacking`."""
        merged: tuple[Ranges, Ranges] = ({}, {})
        for ranges, lacking in zip(merged, self._lacking(others), strict=True):
            for found in lacking.values():
                for signer, (low, high) in found.items():
                    was = ranges.get(signer, (low, high))
                    ranges[signer] = (min(was[0], low), max(was[1], high))
        return merged

    def _lacking(self, others: list[str]) -> tuple[dict[str, Ranges], dict[str, Ranges]]:
        """For each other device, the records held here (ours too) that it is shown to lack,
        and those it may lack, for each signer the records after `low` up to `high`.
        Shown by:
        - its own signed head: a device that says it lost records it signed (a save refused,
          an older copy: its head marked `LOST`) gets them back from anyone; otherwise a
          device holds every record it signed (its head may be older than some of them);
        - the log: a device that holds a move sealed at step n (its head or its own move says
          so) was sent every entry before n before that move (the mover held them, and each
          record reaches the group in its own signer's link before anything that follows from
          it): it lacks one only if a link was lost on the way;
        - a log that parts from ours (`_resend_from`): ours from there, to tell the two apart.
        May lack: a device whose head shows nothing of another device may have joined after
        that device's join went to the group (it opened the invite, not the links before it);
        only at the start: a device's reveal shows it held every join and commitment, its move
        every reveal.
        Not sent on: what a device not heard from lately may lack of the last round of moves.
        Each came to the group in its own signer's link, and sending them all on again was the
        most of an eight-player link. (A device that lacks a record and holds nothing later
        shows nothing: its screen waits for that record's link, which is in the chat, and its
        signer's own links carry it again while that device's head lacks it.)"""
        have = self._have()
        acts = [
            (source, number_in(self.records[source], "at"))
            for source in self.sources
            if self.records[source].kind == "act"
        ]
        last: dict[str, dict[str, int]] = {"commit": {}, "reveal": {}}
        for (signer, q), record in self.records.items():
            if record.kind in last:
                last[record.kind][signer] = max(last[record.kind].get(signer, 0), q)
        shown: dict[str, Ranges] = {}
        maybe: dict[str, Ranges] = {}
        for device in others:
            if device not in self.heads:
                continue  # nothing heard from it yet: nothing shows what it lacks
            said = self.heads[device]
            known = dict(said)
            # what its own records show it held: a reveal, every commitment (it waited for
            # them); a move, every reveal (the table is laid from them); only to tell which
            # devices it has not heard of (its own word says what it lost since)
            for kind, held in (("reveal", last["commit"]), ("act", last["reveal"])):
                if any(r.kind == kind for (d, _), r in self.records.items() if d == device):
                    for signer, q in held.items():
                        known[signer] = max(known.get(signer, 0), q)
            due: dict[str, int] = {}
            steps = [at for (signer, q), at in acts if known.get(signer, 0) >= q]
            for signer, q in self.sources[: max(steps, default=0)]:
                due[signer] = max(due.get(signer, 0), q)
            # a device holds what it signed (its head may be older than some of it), unless
            # it said it lost records: then all of its held here
            due.pop(device, None)
            if device in self._lost:
                due[device] = have.get(device, 0)
            for signer, q in (self._resending or {}).get(device, {}).items():
                due[signer] = max(due.get(signer, 0), q)
            # a part of a batch of ours, held by a device that may not open the link that
            # carried it, until a link of ours sent since that head carried the rest
            if self._cut_held(device) and (self._answered or {}).get(device) != said:
                cut = said[self.me]
                due[self.me] = max(due.get(self.me, 0), self._same_batch(self.me, cut))
            unheard = {s: have.get(s, 0) for s in self.keys if not known.get(s, 0)}
            for ranges, found, held_then in ((shown, due, said), (maybe, unheard, known)):
                for signer, q in found.items():
                    low, high = held_then.get(signer, 0), min(q, have.get(signer, 0))
                    if low < high:
                        ranges.setdefault(device, {})[signer] = (low, high)
        return shown, maybe

    def _opens_every_join(self, device: str) -> bool:
        """The creator admits every joiner: it opens each join's own link, so a batch of a
        joiner's it holds in part is on its way to it, and it need not be sent the joins."""
        return device == self.creator

    def _cut_held(self, device: str) -> bool:
        """Does `device`'s head (as held here) show it holding part of a batch of ours, the
        rest held here? (The creator opens every join: the rest is on its way to it.)"""
        cut = self.heads.get(device, {}).get(self.me, 0)
        return (
            bool(cut)
            and not self._opens_every_join(device)
            and (self._same_batch(self.me, cut) > cut)
        )

    def _same_batch(self, device: str, q: int) -> int:
        """The last of `device`'s records held here that came in one batch with its record
        `q` (one signature over them: they first went out in one link); `q` if none."""
        record = self.records.get((device, q))
        while record is not None and record.signature is not None:
            after = self.records.get((device, q + 1))
            if after is None or after.signature != record.signature:
                break
            q += 1
        return q

    def _cut_batches(self) -> set[tuple[str, int]]:
        """(device, q): we hold that device's records up to q, and q's batch held more records
        of its than we hold (its digest list names them; one is its head). A link carried
        some of a batch on without the rest (the rest would have added a part): in a group
        chat whose links are opened in order this never happens (the batch's own link comes
        first), so the rest is not on its way: its signer must be told (`Sending._after`).
        The creator opens every join: the rest is on its way to it (`_lacking` tells its
        signer nothing of the creator's cut batches; where that link was lost, "Show the link
        again" brings it, as for any link lost)."""
        have, cut = self._have(), set[tuple[str, int]]()
        if self._opens_every_join(self.me):
            return cut
        for device, q in have.items():
            record = self.records.get((device, q))
            if device == self.me or record is None or record.signature is None:
                continue
            parts = proof_parts(record.signature)
            if parts is not None and len(parts[1]) - 1 > self._held_of(device, parts[1]):
                cut.add((device, q))
        return cut

    def _held_of(self, device: str, digests: list[bytes]) -> int:
        """How many of a batch's records (by their digests) are held here, under whatever
        proof each came (a device sends its records again under its newest link's batch:
        `Sending._batches`). Each record's digest is worked out once (in memory)."""
        if self._digested is None:
            self._digested = {}
        wanted, held = set(digests), 0
        for (d, q), r in self.records.items():
            if d != device:
                continue
            known = self._digested.get((d, q))
            if known is None or known[0] is not r:  # (a record refused whole is let go)
                known = self._digested[(d, q)] = (r, record_digest(r.payload(self.match_id)))
            held += known[1] in wanted
        return held

    def _differs(self, head: Signed) -> str:
        """The sender's log, by its signed head, differs from ours at a step we both have: one
        device was shown two different moves (a fork whose second record never reached us).
        Our next link then carries our log from that step, so the sender can see both and name
        who."""
        match, n, hash_ = self.match, head.body["n"], head.body["h"]
        if match is None or head.device == self.me or not isinstance(n, int):
            return ""
        if not 0 < n <= match.step or match.entries[n - 1].hash[:16] == hash_:
            return ""
        self._resend_from(head.device, n)
        who = self._device_name(head.device, self.held)
        return (
            f"{who} holds a different move {n} from this device's: someone showed the two "
            "devices different moves. Send this device's next link to everyone: it carries "
            "this device's moves from there, so the devices can tell which is true."
        )

    def _resend_from(self, device: str, n: int) -> None:
        """Our next links carry again, to `device`, the log from its entry `n` on (where its
        log and ours part): enough to show both versions, never the whole game again (a false
        head would otherwise make this device resend everything)."""
        known = self.heads.setdefault(device, {})
        if self._resending is None:
            self._resending = {}
        again = self._resending.setdefault(device, {})
        for source, q in self.sources[n - 1 :]:
            if q - 1 < known.get(source, 0):
                known[source] = q - 1
            again[source] = max(again.get(source, 0), q)

    def _note_head(self, head: Signed) -> None:
        """What the sender holds: only ever more (an old link opened late tells nothing new;
        its lower count of the sender's own records once read as a loss, and every device
        carried those records back to it, which split Telepathic's links). A lower count of
        its own records is a loss only from a head marked `LOST` (a device that lost records it
        signed, a save refused or an older copy, learns it from another's head and marks its
        heads until it holds them again), or from a head that names more of another device
        than any head of the sender before (no old link does: a page from before the mark,
        reloaded, that took a newer link). Then our next links carry them back to it, until
        its head holds as many as we do. A head noted before, word for word (an old link
        opened again), is not read again."""
        if head.device == self.me:
            return
        if self._heads_noted is None:
            self._heads_noted = {}
        heard = self._heads_noted.setdefault(head.device, {})
        said = canonical_json({"q": head.seq, "body": head.body})
        if said in heard:
            return
        heard[said] = None
        while len(heard) > HEADS_NOTED:
            del heard[next(iter(heard))]
        have, known = head.body["have"], self.heads.setdefault(head.device, {})
        if not isinstance(have, dict):
            return
        sender, own = head.device, have.get(head.device)
        newer = False
        for device, q in have.items():
            if type(q) is int and q > known.get(str(device), 0):
                newer = newer or device != sender
                known[str(device)] = q
        if type(own) is not int:
            return
        if head.body["h"] == LOST or (newer and own < known.get(sender, 0)):
            known[sender] = min(own, known.get(sender, own))
            self._lost = self._lost | {sender}
        elif own >= self._have().get(sender, 0):  # it holds all of its that we do
            self._lost = self._lost - {sender}

    def _note_order(self, records: tuple[Signed, ...], head: Signed) -> None:
        """Did the sender's head name records of a third device that we still lack after
        taking its link? In a chat whose links every device opens in the order sent this never
        happens (the record's own link came first); it shows that this device opens them out
        of order, or joined from the invite alone: what a device only may lack then need not
        reach it by links opened in order, and is asked for too (`Sending._maybe_news`). And
        which devices a link carrying our join on went to: those its sender's head names (they
        were in the group when it went; a part of our batch left out shows in their heads)."""
        have, said = self._have(), head.body["have"]
        if head.device == self.me or not isinstance(said, dict):
            return
        for device, q in said.items():
            if device not in (self.me, head.device) and type(q) is int and q > have.get(device, 0):
                self._out_of_order = True
        if any(r.device == self.me and r.seq == 1 for r in records):
            self._join_carried = (self._join_carried or frozenset()) | {str(d) for d in said}

    def _unbounded(self, fresh: list[Signed]) -> str:
        """A link whose records from one device could never count (moves void on arrival, or
        waiting far past what a game keeps waiting), more of them than honest play ever makes:
        a sentence refusing it, so one link cannot fill the save; else ""."""
        for device in {r.device for r in fresh if r.device != self.me}:
            consumed = self.consumed.get(device, 0)
            taken = set(self.sources)
            void = [
                r
                for r in fresh
                if r.device == device
                and r.kind == "act"
                and r.seq <= consumed
                and (r.device, r.seq) not in taken
            ]
            waiting = [q for d, q in self.records if d == device and q > consumed]
            dues = [
                str(r.body["on"])
                for (d, _), r in self.records.items()
                if d == device and r.kind == "due"
            ]
            twice = len(set(dues)) < len(dues)  # one `due` at most on each seat
            if (
                len(void) > VOID_MOST
                or len(waiting) > WAITING_MOST
                or len(dues) > DUE_MOST
                or twice
            ):
                who = self._device_name(device, self.held)
                return (
                    f"That link carries more moves from {who} than a game can use "
                    f"({len(void)} that cannot count, {len(waiting)} waiting): refused, nothing "
                    "changed."
                )
        return ""

    def _found_fork(self, fork: Fork) -> str:
        """Keep a proven fork (once) and say what it proves, without calling a player who may
        have lost a save a cheater."""
        if not any(f.to_json() == fork.to_json() for f in self.forks):
            self.forks.append(fork)
        who = self._device_name(fork.device, self.held)
        return (
            f"{who} signed two different entries for its step {fork.first.seq}: both are kept "
            "as proof and this link is refused. (A device that lost its saved game and played "
            "on from an older copy does this too.)"
        )

    def _behind(self) -> str:
        """This device signed records it no longer holds (its last save was refused, then the
        page reloaded), as another device's signed head shows: it signs nothing new until a
        link brings them back, or a second record under one number would read as a fork."""
        known = max((have.get(self.me, 0) for have in self.heads.values()), default=0)
        if known <= self._mine():
            return ""
        return (
            f"This device lost its last {known - self._mine()} entr"
            f"{'y' if known - self._mine() == 1 else 'ies'} (its save was refused): open the "
            "latest link from another player, which brings them back, before playing on."
        )

    def _gap(self) -> str:
        """A device whose later records are here but an earlier one is not."""
        for device in sorted(self.keys):
            q = self.consumed.get(device, 0)
            later = [s for d, s in self.records if d == device and s > q + 1]
            if later and (device, q + 1) not in self.records:
                who = self._device_name(device, self.held)
                return f"Waiting for an earlier link from {who} (its entry {q + 1})."
        return ""

    def unsent(self) -> bool:
        """Are there records of ours the player has not said they sent? (Until they do, the
        screen keeps asking, even when a later link brings news but nothing new of ours.)"""
        return self._mine() > self.sent_upto

    def mark_sent(self) -> None:
        """The player sent the link(s) shown: every record of ours up to now, and the rest of
        every batch of ours a device's head then showed held in part (`_lacking`)."""
        self.sent_upto = self._mine()
        answering, self._answering = self._answering or {}, None
        self._answered = {**(self._answered or {}), **answering}
        # a newer head of theirs that still holds part (our link lost) asks for a link again
        self._offered = {
            o for o in self._offered or () if (o[0], o[1]) not in {(d, self.me) for d in answering}
        }
