"""Whole games by link in a group chat (issue 38): every player sends what their screen shows to
the group and opens every new link in the order the chat shows it; nobody sends a link the screen
did not ask for. Psi Squad of five (two bots), ESP of four (one bot) and Telepathic's four
partners, between three or four browser contexts, each to a verified end on every device. At
every wait the test checks the sentence on each screen (`Chat.check_wait`): the one the pure
model says for that device's save, naming a player, in the players' words; and a screen asks to
send a link only when another device lacks records of its own. Moves are chosen to end quickly.
(Psi Squad of three: e2e/test_by_link.py.)"""

from __future__ import annotations

import time

from e2e.harness import PageWatch
from e2e.link_players import Chat, Device
from parlour.match.by_link import LinkPlay


def group(browser, site, watches: list[PageWatch], count: int) -> Chat:
    """`count` devices: desktops and phones, light and dark; every screen checked at each wait."""
    looks = [(1280, 800, "light"), (360, 740, "dark"), (1280, 800, "dark"), (360, 740, "light")]
    return Chat(
        [Device(browser, site, watches, *looks[i]) for i in range(count)],
        waits=True,
    )


def setup(game: str, seats: int, names: dict[int, str], bots: tuple[int, ...] = ()):
    """A set-up form's filling: the number of seats, some names, the bots' seats (easy)."""

    def form(page) -> None:
        page.check(f"input[name='{game}-seats'][value='{seats}']")
        for seat, name in names.items():
            page.fill(f"#new-{game} [data-seat-name='{seat}']", name)
        for seat in bots:
            page.select_option(f"#new-{game} [data-seat-kind='{seat}']", "easy")

    return form


def play_to_the_end(chat: Chat, game: str, form, people: tuple[str, ...], decide) -> int:
    invite = chat.create(game, form)
    for index, name in enumerate(people[1:], start=1):
        chat.join(index, invite, name)
    moves = chat.play(game, decide)
    chat.check_the_end()
    assert chat.waits_checked > 0
    return moves


def test_psi_squad_of_five_with_two_bots_by_link_in_a_group_chat(browser, site):
    """Three people and two bots (on the creator's device); each person guesses a real cypher
    (the test peeks at the bots' on the creator's device), so four are guessed soon."""
    from parlour.games.psi_squad.actions import ChooseCypher, Guess

    started = time.monotonic()
    watches: list[PageWatch] = []
    chat = group(browser, site, watches, 3)
    cyphers = ("123", "456", "789")

    def decide(play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        state = play.table.state
        if state.setting_up:
            return ChooseCypher(cyphers[seat])
        target = state.targets(seat)[0]
        bots = plays[0]  # the creator's device holds the bots' seats
        digits = cyphers[target] if target < 3 else bots.stores[target].value("cypher")
        return Guess(target, digits)

    def form(page) -> None:
        setup("psi-squad", 5, {0: "Ada", 3: "Di", 4: "Ed"}, (3, 4))(page)
        page.check("input[name='psi-squad-length'][value='3']")

    moves = play_to_the_end(chat, "psi-squad", form, ("Ada", "Bo", "Cy"), decide)
    chat.report(f"Psi Squad of five, two bots, {moves} moves by clicks", started)
    chat.close(watches)


def test_esp_of_four_with_a_bot_by_link_in_a_group_chat(browser, site):
    """Three people and a bot: the people place symbol-up tiles toward a set of five, which
    ends the game during placement."""
    from parlour.games.esp.actions import Place
    from parlour.games.esp.hexgrid import windows_through

    started = time.monotonic()
    watches: list[PageWatch] = []
    chat = group(browser, site, watches, 3)

    def promise(board, cell) -> int:
        """How near a set the windows through `cell` are: the most symbol-up tiles of one
        window with no two alike and none symbol-down, then how many windows have that many."""
        best = count = 0
        for window in windows_through(cell, 5):
            symbols = set()
            for c in window:
                tile = board.get(c)
                if tile is not None and (tile.symbol is None or tile.symbol in symbols):
                    break
                if tile is not None:
                    symbols.add(tile.symbol)
            else:
                if len(symbols) > best:
                    best, count = len(symbols), 0
                count += len(symbols) == best
        return best * 100 + count

    def decide(play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        table = play.table
        legal = table.legal(seat)
        places = [a for a in legal if isinstance(a, Place) and not a.hidden]
        if not places:
            return legal[0]
        after = {a: table.game.apply(table.state, seat, a) for a in places}
        won = [a for a in places if after[a].outcome is not None]
        return won[0] if won else max(places, key=lambda a: promise(after[a].board, a.cell))

    form = setup("esp", 4, {0: "Ada", 3: "Di"}, (3,))
    moves = play_to_the_end(chat, "esp", form, ("Ada", "Bo", "Cy"), decide)
    chat.report(f"ESP of four, one bot, {moves} moves by clicks", started)
    chat.close(watches)


def test_telepathic_four_partners_by_link_in_a_group_chat(browser, site):
    """Four people on four devices, each card dealt across devices. One turn (a card handed,
    performed, both lose conditions checked on their own devices; a win in one if the test,
    reading each seat's cards from its own device, finds one: e2e/tele_planner.py), then the
    next active player announces the two win conditions (a loss unless both hold: an end as
    checked as a win)."""
    from e2e.tele_planner import plan_win
    from parlour.games.telepathic.rules import Announce, HandCard, Perform

    started = time.monotonic()
    watches: list[PageWatch] = []
    chat = group(browser, site, watches, 4)
    planned: dict[int, int] = {}  # the slot handed: the set to perform

    def card(plays: list[LinkPlay], seat: int, which: str) -> str:
        return str(plays[seat].stores[seat].value("conditions")[which])  # device i holds seat i

    def decide(play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        state = play.table.state
        wins = [card(plays, s, "win") for s in (1, 3)]
        if state.phase == "perform":
            return Perform(planned[state.handed])
        assert state.phase == "hand", state.phase
        if state.turns:
            return Announce(((1, wins[0]), (3, wins[1])))
        loses = [card(plays, s, "lose") for s in (0, 2)]
        plan = plan_win(state.grid, list(state.row), wins, loses, 1)
        slot, index = (plan or plan_win(state.grid, list(state.row), [], loses, 1))[0]
        planned[slot] = index
        return HandCard(slot)

    def form(page) -> None:
        page.check("input[name='telepathic-arrangement'][value='four']")
        page.fill("#new-telepathic [data-seat-name='0']", "Ada")

    moves = play_to_the_end(chat, "telepathic", form, ("Ada", "Bo", "Cy", "Di"), decide)
    chat.report(f"Telepathic four partners, {moves} moves by clicks", started)
    chat.close(watches)
