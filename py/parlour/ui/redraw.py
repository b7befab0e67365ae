"""Redrawing a region by its changed parts: what the worker sends besides a region's whole HTML.

Why: a move used to replace a whole screen's innerHTML. The browser then parsed, styled and laid
out every element again, and giving the focus back forced that layout inside the same task: in
Psi Squad against bots about 30 ms a move on a quiet machine, and 348 ms on a loaded one (e2e's
200 ms ceiling for a main-thread task, docs/performance.md "Redraws"). Most moves change a few
parts (a log line, a status, a sheet's row), so the worker compares the new tree with the one it
drew last and names the elements that differ; the main thread replaces those alone and leaves
the focus where it is when it was not in them.

The main thread applies a patch only to the drawing it was made against: each drawing of a
region has a stamp (`data-drawn` on the region), and a patch carries the stamp it starts from.
Anything else (a region drawn without one, a drawing lost, a path that does not lead to the
named tag) falls back to the whole HTML, which every render still carries.
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.ui.tree import Node, to_html

# Fields are always drawn afresh, as before: a redraw clears what was typed into one (the DOM's
# value is not the tree's attribute), so an unchanged-looking field is not left holding it.
FIELDS = frozenset({"input", "textarea", "select"})
AUTOFOCUS = "data-autofocus"
# An element that names what it draws (a board's cell), by which a redraw matches it among its
# siblings wherever it moved (`_by_name`)
NAMED = "data-cell"
# Past this share of the whole HTML, the parts are as dear as the whole: send the whole.
MOST_SHARE = 0.9
# [path (element indices from the region), tag, outer HTML]: an element put in another's place
Put = list[Any]
# [parent's path, parent's tag ("" for the region), first index, how many elements taken out,
# how many put in, their HTML]
Splice = list[Any]
# [path, tag, {attribute: value, or None to remove it}]: an element kept, its attributes changed
Mark = list[Any]


@dataclass
class Changes:
    """What turns one drawing of a region into the next (every path counts elements in the old
    drawing, from the region): `marks`, attributes to set on elements kept (None removes one);
    `puts`, elements to put in place of the ones at the same paths; `splices`, runs of
    elements to take out of a parent and put in, the deepest parent first. The page makes them
    in that order."""

    marks: list[Mark] = field(default_factory=list)
    puts: list[Put] = field(default_factory=list)
    splices: list[Splice] = field(default_factory=list)

    def size(self) -> int:
        return sum(len(p[2]) for p in self.puts) + sum(len(p[5]) for p in self.splices)


class Drawn:
    """The last tree the worker drew in each region, and its stamp: kept for the page's life,
    across calls (an `Effects` lives for one call)."""

    def __init__(self) -> None:
        self.stamp = 0
        self.trees: dict[str, tuple[int, Node]] = {}

    def draw(self, selector: str, tree: Node, base: tuple[int, Node] | None) -> list[object]:
        """Record `tree` as the region's drawing; [stamp, base stamp or None, changes]: how the
        main thread gets from the drawing `base` to this one (`Changes`, as JSON text, which
        the page's own JSON parser reads in one call, assets/main-thread.js)."""
        self.stamp += 1
        self.trees[selector] = (self.stamp, tree)
        found = None if base is None else changes(base[1], tree)
        if base is None or found is None:
            return [self.stamp, None, ""]
        text = json.dumps([found.marks, found.puts, found.splices], separators=(",", ":"))
        return [self.stamp, base[0], text]


def changes(old: Node, new: Node) -> Changes | None:
    """How to turn the drawing of `old` into `new`; None when only the whole will do (the parts
    would cost about as much)."""
    out = Changes()
    if not _children(_as_region(old), _as_region(new), [], "", out):
        return None
    if out.size() > MOST_SHARE * len(to_html(new)):
        return None
    out.splices.sort(key=lambda p: -len(p[0]))
    return out


def _as_region(tree: Node) -> Node:
    """What the region holds: a fragment's children, or the one element."""
    return tree if not tree.tag else Node("", {}, [tree])


def _key(node: Node) -> tuple[str, str | None, str | None, str | None, str | None]:
    """Which old element a new one stands for: its tag, class and role, `data-key`, which a
    screen changes to have an element made anew, and the name of what it draws (`NAMED`: a
    board's cell stands only for the same cell, and for it whatever its class: a tile flipped,
    or no longer the last move, is the same cell with its attributes and parts changed, not a
    whole cell of SVG sent again, and a focus in it stays)."""
    attrs = node.attrs
    name = attrs.get(NAMED)
    if name is not None:
        return (node.tag, None, None, attrs.get("data-key"), name)
    return (
        node.tag,
        attrs.get("class"),
        attrs.get("data-role"),
        attrs.get("data-key"),
        None,
    )


def _children(old: Node, new: Node, path: list[int], tag: str, out: Changes) -> bool:
    """Patch the children of `old` (at `path`, a `tag`) into those of `new`; False, with
    nothing added, when they cannot be matched (a text among elements that changed)."""
    a, b = old.children, new.children
    if len(a) == len(b) and all(_in_place(x, y) for x, y in zip(a, b, strict=True)):
        for i, (x, y) in enumerate(_elements(a, b)):
            _compare(x, y, [*path, i], out)
        return True
    if any(isinstance(c, str) or not c.tag for c in (*a, *b)):
        return False
    olds, news = [c for c in a if isinstance(c, Node)], [c for c in b if isinstance(c, Node)]
    # the same elements at either end first (a row put in above a list of rows leaves every row
    # as it was), then, inward, elements that stand for each other (a changed status beside a
    # new line): these are patched where they are, and what is left between is spliced
    head = _run_length(olds, news, lambda x, y: x == y, 0)
    tail = _run_length(olds[::-1], news[::-1], lambda x, y: x == y, head)
    head = _run_length(olds, news, lambda x, y: _key(x) == _key(y), tail, head)
    tail = _run_length(olds[::-1], news[::-1], lambda x, y: _key(x) == _key(y), head, tail)
    for i in range(head):
        _compare(olds[i], news[i], [*path, i], out)
    for j in range(1, tail + 1):
        _compare(olds[-j], news[-j], [*path, len(olds) - j], out)
    if not _by_name(
        olds[head : len(olds) - tail], news[head : len(news) - tail], path, tag, head, out
    ):
        taken = len(olds) - head - tail
        added = news[head : len(news) - tail]
        out.splices.append([path, tag, head, taken, len(added), "".join(to_html(n) for n in added)])
    return True


def _in_place(x: Node | str, y: Node | str) -> bool:
    """Whether `y` is patched where `x` was: equal texts, or elements of one tag that name the
    same thing or nothing (a tile moved on a board of as many cells shifts the cells between:
    compared by place, each stood for its neighbour and went whole, 52 cells of SVG a move)."""
    if isinstance(x, str) or isinstance(y, str):
        return x == y
    return bool(x.tag) and x.tag == y.tag and x.attrs.get(NAMED) == y.attrs.get(NAMED)


def _by_name(
    olds: list[Node], news: list[Node], path: list[int], tag: str, at: int, out: Changes
) -> bool:
    """Children that each name what they draw (`NAMED`: ESP's board cells), matched by that
    name wherever they moved: each kept one patched where it is, and a splice for each run
    between them (the last first, so that each start holds as the page makes them). Issue 39:
    a tile placed among the cells spliced every cell between the board's two ends anew, up to
    20 KB of SVG a move, most of it unchanged. Children that name nothing (a line drawn over
    the cells) are taken out and put in. False when none is named."""
    names = [n.attrs[NAMED] for n in olds if NAMED in n.attrs]
    where = {name: i for i, n in enumerate(olds) if (name := n.attrs.get(NAMED)) is not None}
    if not names or len(where) < len(names):
        return False  # none named, or a name twice: nothing to match by
    found = [(where[n.attrs[NAMED]], j) for j, n in enumerate(news) if n.attrs.get(NAMED) in where]
    pairs = _rising(found)  # (old index, new index), rising in both: the most kept in place
    if not pairs:
        return False
    for i, j in pairs:
        _compare(olds[i], news[j], [*path, at + i], out)
    ends = [(-1, -1), *pairs, (len(olds), len(news))]
    runs = []
    for (i0, j0), (i1, j1) in itertools.pairwise(ends):
        added = news[j0 + 1 : j1]
        if i1 - i0 - 1 or added:
            html = "".join(to_html(n) for n in added)
            runs.append([path, tag, at + i0 + 1, i1 - i0 - 1, len(added), html])
    out.splices.extend(reversed(runs))
    return True


def _run_length(
    olds: list[Node],
    news: list[Node],
    same: Callable[[Node, Node], bool],
    other: int,
    start: int = 0,
) -> int:
    """How far from `start` the two lists go on alike by `same`, leaving `other` elements at
    their other end to the other run."""
    n, i = min(len(olds), len(news)) - other, start
    while i < n and same(olds[i], news[i]):
        i += 1
    return i


def _elements(a: list[Node | str], b: list[Node | str]) -> list[tuple[Node, Node]]:
    pairs = zip(a, b, strict=True)
    return [(x, y) for x, y in pairs if isinstance(x, Node) and isinstance(y, Node)]


def _holds_field(node: Node) -> bool:
    return any(isinstance(n, Node) and n.tag in FIELDS for n in node.walk())


def _compare(old: Node, new: Node, path: list[int], out: Changes) -> None:
    """Add what turns `old` into `new`, both at `path` (the same tag)."""
    if old == new and not _holds_field(new):
        return
    names = sorted(set(old.attrs) | set(new.attrs))
    marked = {k: new.attrs.get(k) for k in names if old.attrs.get(k) != new.attrs.get(k)}
    # a field whole (as before), a control that is to take the focus (it is new to the page),
    # and an element that stands for another (another class or role: a hand-off where the
    # table was is a new card, which the page scrolls to and focuses as one)
    whole = new.tag in FIELDS or AUTOFOCUS in marked or _key(old) != _key(new)
    if not whole and marked:
        out.marks.append([path, new.tag, marked])
    if whole or not _children(old, new, path, new.tag, out):
        if marked and not whole:
            out.marks.pop()
        out.puts.append([path, new.tag, to_html(new)])


def _rising(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of `pairs` (in the new order) whose old indices rise: the elements kept
    where they are (a cell moved across the board is taken out and put in, not every cell it
    passed). Patience sorting, n log n."""
    tails: list[int] = []  # tails[k]: the pair ending the best rising run of length k + 1
    back: list[int] = []  # each pair's previous one in its run (-1: none)
    for n, (i, _) in enumerate(pairs):
        k = bisect.bisect_left([pairs[t][0] for t in tails], i)
        back.append(tails[k - 1] if k else -1)
        if k == len(tails):
            tails.append(n)
        else:
            tails[k] = n
    run, at = [], tails[-1] if tails else -1
    while at >= 0:
        run.append(pairs[at])
        at = back[at]
    return run[::-1]
