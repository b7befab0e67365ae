"""Commitments: seal a hidden value now, prove it later.

commitment = SHA-256 over the length-prefixed fields
    "psi-parlour/commit", "1", match id, seat (decimal), label, canonical JSON of the value, nonce
where the nonce is 32 random bytes from `secrets`. The commitment is public from the start; the
opening (value and nonce) stays in the seat's private store until the rules reveal it. Binding
comes from SHA-256's collision resistance, hiding from the nonce; the match id, seat and label tie
a commitment to one object, so an opening cannot be replayed for another tile, seat or match.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import TypeGuard

from parlour.errors import CommitmentMismatch, MalformedInput
from parlour.fair.encoding import Json, canonical_json, digest

COMMIT_TAG = "psi-parlour/commit"
COMMIT_VERSION = "1"
NONCE_BYTES = 32


@dataclass(frozen=True)
class Context:
    """Where a commitment belongs: one match, one seat."""

    match_id: str
    seat: int


@dataclass(frozen=True)
class Opening:
    """What reveals a commitment: the label, the value and the nonce (hex)."""

    label: str
    value: Json
    nonce: str

    def to_json(self) -> dict[str, Json]:
        return {"label": self.label, "value": self.value, "nonce": self.nonce}

    @classmethod
    def from_json(cls, data: object) -> Opening:
        """Parse an opening received from anywhere; reject anything not exactly of its shape."""
        if not isinstance(data, dict) or set(data) != {"label", "value", "nonce"}:
            raise MalformedInput("An opening must have exactly a label, a value and a nonce.")
        label, nonce = data["label"], data["nonce"]
        if not isinstance(label, str) or not 0 < len(label) <= 64:
            raise MalformedInput("An opening's label must be short text.")
        if not is_hex(nonce, NONCE_BYTES):
            raise MalformedInput(f"An opening's nonce must be {NONCE_BYTES} bytes in hex.")
        canonical_json(data["value"])  # raises on non-canonical values
        return cls(label, data["value"], nonce)


def is_hex(text: object, size: int) -> TypeGuard[str]:
    """True for exactly `size` bytes written as lowercase hex (nonces, seeds, commitments): the
    one hex check, strict so that one value has one spelling."""
    if not isinstance(text, str) or len(text) != 2 * size:
        return False
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return text == text.lower()


def is_commitment(text: object) -> TypeGuard[str]:
    """True for a well-formed commitment (64 lowercase hex digits)."""
    return is_hex(text, 32)


def commitment_of(context: Context, opening: Opening) -> str:
    """Recompute the commitment an opening stands for."""
    fields = (
        COMMIT_TAG,
        COMMIT_VERSION,
        context.match_id,
        str(context.seat),
        opening.label,
        canonical_json(opening.value),
        bytes.fromhex(opening.nonce),
    )
    return digest(fields).hex()


def commit(
    context: Context, label: str, value: Json, nonce: bytes | None = None
) -> tuple[str, Opening]:
    """Seal `value` under `label`; return the public commitment and the private opening.

    `nonce` is for test vectors only; play always draws a fresh one from `secrets`.
    """
    nonce = secrets.token_bytes(NONCE_BYTES) if nonce is None else nonce
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"a nonce is {NONCE_BYTES} bytes")
    opening = Opening(label, value, nonce.hex())
    return commitment_of(context, opening), opening


def verify(context: Context, commitment: str, opening: Opening) -> bool:
    """Does `opening` open `commitment` for this match and seat?"""
    try:
        expected = commitment_of(context, opening)
    except (MalformedInput, ValueError):
        return False
    return hmac.compare_digest(expected, commitment)


def check_opening(
    context: Context, commitment: str, opening: Opening, *, who: str, what: str, step: int | None
) -> None:
    """Raise a `CommitmentMismatch` with a player's sentence unless the opening matches."""
    if verify(context, commitment, opening):
        return
    made = f" made at move {step}" if step is not None else ""
    raise CommitmentMismatch(
        f"{who}'s reveal of {what} does not match the commitment{made}.", seat=context.seat
    )
