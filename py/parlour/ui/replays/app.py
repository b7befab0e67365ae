"""Replays in the app (pure): `#replay=<code>` opens the viewer, `#replay` the page to open one.

Imported by the app on first use. A link or a file becomes a `ReplayRecord` (`match/replay.py`,
which refuses anything damaged in words), then a `Replay` (`match/viewer.py`: replayed and
audited); clicks and keys move it; autoplay asks the page for a tick after a pause, carrying the
viewer's revision, so a tick that arrives after any other move changes nothing. A file opened
here goes to the address as a link, so a file and a link are watched, reloaded and shared alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from parlour.errors import MalformedInput, ParlourError
from parlour.match.play_on import offered, play_on
from parlour.match.replay import (
    PREFIX,
    TOO_LARGE,
    ReplayRecord,
    file_text,
    from_code,
    from_file,
    link_to,
)
from parlour.match.signature_check import Check, signature_checks
from parlour.match.viewer import Replay
from parlour.numbers import whole
from parlour.ui.host import Host
from parlour.ui.replays.screen import open_tree, replay_tree, said_of
from parlour.ui.screens import screen_for
from parlour.ui.widgets import describe_entry

if TYPE_CHECKING:
    from parlour.match.table import Table
    from parlour.ui.online.saves import Keyring

ROOT = "#replay .replay-root"
AUTOPLAY_MS = 1200
MOVE = "&move="  # after a replay's code: the move it opens at
KEYS = {"ArrowLeft": "previous", "ArrowRight": "next", "Home": "first", "End": "last"}
FAULT = (
    "This replay could not be shown: something in it is not what Psi Parlour writes. "
    "Ask for the link or the file again."
)


class Watching:
    """The replay open in this tab: the viewer, its game's screen, its moves in words."""

    def __init__(self, code: str, record: ReplayRecord, check: Check | None = None) -> None:
        self.code = code
        self.screen = screen = screen_for(record.config.game)

        def routine(match: Any, index: int) -> bool:
            return not describe_entry(screen, match, match.entries[index])

        self.replay = Replay.open(record, routine=routine, check=check)
        self.said = said_of(screen, self.replay.match)


class ReplayHost(Host, Protocol):
    """What the replay viewer asks of the app beyond any part's: the page's keyring (to check a
    replay's signatures) and a start for a game played on from a replay."""

    keyring: Keyring | None

    def start_table(self, table: Table[Any, Any]) -> None: ...


