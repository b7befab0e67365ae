"""Psi Squad's deduction grid (pure): a seat's private notes on the other seats' cyphers.

A seat's notes (`PlaySession.notes_of(seat)`, saved with the game) hold one grid per other seat,
under that seat's number as a string ("2" -> {"pos:digit": mark}), and under NOTES_TARGET whose
grid is on screen. psi_squad/screen.py turns the grid's clicks into changes of the notes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parlour.games.psi_squad.views import PsiPublicView
from parlour.ui.help import help_tip
from parlour.ui.tree import Node, h
from parlour.words import possessive

# A note cycles: blank -> ruled out -> possible -> certain -> blank.
NOTE_CYCLE = ("", "out", "maybe", "sure")
NOTE_SIGN = {"": "", "out": "✕", "maybe": "?", "sure": "✓"}
NOTE_WORD = {"": "no note", "out": "ruled out", "maybe": "possible", "sure": "certain"}
NOTES_TARGET = "target"  # in a seat's notes: the seat whose cypher its notes grid is about


def notes_target(
    notes: Mapping[str, object], view_seats: Sequence[Mapping[str, object]], me: int
) -> int | None:
    """Whose cypher the viewer's notes grid is about: the seat chosen in the notes panel
    (kept in the viewer's notes, so it survives moves and reloads), else the first other
    seat still unguessed, else the first other seat."""
    others = [s for s in range(len(view_seats)) if s != me]
    chosen = notes.get(NOTES_TARGET)
    if isinstance(chosen, int) and not isinstance(chosen, bool) and chosen in others:
        return chosen
    open_ = [s for s in others if not view_seats[s]["guessed"]]
    return (open_ or others)[0] if open_ or others else None


def notes_tree(notes: Mapping[str, object], view: PsiPublicView, viewer: int) -> Node | None:
    """The viewer's deduction grid on one other seat's cypher, and the buttons that choose
    whose: drawn from the viewer's own notes, shown in that seat's view only."""
    target = notes_target(notes, view["seats"], viewer)
    if target is None:
        return None
    grid = notes.get(str(target), {})
    if not isinstance(grid, dict):
        grid = {}
    name = view["seats"][target]["name"]
    chooser = h(
        "div",
        {"class": "notes-for-row"},
        h(
            "p",
            {"class": "hint"},
            "Notes on:",
            help_tip(
                "psi-notes-for",
                "the notes' players",
                "Shows your notes on another player's cypher; each cypher keeps its own notes.",
            ),
        ),
        h(
            "div",
            {
                "class": "choice notes-for",
                "role": "group",
                "aria-label": "Notes on whose cypher",
                "data-roving": "notes-for",
            },
            *(
                h(
                    "button",
                    {
                        "class": "button small",
                        "data-cmd": "notes-target",
                        "data-seat": str(s),
                        "data-name": info["name"],
                        "aria-pressed": "true" if s == target else "false",
                        "tabindex": "0" if s == target else "-1",
                        "type": "button",
                    },
                    info["name"],
                )
                for s, info in enumerate(view["seats"])
                if s != viewer
            ),
        ),
    )
    head = h("tr", None, h("th", None, ""), *(h("th", {"scope": "col"}, str(d)) for d in range(10)))
    rows = []
    for pos in range(view["length"]):
        cells = []
        for d in range(10):
            mark = grid.get(f"{pos}:{d}", "")
            mark = mark if mark in NOTE_SIGN else ""
            cells.append(
                h(
                    "td",
                    None,
                    h(
                        "button",
                        {
                            "class": f"note {mark}".strip(),
                            "data-cmd": "note",
                            "data-note": f"{pos}:{d}",
                            "data-name": f"{pos}:{d}",
                            "type": "button",
                            "aria-label": f"position {pos + 1}, digit {d}: {NOTE_WORD[mark]}",
                        },
                        NOTE_SIGN[mark],
                    ),
                )
            )
        rows.append(h("tr", None, h("th", {"scope": "row"}, f"#{pos + 1}"), *cells))
    return h(
        "section",
        {
            "class": "controls notes",
            "data-role": "notes",
            "data-target": str(target),
            "aria-label": f"Your notes on {possessive(name)} cypher",
        },
        h(
            "h3",
            None,
            f"Notes on {possessive(name)} cypher",
            help_tip(
                "psi-notes",
                "the notes",
                "A square per position and digit: each press cycles ruled out, possible, "
                "certain, blank; only you see your notes.",
            ),
        ),
        chooser,
        h(
            "div",
            {"class": "notes-wrap"},
            h(
                "table",
                {"class": "notes-grid"},
                h("thead", None, head),
                h("tbody", None, *rows),
            ),
        ),
        h(
            "p",
            {"class": "hint"},
            "Tap a square: ✕ ruled out, ? possible, ✓ certain. Only you see these notes.",
        ),
    )
