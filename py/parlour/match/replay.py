"""A finished match as a replay: its record, and that record as a link or a file (pure).

A replay record is what anyone needs to watch a game again and check it: the config, the public
seed, the log (each entry's seat and action; the hash chain is recomputed, it adds nothing a
forger could not recompute too) and the openings every seat published at the end (None for a
seat that did not open). The same document travels two ways:

- a file: the record as JSON, `{"format": "psi-parlour/replay", "version": 1, ...}`;
- a link: `#replay=1.<data>`, where 1 is the format version and <data> the same JSON,
  compressed with zlib and written as base64url without padding.

Version 2 adds one field, `signed` (match/signed_replay.py): an online game's keys and each
move's signature, so the viewer can say which device made which move. Version 3 writes `signed`
compactly (what the viewer recomputes left out, the moves' signatures packed as bytes) and adds
the signatures on each seat's openings and each device's verdict. Version 4 is a game played by
link's `signed` part: every device's first record (its key and seats) and each move's record
(match/signed_replay.py). Version 5 is the same for a game whose records were signed in
batches (one signature per link, issue 38): each proof carries its batch's digests. A record
without signatures is still written as version 1, so pages that read only version 1 open it as
before, an online game's as version 3, and a game by link with no batch as version 4; this page
reads all five.

Everything read back is checked with the match's own parsers (`MatchConfig.from_json`,
`Opening.from_json`, canonical JSON) and refused as `MalformedInput` with a sentence a player
can read: a link cut short, a character changed, something that is not ours, a newer format.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import Opening, is_hex
from parlour.fair.encoding import Json, canonical_json, parse_json
from parlour.match.config import MatchConfig
from parlour.match.log import MAX_ACTION_BYTES, LogEntry, entry_hash, genesis_hash
from parlour.match.match import AnyMatch
from parlour.match.signed_replay import Signatures
from parlour.numbers import whole

FORMAT = "psi-parlour/replay"
VERSION = 5  # the newest this page reads and writes; 1: no signatures; 2: signed, written out
LINK_PLAIN = 4  # a game by link whose every record has its own signature (5: in batches)
SIGNED_ONLINE = 3  # an online game's signatures, compact (2: the same written out)
PREFIX = "#replay="
MAX_BYTES = 2_000_000  # the document, uncompressed (a saved game's limit)
MAX_LINK = 400_000  # characters of a link's data
MESSENGER_LINK = 8_000  # characters: a longer link is offered as a game file instead
MAX_ENTRIES = 20_000
MAX_OPENINGS = 512  # per seat
_CODE = re.compile(r"^(?P<version>[0-9]{1,4})\.(?P<data>[A-Za-z0-9_-]*)$")

# The sentences, by what went wrong; `{what}` is "replay link" or "game file".
CUT_SHORT = (
    "This replay link is incomplete: it was probably cut off when it was copied. "
    "Ask for the link again, or copy all of it."
)
DAMAGED = (
    "This replay link is damaged: some of its characters were changed or lost on the way. "
    "Ask for the link again, or copy all of it."
)
NOT_OURS_LINK = "This is not a Psi Parlour replay link."
NOT_OURS_FILE = "This file is not a Psi Parlour game: open a .json file saved from a replay."
TOO_LARGE = "This {what} is too large to be a Psi Parlour game."
NEWER = (
    "This {what} was made by a newer version of Psi Parlour (replay format {version}); this "
    "page reads format {ours}. Reload the page to update it, or open the {what} on the site "
    "it came from."
)
BROKEN = "This {what} holds a game Psi Parlour cannot read: {reason}"


@dataclass(frozen=True)
class ReplayRecord:
    """Everything a replay needs: set-up, seed, the moves, and the openings at the end."""

    config: MatchConfig
    seed: bytes
    moves: tuple[tuple[int, Json], ...]  # (seat, action as the log writes it)
    openings: Mapping[int, tuple[Opening, ...] | None]  # by seat; None: did not open
    signed: Signatures | None = None  # a signed game's keys and move signatures

    @classmethod
    def of(
        cls,
        match: AnyMatch,
        openings: Mapping[int, Sequence[Opening] | None],
        signed: Signatures | None = None,
    ) -> ReplayRecord:
        """The record of a match as this device holds it, with the openings it has (and, signed
        online or by link, the signatures of its moves)."""
        seats = range(len(match.config.seats))
        if signed is not None and len(signed.proofs) != len(match.entries):
            signed = None  # never a signature for the wrong move
        return cls(
            match.config,
            match.seed,
            tuple((entry.seat, entry.action) for entry in match.entries),
            {s: None if openings.get(s) is None else tuple(openings[s] or ()) for s in seats},
            signed,
        )

    @property
    def version(self) -> int:
        """The format this record is written in: 1 unsigned, 3 signed online, 4 by link (5:
        signed in batches)."""
        if self.signed is None:
            return 1
        if not self.signed.start:
            return SIGNED_ONLINE
        return VERSION if self.signed.batched else LINK_PLAIN

    def genesis(self) -> str:
        """The log's hash before any move (from the set-up and the seed): its signatures are
        checked on the log that grows from it."""
        return genesis_hash(self.config.to_json(), self.seed)

    def entries(self) -> list[LogEntry]:
        """The log with its hash chain, recomputed from the moves (for `Match.receive` and the
        audit, which check every entry as if it came from a peer)."""
        match_id = self.config.match_id
        prev = genesis_hash(self.config.to_json(), self.seed)
        out = []
        for seq, (seat, action) in enumerate(self.moves, start=1):
            digest = entry_hash(match_id, seq, seat, action, prev)
            out.append(LogEntry(seq, seat, action, prev, digest))
            prev = digest
        return out

    def file_name(self) -> str:
        return f"psi-parlour-{self.config.game}-{self.config.match_id}.json"

    # -- the document ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Json]:
        document: dict[str, Json] = {
            "format": FORMAT,
            "version": self.version,
            "config": self.config.to_json(),
            "seed": self.seed.hex(),
            "log": [[seat, action] for seat, action in self.moves],
            "openings": {
                str(seat): None if ops is None else [o.to_json() for o in ops]
                for seat, ops in sorted(self.openings.items())
            },
        }
        if self.signed is not None:
            document["signed"] = self.signed.to_json()
        return document

    @classmethod
    def from_json(cls, data: object, what: str = "game file") -> ReplayRecord:
        """A record from its document, every field checked; `what` names it in sentences."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedInput(NOT_OURS_FILE if what == "game file" else NOT_OURS_LINK)
        version = data.get("version")
        if type(version) is int and version > VERSION:
            raise MalformedInput(NEWER.format(what=what, version=version, ours=VERSION))
        signed_versions = (2, SIGNED_ONLINE, LINK_PLAIN, VERSION)
        if set(data) != {*_KEYS, *(["signed"] if version in signed_versions else [])} or (
            version not in (1, *signed_versions)
        ):
            raise MalformedInput(NOT_OURS_FILE if what == "game file" else NOT_OURS_LINK)
        try:
            config = MatchConfig.from_json(data["config"])
            seed = _seed(data["seed"])
            moves = _moves(data["log"], len(config.seats))
            openings = _openings(data["openings"], len(config.seats))
            signed = None
            if version in signed_versions:
                signed = Signatures.from_json(
                    data["signed"], moves, int(str(version)), len(config.seats)
                )
        except MalformedInput as error:
            raise MalformedInput(BROKEN.format(what=what, reason=error.sentence)) from None
        return cls(config, seed, moves, openings, signed)

    # -- the link --------------------------------------------------------------------------

    def code(self) -> str:
        """The part of a link after `#replay=`."""
        text = json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True)
        packed = zlib.compress(text.encode("utf-8"), 9)
        return f"{self.version}." + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")

    def link(self, base: str) -> str:
        return link_to(base, self.code())


