"""The screens of online play (pure): the online bar, the table code, the result's play again,
the next game, a forfeited seed, a game taken over by another tab; and the pieces the host's
invites (invites.py) and the guest's join (join.py) draw with.

The browser layer makes the codes (WebRTC needs the browser) and keeps them in `Invite`s; these
functions only draw what a session and its invites say. Every name and code is text in the
tree, never markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.games.catalog import names
from parlour.games.declared import GAME_IDS, facts_for
from parlour.match.bot_seats import BOT_SUFFIX
from parlour.ui.online.carry import carry_offer
from parlour.ui.outcome import outcome_title
from parlour.ui.tree import Node, h
from parlour.words import and_list

if TYPE_CHECKING:  # the online engine is imported only by online games, not by every game
    from parlour.match.online import OnlineSession


STATE_WORDS = {
    "here": "on this device",
    "host": "on the host's device",  # a guest's word for a seat the host's device plays
    "invited": "invited",
    "making": "making the invite…",
    "waiting": "waiting for the answer",
    "connecting": "connecting…",
    "connected": "connected",
    "lost": "connection lost",
    "reconnecting": "reconnecting…",
    "failed": "could not connect",
    "no-route": "no direct route",
}
# Two devices that could not connect (their NATs let no packet through either way)
NO_ROUTE = "These two devices found no direct route (some routers allow none)."
BY_LINK_OFFER = (
    "Play the same game by link instead: each turn gives a link to send by any messenger, "
    "and no direct connection is needed."
)
GAME_NAMES = names()  # by game id, from the catalog
NOTICES_SHOWN = 4
NOTICE_SECONDS = 12  # how long the online bar shows the latest word from the network
REFUSAL_SECONDS = 45  # a refusal longer: it may need reading twice


@dataclass
class Invite:
    """One remote seat's invite, as the host's browser made it."""

    seat: int
    status: str = "making"  # making, waiting, connecting, connected, lost, failed, no-route
    link: str = ""  # the WebRTC invite: the page's address with #join=<offer code>
    tab_link: str = ""  # the same-browser invite (BroadcastChannel)
    error: str = ""
    accepted_at: float | None = None  # when the host's browser took the answer code


def chip(state: str) -> Node:
    return h("span", {"class": f"chip {state}", "data-state": state}, STATE_WORDS.get(state, state))


def copy_box(text: str, label: str, role: str) -> Node:
    return h(
        "div",
        {"class": "copy-box"},
        h("input", {"readonly": True, "value": text, "aria-label": label, "data-role": role}),
        h(
            "button",
            {"class": "button small", "data-cmd": "copy", "data-copy": text, "type": "button"},
            "Copy",
        ),
    )


def lobby_line(session: OnlineSession) -> str:
    phase = session.phase.value
    if phase == "aborted":
        return session.aborted or "The game could not start."
    if phase == "forfeit":
        return session.forfeit.reason
    if phase == "seed":
        return "Everyone is here: drawing the seed together…"
    if phase in ("play", "end"):
        return "The game is on."
    waiting = [
        session.name(int(seat))
        for seat, state in session.link_states().items()
        if state not in ("here", "connected")
    ]
    if not waiting:
        return "Waiting for the host…"
    return "Waiting for " + and_list(waiting) + " to join."


def invite_status(session: OnlineSession, invite: Invite) -> str:
    """What to call a remote seat's invite: the session knows the link, the invite what the
    host did about it since (a lost seat with a fresh invite out is reconnecting)."""
    link_state = session.link_states().get(str(invite.seat), "invited")
    if link_state == "connected" or (link_state == "lost" and invite.status == "connected"):
        return link_state  # connected, or lost since: a new invite is one click away
    if link_state == "lost" and invite.status in ("waiting", "connecting"):
        return "reconnecting"
    return invite.status


def online_bar(session: OnlineSession, invites: dict[int, Invite] | None = None) -> Node:
    """Above an online game: who is connected, the latest word from the network, and on a guest
    that has lost the host, what to do about it."""
    invites = invites or {}
    chips = [
        h(
            "li",
            {"data-seat": seat},
            h("strong", None, session.name(seat)),
            " ",
            chip(_seat_chip(session, invites, seat)),
        )
        for seat in range(len(session.config.seats))
    ]
    last = bar_notice(session)
    return h(
        "section",
        {"class": "online-bar", "aria-label": "Online"},
        h("span", {"class": "online-label"}, "Online"),
        h("ul", {"class": "online-seats"}, *chips),
        table_trust(session),
        h(
            "p",
            {
                "class": "online-notice" + (" alert" if last.startswith("Refused") else ""),
                "data-role": "notice",
                "role": "status",
                "aria-live": "polite",
            },
            last,
        ),
        _host_lost(session),
        carry_offer(session),
    )


def _seat_chip(session: OnlineSession, invites: dict[int, Invite], seat: int) -> str:
    """How a seat is reached, for its chip: on a guest, a seat the host's device plays says so
    (two seats on one device are not two connected devices)."""
    state = session.seat_state(seat)
    if seat in invites and state == "lost":
        return invite_status(session, invites[seat])
    host = session.links.get("host")  # a guest's one link (match.online.HOST)
    if state == "connected" and host is not None and seat in host.seats:
        return "host"
    return state


def bar_notice(session: OnlineSession) -> str:
    """The latest word from the network while it is news ("Everyone is here: the game begins."
    is not, an hour later); the lobby keeps the last few for good."""
    if not session.notices:
        return ""
    last = session.notices[-1]
    keep = REFUSAL_SECONDS if last.startswith("Refused") else NOTICE_SECONDS
    return last if session.now - session.notice_at < keep else ""


def _host_names(session: OnlineSession) -> str:
    """On a guest: the names of the seats the host's device plays ("" before the welcome)."""
    link = session.links.get("host")  # a guest's one link (match.online.HOST)
    return and_list([session.name(s) for s in sorted(link.seats)]) if link is not None else ""


