"""The one "?" beside a control: a sentence saying what the control does, for a newcomer.

Pure CSS shows it (hover, or focus: a tap or Tab on the "?" focuses it), so it needs no round
trip to the worker and works while the engines load. The control names it with
aria-describedby, so a screen reader reads the sentence with the control itself.
"""

from __future__ import annotations

from collections import Counter

from parlour.ui.tree import Node, h

# Every drawn screen stays in the page (hidden when another shows), and several draw the same
# controls (each game's Undo, a game and its lesson): a help sentence's id carries the screen
# drawing it (`begin`, called as a screen starts drawing), its key, and how many of that key
# the drawing held before it, so it is unique in the page and the same drawing gives the same
# ids. Counted by key, not across the screen: a "?" shown or gone above another leaves the
# other's id as it was, so a redraw does not rename every later one (issue 39: a card played
# in ESPEERS renamed each later "?", an attribute change on each).
_DRAWING: dict[str, str] = {"scope": "page"}
_NUMBERS: Counter[str] = Counter()


def begin(scope: str) -> None:
    """A screen called `scope` starts drawing: its help ids start at 1 again."""
    _DRAWING["scope"] = scope
    _NUMBERS.clear()


def help_id(key: str) -> str:
    """The next id for the help sentence of `key` in the screen being drawn."""
    name = "".join(c if c.isalnum() else "-" for c in key.lower())
    _NUMBERS[name] += 1
    return f"{_DRAWING['scope']}-help-{name}-{_NUMBERS[name]}"


def help_key(ident: str) -> str:
    """ "help-<key>" of a help id, without its screen and number (what tests look for)."""
    return ident[ident.index("help-") :].rsplit("-", 1)[0]


def help_tip(key: str, label: str, text: str, ident: str | None = None) -> Node:
    """A "?" button beside a control called `label`; `text` is one sentence about it."""
    ident = ident or help_id(key)
    return h(
        "span",
        {"class": "help"},
        h(
            "button",
            {
                "class": "help-button",
                "type": "button",
                "data-help": key,  # names the button, so a redraw gives its focus back
                "aria-label": f"About {label}",  # "About Undo", "About the sets"
                "aria-describedby": ident,
            },
            "?",
        ),
        h("span", {"class": "help-text", "role": "tooltip", "id": ident}, text),
    )


def with_help(control: Node, key: str, label: str, text: str) -> Node:
    """A control and its "?" together, kept on one line."""
    ident = help_id(key)
    described = control.attrs.get("aria-describedby", "")
    control.attrs["aria-describedby"] = f"{described} {ident}".strip()
    return h("span", {"class": "with-help"}, control, help_tip(key, label, text, ident))
