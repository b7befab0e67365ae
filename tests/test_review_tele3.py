"""Review of the tele3 change (Telepathic's shared decks by link with no send split): defects
found, each as a test that failed on 954d83a."""

from __future__ import annotations

import random

import pytest

from parlour.fair.rng import Rng
from parlour.match.by_link import LinkPlay, packing
from tests.by_link_group import BASE, Group
from tests.signers import Ed25519Signer, verify


def test_records_that_only_may_go_never_turn_a_link_that_fits_into_an_error():
    """`links(limit)` packed every row, the optional ones too, before leaving any out: where
    the optional rows alone needed more than `MAX_PARTS` parts, it raised "send a game file
    instead" although the rows that must go fit in a few parts (the scan screen then fell back
    to the chat's links; `_after` reported a failed step)."""
    creator, _ = LinkPlay.create(
        "telepathic", ["Ada", "Bo", "Cy", "Di"], {"arrangement": "four"}, (0,),
        Ed25519Signer(), verify, 0, BASE, None, 0, {0: {}},
    )  # fmt: skip
    creator.mark_sent()  # its lock is now a step sent before: it only may go
    links = creator.links(limit=125)  # the lock would need 25 parts, the open alone 7
    assert 1 < len(links) <= packing.MAX_PARTS


class Kept(Group):
    def __init__(self, *args: object, **kwargs: object) -> None:
        self.history: list[tuple[int, list[str]]] = []
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def post(self, sender: int, links: list[str]) -> None:
        if links:
            self.history.append((sender, list(links)))
        super().post(sender, links)


def test_an_old_link_of_another_device_opened_again_asks_for_no_link():
    """A player who opens an old link again (a tap on it in the chat) gets "You had everything
    in that link already", yet is asked to send: `_note_head` lowers what the sender holds of
    its own records to the old head's word ("it lost them"), so `_shown_news` asks for a link
    carrying the sender's own records back to it; with a shared deck's locks among them the
    send splits. Seen in the same way on e229b09 (not a regression of this change, but it
    defeated both of its goals for any chat where an old link is opened again). Mended: a
    head noted before, word for word, is not read again (`Keeping._note_head`)."""
    group = Kept("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"})
    rng = Rng(b"old")
    while group.queue or not any(d.match and d.match.step for d in group.devices):
        if group.queue:
            group.deliver(0)
        else:
            group.move(*group.movers()[0], rng)
    while group.queue:
        group.deliver(0)
    asked = []
    for sender, links in group.history[:4]:
        recipient = 0 if sender else 1
        out = group.devices[recipient].take_link(links[0], group.now)
        assert not out.fresh
        if out.links:
            asked.append((sender, recipient, [len(x) for x in out.links]))
    assert not asked


def start_in_random_order(seed: int) -> Group:
    """Four partners' start with links delivered in a random order (as `Group.play` with a
    seeded chooser, its first choices the same), each sometimes twice, none dropped, until
    nothing is on its way."""
    choose = random.Random(seed)
    group = Group("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"})
    while group.queue:
        index = choose.randrange(len(group.queue))
        group.deliver(index, again=choose.randrange(8) == 1)
    return group


@pytest.mark.parametrize("seeds", [range(0, 11), range(11, 22)], ids=["0-10", "11-21"])
def test_an_invite_only_joiner_never_needs_a_link_sent_again_by_hand_in_any_order(seeds):
    """`test_telepathic_shared_decks_need_no_link_nobody_was_asked_to_send` held for links
    opened in the order sent; in another order Di (joined from the invite alone) could hold
    nothing of Cy while every device that could carry Cy's join on had already sent its last
    link: Di's head showed Cy's records only as "may lack", nobody was asked, and the start
    waited for `Group.resend` (seeds 0, 2, 4, 10 of 0-10; 2 of 11 on e229b09). Mended: a
    device that was shown the links come out of order (a head naming a third device's records
    it still lacks: `Keeping._note_order`) asks to send its own records to a joiner whose head
    shows nothing of them (`Sending._maybe_news`). With nothing on its way, the start is done:
    a seat may move."""
    stalled = [seed for seed in seeds if not start_in_random_order(seed).movers()]
    assert not stalled
