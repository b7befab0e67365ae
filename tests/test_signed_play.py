"""Signed play (version 2, issue 26): every device signs what it originates, the host relays it
unchanged, every device checks every signature, the table code, and proof kept of what is
refused. Real signers from `cryptography` (tests/signers.py); the in-memory transport."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from parlour.errors import MalformedInput
from parlour.fair.signing import DeviceKey, Signed, b64
from parlour.games import GAMES
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match import wire
from parlour.match.audit import Verified
from parlour.match.config import MatchConfig
from parlour.match.online import HOST, OnlineSession, seat_peer
from parlour.match.online.device import Crypto
from parlour.net.memory import MemoryNet
from tests.signers import Ed25519Signer, P256Signer, crypto, verify
from tests.tables import largest
from tests.test_online import device, notices, over, play, start
from tests.test_online_attacks import until_to_move

FOUR = largest()  # every game, at its example with the most seats (games/<game>/facts.py)


def mixed():
    """Every other device without Ed25519, as a browser without it signs with P-256."""
    mixed.count = getattr(mixed, "count", 0) + 1
    return crypto(Ed25519Signer if mixed.count % 2 else P256Signer)


@pytest.mark.parametrize("game_id, names, variant", FOUR)
def test_a_signed_game_of_each_game_ends_verified_everywhere_with_one_table_code(
    game_id, names, variant
):
    net = start(game_id, names, variant, match_id=f"m-signed-{game_id}", signed=mixed)
    codes = {dev.table_code() for dev in net.everyone()}
    assert len(codes) == 1 and None not in codes
    (code,) = codes
    play(net)
    net.tick(1.0)
    assert over(net)
    for dev in net.everyone():
        assert dev.audit_result == Verified(), (dev.role, dev.audit_result, dev.notices[-3:])
        assert dev.table_code() == code
        assert not [n for n in dev.notices if "efused" in n], dev.notices
    heads = {dev.match.head() for dev in net.everyone()}
    assert len(heads) == 1
    # every entry's proof was signed by the device of the seat that moved
    host = net.host
    for entry, proof in zip(host.match.entries, host.proofs, strict=True):
        assert proof.body["action"] == entry.action
        assert proof.device == (HOST if entry.seat in host.local else seat_peer(entry.seat))


def test_a_key_swapped_by_the_host_changes_the_table_code_on_that_guests_device():
    """The host tells Bo another key for Cy's device (its own, to sit in the middle): Bo's code
    is not Cy's nor the host's, so the players see it when they compare."""
    mallory = Ed25519Signer()

    def swap(sender, to, text):
        """Bo is told Mallory's key for Cy's device, and gets Cy's words signed by Mallory."""
        data = json.loads(text)
        if sender != "host" or to != seat_peer(1):
            return text
        if "keys" in data and "seat-2" in data["keys"]:
            data["keys"]["seat-2"] = DeviceKey.of(mallory).to_json()
        if data.get("d") == "seat-2":
            body = {k: v for k, v in data.items() if k not in ("v", "t", "n", "d", "q", "s")}
            record = Signed("seat-2", data["q"], data["t"], body)
            data["s"] = b64(mallory.sign(record.payload("m-signed-swap")))
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    config = MatchConfig("psi-squad", "m-signed-swap", ("Ada", "Bo", "Cy"), {"length": 3})
    host = OnlineSession.host(GAMES["psi-squad"], config, (0,), 0.0, crypto=crypto())
    net = MemoryNet(host)
    net.tamper = swap
    net.connect(1, OnlineSession.guest(0.0, crypto()))
    net.connect(2, OnlineSession.guest(0.0, crypto()))
    bo, cy = net.guests[1], net.guests[2]
    assert host.table_code() == cy.table_code() is not None
    assert bo.table_code() is not None and bo.table_code() != cy.table_code()


