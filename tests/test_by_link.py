"""Play by link, in CPython: whole games of every game and variant family played only by links
between devices in memory (Hypothesis chooses the order of delivery, duplicates and drops), every
device's audit verified at the end; then each attack a device must refuse, time claims, storage.
"""

from __future__ import annotations

import functools
import json
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.errors import MalformedInput
from parlour.fair.rng import Rng
from parlour.fair.signing import DeviceKey, Signed
from parlour.match.by_link import LinkPlay, packing
from parlour.match.by_link.admission import IGNORED
from parlour.match.by_link.keeping import LOST
from parlour.match.by_link.records import SHAPES
from parlour.match.by_link.telling import DEEDS
from tests.by_link_group import BASE, Group, stranger_link
from tests.signers import Ed25519Signer, verify
from tests.tables import examples

# Every game's example tables and its further ones (games/<game>/facts.py), bots and all.
SETUPS = [(game, e.names, dict(e.variant), dict(e.bots) or None) for game, e in examples(more=True)]


@pytest.mark.parametrize("game, names, variant, bots", SETUPS)
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), seed=st.binary(min_size=4, max_size=4))
def test_a_whole_game_by_links_in_any_order_ends_verified_on_every_device(
    game, names, variant, bots, data, seed
):
    group = Group(game, names, variant, bots)
    group.play(lambda n: data.draw(st.integers(0, n - 1)), Rng(seed))
    group.check_the_end()


# -- attacks, old links and gaps ------------------------------------------------------------


def settled(game="esp", names=("Ada", "Bo"), variant=None, moves=3, hours=0.0) -> Group:
    """A game started by links delivered in order, and `moves` moves made."""
    group = Group(game, names, variant or {}, hours=hours)
    rng = Rng(b"settled")
    flush(group)
    for _ in range(moves):
        device, seat = group.movers()[0]
        assert group.move(device, seat, rng)
        flush(group)
    return group


def flush(group: Group) -> None:
    while group.queue:
        group.deliver(0)


def next_move(group: Group, seat: int) -> list[str]:
    """`seat` moves on its device; the links it would send (not delivered)."""
    device = group.holder(seat)
    table = device.table
    choice = table.legal(seat)[0]
    out = device.act(seat, choice, group.now)
    assert out.ok, out.sentence
    return out.links


def repacked(link: str, change) -> str:
    """The link with its records changed by `change` (signatures left as they were)."""
    packet = packing.unpack(link.split("#pl=2.", 1)[1])
    records = change(list(packet.records))
    data = packing.pack(packing.Packet(packet.match_id, tuple(records), packet.head))
    return packing.links(BASE, data)[0]


def snapshot(device: LinkPlay) -> str:
    return json.dumps(device.to_json(), sort_keys=True)


def pen(group: Group) -> int:
    match = group.devices[0].match
    return min(match.game.to_move(match.state))


def test_a_forged_entry_is_refused_and_changes_nothing():
    group = settled()
    mover = pen(group)
    other = group.devices[1 - group.devices.index(group.holder(mover))]
    link = next_move(group, mover)[0]

    def forge(records):
        last = records[-1]
        body = dict(last.body, at=last.body["at"] + 1)
        return [*records[:-1], Signed(last.device, last.seq, last.kind, body, last.signature)]

    before = snapshot(other)
    out = other.take_link(repacked(link, forge), group.now)
    assert not out.ok and "did not sign" in out.sentence, out.sentence
    assert snapshot(other) == before
    assert other.take_link(link, group.now).ok  # the real one is taken


def test_a_fork_two_different_entries_for_one_step_is_refused_and_kept_as_proof():
    group = settled()
    mover = pen(group)
    cheat = group.holder(mover)
    other = group.devices[1 - group.devices.index(cheat)]
    twin = LinkPlay.from_json(cheat.to_json(), cheat.signer, verify, group.now)
    first = next_move(group, mover)[0]
    table = twin.table
    out = twin.act(mover, table.legal(mover)[-1], group.now)
    assert out.ok
    assert other.take_link(first, group.now).ok
    before = other.match.head()
    refused = other.take_link(out.links[0], group.now)
    assert not refused.ok and "two different entries" in refused.sentence, refused.sentence
    assert cheat.name(mover) in refused.sentence
    assert other.match.head() == before
    assert len(other.forks) == 1 and other.forks[0].device == cheat.me
    assert other.to_json()["forks"]  # kept with the game, as evidence


def test_a_link_from_another_match_is_refused():
    group, stranger = settled(), settled()
    before = snapshot(group.devices[0])
    out = group.devices[0].take_link(stranger.devices[1].links()[0], group.now)
    assert not out.ok and "another game" in out.sentence
    assert snapshot(group.devices[0]) == before


