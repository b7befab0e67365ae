"""Joint randomness: the seed, and the seat named for every way the protocol can go wrong."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.errors import CommitmentMismatch, ProtocolError
from parlour.fair.commit import Opening
from parlour.fair.joint import JointRandomness

NAMES = ["Ada", "Bo", "Cy"]


def run_protocol(secrets: list[bytes], match_id: str = "match-joint") -> list[bytes]:
    """Every seat runs its own object; messages go to everyone. Returns each seat's seed."""
    seats = [JointRandomness(match_id, NAMES, i, secret=s) for i, s in enumerate(secrets)]
    for me in seats:
        for other in seats:
            if other is not me:
                me.receive_commitment(other.me, other.my_commitment())
    for me in seats:
        for other in seats:
            if other is not me:
                me.receive_reveal(other.me, other.my_reveal())
    return [s.seed() for s in seats]


def test_every_seat_derives_the_same_seed():
    seeds = run_protocol([b"a" * 32, b"b" * 32, b"c" * 32])
    assert len(set(seeds)) == 1 and len(seeds[0]) == 32


@given(
    secrets=st.lists(st.binary(min_size=32, max_size=32), min_size=3, max_size=3),
    seat=st.integers(0, 2),
    other=st.binary(min_size=32, max_size=32),
)
def test_the_seed_changes_if_any_reveal_changes(secrets, seat, other):
    changed = list(secrets)
    changed[seat] = other
    if other != secrets[seat]:
        assert run_protocol(secrets)[0] != run_protocol(changed)[0]


def _pair():
    a = JointRandomness("match-joint", NAMES[:2], 0, secret=b"a" * 32)
    b = JointRandomness("match-joint", NAMES[:2], 1, secret=b"b" * 32)
    return a, b


def test_a_reveal_that_does_not_match_names_the_seat():
    a, b = _pair()
    a.receive_commitment(1, b.my_commitment())
    b.receive_commitment(0, a.my_commitment())
    forged = Opening(b.my_reveal().label, "00" * 32, b.my_reveal().nonce)
    with pytest.raises(CommitmentMismatch) as caught:
        a.receive_reveal(1, forged)
    assert caught.value.seat == 1
    assert "Bo's reveal of their random contribution does not match" in str(caught.value)


def test_duplicate_and_invalid_commitments_name_the_seat():
    a, b = _pair()
    with pytest.raises(ProtocolError, match="Bo sent a commitment that is not a valid hash"):
        a.receive_commitment(1, "not a hash")
    a.receive_commitment(1, b.my_commitment())
    with pytest.raises(ProtocolError, match="Bo sent a second commitment") as caught:
        a.receive_commitment(1, b.my_commitment())
    assert caught.value.seat == 1


def test_a_reveal_before_every_commitment_is_refused():
    a = JointRandomness("match-joint", NAMES, 0)
    b = JointRandomness("match-joint", NAMES, 1)
    a.receive_commitment(1, b.my_commitment())
    b.receive_commitment(0, a.my_commitment())
    with pytest.raises(ProtocolError, match="Cannot reveal yet: still waiting for Cy"):
        b.my_reveal()
    early = b._opening  # a cheating client that reveals anyway
    with pytest.raises(ProtocolError, match="Bo revealed before every commitment was in") as caught:
        a.receive_reveal(1, early)
    assert caught.value.seat == 1


def test_a_second_reveal_and_an_unknown_seat_are_refused():
    a, b = _pair()
    a.receive_commitment(1, b.my_commitment())
    b.receive_commitment(0, a.my_commitment())
    a.receive_reveal(1, b.my_reveal())
    with pytest.raises(ProtocolError, match="Bo revealed twice"):
        a.receive_reveal(1, b.my_reveal())
    with pytest.raises(ProtocolError, match="unknown seat"):
        a.receive_commitment(5, b.my_commitment())


def test_a_stall_names_the_missing_seats():
    a = JointRandomness("match-joint", NAMES, 0)
    a.check_deadline(now=5, deadline=10)  # not yet
    with pytest.raises(ProtocolError, match="Bo and Cy did not commit in time"):
        a.check_deadline(now=10, deadline=10)
    a.receive_commitment(1, JointRandomness("match-joint", NAMES, 1).my_commitment())
    a.receive_commitment(2, JointRandomness("match-joint", NAMES, 2).my_commitment())
    a.my_reveal()
    with pytest.raises(ProtocolError, match="Bo and Cy did not reveal in time"):
        a.check_deadline(now=11, deadline=10)
    with pytest.raises(ProtocolError, match="No seed yet"):
        a.seed()
