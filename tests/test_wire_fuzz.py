"""Fuzzed peer messages: whatever arrives, no device crashes, and nothing that fails the checks
changes anything.

Three kinds of input, each fed to a host and to a guest in the middle of a real game:
- any text at all (including deep nesting, which once ended in a RecursionError);
- a well-formed envelope of a real type with a body made of arbitrary JSON on the type's own
  field names (so most checks are reached, not just the first);
- a real recorded message with one value somewhere inside it replaced by arbitrary JSON (so the
  engines' and the session's checks behind the wire's are reached too).
After each, the devices must still agree on the log once the network settles.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.errors import MalformedInput
from parlour.match.online import HOST, OnlineSession, seat_peer
from parlour.match.wire import MAX_DEPTH, VERSION, decode
from parlour.match.wire_bodies import SHAPES
from tests.test_online import device, over, play, start

FIELDS = sorted({name for shape in SHAPES.values() for name in shape})
# Every code point, lone surrogates included (st.text leaves them out by default, and a lone
# "\ud800" is valid JSON that once ended in a UnicodeEncodeError), and the odd ones besides.
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=30) | st.sampled_from(
    ["\ud800", "a\udfffb", "\udbff\udc00", "\x00", "\u2028", "\ufeff", "\U0010ffff"]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-2, 9)  # seats, steps and counts that pass the wire's checks but not the game's
    | st.integers(-(2**40), 2**40)
    | ANY_TEXT
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | ANY_TEXT, inner, max_size=4)
    ),
    max_leaves=12,
)
FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def _mid_game(game_id: str, names: tuple[str, ...], variant: dict):
    """A game a few moves in, with every message it took to get there recorded."""
    net = start(game_id, names, variant, match_id=f"m-fuzz-{game_id}")
    play(net, seed=b"fuzz", steps=6, to_the_end=False)
    assert not over(net)
    RECORDED[game_id] = [
        (sender, text)
        for sender, to, text in net.traffic
        if seat_peer(1) in (sender, to) and json.loads(text)["t"] not in ("ping", "pong")
    ]
    return net


NETS = {}
RECORDED: dict[str, list[tuple[str, str]]] = {}  # seat 1's traffic up to the fuzzing


def _net(game_id: str):
    if game_id not in NETS:
        if game_id == "esp":
            NETS[game_id] = _mid_game("esp", ("Ada", "Bo"), {})
        else:
            NETS[game_id] = _mid_game("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3})
    return NETS[game_id]


def _feed(net, to_host: bool, text: str) -> None:
    """Deliver `text` as if from seat 1's device (to the host) or from the host (to seat 1)."""
    host, guest = net.host, net.guests[1]
    receiver, peer = (host, seat_peer(1)) if to_host else (guest, HOST)
    step, head = receiver.match.step, receiver.match.head()
    try:
        decode(text)
        well_formed = True
    except MalformedInput:
        well_formed = False
    receiver.receive(peer, text, net.now)  # must not raise, whatever `text` is
    if not well_formed:
        assert (receiver.match.step, receiver.match.head()) == (step, head)
    net.flush()
    heads = {dev.match.head() for dev in net.everyone()}
    assert len(heads) == 1, "after a fuzzed message the devices' logs differ"


def _numbered(net, to_host: bool, data: dict) -> str:
    """Number a message as its sender's next, as a peer sending its own garbage would: the
    receiver does not drop it as a replay, and the sender's later messages stay in order."""
    sender, peer = (net.guests[1], HOST) if to_host else (net.host, seat_peer(1))
    sender.links[peer].n_out += 1
    data["n"] = sender.links[peer].n_out
    return json.dumps(data)


@FUZZ
@given(
    st.text(max_size=200)
    | st.text(st.characters(exclude_categories=()), max_size=200)
    | st.binary(max_size=50).map(lambda b: b.decode("latin-1"))
    | ANY_TEXT.map(lambda t: json.dumps({"v": 1, "t": "reject", "n": 1, "reason": t}))
)
def test_decode_refuses_any_text_with_a_sentence_and_nothing_else(text):
    try:
        decode(text)
    except MalformedInput as error:
        assert error.sentence


@FUZZ
@given(st.integers(MAX_DEPTH + 1, 9_000), st.sampled_from(["[", '{"a":']))
def test_deep_nesting_is_refused_before_it_is_parsed(depth, opener):
    closer = "]" if opener == "[" else "}"
    action = opener * depth + "0" + closer * depth
    text = f'{{"v":1,"t":"propose","n":1,"seat":1,"action":{action}}}'
    try:
        decode(text)
    except MalformedInput as error:
        assert "levels deep" in error.sentence
    else:
        raise AssertionError("a message nested too deep was accepted")


@FUZZ
@given(
    st.sampled_from(["esp", "psi-squad"]),
    st.booleans(),
    st.sampled_from(sorted(SHAPES)),
    st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=5),
    st.data(),
)
def test_an_envelope_with_any_body_never_crashes_a_device(game_id, to_host, kind, body, data):
    net = _net(game_id)
    for name in SHAPES[kind]:  # often give the type its own fields, so later checks are reached
        if name not in body and data.draw(st.booleans()):
            body[name] = data.draw(JSON)
    message = {"v": VERSION, "t": kind, **body}
    _feed(net, to_host, _numbered(net, to_host, message))


