"""A link's text: the site's address, then `#pl=` and the signed records, packed small.

Why this shape: a link is carried by whatever messenger a group already uses, so it must stay
short (under 2,000 characters: what chats and QR codes carry well) and must never reach a server
(the fragment after `#` is not sent with a page request). The records are canonical JSON without
their signatures, compressed with zlib, followed by the signatures as raw bytes (random bytes do
not compress), all in unpadded base64url:

    #pl=<version>.<data>                      one link
    #pl=<version>.<i>-<k>.<tag>.<data>        part i of k of a longer one (tag: the whole's hash)

data = version byte, the compressed JSON's length (2 bytes), the compressed JSON, then 64 bytes
of signature per record and one for the sender's head. The JSON is
{"m": match id, "r": [[device, q, kind, body], ...], "h": [device, q, body]}.
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
from parlour.fair.signing import SIGNATURE_BYTES, DeviceKey, Signed
from parlour.numbers import whole
from parlour.words import and_list

LINK_VERSION = 1
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


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInput("That link is damaged: it is not base64url.") from None


def pack(packet: Packet) -> str:
    """The packet as the data of a link (without the address and prefix)."""
    rows: list[Json] = [[r.device, r.seq, r.kind, r.body] for r in packet.records]
    head = packet.head
    text = canonical_json(
        {"m": packet.match_id, "r": rows, "h": [head.device, head.seq, head.body]}
    )
    zipped = zlib.compress(text, 9)
    if len(zipped) >= 1 << 16:
        raise MalformedInput("That is too much for links: save a game file instead.")
    signatures = b"".join(_signature(r) for r in (*packet.records, head))
    return b64(bytes([LINK_VERSION]) + len(zipped).to_bytes(2, "big") + zipped + signatures)


def _signature(record: Signed) -> bytes:
    if record.signature is None:
        raise MalformedInput("A record is not signed yet.")
    return record.signature


def links(base: str, data: str, limit: int = MAX_LINK) -> list[str]:
    """The data as one link, or as several numbered parts when it is longer than `limit`."""
    single = f"{base}#{PREFIX}{LINK_VERSION}.{data}"
    if len(single) <= limit:
        return [single]
    tag = b64(hashlib.sha256(data.encode("ascii")).digest()[:6])
    room = limit - len(f"{base}#{PREFIX}{LINK_VERSION}.99-99.{tag}.")
    count = -(-len(data) // room)
    if count > MAX_PARTS:
        raise MalformedInput(
            f"That step needs {count} links, more than {MAX_PARTS}: send a game file instead."
        )
    size = -(-len(data) // count)
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    return [
        f"{base}#{PREFIX}{LINK_VERSION}.{i}-{len(chunks)}.{tag}.{chunk}"
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
    if version != LINK_VERSION:
        raise MalformedInput(f"That link is of version {version}, which this page cannot read.")
    if len(fields) == 2:
        return fields[1]
    if len(fields) == 4:
        text_index, _, text_count = fields[1].partition("-")
        index, count = whole(text_index), whole(text_count)
        if index is not None and count is not None and 1 <= index <= count <= MAX_PARTS:
            return Part(index, count, fields[2], fields[3])
    raise MalformedInput("That link is damaged: its parts are not numbered.")


def join_parts(parts: dict[int, str], tag: str) -> str:
    """The whole data of a split link, once every part is in; its tag must match."""
    data = "".join(parts[i] for i in sorted(parts))
    if b64(hashlib.sha256(data.encode("ascii")).digest()[:6]) != tag:
        raise MalformedInput("The parts of that link do not fit together: one was changed.")
    return data


def unpack(data: str) -> Packet:
    """The data of a link back into records, each in its exact shape (signatures unchecked)."""
    raw = unb64(data)
    if len(raw) < 3 or raw[0] != LINK_VERSION:
        raise MalformedInput("That link is damaged.")
    size = int.from_bytes(raw[1:3], "big")
    zipped, signatures = raw[3 : 3 + size], raw[3 + size :]
    try:
        inflater = zlib.decompressobj()
        text = inflater.decompress(zipped, MAX_JSON)
        if inflater.unconsumed_tail or not inflater.eof:
            raise MalformedInput("That link is damaged or too large.")
    except zlib.error:
        raise MalformedInput("That link is damaged: it does not unpack.") from None
    try:
        data_json = parse_json(text.decode("utf-8"), "That link")
    except UnicodeDecodeError:
        raise MalformedInput("That link is damaged: it is not text.") from None
    if not isinstance(data_json, dict) or set(data_json) != {"m", "r", "h"}:
        raise MalformedInput("That link is damaged: it holds no game.")
    match_id, rows, head = data_json["m"], data_json["r"], data_json["h"]
    if not isinstance(match_id, str) or not isinstance(rows, list) or len(rows) > 4000:
        raise MalformedInput("That link is damaged: it names no match.")
    if not is_match_id(match_id):  # nothing else may become a storage key (a tab's marker)
        raise MalformedInput("That link is damaged: its match is not named as this page names one.")
    if len(signatures) != SIGNATURE_BYTES * (len(rows) + 1):
        raise MalformedInput("That link is damaged: its signatures are cut short.")
    records = []
    for i, row in enumerate([*rows, head]):
        if not isinstance(row, list) or len(row) != 4 - (i == len(rows)):
            raise MalformedInput(
                "That link is damaged: a part of it is not a move or a step of a game."
            )
        device, seq, *rest = row
        kind, body = (rest[0], rest[1]) if len(rest) == 2 else ("head", rest[0])
        sig = signatures[i * SIGNATURE_BYTES : (i + 1) * SIGNATURE_BYTES]
        records.append(
            Signed.from_json({"d": device, "q": seq, "t": kind, "b": body, "s": b64(sig)})
        )
    return Packet(match_id, tuple(records[:-1]), records[-1])


def is_match_id(text: str) -> bool:
    """A match id as `table.new_match_id` makes it: "m-" and 16 lowercase hex digits."""
    return len(text) == 18 and text.startswith("m-") and all(c in HEX for c in text[2:])


HEX = frozenset("0123456789abcdef")
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
    for record in (*packet.records, packet.head):
        key = known.get(record.device)
        if key is not None and record.signature is not None:
            try:
                checks.append(
                    (key.algorithm, key.public, record.payload(packet.match_id), record.signature)
                )
            except MalformedInput:
                continue
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
