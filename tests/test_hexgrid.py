"""Hex grid helpers: the fast cut-cell finder agrees with removing each cell and looking."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.esp.hexgrid import cut_cells, is_connected, neighbours


@st.composite
def groups(draw) -> frozenset:
    """A connected group grown one neighbour at a time."""
    cells = {(0, 0)}
    for _ in range(draw(st.integers(0, 40))):
        frontier = sorted({n for c in cells for n in neighbours(c)} - cells)
        cells.add(draw(st.sampled_from(frontier)))
    return frozenset(cells)


@settings(max_examples=200, deadline=None)
@given(groups())
def test_cut_cells_are_exactly_the_cells_whose_removal_splits_the_group(cells):
    slow = {c for c in cells if not is_connected(cells - {c})}
    assert cut_cells(cells) == slow


def test_a_line_is_cut_everywhere_but_its_ends():
    line = frozenset((q, 0) for q in range(5))
    assert cut_cells(line) == {(1, 0), (2, 0), (3, 0)}