def _host_lost(session: OnlineSession) -> Node | None:
    """A guest without its host can do one thing: get a new invite. Say so, and who from."""
    link = session.links.get("host")  # a guest's one link (match.online.HOST)
    if session.is_host or link is None or link.state == "connected":
        return None
    if session.phase.value not in ("seed", "play", "end") or session.audit_result is not None:
        return None
    return h(
        "p",
        {"class": "online-next", "data-role": "host-lost", "role": "alert"},
        f"Not connected to the host's device. Your game is saved on this device: ask "
        f"{_host_names(session) or 'the host'} "
        "for a new invite and open it here, and the game carries on where it stopped.",
    )


def held_by_the_host(session: OnlineSession) -> str:
    """On a guest: the seats the host's device plays besides its player's own, as one sentence
    ("Ada's device plays Ada and the bot Cy: whoever holds it could see the bot's cards"); ""
    on the host, before the welcome, or when it plays only its player's seat. Whoever holds
    that device can read those seats' secrets (its own save keeps them), so guests are told,
    not left to guess."""
    link = session.links.get("host")  # a guest's one link (match.online.HOST)
    config = session.config
    if session.is_host or link is None or not link.seats or config is None:
        return ""
    seats = sorted(link.seats)

    def bot(seat: int) -> bool:  # (a bot's name says it is one, in a set-up or a config)
        return str(seat) in config.bots or session.name(seat).endswith(BOT_SUFFIX)

    people = [s for s in seats if not bot(s)]
    others = [s for s in seats if s not in people[:1]]
    if not others:
        return ""

    def called(seat: int) -> str:
        name = session.name(seat)
        return f"the bot {name.removesuffix(BOT_SUFFIX).rstrip()}" if bot(seat) else name

    device = f"{session.name(people[0])}'s device" if people else "The host's device"
    bots = [s for s in others if bot(s)]
    whose = [session.name(s) + "'s" for s in others if s not in bots]
    if bots:
        whose.append("the bot's" if len(bots) == 1 else "the bots'")
    secrets = facts_for(config.game).secrets if config.game in GAME_IDS else "secrets"
    return (
        f"{device} plays {and_list([called(s) for s in seats])}: whoever holds it could see "
        f"{and_list(whose)} {secrets}."
    )


def table_trust(session: OnlineSession, long: bool = False) -> Node | None:
    """The table code every device shows, for the players to compare once by another way (the
    same code on every device: every device has the same keys and the same start), and on a
    guest, the seats the host's device plays. `long` says what the code proves (the lobby and
    the result have room for it; the play bar does not)."""
    code = session.table_code()
    held = held_by_the_host(session)
    parts: list[Node] = []
    if code is not None:
        why = (
            " The same code on every device means every device has the same keys and the same "
            "start, so the host cannot stand between two of you unseen; a different code means "
            "someone's key was swapped."
            if long
            else ""
        )
        parts.append(
            h(
                "p",
                {"class": "table-code", "data-role": "table-code"},
                "Table code ",
                h("strong", {"class": "code", "data-code": code}, code),
                ": compare it with the other players, aloud or in your chat." + why,
            )
        )
    if held:
        parts.append(h("p", {"class": "host-seats", "data-role": "host-seats"}, held))
    return h("div", {"class": "table-trust"}, *parts) if parts else None


