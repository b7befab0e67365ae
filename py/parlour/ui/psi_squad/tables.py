"""Psi Squad's tables: every cypher's standing, the history of guesses and answers (the newest
rows, with the last guess marked), and one target's history beside the guess being typed."""

from __future__ import annotations

from parlour.games.psi_squad.views import PsiPublicView
from parlour.ui.tree import Node, h
from parlour.ui.widgets import earlier_words

# The guesses table's rows: the newest guesses, more than a real game makes (a forged replay may
# hold thousands: drawing them all froze the page, issue 25).
HISTORY_ROWS = 100
# The guesses table's columns: (full header, short header for a phone or None).
HISTORY_HEAD = (
    ("Guess", None),
    ("Correct", "C"),
    ("Spotted", "S"),
    ("Value", "V"),
    ("Change", "±"),
)


def signed(change: int) -> str:
    """A change of value with its sign: +2, -1, 0."""
    return f"+{change}" if change > 0 else str(change)


def status_table(view: PsiPublicView, target: int | None = None) -> Node:
    rows = []
    for seat, info in enumerate(view["seats"]):
        state = "guessed" if info["guessed"] else "unguessed"
        rows.append(
            h(
                "tr",
                {
                    "class": f"seat-{seat % 4} {state}" + (" last" if seat == target else ""),
                    "data-seat": seat,
                },
                h(
                    "th",
                    {"scope": "row"},
                    info["name"],
                    h("span", {"class": "last-tag"}, "last guess") if seat == target else None,
                ),
                h("td", {"data-role": "status"}, str(info["status"])),
                h("td", {"data-role": "value"}, str(info["value"])),
                h("td", None, "✓ guessed" if info["guessed"] else "—"),
            )
        )
    return h(
        "table",
        {"class": "psi-board", "aria-label": "Status board"},
        h(
            "caption",
            None,
            f"Status board · cyphers of {view['length']} digits · Max {view['max']}",
        ),
        h(
            "thead",
            None,
            h(
                "tr",
                None,
                h("th", {"scope": "col"}, "Player"),
                h("th", {"scope": "col"}, "Status"),
                header_cell("Cypher Value", "Value"),
                h("th", {"scope": "col"}, "Cypher"),
            ),
        ),
        h("tbody", None, *rows),
    )


def history_table(view: PsiPublicView, last_step: int | None = None) -> Node:
    """Every guess, newest first: the newest `HISTORY_ROWS`, and how many more there are.
    On a phone (CSS, max-width 30rem) the guesser and target share one column ("Bo → Ada")
    and the number columns get one-letter headers, so the table fits 360 px without
    scrolling sideways; the full headers stay for screen readers."""
    names = [s["name"] for s in view["seats"]]
    history = view["history"]
    shown = history[-HISTORY_ROWS:]
    earlier = len(history) - len(shown)
    rows = [
        h(
            "tr",
            {"data-step": r["step"], **({"class": "last"} if r["step"] == last_step else {})},
            h("td", {"class": "wide"}, names[r["guesser"]]),
            h("td", {"class": "wide"}, names[r["target"]]),
            h("td", {"class": "narrow who"}, f"{names[r['guesser']]} → {names[r['target']]}"),
            h(
                "td",
                {"class": "digits"},
                r["digits"],
                h("span", {"class": "last-tag"}, " last") if r["step"] == last_step else None,
            ),
            h("td", {"data-col": "correct"}, str(r["correct"])),
            h("td", {"data-col": "spotted"}, str(r["spotted"])),
            h("td", {"data-col": "value"}, str(r["value"])),
            h("td", {"class": "change", "data-col": "change"}, signed(r["change"])),
        )
        for r in reversed(shown)
    ]
    head = [
        h("th", {"scope": "col", "class": "wide"}, "Guesser"),
        h("th", {"scope": "col", "class": "wide"}, "Target"),
        h("th", {"scope": "col", "class": "narrow who"}, "Guesser → Target"),
        *(header_cell(full, short) for full, short in HISTORY_HEAD),
    ]
    return h(
        "div",
        # it scrolls on a phone: Tab reaches it, and a reader hears what it is
        {
            "class": "history-wrap",
            "tabindex": "0",
            "role": "region",
            "aria-label": "Guesses, newest first",
        },
        h(
            "table",
            {"class": "psi-history", "aria-label": "Every guess and answer, newest first"},
            h(
                "caption",
                None,
                "Guesses, newest first",
                h(
                    "span",
                    {"class": "narrow key", "aria-hidden": "true"},
                    " · C correct, S spotted, V Value, ± change",
                ),
            ),
            h("thead", None, h("tr", None, *head)),
            h("tbody", {"data-role": "history"}, *rows),
        )
        if rows
        else h("p", {"class": "hint"}, "No guesses yet."),
        h(
            "p",
            {"class": "hint", "data-role": "history-earlier"},
            earlier_words(earlier, "guess", "guesses"),
        )
        if earlier
        else None,
    )


def header_cell(full: str, short: str | None) -> Node:
    """A column header; with a short form, both are there and the CSS shows one per width
    (the full word stays readable to screen readers, the letter is for the eye only)."""
    if short is None:
        return h("th", {"scope": "col"}, full)
    return h(
        "th",
        {"scope": "col", "title": full, "abbr": full},
        h("span", {"class": "long"}, full),
        h("span", {"class": "short", "aria-hidden": "true"}, short),
    )


def target_history(view: PsiPublicView, target: int | None) -> Node:
    """The chosen target's guesses, newest first, beside the pad: what a guess is deduced
    from, in view while it is typed (the whole table is on the sheet)."""
    if target is None:
        return h(
            "p",
            {"class": "hint target-history", "data-role": "target-history"},
            "Choose whose cypher: the guesses at it show here.",
        )
    name = view["seats"][target]["name"]
    records = [r for r in view["history"] if r["target"] == target][-HISTORY_ROWS:]
    if not records:
        return h(
            "p",
            {"class": "hint target-history", "data-role": "target-history"},
            f"No guesses at {name} yet.",
        )
    rows = [
        h(
            "tr",
            {"data-step": r["step"]},
            h("td", {"class": "digits"}, r["digits"]),
            h("td", None, str(r["correct"])),
            h("td", None, str(r["spotted"])),
            h("td", None, str(r["value"])),
        )
        for r in reversed(records)
    ]
    head = [header_cell(full, short) for full, short in HISTORY_HEAD[:4]]
    return h(
        "div",
        {
            "class": "target-history",
            "data-role": "target-history",
            "tabindex": "0",
            "role": "region",
            "aria-label": f"Guesses at {name}, newest first",
        },
        h(
            "table",
            {"class": "psi-history"},
            h("caption", None, f"At {name}"),
            h("thead", None, h("tr", None, *head)),
            h("tbody", None, *rows),
        ),
    )
