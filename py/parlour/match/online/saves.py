"""Saving a session: all a reload needs, written as JSON after every change.

A save is written after every change (ui/online/app.py keeps it in the browser's storage). It
holds what this device could not get again from the others: its private stores and its random
bytes for the seed (so it commits to the same again), its players' own choices (an ESPEERS deck)
and its moves on their way; and the public record so far: the seed steps, the log, the openings,
the verdicts. Connections are not saved: a loaded session has every link lost. Reading a save
back, with nothing trusted on the way, is loading.py's (`from_json` here starts it).
"""

from __future__ import annotations

from typing import NotRequired, Self, TypedDict

from parlour.errors import MalformedInput, ParlourError
from parlour.fair.encoding import Json, check_text
from parlour.match.online.device import Crypto
from parlour.match.online.loading import Loading
from parlour.match.wire import ACK
from parlour.match.wire_bodies import Limits

FORMAT = "psi-parlour/online"
FORMAT_VERSION = 1


class SavedSigning(TypedDict):
    """Signed play: what a reload needs to go on signing and checking (the key pair itself is
    the page's, kept apart: a WebCrypto key never leaves it)."""

    seq: int
    keys: dict[str, list[str]]
    records: list[dict[str, Json]]  # every signed record had, ours and relayed
    proofs: list[int]  # each log entry's proof, as an index into `records`
    acks: list[int]
    finals: list[int]


class SavedSession(TypedDict):
    """A save, as JSON: seats are written as text wherever they are keys."""

    format: str
    version: int
    role: str
    config: dict[str, Json] | None
    local: list[int]
    limits: Limits
    links: dict[str, list[int]]  # peer -> the seats at the other end
    joint: dict[str, list[str]]  # seat -> [random bytes, nonce], in hex
    seed_log: list[list[Json]]  # [type, body], in the order taken
    match: dict[str, Json] | None
    stores: dict[str, dict[str, Json]]
    pending: dict[str, Json]
    pending_after: dict[str, int]
    openings: dict[str, list[dict[str, Json]]]
    verdicts: dict[str, list[str]]  # seat -> [word, sentence]
    private: dict[str, dict[str, Json]]  # never sent
    forfeit: list[int]
    signing: NotRequired[SavedSigning]


class Saves(Loading):
    """A session as JSON (`to_json`) and back (`from_json`)."""

    def to_json(self) -> SavedSession:
        saved = self._to_json()
        if self.signing:
            saved["signing"] = self._signing_json()
        return saved

    def save_mark(self) -> tuple[object, ...]:
        """Cheap to make, and different whenever anything `to_json` writes may have changed (a
        count or number that moves with every change of each part): the page writes a save only
        when this moved, so a heartbeat or a message that changed nothing costs no save."""
        match = self.match
        return (
            self.revision,
            self.config.match_id if self.config is not None else None,
            self.local,
            tuple(sorted((p, link.seats) for p, link in self.links.items())),
            len(self.joint),
            len(self.seed_log),
            (match.step, match.head()) if match is not None else None,
            tuple(
                (seat, tuple((k, o.nonce) for k, o in store.openings.items()))
                for seat, store in sorted(self.stores.items())
            ),
            tuple(sorted(self.pending.items())),  # (seats are distinct: no action is compared)
            tuple(sorted(self.pending_after.items())),
            tuple(sorted((s, len(o)) for s, o in self.openings.items())),
            tuple(sorted(self.verdicts.items())),
            tuple(self.forfeit_seats()),
            len(self.private),
            self.seq,
            len(self.seen),
            len(self.records),
            len(self.keys),
            len(self.proofs),
            sum(r.signature is None for r in self.unsigned),
            tuple((d, r.seq) for d, r in sorted(self.acks.items())),
            tuple((d, r.seq) for d, r in sorted(self.finals.items())),
        )

    def _signing_json(self) -> SavedSigning:
        # every record had but the acks a later one replaced (a reload needs each device's
        # latest word on its position, not every one it gave): the save stays small
        latest = {id(a) for a in [*self.acks.values(), self.my_ack] if a is not None}
        everything = [
            *self.records.values(),
            *self.unsigned,
            *self.proofs,
            *self.acks.values(),
            *self.finals.values(),
        ]
        kept = {id(r): r for r in everything if r.kind != ACK or id(r) in latest}
        records = list(kept.values())
        index = {id(r): i for i, r in enumerate(records)}
        return {
            "seq": self.seq,
            "keys": {d: k.to_json() for d, k in sorted(self.keys.items())},
            "records": [r.to_json() for r in records],
            "proofs": [index[id(p)] for p in self.proofs],
            "acks": [index[id(a)] for a in self.acks.values()],
            "finals": [index[id(f)] for f in self.finals.values()],
        }

    def _to_json(self) -> SavedSession:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "role": self.role,
            "config": self.config.to_json() if self.config else None,
            "local": list(self.local),
            "limits": self.limits.copy(),
            "links": {peer: list(link.seats) for peer, link in self.links.items()},
            "joint": {str(s): [part.hex() for part in j.secret()] for s, j in self.joint.items()},
            "seed_log": [[step[0], step[1]] for step in self.seed_log],
            "match": self.match.to_json() if self.match else None,
            "stores": {str(s): store.to_json() for s, store in self.stores.items()},
            "pending": {str(s): a for s, a in self.pending.items()},
            "pending_after": {str(s): n for s, n in self.pending_after.items()},
            "openings": {str(s): [o.to_json() for o in ops] for s, ops in self.openings.items()},
            "verdicts": {str(s): list(v) for s, v in self.verdicts.items()},
            "private": {str(s): dict(v) for s, v in self.private.items()},
            "forfeit": self.forfeit_seats(),
        }

    @classmethod
    def from_json(cls, data: object, now: float, crypto: Crypto | None = None) -> Self:
        """A saved session, every connection lost: a guest waits for a new invite; a host makes
        new invites. Everything is checked again as it is rebuilt; anything wrong is
        `MalformedInput`."""
        check_text(data)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedInput("That is not a saved online game.")
        role = data.get("role")
        if data.get("version") != FORMAT_VERSION or role not in ("host", "guest"):
            raise MalformedInput("That saved online game is from another version.")
        if ("signing" in data) != (crypto is not None):
            raise MalformedInput("That saved online game was signed by a key this page lacks.")
        session = cls(str(role), now, crypto)
        try:
            if crypto is not None:
                session._load_signing(data["signing"])
            session._load(data, now)
            if crypto is not None:
                session._check_signing()
        except MalformedInput:
            raise
        except ParlourError as error:  # a rule broken on the way: the save is not one we wrote
            sentence = f"That saved online game does not add up: {error.sentence}"
            raise MalformedInput(sentence) from None
        return session
