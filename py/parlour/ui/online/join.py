"""A guest's join screen, before an online game: the invite pasted, the answer code to send back
to the host, the deck to bring, and what the link is doing meanwhile."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.match.config import MAX_NAME
from parlour.ui.online.screen import (
    GAME_NAMES,
    NO_ROUTE,
    chip,
    copy_box,
    lobby_line,
    notices_tree,
    table_trust,
)
from parlour.ui.tree import Node, h

if TYPE_CHECKING:  # the online engine is imported only by online games, not by every game
    from parlour.match.online import OnlineSession


def guest_join(
    session: OnlineSession | None,
    answer: str,
    status: str,
    error: str,
    tab: bool = False,
    decks: list[tuple[str, str]] | None = None,
    deck: str = "",
    game: str = "",
    name: str | None = None,
) -> Node:
    """The guest's side: the answer code to send back, then the connection's progress (a tab
    invite needs no answer: the two tabs find each other). `game` is the invite's word for the
    game, shown before the host's welcome says it for sure (an unknown word is not shown).
    `name` is the player's own, asked for until the host's welcome (None: not asked)."""
    known = session.config.game if session is not None and session.config else game
    title = f"Joining a game of {GAME_NAMES[known]}" if known in GAME_NAMES else "Joining a game"
    parts: list[Node | None] = [
        h("a", {"class": "back", "href": "#home", "data-role": "home"}, "← All games"),
        h("h2", None, title),
    ]
    connected = session is not None and session.links["host"].state == "connected"
    # ESPEERS: the deck must be chosen before the host connects, so it is step 1
    deck_first = bool(decks and answer) and known == "espeers" and not connected
    if tab and not error:
        parts.append(
            h(
                "p",
                {"class": "join-status", "data-role": "join-status", "role": "status"},
                chip("connected" if connected else "connecting"),
                " ",
                _join_words(session, status) if connected else "Finding the host's tab…",
            )
        )
    elif (error or status == "paste") and not answer:
        parts += [
            h("p", {"class": "error", "role": "alert"}, error) if error else None,
            h(
                "p",
                None,
                "Paste the invite the host sent you: the whole link, or just the code in it. "
                "Your page then makes an answer code for you to send back.",
            ),
            h(
                "div",
                {"class": "answer-box"},
                h(
                    "textarea",
                    {
                        "data-field": "invite",
                        "rows": "3",
                        "aria-label": "The invite",
                        "placeholder": "https://…/#join=…",
                        "spellcheck": "false",
                        "autocomplete": "off",
                    },
                ),
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "use-invite", "type": "button"},
                    "Join",
                ),
            ),
        ]
    elif not answer:
        parts.append(h("p", {"role": "status"}, "Making your answer code…"))
    else:
        first = int(deck_first)
        if deck_first and decks:
            parts += [h("h4", None, "1. Choose your deck"), _deck_choice(decks, deck, sure=True)]
        parts += [
            h("h4", None, f"{1 + first}. Send this answer code back to the host"),
            copy_box(answer, "Your answer code", "answer"),
            h("p", {"class": "hint"}, "Any way you like: a message, a mail. Keep this page open."),
            h("h4", None, f"{2 + first}. Wait for the host to paste it"),
            h(
                "p",
                {"class": "join-status", "data-role": "join-status", "role": "status"},
                chip("connected" if connected else status),
                " ",
                _join_words(session, status),
            ),
        ]
        if error:
            parts.append(h("p", {"class": "error", "role": "alert"}, error))
    brings_deck = known == "espeers" or known not in GAME_NAMES
    read = bool(answer) or tab  # the invite is read: its game is known (or it names none)
    if (
        decks
        and brings_deck
        and read
        and not deck_first
        and (session is None or session.config is None)
    ):
        parts.append(_deck_choice(decks, deck, sure=known == "espeers"))
    if name is not None and (session is None or session.config is None) and status != "paste":
        parts.insert(2, _name_field(name))
    if session is not None:
        parts.append(table_trust(session, long=True))
    if session is not None and session.notices:
        parts.append(notices_tree(session))
    return h("section", {"class": "online-join", "data-role": "join"}, *parts)


def _name_field(name: str) -> Node:
    """The guest's own name, for the host and every other player (sent when the devices
    connect; left empty, the host's name for the seat stays)."""
    return h(
        "label",
        {"class": "field guest-name"},
        h("span", None, "Your name (the other players see it)"),
        h(
            "input",
            {
                "data-field": "guest-name",
                "value": name,
                "maxlength": MAX_NAME,
                "autocomplete": "nickname",
                "placeholder": "Your name",
            },
        ),
    )


def _deck_choice(decks: list[tuple[str, str]], chosen: str, sure: bool) -> Node:
    """ESPEERS players bring their own deck: chosen here, before the host connects. An invite
    that does not say its game (an older page's) still offers it, with an "if"."""
    words = "Your deck" if sure else "If the game is ESPEERS, your deck"
    return h(
        "label",
        {"class": "field deck-choice"},
        h("span", None, f"{words} (choose it before the host connects; nobody else sees it)"),
        h(
            "select",
            {"data-field": "espeers-deck"},
            *(h("option", {"value": v, "selected": v == chosen}, label) for v, label in decks),
        ),
    )


def _join_words(session: OnlineSession | None, status: str) -> str:
    back = session is not None and session.table is not None
    if (
        back
        and session is not None
        and session.links["host"].state != "connected"
        and status
        in (
            "waiting",
            "connecting",
        )
    ):
        return "Reconnecting: your game is saved here and carries on once the host connects."
    if session is None or session.links["host"].state != "connected":
        return {
            "waiting": "The host has not connected yet.",
            "connecting": "Connecting…",
            "lost": "Lost the host. Ask for a new invite: your game is saved here.",
            "failed": "Could not connect. Ask the host for a new invite.",
            "no-route": f"{NO_ROUTE} The host can start the same game by link instead: a link "
            "each turn, sent by any messenger, with no direct connection.",
        }.get(status, "")
    if session.config is None:
        return "Connected. Waiting for the host's welcome…"
    return lobby_line(session)