def signed_psi(match_id: str) -> MemoryNet:
    net = start("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, match_id=match_id, signed=crypto)
    for seat, digits in {0: "123", 1: "456", 2: "789"}.items():
        device(net, seat).act(seat, ChooseCypher(digits))
    net.flush()
    return net


def bo_proposal(net: MemoryNet) -> str:
    """Bo's next move, as his device sends it (taken off the wire, not delivered)."""
    until_to_move(net, 1)
    bo = net.guests[1]
    assert bo.act(1, Guess(2, "000")).sent
    ((_, text),) = bo.take_outbox()
    return text


def snapshot(dev: OnlineSession):
    return (dev.match.step, dev.match.head(), len(dev.proofs), dict(dev.pending))


def deliver(net: MemoryNet, text: str) -> None:
    """`text` on Bo's connection to the host, with the next number."""
    data = json.loads(text)
    data["n"] = net.host.links[seat_peer(1)].n_in + 1
    net.host.receive(seat_peer(1), json.dumps(data), net.now)


@pytest.mark.parametrize(
    "change, sentence",
    [
        (
            lambda d: d.update(s=d["s"][:-2] + ("AA" if d["s"][-2:] != "AA" else "BA")),
            "said to come from Bo's device does not carry its signature",
        ),
        (lambda d: d.update(s=d["s"][:40]), "signature on a 'propose' message is not 64 bytes"),
        (lambda d: d.pop("s"), "came without its sender's signature"),
        (lambda d: d.update(q=d["q"] + 1), "does not carry its signature"),
        (lambda d: d.update(after=d["after"] - 1), "does not carry its signature"),
        (lambda d: d.update(d="seat-2"), "does not carry its signature"),
        (lambda d: d.update(v=1), "protocol version 1 arrived"),
    ],
)
def test_a_forged_truncated_or_renumbered_signature_is_refused_naming_the_sender(change, sentence):
    net = signed_psi("m-signed-forged")
    text = bo_proposal(net)
    before = snapshot(net.host)
    data = json.loads(text)
    change(data)
    deliver(net, json.dumps(data))
    assert sentence in notices(net.host), notices(net.host)
    assert snapshot(net.host) == before
    deliver(net, text)  # the real one still goes through
    assert net.host.match.step == before[0] + 1


def test_a_signed_message_replayed_from_another_match_is_refused():
    """Bo's device, with one key, plays two matches: its proposal in the first, sent again in
    the second, does not carry a signature for the second game."""
    bo_key = crypto()
    first = start("psi-squad", ("Ada", "Bo"), {"length": 3}, match_id="m-signed-a", signed=crypto)
    second = start("psi-squad", ("Ada", "Bo"), {"length": 3}, match_id="m-signed-b", signed=crypto)
    for net in (first, second):
        net.guests[1].crypto = bo_key
    # the keys were exchanged already: give both hosts Bo's one key, as a reload keeps it
    for net in (first, second):
        net.host.keys[seat_peer(1)] = DeviceKey.of(bo_key.signer)
        net.guests[1].keys[seat_peer(1)] = DeviceKey.of(bo_key.signer)
    rec = first.guests[1]._originate(
        "seed-commit", {"seat": 1, "commitment": "00" * 32, "dealt": {}}
    )
    first.guests[1].sign_pending()
    data = {
        "v": wire.SIGNED_VERSION,
        "t": "seed-commit",
        "n": 99,
        **rec.body,
        "d": rec.device,
        "q": rec.seq,
        "s": b64(rec.signature),
    }
    before = len(second.host.seed_log)
    second.host.receive(seat_peer(1), json.dumps(data), second.now)
    assert "does not carry its signature for this game" in notices(second.host)
    assert len(second.host.seed_log) == before


def test_two_different_messages_under_one_number_are_refused_and_kept_as_proof():
    """A doctored device signs two different proposals under one number (to show two devices
    two moves): the host refuses the second, and keeps both as proof."""
    net = signed_psi("m-signed-equivocate")
    text = bo_proposal(net)
    deliver(net, text)
    bo = net.guests[1]
    first = json.loads(text)
    other = {**first, "action": {"guess": [2, "111"]}}
    payload_body = {k: other[k] for k in ("seat", "action", "after")}
    twin = Signed("seat-1", first["q"], "propose", payload_body)
    twin.signature = bo.crypto.signer.sign(twin.payload(bo.config.match_id))
    other["s"] = b64(twin.signature)
    step = net.host.match.step
    deliver(net, json.dumps(other))
    assert "Bo's device signed two different messages under one number" in notices(net.host)
    assert net.host.match.step == step
    (fork,) = net.host.forks
    assert fork.device == "seat-1" and not fork.first.same_content(fork.second)


def test_the_host_cannot_append_a_move_for_a_guest_seat():
    """The host appends, for Bo's seat, a guess Bo never made, with a proposal it signed itself:
    Cy's device (not only Bo's) refuses it, naming Bo's device as the one that must sign."""
    net = signed_psi("m-signed-host-forges")
    until_to_move(net, 1)
    host, cy = net.host, net.guests[2]
    step = cy.match.step
    result = host.match.submit_json(1, host.game.action_to_json(Guess(2, "000")))
    assert result.entry is not None
    host._appended(result.entry)  # the host's own proof, for Bo's seat
    net.flush()
    assert "came without a proposal signed by Bo's device" in notices(cy), notices(cy)
    assert cy.match.step == step


def test_a_device_of_the_old_unsigned_version_gets_a_sentence_not_a_crash():
    config = MatchConfig("esp", "m-signed-old", ("Ada", "Bo"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0, crypto=crypto())
    net = MemoryNet(host)
    old = OnlineSession.guest(0.0)  # version 1: signs nothing
    net.connect(1, old)
    assert "protocol version 1 arrived; this Psi Parlour speaks version 3" in notices(host)
    assert "protocol version 3 arrived; this Psi Parlour speaks version 1" in notices(old)
    assert host.table is None and old.config is None


def test_a_device_of_the_first_signed_version_gets_a_sentence_not_a_crash():
    """Version 2 signed, and sent each ack as a message of its own; version 3 carries them on
    the messages already sent. A version 2 device's greeting gets the sentence."""
    config = MatchConfig("esp", "m-signed-v2", ("Ada", "Bo"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0, crypto=crypto())
    host.opened(seat_peer(1), 0.0)
    key = DeviceKey.of(crypto().signer).to_json()
    hello = {"v": 2, "t": "hello", "n": 1, "resume": None, "key": key}
    host.receive(seat_peer(1), json.dumps(hello), 0.0)
    assert "protocol version 2 arrived; this Psi Parlour speaks version 3" in notices(host)
    assert host.table is None


def reload(dev: OnlineSession, now: float, crypto_=None) -> OnlineSession:
    """The same page after a reload: its save, and its key pair (kept in IndexedDB)."""
    saved = json.loads(json.dumps(dev.to_json()))
    return OnlineSession.from_json(saved, now, crypto=crypto_ or dev.crypto)


def test_a_guest_that_reloads_keeps_its_key_and_the_game_goes_on_verified():
    net = signed_psi("m-signed-reload")
    until_to_move(net, 1)
    bo = net.guests[1]
    net.drop(1)
    for _ in range(10):
        net.tick(1.0)
    back = reload(bo, net.now)
    assert back.seq == bo.seq and back.keys == bo.keys and len(back.proofs) == bo.match.step
    net.connect(1, back)
    assert not [n for n in notices(net.host).split(" | ") if "efused" in n]
    play(net, seed=b"signed-reload")
    net.tick(1.0)
    assert {dev.table_code() for dev in net.everyone()} == {net.host.table_code()}
    assert all(dev.audit_result == Verified() for dev in net.everyone())


def test_a_seat_that_comes_back_with_another_key_is_refused():
    net = signed_psi("m-signed-other-key")
    bo = net.guests[1]
    net.drop(1)
    for _ in range(10):
        net.tick(1.0)
    stranger = OnlineSession.guest(net.now, crypto())
    step = net.host.match.step
    net.connect(1, stranger)
    assert "Bo's seat came back from a device with another key: refused" in notices(net.host)
    assert net.host.match.step == step and stranger.config is None
    assert bo.crypto is not stranger.crypto


def test_a_signed_save_needs_the_key_it_was_signed_with():
    net = signed_psi("m-signed-save-key")
    saved = json.loads(json.dumps(net.guests[1].to_json()))
    with pytest.raises(MalformedInput):
        OnlineSession.from_json(saved, net.now)  # no key at all
    with pytest.raises(MalformedInput):
        OnlineSession.from_json(saved, net.now, crypto=crypto())  # another key


# -- every signed message, changed in the middle of a real game ---------------------------------

SIGNED_FIELDS = ("d", "q", "s")
JUNK = st.one_of(
    st.integers(-3, 2**33),
    st.text(max_size=12),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(0, 9), max_size=2),
)


def state_of(dev: OnlineSession):
    """What a refused message must leave as it was: the log, its proofs, every other device's
    signed record and word seen, the verdicts, what is on its way, and the proof of forks. (Its
    own word on where its log stands may be signed for the first time on any message.)"""
    match = dev.match
    return (
        dev.phase,
        (match.step, match.head()) if match is not None else None,
        [p.to_json() for p in dev.proofs],
        sorted(k for k in dev.seen if k[0] != dev.me),
        {k: v.seq for k, v in dev.acks.items()},
        dict(dev.verdicts),
        dict(dev.pending),
        len(dev.forks),
        dict(dev.keys),
    )


# One planned change: what to do (replace, remove, flip a character), which part, which
# character, a value to put. The plans are drawn before the game (whose keys and seed are new
# every run), and used in turn on the messages as they come.
PLAN = st.tuples(
    st.sampled_from(["replace", "remove", "flip"]),
    st.integers(0, 2**16),
    st.integers(0, 2**16),
    JUNK,
)
REMOVED = object()


def changed(value, plan):
    """`value` changed as planned (or REMOVED)."""
    kind, _, at, junk = plan
    if kind == "flip" and isinstance(value, str) and value:
        i = at % len(value)
        return value[:i] + ("A" if value[i] != "A" else "B") + value[i + 1 :]
    if kind == "remove":
        return REMOVED
    return junk


def mutate(data, recipient: OnlineSession, plan, turn: int = 0):
    """A copy of `data` with one signed part changed as planned, or None when it carries nothing
    signed that the recipient would still act on (entries it has already)."""
    data = json.loads(json.dumps(data))
    which = plan[1]
    other = "s" in data or (data.get("t") == "entries" and "proofs" in data)
    if "a" in data and ((which + turn) % 2 or not other):  # the acks it carries, every other
        holder = data["a"][plan[2] % len(data["a"])]  # a carried ack: [d, q, step, head, s]
        fields = list(range(len(holder)))
    elif "s" in data:
        holder = data
        fields = sorted(k for k in data if k not in ("v", "t", "n", "a"))
    elif data.get("t") == "entries" and "proofs" in data and recipient.match is not None:
        step = recipient.match.step
        fresh = [i for i, e in enumerate(data["entries"]) if e.get("seq", 0) > step]
        if not fresh:
            return None
        holder = data["proofs"][fresh[which % len(fresh)]]
        if which % 2 and isinstance(holder.get("b"), dict) and holder["b"]:
            holder = holder["b"]
        fields = sorted(holder)
    else:
        return None
    field = fields[which % len(fields)]
    value = changed(holder[field], plan)
    if value is REMOVED:
        del holder[field]
    else:
        holder[field] = value
    return data


@pytest.mark.parametrize("game_id, names, variant", FOUR)
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],  # a whole game each: no shrinking
)
@given(plans=st.lists(PLAN, min_size=32, max_size=32))
def test_every_signed_message_changed_in_the_middle_of_a_game_is_refused_and_changes_nothing(
    game_id, names, variant, plans
):
    """Every message that carries a signature, on every connection, is changed once on its way
    (one signed field, the sender, its number, its signature, or a new entry's proof), and the
    changed copy delivered first: the device refuses it and nothing it keeps changes; the real
    message then goes through, and the game ends verified everywhere."""
    net = start(game_id, names, variant, match_id=f"m-mutate-{game_id}", signed=crypto)
    tried, seen = [], []

    def man_in_the_middle(sender, to, text):
        recipient = net.host if to == "host" else net.guests[int(to.removeprefix("seat-"))]
        peer = sender if to == "host" else HOST
        link = recipient.links[peer]
        mutated = mutate(json.loads(text), recipient, plans[len(seen) % len(plans)], len(seen))
        seen.append(text)
        real = json.loads(text)
        if mutated is None or mutated == real:
            # numbered after what this connection delivered (a changed copy took a number)
            real["n"] = link.n_in + 1
            return json.dumps(real, sort_keys=True, separators=(",", ":"))
        before, said = state_of(recipient), recipient.revision
        waiting = len(recipient.outbox)
        mutated["n"] = link.n_in + 1
        recipient.receive(peer, json.dumps(mutated), net.now)
        last = recipient.notices[-1] if recipient.revision != said else ""  # (a notice bumps it)
        assert last.startswith("Refused"), (mutated, last)
        assert state_of(recipient) == before, (text, mutated, last)
        del recipient.outbox[waiting:]  # its answer (a reject) is lost on the way as well
        tried.append("ack" if mutated.get("a") != real.get("a") else mutated["t"])
        real["n"] = link.n_in + 1
        return json.dumps(real, sort_keys=True, separators=(",", ":"))

    net.tamper = man_in_the_middle
    play(net, seed=game_id.encode())
    net.tick(1.0)
    assert len(tried) > 10 and {"propose", "ack"} <= set(tried), tried
    for dev in net.everyone():
        assert dev.audit_result == Verified(), (dev.role, dev.notices[-3:])


