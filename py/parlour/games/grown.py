"""A record that grows by one item a move, without copying it at every move (pure).

A game state is immutable, so a history kept as a tuple was copied whole at every move: a game of
n moves cost n²/2 copies, and a long replay link took seconds to open (issue 25). `Grown` is an
immutable sequence whose `plus` shares its storage with the sequence before: each state sees only
its own length, so a later item is never visible to an earlier state; a second move from the same
state (after an undo) copies once and goes on from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class Grown(Sequence[T]):
    """An immutable sequence that equals the tuple of its items."""

    __slots__ = ("_items", "_size")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)
        self._size = len(self._items)

    def plus(self, item: T) -> Grown[T]:
        """This sequence and one more item; this one is unchanged."""
        items = self._items
        if len(items) != self._size:  # another state grew from here already: branch off
            items = items[: self._size]
        items.append(item)
        grown: Grown[T] = Grown.__new__(Grown)
        grown._items, grown._size = items, self._size + 1
        return grown

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[i] for i in range(self._size)[index])
        return self._items[range(self._size)[index]]  # IndexError past this state's end

    def __iter__(self) -> Iterator[T]:
        items = self._items
        return (items[i] for i in range(self._size))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Grown, tuple)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Grown({tuple(self)!r})"
