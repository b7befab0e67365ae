"""The ESPEERS deck builder (pure): 30 cards, at most 3 copies, saved in the browser.

The builder is a small state (the deck being built, the saved decks) with events in and a tree
out, like a play session; the browser layer only stores its JSON. Legality is the engine's own
`deck_problem`, so a deck the builder saves is a deck the game accepts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from parlour.games.espeers.cards import (
    CARDS,
    CYCLING,
    DECK_SIZE,
    MAX_COPIES,
    STARTER_DECKS,
    deck_list,
    deck_problem,
)
from parlour.games.espeers.words import KIND_WHEN, cycle_words
from parlour.match.config import clean_name
from parlour.ui.espeers.cards import card_face, card_label
from parlour.ui.tree import Node, fragment, h, s

MAX_SAVED = 40
KINDS = (
    ("PK", f"PK cards: attacks, {KIND_WHEN['PK']}"),
    ("Impulse", f"Impulse cards: answers, {KIND_WHEN['Impulse']}"),
)


def clean_counts(raw: object) -> dict[str, int]:
    """Counts from storage or a form: known cards only, whole numbers from 1 to 3."""
    if not isinstance(raw, dict):
        return {}
    return {
        card: n
        for card, n in raw.items()
        if card in CARDS and type(n) is int and 1 <= n <= MAX_COPIES
    }


def saved_decks(raw: object) -> dict[str, dict[str, int]]:
    """The playable saved decks from storage: anything damaged or illegal is left out."""
    decks = raw.get("decks") if isinstance(raw, dict) else None
    if not isinstance(decks, dict):
        return {}
    out = {}
    for name, counts in list(decks.items())[:MAX_SAVED]:
        clean = clean_counts(counts)
        if (
            isinstance(name, str)
            and name == clean_name(name, "")
            and not deck_problem(deck_list(clean))
        ):
            out[name] = clean
    return out


def deck_choices(saved: dict[str, dict[str, int]]) -> list[tuple[str, str]]:
    """The decks a new game can be played with: (value for the form, label)."""
    starters = [
        (f"starter:{deck_id}", f"{deck['name']} (starter)")
        for deck_id, deck in STARTER_DECKS.items()
    ]
    return starters + [(f"saved:{name}", name) for name in sorted(saved)]


def deck_options(saved: dict[str, dict[str, int]], chosen: str, default: str) -> Node:
    """A set-up form's deck <select> content: the starters and the saved decks, with the
    seat's choice kept if it is still there, else the seat's default."""
    choices = deck_choices(saved)
    keep = chosen if chosen in {v for v, _ in choices} else default
    return fragment(
        *(h("option", {"value": v, "selected": v == keep}, label) for v, label in choices)
    )


def resolve_choice(value: object, saved: dict[str, dict[str, int]]) -> str | dict[str, int] | None:
    """A form's deck choice as the set-up's variant wants it: a starter's id or card counts."""
    if not isinstance(value, str):
        return None
    kind, _, name = value.partition(":")
    if kind == "starter" and name in STARTER_DECKS:
        return name
    if kind == "saved" and name in saved:
        return dict(saved[name])
    return None


