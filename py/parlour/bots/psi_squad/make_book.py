"""Regenerate the opening table of `book.py` (prints it; a test compares the two).

PYTHONPATH=py python -m parlour.bots.psi_squad.make_book
"""

from __future__ import annotations

import sys

from parlour.bots.psi_squad.model import answer_pair, consistent, everything, text_of, win_code
from parlour.bots.psi_squad.solver import EXACT, best_guess
from parlour.games.psi_squad.options import LENGTHS


def generate(n: int) -> tuple[str, dict[tuple[int, int], str]]:
    """The first guess and the second after each possible answer, by the full search."""
    first = best_guess(n, (), EXACT)
    second = {}
    for answer in sorted(set(everything(n).answers(first)) - {win_code(n)}):
        if consistent(n, ((first, answer),)):
            found = best_guess(n, ((first, answer),), EXACT)
            second[answer_pair(n, answer)] = text_of(n, found)
    return text_of(n, first), second


def main() -> None:
    for n in LENGTHS:  # every declared length (five digits takes minutes, six far longer)
        first, second = generate(n)
        sys.stdout.write(f"FIRST[{n}] = {first!r}\nSECOND[{n}] = {second!r}\n")


if __name__ == "__main__":
    main()