def test_a_reveal_that_does_not_match_its_commitment_is_refused_naming_the_seat():
    group = Group("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3})
    bo = group.devices[1]
    bo.secrets[1] = (b"\x07" * 32, bo.secrets[1][1])  # Bo's device reveals other bytes
    flush_to(
        group, lambda: any(r.kind == "reveal" and d == bo.me for (d, _), r in bo.records.items())
    )
    ada = group.devices[0]
    out = ada.take_link(bo.links()[0], group.now)
    assert not out.ok and "Bo's reveal" in out.sentence and "does not match" in out.sentence
    assert ada.match is None and "cannot go on" in ada.waiting()


def flush_to(group: Group, done) -> None:
    """Deliver in order until `done`, whatever each device answers."""
    while group.queue and not done():
        recipient, link = group.queue.pop(0)
        group.post(recipient, group.devices[recipient].take_link(link, 0).links)


def test_an_old_link_or_one_taken_twice_is_harmless_and_says_so():
    group = settled(moves=0)
    first = group.invite[0]
    group_moves = settled_moves(group, 4)
    ada = group.devices[0]
    before = snapshot(ada)
    for link in (first, group_moves[0]):
        out = ada.take_link(link, group.now)
        assert out.ok and "had everything" in out.sentence and not out.links
    assert snapshot(ada) == before


def settled_moves(group: Group, moves: int) -> list[str]:
    rng, sent = Rng(b"moves"), []
    for _ in range(moves):
        device, seat = group.movers()[0]
        out = group.devices[device].act(seat, group.devices[device].table.legal(seat)[0], 0)
        assert out.ok
        sent += out.links
        group.post(device, out.links)
        flush(group)
    del rng
    return sent


def test_an_entry_for_a_seat_another_device_holds_is_refused():
    group = settled()
    ada, bo = group.devices
    match = bo.match
    body = {"s": 0, "a": match.entries[-1].action, "at": match.step, "h": "0" * 16, "t": 0}
    bo._append("act", body)  # Bo's device signs a move for Ada's seat
    out = ada.take_link(bo.links()[0], group.now)
    assert not out.ok and "seat 1, which another device holds" in out.sentence, out.sentence


def test_a_link_of_a_newer_version_says_to_reload():
    group = settled(moves=0)
    link = group.devices[1].links()[0].replace("#pl=2.", "#pl=3.")
    out = group.devices[0].take_link(link, 0)
    assert not out.ok and "reload" in out.sentence


@pytest.mark.parametrize("text", ["", "hello", BASE + "#pl=1.", BASE + "#pl=1.AAAA", "#pl=x.y"])
def test_a_damaged_link_gets_a_sentence_and_changes_nothing(text):
    group = settled(moves=1)
    before = snapshot(group.devices[0])
    out = group.devices[0].take_link(text, 0)
    assert not out.ok and out.sentence.endswith(".")
    assert snapshot(group.devices[0]) == before


def test_a_later_link_without_the_earlier_waits_and_names_what_is_missing():
    group = Group("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3})
    ada, bo, cy = group.devices
    for link in cy.links():  # Cy's join reaches Bo: Bo reveals
        bo.take_link(link, 0)
    full = bo.links()[0]
    gap = repacked(full, lambda records: [r for r in records if (r.device, r.seq) != ("s1", 2)])
    out = ada.take_link(gap, 0)
    assert out.ok and "Waiting for an earlier link from Bo's device (its entry 2)" in out.sentence
    assert ada.take_link(full, 0).ok
    assert "earlier link" not in ada.waiting()


def choice_for(group: Group, device: int, seat: int):
    from parlour.games.psi_squad.actions import ChooseCypher

    table = group.devices[device].table
    if table.state.setting_up:
        return ChooseCypher("123")
    return table.legal(seat)[0]


def test_whose_turn_is_named_on_every_device():
    group = settled()
    mover = pen(group)
    name = group.devices[0].name(mover)
    step = group.devices[0].match.step + 1
    for device in group.devices:
        expected = (
            f"{name} to move (move {step})."
            if mover in device.local
            else f"Waiting for {name}'s move {step}."
        )
        assert device.waiting() == expected


# -- time ------------------------------------------------------------------------------------


def test_no_claim_without_a_time_per_move():
    group = settled()
    waiter = group.devices[1 - group.devices.index(group.holder(pen(group)))]
    out = waiter.claim(10**9)
    assert not out.ok and "no time per move" in out.sentence


def test_a_claim_of_time_is_refused_early_and_ends_the_game_once_the_time_is_up():
    group = settled(hours=1)
    mover = pen(group)
    staller = group.holder(mover)
    waiter = group.devices[1 - group.devices.index(staller)]
    early = waiter.claim(1000)
    assert not early.ok and "still has" in early.sentence
    out = waiter.claim(3600 * 2)
    assert out.ok and out.links
    assert staller.take_link(out.links[0], 3600 * 2).ok
    for device in group.devices:
        result = device.match.result()
        assert result is not None and "ran out of time" in result.reason
        assert mover not in result.winners
    group.now = 3600 * 2
    flush(group)
    group.resend()
    flush(group)
    group.check_the_end()


def test_a_move_made_in_time_beats_a_claim_that_crossed_it():
    group = settled(hours=1)
    mover = pen(group)
    staller = group.holder(mover)
    waiter = group.devices[1 - group.devices.index(staller)]
    late_news = next_move(group, mover)  # made in time, but slow to arrive
    claim = waiter.claim(3600 * 2).links
    assert waiter.match.result() is not None  # by what it knew, the time was up
    assert staller.take_link(claim[0], 3600 * 2).ok
    assert waiter.take_link(late_news[0], 3600 * 2).ok
    for device in group.devices:
        assert device.match.result() is None, device.match.result()
    assert staller.match.head() == waiter.match.head()


def test_a_claim_from_the_future_waits_for_this_devices_clock():
    group = settled(hours=1)
    staller = group.holder(pen(group))
    waiter = group.devices[1 - group.devices.index(staller)]
    claim = waiter.claim(10**6).links
    assert staller.take_link(claim[0], 1000).ok
    assert staller.match.result() is None  # not by this device's clock
    staller.tick(10**6)  # the clock has caught up
    assert staller.match.result() is not None


# -- storage and the list of games ------------------------------------------------------------


def test_every_device_keeps_its_game_as_json_and_plays_on_from_it():
    group = settled(game="espeers", moves=6)
    for i, device in enumerate(group.devices):
        text = json.dumps(device.to_json())
        again = LinkPlay.from_json(json.loads(text), device.signer, verify, group.now)
        assert again.match.head() == device.match.head()
        assert again.waiting() == device.waiting()
        assert again.stores.keys() == device.stores.keys()
        group.devices[i] = again
    group.play(Rng(b"on").below, Rng(b"on"))
    group.check_the_end()


def test_a_device_remembers_across_a_reload_links_out_of_order_and_devices_that_lost_records():
    """`Keeping._note_order`'s flag (a joiner's `maybe` records are asked for: `_maybe_news`)
    was kept in memory only: after a reload the device forgot the chat's links come to it out
    of order, and such a start waited for "Show the link again" once more. A save from before
    the flag reads as not seen."""
    group = settled(moves=1)
    ada = group.devices[0]
    assert not LinkPlay.from_json(ada.to_json(), ada.signer, verify, 0)._out_of_order
    ada._out_of_order = True
    assert LinkPlay.from_json(ada.to_json(), ada.signer, verify, 0)._out_of_order
    older = {k: v for k, v in ada.to_json().items() if k not in ("unordered", "lost")}
    assert not LinkPlay.from_json(older, ada.signer, verify, 0)._out_of_order
    assert not LinkPlay.from_json(older, ada.signer, verify, 0)._lost
    ada._lost = frozenset({group.devices[1].me})  # Bo's head said Bo lost records it signed
    assert LinkPlay.from_json(ada.to_json(), ada.signer, verify, 0)._lost == ada._lost
    with pytest.raises(MalformedInput):
        LinkPlay.from_json({**ada.to_json(), "lost": "s1"}, ada.signer, verify, 0)


def test_a_damaged_save_or_another_key_is_refused():
    group = settled(moves=2)
    bo = group.devices[1]
    data = bo.to_json()
    data["records"][1]["b"]["n"] = "Eve"  # a changed record: its signature fails
    with pytest.raises(MalformedInput):
        LinkPlay.from_json(data, bo.signer, verify, 0)
    with pytest.raises(MalformedInput):
        LinkPlay.from_json(bo.to_json(), group.devices[0].signer, verify, 0)
    with pytest.raises(MalformedInput):
        LinkPlay.from_json({"format": "psi-parlour/by-link"}, bo.signer, verify, 0)
    # a save's numbers are whole numbers: an infinity (JSON's 1e400) is damage, not a fault
    inf = float("inf")
    peer = group.devices[0].me
    for changed in (
        {"heads": {peer: {peer: inf}}},
        {"answered": {peer: {bo.me: inf}}},
        {"answered": {peer: {bo.me: 1.5}}},
        {"last_link_at": inf},
    ):
        with pytest.raises(MalformedInput, match="damaged"):
            LinkPlay.from_json({**bo.to_json(), **changed}, bo.signer, verify, 0)


def test_the_summary_for_your_games_says_whose_turn_and_when():
    group = settled()
    mover = pen(group)
    for device in group.devices:
        line = device.summary()
        assert line["match"] == device.match_id and line["game"] == "esp"
        assert line["my_turn"] == (mover in device.local)
        assert line["players"] == ["Ada", "Bo"] and not line["over"]
        assert isinstance(line["last_link_at"], int)


def test_a_long_step_splits_into_numbered_parts_taken_in_any_order():
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"})
    assert all(len(link) <= packing.MAX_LINK for link in group.invite)
    parts = packing.links(BASE, "A" * 5000)
    assert len(parts) == 3 and all(len(p) <= packing.MAX_LINK for p in parts)
    device = group.devices[1]
    # a step longer than a part (since issue 38 no send of a game of four is: a small limit)
    links = device.links(limit=300)
    assert len(links) > 1
    cy = group.devices[2]
    outs = [cy.take_link(link, 0) for link in reversed(links)]
    assert all("Part" in o.sentence and "waiting for" in o.sentence for o in outs[:-1])
    assert outs[-1].ok and "Part" not in outs[-1].sentence
    again = cy.take_link(links[0], 0).sentence  # a part again: harmless
    # a part still missing: the sentence names which, and whose send it is of
    assert again.startswith(
        f"Part 1 of {len(links)} of a link that says it is from Bo's device: waiting for"
    )
    assert again.endswith(f"{len(links)} of the same send."), again


def test_a_second_join_for_a_taken_seat_is_ignored_and_never_travels_on():
    group = Group("esp", ("Ada", "Bo", "Cy"), {})
    intruder, out = LinkPlay.join(group.invite, 1, "Eve", Ed25519Signer(), verify, 0, BASE)
    assert intruder is not None  # from the invite alone, seat 2 looked free
    ada = group.devices[0]
    ada.take_link(group.devices[1].links()[0], 0)
    ignored = ada.take_link(out.links[0], 0)
    assert ignored.ok and not ignored.fresh and ignored.sentence == IGNORED
    assert ada.keys[ada.me] and "Eve" not in ada.names and not ada._halted()


def _join_body(seat: int, name: str = "Eve") -> dict:
    return {"s": seat, "n": name, "k": DeviceKey.of(Ed25519Signer()).to_json(), "t": 0}


@pytest.mark.parametrize(
    "seat, when",
    [
        (7, "start"),  # seat 8 of a 2-seat game: the review's attack
        (7, "play"),
        (2, "play"),  # seat 3 of a 3-seat game whose bot the creator plays
        (1, "play"),  # a join after the seats are full
    ],
)
def test_a_strangers_join_never_stops_the_game_nor_travels_on_nor_enters_a_save(seat, when):
    """Anyone who sees a link knows the match id and can sign a join with a key of its own;
    only the game's own devices may change or stop it (issue 37)."""
    names, bots = (("Ada", "Bo", "Cy"), {2: "easy"}) if seat == 2 else (("Ada", "Bo"), None)
    group = Group("esp", names, {}, bots)
    if when == "play":
        flush(group)
        settled_moves(group, 2)
    ada = group.devices[0]
    head_before = dict(ada.heads)
    body = _join_body(seat)
    link = stranger_link(ada.match_id, "join", body, f"s{seat}")
    out = ada.take_link(link, 0)
    assert out.ok and out.sentence == IGNORED and not out.links
    assert not ada._halted() and ada.heads == head_before
    assert all(r.body.get("n") != "Eve" for r in ada.records.values())
    assert '"Eve"' not in json.dumps(ada.to_json())  # (as a name: base64 may spell "Eve")
    again = LinkPlay.from_json(ada.to_json(), ada.signer, verify, 0)
    assert not again._halted()
    flush(group)
    for link in ada.links():  # Ada's next links carry nothing of Eve's to Bo
        assert '"Eve"' not in json.dumps(
            [r.body for r in packing.unpack(packing.read_fragment(link)).records]
        )
    settled_moves(group, 2)
    assert all(d.match is not None and d.match.step >= 2 for d in group.devices)


def test_a_strangers_second_set_up_is_ignored():
    group = settled(moves=0)
    ada, bo = group.devices
    eve = Ed25519Signer()
    other, _ = LinkPlay.create("esp", ["Eve", "Bo"], {}, (0,), eve, verify, 0, BASE)
    body = dict(other.records[("s0", 1)].body)
    record = Signed("s9", 1, "open", body)
    record.signature = eve.sign(record.payload(ada.match_id))
    head = bo._head()
    data = packing.pack(packing.Packet(ada.match_id, (record,), head))
    out = ada.take_link(packing.links(BASE, data)[0], 0)
    assert out.ok and IGNORED in out.sentence and not ada._halted()


def test_a_join_out_of_place_is_refused():
    group = settled(moves=0)
    ada, bo = group.devices
    bo._append("join", dict(bo.records[("s1", 1)].body))  # a join as Bo's later entry
    out = ada.take_link(bo.links()[0], 0)
    assert not out.ok and "join that is not its first entry" in out.sentence


def test_two_different_joins_from_one_device_are_kept_as_proof_and_stop_the_game():
    """A join signed twice, differently, by the seat's own key: proven (not a stranger), kept
    across a reload, and the game cannot go on two ways."""
    group = settled(moves=2)
    ada, bo = group.devices
    twice = Signed(bo.me, 1, "join", dict(bo.records[(bo.me, 1)].body, n="Bob"))
    twice.signature = bo.signer.sign(twice.payload(bo.match_id))
    data = packing.pack(packing.Packet(bo.match_id, (twice,), bo._head()))
    out = ada.take_link(packing.links(BASE, data)[0], 0)
    assert not out.ok and "two different entries for its step 1" in out.sentence
    assert "cheat" not in out.sentence and ada._halted() and len(ada.forks) == 1
    ada.take_link(packing.links(BASE, data)[0], 0)  # the same proof again: kept once
    assert len(ada.forks) == 1
    again = LinkPlay.from_json(ada.to_json(), ada.signer, verify, 0)
    assert again._halted() and len(again.forks) == 1


def test_a_claims_fate_does_not_depend_on_a_devices_clock():
    """A device whose clock is behind holds a claim back, but never lets a move signed after
    it go first: every device ends on the same log."""
    group = settled(names=("Ada", "Bo", "Cy"), hours=1)
    mover = pen(group)
    staller = group.holder(mover)
    claimer, slow = (d for d in group.devices if d is not staller)
    claim = claimer.claim(3600 * 2).links
    staller.now = 3600 * 3  # it moves after the claim was signed
    late = next_move(group, mover)
    slow.take_link(claim[0], 100)  # its clock is behind: the claim waits
    slow.take_link(late[0], 100)
    assert slow.match.result() is None and slow.match.step == claimer.match.step - 1
    slow.tick(3600 * 2)
    for device in (staller, claimer):
        device.take_link((late if device is claimer else claim)[0], 3600 * 3)
    heads = {d.match.head() for d in group.devices}
    assert len(heads) == 1 and slow.match.result() is not None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    move_at=st.integers(0, 3 * 3600),
    claim_at=st.integers(3600, 3 * 3600),
    order=st.permutations(range(4)),
    clocks=st.lists(st.integers(0, 3 * 3600), min_size=3, max_size=3),
)
def test_a_claim_and_a_move_that_cross_end_the_same_on_every_device(
    move_at, claim_at, order, clocks
):
    group = settled(names=("Ada", "Bo", "Cy"), hours=1)
    mover = pen(group)
    staller = group.holder(mover)
    claimer, third = (d for d in group.devices if d is not staller)
    staller.now = move_at
    move = next_move(group, mover)[0]
    if claimer.match.step < staller.match.step - 1 or not claimer.claim(claim_at).ok:
        return
    claim = claimer.links()[0]
    deliveries = [(staller, claim), (claimer, move), (third, move), (third, claim)]
    for i in order:
        device, link = deliveries[i]
        assert device.take_link(link, clocks[group.devices.index(device)]).ok
    for device in group.devices:
        device.tick(10**6)
    assert len({d.match.head() for d in group.devices}) == 1
    timed_out = claimer.match.result() is not None
    assert timed_out == (move_at > claim_at)


@functools.cache
def a_move_in_flight() -> tuple[LinkPlay, str]:
    """A device in the middle of a game, and the link of the other's next move to it."""
    group = settled(moves=2)
    mover = group.holder(pen(group))
    receiver = next(d for d in group.devices if d is not mover)
    return receiver, next_move(group, pen(group))[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=300), cut=st.integers(0, 3000), char=st.characters())
