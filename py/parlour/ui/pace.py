"""How long a bot waits before its move: the player's "Quick bots" choice, kept in the browser.

A bot's move is asked for after a pause, so a person sees each move land before the next one
(`BOT_PAUSE_MS`). A player who knows the game may want less of it: "Quick bots", under the
players of a game against bots, shortens every bot's pause, in every game and lesson, and the
choice is kept for the next visit (`PACE_KEY` in localStorage; refused storage keeps it for the
visit only). The browser tests play with it on: the waiting is the person's, not the test's.
"""

from __future__ import annotations

from parlour.ui.help import with_help
from parlour.ui.page import Storage
from parlour.ui.screens import BOT_PAUSE_MS
from parlour.ui.tree import Node, h

PACE_KEY = "psi-parlour:quick-bots"  # "1": Quick bots on
QUICK_BOT_PAUSE_MS = 80  # long enough for the page to draw the move before the next


def quick(storage: Storage) -> bool:
    return storage.get(PACE_KEY) == "1"


def bot_pause(storage: Storage) -> int:
    """The pause before a bot's move, in milliseconds, as the player chose."""
    return QUICK_BOT_PAUSE_MS if quick(storage) else BOT_PAUSE_MS


def toggle(storage: Storage) -> None:
    storage.set(PACE_KEY, None if quick(storage) else "1")


def pace_tool(on: bool) -> Node:
    """The toggle under the players, pressed while Quick bots is on."""
    button = h(
        "button",
        {
            "class": "button small toggle",
            "data-cmd": "quick-bots",
            "type": "button",
            "aria-pressed": "true" if on else "false",
        },
        "Quick bots",
    )
    return with_help(
        button,
        "quick-bots",
        "Quick bots",
        "Bots move almost at once instead of pausing so you can follow; kept for your next games.",
    )
