"""Telepathic's lesson: a first game (the four reusable cards) of two turns with Bo.

The grid comes from the seed; the condition cards are the lesson's, sealed in each seat's store
like dealt ones (Ada: win green, lose orange; Bo: win star, lose circle). Ada hands Rotate
clockwise, Bo rotates the north-west quadrant; Bo hands Shift east, Ada shifts row 1 (three
green in row 1, three stars in column A; row 2 would have made three orange, her lose
condition), then announces star, Bo answers green, and both win.
"""

from __future__ import annotations

from parlour.fair.commit import Context
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.telepathic.actions import HandCard, Perform, Respond
from parlour.games.telepathic.state import CONDITIONS_LABEL
from parlour.match.config import MatchConfig
from parlour.match.match import Match
from parlour.match.table import AnyTable, Table, new_match_id
from parlour.ui.lesson_steps import Lesson, Step

NAMES = ("Ada", "Bo (bot)")
SEED = bytes(32)  # its starting grid is the one the lesson's words describe
CONDITIONS = ({"win": "green", "lose": "orange"}, {"win": "star", "lose": "circle"})


def table() -> AnyTable:
    variant = {"arrangement": "pair", "mode": "first"}
    config = MatchConfig("telepathic", new_match_id(), NAMES, variant, bots={"1": "easy"})
    stores = {}
    for seat, cards in enumerate(CONDITIONS):
        store = PrivateStore(Context(config.match_id, seat))
        store.commit(CONDITIONS_LABEL, dict(cards))
        stores[seat] = store
    prepared: AnyTable = Table(Match(GAMES["telepathic"], config, SEED), stores)
    return prepared


STEPS = (
    Step(
        "Telepathic is cooperative: you (Ada) and Bo, a bot, win or lose together, without a "
        "word. Your two secret cards are marked: win green, lose orange. Bo holds a shape "
        "win and a shape lose. A condition is met by three tiles in an unbroken row or column."
    ),
    Step(
        "Handing a card: on your turn you give Bo one of the four action cards, and Bo "
        "chooses where it acts. Choose Rotate clockwise.",
        {"cmd": "pick-card", "slot": "2"},
        "Rotate clockwise card",
    ),
    Step(
        "Hand it over. Your choice of card is your only message to Bo.",
        {"cmd": "hand"},
        "Hand it to Bo button",
        moves=True,
        replies=(Perform(0), HandCard(1)),
    ),
    Step(
        "Bo rotated the north-west quadrant, and now hands you Shift east. Lose conditions: "
        "after every action each of you checks your own lose card (your device does it for "
        "you); if it is met, the game is lost at once, for both of you.",
    ),
    Step(
        "Reading your partner: Bo cannot tell you anything, so every choice is the message. "
        "The set Bo acted on is framed on the grid: look at what it lined up (two or three of "
        "a colour or shape in a row) and what it broke apart. A partner steers towards their "
        "win and away from their lose, so a shape Bo keeps building is likely Bo's win, and "
        "one Bo keeps breaking up, Bo's lose. The card Bo hands you says where Bo hopes you "
        "will act."
    ),
    Step(
        "Choosing a set: the card acts on one of four rows. Row 2 would put three orange "
        "tiles in a line: your lose condition. Row 1 makes three green: your win. Choose "
        "row 1.",
        {"cmd": "pick-set", "set": "0"},
        "row 1 choice",
    ),
    Step(
        "Shift row 1 east.",
        {"cmd": "perform"},
        "button that performs the card",
        moves=True,
    ),
    Step(
        "Three green in row 1: your win is met. Column A shows three stars: Bo's rotation "
        "lined up two of them and your shift added the third, a hint that star is Bo's win. "
        "The Announcement: after any turn either of you may name the other's win condition. "
        "Open it.",
        {"cmd": "announce-open"},
        "Make the Announcement button",
    ),
    Step(
        "Name Bo's win condition: star.",
        {"cmd": "claim", "seat": "1", "name": "star"},
        "star button",
    ),
    Step(
        "Announce. Bo then names yours.",
        {"cmd": "announce"},
        "Announce button",
        moves=True,
        replies=(Respond("green"),),
    ),
)

LESSON = Lesson(
    game="telepathic",
    title="Learn Telepathic",
    table=table,
    steps=STEPS,
    done=(
        "Bo named green. Both named right and both wins are on the grid, so you both win. "
        "Had either name been wrong, or a win not met, you would both have lost: announce "
        "only when you are sure."
    ),
)
