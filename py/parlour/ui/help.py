"""The one "?" beside a control: a sentence saying what the control does, for a newcomer.

Pure CSS shows it (hover, or focus: a tap or Tab on the "?" focuses it), so it needs no round
trip to the worker and works while the engines load. The control names it with
aria-describedby, so a screen reader reads the sentence with the control itself.
"""

from __future__ import annotations

from parlour.ui.tree import Node, h


def help_id(key: str) -> str:
    """The id of a help sentence: a control points at it with aria-describedby."""
    return "help-" + "".join(c if c.isalnum() else "-" for c in key.lower())


def help_tip(key: str, label: str, text: str) -> Node:
    """A "?" button beside a control called `label`; `text` is one sentence about it."""
    ident = help_id(key)
    return h(
        "span",
        {"class": "help", "data-help": key},
        h(
            "button",
            {
                "class": "help-button",
                "type": "button",
                "aria-label": f"What does {label} do?",
                "aria-describedby": ident,
            },
            "?",
        ),
        h("span", {"class": "help-text", "role": "tooltip", "id": ident}, text),
    )


def with_help(control: Node, key: str, label: str, text: str) -> Node:
    """A control and its "?" together, kept on one line."""
    control.attrs.setdefault("aria-describedby", help_id(key))
    return h("span", {"class": "with-help"}, control, help_tip(key, label, text))
