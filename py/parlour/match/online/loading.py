"""Loading a saved session again: nothing trusted on the way back.

A save is input like any other (an older page wrote it, or it was damaged), so loading reads each
field for its exact shape and then rebuilds the session through the same checks the messages
passed: every seed step is taken again, the log is replayed through the engine. Anything wrong
is `MalformedInput`, with a sentence, and nothing else. What a save holds is saves.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from parlour.errors import MalformedInput
from parlour.fair import sra
from parlour.fair.commit import NONCE_BYTES, Context, Opening, commitment_of
from parlour.fair.encoding import canonical_json
from parlour.fair.joint import RANDOM_BYTES, JointRandomness
from parlour.fair.signing import DeviceKey, Signed
from parlour.fair.store import PrivateStore
from parlour.games import game_by_id
from parlour.games.base import Game
from parlour.match.config import MAX_SEATS, MatchConfig
from parlour.match.dealing import Dealing, lock_label
from parlour.match.match import AnyMatch, Match
from parlour.match.online.device import HOST, Link, seat_peer
from parlour.match.online.joining import Joining, check_setup
from parlour.match.table import Table
from parlour.match.wire import seed_step
from parlour.match.wire_bodies import Limits, SeedStep
from parlour.numbers import whole

VERDICT_WORDS = ("verified", "cheat", "unverified")


class Loading(Joining):
    """A session rebuilt from a save, in the order the game was built."""

    def _load(self, data: dict[str, Any], now: float) -> None:
        raw_config = _field(data, "config")
        if raw_config is None:  # a guest not yet welcomed: nothing but its connection
            if self.is_host:
                raise _damaged("a host's game has no set-up")
            links = _links(data)
            if set(links) != {HOST}:
                raise _damaged("a guest's connection is not to the host")
            self.links = {HOST: Link(HOST, _seats(links[HOST], MAX_SEATS), state="lost")}
            return
        config = MatchConfig.from_json(raw_config)
        game = game_by_id(config.game)
        check_setup(game, config)
        self.config, self.game = config, game
        self.local = _local(_field(data, "local"), len(config.seats), self.is_host)
        self.links = self._read_links(_links(data))
        self.limits = _limits(_field(data, "limits"))
        self.private = {
            seat: _object(value, "the players' own choices")
            for seat, value in _by_seat(
                data.get("private", {}), self.local, "the players' own choices"
            ).items()
        }
        for choices in self.private.values():
            canonical_json(choices)
        self.stores = self._read_stores(_field(data, "stores"), game)
        self.joint = self._read_joint(_field(data, "joint"), config)
        self._load_seed(_field(data, "seed_log"), game, config, now)
        forfeit = data.get("forfeit", [])
        if forfeit:
            self.forfeit = self._seed_forfeit_outcome(sorted(_seats(forfeit, len(config.seats))))
        raw_match = _field(data, "match")
        if raw_match is not None:
            self.table = Table(self._read_match(raw_match, config), self.stores)
            if self.signing:
                self.proofs = getattr(self, "_saved_proofs", [])
                if len(self.proofs) != self.table.match.step:
                    raise _damaged("its log's proofs are not one for every move")
        self._load_moves(data)
        self._load_end(data, len(config.seats))
        if self.table is not None and self.table.match.result() is not None:
            self.ended_at = now
            self._maybe_audit()

    def _load_signing(self, raw: object) -> None:
        """Signed play: the keys, our last number, and every signed record had (their
        signatures are checked again by whoever receives them; our own unsigned are signed)."""
        data = _object(raw, "its signatures")
        self.seq = _count(data.get("seq"), "its last number")
        keys = _object(data.get("keys"), "its keys")
        self.keys = {str(d): DeviceKey.from_json(k) for d, k in keys.items()}
        records = [Signed.from_json(r) for r in _list(data.get("records"), "its signatures")]
        for record in records:
            self.seen[(record.device, record.seq)] = record
            self.records.setdefault(canonical_json([record.kind, record.body]), record)
            if record.signature is None:
                self.unsigned.append(record)

        def pick(key: str) -> list[Signed]:
            picked = []
            for i in _list(data.get(key), "its signatures"):
                if type(i) is not int or not 0 <= i < len(records):
                    raise _damaged("a signature it refers to is not there")
                picked.append(records[i])
            return picked

        self._saved_proofs = pick("proofs")
        self.acks = {r.device: r for r in pick("acks")}
        self.finals = {r.device: r for r in pick("finals")}

    def _check_signing(self) -> None:
        """Once the seats are known: our key is this page's, and no record of ours is numbered
        past our last number (we would sign two things under one)."""
        assert self.crypto is not None
        if self.keys and self.keys.get(self.me) != DeviceKey.of(self.crypto.signer):
            raise MalformedInput("That saved online game was signed by a key this page lacks.")
        mine = [r for r in self.seen.values() if r.device == self.me]
        if any(r.seq > self.seq for r in mine):
            raise _damaged("a record of this device is numbered past its last number")
        self.my_ack = max((r for r in mine if r.kind == "ack"), key=lambda r: r.seq, default=None)

    def _read_links(self, raw: dict[str, object]) -> dict[str, Link]:
        """The host: one link for every seat not held here; a guest: one, to the host."""
        seats = len(self._the_config().seats)
        if self.is_host:
            remote = [s for s in range(seats) if s not in self.local]
            expected = {seat_peer(s): (s,) for s in remote}
            if not remote or set(raw) != set(expected):
                raise _damaged("its connections are not one for every invited seat")
            for peer, seat in expected.items():
                if _seats(raw[peer], seats) != seat:
                    raise _damaged(f"the connection {peer} is for another seat")
            return {peer: Link(peer, seat, state="lost") for peer, seat in expected.items()}
        if set(raw) != {HOST}:
            raise _damaged("a guest's connection is not to the host")
        host = _seats(raw[HOST], seats)
        if set(host) & set(self.local):
            raise _damaged("the host plays this device's seat")
        return {HOST: Link(HOST, host, state="lost")}

    def _read_stores(self, raw: object, game: Game[Any, Any]) -> dict[int, PrivateStore]:
        """One private store for every seat held here, of this match and seat, with its secret
        lock for every shared deck it draws from."""
        config = self._the_config()
        stores = {}
        for seat, value in _by_seat(raw, self.local, "the private stores").items():
            store = PrivateStore.from_json(value)
            if store.context != Context(config.match_id, seat):
                raise _damaged(f"{self.name(seat)}'s private store is of another match or seat")
            stores[seat] = store
        if set(stores) != set(self.local):
            raise _damaged("a seat held here has no private store")
        for deal in game.shared_deals(config.setup()):
            for seat in set(deal.seats) & set(stores):
                lock = stores[seat].openings.get(lock_label(deal.label))
                if lock is None or not sra.is_exponent(_hex_number(lock.value)):
                    raise _damaged(f"{self.name(seat)}'s lock on the {deal.label} deck is lost")
        return stores

    def _read_joint(self, raw: object, config: MatchConfig) -> dict[int, JointRandomness]:
        """Each local seat's random bytes for the seed, or none before our cards were known."""
        names = list(config.seats)
        joint = {}
        for seat, value in _by_seat(raw, self.local, "the parts of the seed").items():
            parts = _list(value, "the parts of the seed")
            if len(parts) != 2:
                raise _damaged("a part of the seed is not its bytes and nonce")
            secret = _hex_bytes(parts[0], RANDOM_BYTES, "a part of the seed")
            nonce = _hex_bytes(parts[1], NONCE_BYTES, "a part of the seed's nonce")
            joint[seat] = JointRandomness(config.match_id, names, seat, secret=secret, nonce=nonce)
        if joint and set(joint) != set(self.local):
            raise _damaged("a seat held here has no part of the seed")
        return joint

    def _load_seed(
        self, raw: object, game: Game[Any, Any], config: MatchConfig, now: float
    ) -> None:
        """The deal steps, commitments and reveals, taken again in that order (our own reveals
        are made again, the same)."""
        steps = [_seed_step(item) for item in _list(raw, "the seed's steps")]
        self.dealing = Dealing(game.shared_deals(config.setup()), config.seats, config.match_id)
        for step in steps:
            if step[0] == "deal-lock":
                self.dealing.take_lock(step[1])
                self.seed_log.append(step)
            elif step[0] == "deal-unlock":
                self.dealing.take_unlock(step[1])
                self.seed_log.append(step)
        if not self.joint:
            self._check_not_dealt(game, config)
        for step in steps:
            if step[0] == "seed-commit":
                self._take_commit(step[1])
        for step in steps:
            if step[0] == "seed-reveal" and step[1]["seat"] in self.local:
                joint = self.joint.get(step[1]["seat"])
                if joint is None:
                    raise _damaged("a seat held here revealed a part of the seed it does not have")
                joint.my_reveal()
        for step in steps:
            if step[0] == "seed-reveal":
                self._take_reveal(step[1])
        self._check_own_commitments()
        if any(j.all_committed() for j in self.joint.values()):
            self.committed_at = now  # the clock of the reveals starts again: never early
        if not self.joint:
            self._advance_deals()

    def _check_not_dealt(self, game: Game[Any, Any], config: MatchConfig) -> None:
        """Before our part of the seed exists, our seats hold only their locks: their cards
        are dealt again, from the deals, once those are complete."""
        setup = config.setup()
        for seat, store in self.stores.items():
            locks = {lock_label(d.label) for d in game.shared_deals(setup) if seat in d.seats}
            if set(store.openings) - locks:
                raise _damaged(f"{self.name(seat)} holds dealt values but no part of the seed")

    def _check_own_commitments(self) -> None:
        """What our own commitments bound is what our stores hold."""
        for step in self.seed_log:
            if step[0] != "seed-commit" or step[1]["seat"] not in self.local:
                continue
            store = self.stores[step[1]["seat"]]
            for label, commitment in step[1]["dealt"].items():
                opening = store.openings.get(label)
                if opening is None or commitment_of(store.context, opening) != commitment:
                    raise _damaged(
                        f"{self.name(step[1]['seat'])}'s private store does not hold what "
                        "their commitment bound"
                    )

    def _read_match(self, raw: object, config: MatchConfig) -> AnyMatch:
        """The log, replayed through the engine: the match drawn here, on the seed drawn here."""
        played = MatchConfig.from_json(_object(raw, "its log").get("config"))
        if replace(played, dealt={}, shared={}) != replace(config, dealt={}, shared={}):
            raise _damaged("its log is of another match")  # (its set-up is the one checked)
        match = Match.from_json(raw)
        joint = next(iter(self.joint.values()), None)
        if joint is None or joint.missing_reveals() or joint.seed() != match.seed:
            raise _damaged("its log is not on the seed drawn here")
        return match

    def _load_moves(self, data: dict[str, Any]) -> None:
        """A guest's moves still on their way (a host has none)."""
        for seat, action in _by_seat(
            _field(data, "pending"), self.local, "the moves on their way"
        ).items():
            canonical_json(action)
            self.pending[seat] = action
        after = _by_seat(data.get("pending_after", {}), self.local, "the moves on their way")
        for seat, step in after.items():
            if seat in self.pending:
                self.pending_after[seat] = _count(step, "the step a move was sealed after")

    def _load_end(self, data: dict[str, Any], seats: int) -> None:
        """The openings and verdicts had so far (saves made before verdicts were kept have
        none)."""
        everyone = range(seats)
        for seat, raw in _by_seat(_field(data, "openings"), everyone, "the openings").items():
            self.openings[seat] = [Opening.from_json(o) for o in _list(raw, "the openings")]
        for seat, raw in _by_seat(data.get("verdicts", {}), everyone, "the verdicts").items():
            verdict = _list(raw, "the verdicts")
            if len(verdict) != 2 or verdict[0] not in VERDICT_WORDS:
                raise _damaged("a verdict is not a word and a sentence")
            self.verdicts[seat] = (str(verdict[0]), _text(verdict[1], "the verdicts"))