def _paths(value, prefix=()):
    """Every place inside a JSON value, as a path of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*prefix, index))


def _replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    return [_replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


@FUZZ
@given(st.sampled_from(["esp", "psi-squad"]), st.integers(0, 10_000), st.data())
def test_a_real_message_with_one_value_changed_never_crashes_a_device(game_id, pick, data):
    net = _net(game_id)
    recorded = RECORDED[game_id]
    sender, text = recorded[pick % len(recorded)]
    message = json.loads(text)
    paths = [p for p in _paths(message) if p and p[0] not in ("v", "n")]
    path = data.draw(st.sampled_from(paths))
    changed = _replaced(message, path, data.draw(JSON))
    to_host = sender != "host"
    _feed(net, to_host, _numbered(net, to_host, changed))


def test_after_the_fuzzing_the_games_still_play_to_a_verified_end():
    """Garbage that was refused left no trace: both fuzzed games go on and end verified."""
    for game_id in ("esp", "psi-squad"):
        net = _net(game_id)
        play(net, seed=b"after-fuzz")
        net.tick(1.0)
        for dev in net.everyone():
            assert type(dev.audit_result).__name__ == "Verified", dev.audit_result
        assert device(net, 0).match.result() is not None


def test_a_message_nested_too_deep_is_refused_on_the_wire_with_a_sentence():
    net = start("esp", ("Ada", "Bo"), match_id="m-fuzz-deep")
    text = '{"v":1,"t":"ping","n":9,"at":' + "[" * 30_000 + "]" * 30_000 + "}"
    net.host.receive(seat_peer(1), text, net.now)
    assert "levels deep" in net.host.notices[-1]


def test_every_kind_of_message_before_the_welcome_or_the_hello_is_refused_without_a_crash():
    """A real message of every type, sent to a guest not yet welcomed, and to a host from a seat
    whose game has fewer seats than the message names (a seat 3 in a 2-seat game)."""
    net = start("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, match_id="m-fuzz-early")
    play(net, seed=b"early", steps=8, to_the_end=False)
    samples: dict[str, dict] = {}
    for _, _, text in net.traffic:
        message = json.loads(text)
        if message.get("seat", 2) == 2:  # Cy's, where a message has a seat
            samples.setdefault(message["t"], message)
    assert {"welcome", "seed-commit", "seed-reveal", "entries", "openings"} <= set(samples)
    for kind, message in samples.items():
        guest = OnlineSession.guest(0.0)
        guest.opened(HOST, 0.0)
        guest.receive(HOST, json.dumps({**message, "n": 1}), 0.0)
        if kind != "welcome":  # nothing is learned from anything before the welcome
            assert (guest.config, guest.table, guest.verdicts) == (None, None, {}), kind
        small = start("esp", ("Ada", "Bo"), match_id="m-fuzz-early-host")
        number = small.guests[1].links[HOST].n_out + 1
        step = small.host.match.step
        small.host.receive(seat_peer(1), json.dumps({**message, "n": number}), small.now)
        assert small.host.match.step == step, kind
        if kind != "hello":  # a hello is always answered (a resume from elsewhere starts at 0)
            assert small.host.notices[-1].startswith("Refused"), kind


LONE = "\ud800"


def test_a_lone_surrogate_is_refused_with_a_sentence_everywhere():
    """Issue 13, point 5: one character, valid JSON, used to raise UnicodeEncodeError out of
    wire.decode, OnlineSession.receive, Match.loads and Match.from_json."""
    from parlour.match.match import Match
    from parlour.match.table import Table

    for body in (
        {"t": "reject", "reason": LONE},
        {"t": "propose", "seat": 1, "action": {"type": "guess", "digits": LONE}},
        {"t": "verdict", "seat": 1, "verdict": "cheat", "text": "x" + LONE},
        {"t": "propose", "seat": 1, "action": {LONE: 1}},
    ):
        text = json.dumps({"v": 1, "n": 1, **body})
        try:
            decode(text)
        except MalformedInput as error:
            assert "lone surrogate" in error.sentence
        else:
            raise AssertionError("a lone surrogate got through")
    net = start("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, match_id="m-fuzz-lone-1")
    play(net, seed=b"lone", steps=4, to_the_end=False)
    host, guest = net.host, net.guests[1]
    before = host.match.head()
    text = json.dumps({"v": 1, "t": "propose", "n": 999, "seat": 1, "action": LONE})
    host.receive(seat_peer(1), text, net.now)  # refused, nothing changes, no exception
    guest.receive(HOST, text.replace("propose", "reject"), net.now)
    assert host.match.head() == before
    assert "lone surrogate" in host.notices[-1]
    saved = host.match.to_json()
    saved["config"]["seats"][0] = "A" + LONE
    for load in (Match.from_json, lambda d: Match.loads(json.dumps(d))):
        try:
            load(saved)
        except MalformedInput as error:
            assert error.sentence
        else:
            raise AssertionError("a save with a lone surrogate loaded")
    table = host.table.to_json()
    table["match"]["log"][0]["action"] = {"digits": LONE}
    with pytest.raises(MalformedInput):
        Table.from_json(table)
    session = host.to_json()
    session["pending"] = {"0": LONE}
    with pytest.raises(MalformedInput):
        OnlineSession.from_json(session, net.now)
