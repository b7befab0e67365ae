"""A device's game by link in its own storage and back: everything it keeps (its records, what
the others hold, its secrets, a fork's proof), and, read back as input, every record checked
again and the game derived again.
"""

from __future__ import annotations

import math
from typing import Self

from parlour.errors import MalformedInput
from parlour.fair.encoding import Json, check_text
from parlour.fair.signing import DeviceKey, Fork, Signed, Signer, Verify
from parlour.fair.store import PrivateStore
from parlour.match.by_link import packing
from parlour.match.by_link.live import Live
from parlour.match.by_link.receiving import Receiving

FORMAT = "psi-parlour/by-link"
FORMAT_VERSION = 2  # 2: records' proofs may hold their batch's digests (issue 38); 1 still read


class Saving(Receiving):
    """The game as JSON for this device's storage (`to_json`), and back (`from_json`)."""

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
            "unordered": self._out_of_order,  # links came out of order (`Keeping._note_order`)
            "lost": sorted(self._lost),  # devices that said they lost records they signed
            "answered": {d: dict(h) for d, h in (self._answered or {}).items()},
            "last_link_at": int(self.last_link_at),
            **({"live": self._live_json()} if self.live is not None else {}),
        }

    def _live_json(self) -> dict[str, Json]:
        """A carried game's live part (carrying.py): the match it went on from, this device's
        live name, and every live device's seats and key (the stores are saved above)."""
        live = self.live
        assert live is not None
        return {
            "match": live.match,
            "me": live.me,
            "seats": {d: list(s) for d, s in live.seats.items()},
            "keys": {d: k.to_json() for d, k in live.keys.items()},
            "used": sorted([d, q] for d, q in live.used),
            **(
                {"pending": {str(s): a for s, a in live.pending.items()}}
                if live.pending is not None
                else {}
            ),
        }

    def _load_live(self, saved: object, signer: Signer, verify: Verify) -> None:
        """A carried game's live part read back: the keys and seats every record is checked
        with (a key of ours that is not our signer's: another key, refused)."""
        optional = {"used", "pending"}  # (a save made before they were kept has neither)
        if not isinstance(saved, dict) or set(saved) - optional != {"match", "me", "seats", "keys"}:
            raise MalformedInput("That saved game's live start is damaged.")
        match, me, seats, keys = (saved[k] for k in ("match", "me", "seats", "keys"))
        if not isinstance(match, dict) or not isinstance(seats, dict) or not isinstance(keys, dict):
            raise MalformedInput("That saved game's live start is damaged.")
        if set(seats) != set(keys) or str(me) not in keys or len(keys) > 8:
            raise MalformedInput("That saved game's live start is damaged.")
        live = Live(
            match,
            str(me),
            signer,
            verify,
            {str(d): _seats(s) for d, s in seats.items()},
            {str(d): DeviceKey.from_json(k) for d, k in keys.items()},
            self.stores,
            self.private,
        )
        live.used = _used(saved.get("used", []))
        live.pending = _pending(saved["pending"]) if "pending" in saved else None
        if live.keys[live.me] != DeviceKey.of(signer) or live.link_name(live.me) != self.me:
            raise MalformedInput("That saved game was signed with another key.")
        self._carry_from(live)

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
    def from_json(cls, data: object, signer: Signer, verify: Verify, now: float) -> Self:
        """A kept game read back as input: every record checked again, then derived again."""
        check_text(data)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedInput("That is not a saved game by link.")
        version = data.get("version")
        if type(version) is int and version > FORMAT_VERSION:
            raise MalformedInput(
                "That saved game by link was made by a newer Psi Parlour: reload the page to "
                "open it."
            )
        if version not in (1, FORMAT_VERSION):
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
            play._out_of_order = data.get("unordered") is True  # older saves: not seen
            lost = data.get("lost", [])  # older saves: none
            if not isinstance(lost, list):
                raise TypeError
            play._lost = frozenset(str(d) for d in lost)
            play.last_link_at = float(data["last_link_at"])
            if not math.isfinite(play.last_link_at):
                raise ValueError
            play.parts = {
                str(t): {int(i): str(p) for i, p in ps.items()} for t, ps in data["parts"].items()
            }
            heads = {str(d): _counts(h) for d, h in data["heads"].items()}
            answered = {str(d): _counts(h) for d, h in data.get("answered", {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise MalformedInput("That saved game by link is damaged.") from None
        if any(st.context.match_id != play.match_id for st in play.stores.values()):
            raise MalformedInput("That saved game's secrets are of another game.")
        if "live" in data:
            play._load_live(data["live"], signer, verify)
        mine = [r for r in records if r.device == play.me]
        if (
            mine
            and play.live is None
            and DeviceKey.from_json(mine[0].body.get("k")) != DeviceKey.of(signer)
        ):
            raise MalformedInput("That saved game was signed with another key.")
        taken, _ = play._keep(records, None)
        if not taken.ok:
            raise MalformedInput(f"That saved game by link is damaged: {taken.sentence}")
        play.heads = heads
        play._answered = answered or None
        play.sent_upto = sent if type(sent) is int else play._mine()  # older saves: as if sent
        forks = data.get("forks", [])
        if not isinstance(forks, list):
            raise MalformedInput("That saved game's proof of a fork is damaged.")
        play.forks = [play._proof(f) for f in forks]
        return play


def _seats(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or not value
        or not all(type(s) is int and 0 <= s < 8 for s in value)
    ):
        raise MalformedInput("That saved game's live start is damaged.")
    return tuple(value)


def _used(value: object) -> set[tuple[str, int]]:
    """The proposals the live log was appended from, as saved (a save made before they were
    kept has none)."""
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and type(p[1]) is int
        for p in value
    ):
        raise MalformedInput("That saved game's live start is damaged.")
    return {(p[0], p[1]) for p in value}


def _pending(value: object) -> dict[int, Json]:
    """This device's moves on their way when the live connection broke, as saved."""
    if not isinstance(value, dict):
        raise MalformedInput("That saved game's live start is damaged.")
    pending: dict[int, Json] = {}
    for seat, action in value.items():
        number = int(seat) if isinstance(seat, str) and seat.isdigit() and len(seat) == 1 else -1
        if not 0 <= number < 8:
            raise MalformedInput("That saved game's live start is damaged.")
        pending[number] = action
    return pending


def _counts(value: object) -> dict[str, int]:
    """A head's counts as saved (device -> a whole number of its records): anything else, a
    float or an infinity included, is damage (TypeError, caught as the save's)."""
    if not isinstance(value, dict) or not all(type(v) is int and v >= 0 for v in value.values()):
        raise TypeError
    return {str(k): v for k, v in value.items()}
