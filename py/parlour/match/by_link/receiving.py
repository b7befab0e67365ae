"""What a device's game by link takes in: a link, or a part of one, in any order and any number
of times. Its records are checked whole first (by_link/admission.py), kept all or nothing, and the
game is derived again as far as they go; a proven fork, a stranger's records and a link that
carries more than a game can need are refused or dropped, and the player told.
"""

from __future__ import annotations

from parlour.errors import MalformedInput, ParlourError, ProtocolError
from parlour.fair.signing import Signed
from parlour.match.by_link import packing
from parlour.match.by_link.admission import IGNORED, Admission
from parlour.match.by_link.deriving import Deriving
from parlour.match.by_link.sending import Outcome, Sending
from parlour.words import and_list


class Receiving(Admission, Deriving, Sending):
    """Links in: read, checked, kept, and the game derived again."""

    def take_link(self, text: str, now: float) -> Outcome:
        """Take in a link (or a part of one) given to this device: any order, any number of
        times. Bad input changes nothing and gets a sentence; new records of ours that follow
        (a reveal, a bot's move, an automatic step) come back as links to send."""
        self.now = max(self.now, now)
        before = self._mine()
        try:
            packet = self._whole(text)
        except packing.NewerVersion as error:
            return Outcome(error.sentence, ok=False)
        except ParlourError as error:
            return Outcome(error.sentence, ok=False)
        if isinstance(packet, str):
            return Outcome(packet)
        match = self.match
        self.arrived_after = [e.hash for e in match.entries] if match is not None else None
        self.receiving = True
        try:
            taken = self._take(packet)
        finally:
            self.receiving, self.arrived_after = False, None
        if not taken.ok:
            return taken
        if taken.fresh:
            self.last_link_at = now
        after = self._after(self._behind() or taken.sentence, before, taken=True)
        after.since, after.fresh = taken.since, taken.fresh
        return after

    def _whole(self, text: str) -> packing.Packet | str:
        """The packet of a link, or a sentence while a split link still lacks parts."""
        read = packing.read_fragment(text)
        if isinstance(read, str):
            return packing.unpack(read)
        parts = self.parts.setdefault(read.tag, {})
        parts[read.index] = read.data
        missing = [i for i in range(1, read.count + 1) if i not in parts]
        if missing:
            return self.missing_parts(read, missing)
        data = packing.join_parts({i: parts[i] for i in range(1, read.count + 1)}, read.tag)
        del self.parts[read.tag]  # taken or refused whole: its parts are kept no longer
        packet = packing.unpack(data)
        if read.sender and (read.sender, read.match_id) != (packet.head.device, packet.match_id):
            raise MalformedInput(
                "That link is damaged: its parts say they come from another device than the one "
                "that sent it."
            )
        return packet

    def _take(self, packet: packing.Packet) -> Outcome:
        """Check every record of a packet, then keep the new ones; all or nothing."""
        if packet.match_id != self.match_id:
            return Outcome(
                f"That link is for another game ({packet.match_id[:20]}), not this one.", False
            )
        taken, heard = self._keep(list(packet.records), packet.head)
        if taken.ok and heard:
            self._note_head(packet.head)
            self._note_order(packet.records, packet.head)
            differs = self._differs(packet.head)
            if differs:
                taken.sentence = f"{taken.sentence} {differs}"
        return taken

    def _keep(self, records: list[Signed], head: Signed | None) -> tuple[Outcome, bool]:
        """Check records (and the head that came with them), then keep the new ones; a
        stranger's records are dropped and said so, a proven fork kept and the link refused.
        The flag: the head is the word of one of the game's devices (not a stranger's)."""
        try:
            checked = self._check_packet(records, head)
        except ProtocolError as error:
            return Outcome(error.sentence, ok=False), False
        except MalformedInput as error:
            return Outcome(error.sentence, ok=False), False
        if checked.fork is not None:
            return Outcome(self._found_fork(checked.fork), ok=False), False
        return self._kept(checked.fresh, checked.ignored, head is not None), checked.head_ok

    def _kept(self, fresh: list[Signed], ignored: int, bounded: bool = False) -> Outcome:
        """Keep checked records and derive the game again as far as they go; from a link
        (`bounded`), not past what a game can need (`_unbounded`)."""
        stranger = IGNORED + " " if ignored else ""
        for record in fresh:
            if record.seq == 1:
                self._register(record)
            self.records[(record.device, record.seq)] = record
        if not fresh:
            step = self.match.step if self.match is not None else 0
            said = stranger or "You had everything in that link already: nothing changed."
            return Outcome(said.strip(), since=step, fresh=False)
        step_before = self.match.step if self.match is not None else 0
        stopped = self.stopped
        if (
            self._timed_out()
            or any(r.kind == "claim" for r in fresh)
            or self._crossed(fresh)
            or self.forfeit is not None
            or self.withheld
        ):
            self._rebuild()  # a claim of time and a late move may have crossed, or two moves
        else:
            self._run()
        too_many = self._unbounded(fresh) if bounded else ""
        if too_many:
            for record in fresh:  # none of it is kept: the game is as it was
                del self.records[(record.device, record.seq)]
                if record.seq == 1 and self.live is None:
                    self.keys.pop(record.device, None)
                    self.held.pop(record.device, None)
            self.stopped = stopped
            self._rebuild()
            return Outcome(too_many, ok=False)
        if self.stopped and not stopped:
            return Outcome(self.stopped, ok=False)
        return Outcome(stranger + self._news(step_before, fresh), since=step_before)

    def missing_parts(self, read: packing.Part, missing: list[int]) -> str:
        """Which parts of a split link are still to come, and whose send they are of (as the
        part says: its parts are checked once they are all in)."""
        listed = and_list([str(i) for i in missing])
        plural = "s" if len(missing) > 1 else ""
        return (
            f"Part {read.index} of {read.count} of {self.whose(read)}: waiting for "
            f"part{plural} {listed} of the same send."
        )

    def whose(self, read: packing.Part) -> str:
        """A part's link in words: "a link that says it is from Bo's device" (the device the
        part names, unchecked until every part is in and the joined link's head is read; if
        it is one of this game's), else "a link"."""
        if read.match_id != self.match_id or read.sender not in self.keys:
            return "a link"
        return f"a link that says it is from {self._device_name(read.sender, self.held)}"

    def checks(self, text: str) -> list[packing.Check]:
        """The signatures `take_link(text)` will check (none for a part that does not complete
        a link, or for text that is no link): for a page that checks them first."""
        try:
            read = packing.read_fragment(text)
            if isinstance(read, str):
                packet = packing.unpack(read)
            else:
                parts = {**self.parts.get(read.tag, {}), read.index: read.data}
                if any(i not in parts for i in range(1, read.count + 1)):
                    return []
                wanted = {i: parts[i] for i in range(1, read.count + 1)}
                packet = packing.unpack(packing.join_parts(wanted, read.tag))
        except ParlourError:
            return []
        return packing.signature_checks(packet, self.keys) + self.live_checks(packet.records)
