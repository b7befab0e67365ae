"""Where the other players are, in the online set-up: "On the same network" (no STUN server: a
LAN needs no internet at all) or "Across the internet" (public STUN servers, named here once,
which tell each device its address as the internet sees it). A player may name their own STUN
servers instead. The choice and the servers typed are remembered in the browser; the form is
drawn from them whenever a set-up screen opens, and the build writes its default into index.html
(scripts/pages.py), so the form is there before Python.
"""

from __future__ import annotations

from typing import Protocol

from parlour.errors import MalformedInput
from parlour.net.sdp import stun_servers
from parlour.ui.page import Effects
from parlour.ui.tree import Node, h

# The public STUN servers "Across the internet" uses: at least two operators, so one being down
# is not the end. Each is only asked "what is my address?".
PUBLIC_STUN: tuple[tuple[str, str], ...] = (
    ("Google", "stun.l.google.com:19302"),
    ("Cloudflare", "stun.cloudflare.com:3478"),
)
SAME, INTERNET = "local", "internet"
NETWORK = "psi-parlour:network"  # the choice last made: SAME or INTERNET
STUN = "psi-parlour:stun"  # the player's own STUN servers, as typed (checked)
# Servers that stand in for the public ones (the browser tests' own STUN server, in network
# namespaces of their own: e2e/test_nat.py); nothing of the page writes it.
PUBLIC_STAND_IN = "psi-parlour:public-stun"


class Stored(Protocol):
    def get(self, key: str) -> str | None: ...


def operators() -> str:
    """ "Google's and Cloudflare's", from the list."""
    names = [f"{name}'s" for name, _ in PUBLIC_STUN]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


WHO_SEES = (
    "Across the internet, each device asks public STUN servers ("
    + operators()
    + ") for its own address as the internet sees it: those servers see each device's "
    "network address and nothing of the game."
)


def _checked(raw: str | None) -> list[str]:
    try:
        return stun_servers(raw.split(",")) if raw else []
    except MalformedInput:  # saved by an older page that did not check
        return []


def public_servers(storage: Stored) -> list[str]:
    """The public STUN servers (or the ones a test put in their place)."""
    stand_in = _checked(storage.get(PUBLIC_STAND_IN))
    return stand_in or [server for _, server in PUBLIC_STUN]


def remembered(storage: Stored) -> tuple[str, str]:
    """The choice and the player's own servers, as last used in this browser (a browser that
    only ever named its own servers, before the choice existed, was playing across the
    internet)."""
    own = storage.get(STUN) or ""
    choice = storage.get(NETWORK)
    if choice not in (SAME, INTERNET):
        choice = INTERNET if _checked(own) else SAME
    return choice, own


def servers(choice: str, own: list[str], public: list[str]) -> list[str]:
    """The STUN servers a choice means: none on the same network; across the internet, the
    player's own if they named any, else the public ones."""
    if choice != INTERNET:
        return []
    return own or public


def servers_stored(storage: Stored) -> list[str]:
    """The STUN servers this browser's remembered choice means."""
    choice, own = remembered(storage)
    return servers(choice, _checked(own), public_servers(storage))


def choice_tree(game_id: str, choice: str = SAME, own: str = "") -> Node:
    """The online set-up's network part: the choice, what it means, the experts' field."""
    name = f"{game_id}-network"

    def radio(value: str, label: str) -> Node:
        return h(
            "label",
            None,
            h(
                "input",
                {
                    "type": "radio",
                    "name": name,
                    "value": value,
                    "data-network": value,
                    "checked": choice == value,
                },
            ),
            f" {label}",
        )

    return h(
        "fieldset",
        {"class": "network"},
        h("legend", None, "Where are the other players?"),
        radio(SAME, "On the same network (the same Wi-Fi or LAN; no internet needed)"),
        radio(INTERNET, "Across the internet"),
        h("p", {"class": "hint"}, WHO_SEES),
        h(
            "label",
            {"class": "field"},
            h(
                "span",
                None,
                "Across the internet, your own STUN servers instead (for experts; optional, "
                "comma separated)",
            ),
            h(
                "input",
                {
                    "data-stun": "",
                    "value": own,
                    "placeholder": "stun.example.org:3478",
                    "autocomplete": "off",
                    "spellcheck": "false",
                },
            ),
        ),
    )


def draw_choice(storage: Stored, effects: Effects, game_id: str) -> None:
    """A set-up screen opens: its network part as this browser last chose it."""
    choice, own = remembered(storage)
    effects.draw(f"#new-{game_id} [data-role=network]", choice_tree(game_id, choice, own))
