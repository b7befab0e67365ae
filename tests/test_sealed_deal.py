"""A shared deck whose recipients all sit on one device (Telepathic's shape deck with two bots on
the creator's device): sealed in the invite and mixed with another device's locks
(`fair/sealed_deal.py`, docs/online.md "Decks dealt at one device"). The device reads its
seats' cards but cannot choose them; the audit deals the deck again; the invite is one link.
"""

from __future__ import annotations

import secrets

import pytest

from parlour.errors import CommitmentMismatch, MalformedInput, ProtocolError
from parlour.fair import sealed_deal, sra
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.match.audit import Cheat
from parlour.match.by_link import device as device_module
from parlour.match.by_link import packing
from parlour.match.by_link.start import Starting
from parlour.match.config import MatchConfig
from parlour.match.dealing import Dealing, Progress, SealedProgress
from tests.by_link_group import Group
from tests.test_by_link import flush

MATCH, LABEL = "m-sealed-test-01", "shape"
DECK = ("circle", "square", "triangle", "star")
NAMES = ("Ada", "Bo", "Cy", "Di")
TWO_BOTS = {2: "easy", 3: "easy"}


def deals(arrangement: str = "four"):
    setup = MatchConfig("telepathic", MATCH, NAMES, {"arrangement": arrangement}).setup()
    return GAMES["telepathic"].shared_deals(setup)


def rows(n: int = 1) -> list[tuple[int, ...]]:
    """Rows as another device's lock makes them: numbers it alone could foresee."""
    deck = sra.encodings(4, MATCH, "colour")
    return [tuple(sra.dealt_row(deck, sra.new_exponent(), 2, True)) for _ in range(n)]


# -- the method --------------------------------------------------------------------------------


def test_the_cards_are_distinct_cards_of_the_deck_and_follow_the_mix():
    keys = [secrets.token_hex(32), secrets.token_hex(32)]
    seen = set()
    for row in rows(24):
        dealt = sealed_deal.cards(DECK, 2, MATCH, LABEL, keys, [row])
        assert len(set(dealt)) == 2 and set(dealt) <= set(DECK)
        assert sealed_deal.cards(DECK, 2, MATCH, LABEL, keys, [row]) == dealt  # replayable
        seen.add(tuple(dealt))
    # the same sealed secrets, another device's rows: other cards (12 pairs in all)
    assert len(seen) > 4


def test_a_device_holding_every_recipient_could_order_a_deal_by_locks():
    """Why a deck at one device is no longer dealt by locks (`fair.sra`): the last locker of
    such a deal holds the first locker's exponent too, so it knows which card is under each
    locked number and can put the one it likes first (recipient 0's card), and its deal still
    replays as honest. Only a blind last shuffler makes that deal fair."""
    k2, k3 = sra.new_exponent(), sra.new_exponent()
    deck = sra.encodings(4, MATCH, LABEL)
    first = sra.lock(deck, k2)
    wanted = DECK.index("star")
    target = pow(pow(deck[wanted], k2, sra.P), k3, sra.P)
    last = [pow(v, k3, sra.P) for v in first]
    last.remove(target)
    last = [target, *last][:2]  # "star" to seat 2, chosen
    unlocks = ((sra.unlock(last[0], k3),), (sra.unlock(last[1], k2),))
    record = sra.DealRecord(DECK, (2, 3), (tuple(first), tuple(last)), unlocks)
    sra.check_deal(record, {2: k2, 3: k3}, {2: "star"}, NAMES, MATCH, LABEL)  # no cheat found


def sealed_record(keys: list[str]) -> tuple[sealed_deal.SealedRecord, dict[int, str]]:
    from parlour.fair.commit import Context, commit

    commitments = {}
    for seat, key in zip((2, 3), keys, strict=True):
        commitments[seat], _ = commit(Context(MATCH, seat), "sra:shape", key, nonce=b"\1" * 32)
    record = sealed_deal.SealedRecord(
        DECK, (2, 3), (commitments[2], commitments[3]), (("colour", 1),)
    )
    return record, commitments


