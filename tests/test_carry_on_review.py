"""A review of "Carry on by link" as an attacker: what a dishonest device, a crafted link or a
save must not be able to do to a carried game."""

from __future__ import annotations

import pytest

from parlour.fair.signing import DeviceKey, Signed
from parlour.match.by_link import LinkPlay, packing
from parlour.match.by_link.live import live_of
from tests.by_link_group import BASE
from tests.signers import Ed25519Signer, verify
from tests.test_carry_on import psi_with_a_missed_move


def guest_device(net, seat: int) -> LinkPlay:
    """A live guest's device as a game by link before its first record (made by hand: its own
    page would sign a `carried`)."""
    live = live_of(net.guests[seat])
    play = LinkPlay(
        str(live.match["config"]["match_id"]),
        live.link_name(live.me),
        live.signer,
        live.verify,
        BASE,
        100.0,
    )
    play._carry_from(live)
    return play


def first_records(bo: LinkPlay) -> dict[str, tuple[str, dict]]:
    """Bo's first record made by hand, of each kind a first record may be."""
    return {
        "open": (
            "open",
            {
                "g": "psi-squad",
                "n": ["Ada", "Bo", "Cy"],
                "v": {"length": 3},
                "b": {},
                "h": [0, 1, 2],
                "k": DeviceKey.of(bo.signer).to_json(),
                "l": 3600,
                "t": 100,
            },
        ),
        "join": (
            "join",
            {"s": 1, "n": "Ada", "k": DeviceKey.of(Ed25519Signer()).to_json(), "t": 100},
        ),
        "carry": ("carry", {}),  # filled in below: the host's carry, as Bo's
    }


@pytest.mark.parametrize("kind", ["open", "join", "carry"])
def test_a_guest_s_first_record_is_a_carried_and_nothing_else(kind):
    """Bo's device signs (with its live key) an `open`, a `join` or a `carry` as its first
    record instead of a `carried`. Each would change the game on the host's device: an `open`
    gives Bo's device every seat (it could then move for Ada and Cy), a time per move and the
    creator's place; a `join` swaps Bo's live key for another and renames him; a `carry`
    derives the match again from Bo's record. The link must be refused, changing nothing."""
    net = psi_with_a_missed_move("m-00000000000000a1", 0)
    host, out = LinkPlay.carry_on(net.host, 100.0, BASE)
    assert host is not None
    bo = guest_device(net, 1)
    assert bo._take(packing.read_invite(out.links)).ok
    made, body = first_records(bo)[kind]
    if kind == "carry":
        body = dict(host.records[(host.me, 1)].body)
    bo.records[(bo.me, 1)] = Signed(bo.me, 1, made, body)
    before = (dict(host.held), dict(host.keys), host.limit, host.creator, list(host.names))
    taken = [host.take_link(link, 101.0) for link in bo.links()]
    after = (dict(host.held), dict(host.keys), host.limit, host.creator, list(host.names))
    assert after == before
    assert (host.me, 1) in host.records and (bo.me, 1) not in host.records
    assert not all(t.ok for t in taken)


def page_verify_for(checks):
    """A page's verify for one call: it answers only the signatures asked for before it."""
    answers = {check: verify(*check) for check in checks}
    return lambda algorithm, public, data, signature: answers.get(
        (algorithm, public, data, signature), False
    )


def telepathic_carried_with_an_announcement_due():
    """A Telepathic pair, live: Bo's connection breaks and Ada moves on without him, the game
    carries on by link, and plays on until Bo is the active partner after a completed turn
    (so Ada may announce out of turn). (Ada's device, Bo's device, the group.)"""
    from parlour.fair.rng import Rng
    from tests.test_carry_on import carried, cut
    from tests.test_online import play, start
    from tests.test_signed_play import mixed

    for attempt in range(40):
        net = start(
            "telepathic",
            ("Ada", "Bo"),
            {"arrangement": "pair", "mode": "first"},
            match_id=f"m-00000000000001{attempt:02x}",
            signed=mixed,
        )
        play(net, seed=bytes([attempt]), steps=3, to_the_end=False)
        net.tick(1.0)
        cut(net, 1, moves=2)
        host, bo_live = net.host.match, net.guests[1].match
        if bo_live.step == host.step or host.result() is not None:
            continue  # Bo missed no move: try another deal
        group = carried(net)
        ada, bo = group.devices
        rng = Rng(bytes([attempt]))
        for _ in range(200):
            while group.queue:
                group.deliver(0)
            state = ada.table.state
            if state.phase == "hand" and state.turns and state.active == 1:
                return ada, bo, group
            if not group.movers() or ada.match.result() is not None:
                break
            group.move(*group.movers()[0], rng)
    raise AssertionError("no carried pair reached Bo's turn")


