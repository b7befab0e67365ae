"""The two kinds of rejection every layer raises, each carrying a sentence a player can read.

Modelled on python-chess: input that cannot even be parsed is `MalformedInput`; input that parses
but breaks a rule is `IllegalAction`. A reveal that does not match its commitment, and a fault in
a fair-play protocol, are their own kinds because the audit reports them as cheating.
Nothing that raises these has changed any state.
"""

from __future__ import annotations


class ParlourError(Exception):
    """Base of every rejection; `str(error)` is the sentence shown to the player."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class MalformedInput(ParlourError):
    """Input that cannot be understood at all: bad JSON, wrong types, unknown action."""


class IllegalAction(ParlourError):
    """A well-formed action that the rules do not allow now, from this seat."""


class CommitmentMismatch(IllegalAction):
    """A reveal whose opening does not match the commitment made earlier, or a hidden value that
    breaks the rules once opened: proof of cheating by `seat`, found at log step `step`."""

    def __init__(self, sentence: str, seat: int | None = None, step: int | None = None) -> None:
        super().__init__(sentence)
        self.seat = seat
        self.step = step


class ProtocolError(ParlourError):
    """A fair-play protocol step out of order, duplicated, missing or forged; names the seat."""

    def __init__(self, sentence: str, seat: int | None = None) -> None:
        super().__init__(sentence)
        self.seat = seat