def test_any_text_or_a_changed_link_gets_a_sentence_never_a_crash(text, cut, char):
    kept, link = a_move_in_flight()
    receiver = LinkPlay.from_json(kept.to_json(), kept.signer, verify, 0)  # fresh each time
    at = cut % len(link)
    changed = link[:at] + char + link[at + 1 :]
    for given_text in (text, BASE + "#pl=1." + text, changed):
        before = snapshot(receiver)
        out = receiver.take_link(given_text, 0)
        assert out.sentence
        if not out.ok or not out.fresh:
            assert snapshot(receiver) == before


class LaterSigner:
    """A signer that answers later, as the page's WebCrypto does: `sign` gives None, and the
    page signs what `to_sign` lists."""

    def __init__(self) -> None:
        self.real = Ed25519Signer()
        self.algorithm, self.public_key = self.real.algorithm, self.real.public_key

    def sign(self, data: bytes) -> None:
        return None


def sign_all(play: LinkPlay, real) -> None:
    for which, data in play.to_sign():
        assert play.signed(which, real.sign(data))


def test_a_page_that_signs_later_sends_its_links_once_signed_and_keeps_them_across_a_reload():
    signer = LaterSigner()
    ada, out = LinkPlay.create("esp", ["Ada", "Bo"], {}, (0,), signer, verify, 0, BASE)
    assert out.signing and not out.links and ada.links() == []
    kept = LinkPlay.from_json(ada.to_json(), signer, verify, 0)  # unsigned records reload
    assert [w for w, _ in kept.to_sign()] == [w for w, _ in ada.to_sign()]
    assert not ada.signed("1", b"\0" * 64)  # a signature that does not hold is not kept
    sign_all(ada, signer.real)
    invite = ada.links()
    bo, joined = LinkPlay.join(invite, 1, "Bo", Ed25519Signer(), verify, 0, BASE)
    assert bo is not None and ada.take_link(joined.links[0], 0).ok
    sign_all(ada, signer.real)
    assert bo.take_link(ada.links()[0], 0).ok
    assert bo.match is not None and bo.match.head() == ada.match.head()