_KEYS = ("format", "version", "config", "seed", "log", "openings")


def too_long_to_send(link: str) -> str | None:
    """The sentence for a link too long for a messenger (many cut a message at about 8 KB, or
    mangle one): a signed game's link carries 64 bytes of signature per move, which no packing
    makes smaller. None for a link that fits."""
    if len(link) <= MESSENGER_LINK:
        return None
    return (
        f"This game's link is {-(-len(link) // 1000)} KB: too long for most messengers, which "
        "cut or refuse it. Send the game file instead: anyone can open it on Psi Parlour's "
        "replay page."
    )


def link_to(base: str, code: str) -> str:
    """The whole link: the site's address (no query, no fragment: the full site, even from an
    embedded page) and the code."""
    site = base.split("#", 1)[0].split("?", 1)[0]
    return f"{site}{PREFIX}{code}"


def from_code(code: str) -> ReplayRecord:
    """A record from a link's code (`1.<data>`), or from a whole link pasted."""
    text = "".join(code.split())  # a link pasted across lines
    if PREFIX in text:
        text = text.split(PREFIX, 1)[1]
    if len(text) > MAX_LINK:
        raise MalformedInput(TOO_LARGE.format(what="replay link"))
    found = _CODE.match(text)
    if found is None:
        raise MalformedInput(NOT_OURS_LINK)
    version = int(found.group("version"))
    if version > VERSION:
        raise MalformedInput(NEWER.format(what="replay link", version=version, ours=VERSION))
    if version not in (1, 2, SIGNED_ONLINE, VERSION):
        raise MalformedInput(NOT_OURS_LINK)
    raw = _inflate(_unbase64(found.group("data")))
    try:
        document = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedInput(DAMAGED) from None
    return _read(document, "replay link", DAMAGED)


