"""What play by link keeps in browser storage, read back (pure): each game's save, its key pair
and records, and the parts of split links kept until every part has come (by_link/app.py writes
them)."""

from __future__ import annotations

from parlour.errors import ParlourError
from parlour.fair.encoding import Json, parse_json
from parlour.fair.signing import DeviceKey, Signed
from parlour.match.by_link import packing
from parlour.match.by_link.live import carry_proof_checks, saved_live_keys
from parlour.numbers import whole


def kept_parts(raw: str | None) -> dict[str, dict[int, str]]:
    """The parts kept in storage (none from damaged text: they are only a convenience)."""
    try:
        data = parse_json(raw, "Parts of a link") if raw else {}
    except ParlourError:
        return {}
    if not isinstance(data, dict):
        return {}
    parts: dict[str, dict[int, str]] = {}
    for tag, items in data.items():
        if isinstance(items, dict):
            found = {whole(i): t for i, t in items.items() if isinstance(t, str)}
            parts[str(tag)] = {i: t for i, t in found.items() if i is not None and is_part(t)}
    return parts


def is_part(text: str) -> bool:
    """Whether a link is one part of a link split in several."""
    try:
        return isinstance(packing.read_fragment(text), packing.Part)
    except ParlourError:
        return False


def save_checks(data: Json) -> list[packing.Check]:
    """Every signature in a saved game by link (none for a damaged save, which reading it
    back then sets aside)."""
    records = saved_records(data)
    if not records or not isinstance(data, dict):
        return []
    packet = packing.Packet(str(data.get("match")), tuple(records[:-1]), records[-1])
    # and both records of every fork kept, under the keys of the save's first records: a
    # fork's second record is not among the records, and reading the save back checks it
    kept = [r for r in _fork_records(data.get("forks")) if r not in records]
    forks = packing.Packet(packet.match_id, tuple(kept[:-1]), kept[-1]) if kept else None
    by_link, by_live = saved_live_keys(data)  # a live game carried on: keys from its save
    keys = {r.device: DeviceKey.from_json(r.body.get("k")) for r in _first_records(records)}
    keys.update(by_link)
    return (
        packing.signature_checks(packet, by_link)
        + carry_proof_checks(packet.match_id, by_live, records)
        + (packing.signature_checks(forks, keys) if forks else [])
    )


def _fork_records(forks: Json) -> list[Signed]:
    """Both records of each fork a save keeps (none that cannot be read: reading the save
    back refuses it then)."""
    found: list[Signed] = []
    for fork in forks if isinstance(forks, list) else []:
        for side in ("first", "second"):
            try:
                found.append(Signed.from_json(fork.get(side) if isinstance(fork, dict) else None))
            except ParlourError:
                continue
    return found


def _first_records(records: list[Signed]) -> list[Signed]:
    """The devices' first records (their keys), those whose key can be read."""
    firsts = []
    for record in records:
        if record.seq == 1 and record.kind in ("open", "join"):
            try:
                DeviceKey.from_json(record.body.get("k"))
            except ParlourError:
                continue
            firsts.append(record)
    return firsts


def save_keys(raw: str | None) -> dict[str, DeviceKey]:
    """The devices' keys a saved game holds (their first records): to check a link for it
    before the game is read back."""
    try:
        data = parse_json(raw, "A saved game by link") if raw else None
        records = saved_records(data)
        keys = {
            r.device: DeviceKey.from_json(r.body.get("k"))
            for r in records
            if r.seq == 1 and r.kind in ("open", "join")
        }
        return {**keys, **saved_live_keys(data)[0]}
    except ParlourError:
        return {}


def saved_records(data: Json) -> list[Signed]:
    """A save's signed records (none when they cannot be read)."""
    items = data.get("records") if isinstance(data, dict) else None
    try:
        return [Signed.from_json(r) for r in items] if isinstance(items, list) else []
    except ParlourError:
        return []


SUMMARY: dict[str, type | tuple[type, ...]] = {
    "match": str,
    "game": str,
    "players": list,
    "mine": list,
    "my_turn": bool,
    "waiting": str,
    "over": bool,
    "last_link_at": (int, float),
}


def summary_line(line: Json, match_id: str) -> dict[str, Json] | None:
    """A save's summary line for "Your games", every field of its type (None otherwise: the
    save is then read back whole, and set aside with a sentence if it cannot be)."""
    if not isinstance(line, dict) or set(line) != set(SUMMARY) or line["match"] != match_id:
        return None
    for key, kind in SUMMARY.items():
        value = line[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            return None
    if not all(isinstance(n, str) for n in line["players"]):
        return None
    if not all(type(s) is int for s in line["mine"]):
        return None
    return line