class Answers:
    """A page's `Verify` that reads answers made before the call (as WebCrypto's are)."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, bytes, bytes, bytes], bool] = {}

    def check_first(self, checks) -> None:
        for check in checks:
            self.answers[check] = verify(*check)

    def __call__(self, algorithm: str, public: bytes, data: bytes, signature: bytes) -> bool:
        return self.answers.get((algorithm, public, data, signature), False)


def test_a_page_that_checks_signatures_first_plays_from_its_answers_alone():
    from parlour.match.by_link import invite_checks

    ada, out = LinkPlay.create("esp", ["Ada", "Bo"], {}, (0,), Ed25519Signer(), verify, 0, BASE)
    answers = Answers()
    assert LinkPlay.join(out.links, 1, "Bo", Ed25519Signer(), answers, 0, BASE)[0] is None
    answers.check_first(invite_checks(out.links))
    bo, joined = LinkPlay.join(out.links, 1, "Bo", Ed25519Signer(), answers, 0, BASE)
    assert bo is not None
    assert ada.take_link(joined.links[0], 0).ok
    link = ada.links()[0]
    assert not bo.take_link(link, 0).ok  # not checked yet: taken for forged, nothing changed
    answers.check_first(bo.checks(link))
    assert bo.take_link(link, 0).ok and bo.match.head() == ada.match.head()


def test_a_seat_that_commits_twice_stops_the_game_naming_it():
    group = Group("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3})
    ada, bo, _ = group.devices
    bo._append("commit", dict(bo.records[("s1", 2)].body, c="ab" * 32))
    out = ada.take_link(bo.links()[0], 0)
    assert not out.ok and "Bo committed twice" in out.sentence


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2**40) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


def _paths(value, path=()):
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


@functools.cache
def a_real_save() -> tuple[LinkPlay, str]:
    group = settled(game="espeers", moves=4)
    device = group.devices[1]
    return device, json.dumps(device.to_json())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.integers(0, 10**6), junk=JUNK)
def test_a_damaged_save_loads_or_is_refused_with_a_sentence_never_a_crash(pick, junk):
    device, text = a_real_save()
    save = json.loads(text)
    paths = _paths(save)
    path = paths[pick % len(paths)]
    if not path:
        save = junk
    else:
        holder = save
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = junk
    try:
        LinkPlay.from_json(save, device.signer, verify, 0)
    except MalformedInput as refusal:
        assert refusal.sentence


def test_every_device_shows_one_table_code_and_a_step_too_long_for_a_chat_goes_as_one_link():
    group = settled("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "teams"}, moves=1)
    codes = {device.table_code() for device in group.devices}
    assert len(codes) == 1 and None not in codes
    ada = group.devices[0]
    fresh = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "teams"})
    assert fresh.devices[0].table_code() is None
    whole = ada.links(limit=10**9)
    assert len(whole) == 1
    out = group.devices[1].take_link(whole[0], 0)
    assert out.ok and not out.fresh
    with pytest.raises(MalformedInput, match="game file"):
        packing.links(BASE, "A" * 100_000)


def test_a_fork_shown_to_two_devices_apart_is_found_by_their_heads_and_named():
    """Bo's device shows Ada one move and Cy another under one number, and Bo's record to Cy
    never reaches Ada: Cy's signed head still tells Ada their logs differ; Ada's next link then
    carries everything, and Cy's device names Bo's."""
    group = settled(names=("Ada", "Bo", "Cy"), moves=0)
    ada, bo, cy = group.devices
    for _ in range(20):  # up to Bo's turn, links to everyone
        if pen(group) == 1:
            break
        device, seat = group.movers()[0]
        assert group.move(device, seat, Rng(b"f"))
        flush(group)
    twin = LinkPlay.from_json(bo.to_json(), bo.signer, verify, 0)
    legal = bo.table.legal(1)
    to_ada = bo.act(1, legal[0], 0).links[0]
    to_cy = twin.act(1, legal[-1], 0).links[0]
    assert ada.take_link(to_ada, 0).ok and cy.take_link(to_cy, 0).ok
    cy_link = repacked(cy.links()[0], lambda records: [])  # Bo's record to Cy never comes
    warned = ada.take_link(cy_link, 0)
    assert "holds a different move" in warned.sentence, warned.sentence
    refused = [cy.take_link(link, 0) for link in ada.links()][-1]
    assert not refused.ok and "Bo's device signed two different entries" in refused.sentence
    assert cy.forks and cy.forks[0].device == bo.me


@pytest.mark.parametrize(
    "game, names, variant, seats, bots, sentence",
    [
        ("telepathic", ["A", "B", "C"], {"arrangement": "pair"}, (0,), None, "played by 2"),
        ("esp", ["A", "B"], {}, (0, 1), None, "Keep at least one seat"),
        ("esp", ["A", "B", "C"], {}, (0,), {1: "grandmaster"}, "bot's level"),
        ("chess", ["A", "B"], {}, (0,), None, "no such game"),
    ],
)
def test_a_set_up_that_cannot_be_played_by_link_gets_a_sentence(
    game, names, variant, seats, bots, sentence
):
    play, out = LinkPlay.create(game, names, variant, seats, Ed25519Signer(), verify, 0, BASE, bots)
    assert play is None and not out.ok and sentence in out.sentence, out.sentence


def test_espeers_decks_each_player_brings_stay_sealed_and_the_game_ends_verified():
    from parlour.games.espeers.cards import resolve_deck

    variant = {"decks": ["sealed", "sealed"]}
    private = {0: {"deck": "mindwall"}, 1: {"deck": "onslaught"}}
    group = Group("espeers", ("Ada", "Bo"), variant, private=private)
    group.play(Rng(b"decks").below, Rng(b"decks"))
    group.check_the_end()
    ada, bo = group.devices
    assert ada.stores[0].value("deck")["cards"] == resolve_deck("mindwall")  # as brought,
    assert bo.stores[1].value("deck")["cards"] == resolve_deck("onslaught")  # not the default


def test_a_deck_this_page_refuses_stops_the_join_with_a_sentence():
    variant = {"decks": ["sealed", "sealed"]}
    _, out = LinkPlay.create(
        "espeers", ["Ada", "Bo"], variant, (0,), Ed25519Signer(), verify, 0, BASE
    )
    bo, joined = LinkPlay.join(
        out.links, 1, "Bo", Ed25519Signer(), verify, 0, BASE, {"deck": "nonsense"}
    )
    assert bo is None and "deck is not one Psi Parlour knows" in joined.sentence


# -- adversarial review: holes found -------------------------------------------------------


@pytest.mark.parametrize("game", ["psi-squad", "espeers"])
def test_a_move_cannot_end_the_game_by_time_or_forfeit_of_another_seat(game):
    """A step both seats take at once, Ada's first in the log (Psi Squad's cyphers: a choice;
    ESPEERS' sealed decks: automatic). A doctored page signs, as Ada's move, Bo's time-out (or,
    where Bo's step is automatic, Bo's forfeit): an `act` is a game move, never a claim, and Bo
    must not lose by it on any device."""
    doctored = {"timeout": 1} if game == "psi-squad" else {"forfeit": 1}
    group = Group(game, ("Ada", "Bo"), {"length": 3} if game == "psi-squad" else {})
    cheat = group.devices[0]
    honest, sent = cheat._my_due_steps, []

    def doctored_steps() -> bool:
        match = cheat.match
        if match is None or sent or cheat._mine() > cheat.consumed.get(cheat.me, 0):
            return honest()
        sent.append(True)
        assert match.game.to_move(match.state) == {0, 1}
        body = {"s": 0, "a": doctored, "at": 0, "h": match.head()[:16], "t": 60}
        cheat._append("act", body)
        return True

    cheat._my_due_steps = doctored_steps
    flush(group)
    group.resend()
    flush(group)
    for device in group.devices:
        assert device.match is not None and device.match.result() is None


def test_a_move_signed_as_if_long_ago_does_not_put_the_next_player_out_of_time_at_once():
    """Times are each device's word, but a step cannot fall due before the step it follows:
    a doctored page that signs its move as if at the very start, then claims at once, would
    otherwise put the next player out of time the moment it is their turn."""
    group = Group("esp", ("Ada", "Bo"), {}, hours=1)
    flush(group)
    group.now = 100_000.0
    rng = Rng(b"late")
    for _ in range(3):
        device, seat = group.movers()[0]
        assert group.move(device, seat, rng)
        flush(group)
    mover = pen(group)
    cheat = group.holder(mover)
    honest = group.devices[1 - group.devices.index(cheat)]
    cheat.now = 0.0  # the doctored page's clock, for its move only
    assert cheat.act(mover, cheat.table.legal(mover)[0], 0).ok
    (victim,) = cheat.match.game.to_move(cheat.match.state)
    claim = {"s": victim, "by": mover, "at": cheat.match.step, "t": 100_060}
    cheat._append("claim", claim)
    for link in cheat.links():
        honest.take_link(link, 100_060)
    result = honest.match.result()
    assert result is None or "ran out of time" not in result.reason, result.reason


def test_an_invite_naming_as_a_bot_a_seat_it_does_not_hold_is_refused():
    """Bots sit on the creator's device: a doctored invite that marks as a bot a seat it leaves
    free would have the joiner's own device play the joiner's seat by itself."""
    creator, out = LinkPlay.create("esp", ["Ada", "Bo"], {}, (0,), Ed25519Signer(), verify, 0, BASE)
    assert creator is not None
    record = creator.records[(creator.me, 1)]
    body = dict(record.body, b={"1": "easy"})
    doctored = Signed(creator.me, 1, "open", body)
    doctored.signature = creator.signer.sign(doctored.payload(creator.match_id))
    packet = packing.unpack(out.links[0].split("#pl=2.", 1)[1])
    records = (doctored, *packet.records[1:])
    data = packing.pack(packing.Packet(packet.match_id, records, packet.head))
    joiner, joined = LinkPlay.join(
        packing.links(BASE, data), 1, "Bo", Ed25519Signer(), verify, 0, BASE
    )
    assert joiner is None and not joined.ok, joined.sentence
    assert "bot" in joined.sentence


def test_a_claim_before_the_first_move_says_that_time_counts_from_the_first_move():
    """With a time per move, a player who never reveals stops the start, and no claim can end
    that yet: the sentence must say so, not that the game has no time per move."""
    group = Group("esp", ("Ada", "Bo"), {}, hours=1)
    ada = group.devices[0]
    assert ada.match is None
    out = ada.claim(10**6)
    assert not out.ok and "first move" in out.sentence, out.sentence


def test_a_stopped_game_takes_no_move_and_is_nobodys_turn():
    """A claim signed before the time was up stops the game on the device that took it (kept
    as proof): that device must not then seal a move and ask for it to be sent, nor list the
    game as its turn in "Your games"."""
    group = settled(hours=1)
    mover = pen(group)
    waiter = group.devices[1 - group.devices.index(group.holder(mover))]
    staller = group.holder(mover)
    (claimant,) = waiter.local
    waiter._append("claim", {"s": mover, "by": claimant, "at": waiter.match.step, "t": 60})
    for link in waiter.links():
        assert not staller.take_link(link, 60).ok
    assert staller.stopped
    step = staller.match.step
    out = staller.act(mover, staller.table.legal(mover)[0], 60)
    assert not out.ok and not out.links, out.sentence
    assert staller.match.step == step
    assert staller.summary()["my_turn"] is False


def forked() -> tuple[Group, LinkPlay, LinkPlay]:
    """Ada's device shows Bo two different moves under one number: (group, cheat, other)."""
    group = settled()
    mover = pen(group)
    cheat = group.holder(mover)
    other = group.devices[1 - group.devices.index(cheat)]
    twin = LinkPlay.from_json(cheat.to_json(), cheat.signer, verify, group.now)
    first = next_move(group, mover)[0]
    second = twin.act(mover, twin.table.legal(mover)[-1], group.now).links[0]
    assert other.take_link(first, group.now).ok
    assert not other.take_link(second, group.now).ok
    return group, cheat, other


