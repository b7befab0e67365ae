"""One device's side of a game played by link: its records, its secrets, and the match they make.

There is no host. Each device appends signed records (by_link/records.py) for the seats it holds
and sends them in links; every device keeps every record it is given, checks it (signature,
match, the sender's own numbering, the seat it speaks for), and derives the match from the whole
set the same way: each device's records are read in its own order, and the log's next entry is
the record of the seat the game waits on (the lowest, when it waits on several: a step several
seats take at once is sealed by each whenever it likes and goes into the log in seat order). So
every device that holds the same records holds the same game, whatever order links came in.

The start, before the first move: the creator's invite carries the set-up, its key and its seats'
commitments; each player's join carries its key, seat and commitment; shared decks are dealt lock
by lock (match/dealing.py); once every commitment is in, each seat reveals; the seed is drawn as
in live play (fair-play.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ParamSpec

from parlour.bots.base import LEVELS
from parlour.errors import MalformedInput, ParlourError, ProtocolError
from parlour.fair.commit import Opening
from parlour.fair.encoding import Json, check_text
from parlour.fair.signing import (
    DeviceKey,
    Fork,
    Signed,
    Signer,
    Verify,
    invite_code,
    table_code,
)
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.match.bot_seats import bot_name, next_decision
from parlour.match.by_link import packing
from parlour.match.by_link.admission import IGNORED, Admission
from parlour.match.by_link.out_of_turn import OutOfTurn
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import DONE, WAIT
from parlour.match.by_link.telling import Telling
from parlour.match.by_link.timing import duration
from parlour.match.config import MatchConfig, clean_name, person_name
from parlour.match.match import declared
from parlour.match.signed_replay import Signatures, of_link
from parlour.match.table import new_match_id
from parlour.numbers import whole

P = ParamSpec("P")
FORMAT = "psi-parlour/by-link"
FORMAT_VERSION = 1


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


def _refusal_as_outcome(
    make: Callable[P, tuple[LinkPlay, Outcome]],
) -> Callable[P, tuple[LinkPlay | None, Outcome]]:
    """A maker that raises a refusal gives None and its sentence instead, so a bad set-up from
    the page is told, never thrown."""

    @functools.wraps(make)
    def made(*args: P.args, **kwargs: P.kwargs) -> tuple[LinkPlay | None, Outcome]:
        try:
            return make(*args, **kwargs)
        except ParlourError as error:
            return None, Outcome(error.sentence, ok=False)

    return made


class LinkPlay(Admission, Telling, OutOfTurn):
    """One device's game by link. Made by `create` (the creator) or `join` (everyone else);
    `take_link`, `act` and `claim` change it; `to_json` and `from_json` keep it in storage."""

    # -- making ----------------------------------------------------------------------------

    @classmethod
    @_refusal_as_outcome
    def create(
        cls,
        game_id: str,
        names: list[str],
        variant: dict[str, Json],
        seats: tuple[int, ...],
        signer: Signer,
        verify: Verify,
        now: float,
        base: str,
        bots: Mapping[int, str] | None = None,
        hours_per_move: float = 0,
        private: Mapping[int, Mapping[str, Json]] | None = None,
    ) -> tuple[LinkPlay, Outcome]:
        """The creator's device: the set-up, its seats (its own and any bots'), and the invite
        link to send to the group (with the first commitments in it); or None and the reason a
        set-up cannot be played."""
        game = GAMES.get(game_id)
        if game is None:
            raise MalformedInput("There is no such game.")
        bots = dict(bots or {})
        held = tuple(sorted(set(seats) | set(bots)))
        clean = [
            bot_name(clean_name(n, "Bot")) if i in bots else person_name(n, f"Player {i + 1}")
            for i, n in enumerate(names)
        ]
        if any(level not in LEVELS for level in bots.values()):
            raise MalformedInput("A bot's level is not one this page knows.")
        if not held or any(not 0 <= s < len(names) for s in held) or len(held) == len(names):
            raise MalformedInput("Keep at least one seat for another device, and hold one.")
        checked = {"game": game_id, "match_id": "m-checking", "seats": clean, "variant": variant}
        game.check_setup(MatchConfig.from_json(checked).setup())
        match_id = new_match_id()
        play = cls(match_id, f"s{held[0]}", signer, verify, base, now)
        play.private = {s: dict(v) for s, v in (private or {}).items()}
        body: dict[str, Json] = {
            "g": game_id,
            "n": list(clean),
            "v": dict(variant),
            "b": {str(s): level for s, level in bots.items()},
            "h": list(held),
            "k": DeviceKey.of(signer).to_json(),
            "l": int(hours_per_move * 3600),
            "t": int(now),
        }
        play._prepare(held)
        play._append("open", body)
        play._run()
        if play.stopped:
            raise MalformedInput(play.stopped)
        return play, play._after("Send this invite to the other players.")

    @classmethod
    def join(
        cls,
        text: str | list[str],
        seat: int,
        name: str,
        signer: Signer,
        verify: Verify,
        now: float,
        base: str,
        private: Mapping[str, Json] | None = None,
    ) -> tuple[LinkPlay | None, Outcome]:
        """A player's device from an invite link: its seat, name and key, and its first link."""
        try:
            packet = packing.read_invite([text] if isinstance(text, str) else list(text))
        except ParlourError as error:
            return None, Outcome(error.sentence, ok=False)
        play = cls(packet.match_id, f"s{seat}", signer, verify, base, now)
        taken = play._take(packet)
        if not taken.ok:
            return None, taken
        if play.game is None:
            return None, Outcome("That link is not an invite: it has no set-up.", ok=False)
        if not 0 <= seat < len(play.names) or play.device_of(seat) is not None:
            return None, Outcome(f"Seat {seat + 1} is not free in that game.", ok=False)
        play.private = {seat: dict(private or {})}
        play._prepare((seat,))
        body: dict[str, Json] = {
            "s": seat,
            "n": person_name(name, f"Player {seat + 1}"),
            "k": DeviceKey.of(signer).to_json(),
            "t": int(now),
        }
        play._append("join", body)
        play._run()
        if play.stopped:
            return None, Outcome(play.stopped, ok=False)
        return play, play._after(f"You sit as {play.name(seat)}. Send this link to the others.")

    # -- links out -------------------------------------------------------------------------

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

    # -- links in --------------------------------------------------------------------------

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
        after = self._after(self._behind() or taken.sentence, before)
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
            listed = ", ".join(str(i) for i in missing)
            return f"Part {read.index} of {read.count} of a link: waiting for part(s) {listed}."
        data = packing.join_parts({i: parts[i] for i in range(1, read.count + 1)}, read.tag)
        del self.parts[read.tag]
        return packing.unpack(data)

    def _take(self, packet: packing.Packet) -> Outcome:
        """Check every record of a packet, then keep the new ones; all or nothing."""
        if packet.match_id != self.match_id:
            return Outcome(
                f"That link is for another game ({packet.match_id[:20]}), not this one.", False
            )
        taken, heard = self._keep(list(packet.records), packet.head)
        if taken.ok and heard:
            self._note_head(packet.head)
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
                if record.seq == 1:
                    self.keys.pop(record.device, None)
                    self.held.pop(record.device, None)
            self.stopped = stopped
            self._rebuild()
            return Outcome(too_many, ok=False)
        if self.stopped and not stopped:
            return Outcome(self.stopped, ok=False)
        return Outcome(stranger + self._news(step_before, fresh), since=step_before)

    # -- the derivation ----------------------------------------------------------------------

    def _rebuild(self) -> None:
        """Derive everything again from the records (a time claim raced a move)."""
        self._reset()
        self._run()

    def _run(self) -> None:
        """Read every device's records in its own order as far as they go, then take the steps
        now due from our own seats, until nothing moves."""
        for _ in range(100_000):
            progress = False
            for device in sorted(self.keys):
                record = self.records.get((device, self.consumed.get(device, 0) + 1))
                if record is not None and self._handle(record) == DONE:
                    self.consumed[device] = record.seq
                    progress = True
            if not progress and not self._own_steps():
                return

    def _own_steps(self) -> bool:
        """Our due steps; one we cannot take (a deck of ours this page refuses) stops the game
        here with its sentence, instead of raising."""
        try:
            return self._my_due_steps()
        except ParlourError as error:
            self.stopped = f"{error.sentence} The game cannot go on from this device."
            return False

    def _handle(self, record: Signed) -> str:
        if self.stopped:
            return WAIT
        handler = {
            "open": self._on_open,
            "join": self._on_join,
            "commit": self._on_commit,
            "lock": self._on_deal_step,
            "unlock": self._on_deal_step,
            "reveal": self._on_reveal,
            "act": self._on_act,
            "claim": self._on_claim,
            "seen": self._on_seen,
            "due": self._on_due,
            "openings": self._on_openings,
        }[record.kind]
        try:
            return handler(record)
        except ParlourError as error:
            self.stopped = f"{error.sentence} The game cannot go on; the entry is kept as proof."
        except (ValueError, TypeError, KeyError, IndexError):
            who = self._device_name(record.device, self.held)
            self.stopped = (
                f"{who} signed an entry (its {record.seq}) this page cannot read: the game "
                "cannot go on; the entry is kept as proof."
            )
        return WAIT

    def _on_act(self, record: Signed) -> str:
        match = self.match
        if match is None:
            return WAIT
        body = record.body
        seat, at = number_in(record, "s"), number_in(record, "at")
        if at > match.step:
            return WAIT
        cut = self.cut.get(at)
        if at < match.step and cut is not None and cut != seat:
            self.notes.append(f"{self.name(seat)}'s move came after {self.name(cut)}'s: void.")
            return DONE
        due = sorted(match.game.to_move(match.state))
        out_of_turn = at == match.step and seat not in due and match.result() is None
        if not out_of_turn and (
            match.result() is not None
            or any(
                seat not in match.game.to_move(match.state_at(k)) for k in range(at, match.step + 1)
            )
        ):
            self.notes.append(f"{self.name(seat)}'s move {at + 1} came too late.")
            return DONE
        if (seat != due[0] and not out_of_turn) or self._ahead(record):
            return WAIT
        if self._claim_beats(record, match.step) or not self._goes_first(record):
            return WAIT
        if at == match.step and body["h"] != match.head()[:16]:
            raise ProtocolError(f"{self.name(seat)}'s device saw another game (move {at + 1}).")
        if declared(body["a"]):
            self.notes.append(f"{self.name(seat)}'s move was refused: a move cannot end the game.")
            return DONE
        submitted = match.submit_json(seat, body["a"])
        if not submitted.ok:
            self.notes.append(f"{self.name(seat)}'s move was refused: {submitted.reason}")
            return DONE
        if out_of_turn:
            self.cut[at] = seat
        self._took(record)
        self._infer(record.device, at)
        return DONE

    def _infer(self, device: str, at: int) -> None:
        """A device that sealed a move at step `at` held every record the log took before it:
        the links to it need not carry them again (its head may be older than its move)."""
        if device == self.me:
            return
        known = self.heads.setdefault(device, {})
        for source, q in self.sources[:at]:
            if q > known.get(source, 0):
                known[source] = q

    # -- time --------------------------------------------------------------------------------

    # -- the end -----------------------------------------------------------------------------

    def _on_openings(self, record: Signed) -> str:
        match = self.match
        if match is None or match.result() is None:
            return WAIT
        opened = record.body["o"]
        assert isinstance(opened, dict)
        for key, items in opened.items():
            seat = whole(key)
            if seat not in self.held.get(record.device, ()) or not isinstance(items, list):
                raise ProtocolError(
                    f"{record.device} showed the hidden choices of a seat it does not hold."
                )
            assert seat is not None
            if seat in self.openings:
                raise ProtocolError(f"{self.name(seat)}'s hidden choices were shown twice.")
            self.openings[seat] = [Opening.from_json(o) for o in items]
        self._maybe_audit()
        return DONE

    # -- our own steps -----------------------------------------------------------------------

    def _my_due_steps(self) -> bool:
        """Append the records now due from our seats (deal steps, commitments, reveals,
        automatic steps, bots' moves, our openings); True if we appended any."""
        if self._halted() or self.game is None or not self.local or self._behind():
            return False
        if self._mine() > self.consumed.get(self.me, 0):
            return False
        if self.table is None:
            return self._start_steps()
        match = self.table.match
        if match.result() is not None:
            if any(s not in self.openings for s in self.local) and not self._opened():
                opened: dict[str, Json] = {
                    str(s): [o.to_json() for o in self.table.openings(s)] for s in self.local
                }
                self._append("openings", {"o": opened})
                return True
            return False
        for seat in sorted(match.game.to_move(match.state)):
            if seat not in self.local:
                continue
            store = self.stores[seat]
            auto = match.game.auto_action(match.state, seat, store)
            if auto is not None:
                self._act(seat, auto)
                return True
            if str(seat) in self.bots:
                decision = next_decision(self.table, {seat: self.bots[str(seat)]})
                if decision is not None and decision.choice is not None:
                    self._act(decision.seat, decision.choice)
                    return True
            return self._note_seen(seat)  # a person decides: nothing of ours after theirs
        return False

    def _opened(self) -> bool:
        return any(r.kind == "openings" for (d, _), r in self.records.items() if d == self.me)

    def _act(self, seat: int, choice: object) -> str | None:
        """Seal `choice` for our `seat` and append it; the engine's sentence if refused."""
        table = self.table
        assert table is not None
        match = table.match
        try:
            action = table.game.seal(match.state, seat, choice, self.stores[seat])
            action_json = table.game.action_to_json(action)
            table.game.apply(match.state, seat, action)  # refused here, before it is signed
        except ParlourError as error:
            return error.sentence
        except (ValueError, KeyError):
            return "That choice cannot be made now."
        body: dict[str, Json] = {
            "s": seat,
            "a": action_json,
            "at": match.step,
            "h": match.head()[:16],
            "t": int(self.now),
        }
        self._append("act", body)
        return None

    # -- what the screens call ---------------------------------------------------------------

    def act(self, seat: int, choice: object, now: float) -> Outcome:
        """Our player's move for `seat` (a choice as `Table.legal` lists it): sealed here,
        signed, and the link(s) to send. Refused with a sentence, changing nothing."""
        self.now = max(self.now, now)
        match = self.match
        if self._halted():
            return Outcome(self._halted(), ok=False)
        if match is None:
            return Outcome("The game has not started yet: " + self.waiting(), ok=False)
        if seat not in self.local:
            return Outcome(f"{self.name(seat)} is not played on this device.", ok=False)
        if self._behind():
            return Outcome(self._behind(), ok=False)
        if match.result() is not None:
            return Outcome("The game is over.", ok=False)
        if self._mine() > self.consumed.get(self.me, 0):
            return Outcome("Your last move waits for the others' first: send it.", ok=False)
        in_turn = seat in match.game.to_move(match.state)
        first = min((s for s in match.game.to_move(match.state) if s in self.local), default=seat)
        if first != seat:
            return Outcome(f"{self.name(first)} acts first on this device.", ok=False)
        before = self._mine()
        refused = self._act(seat, choice)  # out of turn: the game's rules say if it may
        if refused is not None and not in_turn:
            return Outcome(f"It is not {self.name(seat)}'s turn. {self.waiting()}", ok=False)
        if refused is not None:
            return Outcome(refused, ok=False)
        self._run()
        return self._after("Send this link to the others.", before)

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
        return packing.signature_checks(packet, self.keys)

    def tick(self, now: float) -> Outcome:
        """The clock moved on (the page opened, or a minute passed): a claim of time that was
        ahead of this device's clock may now count."""
        self.now = max(self.now, now)
        before, step = self._mine(), self.match.step if self.match is not None else 0
        self._run()
        return self._after(self._news(step, []), before)

    def claim(self, now: float) -> Outcome:
        """Claim the game when the seat it waits on is past the time per move: for a move, for
        its seed reveal once every commitment is in, or for its seals at the end."""
        self.now = max(self.now, now)
        if self._halted():
            return Outcome(self._halted(), ok=False)
        owed = self.owed() if self.limit else None
        if owed is None and self.limit and self.match is None:
            return Outcome(
                "The time per move counts from the first move, from your link that starts the "
                "game, or from when a player's cards were dealt to them: before that nobody can "
                f"be claimed against. {self.waiting()}",
                ok=False,
            )
        if owed is None:
            return Outcome("There is no time per move to claim in this game now.", ok=False)
        seat, what, since = owed
        if seat in self.local:
            return Outcome("The game waits on you, not on another player.", ok=False)
        left = since + self.limit - int(now)
        if left > 0:
            return Outcome(f"{self.name(seat)} still has {duration(left)} for this {what}.", False)
        step = self.match.step if self.match is not None else 0
        body: dict[str, Json] = {"s": seat, "by": self.local[0], "at": step, "t": int(now)}
        before = self._mine()
        self._append("claim", body)
        self._run()
        said = f"You claimed the game: {self.name(seat)} ran out of time for their {what}."
        return self._after(said, before)

    # -- storage -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Json]:
        """Everything this device keeps of the game (its secrets included: for its own storage
        only). The key pair is not here: the page keeps it apart, not exportable."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "match": self.match_id,
            "me": self.me,
            "base": self.base,
            "records": [r.to_json() for _, r in sorted(self.records.items())],
            "heads": {d: dict(h) for d, h in self.heads.items()},
            "parts": {t: {str(i): p for i, p in ps.items()} for t, ps in self.parts.items()},
            "stores": {str(s): st.to_json() for s, st in self.stores.items()},
            "secrets": {str(s): [a.hex(), b.hex()] for s, (a, b) in self.secrets.items()},
            "private": {str(s): dict(v) for s, v in self.private.items()},
            "dealt": self.dealt_here,
            "forks": [f.to_json() for f in self.forks],
            "sent": self.sent_upto,
            "compared": self.compared,
            "last_link_at": int(self.last_link_at),
        }

    def _proof(self, saved: object) -> Fork:
        """A fork kept in a save, read back as input: two different records under one number
        of one device, each signed by that device's key."""
        if not isinstance(saved, dict):
            raise MalformedInput("That saved game's proof of a fork is damaged.")
        first, second = Signed.from_json(saved.get("first")), Signed.from_json(saved.get("second"))
        key = self.keys.get(first.device)
        if (
            key is None
            or (first.device, first.seq) != (second.device, second.seq)
            or saved.get("device") != first.device
            or first.same_content(second)
            or not all(r.verified_by(key, self.match_id, self.verify) for r in (first, second))
        ):
            raise MalformedInput("That saved game's proof of a fork does not hold.")
        return Fork(first.device, first, second)

    @classmethod
    def from_json(cls, data: object, signer: Signer, verify: Verify, now: float) -> LinkPlay:
        """A kept game read back as input: every record checked again, then derived again."""
        check_text(data)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedInput("That is not a saved game by link.")
        if data.get("version") != FORMAT_VERSION:
            raise MalformedInput("That saved game by link is of another version.")
        if not packing.is_match_id(str(data.get("match"))):
            raise MalformedInput("That saved game by link names no match.")
        try:
            play = cls(str(data["match"]), str(data["me"]), signer, verify, str(data["base"]), now)
            records = [Signed.from_json(r) for r in data["records"]]
            play.stores = {int(s): PrivateStore.from_json(v) for s, v in data["stores"].items()}
            play.secrets = {
                int(s): (bytes.fromhex(v[0]), bytes.fromhex(v[1]))
                for s, v in data["secrets"].items()
            }
            play.private = {int(s): dict(v) for s, v in data["private"].items()}
            play.dealt_here = bool(data["dealt"])
            sent = data.get("sent")
            play.compared = data.get("compared") is True
            play.last_link_at = float(data["last_link_at"])
            play.parts = {
                str(t): {int(i): str(p) for i, p in ps.items()} for t, ps in data["parts"].items()
            }
            heads = {
                str(d): {str(k): int(v) for k, v in h.items()} for d, h in data["heads"].items()
            }
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise MalformedInput("That saved game by link is damaged.") from None
        if any(st.context.match_id != play.match_id for st in play.stores.values()):
            raise MalformedInput("That saved game's secrets are of another game.")
        mine = [r for r in records if r.device == play.me]
        if mine and DeviceKey.from_json(mine[0].body.get("k")) != DeviceKey.of(signer):
            raise MalformedInput("That saved game was signed with another key.")
        taken, _ = play._keep(records, None)
        if not taken.ok:
            raise MalformedInput(f"That saved game by link is damaged: {taken.sentence}")
        play.heads = heads
        play.sent_upto = sent if type(sent) is int else play._mine()  # older saves: as if sent
        forks = data.get("forks", [])
        if not isinstance(forks, list):
            raise MalformedInput("That saved game's proof of a fork is damaged.")
        play.forks = [play._proof(f) for f in forks]
        return play
