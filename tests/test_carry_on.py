"""A live game whose connection is lost carries on by link (issue 38): the host's `carry`, the
other devices' `carried`, the moves a device missed brought with their live proofs, and the game
by link to a verified end, with the same seats, secrets and keys. Real signers; the in-memory
transport for the live part and the in-memory group chat for the links."""

from __future__ import annotations

import hashlib
import json

import pytest

from parlour.fair.rng import Rng
from parlour.fair.signing import DeviceKey
from parlour.games.psi_squad.actions import Guess
from parlour.match.by_link import LinkPlay, packing
from parlour.match.by_link.device import CARRY_FROM_HOST
from parlour.match.by_link.live import host_checks, live_of
from parlour.match.online import OnlineSession
from parlour.match.online.device import Crypto
from parlour.net.memory import MemoryNet
from parlour.ui.by_link.saves import save_checks, save_keys
from tests.by_link_group import BASE, Group
from tests.signers import Ed25519Signer, crypto, verify
from tests.tables import largest, setups
from tests.test_online import acts, choose, device, over, play, start
from tests.test_online_attacks import until_to_move
from tests.test_signed_play import mixed, signed_psi


def mid(game_id: str, names: tuple[str, ...]) -> str:
    """A match id as the page makes them ("m-" and 16 hex digits), one per table."""
    return "m-" + hashlib.sha256(f"{game_id}{len(names)}".encode()).hexdigest()[:16]


TABLES = largest() + [s for s in setups() if len(s[1]) == 2]


def cut(net: MemoryNet, seat: int, moves: int = 3) -> None:
    """The connection to `seat`'s device breaks; the others play on live while they can (up
    to `moves` moves), so that device misses them."""
    net.drop(seat)
    rng = Rng(b"cut")
    for _ in range(moves):
        if over(net):
            return
        state, game = net.host.table.state, net.host.game
        ready = [
            s for s in sorted(game.to_move(state)) if not game.automatic(state, s) and s != seat
        ]
        if not ready or seat in game.to_move(state):
            return
        acts(device(net, ready[0]), ready[0], choose(net, ready[0], rng))
        net.flush()


def carried(net: MemoryNet, now: float = 100.0) -> Group:
    """Every live device carries the game on: the host first, then each other device from
    the host's link."""
    host, out = LinkPlay.carry_on(net.host, now, BASE)
    assert host is not None, out.sentence
    devices, first = [host], [(0, out.links)]
    for guest in net.guests.values():
        play_, joined = LinkPlay.carry_join(guest, out.links, now, BASE)
        assert play_ is not None, joined.sentence
        devices.append(play_)
        first.append((len(devices) - 1, joined.links))
    group = Group.of(devices, first)
    group.queue = [q for q in group.queue if q[1] not in out.links]  # each has the host's
    group.now = now
    return group


@pytest.mark.parametrize("game_id, names, variant", TABLES)
def test_a_live_game_cut_after_a_few_moves_carries_on_by_link_to_a_verified_end(
    game_id, names, variant
):
    net = start(game_id, names, variant, match_id=mid(game_id, names), signed=mixed)
    play(net, steps=4, to_the_end=False)
    net.tick(1.0)  # every device signs its ack of where it stands
    lost = max(net.guests)
    cut(net, lost)
    before = net.host.match.step, net.guests[lost].match.step
    group = carried(net)
    firsts = {d.records[(d.me, 1)].body["n"] for d in group.devices}
    assert firsts == {before[0]}  # every device carries on from the host's position
    rng = Rng(b"carried " + game_id.encode())
    group.play(lambda n: rng.below(n), rng, drops=0)
    group.check_the_end()
    codes = {d.table_code() for d in group.devices}
    assert len(codes) == 1 and None not in codes
    live_keys = {DeviceKey.of(s.crypto.signer) for s in net.everyone()}
    assert {d.keys[d.me] for d in group.devices} == live_keys  # the same keys sign on


