"""A game by link seen as a play screen sees a session (pure): the seats this device holds, what
waits for the page's signature, and the board drawn by the shared play screen (by_link/app.py
makes them)."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from parlour.match.by_link import LinkPlay, Outcome
from parlour.match.match import Submitted
from parlour.match.signed_replay import Signatures
from parlour.ui.play import PlaySession


class Pending:
    """One record of a game waiting for the page's signature, as py/ui/webcrypto.py signs:
    it sets `signature`, which this gives to the game (kept only if it holds). The page's checks
    answer only for signatures checked before the call, so the one just made with this device's
    own key is noted as made here (`made`), for `LinkGames.verifier`."""

    def __init__(self, play: LinkPlay, which: str, data: bytes, made: set[Any]) -> None:
        self.play, self.which, self.data, self.made = play, which, data, made

    @property
    def signature(self) -> bytes | None:
        return None

    @signature.setter
    def signature(self, value: bytes | None) -> None:
        if value is not None:
            signer = self.play.signer
            self.made.add((signer.algorithm, signer.public_key, self.data, bytes(value)))
            self.play.signed(self.which, value)


class Games(Protocol):
    """What a game's seats ask of the device's games by link (by_link/app.py, `LinkGames`)."""

    def clock(self) -> float: ...

    def outcome(self, play: LinkPlay, out: Outcome) -> None: ...


class LinkSeats:
    """What the play screen asks of the device it plays for (as of an online session): moves
    go to the game by link, whose log takes them at once or once the others' are in."""

    is_host = True  # no host: nothing is relayed (play.py's `_relayed`)
    verdicts: ClassVar[dict[int, Any]] = {}
    links: ClassVar[dict[str, Any]] = {}

    def __init__(self, games: Games, play: LinkPlay) -> None:
        self.games, self.play = games, play

    @property
    def openings(self) -> dict[int, Any]:
        return self.play.openings

    @property
    def audit_result(self) -> Any:
        return self.play.audit_result

    def replay_signatures(self) -> Signatures | None:
        return self.play.replay_signatures()

    def table_code(self) -> str | None:
        return self.play.table_code()

    def act(self, seat: int, choice: Any) -> Submitted:
        match = self.play.match
        before = len(match.entries) if match is not None else 0
        out = self.play.act(seat, choice, self.games.clock())
        self.games.outcome(self.play, out)
        if not out.ok:
            return Submitted(reason=out.sentence)
        match = self.play.match
        entries = match.entries if match is not None else []
        if len(entries) > before and entries[before].seat == seat:
            return Submitted(entry=entries[before])
        return Submitted(sent=True)


class LinkView(PlaySession):
    """The board of a game by link: the device's seats; its bots move in the game itself."""

    def bot_due(self) -> bool:
        return False

    def bot_thinking(self) -> int | None:
        return None
