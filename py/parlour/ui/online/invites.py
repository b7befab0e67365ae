"""The host's invites (pure): the lobby, with an invite card for each remote seat (the link and
its QR code to send, the answer code to paste, what became of it), and those cards again above
a game for a seat that must come back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.ui.online.screen import (
    BY_LINK_OFFER,
    GAME_NAMES,
    NO_ROUTE,
    Invite,
    chip,
    copy_box,
    invite_status,
    lobby_line,
    notices_tree,
    online_bar,
    table_trust,
)
from parlour.ui.qr import qr_svg
from parlour.ui.tree import Node, h
from parlour.words import and_list

if TYPE_CHECKING:  # the online engine is imported only by online games, not by every game
    from parlour.match.online import OnlineSession


def host_lobby(
    session: OnlineSession, invites: dict[int, Invite], stun: list[str] | None = None
) -> Node:
    """The host's lobby: whom it plays here, an invite card for each remote seat, the table
    code, the network's news, and where the invites reach (the STUN servers, or this network)."""
    config = session.config
    assert config is not None  # the host made the game: its set-up is known from the start
    game = GAME_NAMES.get(config.game, config.game)
    mine = and_list([session.name(s) for s in session.local])
    cards = [invite_card(session, invites[seat]) for seat in sorted(invites)]
    return h(
        "section",
        {"class": "online-lobby", "data-role": "lobby"},
        h("h2", None, f"Invite your players to {game}"),
        h(
            "p",
            {"class": "lede"},
            f"You play {mine} on this device. Send each other player their own invite; they "
            "send you back an answer code. Nothing goes through a server: the codes are the "
            "whole introduction.",
        ),
        h(
            "p",
            {"class": "lobby-line", "data-role": "lobby-line", "role": "status"},
            lobby_line(session),
        ),
        h("div", {"class": "invites"}, *cards),
        table_trust(session, long=True),
        notices_tree(session),
        h(
            "p",
            {"class": "hint"},
            (
                "These invites work across the internet: each device asks "
                + and_list(stun)
                + " for its address as the internet sees it. "
            )
            if stun
            else "These invites work on the same network. For players across the internet, "
            "choose “Across the internet” in the set-up and make the invites again. ",
            h("a", {"href": "#online-help"}, "How online play works"),
        ),
    )


def online_banner(session: OnlineSession, invites: dict[int, Invite]) -> Node:
    """The online bar, and on the host, the invite of any seat that must come back."""
    again = [
        invite
        for seat, invite in sorted(invites.items())
        if session.seat_state(seat) != "connected" and session.phase.value in ("play", "end")
    ]
    if not session.is_host or not again:
        return online_bar(session, invites)
    return h(
        "div",
        {"class": "online-banner"},
        online_bar(session, invites),
        h("div", {"class": "invites"}, *(invite_card(session, invite) for invite in again)),
    )


def invite_card(session: OnlineSession, invite: Invite) -> Node:
    """One remote seat's invite, by what became of it: the link and QR code to send and the
    answer code to paste; the player here; a new invite once lost or failed; play by link
    when the two devices found no route."""
    seat, name = invite.seat, session.name(invite.seat)
    status = invite_status(session, invite)
    body: list[Node | None] = []
    error = h("p", {"class": "error", "role": "alert"}, invite.error) if invite.error else None
    if status == "connected":
        body.append(h("p", None, f"{name} is here."))
    elif status == "no-route":
        body += [
            h("p", {"class": "error", "role": "alert", "data-role": "no-route"}, NO_ROUTE),
            h("p", None, BY_LINK_OFFER),
            h(
                "div",
                {"class": "actions"},
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "play-by-link", "type": "button"},
                    "Play this game by link",
                ),
                " ",
                _new_invite_button(seat, primary=False),
            ),
        ]
        error = None
    elif status in ("lost", "failed"):
        if status == "lost":
            body.append(
                h(
                    "p",
                    None,
                    f"{name}'s device stopped answering. Their game is saved on their device: "
                    "make a new invite and send it again, and they continue where they were.",
                )
            )
        else:
            body.append(error)  # why it failed, then what to do about it
            error = None
        body.append(_new_invite_button(seat))
    elif invite.link:
        if status == "reconnecting":
            body.append(
                h(
                    "p",
                    None,
                    f"{name}'s game is saved on their device: this invite takes them back.",
                )
            )
        body += [
            h("h4", None, f"1. Send this invite to {name}"),
            h(
                "div",
                {"class": "invite-share"},
                qr_svg(invite.link, f"QR code of {name}'s invite"),
                h(
                    "div",
                    None,
                    copy_box(invite.link, f"{name}'s invite link", f"invite-{seat}"),
                    h(
                        "p",
                        {"class": "hint"},
                        "By message, mail or the QR code.",
                        *_tab_invite(invite.tab_link),
                    ),
                ),
            ),
            h("h4", None, f"2. Paste {name}'s answer code"),
            h(
                "div",
                {"class": "answer-box"},
                h(
                    "textarea",
                    {
                        "data-field": f"answer-{seat}",
                        "rows": "3",
                        "aria-label": f"{name}'s answer code",
                        "placeholder": "The code they send back",
                        "spellcheck": "false",
                        "autocomplete": "off",
                    },
                ),
                h(
                    "button",
                    {
                        "class": "button primary",
                        "data-cmd": "accept-answer",
                        "data-seat": seat,
                        "type": "button",
                    },
                    "Connect",
                ),
            ),
        ]
    else:
        body.append(h("p", {"class": "hint"}, "Making the invite…"))
    body.append(error)
    return h(
        "article",
        {"class": f"invite-card {status}", "data-seat": seat, "aria-label": f"Invite for {name}"},
        h("header", None, h("h3", None, name), chip(status)),
        *body,
    )


def _new_invite_button(seat: int, primary: bool = True) -> Node:
    """ "Make a new invite" for a seat whose invite was lost or failed."""
    return h(
        "button",
        {
            "class": "button primary" if primary else "button",
            "data-cmd": "new-invite",
            "data-seat": seat,
            "type": "button",
        },
        "Make a new invite",
    )


def _tab_invite(link: str) -> list[Node | str]:
    """The same-browser invite after the hint, where this browser lets its tabs meet."""
    if not link:
        return []
    anchor = h("a", {"href": link, "target": "_blank", "rel": "noopener"}, "Open a tab invite")
    return [" Playing in another tab of this browser? ", anchor]