def psi_with_a_missed_move(match_id: str, mover: int) -> MemoryNet:
    """Psi Squad of three, live: Cy's connection breaks, then `mover` makes a move Cy's device
    never gets."""
    net = signed_psi(match_id)
    until_to_move(net, mover)
    net.tick(1.0)
    net.drop(2)
    acts(device(net, mover), mover, Guess(2, "000"))
    net.flush()
    assert net.host.match.step > net.guests[2].match.step
    return net


def test_the_device_that_missed_moves_takes_them_with_their_live_proofs():
    net = psi_with_a_missed_move("m-0000000000000002", 0)
    group = carried(net)
    step, head = net.host.match.step, net.host.match.head()
    assert {d.match.entries[step - 1].hash for d in group.devices} == {head}
    rng = Rng(b"gap")
    group.play(lambda n: rng.below(n), rng, drops=2)
    group.check_the_end()


def forged_carry(net: MemoryNet, proof_too: bool) -> list[str]:
    """The host's carry link with Bo's move that Cy missed changed (and Bo's signed proposal
    with it), signed by the host (whose own page would refuse to make it: made by hand)."""
    live = live_of(net.host)
    live.catch_up = json.loads(json.dumps(live.catch_up))
    for entry, proof in live.catch_up:
        if entry["seat"] == 1:  # Bo's move: the host cannot sign it for him
            entry["action"]["digits"] = "999"
            if proof_too:
                proof["b"]["action"]["digits"] = "999"
    match = live.match_now()
    host = LinkPlay(match.config.match_id, "s0", live.signer, live.verify, BASE, 100.0)
    host._carry_from(live)
    body = {"n": match.step, "h": match.head(), "e": live.catch_up, "t": 100}
    host._append("carry", body)
    return host.links()


@pytest.mark.parametrize("proof_too", [False, True])
def test_a_host_that_changes_a_missed_move_in_its_carry_is_refused(proof_too):
    net = psi_with_a_missed_move("m-0000000000000003", 1)
    links = forged_carry(net, proof_too)
    cy, out = LinkPlay.carry_join(net.guests[2], links, 100.0, BASE)
    assert cy is None and not out.ok
    assert "not the move its device signed" in out.sentence


def test_only_the_host_makes_the_carry_and_a_guest_is_told_what_to_do():
    net = start("esp", ("Ada", "Bo"), match_id="m-0000000000000004", signed=mixed)
    play(net, steps=2, to_the_end=False)
    guest, out = LinkPlay.carry_on(net.guests[1], 100.0, BASE)
    assert guest is None and out.sentence == CARRY_FROM_HOST


def test_a_live_game_of_another_match_or_unsigned_cannot_take_the_carry():
    net = start("esp", ("Ada", "Bo"), match_id="m-0000000000000005", signed=mixed)
    other = start("esp", ("Ada", "Bo"), match_id="m-0000000000000006", signed=mixed)
    play(net, steps=2, to_the_end=False)
    play(other, steps=2, to_the_end=False)
    _, out = LinkPlay.carry_on(net.host, 100.0, BASE)
    stranger, said = LinkPlay.carry_join(other.guests[1], out.links, 100.0, BASE)
    assert stranger is None and "another game" in said.sentence
    unsigned = start("esp", ("Ada", "Bo"), match_id="m-0000000000000007")
    play(unsigned, steps=2, to_the_end=False)
    refused, why = LinkPlay.carry_on(unsigned.host, 100.0, BASE)
    assert refused is None and "not signed" in why.sentence
    before = start("esp", ("Ada", "Bo"), match_id="m-0000000000000008", signed=mixed)
    early = OnlineSession.guest(0.0, crypto())
    nothing, yet = LinkPlay.carry_on(early, 100.0, BASE)
    assert nothing is None and "not begun" in yet.sentence
    assert before.host.match is not None


