"""Play by link's screens in pieces: the links to send after a move (each with its QR code),
the form that joins a game from a pasted link, the trust line, the home screen's list of this
browser's games by link."""

from __future__ import annotations

from parlour.fair.signing import Signed
from parlour.match.by_link import LinkPlay
from parlour.ui.online_screen import GAME_NAMES, copy_box
from parlour.ui.qr import qr_svg
from parlour.ui.screens import now
from parlour.ui.tree import Node, h


def send_tree(links: list[str]) -> Node:
    """ "Send this link": Copy, Share (where the browser has it), a QR code, and what to do."""
    many = len(links) > 1
    items = []
    for i, link in enumerate(links):
        label = f"Link part {i + 1} of {len(links)}" if many else "The link to send"
        items.append(
            h(
                "div",
                {"class": "bylink-link"},
                copy_box(link, label, f"bylink-link-{i}"),
                h(
                    "button",
                    {"class": "button small", "data-share": link, "type": "button", "hidden": True},
                    "Share",
                ),
            )
        )
    done = h(
        "button",
        {"class": "button small", "data-cmd": "bylink-sent", "type": "button"},
        "Done: I sent it",
    )
    return h(
        "div",
        {"class": "bylink-send", "data-role": "bylink-send"},
        h("h3", None, "Send these links" if many else "Send this link"),
        h(
            "p",
            None,
            "Send it to your group chat (or to each player): each player opens it on their "
            "own device, and the game goes on there.",
            " Send every part: they can arrive in any order." if many else None,
        ),
        h(
            "div",
            {"class": "bylink-share"},
            qr_or_word(links[0]) if not many else None,
            h("div", None, *items, done),
        ),
    )


def qr_or_word(link: str) -> Node:
    """The link's QR code (level L, the most it holds: up to 858 bytes), or a word when it is
    too long for one (Copy and Share carry it)."""
    try:
        return qr_svg(link, "QR code of the link", "L")
    except ValueError:
        return h("p", {"class": "hint"}, "This link is too long for a QR code: copy or share it.")


def join_form(
    opened: Signed, records: tuple[Signed, ...], error: str, decks: list[tuple[str, str]]
) -> Node:
    """A free seat and your name (and in ESPEERS your deck), for a device that opens an
    invite."""
    body = opened.body
    names = [str(n) for n in body.get("n", [])] if isinstance(body.get("n"), list) else []
    held = body.get("h") if isinstance(body.get("h"), list) else []
    taken = set(held or []) | {r.body.get("s") for r in records if r.kind == "join"}
    free = [s for s in range(len(names)) if s not in taken]
    game = GAME_NAMES.get(str(body.get("g")), str(body.get("g")))
    bots = [names[int(s)] for s in body.get("b", {}) if str(s).isdigit() and int(s) < len(names)]
    seats = [h("option", {"value": str(s)}, names[s]) for s in free]
    return h(
        "div",
        {"class": "bylink bylink-join", "data-role": "bylink-join"},
        h("h2", {"tabindex": "-1"}, f"Join a game of {game} by link"),
        h("p", None, f"Players: {', '.join(names)}."),
        h(
            "p",
            {"class": "hint"},
            "Each turn is a link: after you join, and after each of your moves, this page gives "
            "you one to send to the group chat.",
        ),
        h("p", {"class": "hint"}, f"{', '.join(bots)} play on the creator's device.")
        if bots
        else None,
        h(
            "label",
            {"class": "field"},
            h("span", None, "Your seat"),
            h("select", {"data-field": "bylink-seat"}, *seats),
        )
        if free
        else h("p", {"class": "error"}, "Every seat is taken in that game."),
        h(
            "label",
            {"class": "field"},
            h("span", None, "Your name"),
            h("input", {"data-field": "bylink-name", "maxlength": "24", "autocomplete": "off"}),
        ),
        h(
            "label",
            {"class": "field deck-choice"},
            h("span", None, "Your deck (nobody else sees it)"),
            h(
                "select",
                {"data-field": "espeers-deck"},
                *(h("option", {"value": v}, label) for v, label in decks),
            ),
        )
        if decks
        else None,
        h("p", {"class": "error", "role": "alert", "data-role": "bylink-error"}, error),
        h(
            "div",
            {"class": "actions"},
            h(
                "button",
                {"class": "button primary", "data-cmd": "bylink-join", "type": "button"},
                "Join the game",
            )
            if free
            else None,
        ),
    )


def trust(play: LinkPlay) -> Node | None:
    code = play.table_code()
    if code is None:
        return None
    return h(
        "p",
        {"class": "table-code", "data-role": "table-code"},
        "Table code ",
        h("strong", {"class": "code", "data-code": code}, code),
        ": compare it with the other players once, in your chat.",
    )


def nothing_tree(said: str) -> Node:
    """No game shown: what the last link opened said (a part kept), or that there is none."""
    return h(
        "div",
        {"class": "bylink"},
        h("h2", {"tabindex": "-1"}, "Play by link"),
        h("p", {"data-role": "bylink-said"}, said or "No game by link is open here."),
        h("a", {"class": "button", "href": "#home"}, "All games"),
    )


def your_games(plays: list[LinkPlay]) -> Node:
    """ "Your games" on the home screen: each game by link kept here, whose turn, the last link."""
    if not plays:
        return h("div", {"class": "link-games", "hidden": True})
    rows = []
    for play in sorted(plays, key=lambda p: -p.last_link_at):
        line = play.summary()
        game = GAME_NAMES.get(str(line["game"]), str(line["game"]))
        players = ", ".join(str(n) for n in line["players"] or [])  # type: ignore[union-attr]
        turn = "Your turn." if line["my_turn"] else str(line["waiting"])
        rows.append(
            h(
                "li",
                {"data-match": play.match_id},
                h("a", {"href": f"#bylink={play.match_id}"}, f"{game}: {players}"),
                h(
                    "span",
                    {"class": "turn mine" if line["my_turn"] else "turn"},
                    f"{turn} Last link {last_link_words(play.last_link_at)}.",
                ),
            )
        )
    return h(
        "section",
        {"class": "link-games", "aria-labelledby": "link-games-title"},
        h("h2", {"id": "link-games-title"}, "Your games by link"),
        h("ul", {"data-role": "link-games"}, *rows),
    )


def last_link_words(at: float) -> str:
    """When the last link came, in words ("5 min ago")."""
    ago = max(0, int(now() - at))
    if ago < 60:
        return "just now"
    if ago < 3600:
        return f"{ago // 60} min ago"
    if ago < 86400:
        return f"{ago // 3600} h ago"
    return f"{ago // 86400} days ago"