def test_a_forks_proof_is_kept_across_a_reload_and_a_false_one_is_refused():
    group, _, other = forked()
    saved = other.to_json()
    again = LinkPlay.from_json(saved, other.signer, verify, group.now)
    assert [f.to_json() for f in again.forks] == [f.to_json() for f in other.forks]
    proof = saved["forks"][0]
    doctored = dict(saved, forks=[dict(proof, second=proof["first"])])  # no two entries
    with pytest.raises(MalformedInput):
        LinkPlay.from_json(doctored, other.signer, verify, group.now)


def test_a_proven_fork_stops_the_game_naming_the_device():
    """Two signed entries for one step: the game cannot go on two ways, so the device that
    holds the proof says so, takes no move, and lists the game as nobody's turn."""
    group, cheat, other = forked()
    who = cheat.name(cheat.local[0])
    assert who in other.waiting() and "two different entries" in other.waiting()
    assert other.summary()["my_turn"] is False
    (seat,) = other.local
    out = other.act(seat, other.table.legal(seat)[0], group.now)
    assert not out.ok and not out.links


def test_a_move_signed_far_ahead_waits_for_the_clock_and_cannot_shield_a_staller():
    """A step falls due no earlier than the one before it (so a move cannot be backdated to
    put the next seat out of time); then a move signed far in the future would push every
    later due time with it and shield its signer from claims for the rest of the game. So a
    move signed ahead of this device's clock waits, as a claim does, and the time runs on."""
    group = settled(hours=1)
    mover = pen(group)
    cheat = group.holder(mover)
    honest = group.devices[1 - group.devices.index(cheat)]
    step = honest.match.step
    cheat.now = 10.0**8  # the doctored page's clock
    links = cheat.act(mover, cheat.table.legal(mover)[0], 10**8).links
    for link in links:
        assert honest.take_link(link, 100).ok
    assert honest.match.step == step
    assert "ahead of this device's clock" in honest.waiting(), honest.waiting()
    out = honest.claim(3600 * 2)
    assert out.ok, out.sentence
    result = honest.match.result()
    assert result is not None and "ran out of time" in result.reason


def test_a_stray_part_numbered_past_the_end_does_not_spoil_a_split_link():
    """A part with the right tag but a number past the link's last (hand-edited, or a part of
    a longer link that happened to share the tag) must not make the real parts never fit."""
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"})
    links = group.devices[1].links(limit=300)  # (no send of a game of four splits: issue 38)
    assert len(links) > 1
    count = len(links)
    tag = links[0].split("#pl=2.", 1)[1].split(".")[1]
    stray = f"{BASE}#pl=2.{count + 1}-{count + 1}.{tag}.AAAA"
    cy = group.devices[2]
    assert cy.take_link(stray, 0).ok
    outs = [cy.take_link(link, 0) for link in links]
    assert outs[-1].ok and "Part" not in outs[-1].sentence, outs[-1].sentence


# -- Telepathic's pair: the partner who is not active may announce ---------------------------


def pair_in_hand() -> tuple[LinkPlay, LinkPlay, int]:
    """A Telepathic pair after a completed turn: the active partner's device, the other
    partner's device, and the other partner's seat."""
    for attempt in range(20):  # the cards are dealt at random: a lose condition may end it
        group = Group("telepathic", ("Ada", "Bo"), {"arrangement": "pair", "mode": "first"})
        rng = Rng(bytes([attempt]))
        flush(group)
        state = group.devices[0].table.state
        while group.movers() and not (state.phase == "hand" and state.turns):
            device, seat = group.movers()[0]
            assert group.move(device, seat, rng)
            flush(group)
            state = group.devices[0].table.state
        if state.phase == "hand" and state.turns:
            active = state.active
            return group.holder(active), group.holder(1 - active), 1 - active
    raise AssertionError("no pair reached a second turn")


def announcement(device: LinkPlay, seat: int) -> object:
    from parlour.games.telepathic.rules import Announce

    table = device.table
    choices = table.game.legal_actions(table.state, seat, device.stores[seat])
    return next(c for c in choices if isinstance(c, Announce))


def test_in_a_telepathic_pair_the_partner_who_is_not_active_may_announce_by_link():
    """RULINGS: "Announcement: either partner, after a completed turn" (as live play allows)."""
    active, other, seat = pair_in_hand()
    out = other.act(seat, announcement(other, seat), 100)
    assert out.ok and out.links, out.sentence
    for link in out.links:
        assert active.take_link(link, 100).ok
    for device in (active, other):
        assert device.table.state.phase == "respond" and device.table.state.announcer == seat
    assert active.match.head() == other.match.head()


@pytest.mark.parametrize("announced_first", [True, False])
def test_a_move_in_turn_and_an_announcement_that_cross_end_the_same_on_every_device(
    announced_first,
):
    """Sealed at one step on two devices, each device having taken its own first: the earlier
    signed time goes first on both; the other is void."""
    from parlour.games.telepathic.rules import HandCard

    active, other, seat = pair_in_hand()
    hand = next(c for c in active.table.legal(1 - seat) if isinstance(c, HandCard))
    said = other.act(seat, announcement(other, seat), 100 if announced_first else 200)
    moved = active.act(1 - seat, hand, 200 if announced_first else 100)
    assert said.ok and moved.ok
    for device, links in [(other, moved.links), (active, said.links)]:
        for link in links:
            assert device.take_link(link, 300).ok
    assert active.match.head() == other.match.head()
    for device in (active, other):
        announced = device.table.state.announcer == seat
        assert announced == announced_first, (device.me, device.table.state.phase)


# -- a seed reveal or openings withheld ------------------------------------------------------


