"""Play by link's screen pieces (pure): the links to send with their QR codes, the claim line,
the join form, the trust line, "Your games by link" with removal, and the other-tab notice.
The worker's side of play by link (by_link/app.py) decides what to show; these draw it."""

from __future__ import annotations

from parlour.errors import ParlourError
from parlour.fair.encoding import Json
from parlour.fair.signing import Signed
from parlour.match.by_link import LinkPlay
from parlour.match.by_link.start import LIMITS
from parlour.match.by_link.timing import duration
from parlour.ui.online.screen import GAME_NAMES, copy_box
from parlour.ui.qr import qr_svg
from parlour.ui.tree import Node, h
from parlour.words import and_list

SCAN_PART = 700  # a part's length for a camera to read off a screen: a QR code of 81 modules


def links_to_send(play: LinkPlay, scan: bool) -> list[str]:
    """The links to send: in parts short enough to scan when chosen, unless that needs more
    parts than a link may have (then as a chat takes them)."""
    if scan:
        try:
            return play.links(limit=SCAN_PART)
        except ParlourError:
            pass
    return play.links()


def sending_tree(signing: bool) -> Node:
    """Where no link is shown: its signature on its way, or everything sent."""
    if signing:
        return h("p", {"class": "hint", "data-role": "bylink-signing"}, "Signing…")
    return h(
        "p",
        {"class": "hint", "data-role": "bylink-all-sent"},
        "You have sent everything from this device. ",
        h(
            "button",
            {"class": "button small", "data-cmd": "bylink-send", "type": "button"},
            "Show the link again",
        ),
    )


def send_tree(links: list[str], scan: bool = False) -> Node:
    """ "Send this link": Copy, Share (where the browser has it), a QR code, and what to do;
    and the choice of parts short enough to scan (`scan`: the links are such parts now). A
    whole link's code is up to 177 modules, which a phone's camera reads badly off a screen."""
    many = len(links) > 1
    items = []
    for i, link in enumerate(links):
        label = f"Link part {i + 1} of {len(links)}" if many else "The link to send"
        items.append(
            h(
                "div",
                {"class": "bylink-link"},
                h("p", {"class": "bylink-part", "aria-hidden": "true"}, label) if many else None,
                qr_or_word(link, f"QR code of link part {i + 1} of {len(links)}") if many else None,
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
            "Send every part to your group chat (or to each player), in any order: each player "
            "opens them all on their own device, and the game goes on there."
            if many
            else "Send it to your group chat (or to each player): each player opens it on their "
            "own device, and the game goes on there.",
        ),
        h(
            "div",
            {"class": "bylink-share bylink-parts" if many else "bylink-share"},
            qr_or_word(links[0]) if not many else None,
            h("div", None, *items, done),
        ),
        h(
            "p",
            {"class": "hint"},
            h(
                "button",
                {"class": "button small", "data-cmd": "bylink-scan", "type": "button"},
                "One link for a chat" if scan else "Smaller codes to scan",
            ),
            " Each part's code is easier to read with a phone's camera; send every part."
            if not scan
            else " Back to one link, or as few parts as a chat takes.",
        )
        if scan or max(len(link) for link in links) > SCAN_PART
        else None,
    )


