"""Write the parts of the page that come from the catalog of games and their declarations.

The home screen's cards, each game's screens (set-up, waits, play, lesson), the rules pages'
frames, the Embed page's list, the set-up forms and the rules pages' option tables are plain
HTML, so the page works before any Python starts; but which games there are is declared once,
in py/parlour/games/catalog.py, and what each offers in games/<game>/options.py. This module
renders that data into index.html between marker comments, in two passes:

    <!-- catalog: game-screens -->  ...  <!-- end catalog: game-screens -->
    <!-- generated: setup-form esp -->  ...  <!-- end generated -->

The first writes a part for every game of the catalog from scripts/templates/, keeping each
game's own words (its rules, ESPEERS's deck builder) that sit between
`<!-- own words: rules esp -->` and `<!-- end own words -->` as they are; a new game gets a
skeleton to write them in. The second fills each game's forms and tables. Everything else is
left untouched. The main thread's lists of games (py/shell/page.py, py/shell/embed.py,
assets/early.js) are written the same way, between "The catalog's games" and "end of the
catalog's games" comments. The build runs it (`python -m scripts.build`, so `make
serve` and `make test` do), `python -m scripts.pages` runs it alone, and a unit test checks that
index.html is as the declarations say.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from html import escape
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "index.html"
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))  # the build runs as `python -m scripts.build`

from parlour.games.catalog import CATALOG, Entry, load  # noqa: E402
from parlour.games.options import (  # noqa: E402
    SEAT_KINDS,
    Choice,
    Option,
    Options,
)
from parlour.match.config import MAX_NAME as NAME_LIMIT  # noqa: E402
from parlour.ui.online import network  # noqa: E402
from parlour.ui.tree import to_html  # noqa: E402

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


def declarations(catalog: tuple[Entry, ...] = CATALOG) -> dict[str, Options]:
    """Every game's set-up declaration, by game id (the catalog's `options`)."""
    found: dict[str, Options] = {entry.id: load(entry.options) for entry in catalog}
    return found


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


def network_choice(options: Options) -> list[str]:
    """Online set-up: where the other players are (ui/online/network.py draws it again from what
    this browser chose last, whenever the set-up screen opens)."""
    return [to_html(network.choice_tree(options.game))]


RENDER: dict[str, Callable[[Options], list[str]]] = {
    "network": network_choice,
    "setup-form": setup_form,
    "here-seats": here_seats,
    "options-table": options_table,
    "choices-table": choices_table,
}


# -- the catalog's parts: a part for every game ---------------------------------------------

TEMPLATES = Path(__file__).with_name("templates")
BLOCK = re.compile(
    r"(?P<indent>[ \t]*)<!-- catalog: (?P<what>[a-z-]+) -->\n"
    r".*?"
    r"(?P=indent)<!-- end catalog: (?P=what) -->",
    re.S,
)
OWN_WORDS = re.compile(
    r"(?P<indent>[ \t]*)<!-- own words: (?P<what>[a-z-]+) (?P<game>[a-z-]+) -->\n"
    r".*?"
    r"(?P=indent)<!-- end own words -->\n",
    re.S,
)
COUNTS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _template(file: str, **words: str) -> str:
    return Template((TEMPLATES / file).read_text(encoding="utf-8")).substitute(words)


def _buttons(links: tuple[tuple[str, str], ...], indent: str, between: str = "\n") -> str:
    return "".join(
        f'{indent}<a class="button" href="{href}">{label}</a>{between}' for href, label in links
    )


def game_card(entry: Entry, own: dict[tuple[str, str], str]) -> str:
    """The home screen's card of a game."""
    page = entry.page
    return _template(
        "game-card.html",
        id=entry.id,
        name=entry.name,
        emblem=page.emblem,
        pitch=page.pitch,
        facts="".join(f"<li>{fact}</li>" for fact in page.facts),
        availability=page.availability,
        card_links=_buttons(page.links, " " * 12),
    )


def game_screens(entry: Entry, own: dict[tuple[str, str], str]) -> str:
    """A game's own screens: its set-up, the waits before a game starts, play and the lesson,
    then any screen of its own (ESPEERS's deck builder), and a blank line."""
    page = entry.page
    online_hint = f'        <p class="hint">{page.online_hint}</p>\n' if page.online_hint else ""
    return _template(
        "game-screens.html",
        id=entry.id,
        name=entry.name,
        lede=page.lede,
        hint=page.hint,
        setup_links=_buttons(page.links, " ", between=""),
        online_hint=online_hint,
        starting=page.starting,
        solo=page.solo,
        own_words=own.get(("screens", entry.id), ""),
    )


