"""Everything read from outside is read in time linear in its length, before any signature.

A quote followed by many escaped quotes once took the nesting check quadratic time (a 30 KB
link held a page for half a minute): each entry point is fed that shape here, and Hypothesis
feeds adversarial repetitions of the characters that matter. A call's time is bounded against
json.loads of an honest document of the same size, timed in the same test, with a generous
factor and an absolute floor, so a busy machine does not fail it and a quadratic reader does
(the old pattern takes seconds at these sizes; the bound is a tenth of a second).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from bench.parsing import _one_link, _parts, _replay_link, honest
from parlour.errors import MalformedInput
from parlour.fair.encoding import check_text, lone_surrogate, parse_json, too_deep
from parlour.match import replay, wire
from parlour.match.by_link import packing
from parlour.match.match import Match
from parlour.ui.by_link import saves as link_saves
from parlour.ui.online import saves as online_saves

FLOOR = 0.1  # seconds: far above a linear read of these sizes, far below the quadratic one's
FACTOR = 40  # times json.loads of an honest document of the same size
QUOTES = '"' + '\\"' * 12_000  # 24,001 characters: about 4 s with the old pattern


def bound(size: int) -> float:
    document = honest(size)
    start = time.perf_counter()
    json.loads(document)
    return max(FLOOR, FACTOR * (time.perf_counter() - start))


def timed(read: Callable[[object], object], value: object) -> float:
    """Seconds for one read, which must return or refuse as malformed input; the best of up to
    three when the first is over the bound's floor (a busy machine), one run when it is not."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with contextlib.suppress(MalformedInput):
            read(value)
        best = min(best, time.perf_counter() - start)
        if best < FLOOR:
            break
    return best


ENTRY_POINTS: dict[str, tuple[Callable[[object], object], Callable[[str], object]]] = {
    "a play-by-link link": (packing.read_invite, _one_link),
    "a link split in parts": (packing.read_invite, _parts),
    "a replay link": (replay.from_code, _replay_link),
    "a replay file": (replay.from_file, str),
    "a saved game": (Match.loads, str),
    "a saved online game": (online_saves.load, str),
    "a saved game by link": (link_saves.save_keys, str),
    "parts of links kept": (link_saves.kept_parts, str),
    "an online message": (wire.decode, str),
}


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_a_quote_and_many_escaped_quotes_is_read_in_linear_time(name):
    read, wrap = ENTRY_POINTS[name]
    for text in (QUOTES, f'{{"v":1,"t":"chat","n":1,"x":"{QUOTES[1:]}', "[" + QUOTES):
        assert timed(read, wrap(text)) < bound(len(text)), name


def test_a_long_string_of_brackets_is_not_counted_as_nesting():
    text = '["' + "[" * 50_000 + '"]'
    assert not too_deep(text)
    assert parse_json(text, "That") == ["[" * 50_000]


def test_a_string_left_open_hides_no_nesting_from_json():
    # json.loads refuses the text at the open string, before any bracket inside it
    with pytest.raises(MalformedInput, match="not valid JSON"):
        parse_json('["' + "[" * 50_000, "That")
    with pytest.raises(MalformedInput, match="nests deeper"):
        parse_json("[" * 50_000 + '"', "That")


def test_more_than_a_browser_keeps_is_refused_unread():
    with pytest.raises(MalformedInput, match="too large"):
        parse_json(" " * 5_000_001, "That save")


# -- Hypothesis: adversarial repetitions, up to the size limits -------------------------------

UNIT = st.text(alphabet='"\\[]{}ab', min_size=1, max_size=4)
ADVERSARIAL = st.tuples(
    st.text(alphabet='"\\[]{}a', max_size=3),
    UNIT,
    st.integers(1, 60_000),
    st.text(alphabet='"\\[]{}a', max_size=3),
).map(lambda t: (t[0] + t[1] * (t[2] // len(t[1])) + t[3])[: wire.MAX_MESSAGE_BYTES])
SLOW = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate],  # no shrinking: it would run a slow case again
)


@SLOW
@given(ADVERSARIAL)
@example('"' + '\\"' * 20_000)
@example('["' + '\\"[{' * 10_000)
def test_any_repetition_is_read_in_linear_time_or_refused(text):
    limit = bound(len(text))
    assert timed(wire.decode, text) < limit
    assert timed(lambda t: parse_json(t, "That"), text) < limit
    assert timed(packing.read_invite, _one_link(text)) < bound(len(text))


@SLOW
@given(ADVERSARIAL)
def test_parse_json_reads_what_json_loads_reads(text):
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        with pytest.raises(MalformedInput):
            parse_json(text, "That")
        return
    try:
        assert parse_json(text, "That") == data
    except MalformedInput as error:
        assert "nests deeper" in error.sentence


# -- the one-pass checks say what the walks they replace said ---------------------------------

ESCAPES = st.lists(
    st.sampled_from(["\\ud800", "\\udbff", "\\udc00", "\\uDFFF", "\\u0041", "\\\\", "a", "\ud800"]),
    max_size=8,
).map(lambda parts: '["' + "".join(parts) + '"]')


@given(ESCAPES | ESCAPES.map(lambda s: '{"' + s[2:-2] + '":1}'))
def test_lone_surrogate_agrees_with_check_text_on_what_json_read(text):
    try:
        check_text(json.loads(text))
    except MalformedInput:
        assert lone_surrogate(text)
    else:
        assert not lone_surrogate(text)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


JSON = st.recursive(
    st.none() | st.integers() | st.text('"\\[]{}a'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text('"[]{}'), inner),
    max_leaves=40,
)


@given(JSON, st.integers(0, 6))
def test_too_deep_counts_the_nesting_json_reads(value, limit):
    assert too_deep(json.dumps(value), limit) == (_depth(value) > limit)