class Replays:
    """The app's replay viewer: what is open, or why nothing could be."""

    def __init__(self, app: ReplayHost) -> None:
        self.app = app
        self.watching: Watching | None = None
        self.error: str | None = None

    # -- opening -------------------------------------------------------------------------

    def open_code(self, code: str) -> None:
        """`#replay=<code>`: the same replay keeps its position; another one is opened.
        `#replay=<code>&move=N` opens it at move N (a moment to share; past the end: the end;
        not a number: the start)."""
        code, _, move = code.partition(MOVE)
        if self.watching is None or self.watching.code != code:
            self.watching, self.error = None, None
            try:
                self.watching = Watching(code, from_code(code), self._check())
            except ParlourError as error:
                self.error = error.sentence
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                self.error = FAULT  # a game's parser let something odd through: still words
        position = whole(move) if move else None
        if self.watching is not None and position is not None:
            self.watching.replay.play(False)
            self.watching.replay.show_result(False)  # a moment shared, not its ending
            self.watching.replay.go(position)
        self.draw()

    def _check(self) -> Check | None:
        """How this browser checks a replay's signatures: the page's keyring answers from what
        WebCrypto checked before this call (`signature_checks`); None: it cannot."""
        keyring = self.app.keyring
        return keyring.checked_signature if keyring is not None else None

    def signature_checks(self, hash_: str) -> list[tuple[str, bytes, bytes, bytes]]:
        """The signatures a replay about to open carries, for the page to check first; none
        for a replay already open, or anything else."""
        if not hash_.startswith(PREFIX):
            return []
        code = hash_.removeprefix(PREFIX).partition(MOVE)[0]
        if self.watching is not None and self.watching.code == code:
            return []
        try:
            record = from_code(code)
        except ParlourError:
            return []
        return signature_checks(
            record.signed, record.config.match_id, record.moves, record.genesis(), record.openings
        )

    def open_file(self, text: object) -> None:
        """A game file chosen on the open page (its text; None when it was too large to read):
        watched through its link."""
        try:
            if not isinstance(text, str):
                raise MalformedInput(TOO_LARGE.format(what="game file"))
            record = from_file(text)
        except ParlourError as error:
            self.refuse(error.sentence)
            return
        self.app.go(PREFIX + record.code())

    def refuse(self, sentence: str) -> None:
        """Nothing to watch: the open page, with why."""
        self.watching, self.error = None, sentence
        self.draw()

    def show(self) -> None:
        """`#replay`: the page to open a replay."""
        self.watching, self.error = None, None
        self.draw()

    def leave(self) -> None:
        """Another screen opened: autoplay stops (its next tick changes nothing)."""
        if self.watching is not None:
            self.watching.replay.play(False)

    # -- events --------------------------------------------------------------------------

    def click(self, data: dict[str, Any]) -> None:
        cmd = data.get("cmd")
        fields = data.get("fields") if isinstance(data.get("fields"), dict) else {}
        if cmd == "open-link":
            self.open_pasted(str((fields or {}).get("replay-link", "")))
            return
        watching = self.watching
        if watching is None:
            return
        if cmd == "download":
            record = watching.replay.record
            self.app.effects.download.append([record.file_name(), file_text(record)])
            return
        if cmd == "play-on" and offered(watching.replay):
            self.play_on(watching.replay)
            return
        self.step(watching.replay, str(cmd), data, fields or {})
        self.draw()

    def step(self, replay: Replay, cmd: str, data: dict[str, Any], fields: dict[str, Any]) -> None:
        moves = {"first": replay.first, "previous": replay.previous, "next": replay.next}
        moves["last"] = replay.end
        if cmd in moves:
            replay.play(False)
            moves[cmd]()
        elif cmd == "play":
            replay.play(data.get("play") == "on")
        elif cmd == "seek":
            position = whole(fields.get("position"))
            if position is not None:
                replay.play(False)
                replay.go(position)
        elif cmd == "show-result":
            replay.show_result()
        elif cmd == "everything":
            replay.show_everything(data.get("on") == "on")  # refused: the switch says why

    def play_on(self, replay: Replay) -> None:
        """A new game against the computer from the position on screen (`match/play_on.py`)."""
        import secrets

        try:
            table = play_on(replay.now(), secrets.token_bytes(32))
        except ParlourError as error:  # not expected: offered() said it may; still words
            self.error = error.sentence
            self.draw()
            return
        replay.play(False)
        self.app.start_table(table)

    def key(self, key: str) -> None:
        if self.watching is not None and key in KEYS:
            self.click({"cmd": KEYS[key]})

    def tick(self, revision: object) -> None:
        if self.watching is not None and self.watching.replay.tick(revision):
            self.draw()

    def open_pasted(self, text: str) -> None:
        try:
            record = from_code(text)
        except ParlourError as error:
            self.refuse(error.sentence)
            return
        self.app.go(PREFIX + record.code())

    # -- drawing -------------------------------------------------------------------------

    def draw(self) -> None:
        effects = self.app.effects
        watching = self.watching
        if watching is None:
            effects.draw(ROOT, open_tree(self.error))
            return
        replay = watching.replay
        link = link_to(self.app.href, watching.code)
        if replay.position:  # the link opens where the viewer stands: a moment to share
            link += f"{MOVE}{replay.position}"
        effects.draw(ROOT, replay_tree(replay, watching.screen, watching.said, link))
        if replay.playing:
            effects.later.append([AUTOPLAY_MS, {"op": "replay-tick", "revision": replay.revision}])
