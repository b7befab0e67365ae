"""A live game whose connection is lost for good carries on by link (issue 38): the offer, once a
device has been out of reach for `LOST_FOR` seconds (pure).

The host's device holds the live game's log (docs/online.md, "Shape: a star"), so the host's
screen offers the button, and makes the one link that carries the game on
(match/by_link/carrying.py); every other device's screen says to ask the host for that link and
to open it on the same device. The same seats, secrets and keys go on by link.
"""

from __future__ import annotations

from parlour.match.online import OnlineSession
from parlour.ui.tree import Node, h
from parlour.words import and_list

LOST_FOR = 30.0  # seconds a device has been out of reach before the offer shows


def lost_for_long(session: OnlineSession) -> list[int]:
    """The seats whose device has been out of reach `LOST_FOR` seconds or more, while a signed
    game is in play or at its end (none before the start, once checked, or unsigned: those have
    nothing to carry on)."""
    if session.table is None or not session.signing or session.audit_result is not None:
        return []
    return sorted(
        seat
        for link in session.links.values()
        if link.state != "connected" and session.now - max(link.heard, link.opened) >= LOST_FOR
        for seat in link.seats
    )


def carry_offer(session: OnlineSession) -> Node | None:
    """The offer to carry the game on by link, in plain words: a button on the host's device,
    what to do on any other."""
    seats = lost_for_long(session)
    if not seats:
        return None
    gone = and_list([session.name(s) for s in seats])
    if session.is_host:
        return h(
            "div",
            {"class": "online-next carry-offer", "data-role": "carry-offer", "role": "alert"},
            h(
                "p",
                None,
                f"{gone}'s device has been out of reach for {int(LOST_FOR)} seconds. You can "
                "carry this game on by link: it goes on from this move, with the same seats "
                "and secrets, by links you send in any chat (a group chat for three or more). "
                "Everyone opens your link on the device they played on.",
            ),
            h(
                "button",
                {"class": "button", "type": "button", "data-cmd": "carry-on"},
                "Carry on by link",
            ),
        )
    return h(
        "div",
        {"class": "online-next carry-offer", "data-role": "carry-offer", "role": "alert"},
        h(
            "p",
            None,
            f"The host's device has been out of reach for {int(LOST_FOR)} seconds. To carry "
            f"this game on by link, ask {gone} to press “Carry on by link” and send you the "
            "link, then open it on this device: the game goes on from the same move. If it "
            "opens somewhere else (a chat's own browser), paste it here.",
        ),
        h(
            "div",
            {"class": "answer-box"},
            h(
                "textarea",
                {
                    "data-field": "carry-link",
                    "rows": "2",
                    "aria-label": "The host's link",
                    "placeholder": "https://…/#pl=…",
                    "spellcheck": "false",
                    "autocomplete": "off",
                },
            ),
            h(
                "button",
                {"class": "button", "type": "button", "data-cmd": "carry-join"},
                "Carry on by link",
            ),
        ),
    )