# -- reading a save's fields: each one's exact shape, or MalformedInput ---------------------------


def _damaged(what: str) -> MalformedInput:
    return MalformedInput(f"That saved online game is damaged: {what}.")


def _field(data: Mapping[str, object], key: str) -> object:
    if key not in data:
        raise _damaged(f"it has no {key!r}")
    return data[key]


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _damaged(f"{what} cannot be read")
    return value


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise _damaged(f"{what} cannot be read")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise _damaged(f"{what} cannot be read")
    return value


def _count(value: object, what: str) -> int:
    if type(value) is not int or not 0 <= value < 2**31:
        raise _damaged(f"{what} cannot be read")
    return value


def _seats(value: object, seats: int) -> tuple[int, ...]:
    """A list of distinct seats of a game of `seats` seats, in order."""
    found: list[int] = []
    for item in _list(value, "a list of seats"):
        if type(item) is not int or not 0 <= item < seats:
            raise _damaged("a seat is not one of the game's")
        if item in found:
            raise _damaged("a seat is listed twice")
        found.append(item)
    return tuple(found)


def _local(value: object, seats: int, host: bool) -> tuple[int, ...]:
    local = _seats(value, seats)
    if not local or list(local) != sorted(local) or (not host and len(local) != 1):
        raise _damaged("the seats played here are not a host's or a guest's")
    return local


