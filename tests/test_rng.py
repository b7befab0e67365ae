"""The portable RNG: sane, unbiased, and never the `random` module."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.fair.rng import Rng

SEED = bytes(range(32))


def test_same_seed_same_draws_and_derived_streams_differ():
    assert [Rng(SEED).below(100) for _ in range(3)] == [Rng(SEED).below(100) for _ in range(3)]
    a, b = Rng(SEED).derive("grid"), Rng(SEED).derive("deck")
    assert a.read(32) != b.read(32)
    assert Rng(SEED).derive("grid").seed == a.seed


def test_below_is_roughly_uniform():
    rng = Rng(SEED)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    for count in counts.values():
        assert abs(count - 10_000) < 400  # about 4.4 standard deviations


def test_below_rejects_rather_than_folds():
    """With n = 3 on 2 bits, folding would make 0 twice as likely; rejection keeps it flat."""
    rng = Rng(b"fold-check")
    counts = Counter(rng.below(3) for _ in range(30_000))
    assert max(counts.values()) - min(counts.values()) < 600


def test_shuffle_positions_are_uniform():
    rng = Rng(SEED)
    firsts = Counter(rng.shuffled(range(4))[0] for _ in range(20_000))
    for count in firsts.values():
        assert abs(count - 5_000) < 300


@given(seed=st.binary(min_size=1, max_size=40), size=st.integers(0, 60))
def test_shuffle_is_a_permutation(seed, size):
    items = list(range(size))
    assert sorted(Rng(seed).shuffled(items)) == items


@given(seed=st.binary(min_size=1, max_size=40), size=st.integers(0, 40), data=st.data())
def test_sample_draws_distinct_members(seed, size, data):
    k = data.draw(st.integers(0, size))
    picked = Rng(seed).sample(range(size), k)
    assert len(picked) == k == len(set(picked))
    assert set(picked) <= set(range(size))


@given(seed=st.binary(min_size=1, max_size=40), low=st.integers(-50, 50), span=st.integers(0, 50))
def test_randint_stays_in_range(seed, low, span):
    assert low <= Rng(seed).randint(low, low + span) <= low + span


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        Rng(b"")
    with pytest.raises(ValueError):
        Rng(SEED).below(0)
    with pytest.raises(ValueError):
        Rng(SEED).choice([])
    with pytest.raises(ValueError):
        Rng(SEED).sample([1, 2], 3)
