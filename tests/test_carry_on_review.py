"""A review of "Carry on by link" as an attacker: what a dishonest device, a crafted link or a
save must not be able to do to a carried game."""

from __future__ import annotations

import pytest

from parlour.fair.signing import DeviceKey, Signed
from parlour.match.by_link import LinkPlay, packing
from parlour.match.by_link.live import live_of
from tests.by_link_group import BASE
from tests.signers import Ed25519Signer, verify
from tests.test_carry_on import psi_with_a_missed_move


def guest_device(net, seat: int) -> LinkPlay:
    """A live guest's device as a game by link before its first record (made by hand: its own
    page would sign a `carried`)."""
    live = live_of(net.guests[seat])
    play = LinkPlay(
        str(live.match["config"]["match_id"]),
        live.link_name(live.me),
        live.signer,
        live.verify,
        BASE,
        100.0,
    )
    play._carry_from(live)
    return play


def first_records(bo: LinkPlay) -> dict[str, tuple[str, dict]]:
    """Bo's first record made by hand, of each kind a first record may be."""
    return {
        "open": (
            "open",
            {
                "g": "psi-squad",
                "n": ["Ada", "Bo", "Cy"],
                "v": {"length": 3},
                "b": {},
                "h": [0, 1, 2],
                "k": DeviceKey.of(bo.signer).to_json(),
                "l": 3600,
                "t": 100,
            },
        ),
        "join": (
            "join",
            {"s": 1, "n": "Ada", "k": DeviceKey.of(Ed25519Signer()).to_json(), "t": 100},
        ),
        "carry": ("carry", {}),  # filled in below: the host's carry, as Bo's
    }


@pytest.mark.parametrize("kind", ["open", "join", "carry"])
def test_a_guest_s_first_record_is_a_carried_and_nothing_else(kind):
    """Bo's device signs (with its live key) an `open`, a `join` or a `carry` as its first
    record instead of a `carried`. Each would change the game on the host's device: an `open`
    gives Bo's device every seat (it could then move for Ada and Cy), a time per move and the
    creator's place; a `join` swaps Bo's live key for another and renames him; a `carry`
    derives the match again from Bo's record. The link must be refused, changing nothing."""
    net = psi_with_a_missed_move("m-00000000000000a1", 0)
    host, out = LinkPlay.carry_on(net.host, 100.0, BASE)
    assert host is not None
    bo = guest_device(net, 1)
    assert bo._take(packing.read_invite(out.links)).ok
    made, body = first_records(bo)[kind]
    if kind == "carry":
        body = dict(host.records[(host.me, 1)].body)
    bo.records[(bo.me, 1)] = Signed(bo.me, 1, made, body)
    before = (dict(host.held), dict(host.keys), host.limit, host.creator, list(host.names))
    taken = [host.take_link(link, 101.0) for link in bo.links()]
    after = (dict(host.held), dict(host.keys), host.limit, host.creator, list(host.names))
    assert after == before
    assert (host.me, 1) in host.records and (bo.me, 1) not in host.records
    assert not all(t.ok for t in taken)
