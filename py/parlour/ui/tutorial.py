"""Learn by playing: a short guided game against a bot on a prepared position (pure).

A `Lesson` is data: how its table is prepared (a seed, the seats' dealt values and scripted
moves, all played through the engine, so every commitment is real and the audit at the end
checks the tutorial like any game), and its `Step`s: the words, the thing to press (the event a
click or a key on it sends: its data-* attributes without the prefix) and the bot's scripted
replies. A `TutorialSession` is a `PlaySession` with one person and one bot that follows the
script: the thing to press is highlighted (class `learn-next`), a press of anything else is
answered with a kind sentence and changes nothing, and each step's words go to the page's live
region. After the last step the game goes on freely against the real bot to the end.

Why a session of its own rather than a mode of `PlaySession`: the lessons must not change how a
real game behaves, and a real game must never be blocked by a script.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from parlour.errors import ParlourError
from parlour.games.catalog import CATALOG, load
from parlour.match.match import Submitted
from parlour.ui import pace
from parlour.ui.lesson_steps import Lesson, Reply, Step
from parlour.ui.page import within
from parlour.ui.play import PlaySession
from parlour.ui.play_session import STATUS
from parlour.ui.screens import screen_for
from parlour.ui.tree import Node, h

if TYPE_CHECKING:
    from parlour.ui.host import Host

# The lessons, by game id (the catalog's `lesson`): imported on first use.
LESSONS = {entry.id: entry.lesson for entry in CATALOG}
HIGHLIGHT = "learn-next"
# Commands that never disturb the script: they open, fold or read things.
LOOKING = (
    "toggle-log",
    "describe-board",
    "close-result",
    "show-result",
    "share",
    "zoom-in",
    "zoom-out",
)


def lesson_for(game_id: str) -> Lesson:
    lesson: Lesson = load(LESSONS[game_id])
    return lesson


def matches(event: Mapping[str, Any], press: Mapping[str, str]) -> bool:
    """Whether an event is the press a step waits for (extra fields, such as a screen's typed
    fields, do not matter)."""
    return all(str(event.get(key)) == value for key, value in press.items())


class TutorialSession(PlaySession):
    """A guided game: the learner's seat and a bot's, the lesson's script, then free play."""

    def __init__(self, lesson: Lesson, site: str = "") -> None:
        self.lesson = lesson
        self.index = 0
        self.pending: list[Reply] = []  # the bot's scripted replies still to come
        super().__init__(lesson.table(), screen_for(lesson.game), site=site)
        self.scope = f"learn-{lesson.game}"  # ids apart from the same game's own screen
        self.said = lesson.steps[0].say if lesson.steps else lesson.done
        self.focus_to = f".{HIGHLIGHT}"  # the first Next, described by the lesson's words

    # -- the script ---------------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        """The step under way; None once the script is over (free play)."""
        return self.lesson.steps[self.index] if self.index < len(self.lesson.steps) else None

    @property
    def scripted(self) -> bool:
        return self.step is not None or bool(self.pending)

    def _advance(self) -> None:
        step = self.lesson.steps[self.index]
        self.index += 1
        self.pending.extend(step.replies)
        if not self.pending:
            self._tell_step()

    def _tell_step(self) -> None:
        """The new step's words follow the move just made, in the live region; the keyboard
        goes to the thing to press."""
        step = self.step
        words = step.say if step is not None else self.lesson.done
        self.said = f"{self.message} {words}".strip()
        self.focus_to = f".{HIGHLIGHT}" if step is not None else STATUS

    # -- events -------------------------------------------------------------------------

    def handle(self, event: dict[str, Any]) -> None:
        cmd = event.get("cmd")
        if cmd in LOOKING or cmd == "take-device":
            super().handle(event)
            return
        if cmd == "undo":
            self.message = "Undo is off in a lesson: Restart the lesson to begin it again."
            self.said = self.message
            return
        step = self.step
        if step is None and not self.pending:
            super().handle(event)  # free play
            return
        if self.pending or step is None:
            self.message = f"Wait for {self.names[self.lesson.bot]}'s move."
            self.said = self.message
            return
        if not any(matches(event, press) for press in (step.event, *step.also)):
            self.message = f"Not that one yet: press the {step.what}. {step.say}"
            self.said = self.message
            return
        if step.press is None:
            self.message = ""
            self._advance()
            return
        before = self.table.match.step
        super().handle(event)
        if step.moves and self.table.match.step == before:
            return  # refused: the message says why, the step stays
        self._advance()

    def can_undo(self) -> bool:
        """Undo is off in a lesson (its Undo button shows disabled): Restart is the way back."""
        return False

    # -- the bot ------------------------------------------------------------------------

    def bot_due(self) -> bool:
        if self.pending:
            return self.table.match.result() is None
        if self.step is not None:
            return False  # the script waits on the learner
        return super().bot_due()

    def bot_thinking(self) -> int | None:
        if self.pending:
            return self.lesson.bot
        return None if self.step is not None else super().bot_thinking()

    def bot_move(self, seed: bytes | None = None) -> bool:
        if not self.pending:
            return False if self.step is not None else super().bot_move(seed)
        reply = self.pending.pop(0)
        seat, before = self.lesson.bot, self.table.state
        try:
            choice = reply(self.table) if callable(reply) else reply
            result: Submitted = self.table.act(seat, choice)
        except (ParlourError, ValueError, TypeError, KeyError, AttributeError) as error:
            result = Submitted(reason=getattr(error, "sentence", "its move is not one."))
        if not result.ok or result.entry is None:  # a lesson's mistake: say it, play on freely
            self.pending.clear()
            self.index = len(self.lesson.steps)
            self.message = f"{self.names[seat]} could not make its scripted move: {result.reason}"
            self.said = self.message
            return False
        self.message = self.screen.describe(
            before, seat, self.game.parse_action(result.entry.action)
        )
        self._run_automatic()
        self._next_view()
        if not self.pending:
            self._tell_step()
        return True

    # -- drawing ------------------------------------------------------------------------

    def render(self) -> Node:
        tree = super().render()
        step = self.step
        if step is not None and not self.pending and step.press is not None:
            highlight(tree, step.press, f"{self.scope}-say")
        return h(
            "div",
            {"class": f"learn learn-{self.lesson.game}"},
            self._panel(),
            tree,
        )

    def _panel(self) -> Node:
        lesson, step = self.lesson, self.step
        total = len(lesson.steps)
        if self.pending:
            words = f"{self.names[lesson.bot]} is moving…"
        else:
            words = step.say if step is not None else lesson.done
        over = self.table.match.result() is not None
        progress = (
            f"Step {self.index + 1} of {total}"
            if step is not None
            else "Done"
            if over
            else "Playing on"
        )
        next_button = (
            h(
                "button",
                {
                    "class": f"button primary {HIGHLIGHT}",
                    "type": "button",
                    "data-cmd": "lesson-next",
                    "aria-describedby": f"{self.scope}-say",
                },
                "Next",
            )
            if step is not None and step.press is None and not self.pending
            else None
        )
        return h(
            "section",
            {"class": "lesson", "data-role": "lesson", "aria-labelledby": f"{self.scope}-title"},
            h(
                "h2",
                {"id": f"{self.scope}-title", "data-role": "lesson-title", "tabindex": "-1"},
                lesson.title,
                h("span", {"class": "lesson-progress"}, f" · {progress}"),
            ),
            # Restart and Leave come before the words, Next after them: when Next goes, nothing
            # moves into the place a quick second tap on it would land.
            h(
                "div",
                {"class": "actions"},
                h(
                    "button",
                    {"class": "button small", "type": "button", "data-cmd": "lesson-restart"},
                    "Restart the lesson",
                ),
                h(
                    "a",
                    {"class": "button small", "href": lesson.rules or f"#rules-{lesson.game}"},
                    "Leave the lesson",
                ),
            ),
            h(
                "p",
                {"id": f"{self.scope}-say", "class": "lesson-say", "data-role": "lesson-say"},
                words,
            ),
            next_button,
        )