def test_a_device_that_took_missed_moves_does_not_call_them_forged_when_it_derives_again():
    """Bo's device took the moves it missed with their live proofs (checked then). Later Ada
    announces out of turn: Bo's device derives the game again from its records, and the page's
    verify of that call answers only the signatures of Ada's link. The live proofs, checked
    once, must not be asked again (the page never asked), or Bo's game stops, calling
    the move he missed forged."""
    from tests.test_by_link import announcement

    ada, bo, group = telepathic_carried_with_an_announcement_due()
    out = ada.act(0, announcement(ada, 0), group.now + 60)
    assert out.ok and out.links
    for link in out.links:
        bo.verify = page_verify_for(bo.checks(link))
        taken = bo.take_link(link, group.now + 60)
        assert taken.ok, taken.sentence
    assert not bo.stopped
    assert bo.match.head() == ada.match.head()


def test_a_host_cannot_replay_a_guest_s_proposal_already_in_its_log_as_a_move_it_missed():
    """Psi Squad of two, live: Bo guessed "000" at Ada and answered Ada's "000" (each a signed
    proposal, in Bo's log with its proof). Bo's connection breaks; Ada guesses "000" again, and
    her device makes up Bo's answer and Bo's next guess from Bo's earlier proposals (the same
    moves, signed by Bo, used before). Live play refuses a proposal used for another entry
    (online/moves.py `_check_proof`); the carry must too, or the host makes up Bo's moves."""
    import json

    from parlour.games.psi_squad.actions import ChooseCypher, Guess
    from parlour.match.by_link.device import LinkPlay as Play
    from tests.test_online import acts, device, start
    from tests.test_online_attacks import until_to_move
    from tests.test_signed_play import mixed

    net = start(
        "psi-squad", ("Ada", "Bo"), {"length": 3}, match_id="m-00000000000000d1", signed=mixed
    )
    for seat, digits in {0: "123", 1: "456"}.items():
        acts(device(net, seat), seat, ChooseCypher(digits))
    net.flush()
    for mover in (1, 0, 1, 0):
        until_to_move(net, mover)
        acts(device(net, mover), mover, Guess(1 - mover, "000"))
        net.flush()
    until_to_move(net, 0)
    net.tick(1.0)
    net.drop(1)
    assert net.host.match.step == net.guests[1].match.step
    host_session = net.host
    match = host_session.table.match
    # Bo's earlier proposals: his answer to Ada's "000", and his guess "000" at Ada
    bo_s = [p for e, p in zip(match.entries, host_session.proofs, strict=True) if e.seat == 1]
    answer = next(p for p in bo_s if p.body["action"].get("type") == "answer")
    guess = next(p for p in bo_s if p.body["action"].get("type") == "guess")
    live = live_of(host_session)
    forged = live.match_now()
    pairs = []
    acts(host_session, 0, Guess(1, "000"))  # Ada's own guess, live (Bo's device never gets it)
    net.flush()
    mine = host_session.proofs[-1]
    for action, proof in [
        (host_session.table.match.entries[-1].action, mine),
        (answer.body["action"], answer),
        (guess.body["action"], guess),
    ]:
        seat = 0 if proof is mine else 1
        submitted = forged.submit_json(seat, action)
        assert submitted.ok, submitted.reason
        pairs.append([submitted.entry.to_json(), proof.to_json()])
    host = Play(forged.config.match_id, "s0", live.signer, live.verify, BASE, 100.0)
    host._carry_from(live)
    body = {"n": forged.step, "h": forged.head(), "e": json.loads(json.dumps(pairs)), "t": 100}
    host._append("carry", body)
    bo, out = LinkPlay.carry_join(net.guests[1], host.links(), 100.0, BASE)
    assert bo is None and not out.ok, "Bo's device took moves Bo never made"
    assert "reuses a proposal signed for another move" in out.sentence


def test_a_host_cannot_forfeit_a_guest_in_its_carry_whose_device_sent_its_step():
    """Psi Squad of two, live: Ada guesses at Bo; Bo's device answers at once, but the answer
    never reaches the host as the connection breaks. Ada's device declares Bo forfeit in its
    carry (a proposal signed by the host, as for a stall). Live play refuses that forfeit
    (online/moves.py `_check_forfeit`: this device sent that step at once); Bo's device must
    refuse it in the carry too, or the host ends the game by a stall that never was."""
    import json

    from parlour.games.psi_squad.actions import ChooseCypher, Guess
    from tests.test_online import acts, device, start
    from tests.test_online_attacks import until_to_move
    from tests.test_signed_play import mixed

    net = start(
        "psi-squad", ("Ada", "Bo"), {"length": 3}, match_id="m-00000000000000e1", signed=mixed
    )
    for seat, digits in {0: "123", 1: "456"}.items():
        acts(device(net, seat), seat, ChooseCypher(digits))
    net.flush()
    until_to_move(net, 0)
    net.tick(1.0)
    net.tamper = lambda sender, to, text: None if sender == "seat-1" else text  # lost on the way
    acts(net.host, 0, Guess(1, "000"))
    net.flush()
    assert 1 in net.guests[1].sent_at and net.host.match.step == net.guests[1].match.step
    net.drop(1)
    live = live_of(net.host)
    forged = live.match_now()
    submitted = forged.submit_json(1, {"forfeit": 1})
    assert submitted.ok, submitted.reason
    entry = submitted.entry
    proof = Signed(
        "host", 10_000, "propose", {"seat": 1, "action": {"forfeit": 1}, "after": entry.seq - 1}
    )
    proof.signature = live.signer.sign(proof.payload(forged.config.match_id))
    pairs = [[entry.to_json(), proof.to_json()]]
    host = LinkPlay(forged.config.match_id, "s0", live.signer, live.verify, BASE, 100.0)
    host._carry_from(live)
    body = {"n": forged.step, "h": forged.head(), "e": json.loads(json.dumps(pairs)), "t": 100}
    host._append("carry", body)
    bo, out = LinkPlay.carry_join(net.guests[1], host.links(), 100.0, BASE)
    over = bo is not None and bo.match.result() is not None
    assert not over, "Bo's device took a forfeit of Bo's seat for a step it sent at once"
    assert bo is None and "forfeit" in out.sentence


