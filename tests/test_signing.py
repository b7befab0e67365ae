"""Signatures (fair/signing.py): the exact bytes signed, the table code, records and their proof,
with real Ed25519 and ECDSA P-256 signers from `cryptography` (tests/signers.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.errors import MalformedInput
from parlour.fair.encoding import canonical_json, encode_fields
from parlour.fair.signing import (
    CODE_ALPHABET,
    ED25519,
    P256,
    DeviceKey,
    Signed,
    b64,
    signed_bytes,
    table_code,
    unb64,
)
from tests.signers import Ed25519Signer, P256Signer, verify

SIGNERS = [Ed25519Signer, P256Signer]
GENESIS = "ab" * 32


def flipped(signature: bytes) -> bytes:
    """The signature with its last bit changed (never the same bytes)."""
    return signature[:-1] + bytes([signature[-1] ^ 1])


@pytest.mark.parametrize("make", SIGNERS)
def test_a_signature_holds_only_for_its_exact_bytes(make):
    signer = make()
    key = DeviceKey.of(signer)
    record = Signed("seat-1", 4, "propose", {"seat": 1, "action": {"guess": "123"}, "after": 3})
    record.signature = signer.sign(record.payload("m-1"))
    assert record.verified_by(key, "m-1", verify)
    assert not record.verified_by(key, "m-2", verify)  # another match
    for changed in (
        Signed("seat-2", 4, "propose", record.body, record.signature),  # another device
        Signed("seat-1", 5, "propose", record.body, record.signature),  # another number
        Signed("seat-1", 4, "verdict", record.body, record.signature),  # another type
        Signed("seat-1", 4, "propose", {**record.body, "after": 2}, record.signature),
        Signed("seat-1", 4, "propose", record.body, flipped(record.signature)),
        Signed("seat-1", 4, "propose", record.body, record.signature[:32]),  # truncated
        Signed("seat-1", 4, "propose", record.body, None),
    ):
        assert not changed.verified_by(key, "m-1", verify)
    assert not record.verified_by(DeviceKey.of(make()), "m-1", verify)  # another device's key


def test_the_signed_bytes_are_the_length_prefixed_fields_in_order():
    body = {"b": [1, "é"], "a": None}
    expected = encode_fields(
        ["psi-parlour/signed", "2", "m-1", "host", "17", "ack", canonical_json(body)]
    )
    assert signed_bytes("m-1", "host", 17, "ack", body) == expected
    # a field boundary moved changes the bytes: ("m-1h", "ost") is not ("m-1", "host")
    assert signed_bytes("m-1h", "ost", 17, "ack", body) != expected


@given(st.text(max_size=8), st.text(max_size=8), st.text(max_size=8), st.text(max_size=8))
def test_no_two_field_splits_sign_the_same_bytes(a, b, c, d):
    if (a, b) != (c, d):
        assert signed_bytes(a, b, 1, "t", {}) != signed_bytes(c, d, 1, "t", {})


@pytest.mark.parametrize("make", SIGNERS)
def test_a_key_travels_as_json_and_back_and_a_bad_one_is_refused(make):
    key = DeviceKey.of(make())
    assert DeviceKey.from_json(key.to_json()) == key
    for bad in (
        None,
        [key.algorithm],
        ["RSA", b64(key.public)],
        [key.algorithm, b64(key.public)[:-2]],
        [key.algorithm, b64(key.public) + "A"],
        [key.algorithm, b64(key.public).replace("-", "+")[:-1] + "!"],
        [P256, b64(b"\x02" + bytes(64))],
    ):
        with pytest.raises(MalformedInput):
            DeviceKey.from_json(bad)


def test_base64url_has_one_spelling():
    assert unb64(b64(b"\xff" * 32), 32, "x") == b"\xff" * 32
    last = b64(b"\0" * 32)
    with pytest.raises(MalformedInput):
        unb64(last[:-1] + "B", 32, "x")  # the same bytes, with unused bits set


def keys(*makes):
    return {
        name: DeviceKey.of(make())
        for name, make in zip(("host", "seat-1", "seat-2"), makes, strict=False)
    }


def test_the_table_code_is_eight_unambiguous_characters_and_the_same_for_the_same_table():
    table = keys(Ed25519Signer, P256Signer, Ed25519Signer)
    code = table_code("m-1", GENESIS, table)
    assert len(code) == 9 and code[4] == "-"
    assert all(c in CODE_ALPHABET for c in code.replace("-", ""))
    assert table_code("m-1", GENESIS, dict(reversed(table.items()))) == code  # order of devices


def test_a_key_swapped_by_the_host_changes_the_table_code():
    table = keys(Ed25519Signer, Ed25519Signer, P256Signer)
    code = table_code("m-1", GENESIS, table)
    assert table_code("m-1", GENESIS, {**table, "seat-2": DeviceKey.of(P256Signer())}) != code
    assert table_code("m-2", GENESIS, table) != code
    assert table_code("m-1", "cd" * 32, table) != code
    moved = {"host": table["host"], "seat-1": table["seat-2"], "seat-2": table["seat-1"]}
    assert table_code("m-1", GENESIS, moved) != code  # the same keys at other seats


@pytest.mark.parametrize("make", SIGNERS)
def test_a_record_is_kept_as_json_and_read_back_strictly(make):
    signer = make()
    record = Signed("host", 2, "verdict", {"seat": 0, "verdict": "verified", "text": "ok"})
    record.signature = signer.sign(record.payload("m-1"))
    back = Signed.from_json(record.to_json())
    assert back == record and back.verified_by(DeviceKey.of(signer), "m-1", verify)
    assert Signed.from_json({**record.to_json(), "s": None}).signature is None
    for bad in (
        {**record.to_json(), "q": 0},
        {**record.to_json(), "q": "2"},
        {**record.to_json(), "d": ""},
        {**record.to_json(), "b": []},
        {**record.to_json(), "s": "AA"},
        {**record.to_json(), "x": 1},
        {**record.to_json(), "b": {"x": 1.5}},
    ):
        with pytest.raises(MalformedInput):
            Signed.from_json(bad)


def test_two_records_of_one_number_with_different_bodies_are_not_the_same_content():
    a = Signed("seat-1", 3, "ack", {"step": 4, "head": "aa" * 32})
    assert a.same_content(Signed("seat-1", 3, "ack", {"head": "aa" * 32, "step": 4}))
    assert not a.same_content(Signed("seat-1", 3, "ack", {"step": 4, "head": "bb" * 32}))
    assert not a.same_content(Signed("seat-1", 3, "verdict", a.body))


def test_verify_never_raises_on_junk():
    for algorithm in (ED25519, P256, "RSA"):
        assert verify(algorithm, b"\x04" + bytes(64), b"x", bytes(64)) is False
        assert verify(algorithm, bytes(3), b"x", bytes(5)) is False