# -- a device that signs and checks later, as the page does with WebCrypto --------------------


class Later:
    """The page's way: `sign` answers later (the record waits for the page to sign it), and
    `verify` answers only what was checked before the message was handed in."""

    def __init__(self) -> None:
        self.key = Ed25519Signer()
        self.algorithm, self.public_key = self.key.algorithm, self.key.public_key
        self.checked: dict[tuple[str, bytes, bytes, bytes], bool] = {}

    def sign(self, data: bytes) -> None:
        return None

    def verify(self, algorithm: str, public: bytes, data: bytes, signature: bytes) -> bool:
        return self.checked.get((algorithm, public, data, signature), False)


class LaterNet(MemoryNet):
    """Every device signs what waits before its outbox is taken, and checks a message's
    signatures before it is handed in, as the page's worker does around each call."""

    def _drain(self):
        for dev in self.everyone():
            for record, data in dev.pending_signatures():
                record.signature = dev.crypto.signer.key.sign(data)
        return super()._drain()

    def _deliver(self, sender, to, text):
        recipient = self.host if to == "host" else self.guests[int(to.removeprefix("seat-"))]
        for check in recipient.signature_checks(text):
            recipient.crypto.signer.checked[check] = verify(*check)
        super()._deliver(sender, to, text)


def later() -> Crypto:
    signer = Later()
    return Crypto(signer, signer.verify)


