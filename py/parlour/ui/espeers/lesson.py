"""ESPEERS's lesson: the first turn of a game between the starter decks, against Bo.

Both decks' shuffles are fixed by the lesson (each seat's private seed is the lesson's, sealed
in its store like a dealt one, and the public seed is fixed too), so Ada's opening hand is
Mental Block, Mind Spike, Null Field, Psychic Jab, Sapping Strike, Second Wind, and Ada goes
first. Ada plays Mind Spike (PSI as mana), Bo answers with Mind Drain (the stack and
Opportunity), both resolve, Ada cycles Second Wind (cycling) and lays Null Field as a barrier
(barriers), Bo guesses its symbol wrong; then the game goes on freely.
"""

from __future__ import annotations

from parlour.fair.commit import Context
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.espeers.actions import AssignDamage, Mulligan, Pass, Play, Predict
from parlour.games.espeers.state import DECK_LABEL
from parlour.match.config import MatchConfig
from parlour.match.match import Match
from parlour.match.table import AnyTable, Table, new_match_id
from parlour.ui.lesson_steps import Lesson, Step

NAMES = ("Ada", "Bo (bot)")
SEED = bytes([2]) * 32  # Ada goes first
# the secret halves of the two shuffles (found by trying seeds for the hands above)
DECK_SEEDS = ("00" * 31 + "9a", "00" * 31 + "01")


def table() -> AnyTable:
    game = GAMES["espeers"]
    config = MatchConfig("espeers", new_match_id(), NAMES, {}, bots={"1": "easy"})
    dealt = game.deal(config.setup(), [0, 1])
    stores = {}
    for seat in (0, 1):
        dealt_deck = dealt[seat][DECK_LABEL]
        assert isinstance(dealt_deck, dict)
        deck = dict(dealt_deck)
        deck["seed"] = DECK_SEEDS[seat]
        store = PrivateStore(Context(config.match_id, seat))
        store.commit(DECK_LABEL, deck)
        stores[seat] = store
    prepared: AnyTable = Table(Match(game, config, SEED), stores)
    return prepared


def card(slot: int, name: str, say: str) -> Step:
    return Step(say, {"cmd": "card", "slot": str(slot)}, f"{name} in your hand")


STEPS = (
    Step(
        "You are Ada; Bo, a bot, is your opponent. PSI is your life and your mana at once: "
        "each of you has 10 points. Paying for a card moves points from your Pool to Spent "
        "(they come back at your next Refresh); damage removes points from the game. Whoever "
        "reaches 0 loses."
    ),
    Step(
        "Your opening hand of six: keep it (a first mulligan is free, later ones cost 1 PSI).",
        {"cmd": "keep"},
        "Keep this hand button",
        moves=True,
        replies=(Mulligan(True),),
    ),
    card(
        1,
        "Mind Spike",
        "You go first (no Refresh and no Draw on the very first turn). Choose Mind Spike, a "
        "PK card: 1 damage for 1 PSI.",
    ),
    Step(
        "Play it: 1 PSI moves from your Pool to Spent, and the card is suspended on the "
        "stack. It does nothing yet: Opportunity passes to Bo, who may answer.",
        {"cmd": "play"},
        "Play button",
        moves=True,
        replies=(Play("mind-drain"),),
    ),
    Step(
        "The stack and Opportunity: Bo answered with Mind Drain, suspended on top of your "
        "Mind Spike, and Opportunity came back to you. The top card resolves first, once both "
        "of you pass in a row. Pass.",
        {"cmd": "pass"},
        "Pass button",
        moves=True,
        replies=(Pass(), Pass()),
    ),
    Step(
        "Mind Drain resolved: 2 of your PSI went from Pool to Spent (not lost: you still "
        "have 10). Its owner, Bo, had Opportunity again and passed. Pass to let your Mind "
        "Spike resolve.",
        {"cmd": "pass"},
        "Pass button",
        moves=True,
        replies=(AssignDamage(1, 0),),
    ),
    card(
        4,
        "Second Wind",
        "Bo took 1 damage: that point left the game, so Bo has 9 PSI. Cycling: any card may "
        "be discarded for its symbol's ability, at once, without passing Opportunity. Choose "
        "Second Wind (a star).",
    ),
    Step(
        "Cycle it: a star regains 2 PSI from Spent to your Pool.",
        {"cmd": "cycle"},
        "Cycle button",
        moves=True,
    ),
    card(
        1,
        "Null Field",
        "Barriers: in your Active phase you may lay one card face down with 2 PSI from your "
        "Pool on it. It absorbs up to 2 damage of one attack. Choose Null Field (a waves).",
    ),
    Step(
        "Lay it as your barrier. Bo may then guess its symbol once: a right guess breaks it.",
        {"cmd": "barrier"},
        "Lay as a barrier button",
        moves=True,
        replies=(Predict("star"),),
    ),
)

LESSON = Lesson(
    game="espeers",
    title="Learn ESPEERS",
    table=table,
    steps=STEPS,
    done=(
        "Bo guessed star: wrong, so your barrier stands. In a later turn of yours it can also "
        "attack: discard it for 1 damage. The game goes on against Bo: pass to end your turn, "
        "answer Bo's cards when you hold Opportunity, and bring Bo's PSI to 0."
    ),
)
