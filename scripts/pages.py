"""Write the parts of index.html that come from the games' set-up declarations.

The set-up forms and the rules pages' option tables are plain HTML, so the page works before
any Python starts; but what they offer is declared once, as data, in games/<game>/options.py.
This module renders that data into index.html between marker comments:

    <!-- generated: setup-form esp -->  ...  <!-- end generated -->

and leaves everything else untouched. The build runs it (`python -m scripts.build`, so `make
serve` and `make test` do), `python -m scripts.pages` runs it alone, and a unit test checks that
index.html is as the declarations say.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "index.html"
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))  # the build runs as `python -m scripts.build`

from parlour.games.options import (  # noqa: E402
    GAME_IDS,
    SEAT_KINDS,
    Choice,
    Option,
    Options,
    options_for,
)
from parlour.match.config import MAX_NAME as NAME_LIMIT  # noqa: E402

BOT_HINT = (
    "Any seat can be a bot: choose its level beside the name. Alone? Make every other seat a bot"
    " and there is no hand-off at all. A hard bot thinks longest, up to about 3 seconds a move."
)
MARK = re.compile(
    r"(?P<indent>[ \t]*)<!-- generated: (?P<what>[a-z-]+) (?P<game>[a-z-]+) -->\n"
    r".*?"
    r"(?P=indent)<!-- end generated -->",
    re.S,
)


def declarations() -> dict[str, Options]:
    """Every game's set-up declaration, by game id."""
    return {game_id: options_for(game_id) for game_id in GAME_IDS}


# -- the set-up form ------------------------------------------------------------------------


def _radio(name: str, value: object, label: str, checked: bool, data: str = "") -> str:
    tick = " checked" if checked else ""
    return (
        f'<label><input type="radio" name="{name}"{data} value="{escape(str(value))}"{tick}>'
        f" {escape(label)}</label>"
    )


def _fieldset(legend: str, rows: list[str], css: str = "seat-count") -> list[str]:
    return (
        [f'<fieldset class="{css}">', f"  <legend>{escape(legend)}</legend>"]
        + [f"  {row}" for row in rows]
        + ["</fieldset>"]
    )


def _seat_count(options: Options) -> list[str]:
    seats = options.seats
    if len(seats.counts) < 2 or seats.counted_by is not None:
        return []
    name = f"{options.game}-seats"
    rows = [_radio(name, n, str(n), n == seats.default) for n in seats.counts]
    return _fieldset("Players", rows)


def _option(options: Options, option: Option) -> list[str]:
    if not option.choices:
        return []  # a value per seat or the game's own: beside each seat's name
    name = f"{options.game}-{option.key}"
    rows = []
    for choice in option.choices:
        data = f' data-variant="{option.key}"'
        if choice.seats is not None:
            data += f' data-seats="{choice.seats}"'
        rows.append(_radio(name, choice.value, choice.label, choice.value == option.default, data))
    css = "seat-count" if option.only_with is None else f"seat-count {option.only_with[1]}-only"
    return _fieldset(option.legend, rows, css)


def _select(attrs: str, choices: list[tuple[str, str]], chosen: str) -> str:
    shown = "".join(
        f'<option value="{escape(v)}"{" selected" if v == chosen else ""}>{escape(label)}</option>'
        for v, label in choices
    )
    return f"<select {attrs}>{shown}</select>"


def _seat_name(options: Options, seat: int) -> str:
    seats = options.seats
    name = escape(seats.placeholder(seat))
    kinds = [(k.value, k.label) for k in SEAT_KINDS]
    parts = [
        f'<span class="colour">{escape(seats.label(seat))}</span>',
        f'<input data-seat-name="{seat}" placeholder="{name}" maxlength="{NAME_LIMIT}"'
        ' autocomplete="off">',
        _select(
            f'data-seat-kind="{seat}" aria-label="{name}: a person or a bot"',
            kinds,
            SEAT_KINDS[0].value,
        ),
    ]
    css = "seat-name"
    for option in options.options:
        if option.per_seat:
            css += " deck-seat"
            chosen = str(option.seat_defaults[seat])
            parts.append(
                _select(
                    f'data-deck-seat="{seat}" data-default="{escape(chosen)}"'
                    f' aria-label="{name}\'s {escape(option.per_seat_word)}"',
                    [(str(c.value), c.label) for c in option.per_seat],
                    chosen,
                )
            )
    if options.seats.swatches:
        css += f" seat-{seat}"
        parts.insert(0, '<span class="swatch" aria-hidden="true"></span>')
    return f'<label class="{css}">{"".join(parts)}</label>'


