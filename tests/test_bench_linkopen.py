"""The pure parts of `bench --only linkopen` (bench/linkopen.py): its percentile, the guesses
that keep its game going, and how it reads the worker's marks of a call."""

from __future__ import annotations

from bench.linkopen import call_parts, last_call, percentile, wrong_guess


def test_the_percentile_is_the_nearest_rank() -> None:
    values = [float(x) for x in range(20, 0, -1)]  # 20 values, in any order
    assert percentile(values, 0.95) == 19.0
    assert percentile(values, 0.5) == 10.0
    assert percentile([7.0], 0.95) == 7.0
    assert percentile([1.0, 2.0], 1.0) == 2.0


def test_the_guesses_are_three_digits_and_never_the_cypher() -> None:
    for cypher in ("123", "456", "384", "005"):
        guesses = [wrong_guess(n, cypher) for n in range(1, 200)]
        assert all(len(g) == 3 and g.isdigit() and g != cypher for g in guesses)
        assert len(set(guesses)) > 150  # spread: a different guess nearly every time


def test_a_call_s_parts_are_summed_and_its_signatures_counted() -> None:
    marks = [
        ("parlour-verify", 1.0, 2.0),
        ("parlour-verify", 3.0, 2.5),
        ("parlour-call-check", 0.0, 6.0),
        ("parlour-call-app", 6.0, 10.0),
        ("parlour-sign", 16.0, 1.0),
        ("parlour-call-sign", 16.0, 1.5),
        ("parlour-call-after-signing", 17.5, 4.0),
        ("parlour-call-settle", 21.5, 0.5),
    ]
    parts = call_parts(marks)
    assert parts == {
        "check": 6.0,
        "app": 10.0,
        "sign": 1.5,
        "after-signing": 4.0,
        "settle": 0.5,
        "verify": 2,
    }


def test_the_last_call_is_the_one_begun_last_before_the_moment() -> None:
    first = [("parlour-call-check", 0.0, 1.0), ("parlour-call-app", 1.0, 2.0)]
    second = [
        ("parlour-call-check", 10.0, 1.0),
        ("parlour-verify", 10.5, 0.2),
        ("parlour-call-app", 11.0, 2.0),
    ]
    later = [("parlour-call-check", 50.0, 1.0)]
    marks = later + second + first  # in any order
    assert last_call(marks, 20.0) == sorted(second, key=lambda m: m[1])
    assert last_call(marks, 5.0) == first
    assert last_call(marks, -1.0) == []