def test_the_audit_deals_it_again_and_names_a_false_card_or_a_changed_lock():
    keys = [secrets.token_hex(32), secrets.token_hex(32)]
    record, committed = sealed_record(keys)
    mix = rows()
    dealt = dict(zip((2, 3), sealed_deal.cards(DECK, 2, MATCH, LABEL, keys, mix), strict=True))
    opened = dict(zip((2, 3), keys, strict=True))
    context = (MATCH, LABEL, mix)
    sealed_deal.check(record, opened, committed, dealt, NAMES, context)
    other = next(c for c in DECK if c not in dealt.values())
    with pytest.raises(CommitmentMismatch, match="Di holds a card they were not dealt"):
        sealed_deal.check(record, opened, committed, {**dealt, 3: other}, NAMES, context)
    # a lock committed before the seed that is not the one sealed in the invite (a device
    # that drew a new one once it saw the mix): named, whatever it opens
    changed, _ = sealed_record([secrets.token_hex(32), keys[1]])
    with pytest.raises(CommitmentMismatch, match="Cy's lock on the shape deck is not the one"):
        sealed_deal.check(
            record, opened, {**committed, 2: changed.sealed[0]}, dealt, NAMES, context
        )
    sealed_deal.check(record, {2: keys[0]}, committed, dealt, NAMES, context)  # Di did not open
    # an opening out of form is named by its own seat, not the deck's first
    with pytest.raises(CommitmentMismatch, match="Di's lock on the shape deck is damaged") as e:
        sealed_deal.check(record, {**opened, 3: 7}, committed, dealt, NAMES, context)
    assert e.value.seat == 3


def test_a_record_reads_back_and_one_out_of_form_is_refused():
    record, _ = sealed_record([secrets.token_hex(32), secrets.token_hex(32)])
    data = sealed_deal.write(record)
    assert sealed_deal.read(data) == record
    for bad in (
        {**data, "sealed": ["00" * 32]},
        {**data, "sealed": ["xyz", "00" * 32]},
        {**data, "mixed": [["colour", 9]]},
        {**data, "mixed": "colour"},
        {**data, "seats": [2, 2]},
    ):
        with pytest.raises(MalformedInput):
            sealed_deal.read(bad)
    # its rows must be rows of another deal of the same set-up
    with pytest.raises(MalformedInput, match="no other deal holds"):
        sealed_deal.check_mix({"shape": data})


@pytest.mark.parametrize(
    "held, mixed",
    [
        ((0, 2, 3), [("colour", 1)]),
        ((1, 2, 3), [("colour", 0)]),
        ((2, 3), [("colour", 0), ("colour", 1)]),
    ],
)
def test_the_mix_is_every_row_of_the_other_decks_another_device_locked(held, mixed):
    """Never a row of the sealing device's own seats: it could choose it after sealing."""
    dealing = Dealing(deals(), NAMES, MATCH, {"shape": ["00" * 32] * 2}, held)
    assert list(dealing.progress["shape"].mixed) == mixed
    assert isinstance(dealing.progress["colour"], Progress)


def test_a_step_of_a_sealed_deck_is_refused():
    dealing = Dealing(deals(), NAMES, MATCH, {"shape": ["00" * 32] * 2}, (0, 2, 3))
    row = [format(v, "x") for v in sra.encodings(4, MATCH, "shape")]
    with pytest.raises(ProtocolError, match="dealt at one device"):
        dealing.take_lock({"label": "shape", "seat": 2, "values": row})


# -- by link -----------------------------------------------------------------------------------


def invite_records(group: Group) -> list:
    (link,) = group.invite
    return list(packing.unpack(link.split("#pl=2.", 1)[1]).records)


@pytest.mark.parametrize("arrangement", ["four", "teams"])
def test_two_bots_shape_deck_is_sealed_in_a_one_link_invite_and_the_game_ends_verified(
    arrangement,
):
    group = Group("telepathic", NAMES, {"arrangement": arrangement}, TWO_BOTS)
    records = invite_records(group)
    assert [r.kind for r in records] == ["open", "lock"]  # the colour deck's lock only
    assert set(records[0].body["c"]) == {"shape"}
    group.play(lambda n: 0, Rng(f"sealed-{arrangement}".encode()), drops=0)
    group.check_the_end()
    ada, bo = group.devices
    assert ada.match is not None and bo.match is not None
    shared = ada.match.config.shared
    assert shared == bo.match.config.shared and "sealed" in shared["shape"]
    record = sealed_deal.read(shared["shape"])
    assert isinstance(record, sealed_deal.SealedRecord)
    keys = [str(ada.stores[s].value("sra:shape")) for s in (2, 3)]
    mix = sealed_deal.mixed_rows(record, shared)
    dealt = sealed_deal.cards(record.deck, 2, ada.match_id, LABEL, keys, mix)
    held = [ada.stores[s].value("conditions") for s in (2, 3)]
    assert [next(iter(h.values())) for h in held] == dealt  # each bot's one card: its deal


