"""Signatures: what a device signs, the short table code players compare, and proof of a fork.

Why: online, the host relays every message, so without signatures it could change what one
guest says to another, or make up a move for a guest's seat. Each device signs what it originates
with a key pair made on that device (WebCrypto in the page, never exported). Keys reach the other
devices through the host, so the host could swap one; the table code is how players catch that:
it is computed from every device's key, so a swapped key shows as a different code on the
devices that got it, and players compare the codes once, aloud or in the chat where the invites
went.

Pure code never does curve arithmetic: it depends on a `Signer` (a key pair on this device) and a
`Verify` function, both handed in (the page's from WebCrypto, the tests' from `cryptography`).
What is signed is one unambiguous byte string (`signed_bytes`), length-prefixed field by field
as every hash in fair/encoding.py is.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from parlour.errors import MalformedInput
from parlour.fair.encoding import Json, canonical_json, encode_fields

SIGNED_TAG = "psi-parlour/signed"
SIGNED_VERSION = "2"
TABLE_TAG = "psi-parlour/table-code"
INVITE_TAG = "psi-parlour/invite-code"
ED25519 = "Ed25519"
P256 = "ECDSA-P256"  # ECDSA on P-256 with SHA-256; signatures as r || s (IEEE P1363)
KEY_BYTES = {ED25519: 32, P256: 65}  # raw public keys: Ed25519's 32, P-256's 0x04 || x || y
SIGNATURE_BYTES = 64  # both: Ed25519's, and P-256's r || s
BATCH_TAG = "psi-parlour/batch"
DIGEST_BYTES = 16  # a record's digest in a batch: the first 128 bits of SHA-256 of its bytes
MAX_BATCH = 16  # digests in one batch (a device's new records between two links, its head): a
# dishonest signer can pad each of its proofs to this many, and honest devices carry them on
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud without doubt
CODE_LENGTH = 8


class Signer(Protocol):
    """A key pair on this device: its algorithm, its public key (raw bytes), and signing. The
    page's signs later (WebCrypto answers with a promise): its `sign` gives None, and the record
    waits for the signature the page makes (`Device.pending_signatures`)."""

    @property
    def algorithm(self) -> str: ...

    @property
    def public_key(self) -> bytes: ...

    def sign(self, data: bytes) -> bytes | None: ...


# (algorithm, public key, data, signature) -> does the signature hold? Never raises.
Verify = Callable[[str, bytes, bytes, bytes], bool]


@dataclass(frozen=True)
class DeviceKey:
    """A device's public key, as every other device knows it."""

    algorithm: str
    public: bytes

    def to_json(self) -> list[str]:
        return [self.algorithm, b64(self.public)]

    @classmethod
    def from_json(cls, value: object) -> DeviceKey:
        """A key that came from outside (a message, a save): a known algorithm, the right size."""
        if not isinstance(value, list) or len(value) != 2:
            raise MalformedInput("A device's key is not an algorithm and a key.")
        algorithm, raw = value
        if not isinstance(algorithm, str) or algorithm not in KEY_BYTES:
            raise MalformedInput("A device's key is of an algorithm this page does not know.")
        public = unb64(raw, KEY_BYTES[algorithm], "A device's key")
        if algorithm == P256 and public[0] != 4:
            raise MalformedInput("A device's P-256 key is not an uncompressed point.")
        return cls(algorithm, public)

    @classmethod
    def of(cls, signer: Signer) -> DeviceKey:
        return cls(signer.algorithm, bytes(signer.public_key))


