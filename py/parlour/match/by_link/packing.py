"""A link's text: the site's address, then `#pl=` and the signed records, packed small.

Why this shape: a link is carried by whatever messenger a group already uses, so it must stay
short (under 2,000 characters: what chats and QR codes carry well) and must never reach a server
(the fragment after `#` is not sent with a page request). The records are canonical JSON without
their proofs, deflated with a preset dictionary (`ZDICT`), followed by the proofs as raw bytes
(random bytes do not compress), all in unpadded base64url:

    #pl=<version>.<data>                      one link
    #pl=<version>.<i>-<k>.<tag>.<match>.<device>.<data>   part i of k of a longer one (tag:
                                              the whole's hash; the match and the sending
                                              device, to name whose send a missing part is of)

data = version byte (2), the compressed JSON's length (2 bytes), the compressed JSON, then for
each batch in "p" its 64-byte signature and the 16-byte digests of its records the link does
not carry. The JSON is {"m": match id, "r": [[device, q, kind, body], ...], "h": [device, q,
body], "p": [[slot, ...], ...]}: per batch, its digests in order as the index of a record of
the link (the head last) or null where the digest comes in the bytes (`_groups`). Version 1
(still read): zlib with its header, no "p", and 64 bytes of signature per record and the head.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from parlour.errors import MalformedInput, ParlourError
from parlour.fair.encoding import Json, canonical_json, parse_json
from parlour.fair.signing import (
    DIGEST_BYTES,
    MAX_BATCH,
    SIGNATURE_BYTES,
    DeviceKey,
    Signed,
    proof_parts,
    record_digest,
)
from parlour.numbers import whole
from parlour.words import and_list

LINK_VERSION = 2  # 2: one signature per batch of records (issue 38); 1: one per record
OLD_VERSION = 1  # still read: links sent by the page before
PREFIX = "pl="
MAX_LINK = 2000  # characters of a whole link, address included
MAX_PARTS = 24
MAX_PACKED = 60_000  # bytes of compressed records in one link (parts joined)
MAX_JSON = 400_000  # bytes once inflated: a zip bomb is refused


class NewerVersion(MalformedInput):
    """A link from a newer page: the reader should reload, not blame the sender."""


@dataclass(frozen=True)
class Packet:
    """What one link carries: the match, records the receivers may lack, the sender's head."""

    match_id: str
    records: tuple[Signed, ...]
    head: Signed


@dataclass(frozen=True)
class Part:
    """One part of a link split in several: part `index` (1-based) of `count`."""

    index: int
    count: int
    tag: str
    data: str
    match_id: str = ""  # the match and the device that sent it (version 2), or ""
    sender: str = ""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInput("That link is damaged: it is not base64url.") from None


def pack(packet: Packet) -> str:
    """The packet as the data of a link (without the address and prefix): version 2, each
    batch's signature once (`_groups`)."""
    rows: list[Json] = [[r.device, r.seq, r.kind, r.body] for r in packet.records]
    head = packet.head
    every = (*packet.records, head)
    groups, tail = _groups(packet.match_id, every)
    text = canonical_json(
        {"m": packet.match_id, "r": rows, "h": [head.device, head.seq, head.body], "p": groups}
    )
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, ZDICT)
    zipped = squeeze.compress(text) + squeeze.flush()
    if len(zipped) >= 1 << 16:
        raise MalformedInput("That is too much for links: save a game file instead.")
    return b64(bytes([LINK_VERSION]) + len(zipped).to_bytes(2, "big") + zipped + tail)


