"""Which records a link carries on for other devices (issue 38: Psi Squad of 5 to 8 seats in one
link). Every device sends its own records to the whole group, so another device's go on only
where some device is shown to lack them (by_link/keeping.py, `_relays`): a move missing before
one it holds, records it signed itself and lost, a log that parts from ours; and, at the start,
the joins a device that joined later may never have opened, as far as they add no part.
"""

from __future__ import annotations

from parlour.fair.rng import Rng
from parlour.fair.signing import Signed
from parlour.games.facts import NAMES
from parlour.match.by_link import LinkPlay, packing
from parlour.match.by_link.sending import _under
from tests.by_link_group import Group
from tests.test_by_link import flush, pen


def due(device: LinkPlay) -> int:
    """The seat the game waits on, as `device` sees it."""
    match = device.match
    assert match is not None
    return min(match.game.to_move(match.state))


def carried(link: str) -> list[Signed]:
    """The records a whole link carries."""
    fragment = packing.read_fragment(link)
    assert isinstance(fragment, str)
    return list(packing.unpack(fragment).records)


def others_moves(device: LinkPlay, links: list[str]) -> list[tuple[str, int]]:
    """The moves of other devices that `device`'s links carry."""
    return [
        (r.device, r.seq)
        for link in links
        for r in carried(link)
        if r.kind == "act" and r.device != device.me
    ]


def test_in_a_group_chat_a_link_carries_no_other_device_s_move():
    """Every link reaches every device, in the order sent: from the first move on, each link
    carries its sender's records only (before, each carried what the devices it had not
    heard from lately might lack: up to a round of moves at eight seats)."""
    relayed: list[tuple[str, int]] = []

    class Chat(Group):
        def post(self, sender: int, links: list[str]) -> None:
            if links and self.devices[0].match is not None:
                relayed.extend(others_moves(self.devices[sender], links))
            super().post(sender, links)

    group = Chat("psi-squad", NAMES, {"length": 3}, {5: "easy", 6: "easy"})
    group.play(lambda n: 0, Rng(b"relays"), drops=0)
    group.check_the_end()
    assert relayed == []


def test_a_move_lost_on_the_way_goes_on_once_a_later_move_shows_it_missing():
    """Cy never gets Ada's move, then takes Bo's: Cy's device cannot go on. Bo's link does not
    carry Ada's move on (Cy said nothing yet that shows it lacks it); once Cy's head says Cy
    holds Bo's move, sealed after Ada's, Bo's device asks to send a link that carries Ada's
    move on, and Cy catches up."""
    group = Group("esp", ("Ada", "Bo", "Cy"), {})
    flush(group)
    first = group.holder(pen(group))
    lost: list[str] = []
    while group.holder(seat := due(first)) is first:  # (a turn may hold several moves)
        lost += first.act(seat, first.table.legal(seat)[0], 0).links
    second = group.holder(seat)
    (third,) = [d for d in group.devices if d not in (first, second)]
    assert [second.take_link(link, 0).ok for link in lost] == [True] * len(lost)
    moved = second.act(seat, second.table.legal(seat)[0], 0).links
    assert others_moves(second, moved) == []  # (before: Ada's move too, for Cy)
    for link in moved:
        assert first.take_link(link, 0).ok and third.take_link(link, 0).ok
    assert third.match.step < second.match.step  # Cy holds Bo's move, not Ada's before it
    shown = third.links()  # Cy's link (its head, when Cy sends one) shows it
    outs = [second.take_link(link, 0) for link in shown]
    assert all(out.ok for out in outs)
    again = outs[-1].links  # Bo is asked to send it on: nobody waits on a link not asked for
    assert (first.me, first._mine()) in others_moves(second, again)
    assert not second.take_link(shown[-1], 0).links  # asked once, not at every link after
    for link in again:
        assert third.take_link(link, 0).ok
    assert third.match.head() == second.match.head() == first.match.head()


def test_a_join_sent_on_to_a_device_that_joined_later_never_adds_a_part():
    """At eight seats each player joins from the invite and may not open the joins before
    theirs: the others' links carry those joins on (a device's head shows it does not know
    them), as far as they add no part; the signer's own links carry them too."""
    group = Group("psi-squad", NAMES, {"length": 3})
    found = None
    while group.queue and found is None:
        group.deliver(0)
        for device in group.devices:
            if len(device._outgoing_rows()[2]) > 4:
                found = device
                break
    assert found is not None
    rows, _, optional = found._outgoing_rows()
    assert found.links(limit=10**9)  # signed (a batch of ours, and our head)
    signed_head = found._signed_head
    assert signed_head is not None
    batch = signed_head.signature  # ours that must go, as the link carries them: one batch
    sure = [
        _under(r, batch) if r.device == found.me else r
        for r in rows
        if (r.device, r.seq) not in optional
    ]
    for limit in (600, 900, 1200, packing.MAX_LINK):
        fewest = len(found._packed(sure, signed_head, limit))
        assert len(found.links(limit)) == fewest
    whole = carried(found.links(limit=10**9)[0])
    assert optional <= {(r.device, r.seq) for r in whole}  # all of them, when room is no matter