@pytest.mark.parametrize("game_id, names, variant", FOUR)
def test_a_device_that_signs_and_checks_later_plays_a_whole_game_verified(game_id, names, variant):
    config = MatchConfig(game_id, f"m-later-{game_id}", names, variant)
    host = OnlineSession.host(GAMES[game_id], config, (0,), 0.0, crypto=later())
    net = LaterNet(host)
    for seat in range(1, len(names)):
        net.connect(seat, OnlineSession.guest(0.0, later()))
    assert len({dev.table_code() for dev in net.everyone()}) == 1
    play(net, seed=game_id.encode())
    net.tick(1.0)
    for dev in net.everyone():
        assert dev.audit_result == Verified(), (dev.role, dev.notices[-3:])
        assert not [n for n in dev.notices if "efused" in n], dev.notices


def test_a_message_waits_for_its_signature_and_every_one_after_it_on_its_connection():
    config = MatchConfig("esp", "m-later-order", ("Ada", "Bo"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0, crypto=later())
    host.opened(seat_peer(1), 0.0)
    host._send(host.links[seat_peer(1)], "ping", at=1)  # unsigned, goes at once
    host._send(host.links[seat_peer(1)], "openings", seat=0, openings=[])  # waits
    host._send(host.links[seat_peer(1)], "ping", at=2)  # waits behind it
    assert [json.loads(t)["t"] for _, t in host.take_outbox()] == ["ping"]
    ((record, data),) = host.pending_signatures()
    record.signature = host.crypto.signer.key.sign(data)
    assert [json.loads(t)["t"] for _, t in host.take_outbox()] == ["openings", "ping"]


def test_log_entries_wait_for_the_signature_of_the_proposal_they_carry():
    """The host appends its own move: the entries carry its signed proposal as their proof, so
    they wait until that proposal is signed (a proof without its signature is not one)."""
    config = MatchConfig("psi-squad", "m-later-proof", ("Ada", "Bo"), {"length": 3})
    host = OnlineSession.host(GAMES["psi-squad"], config, (0,), 0.0, crypto=later())
    net = LaterNet(host)
    net.connect(1, OnlineSession.guest(0.0, later()))
    assert host.act(0, ChooseCypher("123")).ok
    sent = [json.loads(t)["t"] for _, t in host.take_outbox()]
    assert "entries" not in sent
    for record, data in host.pending_signatures():
        record.signature = host.crypto.signer.key.sign(data)
    (entries,) = [json.loads(t) for _, t in host.take_outbox() if '"entries"' in t]
    assert all(p["s"] for p in entries["proofs"])


def test_acks_cost_no_message_of_their_own_and_every_device_hears_every_other():
    """The signed words on where each log stands are signed on the heartbeat and ride on
    messages sent anyway (proposals, log entries, openings, heartbeats): a signed game sends
    exactly the messages an unsigned one does, and at the end every device holds every other
    device's signed word on the last move (the host relayed them all)."""
    counts = {}
    for signed in (None, crypto):
        net = start("esp", ("Ada", "Bo", "Cy"), match_id="m-signed-count-1", signed=signed)
        while not over(net):
            play(net, seed=b"count", steps=1, to_the_end=False)
            net.tick(0.6)  # a heartbeat between moves, as in a real game
        for _ in range(2):
            net.tick(1.0)
        counts[signed] = Counter(json.loads(text)["t"] for *_, text in net.traffic)
    assert counts[crypto] == counts[None], counts
    devices = net.everyone()
    for dev in devices:
        for other in devices:
            if other is not dev:
                assert dev.acks[other.me].body == {
                    "step": other.match.step,
                    "head": other.match.head(),
                }
    carried = [json.loads(text).get("a", []) for *_, text in net.traffic]
    assert sum(map(len, carried)) >= net.host.match.step  # words on (nearly) every move


def test_a_save_keeps_each_device_s_latest_ack_only_and_a_reload_goes_on_signing():
    """Acks pile up, one per device each time its log moves: a save keeps the latest of each
    (all a reload needs), so it does not grow with every heartbeat; the reloaded device goes
    on from its own last number and ends the game verified."""
    net = start("esp", ("Ada", "Bo"), match_id="m-signed-save-acks", signed=crypto)
    for _ in range(12):
        play(net, seed=b"acks", steps=1, to_the_end=False)
        net.tick(0.6)
    bo = net.guests[1]
    acks = [r for r in bo.records.values() if r.kind == "ack"]
    assert len(acks) > 4
    saved = bo.to_json()["signing"]
    kept = [r for r in saved["records"] if r["t"] == "ack"]
    assert sorted((r["d"], r["q"]) for r in kept) == sorted(
        (r.device, r.seq) for r in [*bo.acks.values(), bo.my_ack]
    )
    back = reload(bo, net.now)
    assert back.seq == bo.seq and back.my_ack.seq == bo.my_ack.seq
    net.drop(1)
    net.connect(1, back)
    play(net, seed=b"acks-2")
    net.tick(1.0)
    assert all(dev.audit_result == Verified() for dev in net.everyone())


@pytest.mark.parametrize("sealed_after_the_end, refused", [(False, False), (True, True)])
def test_a_move_that_crossed_the_end_is_let_go_and_one_made_after_it_is_refused(
    sealed_after_the_end, refused
):
    """Where several seats act at once (Telepathic's check after each action), one seat may end
    the game while another's device plays on from the same step: that move crossed the end and
    is let go without a refusal on either device; a move sealed after the end is refused."""
    net = start("esp", ("Ada", "Bo"), match_id="m-signed-crossed", signed=mixed)
    play(net)
    net.tick(1.0)
    match = net.host.match
    assert match is not None and match.result() is not None
    earlier = next(e for e in match.entries if e.seat == 1)
    assert all(e.action != earlier.action for e in match.entries[-1:])
    guest = net.guests[1]
    after = match.step if sealed_after_the_end else match.step - 1
    guest._send(guest.links[HOST], "propose", seat=1, action=earlier.action, after=after)
    net.flush()
    said = [n for dev in net.everyone() for n in dev.notices if "efused" in n]
    assert bool(said) == refused, said
    assert all(dev.audit_result == Verified() for dev in net.everyone())