@dataclass
class DeckBuilder:
    saved: dict[str, dict[str, int]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    name: str = ""
    message: str = ""

    # -- persistence ---------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        return {"decks": self.saved, "draft": {"name": self.name, "counts": self.counts}}

    @classmethod
    def from_json(cls, raw: object) -> DeckBuilder:
        draft = raw.get("draft") if isinstance(raw, dict) else None
        draft = draft if isinstance(draft, dict) else {}
        name = clean_name(draft.get("name"), "")
        return cls(saved_decks(raw), clean_counts(draft.get("counts")), name)

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    # -- events --------------------------------------------------------------------------

    def handle(self, event: dict[str, Any]) -> None:
        """One click, read from the DOM as plain strings; anything odd just gets a sentence."""
        self.message = ""
        cmd, card = event.get("cmd"), event.get("card")
        raw_fields = event.get("fields")
        fields = raw_fields if isinstance(raw_fields, dict) else {}
        if "deck-name" in fields:
            self.name = clean_name(fields["deck-name"], "")
        if cmd in ("add", "remove") and card in CARDS:
            self._change(card, 1 if cmd == "add" else -1)
        elif cmd == "start-from":
            self._start_from(event.get("name"))
        elif cmd == "save":
            self._save()
        elif cmd == "edit" and event.get("name") in self.saved:
            self.name = event["name"]
            self.counts = dict(self.saved[self.name])
            self.message = f"Editing “{self.name}”. Save to keep your changes."
        elif cmd == "delete" and event.get("name") in self.saved:
            del self.saved[event["name"]]
            self.message = f"Deleted “{event['name']}”."
        elif cmd is not None and cmd not in ("add", "remove"):
            self.message = "That does nothing here."

    def _change(self, card: str, step: int) -> None:
        have = self.counts.get(card, 0)
        if step > 0 and have >= MAX_COPIES:
            self.message = f"A deck holds at most {MAX_COPIES} copies of {CARDS[card].name}."
            return
        if step > 0 and self.size >= DECK_SIZE:
            self.message = f"The deck already has {DECK_SIZE} cards: take one out first."
            return
        if step < 0 and have == 0:
            return
        if have + step:
            self.counts[card] = have + step
        else:
            self.counts.pop(card, None)

    def _start_from(self, choice: object) -> None:
        if choice in STARTER_DECKS:
            self.counts = dict(STARTER_DECKS[choice]["cards"])
            self.name = f"My {STARTER_DECKS[choice]['name']}"
            self.message = f"Started from {STARTER_DECKS[choice]['name']}. Change it and save."
        else:
            self.counts, self.name = {}, ""
            self.message = f"An empty deck: add {DECK_SIZE} cards."

    def _save(self) -> None:
        problem = deck_problem(deck_list(self.counts))
        if problem:
            self.message = f"Not saved: {problem}"
        elif not self.name:
            self.message = "Not saved: give the deck a name."
        elif self.name not in self.saved and len(self.saved) >= MAX_SAVED:
            self.message = f"Not saved: this browser keeps up to {MAX_SAVED} decks."
        else:
            self.saved[self.name] = dict(self.counts)
            self.message = f"Saved “{self.name}”. Choose it when you set up a new game."

    # -- drawing -------------------------------------------------------------------------

    def render(self) -> Node:
        return h(
            "div",
            {"class": "deck-builder"},
            h("p", {"class": "message", "role": "status", "aria-live": "polite"}, self.message),
            h(
                "div",
                {"class": "builder-main"},
                h(
                    "div",
                    {"class": "card-pool"},
                    self._bar(),
                    *(self._kind(kind, title) for kind, title in KINDS),
                ),
                h("aside", {"class": "side"}, self._summary(), self._starters(), self._saved()),
            ),
        )

    def _bar(self) -> Node:
        """The deck's count, always in sight on a narrow screen while cards are added."""
        return h(
            "div",
            {"class": "builder-bar", "aria-hidden": "true"},
            h("strong", None, f"{self.size} / {DECK_SIZE}"),
            h("span", None, self.name or "Unnamed deck"),
        )

    def _kind(self, kind: str, title: str) -> Node:
        tiles = [self._tile(card) for card, info in CARDS.items() if info.kind == kind]
        return h(
            "section",
            {"class": "pool-kind", "aria-label": title},
            h("h3", None, title),
            h("ul", {"class": "pool-cards"}, *tiles),
        )

    def _tile(self, card: str) -> Node:
        n = self.counts.get(card, 0)
        name = CARDS[card].name
        return h(
            "li",
            {"class": "pool-card" + (" in-deck" if n else ""), "data-card": card},
            h("div", {"class": "pool-art", "title": card_label(card)}, card_face(card)),
            h(
                "div",
                {"class": "counter", "role": "group", "aria-label": f"{name}: {n} in the deck"},
                h(
                    "button",
                    {
                        "class": "button small",
                        "data-cmd": "remove",
                        "data-card": card,
                        "type": "button",
                        "aria-label": f"One {name} fewer",
                        "disabled": n == 0,
                    },
                    "−",
                ),
                h("span", {"class": "count", "data-role": "count"}, f"{n}/{MAX_COPIES}"),
                h(
                    "button",
                    {
                        "class": "button small",
                        "data-cmd": "add",
                        "data-card": card,
                        "type": "button",
                        "aria-label": f"One more {name}",
                        "disabled": n >= MAX_COPIES,
                    },
                    "+",
                ),
            ),
        )

    def _summary(self) -> Node:
        size = self.size
        problem = deck_problem(deck_list(self.counts))
        state = (
            "Ready to play."
            if not problem
            else (f"{DECK_SIZE - size} more to go." if size < DECK_SIZE else problem)
        )
        listed = [
            h("li", None, h("span", {"class": "n"}, f"{n}×"), CARDS[card].name)
            for card, n in sorted(self.counts.items(), key=lambda kv: (CARDS[kv[0]].cost, kv[0]))
        ]
        return h(
            "section",
            {"class": "controls deck-summary", "aria-label": "Your deck"},
            h("h3", None, "Your deck"),
            h(
                "label",
                {"class": "field"},
                h("span", None, "Name"),
                h(
                    "input",
                    {
                        "data-field": "deck-name",
                        "value": self.name,
                        "maxlength": "24",
                        "autocomplete": "off",
                        "placeholder": "e.g. Storm Front",
                    },
                ),
            ),
            h(
                "p",
                {
                    "class": "deck-size" + (" ready" if not problem else ""),
                    "data-role": "deck-size",
                },
                h("strong", None, f"{size} / {DECK_SIZE}"),
                f" cards · {state}",
            ),
            cost_curve(self.counts),
            h("p", {"class": "hint"}, mix_words(self.counts)),
            h("ol", {"class": "deck-list", "data-role": "deck-list"}, *listed) if listed else None,
            h(
                "div",
                {"class": "choice"},
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "save", "type": "button"},
                    "Save deck",
                ),
                h(
                    "button",
                    {
                        "class": "button",
                        "data-cmd": "start-from",
                        "data-name": "empty",
                        "type": "button",
                    },
                    "Clear",
                ),
            ),
        )

    def _starters(self) -> Node:
        buttons = [
            h(
                "li",
                None,
                h(
                    "button",
                    {
                        "class": "button small",
                        "data-cmd": "start-from",
                        "data-name": deck_id,
                        "type": "button",
                    },
                    f"Start from {deck['name']}",
                ),
                h("span", {"class": "hint"}, deck["character"]),
            )
            for deck_id, deck in STARTER_DECKS.items()
        ]
        return h(
            "section",
            {"class": "controls", "aria-label": "Starter decks"},
            h("h3", None, "Starter decks"),
            h("ul", {"class": "plain"}, *buttons),
        )

    def _saved(self) -> Node:
        rows = [
            h(
                "li",
                None,
                h("strong", None, name),
                h(
                    "span",
                    {"class": "row-actions"},
                    h(
                        "button",
                        {
                            "class": "button small",
                            "data-cmd": "edit",
                            "data-name": name,
                            "type": "button",
                        },
                        "Edit",
                    ),
                    h(
                        "button",
                        {
                            "class": "button small",
                            "data-cmd": "delete",
                            "data-name": name,
                            "type": "button",
                        },
                        "Delete",
                    ),
                ),
            )
            for name in sorted(self.saved)
        ]
        return h(
            "section",
            {"class": "controls", "aria-label": "Saved decks"},
            h("h3", None, "Saved in this browser"),
            h("ul", {"class": "saved-decks plain", "data-role": "saved"}, *rows)
            if rows
            else h("p", {"class": "hint"}, "No saved decks yet."),
            h("a", {"class": "button", "href": "#new-espeers"}, "Play a game"),
        )


