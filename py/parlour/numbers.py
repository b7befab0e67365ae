"""The one way a number written as text becomes an int, for every layer (pure).

Why not `int(x)` after `x.isdigit()`: "²".isdigit() is true and int("²") raises; "٣" is a
digit too. Seats, steps, counts and choices arrive as text from peers, saves and the page:
only ASCII decimal digits, and not too many of them, are a number here.
"""

from __future__ import annotations

MAX_DIGITS = 9


def whole(text: object) -> int | None:
    """`text` as a whole number (ASCII digits only, at most nine of them), else None."""
    if isinstance(text, str) and 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def whole_or(text: object, default: int) -> int:
    found = whole(text)
    return default if found is None else found