def _links(data: dict[str, Any]) -> dict[str, object]:
    return _object(_field(data, "links"), "its connections")


def _limits(value: object) -> Limits:
    limits = _object(value, "the time allowed")
    if set(limits) != {"reveal"}:
        raise _damaged("the time allowed is not a number of seconds")
    return {"reveal": _count(limits["reveal"], "the time allowed")}


def _by_seat(value: object, seats: range | tuple[int, ...], what: str) -> dict[int, object]:
    """A JSON object keyed by seat (as text), every key one of `seats` (those held here, or
    all of the game's)."""
    held = isinstance(seats, tuple)
    found: dict[int, object] = {}
    for key, item in _object(value, what).items():
        seat = whole(key)
        if seat is None or seat not in seats or str(seat) != key:
            raise _damaged(f"{what} name a seat that is not {'here' if held else 'in the game'}")
        found[seat] = item
    return found


def _hex_bytes(value: object, size: int, what: str) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size:
        raise _damaged(f"{what} is not {size} bytes in hex")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise _damaged(f"{what} is not {size} bytes in hex") from None


def _hex_number(value: object) -> int:
    if not isinstance(value, str) or not 0 < len(value) <= 400:
        return 0
    try:
        return int(value, 16)
    except ValueError:
        return 0


def _seed_step(value: object) -> SeedStep:
    item = _list(value, "the seed's steps")
    if len(item) != 2:
        raise _damaged("a seed step is not a type and a body")
    return seed_step(item[0], item[1])