def claim_tree(play: LinkPlay, at: float) -> Node | None:
    """Time per move: how long the seat the game waits on has left (for its move, its seed
    reveal at the start, or its seals at the end), and once it is up (and that seat is not
    ours) the button that claims the game."""
    if not play.limit:
        return None
    left = play.time_left(at)
    if left is None:
        said = f"Time per move: {duration(play.limit)}, counted from the first move."
        return None if play.match is not None else h("p", {"class": "hint"}, said)
    seat, seconds, what = left
    who = play.name(seat)
    if seat in play.local:
        said = (
            f"Time per move: {duration(play.limit)}. {who} has {duration(max(seconds, 0))} left "
            f"for this {what}; after that any other player may claim the game."
        )
    elif seconds > 0:
        said = (
            f"Time per move: {duration(play.limit)}. If {who}'s {what} has not come within "
            f"{duration(seconds)}, you can claim the game."
        )
    else:
        said = f"{who}'s time for their {what} is up: you can claim the game ({who} forfeits)."
    claimable = seconds <= 0 and seat not in play.local  # the one thing left to do: say it so
    return h(
        "div",
        {"class": "bylink-time" + (" claimable" if claimable else ""), "data-role": "bylink-time"},
        h("p", {"class": "bylink-claim-line" if claimable else "hint"}, said),
        h(
            "button",
            {"class": "button primary", "data-cmd": "bylink-claim", "type": "button"},
            "Claim the game",
        )
        if claimable
        else None,
    )


def qr_or_word(link: str, label: str = "QR code of the link") -> Node:
    """The link's QR code (level L, up to version 40: a whole link or part for a chat), or a
    word when it is too long for one (Copy and Share carry it)."""
    try:
        return qr_svg(link, label, "L")
    except ValueError:
        return h("p", {"class": "hint"}, "This link is too long for a QR code: copy or share it.")


