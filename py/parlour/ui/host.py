"""What the parts of the app made on first use (the lessons, the replay viewer, online play,
play by link) may ask of the app: this call's effects, the page's address, storage, a new
address. The app (app.py) hands itself to each; none of them imports it, so no import goes back
up to the app (tests/test_layers.py checks there is no circle)."""

from __future__ import annotations

from typing import Protocol

from parlour.ui.page import Effects, Storage


class Host(Protocol):
    """The app, as a part of it sees it."""

    storage: Storage
    href: str  # the page's address: a link to share starts with it

    @property
    def effects(self) -> Effects:
        """What this call answers the page (drawings, storage writes, focus, timers)."""
        ...

    def go(self, hash_: str) -> None:
        """Replace the address; the page then routes."""
        ...