def test_a_stranger_cannot_carry_on_a_game_it_saw_a_link_of():
    """Someone who saw the carry link signs a `carried` of their own: ignored everywhere."""
    net = start(
        "psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, match_id="m-0000000000000009", signed=mixed
    )
    play(net, steps=3, to_the_end=False)
    group = carried(net)
    host = group.devices[0]
    carry = host.records[(host.me, 1)]
    stranger = LinkPlay(host.match_id, "s1", Ed25519Signer(), host.verify, BASE, 100.0)
    stranger.keys = {"s1": DeviceKey.of(stranger.signer)}
    stranger.held = {"s1": (1,)}
    stranger._append("carried", {"n": carry.body["n"], "h": carry.body["h"], "t": 100})
    link = stranger.links()[0]
    before = (host.match.step, len(host.records))
    out = host.take_link(link, 101.0)
    assert (host.match.step, len(host.records)) == before
    assert not out.ok or "ignored" in out.sentence or "forged" in out.sentence


def test_a_carried_game_is_saved_and_read_back_and_plays_on():
    net = start(
        "espeers",
        *next(s[1:] for s in setups() if s[0] == "espeers"),
        match_id="m-000000000000000a",
        signed=mixed,
    )
    play(net, steps=4, to_the_end=False)
    group = carried(net)
    rng = Rng(b"save")
    for i, d in enumerate(group.devices):
        saved = json.loads(json.dumps(d.to_json()))
        assert "live" in saved
        again = LinkPlay.from_json(saved, d.signer, d.verify, 200.0)
        assert again.match.head() == d.match.head() and again.keys == d.keys
        group.devices[i] = again
    group.play(lambda n: rng.below(n), rng, drops=1)
    group.check_the_end()


def test_a_carry_link_carries_its_live_proofs_for_a_page_that_checks_first():
    net = psi_with_a_missed_move("m-000000000000000b", 0)
    host, out = LinkPlay.carry_on(net.host, 100.0, BASE)
    packet = packing.read_invite(out.links)
    carry = packet.records[0]
    assert carry.kind == "carry" and carry.body["e"]
    live = live_of(net.guests[2])
    probe = LinkPlay(host.match_id, "s2", live.signer, live.verify, BASE, 100.0)
    probe._carry_from(live)
    assert len(out.links) == 1
    checks = probe.checks(out.links[0])
    assert len(checks) == 1 + len(carry.body["e"])  # the batch (carry and head), each proof
    answers = {check: live.verify(*check) for check in checks}
    assert all(answers.values())

    def page_verify(algorithm, public, data, signature):  # answers only what was asked first
        return answers.get((algorithm, public, data, signature), False)

    cy_session = net.guests[2]
    cy_session.crypto = Crypto(cy_session.crypto.signer, page_verify)
    cy, out = LinkPlay.carry_join(net.guests[2], out.links, 100.0, BASE)
    assert cy is not None, out.sentence


def answering_only(checks, verify):
    """A page's verify: it answers only the signatures it was asked to check first."""
    answers = {check: verify(*check) for check in checks}
    assert all(answers.values())
    return lambda algorithm, public, data, signature: answers.get(
        (algorithm, public, data, signature), False
    )


def test_the_host_and_a_reload_check_only_what_the_page_checked_first():
    """The host's carry and a carried save read back, each with a page's verify that answers
    only the checks asked before the call (live.host_checks, ui's save_checks)."""
    net = psi_with_a_missed_move("m-000000000000000c", 1)
    host_session = net.host
    page = answering_only(host_checks(host_session), host_session.crypto.verify)
    host, out = LinkPlay.carry_on(host_session, 100.0, BASE, verify=page)
    assert host is not None, out.sentence
    cy, joined = LinkPlay.carry_join(net.guests[2], out.links, 100.0, BASE)
    assert cy is not None, joined.sentence
    for held in (host, cy):
        data = json.loads(json.dumps(held.to_json()))
        reread = answering_only(save_checks(data), verify)
        again = LinkPlay.from_json(data, held.signer, reread, 200.0)
        assert again.match.head() == held.match.head()
        assert save_keys(json.dumps(data)) == held.keys


def test_a_carried_game_s_replay_is_its_moves_unsigned_and_says_so():
    net = psi_with_a_missed_move("m-000000000000000d", 0)
    group = carried(net)
    rng = Rng(b"replay")
    group.play(lambda n: rng.below(n), rng, drops=0)
    host = group.devices[0]
    assert host.replay_signatures() is None
    assert host.match.entries[: net.host.match.step] == net.host.match.entries
