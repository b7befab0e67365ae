"""The deal across devices (commutative encryption): cards come out distinct and right, nothing
reveals them before, and every false step is named when the locks are opened."""

from __future__ import annotations

import pytest

from parlour.errors import CommitmentMismatch, MalformedInput, ProtocolError
from parlour.fair import sra
from parlour.fair.commit import Context
from parlour.fair.store import PrivateStore
from parlour.games.base import SharedDeal
from parlour.match.dealing import Dealing, new_locks

DECK = ("blue", "orange", "green", "purple")
NAMES = ("Ada", "Bo", "Cy", "Di")
MATCH, LABEL = "m-sra-test-01", "colour"


def encoded(size=4, match_id=MATCH, label=LABEL):
    return sra.encodings(size, match_id, label)


def deal(seats=(0, 1), keys=None):
    keys = keys or {s: sra.new_exponent() for s in seats}
    locks, deck = [], encoded()
    for seat in seats:
        deck = sra.lock(deck, keys[seat])
        locks.append(tuple(deck))
    return unlocked(seats, keys, locks)


def unlocked(seats, keys, locks):
    """The deal's unlocks (each card's chain, every other recipient's lock taken off in seat
    order) from its locked rows, and each recipient's card: the record, keys and cards."""
    deck, unlocks, cards = locks[-1], [], {}
    for j, owner in enumerate(seats):
        value, chain = deck[j], []
        for other in seats:
            if other != owner:
                value = sra.unlock(value, keys[other])
                chain.append(value)
        unlocks.append(tuple(chain))
        cards[owner] = DECK[sra.read(sra.unlock(value, keys[owner]), len(DECK), MATCH, LABEL)]
    return sra.DealRecord(DECK, tuple(seats), tuple(locks), tuple(unlocks)), keys, cards


@pytest.mark.parametrize("seats", [(0, 1), (2, 3), (0, 1, 2)])
def test_each_recipient_reads_a_different_card_and_the_replay_agrees(seats):
    for _ in range(5):
        record, keys, cards = deal(seats)
        assert len(set(cards.values())) == len(seats)
        sra.check_deal(record, keys, cards, NAMES, MATCH, LABEL)
        assert sra.record_from_json(sra.record_to_json(record)) == record


def test_the_cards_are_not_readable_from_the_public_record():
    record, _keys, _cards = deal()
    public = {v for row in record.locks for v in row} | {v for row in record.unlocks for v in row}
    assert not public & set(encoded())  # every public number still carries at least one lock


def test_a_lock_that_is_an_inverse_undoes_the_lock():
    k = sra.new_exponent()
    card = sra.encode(2, MATCH, LABEL)
    assert sra.unlock(pow(card, k, sra.P), k) == card


def test_a_false_step_or_a_false_card_is_named():
    record, keys, cards = deal()
    other = next(c for c in DECK if c != cards[1])
    with pytest.raises(CommitmentMismatch, match="Bo holds a card they were not dealt"):
        sra.check_deal(record, keys, {**cards, 1: other}, NAMES, MATCH, LABEL)
    lie = sra.DealRecord(
        record.deck, record.seats, record.locks, ((record.unlocks[0][0] + 1,), record.unlocks[1])
    )
    with pytest.raises(CommitmentMismatch, match="Bo unlocked Ada's card falsely"):
        sra.check_deal(lie, keys, cards, NAMES, MATCH, LABEL)
    with pytest.raises(CommitmentMismatch, match="Ada locked the shared deck falsely"):
        sra.check_deal(record, {**keys, 0: sra.new_exponent()}, cards, NAMES, MATCH, LABEL)
    # a withheld lock: unchecked
    sra.check_deal(record, {0: keys[0]}, {0: cards[0]}, NAMES, MATCH, LABEL)


@pytest.mark.parametrize("bad", ["", "xyz", "0", "1", format(sra.P, "x"), 5, "f" * 401])
def test_a_number_out_of_the_group_is_refused(bad):
    with pytest.raises(MalformedInput):
        sra.number(bad)


# -- no relation between cards' numbers (issue 13, point 1) ----------------------------------------