def highlight(tree: Node, press: Mapping[str, str], said: str) -> Node | None:
    """Mark the first element that sends `press` (its data-* attributes) as the next thing to
    press: a class for the eye, the lesson's words as its description for a screen reader."""
    wanted = {f"data-{key}": value for key, value in press.items()}
    for node in tree.walk():
        if isinstance(node, Node) and all(node.attrs.get(k) == v for k, v in wanted.items()):
            node.attrs["class"] = f"{node.attrs.get('class', '')} {HIGHLIGHT}".strip()
            described = node.attrs.get("aria-describedby", "")
            node.attrs["aria-describedby"] = f"{described} {said}".strip()
            return node
    return None


# -- the app's side: routes, clicks, keys and the bot's pause for #learn-<game> ----------------


def learn_root(game_id: str) -> str:
    return f"#learn-{game_id} .learn-root"


class Lessons:
    """The lessons under way (#learn-<game>), by game: made by the app on first use."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.under_way: dict[str, TutorialSession] = {}

    def route(self, game_id: str) -> None:
        """#learn-<game>: the lesson under way, or a new one."""
        if game_id not in self.under_way:
            self.under_way[game_id] = TutorialSession(lesson_for(game_id), self.host.href)
        session = self.under_way[game_id]
        session.focus_to = session.focus_to or "[data-role=lesson-title]"
        self.draw(game_id)

    def dispatch(self, game_id: str, data: dict[str, Any]) -> None:
        """A click or key in a lesson. "Restart the lesson" (and Rematch at its end) starts it
        again from its first step."""
        session = self.under_way.get(game_id)
        if session is None:
            return
        if data.get("cmd") in ("lesson-restart", "rematch"):
            self.under_way[game_id] = TutorialSession(lesson_for(game_id), self.host.href)
        elif data.get("cmd") == "download-game":
            self.host.effects.download.append(session.game_file())
            return
        else:
            session.handle(data)
        self.draw(game_id)

    def draw(self, game_id: str) -> None:
        session = self.under_way[game_id]
        effects = self.host.effects
        effects.draw(learn_root(game_id), session.render())
        effects.announce(session.take_said())
        focus = session.take_focus()
        if focus:
            effects.focus = within(learn_root(game_id), focus)
        due = session.bot_due()
        effects.attrs["bot-due"] = "1" if due else None
        if due:
            step = session.table.match.step
            request = {"op": "bot", "game": f"learn:{game_id}", "step": step}
            effects.later.append([pace.bot_pause(self.host.storage), request])

    def bot(self, game_id: str, step: object) -> None:
        """The bot's turn in a lesson, after the pause: its scripted reply, or, after the
        script, the real bot's move."""
        session = self.under_way.get(game_id)
        if session is None or step != session.table.match.step:
            return
        session.bot_move()
        self.draw(game_id)
