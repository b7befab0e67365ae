"""What a game by link takes from a live game on this device, to carry it on (carrying.py): the
match so far, its seats' secrets, every device's seats and key, and (on the host) the moves
another device may have missed, with their live proofs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.errors import MalformedInput, ParlourError
from parlour.fair.encoding import Json
from parlour.fair.signing import DeviceKey, Signed, Signer, Verify
from parlour.fair.store import PrivateStore
from parlour.match.by_link.packing import (
    Check,
    Packet,
    is_match_id,
    read_invite,
    signature_checks,
)
from parlour.match.match import Match

HOST = "host"  # live play's name for the host's device (match/online/device.py)
CATCH_UP_MOST = 64  # entries a carry may bring: live play's own most in one message


@dataclass
class Live:
    """What a game by link takes from a live game's save on this device: the match so far, its
    seats' secrets and choices, and who holds which seat with which key (live play's names for
    the devices: `host`, `seat-<n>`)."""

    match: dict[str, Json]  # Match.to_json
    me: str  # this device's live name
    signer: Signer
    verify: Verify
    seats: dict[str, tuple[int, ...]]  # live device -> its seats
    keys: dict[str, DeviceKey]  # live device -> its key
    stores: dict[int, PrivateStore]
    private: dict[int, dict[str, Json]] = field(default_factory=dict)
    catch_up: list[Json] = field(default_factory=list)  # [entry, proof] pairs (the host's)
    # the proposals (device, number) this device's live log was appended from: each counts
    # once, as live play has it, so a carry cannot use one again for a move it brings
    used: set[tuple[str, int]] = field(default_factory=set)
    # this device's moves on their way to the host when the connection broke, by seat (None:
    # not known, a save made before it was kept)
    pending: dict[int, Json] | None = field(default_factory=dict)

    def match_now(self) -> Any:
        """The live match as this device holds it (read back as input: every entry checked)."""
        return Match.from_json(self.match)

    def link_name(self, device: str) -> str:
        """A live device's name by link: after its lowest seat, as every game by link names
        its devices."""
        return f"s{min(self.seats[device])}"

    def first_kind(self, name: str) -> str:
        """The only first record a device (by its name by link) may sign in a carried game: the
        host's `carry`, every other device's `carried` (never an `open` or a `join`, which
        would name seats, a key or a time per move of its own)."""
        return "carry" if name == self.link_name(HOST) else "carried"

    def link_keys(self) -> dict[str, DeviceKey]:
        """Every device's key, by its name by link."""
        return {self.link_name(d): key for d, key in self.keys.items()}


def live_of(session: Any) -> Live:
    """What the by-link game needs of a live session (match/online's `OnlineSession`): refused,
    with a sentence, when it cannot be carried on."""
    table = getattr(session, "table", None)
    crypto = getattr(session, "crypto", None)
    if table is None:
        raise MalformedInput("The live game has not begun: there is nothing to carry on yet.")
    if not is_match_id(table.match.config.match_id):
        raise MalformedInput("That live game's id is not one a game by link can take.")
    if crypto is None:
        raise MalformedInput(
            "This live game was not signed (the browser could not sign), so it cannot carry on "
            "by link."
        )
    seats: dict[str, tuple[int, ...]]
    if session.is_host:
        seats = {HOST: tuple(session.local)}
        for peer, link in session.links.items():
            seats[peer] = tuple(link.seats)
    else:
        seats = {HOST: tuple(session.links[HOST].seats)}
        host_seats = set(seats[HOST])
        for seat in range(len(table.match.config.seats)):
            if seat not in host_seats:
                seats[f"seat-{seat}"] = (seat,)
    if set(seats) != set(session.keys) or any(not held for held in seats.values()):
        raise MalformedInput(
            "This device does not know every device's key of the live game, so it cannot carry "
            "it on."
        )
    stores = {s: PrivateStore.from_json(st.to_json()) for s, st in session.stores.items()}
    live = Live(
        table.match.to_json(),
        session.me,
        crypto.signer,
        crypto.verify,
        seats,
        dict(session.keys),
        stores,
        {s: dict(v) for s, v in session.private.items()},
    )
    live.used = {(p.device, p.seq) for p in session.proofs if p is not None}
    pending = {} if session.is_host else session.pending
    live.pending = {int(s): json.loads(json.dumps(a)) for s, a in pending.items()}
    if session.is_host:
        live.catch_up = _catch_up_of(session)
    return live


