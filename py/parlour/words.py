"""English for lists, for every layer (pure): the one way "Ada, Bo and Cy" is written."""

from __future__ import annotations


def and_list(parts: list[str]) -> str:
    """`parts` as one phrase: "a", "a and b", "a, b and c" ("" for none)."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