def cost_curve(counts: dict[str, int]) -> Node:
    """Cards by PSI cost as bars: the shape a deck's turns will have."""
    by_cost: Counter[int] = Counter()
    for card, n in counts.items():
        by_cost[CARDS[card].cost] += n
    top = max(CARDS[c].cost for c in CARDS)
    tallest = max(by_cost.values(), default=0) or 1
    bars = []
    for cost in range(top + 1):
        n = by_cost[cost]
        height = 54 * n / tallest
        x = 8 + cost * 34
        bars += [
            s(
                "rect",
                {
                    "class": "bar",
                    "x": x,
                    "y": f"{70 - height:.1f}",
                    "width": "26",
                    "height": f"{height:.1f}",
                    "rx": "3",
                },
            ),
            s(
                "text",
                {"class": "bar-n", "x": x + 13, "y": f"{66 - height:.1f}", "text-anchor": "middle"},
                str(n) if n else "",
            ),
            s(
                "text",
                {"class": "bar-cost", "x": x + 13, "y": "86", "text-anchor": "middle"},
                str(cost),
            ),
        ]
    words = ", ".join(f"{by_cost[c]} at {c}" for c in range(top + 1) if by_cost[c])
    return h(
        "figure",
        {"class": "cost-curve"},
        s(
            "svg",
            {
                "viewBox": f"0 0 {16 + (top + 1) * 34} 92",
                "role": "img",
                "aria-label": f"Cost curve: {words or 'no cards yet'}",
            },
            s(
                "line",
                {
                    "class": "base",
                    "x1": "4",
                    "x2": str(12 + (top + 1) * 34),
                    "y1": "70.5",
                    "y2": "70.5",
                },
            ),
            *bars,
        ),
        h("figcaption", {"class": "hint"}, "Cards by PSI cost"),
    )


def mix_words(counts: dict[str, int]) -> str:
    """The deck's kinds and the cycling its symbols give, in one line."""
    kinds: Counter[str] = Counter()
    cycling: Counter[str] = Counter()
    for card, n in counts.items():
        kinds[CARDS[card].kind] += n
        ability = CYCLING[CARDS[card].symbol]
        cycling["nothing" if ability is None else cycle_words(card)] += n
    if not counts:
        return "Add cards from the pool: + and − beside each card."
    cyc = ", ".join(f"{n} {what}" for what, n in sorted(cycling.items()))
    return f"{kinds['PK']} PK, {kinds['Impulse']} Impulse · cycling: {cyc}."