def _seat_names(options: Options) -> list[str]:
    rows = [_seat_name(options, seat) for seat in range(max(options.seats.counts))]
    rows += [
        '<p class="hint name-limit" data-role="name-limit" role="status" hidden>A name keeps its'
        f" first {NAME_LIMIT} characters: the rest is left out.</p>",
        f'<p class="hint">{escape(BOT_HINT)}</p>',
    ]
    return _fieldset(options.seats.legend, rows, "seat-names")


def setup_form(options: Options) -> list[str]:
    """The form's seats, options and names, as lines of HTML."""
    lines = _seat_count(options)
    for option in options.options:
        lines += _option(options, option)
    return lines + _seat_names(options)


def here_seats(options: Options) -> list[str]:
    """Online set-up: a checkbox per seat, "played on this device" (the first one ticked)."""
    rows = [
        f'<label class="here-seat"><input type="checkbox" data-here-seat="{seat}"'
        f"{' checked' if seat == 0 else ''}> {escape(options.seats.placeholder(seat))}</label>"
        for seat in range(max(options.seats.counts))
    ]
    return _fieldset("Played on this device", rows, "here-seats")


# -- the rules pages ------------------------------------------------------------------------


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = ["<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows]
    return ["<table>", f"<thead><tr>{cells}</tr></thead>", "<tbody>", *body, "</tbody>", "</table>"]


def _choice_words(option: Option) -> str:
    choices: tuple[Choice, ...] = option.choices or option.per_seat
    return "; ".join(c.label for c in choices)


def _default_words(options: Options, option: Option) -> str:
    if option.choices:
        shown = option.choice(option.default)
        return shown.label if shown else str(option.default)
    labels = {str(c.value): c.name or c.label for c in option.per_seat}
    return "; ".join(
        f"{options.seats.label(seat)}: {labels.get(str(v), str(v))}"
        for seat, v in enumerate(option.seat_defaults)
    )


def options_table(options: Options) -> list[str]:
    """The rules page's "options when you set up" table: seats, each option, seat kinds."""
    seats = options.seats
    counts = ", ".join(str(n) for n in seats.counts)
    if seats.counted_by:
        counts += f" (the {seats.counted_by} fixes it)"
    rows = [["Players", counts, str(seats.default), "Who plays, in seat order."]]
    for option in options.options:
        rows.append(
            [option.legend, _choice_words(option), _default_words(options, option), option.help]
        )
    rows.append(
        [
            "Each seat",
            "; ".join(k.label for k in SEAT_KINDS),
            SEAT_KINDS[0].label,
            "A person, or the computer at that level; online, a bot plays on the host's device.",
        ]
    )
    return _table(["Option", "Choices", "Default", "What it does"], rows)


def choices_table(options: Options) -> list[str]:
    """The rules page's table of an option's choices and the facts each fixes (its `table`)."""
    option = next(o for o in options.options if o.table)
    rows = [[option.cell(c, column) for _, column in option.table] for c in option.choices]
    return _table([heading for heading, _ in option.table], rows)


RENDER: dict[str, Callable[[Options], list[str]]] = {
    "setup-form": setup_form,
    "here-seats": here_seats,
    "options-table": options_table,
    "choices-table": choices_table,
}


def render(page: str, games: dict[str, Options] | None = None) -> str:
    """`page` with every generated part written afresh from the declarations."""
    games = declarations() if games is None else games

    def fill(found: re.Match[str]) -> str:
        indent, what, game = found["indent"], found["what"], found["game"]
        lines = RENDER[what](games[game])
        body = "".join(f"{indent}{line}\n" for line in lines)
        return f"{indent}<!-- generated: {what} {game} -->\n{body}{indent}<!-- end generated -->"

    return MARK.sub(fill, page)


def write(index: Path = INDEX) -> bool:
    """Rewrite index.html's generated parts; True if anything changed."""
    before = index.read_text(encoding="utf-8")
    after = render(before)
    if after != before:
        index.write_text(after, encoding="utf-8")
    return after != before


def main() -> int:
    print("index.html: generated parts " + ("rewritten" if write() else "already current"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
