"""The deal across devices (commutative encryption): cards come out distinct and right, nothing
reveals them before, and every false step is named when the locks are opened."""

from __future__ import annotations

import pytest

from parlour.errors import CommitmentMismatch, MalformedInput
from parlour.fair import sra

DECK = ("blue", "orange", "green", "purple")
NAMES = ("Ada", "Bo", "Cy", "Di")


def deal(seats=(0, 1), keys=None):
    keys = keys or {s: sra.new_exponent() for s in seats}
    locks, deck = [], [sra.encode(i) for i in range(len(DECK))]
    for seat in seats:
        deck = sra.lock(deck, keys[seat])
        locks.append(tuple(deck))
    unlocks = []
    for j, owner in enumerate(seats):
        value, chain = deck[j], []
        for other in seats:
            if other != owner:
                value = sra.unlock(value, keys[other])
                chain.append(value)
        unlocks.append(tuple(chain))
    record = sra.DealRecord(DECK, tuple(seats), tuple(locks), tuple(unlocks))
    cards = {}
    for j, owner in enumerate(seats):
        value = unlocks[j][-1] if unlocks[j] else deck[j]
        cards[owner] = DECK[sra.read(sra.unlock(value, keys[owner]), len(DECK))]
    return record, keys, cards


@pytest.mark.parametrize("seats", [(0, 1), (2, 3), (0, 1, 2)])
def test_each_recipient_reads_a_different_card_and_the_replay_agrees(seats):
    for _ in range(5):
        record, keys, cards = deal(seats)
        assert len(set(cards.values())) == len(seats)
        sra.check_deal(record, keys, cards, NAMES)
        assert sra.record_from_json(sra.record_to_json(record)) == record


def test_the_cards_are_not_readable_from_the_public_record():
    record, _keys, _cards = deal()
    encoded = {sra.encode(i) for i in range(len(DECK))}
    public = {v for row in record.locks for v in row} | {v for row in record.unlocks for v in row}
    assert not public & encoded  # every public number still carries at least one lock


def test_a_lock_that_is_an_inverse_undoes_the_lock():
    k = sra.new_exponent()
    assert sra.unlock(pow(sra.encode(2), k, sra.P), k) == sra.encode(2)


def test_a_false_step_or_a_false_card_is_named():
    record, keys, cards = deal()
    other = next(c for c in DECK if c != cards[1])
    with pytest.raises(CommitmentMismatch, match="Bo holds a card they were not dealt"):
        sra.check_deal(record, keys, {**cards, 1: other}, NAMES)
    lie = sra.DealRecord(
        record.deck, record.seats, record.locks, ((record.unlocks[0][0] + 1,), record.unlocks[1])
    )
    with pytest.raises(CommitmentMismatch, match="Bo unlocked Ada's card falsely"):
        sra.check_deal(lie, keys, cards, NAMES)
    with pytest.raises(CommitmentMismatch, match="Ada locked the shared deck falsely"):
        sra.check_deal(record, {**keys, 0: sra.new_exponent()}, cards, NAMES)
    sra.check_deal(record, {0: keys[0]}, {0: cards[0]}, NAMES)  # a withheld lock: unchecked


@pytest.mark.parametrize("bad", ["", "xyz", "0", "1", format(sra.P, "x"), 5, "f" * 401])
def test_a_number_out_of_the_group_is_refused(bad):
    with pytest.raises(MalformedInput):
        sra.number(bad)