def two_devices_committed(hours: float = 1) -> tuple[LinkPlay, LinkPlay, list[str]]:
    """Ada's invite and Bo's join (at time 0): Bo has every commitment and has revealed; Ada,
    who would reveal last (and so could see the seed first), has not taken Bo's link yet."""
    from tests.signers import P256Signer

    ada, out = LinkPlay.create(
        "esp", ["Ada", "Bo"], {}, (0,), Ed25519Signer(), verify, 0, BASE, None, hours
    )
    bo, joined = LinkPlay.join(out.links, 1, "Bo", P256Signer(), verify, 0, BASE)
    assert ada is not None and bo is not None
    return ada, bo, joined.links


def test_a_withheld_seed_reveal_is_named_and_claimable_once_the_time_per_move_is_up():
    ada, bo, join = two_devices_committed()
    assert bo.waiting() == "Waiting for Ada's link that starts the game."
    assert bo.time_left(1800) == (0, 1800, "link that starts the game")
    early = bo.claim(1800)
    assert (
        not early.ok
        and early.sentence == "Ada still has 30 minutes for this link that starts the game."
    )
    out = bo.claim(3600)
    assert out.ok and out.links, out.sentence
    assert "Ada did not reveal their part of the seed within the time per move" in bo.waiting()
    assert bo.summary()["over"] and bo.match is None
    for link in [*join, *out.links]:  # Ada's device takes them late: its reveal is later
        assert ada.take_link(link, 4000).ok
    assert ada.match is None and ada.forfeit == bo.forfeit
    assert ada.forfeit is not None and ada.forfeit.winners == frozenset({1})


def test_a_seed_reveal_signed_before_the_claim_goes_first_on_every_device():
    ada, bo, join = two_devices_committed()
    for link in join:
        assert ada.take_link(link, 100).ok  # Ada reveals at 100; her link is slow to come
    claim = bo.claim(3650)
    assert claim.ok and bo.forfeit is not None
    assert ada.take_link(claim.links[0], 3650).ok
    assert bo.take_link(ada.links()[0], 3650).ok
    for device in (ada, bo):
        assert device.forfeit is None and device.match is not None, device.waiting()
        assert device.match.result() is None
    assert ada.match.head() == bo.match.head()


def withhold_bo_s_openings(group: Group, rng: Rng) -> bool:
    """Play to the end while Bo's openings never reach Ada: False when Bo's own last move came
    in the link that carried them (the joint seed differs each run), so Ada never saw the end."""
    bo = group.holder(1)
    while group.devices[0].match.result() is None:
        movers = group.movers()
        if not movers:
            return False
        device, seat = movers[0]
        assert group.move(device, seat, rng)
        while group.queue:
            to, link = group.queue.pop(0)
            fragment = packing.read_fragment(link)
            assert isinstance(fragment, str)
            records = packing.unpack(fragment).records
            if group.devices[to] is not bo and any(
                r.device == bo.me and r.kind == "openings" for r in records
            ):
                continue
            group.post(to, group.devices[to].take_link(link, 0).links)
    return True


def test_openings_withheld_at_the_end_are_named_and_a_claim_ends_the_check_unverified():
    from parlour.match.audit import Unverified

    for _ in range(20):  # until the game ends on a move that is not Bo's (see below)
        group = settled("psi-squad", variant={"length": 3}, moves=0, hours=1)
        if withhold_bo_s_openings(group, Rng(b"to the end")):
            break
    else:
        raise AssertionError("every game ended on Bo's own move")
    ada = group.devices[0]
    assert ada.waiting() == (
        "The game is over: waiting for the last link of Bo, which shows their hidden choices "
        "for the final check."
    )
    assert ada.time_left(60) == (1, 3540, "last link")
    out = ada.claim(3600)
    assert out.ok, out.sentence
    assert isinstance(ada.audit_result, Unverified) and ada.audit_result.seats == (1,)
    assert ada.waiting().startswith("The game is over and checked: Bo did not open")


def test_every_kind_of_record_but_the_head_has_players_words_for_a_link_s_news():
    """A link that brings no move says what the others did ("Bo joined."): a new kind of record
    needs its words, or the news would be silent about it."""
    assert set(DEEDS) == set(SHAPES) - {"open", "head"}


# -- time per move that cannot be gamed (issue 37) ---------------------------------------------


def _staller_and_waiter(group: Group) -> tuple[LinkPlay, LinkPlay, int]:
    mover = pen(group)
    staller = group.holder(mover)
    return staller, group.devices[1 - group.devices.index(staller)], mover


@pytest.mark.parametrize("waiter_claimed_first", [False, True])
def test_a_staller_who_dates_a_move_back_and_claims_at_once_does_not_win(waiter_claimed_first):
    """Bo stalls past his own time, then sends one link: his move dated back to its due time
    and a claim that Ada ran out of time. Ada's device never held that turn: her time starts
    when it reached her, on every device, even when she had claimed first."""
    group = settled(hours=1)
    bo, ada, mover = _staller_and_waiter(group)
    real = 4 * 3600
    if waiter_claimed_first:  # Ada's claim is on its way to Bo when he moves
        assert ada.claim(2 * 3600).ok and ada.match.result() is not None
    back = bo.times[-1] + 5
    before = bo._mine()
    bo.now = back
    assert bo._act(mover, bo.table.legal(mover)[0]) is None
    bo._run()
    (ada_seat,) = ada.local
    claim = {"s": ada_seat, "by": mover, "at": bo.match.step, "t": back + 3600}
    bo._append("claim", claim)
    bo._rebuild()
    assert bo._mine() == before + 2
    link = bo.links()
    out = ada.take_link(link[0], real)
    assert out.ok, out.sentence
    assert ada.match.result() is None and "claimed the game" not in out.sentence
    assert ada.time_left(real) == (ada_seat, 3600, "move")  # a whole hour from its arrival
    for answer in out.links:
        assert bo.take_link(answer, real).ok
    assert bo.match.result() is None and bo.match.head() == ada.match.head()
    assert ada.claim(real + 10).ok is False  # nobody owes Ada: it is her move
    late = bo.claim(real + 3599)
    assert not late.ok and "still has" in late.sentence  # Bo can claim only after her hour


def test_a_turn_that_reached_its_device_in_time_is_claimable_as_before():
    """The `seen` record is only for turns that came late: a player who got the move at once
    and stalls loses on time, on every device, as before."""
    group = settled(hours=1)
    staller, waiter, _ = _staller_and_waiter(group)
    assert not any(r.kind == "seen" for r in staller.records.values())
    claimed = waiter.claim(3600 * 2)
    assert claimed.ok and waiter.match.result() is not None
    assert staller.take_link(claimed.links[0], 3600 * 2).ok
    assert staller.match.result() is not None


def test_a_device_whose_last_save_was_refused_relearns_its_records_before_signing_again():
    """Issue 37: Bo's device moved, but its save was refused; reloaded from the save before,
    it must not sign another move under the same number (a fork that would call an honest
    player a cheater). Ada's next link says what Bo's device signed and brings it back."""
    group = settled(hours=0, moves=2)
    ada, bo = group.devices
    old_save = bo.to_json()
    seat = pen(group)
    mover = group.holder(seat)
    if mover is not bo:  # let Ada move first, so Bo is next
        group.post(0, next_move(group, seat))
        flush(group)
        old_save = bo.to_json()
        seat = pen(group)
    sent = next_move(group, seat)  # Bo moves; the save after it is refused
    for link in sent:
        assert ada.take_link(link, 0).ok
    reloaded = LinkPlay.from_json(old_save, bo.signer, verify, 0)
    answer = ada.links()  # Ada's head: she holds Bo's move
    out = reloaded.take_link(answer[0], 0)
    assert out.ok and "lost its last 1 entry" in out.sentence, out.sentence
    assert out.links and reloaded.act(seat, reloaded.table.legal(seat)[0], 0).ok is False
    for link in out.links:  # its head tells Ada what it lacks ...
        assert ada.take_link(link, 0).ok
    for link in ada.links():  # ... and Ada's next link brings it back
        assert reloaded.take_link(link, 0).ok
    assert reloaded.match.head() == ada.match.head()
    assert not reloaded._behind() and not reloaded.forks and not ada.forks


