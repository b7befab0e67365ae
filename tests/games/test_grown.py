"""`Grown`, the history a game state grows without copying (issue 25): each state sees its own
items only, whatever grew from it later or beside it."""

from __future__ import annotations

import pytest

from parlour.games.grown import Grown


def test_each_sequence_keeps_its_own_items_when_two_grow_from_one():
    start = Grown((1, 2))
    longer = start.plus(3)
    beside = start.plus(4)  # an undo, then another move: a branch
    assert start == (1, 2) and len(start) == 2
    assert longer == (1, 2, 3) and beside == (1, 2, 4)
    assert longer.plus(5) == (1, 2, 3, 5) and beside.plus(6) == (1, 2, 4, 6)
    with pytest.raises(IndexError):
        start[2]  # the storage it shares holds more: this state never sees it


def test_it_reads_like_the_tuple_of_its_items():
    grown = Grown[str]().plus("a").plus("b").plus("c")
    assert grown == ("a", "b", "c")
    assert ("a", "b", "c") == grown  # noqa: SIM300 (the tuple's == falls back to Grown's)
    assert grown[-1] == "c" and grown[-3:] == ("a", "b", "c") and grown[:-1] == ("a", "b")
    assert list(reversed(grown)) == ["c", "b", "a"] and "b" in grown
    assert hash(grown) == hash(("a", "b", "c")) and Grown() == ()
    assert grown != ("a", "b") and grown != ["a", "b", "c"]


def test_growing_shares_the_storage_instead_of_copying_it():
    """The point of it: a move adds one item, it does not copy the ones before."""
    grown = Grown[int]()
    for i in range(1000):
        before, grown = grown, grown.plus(i)
        assert grown._items is before._items