def test_a_creator_that_draws_a_new_lock_after_the_mix_is_refused_naming_the_seat(monkeypatch):
    """The cheat a sealed deal stops: the creator sees Bo's lock of the colour deck (the mix),
    then tries other secrets for its bots until it likes their cards. Its commitment then binds
    another lock than the one its invite sealed, and Bo's device refuses it. (The creator's
    page here is doctored not to check its own commitment.)"""
    honest = Starting._sealed_deals
    monkeypatch.setattr(
        Starting, "_sealed_deals", lambda self: [] if self.me == "s0" else honest(self)
    )
    group = Group("telepathic", NAMES, {"arrangement": "four"}, TWO_BOTS)
    ada, bo = group.devices
    ada.stores[2].commit("sra:shape", secrets.token_hex(32), replace=True)
    refused = ""
    for _ in range(40):
        if not group.queue:
            break
        recipient, link = group.queue.pop(0)
        out = group.devices[recipient].take_link(link, 0)
        refused = refused or bo.stopped
        group.post(recipient, out.links)
    assert "Cy (bot)'s commitment binds another lock on the shape deck" in refused, refused
    assert bo.match is None


def test_a_creator_that_deals_its_bots_other_cards_is_named_by_every_audit(monkeypatch):
    """A creator that gives its bots cards other than the sealed deal's (its commitments bind
    them before the seed, so nothing shows until the end): every device's audit deals the deck
    again from the opened locks and names the bot."""
    honest = SealedProgress.read_cards

    def swapped(self, stores, match_id, cards):
        done = honest(self, stores, match_id, cards)
        if done and all(s in stores for s in self.deal.seats):
            a, b = self.deal.seats
            cards[a][self.deal.label], cards[b][self.deal.label] = (
                cards[b][self.deal.label],
                cards[a][self.deal.label],
            )
        return done

    monkeypatch.setattr(SealedProgress, "read_cards", swapped)
    group = Group("telepathic", NAMES, {"arrangement": "four"}, TWO_BOTS)
    group.play(lambda n: 0, Rng(b"swapped"), drops=0)
    flush(group)
    results = [d.audit_result for d in group.devices]
    assert all(isinstance(r, Cheat) and r.seat == 2 for r in results), results


def test_an_invite_of_a_page_before_sealing_still_reads_but_nobody_joins_it(monkeypatch):
    """An invite without sealed locks (a page before this change) deals the deck at one device
    by locks, as before: the creator's device (and a save of it) still reads it; a new player
    is not let in, since that device could order the deck."""
    monkeypatch.setattr(device_module, "sealed_commitments", lambda deals, stores: {})
    monkeypatch.setattr(device_module, "new_locks", lambda deals, stores, seal=False: None)
    creator, out = device_module.LinkPlay.create(
        "telepathic", list(NAMES), {"arrangement": "four"}, (0,), *signing(), 0,
        "https://psi.example/", TWO_BOTS,
    )  # fmt: skip
    assert creator is not None and out.ok, out.sentence
    whole = creator.links(10**9)[0].split("#pl=2.", 1)[1]
    assert len(out.links) == 2  # as before: the whole deal in the invite
    kinds = [r.kind for r in packing.unpack(whole).records]
    assert kinds.count("lock") == 3 and "unlock" in kinds  # the old invite's whole deal
    assert not any(isinstance(p, SealedProgress) for p in creator.dealing.progress.values())
    joiner, joined = device_module.LinkPlay.join(
        out.links, 1, "Bo", *signing(), 0, "https://psi.example/"
    )
    assert joiner is None and joined.sentence == device_module.UNSEALED
    assert "older version of this page" in joined.sentence and "seal" not in joined.sentence


def signing():
    from tests.signers import Ed25519Signer, verify

    return Ed25519Signer(), verify


def test_an_invite_that_seals_a_deck_dealt_across_devices_is_refused(monkeypatch):
    real = device_module.sealed_commitments

    def more(deals, stores):
        sealed = real(deals, stores)
        return {**sealed, "colour": sealed["shape"]}

    monkeypatch.setattr(device_module, "sealed_commitments", more)
    creator, out = device_module.LinkPlay.create(
        "telepathic", list(NAMES), {"arrangement": "four"}, (0,), *signing(), 0,
        "https://psi.example/", TWO_BOTS,
    )  # fmt: skip
    assert creator is None and "seals a deal that is not dealt at its device" in out.sentence
