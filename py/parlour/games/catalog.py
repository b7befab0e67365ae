"""The one catalog of games: every game the site offers, as data, at the bottom layer (pure).

Each entry names a game (its id in addresses, saves and messages, and its name in sentences)
and where its parts live, as import paths ("module:attribute"), so reading the catalog loads
no engine, screen or bot (the home screen needs none of them). Everything that lists the games
is derived from here: games.GAMES, games.declared.GAME_IDS, the bot registry, the screens, the
lessons, online play's names, and, through the build (scripts/pages.py), index.html's
per-game sections and the main thread's lists (py/shell/catalog.py, assets/early.js). A game's
seat counts and options are its own declaration (`options`, games/<game>/options.py), which
takes its id and name from here. A fifth game is one entry here plus its own files
(docs/architecture.md, "Adding a game or an option").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Page:
    """What index.html says of a game, written into its sections by the build (scripts/pages.py).

    Words are HTML of our own (a hint may hold a link), written as they appear on the page.
    """

    emblem: str  # the Zener symbol on its home card (index.html's sprite: #zener-<emblem>)
    pitch: str  # the home card's one sentence: what the game is
    facts: tuple[str, ...]  # the home card's facts: players, length, kind
    availability: str  # the home card's ways to play it
    lede: str  # the set-up screen's first words: how pass and play keeps secrets
    hint: str  # the set-up screen's note under the form
    starting: str  # what the wait before a game says it is doing ("Shuffling the decks…")
    solo: str = "Setting up a game against the computer…"  # the same, against bots
    online_hint: str = ""  # a note in the online part of the set-up screen
    links: tuple[tuple[str, str], ...] = ()  # more buttons (href, label): card and set-up


@dataclass(frozen=True)
class Entry:
    """One game: its id and name, and its parts as import paths."""

    id: str
    name: str
    page: Page
    options: str  # its set-up declaration (seats and variant options): an `Options`
    engine: str  # its rules: a `Game` class
    screen: str  # its play screen (ui/<package>/screen.py): a class
    lesson: str  # its guided first game (ui/<package>/lesson.py): a `Lesson`
    bots: str  # its bots: a mapping of level to bot (bots/<game>/)
    facts: str = ""  # what the tools need to know of it: a `Facts` (games/<game>/facts.py)


# The folders (under py/parlour/) where each game has a package named by its id.
GAME_PACKAGES = ("games", "bots", "ui")
_PARLOUR = Path(__file__).resolve().parent.parent


def package_of(game: str, parlour: Path = _PARLOUR) -> str:
    """The name of a game's packages (games/<package>/, bots/<package>/, ui/<package>/) from its
    id: "psi-squad" is psi_squad. Refuses, with a sentence, an id whose package would be a
    module that exists already (games/zener.py, the five symbols, makes `zener` impossible), or
    a folder of ui/ that is not a game's (ui/online/, live play's, makes `online` impossible),
    since the game's parts would then be looked for there. The check reads the source tree; the
    browser imports from a zip, where it finds no file and passes what the tests passed."""
    package = game.replace("-", "_")
    for folder in GAME_PACKAGES:
        taken = parlour / folder / f"{package}.py"
        if taken.is_file():
            raise ValueError(
                f"A game cannot have the id {game!r}: its package would be"
                f" parlour.{folder}.{package}, and {folder}/{package}.py is a module already;"
                " choose another id."
            )
    if (parlour / "ui" / package).is_dir() and not (parlour / "games" / package).is_dir():
        raise ValueError(
            f"A game cannot have the id {game!r}: its screens would be in ui/{package}/, which"
            " is a folder of the site's own already; choose another id."
        )
    return package


def _parts(game: str, screen: str, engine: str) -> dict[str, str]:
    """The import paths of a game laid out as every game here is (docs/architecture.md): its
    folders games/<package>/, bots/<package>/ and ui/<package>/ (its screen and its lesson)."""
    package = package_of(game)
    return {
        "options": f"parlour.games.{package}.options:OPTIONS",
        "engine": f"parlour.games.{package}.rules:{engine}",
        "screen": f"parlour.ui.{package}.screen:{screen}",
        "lesson": f"parlour.ui.{package}.lesson:LESSON",
        "bots": f"parlour.bots.{package}:LEVELS",
        "facts": f"parlour.games.{package}.facts:FACTS",
    }


# The games, in the order the home screen shows them.
CATALOG: tuple[Entry, ...] = (
    Entry(
        "esp",
        "ESP",
        Page(
            emblem="star",
            pitch="Place tiles face up or hidden, jump them across the group, and be first to"
            " line up all five Zener symbols.",
            facts=("2–4 players", "20–30 min", "Hex tiles"),
            availability="Against bots, pass and play on one device, or online.",
            lede="Pass and play: everyone shares this device. Before each turn the board hides"
            " behind a hand-off screen, so nobody sees another player's hidden tiles.",
            hint="Light goes first, then Dark, Violet and Amber. Leave a name empty to play"
            " under the colour's name.",
            starting="Setting up the board…",
        ),
        **_parts("esp", "EspScreen", "ESP"),
    ),
    Entry(
        "espeers",
        "ESPEERS",
        Page(
            emblem="waves",
            pitch="A psychic card duel where PSI is both your life and your power, and every"
            " card can be answered.",
            facts=("2 players", "20 min", "Cards"),
            availability="Against a bot, pass and play or online, with two starter decks or"
            " your own.",
            lede="Pass and play: both players share this device. Your hand is shown only behind"
            " a hand-off screen, and the device is passed whenever the other player gets"
            " Opportunity, so pass it face down.",
            hint="Onslaught is aggressive (cheap attacks every turn); Mindwall is control"
            " (counters, prevention and drains). Who goes first is drawn at random. Decks you"
            ' save in the <a href="#decks-espeers">deck builder</a> appear in the lists too.',
            starting="Shuffling the decks…",
            online_hint="Online, every player brings a deck the other does not see until the"
            " end: the seats on this device play the decks chosen above, and a player on"
            " another device chooses theirs when they open the invite.",
            links=(("#decks-espeers", "Deck builder"),),
        ),
        **_parts("espeers", "EspeersScreen", "Espeers"),
    ),
    Entry(
        "telepathic",
        "Telepathic",
        Page(
            emblem="square",
            pitch="Work together without a word: reshape the grid until both your secret wins"
            " come true.",
            facts=("2–4 players", "15 min", "Cooperative"),
            availability="With a bot partner, pass and play or online: pairs, director mode,"
            " four partners or two teams.",
            lede="Pass and play: everyone shares this device. Condition cards are dealt in"
            " secret and shown only behind a hand-off screen. From the first card on: no"
            " talking, no gestures.",
            hint="Two partners: put first whoever most recently had a psychic experience; they"
            " take the first turn.",
            starting="Dealing the condition cards…",
            solo="Setting up a game with a bot partner…",
        ),
        **_parts("telepathic", "TeleScreen", "Telepathic"),
    ),
    Entry(
        "psi-squad",
        "Psi Squad",
        Page(
            emblem="cross",
            pitch="Probe your rivals' minds for their secret cyphers while you guard your own.",
            facts=("2–8 players (3+ best)", "20–40 min", "Deduction"),
            availability="Against bots, pass and play on one device, or online.",
            lede="Pass and play: everyone shares this device. Each player seals a secret cypher"
            " behind a hand-off screen; guesses are answered by the device from the sealed"
            " cypher, and every answer is re-checked when the cyphers are opened at the end.",
            hint="Who guesses first is drawn at random. Two players work, but three or more is"
            " the real game.",
            starting="Preparing the isolation chamber…",
        ),
        **_parts("psi-squad", "PsiScreen", "PsiSquad"),
    ),
)


def entry(game_id: str, catalog: Iterable[Entry] | None = None) -> Entry:
    """The catalog's entry for `game_id` (KeyError if there is none)."""
    for found in CATALOG if catalog is None else catalog:
        if found.id == game_id:
            return found
    raise KeyError(game_id)


def ids(catalog: Iterable[Entry] | None = None) -> tuple[str, ...]:
    return tuple(e.id for e in (CATALOG if catalog is None else catalog))


def names(catalog: Iterable[Entry] | None = None) -> dict[str, str]:
    """Each game's name by its id, in the catalog's order."""
    return {e.id: e.name for e in (CATALOG if catalog is None else catalog)}


def load(path: str) -> Any:
    """What an import path ("package.module:attribute") names, imported on first use."""
    module, _, attribute = path.partition(":")
    loaded = import_module(module)
    return getattr(loaded, attribute) if attribute else loaded