def relations(values):
    """Every multiplicative relation of the kinds an observer would try, among `values`:
    x^a = y^b for small a, b (squares, cubes...), x*y = z, x*y = z*w and x/y = z/w."""
    found = []
    index = {v: i for i, v in enumerate(values)}
    n = len(values)
    for i, x in enumerate(values):
        for a in range(1, 5):
            xa = pow(x, a, sra.P)
            for j, y in enumerate(values):
                for b in range(1, 5):
                    if i != j and xa == pow(y, b, sra.P):
                        found.append(("power", i, a, j, b))
    products = {}
    for i in range(n):
        for j in range(i, n):
            p = values[i] * values[j] % sra.P
            if p in index and index[p] not in (i, j):
                found.append(("product", i, j, index[p]))
            for pair in products.get(p, []):
                found.append(("two products", pair, (i, j)))
            products.setdefault(p, []).append((i, j))
    return found


def test_no_relation_is_known_between_the_numbers_of_a_deck():
    """The old numbering, (i + 2)^2, had card 2 = card 0 squared (16 = 4^2): a relation that
    survives every lock. The new numbers have none of the kinds an observer would look for,
    within a deal, across the two deals of a game, and across matches (the products cover
    ratios: x/y = z/w is x*w = z*y)."""
    old = [pow(i + 2, 2, sra.P) for i in range(4)]
    assert relations(old)  # the test sees the relation it is for
    assert relations(encoded(16)) == []
    both = (
        encoded(4, MATCH, "colour")
        + encoded(4, MATCH, "shape")
        + encoded(4, "m-other-01", "colour")
    )
    assert len(set(both)) == 12
    assert relations(both) == []


def test_the_square_test_agrees_with_eulers_criterion():
    samples = [*encoded(8), sra.P - 1, 2, 3, sra.P - 4, *(pow(7, e, sra.P) for e in range(1, 12))]
    for v in samples:
        assert sra.is_square(v) == (pow(v, sra.Q, sra.P) == 1)
    assert not sra.is_square(0) and not sra.is_square(sra.P)


def test_every_card_number_is_a_square_and_bound_to_its_match_and_deal():
    assert all(sra.is_square(v) for v in encoded(16))
    assert encoded(4, MATCH, "colour") != encoded(4, MATCH, "shape")
    assert encoded(4, MATCH, "colour") != encoded(4, "m-other-01", "colour")
    assert encoded(4) == encoded(4)  # every device numbers the cards alike


def square_pairs(row):
    """The passive attack of the review: values x of a locked row with x^2 also in the row."""
    values = set(row)
    return [x for x in row if pow(x, 2, sra.P) in values]


def test_a_locked_row_shows_no_relation_to_anyone_holding_the_transcript():
    """The review's observer found, in every locked row, the x with x^2 also in the row (cards
    0 and 2 of the old numbering). Over many deals, nothing of the kind is found now, and no
    locked row carries any relation at all."""
    for _ in range(6):
        record, _keys, _cards = deal((0, 1, 2))
        for row in record.locks:
            assert square_pairs(row) == []
            assert relations(list(row)) == []


def test_the_old_numbering_let_an_observer_pick_cards_out_of_a_locked_row():
    """Why the numbering changed: with (i + 2)^2 every locked row gives cards 0 and 2 away."""
    old = [pow(i + 2, 2, sra.P) for i in range(4)]
    k = sra.new_exponent()
    row = [pow(v, k, sra.P) for v in old]
    assert square_pairs(row) == [row[0]]  # the observer finds card 0 (and card 2 is its square)


# -- every deal value must be a square (issue 13, point 2) -----------------------------------------


def test_a_value_that_is_not_a_square_is_refused():
    """A lock times -1 is a non-square: a tag its sender could follow to the recipient."""
    record, _keys, _cards = deal()
    tagged = (sra.P - record.locks[0][1]) % sra.P
    assert not sra.is_square(tagged)
    with pytest.raises(MalformedInput, match="not a square"):
        sra.element(format(tagged, "x"))
    data = sra.record_to_json(record)
    data["locks"][0][1] = format(tagged, "x")
    with pytest.raises(MalformedInput, match="not a square"):
        sra.record_from_json(data)
    assert sra.element(format(record.locks[0][1], "x")) == record.locks[0][1]


def cut_deal(seats=(0, 1)):
    """A deal as the game deals it now: the last recipient publishes only the cards dealt."""
    keys = {s: sra.new_exponent() for s in seats}
    locks, deck = [], encoded()
    for r, seat in enumerate(seats):
        deck = sra.dealt_row(deck, keys[seat], len(seats), r == len(seats) - 1)
        locks.append(tuple(deck))
    return unlocked(seats, keys, locks)