def test_an_old_link_opened_late_is_no_news_of_a_loss_and_asks_for_nothing():
    """Issue 38: Bo's device took Ada's move (its head changed) and, before sending, moved.
    Ada opens Bo's move's link, then the older link. Its head's lower count of Bo's own
    records is no loss: Ada's links carry none of Bo's records back to Bo. (It was read as a
    loss before, and every device carried that device's records back to it: in Telepathic's
    shared decks, a link in two parts.)"""
    group = settled(moves=2)
    ada, bo = group.devices
    if group.holder(pen(group)) is bo:  # Ada moves, so that Bo's next head is one Ada never saw
        group.post(1, next_move(group, pen(group)))
        flush(group)
    group.post(0, next_move(group, pen(group)))
    (bo_seat,) = bo.local
    while group.queue:  # Bo takes Ada's move; the link it would answer with waits
        recipient, link = group.queue.pop(0)
        assert group.devices[recipient].take_link(link, 0).ok
    old = bo.links()
    assert pen(group) == bo_seat
    new = next_move(group, bo_seat)
    for link in [*new, *old]:
        assert ada.take_link(link, 0).ok
    assert ada.heads[bo.me][bo.me] == bo._mine()
    carried = [
        r
        for link in ada.links()
        for r in packing.unpack(link.split("#pl=2.", 1)[1]).records
        if r.device == bo.me
    ]
    assert not carried


def test_a_device_holds_what_it_signed_unless_its_head_says_it_lost_it():
    """Ada holds Bo's last record while the last head of Bo's noted here is older (another
    device carried that record on to her first, in a chat opened out of order): Bo holds it all
    the same, and Ada's links carry nothing of Bo's back to Bo. (It read as Bo lacking it, and
    in Telepathic teams with a bot Bo's commitment went back to Bo beside Ada's lock: two
    parts.) Only Bo's head marked as a loss sends it back."""
    group = settled(moves=2)
    ada, bo = group.devices
    k = bo._mine()
    ada.heads[bo.me][bo.me] = k - 1  # Bo's head from before its last record
    shown, _ = ada._lacking([bo.me])
    assert bo.me not in shown.get(bo.me, {})
    ada._lost = frozenset({bo.me})  # Bo's head said it lost records it signed
    shown, _ = ada._lacking([bo.me])
    assert shown[bo.me][bo.me] == (k - 1, k)


def test_a_device_that_lost_records_marks_its_head_until_it_holds_them_again():
    group = settled(moves=2)
    ada, bo = group.devices
    bo.heads[ada.me] = {**bo.heads.get(ada.me, {}), bo.me: bo._mine() + 1}  # Ada holds more of Bo's
    head = bo._head_body()
    assert (head.body["n"], head.body["h"]) == (0, LOST)
    bo.heads[ada.me][bo.me] = bo._mine()
    head = bo._head_body()
    assert head.body["n"] == bo.match.step and head.body["h"] == bo.match.head()[:16]


def test_a_page_from_before_the_mark_that_lost_records_gets_them_back_once_it_knows_more():
    """The same refused save, on a page from before the `LOST` mark: its heads say it lost
    records only by a lower count. Once it took a newer link (Ada moved on), its head names
    more of Ada than any head of Bo's before, which no old link does: a loss, and Ada's next
    link brings Bo's records back."""
    group = settled(hours=0, moves=2)
    ada, bo = group.devices
    if group.holder(pen(group)) is not bo:
        group.post(0, next_move(group, pen(group)))
        flush(group)
    old_save, seat = bo.to_json(), pen(group)
    for link in next_move(group, seat):  # Bo moves; the save after it is refused
        assert ada.take_link(link, 0).ok
    reloaded = LinkPlay.from_json(old_save, bo.signer, verify, 0)

    def unmarked(self: LinkPlay) -> Signed:
        step, have = self.match.step, dict(self._have())
        return Signed(self.me, max(self._mine(), 1), "head", {"have": have, "n": step, "h": "x"})

    reloaded._head_body = types.MethodType(unmarked, reloaded)  # type: ignore[method-assign]
    next_move(group, pen(group))  # Ada moves on after Bo's move
    assert reloaded.take_link(ada.links()[0], 0).ok  # Ada's move, from the chat
    assert reloaded._behind()
    for link in reloaded.links():
        assert ada.take_link(link, 0).ok
    assert bo.me in ada._lost
    for link in ada.links():
        assert reloaded.take_link(link, 0).ok
    assert not reloaded._behind() and reloaded.match.head() == ada.match.head()


def test_a_device_behind_its_own_records_says_so_and_signs_nothing():
    group = settled(moves=2)
    ada, bo = group.devices
    bo.heads[ada.me] = {**bo.heads.get(ada.me, {}), bo.me: bo._mine() + 1}  # Ada holds more of Bo's
    assert "lost its last 1 entry" in bo.waiting()
    seat = bo.local[0]
    before = bo._mine()
    out = bo.act(seat, bo.table.legal(seat)[0] if bo.table.legal(seat) else None, 0)
    assert not out.ok and bo._mine() == before


def test_one_link_cannot_fill_a_save_with_moves_that_can_never_count():
    """Issue 37: a device of the game signs a link of many moves that cannot count (sealed for
    a step long past): the link is refused and changes nothing, and the game goes on."""
    group = settled(moves=4)
    ada, bo = group.devices
    size = len(json.dumps(ada.to_json()))
    (seat,) = bo.local
    action = next(e.action for e in bo.match.entries if e.seat == seat)
    for _ in range(40):
        bo._append("act", {"s": seat, "a": action, "at": 0, "h": "0" * 16, "t": 0})
    bo._run()
    out = ada.take_link(bo.links(limit=10**6)[0], 0)
    assert not out.ok and "more moves from Bo's device than a game can use" in out.sentence
    assert len(json.dumps(ada.to_json())) == size and not ada._halted()
    assert ada.match.head() == bo.match.head()


# -- a seat that has read its shared card and keeps back its commitment ----------------------


def start_with_a_staller(hours: float = 1) -> tuple[Group, LinkPlay]:
    """Telepathic four partners with a time per move, where Cy opens every link and sends its
    own until its device has read its card: the link that would carry its commitment (and every
    one after it) is never sent, so the start waits on Cy."""
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}, hours=hours)
    cy = group.holder(2)
    while group.queue:
        to, link = group.queue.pop(0)
        device = group.devices[to]
        taken = device.take_link(link, group.now)
        if device is not cy or 2 not in cy.commits:
            group.post(to, taken.links)
    return group, cy


def test_a_seat_that_read_its_card_and_stalls_its_commitment_can_be_claimed():
    group, cy = start_with_a_staller()
    assert 2 in cy.commits  # Cy's device read its card and got ready: Cy sends nothing
    ada = group.devices[0]
    assert ada.owed() == (2, "link that starts the game", 0), ada.owed()
    assert ada.time_left(1800) == (2, 1800, "link that starts the game")
    early = ada.claim(1800)
    assert not early.ok and "Cy still has 30 minutes" in early.sentence
    out = ada.claim(3600)
    assert out.ok and out.links, out.sentence
    assert ada.forfeit is not None and ada.summary()["over"]
    assert "Cy did not get ready within the time per move" in ada.waiting()
    assert ada.forfeit.winners == frozenset()  # Telepathic: the partners lose together
    for device in group.devices[1:]:
        if device is not cy:
            for link in out.links:
                assert device.take_link(link, 3600).ok
            assert device.forfeit == ada.forfeit, device.waiting()
    # Cy's link comes after all: a commitment carries no time, so it goes first and the start
    # goes on from there, on every device
    late = cy.links()
    for device in group.devices:
        if device is not cy:
            for link in late:
                device.take_link(link, 3700)
            assert device.forfeit is None, device.waiting()
            assert 2 in device.commits


def test_a_claim_against_a_commitment_that_came_first_is_void_on_the_staller_s_device():
    group, cy = start_with_a_staller()
    ada = group.devices[0]
    out = ada.claim(3600)
    assert out.ok
    for link in out.links:
        assert cy.take_link(link, 3600).ok
    assert cy.forfeit is None and 2 in cy.commits, cy.waiting()


def test_no_claim_against_a_seat_whose_card_is_not_dealt_to_it_yet():
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}, hours=1)
    ada = group.devices[0]
    assert ada.owed() is None
    out = ada.claim(10**6)
    assert not out.ok and "nobody can be claimed against" in out.sentence


def test_a_device_that_signs_more_due_records_than_there_are_seats_is_refused():
    group, _ = start_with_a_staller()
    ada = group.devices[0]
    bo = group.holder(1)
    for _ in range(8):
        ada._append("due", {"s": 0, "on": 2, "t": 0})
    before = len(bo.records)
    outs = [bo.take_link(link, 0) for link in ada.links()]
    assert not outs[-1].ok and "than a game can use" in outs[-1].sentence
    assert len(bo.records) == before


# -- the invite's code, compared before joining (issue 37) -----------------------------------