def join_form(
    opened: Signed,
    records: tuple[Signed, ...],
    error: str,
    decks: list[tuple[str, str]],
    code: str = "",
    refused: bool = False,
    typed: tuple[int, str] = (-1, ""),
) -> Node:
    """A free seat and your name (and in ESPEERS your deck), for a device that opens an
    invite, as `typed` chose them when the name was refused; once the invite itself was
    refused (`refused`: `error` says why), the way back instead."""
    body = opened.body
    names = [str(n) for n in body.get("n", [])] if isinstance(body.get("n"), list) else []
    game = GAME_NAMES.get(str(body.get("g")), str(body.get("g")))
    if refused:
        return refused_join(game, names, error)
    # an invite is read here before its record's shape is checked (joining checks it and
    # refuses with a sentence): whatever it holds, the form is drawn
    listed = body.get("h")
    held: list[object] = [s for s in listed if type(s) is int] if isinstance(listed, list) else []
    joins = [r.body.get("s") for r in records if r.kind == "join"]
    taken = set(held) | {s for s in joins if type(s) is int}
    free = [s for s in range(len(names)) if s not in taken]
    given = body.get("b")
    chosen = given if isinstance(given, dict) else {}
    bots = [names[int(s)] for s in chosen if str(s).isdigit() and int(s) < len(names)]
    seat, name = typed
    typed_name = {"autocomplete": "off", "value": name or None}
    seats = [h("option", {"value": str(s), "selected": s == seat}, names[s]) for s in free]
    return h(
        "div",
        {"class": "bylink bylink-join", "data-role": "bylink-join"},
        h("h2", {"tabindex": "-1"}, f"Join a game of {game} by link"),
        h("p", None, f"Players: {and_list(list(names))}."),
        h(
            "p",
            {"class": "hint"},
            "Each turn is a link: after you join, and after each of your moves, this page gives "
            "you one to send to the group chat.",
        ),
        h("p", {"data-role": "bylink-terms"}, terms(body.get("l"))),
        invite_check(code, creator_name(names, held or [], bots)) if code else None,
        h("p", {"data-role": "bylink-held"}, held_by_device(names, held or [], bots))
        if len(held or []) > 1
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
            h("input", {"data-field": "bylink-name", "maxlength": "24", **typed_name}),
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


def refused_join(game: str, names: list[str], said: str) -> Node:
    """An invite that no seat or name can join (one from an older version of the page, say):
    why, and the way back to all games, with no form and no "Join the game" to press again."""
    return h(
        "div",
        {"class": "bylink bylink-join", "data-role": "bylink-refused"},
        h("h2", {"tabindex": "-1"}, f"You cannot join this game of {game}"),
        h("p", None, f"Players: {and_list(list(names))}."),
        h("p", {"class": "error", "role": "alert", "data-role": "bylink-error"}, said),
        h(
            "div",
            {"class": "actions"},
            h(
                "a",
                {"class": "button primary", "href": "#home", "data-autofocus": True},
                "All games",
            ),
        ),
    )


def terms(limit: object) -> str:
    """The time per move an invite sets, before anyone joins (part of the table code)."""
    if limit == 0:
        return "No time per move: nobody can win on time."
    if type(limit) is not int or limit not in LIMITS:
        return "This invite's time per move is not one this page offers: it cannot be joined."
    return (
        f"Time per move: {duration(limit)}, counted from when each move reaches its player; "
        "after that any other player may claim the game."
    )


def creator_name(names: list[str], held: list[object], bots: list[str]) -> str:
    """The person whose device made the invite: its first seat that is not a bot."""
    seats = [names[s] for s in held if type(s) is int and 0 <= s < len(names)]
    return next((n for n in seats if n not in bots), "the player who invited you")


def invite_check(code: str, creator: str, sent: bool = False, joined: bool = False) -> Node:
    """The invite's code, to compare with its creator's before joining (the table code binds
    every key and the start, so it exists only once everyone has joined): the same code means
    nobody changed the invite on its way (its key, seats, set-up or time per move)."""
    shown = h("strong", {"class": "code", "data-code": code}, code)
    if joined:
        said: tuple[Node | str, ...] = (
            "Invite code ",
            shown,
            f": the one to compare with {creator}'s; the table code comes once everyone has "
            "joined.",
        )
    elif sent:
        said = (
            "Invite code ",
            shown,
            ": whoever opens your invite sees it before joining. The same code on their "
            "screen means nobody changed your invite on the way.",
        )
    else:
        said = (
            f"Before you join, ask {creator} in your chat: “Is the invite code ",
            shown,
            "?” The same code means nobody changed this invite on its way to you.",
        )
    return h("p", {"class": "table-code", "data-role": "invite-code"}, *said)


def held_by_device(names: list[str], held: list[object], bots: list[str]) -> str:
    """Which seats one device plays besides its owner's (the creator's, on the join screen):
    whoever holds it could see those seats' secrets (a bot's cards, another person's)."""
    seats = [names[s] for s in held if type(s) is int and 0 <= s < len(names)]
    people = [n for n in seats if n not in bots]
    owner = people[0] if people else "The creator"
    others = people[1:]
    said = []
    if others:
        said.append(f"{owner}'s device also plays {and_list(others)}")
    if bots:
        plain = [b.removesuffix(" (bot)") for b in bots]
        lead = "and" if others else f"{owner}'s device plays"
        said.append(f"{lead} the bot{'s' if len(plain) > 1 else ''} {and_list(plain)}")
    return " ".join(said) + ": whoever holds it could see their secrets."


def disclosures(play: LinkPlay) -> list[Node]:
    """Each device that holds more than one seat, said on every screen of the game."""
    return [
        h(
            "p",
            {"class": "hint", "data-role": "bylink-held"},
            held_by_device(
                play.names, list(seats), [play.names[s] for s in seats if str(s) in play.bots]
            ),
        )
        for _, seats in sorted(play.held.items())
        if len(seats) > 1
    ]


def trust(play: LinkPlay, result: bool = False) -> Node | None:
    """The table code (every device's key, the start and the time per move), from the first
    step on; until the player says it was compared, a question to ask the chat before playing:
    a key swapped by whoever carried the first links shows as another code on the other side."""
    code = play.table_code()
    if code is None:
        invited = play.invite_code()
        if not invited:
            return None
        creator = play.name(min(play.held.get(play.creator, (0,)), default=0))
        return invite_check(invited, creator, sent=True, joined=play.me != play.creator)
    shown = h("strong", {"class": "code", "data-code": code}, code)
    if play.compared or result:
        return h(
            "p",
            {"class": "table-code", "data-role": "table-code"},
            "Table code ",
            shown,
            ": the same on every player's device, or someone changed a key on the way.",
        )
    return h(
        "div",
        {"class": "table-code compare", "data-role": "table-code"},
        h(
            "p",
            None,
            "Before you play, ask in your chat: “Everyone sees ",
            shown,
            "?” The same table code on every device means nobody swapped a key on the way.",
        ),
        h(
            "button",
            {"class": "button small", "data-cmd": "bylink-compared", "type": "button"},
            "Everyone sees the same code",
        ),
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


def your_games(lines: list[dict[str, Json]], now: float, removing: str | None = None) -> Node:
    """ "Your games" on the home screen: each game by link kept here, whose turn, the last
    link (`now`: the time of day); a finished one can be removed (`removing`: the one that
    asks "are you sure")."""
    if not lines:
        return h("div", {"class": "link-games", "hidden": True})
    rows = []
    for line in sorted(lines, key=lambda row: -float(str(row["last_link_at"]))):
        match_id = str(line["match"])
        game = GAME_NAMES.get(str(line["game"]), str(line["game"]))
        players = ", ".join(str(n) for n in line["players"] or [])
        turn = "Your turn." if line["my_turn"] else str(line["waiting"])
        at = float(str(line["last_link_at"]))
        rows.append(
            h(
                "li",
                {"data-match": match_id},
                h("a", {"href": f"#bylink={match_id}"}, f"{game}: {players}"),
                h(
                    "span",
                    {"class": "turn mine" if line["my_turn"] else "turn"},
                    f"{turn} Last link {last_link_words(at, now)}.",
                ),
                removal(match_id, removing == match_id) if line.get("over") else None,
            )
        )
    return h(
        "section",
        {"class": "link-games", "aria-labelledby": "link-games-title"},
        h("h2", {"id": "link-games-title"}, "Your games by link"),
        h("ul", {"data-role": "link-games"}, *rows),
    )


def removal(match_id: str, asking: bool) -> Node:
    """A finished game's "Remove", and once pressed, the question before it goes."""
    if not asking:
        return h(
            "button",
            {"class": "button small", "data-cmd": "bylink-remove", "data-match": match_id,
             "type": "button"},
            "Remove",
        )  # fmt: skip
    return h(
        "div",
        {"class": "bylink-confirm", "role": "group", "data-role": "bylink-remove-confirm"},
        h("p", None, "Remove this finished game from this browser? Its moves and check go too."),
        h(
            "div",
            {"class": "actions"},
            h(
                "button",
                {
                    "class": "button small",
                    "data-cmd": "bylink-remove-yes",
                    "data-match": match_id,
                    "type": "button",
                },
                "Remove it",
            ),
            h(
                "button",
                {"class": "button small", "data-cmd": "bylink-remove-no", "type": "button"},
                "Keep it",
            ),
        ),
    )


def elsewhere_tree() -> Node:
    """A tab whose game another tab of this browser took over: it lets go (two tabs signing
    one game would fork this device's own records) until the player takes it back."""
    return h(
        "div",
        {"class": "bylink", "data-role": "elsewhere"},
        h("h2", {"tabindex": "-1"}, "This game is open in another tab"),
        h(
            "p",
            {"class": "lede"},
            "The same game by link was opened in another tab or window of this browser, and it "
            "goes on there. This tab has let go of it, so the two never sign two different "
            "next moves.",
        ),
        h(
            "button",
            {"class": "button primary", "data-cmd": "bylink-take-over", "type": "button"},
            "Play it here instead",
        ),
    )


def last_link_words(at: float, now: float) -> str:
    """When the last link came, in words ("5 min ago")."""
    ago = max(0, int(now - at))
    if ago < 60:
        return "just now"
    if ago < 3600:
        return f"{ago // 60} min ago"
    if ago < 86400:
        return f"{ago // 3600} h ago"
    return f"{ago // 86400} days ago"
