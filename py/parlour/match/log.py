"""The append-only log: each entry carries its sequence number and the hash of the one before.

entry hash = SHA-256 over ("psi-parlour/log", "1", match id, seq, seat, canonical JSON of the
action, previous hash). The chain starts from the genesis hash over ("psi-parlour/genesis", "1",
canonical JSON of the config, public seed), so no peer can rewrite, reorder, drop or insert an
entry, or swap the set-up underneath a log, without every other peer noticing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import is_commitment
from parlour.fair.encoding import Json, canonical_json, digest

LOG_TAG = "psi-parlour/log"
GENESIS_TAG = "psi-parlour/genesis"
LOG_VERSION = "1"
MAX_ACTION_BYTES = 16_384


def genesis_hash(config_json: Mapping[str, Json], seed: bytes) -> str:
    return digest((GENESIS_TAG, LOG_VERSION, canonical_json(config_json), seed)).hex()


def entry_hash(match_id: str, seq: int, seat: int, action: Json, prev: str) -> str:
    fields = (
        LOG_TAG,
        LOG_VERSION,
        match_id,
        str(seq),
        str(seat),
        canonical_json(action),
        bytes.fromhex(prev),
    )
    return digest(fields).hex()


@dataclass(frozen=True)
class LogEntry:
    """Move `seq` (1-based, as players count moves): `seat` took `action`."""

    seq: int
    seat: int
    action: Json
    prev: str
    hash: str

    def to_json(self) -> dict[str, Json]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "action": self.action,
            "prev": self.prev,
            "hash": self.hash,
        }

    @classmethod
    def from_json(cls, data: object) -> LogEntry:
        """Shape and types only; whether it fits the chain is `Match.receive`'s business."""
        if not isinstance(data, dict) or set(data) != {"seq", "seat", "action", "prev", "hash"}:
            raise MalformedInput("A log entry must have exactly seq, seat, action, prev and hash.")
        seq, seat = data["seq"], data["seat"]
        if type(seq) is not int or type(seat) is not int or seq < 1 or not 0 <= seat < 8:
            raise MalformedInput("A log entry's move number or seat is not a small whole number.")
        if not is_commitment(data["prev"]) or not is_commitment(data["hash"]):
            raise MalformedInput("A log entry's hashes are not 64 hex digits.")
        if len(canonical_json(data["action"])) > MAX_ACTION_BYTES:
            raise MalformedInput("A log entry's action is too large.")
        return cls(seq, seat, data["action"], data["prev"], data["hash"])