def b64(data: bytes) -> str:
    """Bytes as unpadded base64url, as keys and signatures travel."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64(value: object, size: int, what: str) -> bytes:
    """Exactly `size` bytes in unpadded base64url, or `MalformedInput` naming `what`."""
    if not isinstance(value, str) or len(value) != -(-size * 4 // 3):
        raise MalformedInput(f"{what} is not {size} bytes in base64url.")
    try:
        data = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInput(f"{what} is not {size} bytes in base64url.") from None
    if len(data) != size or b64(data) != value:  # one spelling only
        raise MalformedInput(f"{what} is not {size} bytes in base64url.")
    return data


def signed_bytes(match_id: str, device: str, seq: int, kind: str, body: Json) -> bytes:
    """Exactly what a device signs for one message: the protocol's tag and version, the match,
    the sender's device and its sequence number, the message's type, and its body as canonical
    JSON; each field length-prefixed, so no two messages share these bytes."""
    return encode_fields(
        (
            SIGNED_TAG,
            SIGNED_VERSION,
            match_id,
            device,
            str(seq),
            kind,
            canonical_json(body),
        )
    )


def record_digest(payload: bytes) -> bytes:
    """A record's digest in a batch: SHA-256 of its signed bytes, cut to `DIGEST_BYTES`."""
    return hashlib.sha256(payload).digest()[:DIGEST_BYTES]


def batch_bytes(match_id: str, device: str, digests: Sequence[bytes]) -> bytes:
    """What a device signs once for several records (by link: the records it originates in
    one link and its head): the batch's tag and version, the match, the device, and each
    record's digest in order; length-prefixed, so no batch shares these bytes with a record."""
    return encode_fields((BATCH_TAG, SIGNED_VERSION, match_id, device, *digests))


def proof_parts(proof: bytes) -> tuple[bytes, list[bytes]] | None:
    """A record's proof split: its signature, and the batch's digests (none: the signature is
    over the record alone). None for bytes that are neither: a batch holds 2 to `MAX_BATCH`
    digests, each once (a batch of one is a plain signature, so each record has one spelling;
    a digest listed twice made every honest link that carried the record on refused)."""
    extra = len(proof) - SIGNATURE_BYTES
    count = extra // DIGEST_BYTES
    if extra < 0 or extra % DIGEST_BYTES or count == 1 or count > MAX_BATCH:
        return None
    digests = [proof[SIGNATURE_BYTES + i * DIGEST_BYTES :][:DIGEST_BYTES] for i in range(count)]
    if len(set(digests)) != count:
        return None  # a digest listed twice: no honest batch does (its records all differ)
    return proof[:SIGNATURE_BYTES], digests


@dataclass
class Signed:
    """One message a device originated, with its proof (None until signed: the page signs
    with WebCrypto, which answers later, so a record waits for its signature until then).

    The proof is either the device's 64-byte signature over this record's bytes, or, for a
    record signed in a batch (by link: every record its device originated in one link, and its
    head, under one signature), that signature followed by the batch's digests in order, this
    record's among them: the batch's digest list travels with the record (saves, a fork's proof,
    replays), so a record taken out of its batch still proves who signed it."""

    device: str
    seq: int
    kind: str
    body: dict[str, Json]
    signature: bytes | None = None

    def payload(self, match_id: str) -> bytes:
        return signed_bytes(match_id, self.device, self.seq, self.kind, self.body)

    def same_content(self, other: Signed) -> bool:
        return self.kind == other.kind and canonical_json(self.body) == canonical_json(other.body)

    def signed_data(self, match_id: str) -> tuple[bytes, bytes] | None:
        """The bytes the signature is over and the 64-byte signature: the record's own bytes,
        or its batch's (when the record's digest is in the batch); None if the proof cannot
        hold (no proof, a record whose digest is not in its batch, bytes of no shape)."""
        parts = proof_parts(self.signature) if self.signature is not None else None
        if parts is None:
            return None
        try:
            data = self.payload(match_id)
        except MalformedInput:
            return None
        signature, digests = parts
        if not digests:
            return data, signature
        if record_digest(data) not in digests:
            return None
        return batch_bytes(match_id, self.device, digests), signature

    def verified_by(self, key: DeviceKey, match_id: str, verify: Verify) -> bool:
        found = self.signed_data(match_id)
        if found is None:
            return False
        return verify(key.algorithm, key.public, found[0], found[1])

    def to_json(self) -> dict[str, Json]:
        """A record as it is kept (a save, a replay, the proof in a log entry)."""
        return {
            "d": self.device,
            "q": self.seq,
            "t": self.kind,
            "b": self.body,
            "s": b64(self.signature) if self.signature is not None else None,
        }

    @classmethod
    def from_json(cls, value: object) -> Signed:
        """A kept record read back: its exact shape (a signature may still be missing)."""
        if not isinstance(value, dict) or set(value) != {"d", "q", "t", "b", "s"}:
            raise MalformedInput("A signed record is not one.")
        device, seq, kind, body, sig = (value[k] for k in ("d", "q", "t", "b", "s"))
        if not isinstance(device, str) or not 0 < len(device) <= 16:
            raise MalformedInput("A signed record names no device.")
        if type(seq) is not int or not 0 < seq < 2**31:
            raise MalformedInput("A signed record has no sequence number.")
        if not isinstance(kind, str) or not 0 < len(kind) <= 16 or not isinstance(body, dict):
            raise MalformedInput("A signed record has no type or body.")
        canonical_json(body)
        return cls(device, seq, kind, body, None if sig is None else proof_from_b64(sig))


