"""The app's start-up in the page: wire the screens, then tell the page Python is ready."""

from __future__ import annotations

from pyscript import document


def start() -> None:
    """Take over the page. Kept light: nothing heavy runs at start-up."""
    document.documentElement.dataset.ready = "true"