def test_a_guest_s_own_move_the_host_had_comes_back_in_the_carry_and_a_reload_keeps_it():
    """Honest play the checks above must not refuse: Bo's device answers Ada's guess, the host
    appends it, but the entry never reaches Bo. The carry brings Bo's own move back (as he
    sent it); his carried game is saved and read back, and the checks hold again."""
    import json

    from parlour.games.psi_squad.actions import ChooseCypher, Guess
    from tests.test_online import acts, device, start
    from tests.test_online_attacks import until_to_move
    from tests.test_signed_play import mixed

    net = start(
        "psi-squad", ("Ada", "Bo"), {"length": 3}, match_id="m-00000000000000e2", signed=mixed
    )
    for seat, digits in {0: "123", 1: "456"}.items():
        acts(device(net, seat), seat, ChooseCypher(digits))
    net.flush()
    until_to_move(net, 0)
    net.tick(1.0)
    bo_session = net.guests[1]
    net.tamper = lambda sender, to, text: None if sender == "host" and bo_session.pending else text
    acts(net.host, 0, Guess(1, "000"))
    net.flush()  # Bo's answer reached the host; its entry never reached Bo
    assert 1 in bo_session.pending and net.host.match.step == bo_session.match.step + 1
    net.drop(1)
    host, out = LinkPlay.carry_on(net.host, 100.0, BASE)
    assert host is not None, out.sentence
    bo, joined = LinkPlay.carry_join(bo_session, out.links, 100.0, BASE)
    assert bo is not None, joined.sentence
    assert bo.match.entries[net.host.match.step - 1].hash == net.host.match.head()
    data = json.loads(json.dumps(bo.to_json()))
    assert data["live"]["pending"] == {"1": bo_session.pending[1]}
    again = LinkPlay.from_json(data, bo.signer, bo.verify, 200.0)
    assert again.match.head() == bo.match.head() and not again.stopped


def test_a_carry_whose_move_differs_from_the_device_s_log_names_the_host_s_device():
    """docs/links.md: "a device that holds another log at that position stops, naming the
    device". The host's carry brings back move 1, changed: Cy's device says whose carry it is."""
    import json

    net = psi_with_a_missed_move("m-00000000000000a4", 0)
    live = live_of(net.host)
    match = live.match_now()
    first = match.entries[0].to_json()
    first["hash"] = "0" * 64
    proof = json.loads(json.dumps(live.catch_up[0][1]))
    pairs = [[first, proof], *json.loads(json.dumps(live.catch_up))]
    host = LinkPlay(match.config.match_id, "s0", live.signer, live.verify, BASE, 100.0)
    host._carry_from(live)
    host._append("carry", {"n": match.step, "h": match.head(), "e": pairs, "t": 100})
    cy, out = LinkPlay.carry_join(net.guests[2], host.links(), 100.0, BASE)
    assert cy is None and "differs" in out.sentence
    assert "Ada's device" in out.sentence


def test_a_carried_save_without_or_with_a_damaged_used_and_pending_part():
    """The save's live part keeps the proposals used and the moves on their way (for the
    checks above, when the game is derived again): a save made before had neither, and still
    reads back; a damaged one is refused with a sentence."""
    import copy
    import json

    from parlour.errors import MalformedInput
    from tests.test_carry_on import carried

    net = psi_with_a_missed_move("m-00000000000000a5", 0)
    group = carried(net)
    cy = group.devices[-1]
    data = json.loads(json.dumps(cy.to_json()))
    assert data["live"]["used"] and "pending" in data["live"]
    older = copy.deepcopy(data)
    del older["live"]["used"], older["live"]["pending"]
    again = LinkPlay.from_json(older, cy.signer, cy.verify, 200.0)
    assert again.match.head() == cy.match.head()
    for part, junk in [("used", [["s1"]]), ("used", {}), ("pending", {"x": 1}), ("pending", [])]:
        damaged = copy.deepcopy(data)
        damaged["live"][part] = junk
        with pytest.raises(MalformedInput):
            LinkPlay.from_json(damaged, cy.signer, cy.verify, 200.0)