# Version 2 deflates the JSON raw (no zlib header or checksum: the signatures check it) with
# this preset dictionary: the words every link repeats, so a short link need not spell them out
# once more (a turn's JSON: about 185 bytes instead of 230). Part of the format: never changed
# within a version.
ZDICT = (
    b'"openings",{"o":{"0":[{"label":"","nonce":"","value":""}]}}],'
    b'"reveal",{"o":{"label":"seed","nonce":"","value":""},"s":0,"t":17'
    b'"commit",{"c":"","d":{},"s":0}],"lock","unlock",'
    b'"join",{"k":["ECDSA-P256",""],"n":"","s":1,"t":17'
    b'"seen",{"at":1,"s":0,"t":17"claim",{"at":0,"by":1,"s":0,"t":17"due",{"on":1,"s":0,"t":17'
    b'{"digits":"","target":1,"type":"guess"}{"type":"answer"}"symbol":"circle","type":"place"'
    b'{"h":["s1",1,{"h":"","have":{"s0":1,"s1":1,"s2":1,"s3":1},"n":1}],"m":"m-",'
    b'"p":[[0,1]],"r":[["s0",1,"act",{"a":{"type":"'
    b'},"at":1,"h":"","s":0,"t":17'
)


def _groups(match_id: str, every: tuple[Signed, ...]) -> tuple[list[Json], bytes]:
    """The link's proofs, each once: per proof, its slots (the index of a record of the link,
    the head last, or null where a digest of a record the link does not carry comes in the
    bytes), and the bytes: each proof's signature, then its missing digests."""
    by_proof: dict[bytes, list[int]] = {}
    for i, record in enumerate(every):
        by_proof.setdefault(_signature(record), []).append(i)
    groups: list[Json] = []
    tail = bytearray()
    for proof, members in by_proof.items():
        parts = proof_parts(proof)
        if parts is None:
            raise MalformedInput("A record's signature is not one.")
        signature, digests = parts
        if not digests:
            for i in members:  # the same signature twice: two records of one content
                groups.append([i])
                tail += signature
            continue
        at = {record_digest(every[i].payload(match_id)): i for i in members}
        slots: list[Json] = [at.get(digest) for digest in digests]
        if any(slot is not None for slot in slots):
            groups.append(slots)
            tail += signature + b"".join(d for d in digests if d not in at)
        for i in members:  # a record its proof does not cover: sent as it is, to be refused
            if i not in slots:
                groups.append([i, *[None] * (len(digests) - 1)])
                tail += signature + b"".join(digests[1:])
    return groups, bytes(tail)


def _signature(record: Signed) -> bytes:
    if record.signature is None:
        raise MalformedInput("A record is not signed yet.")
    return record.signature