def notices_tree(session: OnlineSession) -> Node | None:
    shown = session.notices[-NOTICES_SHOWN:]
    if not shown:
        return None
    return h(
        "section",
        {"class": "notices", "aria-label": "What happened on the network"},
        h("ul", {"data-role": "notices"}, *(h("li", None, text) for text in shown)),
    )


def verdicts_tree(session: OnlineSession) -> Node | None:
    """What every device's own audit said."""
    if not session.verdicts:
        return None
    items = [
        h("li", {"data-verdict": kind}, f"{session.name(seat)}'s device: {kind}")
        for seat, (kind, _) in sorted(session.verdicts.items())
    ]
    return h("ul", {"class": "verdicts", "data-role": "verdicts"}, *items)


def _play_again_blocked(session: OnlineSession) -> str:
    """Why the host cannot play again yet ("" when it can)."""
    if any(link.state != "connected" for link in session.links.values()):
        return "Everyone must be connected to play again."
    if session.audit_result is None and session.forfeit is None:
        return "Play again once every device has checked the game…"
    return ""


def play_again_note(session: OnlineSession) -> Node | None:
    """Above the result's buttons: on a guest, who can start another game; on the host, why
    it cannot yet."""
    if session.is_host:
        why = _play_again_blocked(session)
        return h("p", {"class": "hint", "data-role": "play-again-note"}, why) if why else None
    return h(
        "p",
        {"class": "hint", "data-role": "play-again-note"},
        f"{_host_names(session) or 'The host'} can start another game with everyone here.",
    )


def play_again_button(session: OnlineSession) -> Node | None:
    """The host's "Play again", among the result's buttons (disabled until it can)."""
    if not session.is_host:
        return None
    why = _play_again_blocked(session)
    return h(
        "button",
        {
            "class": "button primary",
            "data-cmd": "play-again",
            "type": "button",
            "disabled": bool(why),
            "title": why or None,
        },
        "Play again",
    )


def next_game_tree(session: OnlineSession) -> Node:
    """Between "Play again" and the new game: the devices deal and draw the seed."""
    game = GAME_NAMES.get(session.config.game, session.config.game) if session.config else ""
    return h(
        "section",
        {"class": "online-lobby", "data-role": "next-game"},
        h("h2", None, f"Another game of {game}" if game else "Another game"),
        h("p", {"class": "lobby-line", "role": "status"}, lobby_line(session)),
        table_trust(session, long=True),
        notices_tree(session),
    )


def forfeit_tree(session: OnlineSession) -> Node:
    """A seat did not reveal its part of the seed once every commitment was in: the match is
    over before it began, forfeited by that seat (not a free second draw)."""
    outcome = session.forfeit
    return h(
        "section",
        {"class": "online-lobby", "data-role": "seed-forfeit"},
        h("h2", None, outcome_title(outcome, session.config.seats)),
        h("p", {"class": "lede", "role": "status"}, outcome.reason),
        h(
            "p",
            None,
            "Once every device had committed to its part of the seed, a device that held its "
            "reveal back could have worked the seed out first and stopped the game if it did "
            "not like it. So not revealing in time forfeits the game.",
        ),
        play_again_note(session),
        h(
            "div",
            {"class": "actions"},
            play_again_button(session),
            h("a", {"class": "button", "href": "#home"}, "All games"),
        ),
        notices_tree(session),
    )


def elsewhere_tree() -> Node:
    """A tab whose game another tab of this browser has taken over: it stays quiet (two tabs
    saving one game would overwrite each other's secrets) until the player takes it back."""
    return h(
        "section",
        {"class": "online-lobby", "data-role": "elsewhere"},
        h("h2", None, "This game goes on in another tab"),
        h(
            "p",
            {"class": "lede"},
            "The same online game was opened in another tab or window of this browser, and it "
            "carries on there. This tab has let go of it, so the two cannot get in each "
            "other's way.",
        ),
        h(
            "button",
            {"class": "button primary", "data-cmd": "take-over", "type": "button"},
            "Play it here instead",
        ),
    )