def from_file(text: str) -> ReplayRecord:
    """A record from a game file's text."""
    if len(text) > MAX_BYTES:
        raise MalformedInput(TOO_LARGE.format(what="game file"))
    return _read(text, "game file", NOT_OURS_FILE)


def _read(text: str, what: str, not_json: str) -> ReplayRecord:
    """The record in a document's text; `not_json` is the sentence when it is not JSON."""
    try:
        data = parse_json(text, what)
    except MalformedInput:
        raise MalformedInput(not_json) from None
    return ReplayRecord.from_json(data, what)


def file_text(record: ReplayRecord) -> str:
    """The game file to download: the document, indented so a person can read it."""
    return json.dumps(record.to_json(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# -- reading, piece by piece ---------------------------------------------------------------------


def _unbase64(data: str) -> bytes:
    if not data or len(data) % 4 == 1:  # no base64 text ends one character into a group
        raise MalformedInput(CUT_SHORT)
    try:
        return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInput(DAMAGED) from None


def _inflate(packed: bytes) -> bytes:
    """zlib's stream, bounded (a small link must not unpack into gigabytes); a stream that
    stops before its end was cut short, one that breaks its checks was changed."""
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, MAX_BYTES)
    except zlib.error:
        raise MalformedInput(DAMAGED) from None
    if inflater.unconsumed_tail:
        raise MalformedInput(TOO_LARGE.format(what="replay link"))
    if not inflater.eof:
        raise MalformedInput(CUT_SHORT)
    if inflater.unused_data:
        raise MalformedInput(DAMAGED)
    return raw


def _seed(value: object) -> bytes:
    if not is_hex(value, 32):
        raise MalformedInput("its seed is not 32 bytes in hex.")
    return bytes.fromhex(value)


def _moves(value: object, seats: int) -> tuple[tuple[int, Json], ...]:
    if not isinstance(value, list) or len(value) > MAX_ENTRIES:
        raise MalformedInput("its log is not a list of moves.")
    moves = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise MalformedInput("a move in its log is not a seat and an action.")
        seat, action = item
        if type(seat) is not int or not 0 <= seat < seats:
            raise MalformedInput(f"a move in its log names a seat that is not one of {seats}.")
        if len(canonical_json(action)) > MAX_ACTION_BYTES:
            raise MalformedInput("a move in its log is too large.")
        moves.append((seat, action))
    return tuple(moves)


def _openings(value: object, seats: int) -> dict[int, tuple[Opening, ...] | None]:
    if not isinstance(value, dict):
        raise MalformedInput("its openings are not listed by seat.")
    out: dict[int, tuple[Opening, ...] | None] = {}
    for key, items in value.items():
        seat = whole(key)
        if seat is None or str(seat) != key or seat >= seats:
            raise MalformedInput(f"its openings name a seat that is not one of {seats}.")
        out[seat] = None if items is None else _seat_openings(items)
    return {s: out.get(s) for s in range(seats)}


def _seat_openings(items: object) -> tuple[Opening, ...]:
    if not isinstance(items, list) or len(items) > MAX_OPENINGS:
        raise MalformedInput("a seat's openings are not a list.")
    openings = tuple(Opening.from_json(item) for item in items)
    if len({o.label for o in openings}) != len(openings):
        raise MalformedInput("a seat opens the same hidden value twice.")
    return openings