@dataclass(frozen=True)
class Fork:
    """Proof that a device signed two different messages under one sequence number (or two
    different positions of one game): both records, each verified against its key."""

    device: str
    first: Signed
    second: Signed

    def to_json(self) -> dict[str, Json]:
        return {
            "device": self.device,
            "first": self.first.to_json(),
            "second": self.second.to_json(),
        }


def proof_from_b64(value: object) -> bytes:
    """A record's proof read back: a signature, or a signature and its batch's digests."""
    most = SIGNATURE_BYTES + MAX_BATCH * DIGEST_BYTES
    if not isinstance(value, str) or len(value) > -(-most * 4 // 3):
        raise MalformedInput("A signature is not one in base64url.")
    size = len(value) * 3 // 4
    proof = unb64(value, size, "A signature")
    if proof_parts(proof) is None:
        raise MalformedInput("A signature is not one, nor one with its batch's digests.")
    return proof


def table_code(
    match_id: str,
    genesis: str,
    keys: Mapping[str, DeviceKey],
    terms: Mapping[str, str] | None = None,
) -> str:
    """The short code every device shows, from the match, its genesis hash (set-up, dealt
    commitments and seed) and every device's key, in the order of the devices' names, and the
    terms agreed outside the set-up (by link: the time per move). Equal on two devices only if
    they saw the same keys for the same devices, the same start and the same terms."""
    fields: list[bytes | str] = [TABLE_TAG, SIGNED_VERSION, match_id, genesis]
    for name in sorted(keys):
        fields += [name, keys[name].algorithm, keys[name].public]
    for term in sorted(terms or {}):
        fields += [term, (terms or {})[term]]
    return short_code(hashlib.sha256(encode_fields(fields)).digest())


def invite_code(match_id: str, creator: str, invite: Mapping[str, Json]) -> str:
    """The short code of an invite by link, before anyone joins: from the match, the creator's
    device and its signed `open` record (the creator's key, the seats, the set-up, the bots and
    the time per move). The joiner compares it with the creator's before joining: the table
    code, which binds every key and the start, exists only once everyone has joined."""
    fields: list[bytes | str] = [INVITE_TAG, SIGNED_VERSION, match_id, creator]
    fields.append(canonical_json(dict(invite)))
    return short_code(hashlib.sha256(encode_fields(fields)).digest())


def short_code(digest: bytes) -> str:
    """A digest's first 40 bits as eight characters read aloud without doubt: "ABCD-EFGH"."""
    number = int.from_bytes(digest[:5], "big")
    chars = [CODE_ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(CODE_LENGTH))]
    return "".join(chars[:4]) + "-" + "".join(chars[4:])