def rules_page(entry: Entry, own: dict[tuple[str, str], str]) -> str:
    """A game's rules page: its frame, and its rules in its own words (a skeleton to write them
    in, with the table of its options, for a game that has none yet)."""
    words = own.get(("rules", entry.id))
    if words is None:
        words = (
            f"      <!-- own words: rules {entry.id} -->\n"
            + _template("rules-words.html", id=entry.id, name=entry.name)
            + "      <!-- end own words -->\n"
        )
    return _template("rules-page.html", id=entry.id, name=entry.name, own_words=words)


def embed_games(catalog: tuple[Entry, ...]) -> str:
    """The Embed page's choice of the game a frame opens at (the first game chosen)."""
    count = COUNTS.get(len(catalog), str(len(catalog)))
    lines = [f'<option value="">All {count} games</option>']
    lines += [
        f'<option value="{e.id}"{" selected" if i == 0 else ""}>{e.name}</option>'
        for i, e in enumerate(catalog)
    ]
    return "".join(f"              {line}\n" for line in lines)


PER_GAME: dict[str, Callable[[Entry, dict[tuple[str, str], str]], str]] = {
    "game-cards": game_card,
    "game-screens": game_screens,
    "rules-pages": rules_page,
}


def render_catalog(page: str, catalog: tuple[Entry, ...] = CATALOG) -> str:
    """`page` with every catalog part written afresh: a part for every game of `catalog`."""
    own = {(m["what"], m["game"]): m[0] for m in OWN_WORDS.finditer(page)}

    def fill(found: re.Match[str]) -> str:
        indent, what = found["indent"], found["what"]
        if what == "embed-games":
            body = embed_games(catalog)
        else:
            body = "".join(PER_GAME[what](entry, own) for entry in catalog)
        return f"{indent}<!-- catalog: {what} -->\n{body}{indent}<!-- end catalog: {what} -->"

    return BLOCK.sub(fill, page)


def render(
    page: str, games: dict[str, Options] | None = None, catalog: tuple[Entry, ...] = CATALOG
) -> str:
    """`page` with every generated part written afresh: the catalog's parts, then each game's
    forms and tables from its declaration."""
    games = declarations(catalog) if games is None else games

    def fill(found: re.Match[str]) -> str:
        indent, what, game = found["indent"], found["what"], found["game"]
        lines = RENDER[what](games[game])
        body = "".join(f"{indent}{line}\n" for line in lines)
        return f"{indent}<!-- generated: {what} {game} -->\n{body}{indent}<!-- end generated -->"

    return MARK.sub(fill, render_catalog(page, catalog))


# -- the main thread's lists of games ----------------------------------------------------------

LISTS = re.compile(
    r"(?P<head>(?P<indent>[ \t]*)(?P<comment>#|//) The catalog's games[^\n]*\n)"
    r".*?"
    r"(?P<tail>(?P=indent)(?P=comment) end of the catalog's games\n)",
    re.S,
)
LIST_FILES = ("py/shell/page.py", "py/shell/embed.py", "assets/early.js")


def game_list(source: str, catalog: tuple[Entry, ...] = CATALOG) -> str:
    """`source` (a main-thread file) with its list of games written afresh from the catalog:
    ids in the page's listeners and early.js, names in the Embed page's choices."""

    def fill(found: re.Match[str]) -> str:
        indent = found["indent"]
        if found["comment"] == "//":
            ids = ", ".join(f'"{e.id}"' for e in catalog)
            body = f"{indent}const games = [{ids}];\n"
        elif "names" in found["head"]:
            rows = [f'{indent}    "": "Psi Parlour",\n']
            rows += [f'{indent}    "{e.id}": "{e.name}",\n' for e in catalog]
            body = f"{indent}GAMES = {{\n{''.join(rows)}{indent}}}\n"
        else:
            rows = [f'{indent}    "{e.id}",\n' for e in catalog]
            body = f"{indent}GAMES = (\n{''.join(rows)}{indent})\n"
        return found["head"] + body + found["tail"]

    return LISTS.sub(fill, source)


def _rewrite(path: Path, make: Callable[[str], str]) -> bool:
    before = path.read_text(encoding="utf-8")
    after = make(before)
    if after != before:
        path.write_text(after, encoding="utf-8")
    return after != before


def write(index: Path = INDEX) -> bool:
    """Rewrite index.html's generated parts and the main thread's lists; True if any changed."""
    changed = _rewrite(index, render)
    for name in LIST_FILES:
        changed = _rewrite(ROOT / name, game_list) or changed
    return changed


def main() -> int:
    print("index.html: generated parts " + ("rewritten" if write() else "already current"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
