"""Commitments: binding, hiding, tied to their match, seat and label; openings parse strictly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.errors import CommitmentMismatch, MalformedInput
from parlour.fair.commit import Context, Opening, check_opening, commit, is_commitment, verify
from parlour.fair.encoding import canonical_json, encode_fields
from parlour.fair.store import PrivateStore

CTX = Context("match-0001", 1)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def test_commit_then_verify():
    commitment, opening = commit(CTX, "tile:3", "waves")
    assert is_commitment(commitment)
    assert verify(CTX, commitment, opening)


def test_fresh_nonces_hide_equal_values():
    a, _ = commit(CTX, "tile:3", "waves")
    b, _ = commit(CTX, "tile:3", "waves")
    assert a != b


def test_length_prefixes_keep_fields_apart():
    assert encode_fields(["ab", "c"]) != encode_fields(["a", "bc"])


def test_canonical_json_ignores_key_order_and_refuses_floats():
    assert canonical_json({"b": 1, "a": [2, "é"]}) == canonical_json({"a": [2, "é"], "b": 1})
    with pytest.raises(MalformedInput):
        canonical_json({"x": 1.5})
    with pytest.raises(MalformedInput):
        canonical_json({1: "x"})


@given(value=json_values, other=json_values)
def test_tampering_with_the_value_is_always_caught(value, other):
    commitment, opening = commit(CTX, "secret", value)
    assert verify(CTX, commitment, opening)
    if canonical_json(other) != canonical_json(value):
        assert not verify(CTX, commitment, Opening("secret", other, opening.nonce))


@given(value=json_values, flip=st.integers(0, 255), position=st.integers(0, 31))
def test_tampering_with_the_nonce_is_always_caught(value, flip, position):
    commitment, opening = commit(CTX, "secret", value)
    nonce = bytearray(bytes.fromhex(opening.nonce))
    nonce[position] ^= flip or 1
    assert not verify(CTX, commitment, Opening("secret", value, bytes(nonce).hex()))


@given(label=st.text(min_size=1, max_size=20))
def test_tampering_with_the_label_is_always_caught(label):
    commitment, opening = commit(CTX, "tile:1", "star")
    if label != "tile:1":
        assert not verify(CTX, commitment, Opening(label, "star", opening.nonce))


def test_an_opening_is_bound_to_its_match_and_seat():
    commitment, opening = commit(CTX, "tile:1", "star")
    assert not verify(Context("match-0001", 0), commitment, opening)
    assert not verify(Context("match-0002", 1), commitment, opening)


def test_check_opening_names_who_what_and_when():
    commitment, _ = commit(CTX, "tile:7", "star")
    _, lie = commit(CTX, "tile:7", "cross")
    with pytest.raises(CommitmentMismatch) as caught:
        check_opening(CTX, commitment, lie, who="Dark", what="tile 7", step=12)
    assert str(caught.value) == (
        "Dark's reveal of tile 7 does not match the commitment made at move 12."
    )
    assert caught.value.seat == 1


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"label": "x", "value": 1},
        {"label": "x", "value": 1, "nonce": "zz" * 32},
        {"label": "x", "value": 1, "nonce": "00" * 31},
        {"label": "x", "value": 1, "nonce": "AA" * 32},
        {"label": "", "value": 1, "nonce": "00" * 32},
        {"label": "x", "value": 1.5, "nonce": "00" * 32},
        {"label": "x", "value": 1, "nonce": "00" * 32, "extra": True},
    ],
)
def test_malformed_openings_are_refused_with_a_sentence(data):
    with pytest.raises(MalformedInput) as caught:
        Opening.from_json(data)
    assert caught.value.sentence.endswith(".")


def test_private_store_round_trips_and_keeps_labels_unique():
    store = PrivateStore(CTX)
    commitment = store.commit("cypher", [1, 1, 2, 3])
    assert verify(CTX, commitment, store.opening("cypher"))
    again = PrivateStore.from_json(store.to_json())
    assert again == store
    with pytest.raises(ValueError):
        store.commit("cypher", [0, 0, 0, 0])
    with pytest.raises(MalformedInput):
        PrivateStore.from_json({"match_id": 3})