def _catch_up_of(session: Any) -> list[Json]:
    """The host's entries after the lowest position another device signed an ack for, each
    with its proof: what a device that lost the connection early may lack."""
    match = session.table.match
    steps = [ack.body.get("step") for d, ack in session.acks.items() if d != session.me]
    others = len(session.keys) - 1
    known = [s for s in steps if type(s) is int and 0 <= s <= match.step]
    low = min(known) if len(known) == others and known else 0
    low = max(low, match.step - CATCH_UP_MOST)
    proofs = session.proofs
    if len(proofs) != match.step:
        raise MalformedInput("This device lacks a proof of a live move, so it cannot carry on.")
    pairs = [
        [entry.to_json(), proof.to_json()]
        for entry, proof in zip(match.entries[low:], proofs[low:], strict=True)
    ]
    copied: list[Json] = json.loads(json.dumps(pairs))  # the record's body is not the log's
    return copied


def carry_proof_checks(
    match_id: str, keys: Mapping[str, DeviceKey], records: Sequence[Signed]
) -> list[Check]:
    """The live proofs the `carry` among `records` holds, with the live keys they must hold
    under (`keys` by live name): for a page that checks signatures before the call."""
    checks: list[Check] = []
    for record in records:
        items = record.body.get("e") if record.kind == "carry" and record.seq == 1 else None
        for item in items[:CATCH_UP_MOST] if isinstance(items, list) else []:
            check = _proof_check(match_id, keys, item)
            if check is not None:
                checks.append(check)
    return checks


def _proof_check(match_id: str, keys: Mapping[str, DeviceKey], item: object) -> Check | None:
    try:
        if not isinstance(item, list) or len(item) != 2:
            return None
        proof = Signed.from_json(item[1])
        key = keys.get(proof.device)
        found = proof.signed_data(match_id) if key is not None else None
    except MalformedInput:
        return None
    if key is None or found is None:
        return None
    return key.algorithm, key.public, found[0], found[1]


def host_checks(session: Any) -> list[Check]:
    """What the host's "Carry on by link" checks: the live proofs of the moves it carries."""
    try:
        live = live_of(session)
    except MalformedInput:
        return []
    match_id = str(live.match["config"]["match_id"])
    carry = Signed(live.link_name(live.me), 1, "carry", {"e": live.catch_up})
    return carry_proof_checks(match_id, live.keys, [carry])


def carry_checks(session: Any, link: Packet | list[str]) -> list[Check]:
    """What opening the host's carry link (its packet, or its text in parts) checks on another
    live device: the link's signatures under the live keys, and the live proofs of the moves it
    carries."""
    try:
        live = live_of(session)
        packet = link if isinstance(link, Packet) else read_invite(link)
    except ParlourError:
        return []
    return signature_checks(packet, live.link_keys()) + carry_proof_checks(
        packet.match_id, live.keys, packet.records
    )


def saved_live_keys(data: object) -> tuple[dict[str, DeviceKey], dict[str, DeviceKey]]:
    """A carried game's save: every device's key by its name by link, and by its live name
    (empty when the save holds no live part, or a damaged one)."""
    saved = data.get("live") if isinstance(data, dict) else None
    try:
        if not isinstance(saved, dict):
            return {}, {}
        seats, keys = saved["seats"], saved["keys"]
        by_live = {str(d): DeviceKey.from_json(k) for d, k in keys.items()}
        by_link = {f"s{min(seats[d])}": key for d, key in by_live.items()}
    except (KeyError, TypeError, ValueError, AttributeError, MalformedInput):
        return {}, {}
    return by_link, by_live