@pytest.mark.parametrize("seats", [(0, 1), (2, 3), (0, 1, 2)])
def test_the_last_recipient_publishes_only_the_cards_dealt(seats):
    """Issue 38: the last row holds one card per recipient (a link holds about seven 1536-bit
    numbers), the others the whole deck; the cards still come out distinct and right, the
    record round-trips and the replay agrees."""
    for _ in range(3):
        record, keys, cards = cut_deal(seats)
        assert [len(row) for row in record.locks] == [4] * (len(seats) - 1) + [len(seats)]
        assert len(set(cards.values())) == len(seats)
        sra.check_deal(record, keys, cards, NAMES, MATCH, LABEL)
        assert sra.record_from_json(sra.record_to_json(record)) == record
        public = {v for row in record.locks for v in row}
        assert not public & set(encoded())


def test_a_cut_last_row_that_is_not_the_images_of_distinct_cards_is_named():
    record, keys, _cards = cut_deal()
    last = record.locks[-1]
    before = record.locks[0]
    # a card of the row before locked twice over (repeated), or a number from nowhere
    twice = (pow(before[0], keys[1], sra.P),) * 2
    for false in (twice, (last[0], pow(sra.encode(0, MATCH, LABEL), keys[1], sra.P))):
        lie = sra.DealRecord(record.deck, record.seats, (before, false), record.unlocks)
        with pytest.raises(CommitmentMismatch, match="Bo locked the shared deck falsely"):
            sra.check_deal(lie, keys, {}, NAMES, MATCH, LABEL)
    # a cut row from a recipient that is not the last
    first = sra.DealRecord(record.deck, record.seats, (before[:2], last), record.unlocks)
    with pytest.raises(CommitmentMismatch, match="Ada locked the shared deck falsely"):
        sra.check_deal(first, keys, {}, NAMES, MATCH, LABEL)


def test_a_record_with_the_whole_last_row_still_reads_and_checks():
    """A deal recorded before rows were cut (saves, replays) still loads and audits."""
    record, keys, cards = deal()
    assert len(record.locks[-1]) == len(DECK)
    assert sra.record_from_json(sra.record_to_json(record)) == record
    sra.check_deal(record, keys, cards, NAMES, MATCH, LABEL)
    data = sra.record_to_json(record)
    data["locks"][-1] = data["locks"][-1][:3]  # neither the deck nor the cards dealt
    with pytest.raises(MalformedInput, match="wrong number of cards"):
        sra.record_from_json(data)
    data = sra.record_to_json(record)
    data["locks"][0] = data["locks"][0][:2]  # only the last row may be cut
    with pytest.raises(MalformedInput, match="wrong number of cards"):
        sra.record_from_json(data)


def test_a_device_deals_the_cut_row_and_takes_only_a_row_of_a_size_the_deal_allows():
    """Live and by link alike (`match/dealing.py`): the last recipient's step holds the cards
    dealt; a first recipient's cut row is refused on arrival, and the whole row of a page from
    before the cut is still taken from the last."""
    shared = [SharedDeal(LABEL, DECK, (0, 1))]
    stores = {s: PrivateStore(Context(MATCH, s)) for s in (0, 1)}
    new_locks(shared, stores)
    ada, bo = Dealing(shared, NAMES, MATCH), Dealing(shared, NAMES, MATCH)
    first = ada.my_steps({0: stores[0]})
    assert [kind for kind, _ in first] == ["deal-lock"] and len(first[0][1]["values"]) == 4
    cut = dict(first[0][1], values=first[0][1]["values"][:2])
    with pytest.raises(ProtocolError, match="wrong number of cards"):
        bo.take_lock(cut)
    bo.take_lock(first[0][1])
    steps = bo.my_steps({1: stores[1]})
    last = next(body for kind, body in steps if kind == "deal-lock")
    assert len(last["values"]) == 2
    ada.take_lock(last)
    whole = Dealing(shared, NAMES, MATCH)
    whole.take_lock(first[0][1])
    k = int(stores[1].value("sra:" + LABEL), 16)
    before = [int(v, 16) for v in first[0][1]["values"]]
    assert whole.take_lock(dict(last, values=[format(v, "x") for v in sra.lock(before, k)]))