def test_the_join_screen_s_invite_code_is_the_creator_s_and_a_relay_s_new_key_changes_it():
    """Whoever carries the invite can re-sign it with a key of their own (to sit between the
    players): the join screen's invite code then differs from the one on the creator's screen,
    before anyone has joined; the honest invite gives the same code on both devices."""
    from parlour.fair.signing import DeviceKey, invite_code
    from parlour.ui.by_link.screen import join_form
    from parlour.ui.tree import to_html as render

    group = Group("esp", ("Ada", "Bo"), {}, hours=24)
    ada = group.devices[0]
    packet = packing.read_invite(group.invite)
    opened = next(r for r in packet.records if r.kind == "open")
    code = invite_code(packet.match_id, opened.device, opened.body)
    assert ada.invite_code() == code == group.devices[1].invite_code()
    html = render(join_form(opened, packet.records, "", [], code))
    assert f'data-code="{code}"' in html and "ask Ada in your chat" in html
    from parlour.ui.by_link.screen import trust

    bar = render(trust(ada))  # until the start: the creator's bar, and the joiner's
    assert f'data-code="{code}"' in bar and "whoever opens your invite" in bar
    bar = render(trust(group.devices[1]))
    assert f'data-code="{code}"' in bar and "compare with Ada's" in bar

    mallory = Ed25519Signer()
    forged = Signed(opened.device, 1, "open", {**opened.body, "k": DeviceKey.of(mallory).to_json()})
    forged.signature = mallory.sign(forged.payload(packet.match_id))
    head = Signed(opened.device, 1, "head", {"have": {opened.device: 1}, "n": 0, "h": "0" * 16})
    head.signature = mallory.sign(head.payload(packet.match_id))
    relayed = packing.links(BASE, packing.pack(packing.Packet(packet.match_id, (forged,), head)))
    seen = packing.read_invite(relayed)
    shown = next(r for r in seen.records if r.kind == "open")
    assert invite_code(seen.match_id, shown.device, shown.body) != code
    for change in ({"l": 3600}, {"n": ["Ada", "Eve"]}, {"b": {"1": "easy"}}):
        assert invite_code(packet.match_id, opened.device, {**opened.body, **change}) != code


def deliver_all(group: Group, now: float = 0) -> None:
    while group.queue:
        to, link = group.queue.pop(0)
        group.post(to, group.devices[to].take_link(link, now).links)


def test_a_claim_against_a_seat_that_cannot_read_its_card_yet_never_forfeits_it():
    """Bo signs a `due` on Cy, whose join is still on its way, and claims at once: no device
    could see Cy read a card, so the claim waits, and the game starts when Cy's links come."""
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "teams"}, hours=1)
    cy = group.holder(2)
    group.queue = [(to, link) for to, link in group.queue if group.devices[to] is not cy]
    held = [(to, link) for to, link in group.queue if link in cy.links()]
    group.queue = [q for q in group.queue if q not in held]
    deliver_all(group)
    bo = group.holder(1)
    bo._append("due", {"s": 1, "on": 2, "t": 0})
    bo._append("claim", {"s": 2, "by": 1, "at": 0, "t": 3600})
    bo.now = 3600
    group.post(group.devices.index(bo), bo.links())
    group.queue += held
    deliver_all(group, 3600)
    group.resend()
    deliver_all(group, 3600)
    for device in group.devices:
        assert device.forfeit is None and device.match is not None, device.waiting()


def withholding(monkeypatch, commit: bool) -> Group:
    """Telepathic teams, 1 hour per move, where Bo's device never unlocks Ada's colour card (a
    changed page) and, unless `commit`, never commits either: Bo reads his own card all the same
    (Ada unlocks it), and could veto the game having seen it."""
    from parlour.match import dealing
    from parlour.match.by_link.start import Starting

    steps, start = dealing.Dealing.my_steps, Starting._start_steps

    def my_steps(self, stores):
        found = steps(self, stores)
        if 1 not in stores:
            return found
        return [
            (kind, step)
            for kind, step in found
            if not (kind == "deal-unlock" and step["label"] == "colour" and step["card"] == 0)
        ]

    def start_steps(self):
        if 1 in self.local and not commit:
            made = False
            for kind, step in self.dealing.my_steps(self.stores):
                self._append(kind.removeprefix("deal-"), dict(step))
                made = True
            return made
        return start(self)

    monkeypatch.setattr(dealing.Dealing, "my_steps", my_steps)
    monkeypatch.setattr(Starting, "_start_steps", start_steps)
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "teams"}, hours=1)
    deliver_all(group)
    return group


@pytest.mark.parametrize("commit", [True, False])
def test_a_seat_that_read_its_card_and_withholds_an_unlock_is_claimed(monkeypatch, commit):
    group = withholding(monkeypatch, commit)
    ada, bo = group.holder(0), group.holder(1)
    assert (1 in ada.commits) == commit
    assert ada.owed() == (1, "link that starts the game", 0)
    out = ada.claim(3600)
    assert out.ok, out.sentence
    group.post(group.devices.index(ada), out.links)
    # Bo answers with a `due` and a claim of his own against Ada: it changes nothing
    bo._append("due", {"s": 1, "on": 0, "t": 0})
    bo._append("claim", {"s": 0, "by": 1, "at": 0, "t": 3600})
    bo.now = 3600
    group.post(group.devices.index(bo), bo.links())
    deliver_all(group, 3600)
    for device in group.devices:
        if device is not bo:
            assert device.forfeit is not None and device.forfeit.winners == frozenset({0, 2})
            assert "Bo did not get ready" in device.forfeit.reason


def test_a_record_in_place_of_the_commitment_shields_no_staller(monkeypatch):
    """Cy reads its card and signs a `seen` that can never be taken before the start, instead
    of its commitment: the start's clock runs on Cy all the same, and the claim counts."""
    from parlour.match.by_link.start import Starting

    start = Starting._start_steps

    def start_steps(self):
        if 2 in self.local and self.dealing.my_cards(self.stores) is not None:
            if not any(r.kind == "seen" for (d, _), r in self.records.items() if d == self.me):
                self._append("seen", {"s": 2, "at": 0, "t": 0})
                return True
            return False
        return start(self)

    monkeypatch.setattr(Starting, "_start_steps", start_steps)
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}, hours=1)
    deliver_all(group)
    ada = group.devices[0]
    assert ada.owed() == (2, "link that starts the game", 0)
    out = ada.claim(3600)
    assert out.ok and ada.forfeit is not None, out.sentence


def test_an_invite_refused_at_joining_shows_why_and_the_way_back_instead_of_the_form():
    """A refusal of the invite itself (an older page's, UNSEALED): no seat or name would change
    it, so the join screen gives the sentence and "All games", not the form to press again."""
    from parlour.match.by_link.device import UNSEALED
    from parlour.ui.by_link.screen import join_form
    from parlour.ui.tree import to_html

    group = Group("esp", ("Ada", "Bo"), {})
    packet = packing.read_invite(group.invite)
    opened = next(r for r in packet.records if r.kind == "open")
    html = to_html(join_form(opened, packet.records, UNSEALED, [], "ABCD-EFGH", refused=True))
    assert UNSEALED in html and 'href="#home"' in html and 'role="alert"' in html
    assert 'data-cmd="bylink-join"' not in html and "data-field" not in html
    assert "ABCD-EFGH" not in html  # no code to compare for a game nobody can join
    form = to_html(join_form(opened, packet.records, "", [], "ABCD-EFGH"))
    assert 'data-cmd="bylink-join"' in form and 'href="#home"' not in form


@pytest.mark.parametrize(
    "change", [{"b": 5}, {"h": [{}]}, {"h": 3, "b": []}, {"n": 7}, {"h": ["0", None]}]
)
def test_the_join_screen_draws_an_invite_whatever_its_fields_hold(change):
    """The join screen reads an invite before its record's shape is checked (joining checks it,
    and refuses with a sentence): a wrong-typed field never raises there."""
    from parlour.ui.by_link.screen import join_form
    from parlour.ui.tree import to_html

    group = Group("esp", ("Ada", "Bo"), {})
    opened = next(r for r in packing.read_invite(group.invite).records if r.kind == "open")
    changed = Signed(opened.device, 1, "open", {**opened.body, **change})
    join = Signed("s9", 1, "join", {"s": {}, "n": "Eve", "k": [], "t": 0})
    assert "bylink-join" in to_html(join_form(changed, (changed, join), "", [], "ABCD-EFGH"))