def links(
    base: str, data: str, limit: int = MAX_LINK, sender: tuple[str, str] = ("", "")
) -> list[str]:
    """The data as one link, or as several numbered parts when it is longer than `limit`;
    `sender` (the match and the sending device) is written in each part, so a device holding
    only some parts can say whose send the others come from."""
    single = f"{base}#{PREFIX}{LINK_VERSION}.{data}"
    if len(single) <= limit:
        return [single]
    tag = b64(hashlib.sha256(data.encode("ascii")).digest()[:6])
    named = f".{sender[0]}.{sender[1]}" if all(sender) else ""
    room = limit - len(f"{base}#{PREFIX}{LINK_VERSION}.99-99.{tag}{named}.")
    count = -(-len(data) // room)
    if count > MAX_PARTS:
        raise MalformedInput(
            f"That step needs {count} links, more than {MAX_PARTS}: send a game file instead."
        )
    size = -(-len(data) // count)
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    return [
        f"{base}#{PREFIX}{LINK_VERSION}.{i}-{len(chunks)}.{tag}{named}.{chunk}"
        for i, chunk in enumerate(chunks, 1)
    ]


def read_fragment(text: str) -> str | Part:
    """A link (or its fragment, or a pasted copy broken across lines) as whole data or a part.
    Refuses another page's link and, with a sentence to reload, a newer version's."""
    if not isinstance(text, str) or len(text) > 100_000:
        raise MalformedInput("That is not a Psi Parlour link.")
    text = "".join(text.split())
    at = text.find("#" + PREFIX)
    fragment = text[at + 1 + len(PREFIX) :] if at >= 0 else text.removeprefix(PREFIX)
    fields = fragment.split(".")
    version = whole(fields[0])
    if version is None:
        raise MalformedInput("That is not a Psi Parlour play-by-link link.")
    if version > LINK_VERSION:
        raise NewerVersion(
            f"That link comes from a newer Psi Parlour (link version {version}): reload the "
            "page to read it."
        )
    if version not in (OLD_VERSION, LINK_VERSION):
        raise MalformedInput(f"That link is of version {version}, which this page cannot read.")
    if len(fields) == 2:
        return fields[1]
    if len(fields) in (4, 6):
        text_index, _, text_count = fields[1].partition("-")
        index, count = whole(text_index), whole(text_count)
        named = fields[3:5] if len(fields) == 6 else ["", ""]
        if len(fields) == 6 and not (is_match_id(named[0]) and named[1] in DEVICES):
            raise MalformedInput("That link is damaged: its part does not say whose it is.")
        if index is not None and count is not None and 1 <= index <= count <= MAX_PARTS:
            return Part(index, count, fields[2], fields[-1], named[0], named[1])
    raise MalformedInput("That link is damaged: its parts are not numbered.")


def join_parts(parts: dict[int, str], tag: str) -> str:
    """The whole data of a split link, once every part is in; its tag must match."""
    data = "".join(parts[i] for i in sorted(parts))
    if b64(hashlib.sha256(data.encode("ascii")).digest()[:6]) != tag:
        raise MalformedInput("The parts of that link do not fit together: one was changed.")
    return data


def unpack(data: str) -> Packet:
    """The data of a link back into records, each in its exact shape with its proof (its
    signature, and its batch's digests: signatures unchecked)."""
    raw = unb64(data)
    if len(raw) < 3 or raw[0] not in (OLD_VERSION, LINK_VERSION):
        raise MalformedInput("That link is damaged.")
    size = int.from_bytes(raw[1:3], "big")
    zipped, signatures = raw[3 : 3 + size], raw[3 + size :]
    try:
        old = raw[0] == OLD_VERSION
        inflater = zlib.decompressobj() if old else zlib.decompressobj(-15, ZDICT)
        text = inflater.decompress(zipped, MAX_JSON)
        if inflater.unconsumed_tail or not inflater.eof:
            raise MalformedInput("That link is damaged or too large.")
    except zlib.error:
        raise MalformedInput("That link is damaged: it does not unpack.") from None
    try:
        data_json = parse_json(text.decode("utf-8"), "That link")
    except UnicodeDecodeError:
        raise MalformedInput("That link is damaged: it is not text.") from None
    keys = {"m", "r", "h"} | ({"p"} if raw[0] == LINK_VERSION else set())
    if not isinstance(data_json, dict) or set(data_json) != keys:
        raise MalformedInput("That link is damaged: it holds no game.")
    match_id, rows, head = data_json["m"], data_json["r"], data_json["h"]
    if not isinstance(match_id, str) or not isinstance(rows, list) or len(rows) > 4000:
        raise MalformedInput("That link is damaged: it names no match.")
    if not is_match_id(match_id):  # nothing else may become a storage key (a tab's marker)
        raise MalformedInput("That link is damaged: its match is not named as this page names one.")
    records = []
    for i, row in enumerate([*rows, head]):
        if not isinstance(row, list) or len(row) != 4 - (i == len(rows)):
            raise MalformedInput(
                "That link is damaged: a part of it is not a move or a step of a game."
            )
        device, seq, *rest = row
        kind, body = (rest[0], rest[1]) if len(rest) == 2 else ("head", rest[0])
        records.append(Signed.from_json({"d": device, "q": seq, "t": kind, "b": body, "s": None}))
    if raw[0] == OLD_VERSION:
        if len(signatures) != SIGNATURE_BYTES * len(records):
            raise MalformedInput("That link is damaged: its signatures are cut short.")
        for i, record in enumerate(records):
            record.signature = signatures[i * SIGNATURE_BYTES : (i + 1) * SIGNATURE_BYTES]
    else:
        _prove(match_id, records, data_json["p"], signatures)
    return Packet(match_id, tuple(records[:-1]), records[-1])


def _prove(match_id: str, records: list[Signed], groups: Json, tail: bytes) -> None:
    """Give each record of a version-2 link its proof from the link's groups (`_groups`):
    every record in exactly one group, each group at most `MAX_BATCH` slots with a record of
    the link among them, and the bytes exactly the groups' signatures and missing digests."""
    if not isinstance(groups, list) or len(groups) > len(records):
        raise MalformedInput("That link is damaged: its signatures are not grouped.")
    at = 0
    for slots in groups:
        if not isinstance(slots, list) or not 0 < len(slots) <= MAX_BATCH:
            raise MalformedInput("That link is damaged: its signatures are not grouped.")
        signature, at = tail[at : at + SIGNATURE_BYTES], at + SIGNATURE_BYTES
        digests: list[bytes] = []
        members: list[Signed] = []
        for slot in slots:
            if slot is None:
                digests.append(tail[at : at + DIGEST_BYTES])
                at += DIGEST_BYTES
                continue
            if type(slot) is not int or not 0 <= slot < len(records):
                raise MalformedInput("That link is damaged: its signatures are not grouped.")
            record = records[slot]
            if record.signature is not None:
                raise MalformedInput("That link is damaged: a record is signed twice in it.")
            record.signature = b""  # taken: its proof comes below
            members.append(record)
            digests.append(record_digest(record.payload(match_id)))
        if not members or len(signature) != SIGNATURE_BYTES or at > len(tail):
            raise MalformedInput("That link is damaged: its signatures are cut short.")
        proof = signature + (b"".join(digests) if len(slots) > 1 else b"")
        if proof_parts(proof) is None:
            raise MalformedInput("That link is damaged: its signatures are not grouped.")
        for record in members:
            record.signature = proof
    if at != len(tail) or any(not r.signature for r in records):
        raise MalformedInput("That link is damaged: its signatures are cut short.")


def is_match_id(text: str) -> bool:
    """A match id as `table.new_match_id` makes it: "m-" and 16 lowercase hex digits."""
    return len(text) == 18 and text.startswith("m-") and all(c in HEX for c in text[2:])


HEX = frozenset("0123456789abcdef")
DEVICES = frozenset(f"s{seat}" for seat in range(8))  # a device is named after its lowest seat
Check = tuple[str, bytes, bytes, bytes]  # (algorithm, public key, data, signature)


def signature_checks(packet: Packet, keys: Mapping[str, DeviceKey]) -> list[Check]:
    """Every signature a packet carries, with the key it must hold under: a page whose checks
    answer later (WebCrypto) runs these first, and its `Verify` reads the answers."""
    known = dict(keys)
    for record in packet.records:
        if record.seq == 1 and record.kind in ("open", "join") and record.device not in known:
            try:
                known[record.device] = DeviceKey.from_json(record.body.get("k"))
            except MalformedInput:
                continue
    checks: list[Check] = []
    seen: set[Check] = set()
    for record in (*packet.records, packet.head):
        key = known.get(record.device)
        found = record.signed_data(packet.match_id) if key is not None else None
        if key is not None and found is not None:
            check = (key.algorithm, key.public, found[0], found[1])
            if check not in seen:  # a batch's records: its signature checked once
                seen.add(check)
                checks.append(check)
    return checks


def packet_of(text: str) -> Packet | None:
    read = read_fragment(text)
    return unpack(read) if isinstance(read, str) else None


def invite_checks(texts: list[str]) -> list[Check]:
    """The signatures `join` will check in an invite (all its parts): for a page that checks
    them first."""
    try:
        return signature_checks(read_invite(texts), {})
    except ParlourError:
        return []


def read_invite(texts: list[str]) -> Packet:
    """An invite from its link, or from all the parts of a split one (any order)."""
    parts: dict[int, str] = {}
    tag, count = "", 0
    for text in texts:
        read = read_fragment(text)
        if isinstance(read, str):
            return unpack(read)
        parts[read.index], tag, count = read.data, read.tag, read.count
    missing = [str(i) for i in range(1, count + 1) if i not in parts]
    if missing or not parts:
        raise MalformedInput(
            f"That invite comes in {count or 'several'} links: open part(s) "
            f"{and_list(missing)} too."
        )
    return unpack(join_parts(parts, tag))


def match_of(text: str) -> str | None:
    """The match a link is for (to find the game it belongs to), or None if it cannot tell."""
    try:
        packet = packet_of(text)
    except ParlourError:
        return None
    return packet.match_id if packet is not None else None
