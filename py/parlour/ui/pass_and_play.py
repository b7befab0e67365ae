"""Pass and play, and games against bots, on this device: the app's games started here, each a
play session drawn in its screen (#play-<game>), saved at every move and resumed after a reload.

A mixin of `App` (ui/app.py), which routes requests here; what it uses of the app is declared
below (the page's storage and effects, the sessions, the address and the decks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.ui import pace
from parlour.ui.espeers.shelf import chosen_decks
from parlour.ui.page import Effects, Storage, within
from parlour.ui.saved_game import read_saved, recall_options, save_session, saved_table
from parlour.ui.screens import now, screen_for
from parlour.ui.setup_form import SetUp, read

if TYPE_CHECKING:
    from parlour.match.table import Table
    from parlour.ui.play import PlaySession


def play_root(game_id: str) -> str:
    return f"#play-{game_id} .play-root"


class PassAndPlay:
    """The games of this device: started from a set-up or "Play vs computer", played, saved."""

    storage: Storage
    sessions: dict[str, PlaySession]
    href: str
    pending_setup: SetUp | None  # a start waiting on "replace the game?": its set-up
    pending_table: Table[Any, Any] | None  # or its table

    pending_tables: dict[str, Table[Any, Any]]  # a game made elsewhere, started by #start-<game>

    @property
    def effects(self) -> Effects:
        return self.storage.effects

    def go(self, hash_: str) -> None:
        """Replace the address (so Back skips the screen we leave); the page then routes."""
        self.effects.go = hash_

    def chosen_decks(self, choices: list[tuple[str, str]]) -> list[Any]:
        """ESPEERS: the decks chosen in a set-up, the saved ones read from this browser."""
        return chosen_decks(self.storage, choices)

    def start_new(
        self,
        game_id: str,
        setup: SetUp | None,
        confirmed: bool = False,
        table: Table[Any, Any] | None = None,
    ) -> None:
        """The set-up form's "Start the game" (or a game made elsewhere: `table`, from a replay
        played on). A game in progress saved on this device is never lost without the player
        saying so: first ask, in the start screen."""
        if not confirmed and self._ask_replace(game_id, "start"):
            self.pending_setup, self.pending_table = setup, table
            return
        if table is not None:
            self._show_new(game_id, table)
            return
        setup = setup or read(None, game_id)
        bots = setup.bots
        self._begin(game_id, setup.bot_named(), dict(setup.variant), bots, setup.decks)

    def start_solo(self, game_id: str, confirmed: bool = False) -> None:
        """The home card's "Play vs computer": at once, one person against bots, as the person
        chose last time they played alone (else the game's defaults and medium bots)."""
        if not confirmed and self._ask_replace(game_id, "solo"):
            return
        from parlour.match.bot_seats import bot_name
        from parlour.ui import solo

        choice = solo.read_choice(game_id, self.storage.get(solo.KEY.format(game=game_id)))
        names, bots = solo.seats_of(game_id, choice)
        names = tuple(bot_name(n) if s in bots else n for s, n in enumerate(names))
        defaults = solo.default_choice(game_id).decks
        decks = [(d, defaults[i]) for i, d in enumerate(choice.decks)]
        self._begin(game_id, names, dict(choice.variant), bots, decks)

    def _ask_replace(self, game_id: str, screen: str) -> bool:
        """Whether a game in progress saved here must be replaced: then the question is drawn
        in the screen `#<screen>-<game>` and the start waits for the answer."""
        from parlour.ui.online.screen import GAME_NAMES
        from parlour.ui.saved_game import replace_game_tree, saved_summary

        saved = read_saved(self.storage, game_id)
        summary = saved_summary(saved)
        if summary is None and saved is not None and game_id not in self.sessions:
            self.resume(game_id)  # a save that cannot be read is set aside, not replaced
        if summary is None:
            return False
        tree = replace_game_tree(game_id, GAME_NAMES[game_id], summary)
        self.effects.draw(f"#{screen}-{game_id}", tree)
        return True

    def _begin(
        self,
        game_id: str,
        names: tuple[str, ...],
        variant: dict[str, Any],
        bots: dict[int, str],
        decks: list[tuple[str, str]],
    ) -> None:
        """A new game on this device, saved and shown; a person alone against bots has their
        choice remembered for "Play vs computer"."""
        from parlour.ui import solo

        choice = solo.remembered(game_id, bots, len(names), variant, [d for d, _ in decks])
        if decks:
            variant["decks"] = self.chosen_decks(decks)
        table = new_table(game_id, names, variant, bots)
        if choice is not None:
            self.storage.set(solo.KEY.format(game=game_id), choice.to_text())
        self._show_new(game_id, table)

    def _show_new(self, game_id: str, table: Table[Any, Any]) -> None:
        """A new game on this device: saved and shown."""
        self.sessions[game_id] = self._session(table, game_id)
        recall_options(self.storage, game_id, self.sessions[game_id])
        self.save(game_id)
        self.go(f"#play-{game_id}")

    def start_table(self, table: Table[Any, Any]) -> None:
        """Start a game made elsewhere (a replay played on) as a new pass-and-play game: through
        the start screen, which asks first if it would replace a game in progress."""
        self.pending_tables[table.game.id] = table
        self.go(f"#start-{table.game.id}")

    def _session(self, table: Table[Any, Any], game_id: str) -> PlaySession:
        from parlour.ui.play import PlaySession

        return PlaySession(table, screen_for(game_id), site=self.href)

    def dispatch(self, game_id: str, data: dict[str, Any]) -> None:
        session = self.sessions.get(game_id)
        if session is None:
            return
        if data.get("cmd") == "download-game":
            self.effects.download.append(session.game_file())
            return
        if data.get("cmd") == "quick-bots":
            pace.toggle(self.storage)
        elif data.get("cmd") == "rematch":
            config = session.table.match.config
            table = new_table(game_id, config.seats, dict(config.variant), config.bot_levels)
            self.sessions[game_id] = self._session(table, game_id)
            recall_options(self.storage, game_id, self.sessions[game_id])
        else:
            session.handle(data)
        self.save(game_id)
        self.draw(game_id)

    def draw(self, game_id: str) -> None:
        session = self.sessions[game_id]
        session.quick_bots = pace.quick(self.storage) if session.bots else None
        self.effects.draw(play_root(game_id), session.render())
        self.effects.announce(session.take_said())
        focus = session.take_focus()
        if focus:
            self.effects.focus = within(play_root(game_id), focus)
        due = session.bot_due()
        # <html data-bot-due> while a bot's move is coming: the browser tests wait for it to go
        self.effects.attrs["bot-due"] = "1" if due else None
        if due:
            step = session.table.match.step
            pause = pace.bot_pause(self.storage)
            self.effects.later.append([pause, {"op": "bot", "game": game_id, "step": step}])

    def bot_turn(self, game_id: str, step: object) -> None:
        """A bot's turn in a game here, asked for by the page after the pause (see `draw`). A
        request for a step the match has left (an undo, a second request) changes nothing."""
        session = self.sessions.get(game_id)
        if session is None or step != session.table.match.step:
            return
        started = now()
        thinking = session.bot_thinking()
        session.bot_move()
        if thinking is not None:
            # each decision's time, for the page's own measure (`make bench`)
            self.effects.attrs["bot-thought"] = f"{session.table.match.step}:{now() - started:.4f}"
        self.save(game_id)
        self.draw(game_id)

    # -- a reload loses nothing ---------------------------------------------------------

    def save(self, game_id: str) -> None:
        save_session(self.storage, game_id, self.sessions[game_id])

    def resume(self, game_id: str) -> bool:
        saved = saved_table(self.storage, game_id)
        if saved is None:
            return False
        table, notes = saved
        session = self._session(table, game_id)
        session.notes = notes
        self.sessions[game_id] = session
        return True


def new_table(
    game_id: str,
    names: tuple[str, ...],
    variant: dict[str, Any] | None = None,
    bots: dict[int, str] | None = None,
) -> Table[Any, Any]:
    import secrets

    from parlour.games import GAMES
    from parlour.match.config import MatchConfig
    from parlour.match.table import Table, new_match_id

    levels = {str(seat): level for seat, level in (bots or {}).items()}
    config = MatchConfig(game_id, new_match_id(), names, variant or {}, bots=levels)
    return Table.new(GAMES[game_id], config, secrets.token_bytes(32), range(len(names)))
