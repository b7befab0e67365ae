"""Play by link's screens in the worker (ui/by_link/app.py), driven as the page drives them: the
set-up form's "Play by link", links opened by address, the join screen, moves, saves."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.errors import MalformedInput
from parlour.fair.rng import Rng
from parlour.games.declared import GAME_IDS, options_for
from parlour.games.facts import Example
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match.audit import Verified
from parlour.match.by_link import LinkPlay
from parlour.match.online.device import Crypto
from parlour.ui.app import App
from parlour.ui.by_link import app as link_app
from parlour.ui.by_link.screen import SCAN_PART, removal, send_tree
from parlour.ui.tree import to_html
from tests.signers import Ed25519Signer, P256Signer
from tests.signers import verify as real_verify
from tests.tables import examples, labels
from tests.ui.test_bot_seats import form
from tests.ui.test_online_app import Keyring

ROOT_DIR = Path(__file__).resolve().parents[2]

SITE = "https://psi.example/"


def call(app: App, request: dict) -> dict:
    """One request as the worker makes it (py/ui/webcrypto.py's `call`): the signatures it
    carries checked first (a page keyring's `verify` answers only those), the app's call, then
    what waits signed and the app's pass after signing."""
    text = json.dumps(request)
    keyring = app.keyring
    if isinstance(keyring, PageKeyring):
        keyring.checked = {c: real_verify(*c) for c in app.signature_checks(text)}
    out = json.loads(app.call(text))
    assert "error" not in out, out["error"]
    for _ in range(4):
        signer, pending = app.pending_signatures()
        if not pending:
            break
        for record, data in pending:
            record.signature = signer.real.sign(data)
        out = json.loads(app.after_signing())  # the same call's effects, with what was signed
        assert "error" not in out, out["error"]
    if isinstance(keyring, PageKeyring):
        keyring.checked = {}
    return out


class LaterSigner:
    """A key pair as the page's (WebCrypto): `sign` answers later, so records wait for it."""

    def __init__(self, real: Ed25519Signer | P256Signer) -> None:
        self.real, self.algorithm, self.public_key = real, real.algorithm, real.public_key

    def sign(self, data: bytes) -> None:
        return None


class PageKeyring(Keyring):
    """The page's keyring (py/ui/webcrypto.py) in CPython: keys that sign later, and a check
    of signatures that answers only what was checked before the call."""

    def __init__(self, kept=None) -> None:
        super().__init__(kept)
        self.checked: dict = {}

    def fresh(self):
        return Crypto(LaterSigner(P256Signer()), self.verify)

    def kept(self, name):
        crypto = self.kept_cryptos.get(name)
        return Crypto(crypto.signer, self.verify) if crypto is not None else None

    def verify(self, algorithm, public, data, signature) -> bool:
        return self.checked.get((algorithm, public, data, signature)) is True


def started(local: dict | None = None, keyring: Keyring | None = None) -> App:
    app = App()
    app.keyring = keyring or Keyring()
    call(app, {"op": "start", "local": local or {}, "session": {}, "href": SITE + "#home"})
    return app


def drawn(out: dict, root: str = link_app.ROOT) -> str:
    return next((r[1] for r in out.get("render", []) if r[0] == root), "")


def links_in(page: str) -> list[str]:
    return [html.unescape(x) for x in re.findall(r'data-copy="([^"]+)"', page)]


def route(app: App, link: str) -> dict:
    out = call(app, {"op": "route", "hash": "#" + link.partition("#")[2], "href": link})
    return out if drawn(out) else call(app, {"op": "route", "hash": out.get("go", "#bylink")})


def psi_form(kinds: dict[int, str] | None = None, seats: int = 2) -> list[dict]:
    length = {"tag": "input", "type": "radio", "value": "3", "checked": True,
              "data": {"variant": "length"}}  # fmt: skip
    return [*form("psi-squad", seats, kinds or {}), length]


@pytest.mark.parametrize(("keys", "split"), [(Keyring, 0), (PageKeyring, 0), (PageKeyring, 300)])
def test_a_game_of_psi_squad_by_link_between_two_browsers_ends_checked_on_both(
    keys, split, monkeypatch
):
    if split:  # every link longer than `split` goes in parts, opened in the order sent
        whole = LinkPlay.links
        monkeypatch.setattr(LinkPlay, "links", lambda self, limit=split: whole(self, limit))
    ada, bo = started(keyring=keys()), started(keyring=keys())
    out = call(ada, {"op": "route", "hash": "#link-psi-squad", "form": psi_form()})
    assert out["go"] == "#bylink"
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    assert ("Send these links" if split else "Send this link") in page and "group chat" in page
    assert split or 'class="qr"' in page or "too long for a QR code" in page
    invite = links_in(page)
    assert (len(invite) > 1) == bool(split) and invite[0].startswith(SITE + "#pl=2.")
    for part in invite[:-1]:
        assert "of the same send too" in drawn(route(bo, part))

    join = drawn(route(bo, invite[-1]))
    assert "Join a game of Psi Squad by link" in join and "Your seat" in join
    fields = {"bylink-seat": "1", "bylink-name": "Bo"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
    sent = links_in(drawn(out))
    assert sent, drawn(out)
    call(bo, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    plays, since, turns = play_out([ada, bo], sent, psi_choice)
    assert [p.audit_result for p in plays] == [Verified(), Verified()]
    assert plays[0].match.head() == plays[1].match.head()
    assert since == turns > 0


Decide = Callable[[LinkPlay, list[LinkPlay], Rng], object]


def play_out(devices: list[App], sent: list[str], decide: Decide, most: int = 3000) -> tuple:
    """Two devices play to the end by links only: each link shown goes to the other device
    (then "Done: I sent it"); the device whose turn it is moves as its board's click would.
    The plays at the end, and how many links brought a player's turn, with "Since your turn"
    and in all."""
    queue = [(0, link) for link in sent]
    rng = Rng(b"by link app")
    since = turns = 0
    for _ in range(most):
        plays = [next(iter(a.links().plays.values())) for a in devices]
        if all(p.audit_result is not None for p in plays):
            return plays, since, turns
        if queue:
            to, link = queue.pop(0)
            page = drawn(route(devices[to], link))
            plays = [next(iter(a.links().plays.values())) for a in devices]
            if plays[to].summary()["my_turn"] and plays[to].match.step > 2:
                turns += 1
                since += 'data-role="since"' in page and "Since your turn:" in page
        else:
            to = next(i for i, p in enumerate(plays) if p.summary()["my_turn"])
            view = devices[to].links().view(plays[to])
            assert view.act(decide(plays[to], plays, rng)), view.message
            page = drawn(call(devices[to], {"op": "route", "hash": "#bylink"}))
        if plays[to].match_id in devices[to].links().sending:
            queue += [(1 - to, link) for link in links_in(page)]
            call(devices[to], {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    raise AssertionError("the game by link did not end")


def psi_choice(play: LinkPlay, plays: list[LinkPlay], rng: Rng) -> object:
    """Psi Squad: a random cypher; half the time the right guess (the test peeks, to end the
    game sooner); else a legal choice."""
    seat = play.local[0]
    state = play.table.state
    if state.setting_up:
        return ChooseCypher("".join(str(rng.below(10)) for _ in range(state.length)))
    if state.pending is None and rng.below(2) == 0:
        target = state.targets(seat)[0]
        holder = next(p for p in plays if target in p.local)
        return Guess(target, holder.stores[target].value("cypher"))
    return any_choice(play, plays, rng)


def any_choice(play: LinkPlay, plays: list[LinkPlay], rng: Rng) -> object:
    """A legal choice of the seat whose turn it is on this device, at random."""
    match = play.match
    seat = min(s for s in match.game.to_move(match.state) if s in play.local)
    legal = play.table.legal(seat)
    return legal[rng.below(len(legal))]


def joined() -> tuple[App, App, list[str]]:
    """Ada's game and Bo's device joined to it; the links Bo's join gave to send."""
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    call(ada, {"op": "route", "hash": "#link-psi-squad", "form": psi_form()})
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    route(bo, invite[0])
    fields = {"bylink-seat": "1", "bylink-name": "Bo"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
    return ada, bo, links_in(drawn(out))


def saved(app: App) -> dict[str, str]:
    return {k: v for k, v in app.storage.values["local"].items() if k.startswith(link_app.SAVE)}


def test_a_link_opened_twice_says_so_and_a_changed_one_is_refused_changing_nothing():
    ada, _, sent = joined()
    first = drawn(route(ada, sent[0]))
    assert "already" not in first
    before = saved(ada)
    again = drawn(route(ada, sent[0]))
    assert "You had everything in that link already: nothing changed." in again
    data = sent[0][:-8] + ("A" if sent[0][-8] != "A" else "B") + sent[0][-7:]
    changed = drawn(route(ada, data))
    assert "refused" in changed or "damaged" in changed or "cannot" in changed, changed
    play = next(iter(ada.links().plays.values()))
    assert json.loads(saved(ada)[link_app.SAVE + play.match_id]) == json.loads(
        before[link_app.SAVE + play.match_id]
    )


def test_games_by_link_come_back_after_a_reload_and_your_games_lists_them():
    ada, _, sent = joined()
    route(ada, sent[0])
    play = next(iter(ada.links().plays.values()))
    keyring = PageKeyring(ada.keyring.kept_cryptos)
    again = App()
    again.keyring = keyring
    start = {"op": "start", "local": saved(ada), "session": {}, "href": SITE + "#home",
             "hash": "#home"}  # fmt: skip
    home = drawn(call(again, start), link_app.HOME_ROOT)
    assert "Your games by link" in home and "Psi Squad: P1, Bo" in home
    assert f'href="#bylink={play.match_id}"' in home
    assert "Your turn." in home or "Waiting for" in home
    board = drawn(call(again, {"op": "route", "hash": f"#bylink={play.match_id}"}))
    assert 'class="play play-psi-squad"' in board
    reloaded = again.links().plays[play.match_id]
    assert reloaded.match.head() == play.match.head()


def test_a_kept_game_that_was_changed_is_set_aside_with_a_sentence():
    ada, _, sent = joined()
    route(ada, sent[0])
    kept = saved(ada)
    key = next(k for k in kept if ":" not in k.removeprefix(link_app.SAVE))
    data = json.loads(kept[key])
    data["records"][0]["b"]["n"][0] = "Eve"  # the creator's signed names, changed
    again = App()
    again.keyring = PageKeyring(ada.keyring.kept_cryptos)
    start = {"op": "start", "local": {key: json.dumps(data)}, "session": {}, "href": SITE}
    call(again, start)
    call(again, {"op": "route", "hash": "#bylink=" + key.removeprefix(link_app.SAVE)})
    assert again.links().plays == {}
    assert any("Your saved game by link" in d for d in again.storage.damaged)


def test_every_set_up_form_offers_play_by_link_and_sends_its_form():
    page = (ROOT_DIR / "index.html").read_text()
    for game in GAME_IDS:
        form_html = page.split(f'<section id="new-{game}"')[1].split("</section>")[0]
        assert f'href="#link-{game}"' in form_html
        assert 'data-role="link-error"' in form_html
        assert f'<section id="link-{game}" class="screen">' in page
    assert '"#link-"' in (ROOT_DIR / "py/shell/page.py").read_text()
    assert 'id="link-help"' in page and "Playing by link" in page


def test_a_set_up_that_cannot_be_played_by_link_says_why_under_the_form():
    app = started(keyring=PageKeyring())
    every_seat_a_bot = psi_form({0: "easy", 1: "easy"})
    out = call(app, {"op": "route", "hash": "#link-psi-squad", "form": every_seat_a_bot})
    said = dict(out["text"])["#new-psi-squad [data-role=link-error]"]
    assert said and out["go"] == "#new-psi-squad"
    assert app.links().plays == {}


def test_a_browser_that_cannot_sign_is_told_so():
    app = App()
    call(app, {"op": "start", "local": {}, "session": {}, "href": SITE})
    out = call(app, {"op": "route", "hash": "#link-esp", "form": form("esp", 2, {})})
    assert dict(out["text"])["#new-esp [data-role=link-error]"] == link_app.NO_KEYS


def radio(key: str, value: str, seats: str | None = None) -> dict:
    data = {"variant": key, **({"seats": seats} if seats else {})}
    return {"tag": "input", "type": "radio", "value": value, "checked": True, "data": data}


def deck(seat: int, value: str) -> dict:
    return {"tag": "select", "value": value, "data": {"deck-seat": str(seat), "default": value}}


def fields_of(game: str, example: Example) -> list[dict]:
    """An example table's set-up form as the page sends it: the seat count, each seat's name and
    kind (person or a bot's level), and each variant option's choice (one that fixes the seat
    count, as Telepathic's arrangement, says so)."""
    counted_by = options_for(game).seats.counted_by
    fixed = str(example.seats)
    return [
        *form(game, example.seats, dict(example.bots)),
        *(
            radio(key, str(value), fixed if key == counted_by else None)
            for key, value in example.variant.items()
        ),
    ]


# Every game's example tables (games/<game>/facts.py), with bots and without.
SET_UPS = [(game, fields_of(game, example)) for game, example in examples(more=True)]
ESPEERS_DECKS = [deck(0, "starter:mindwall"), deck(1, "starter:x")]  # "x": not a deck


@pytest.mark.parametrize(("game", "fields"), SET_UPS, ids=labels(more=True))
def test_every_game_and_variant_starts_by_link_and_a_second_device_joins(game, fields):
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    call(ada, {"op": "route", "hash": f"#link-{game}", "form": fields})
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    assert invite, game
    join = drawn(route(bo, invite[-1]))
    assert "Your seat" in join
    play = next(iter(ada.links().plays.values()))
    bots = [n for n in play.names if n.endswith("(bot)")]
    assert all(n in join for n in bots) and ("device plays the bot" in join) == bool(bots)
    assert ('data-field="espeers-deck"' in join) == (game == "espeers")
    fields_ = {"bylink-seat": "1", "bylink-name": "Bo", "espeers-deck": "starter:onslaught"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields_}})  # fmt: skip
    assert links_in(drawn(out)), drawn(out)
    joined = next(iter(bo.links().plays.values()))
    assert joined.local == (1,) and joined.name(1) == "Bo"


def test_espeers_decks_by_link_are_each_device_s_own_choice():
    """The maker's deck from its form (a deck that is none falls back on its default), the
    joiner's from its join screen: each kept private on its own device."""
    fields = [*fields_of("espeers", Example("ESPEERS", 2)), *ESPEERS_DECKS]
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    call(ada, {"op": "route", "hash": "#link-espeers", "form": fields})
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    route(bo, invite[-1])
    fields_ = {"bylink-seat": "1", "bylink-name": "Bo", "espeers-deck": "starter:onslaught"}
    call(bo, {"op": "click", "region": "bylink",
              "data": {"cmd": "bylink-join", "fields": fields_}})  # fmt: skip
    play, joined = (next(iter(a.links().plays.values())) for a in (ada, bo))
    assert joined.private == {1: {"deck": "onslaught"}}
    assert play.private[0] == {"deck": "mindwall"}


def test_a_digit_typed_on_the_board_of_a_game_by_link_reaches_it_and_its_save_is_kept():
    ada, _, sent = joined()
    route(ada, sent[0])
    play = next(iter(ada.links().plays.values()))
    assert play.summary()["my_turn"] and play.table.state.setting_up
    for digit in "123":
        call(ada, {"op": "key", "region": "bylink", "key": digit})
    out = call(ada, {"op": "key", "region": "bylink", "key": "Enter"})
    assert links_in(drawn(out)), drawn(out)  # the sealed cypher's link, to send
    assert not play.summary()["my_turn"]
    assert link_app.SAVE + play.match_id in ada.current_saves()


def test_damaged_parts_and_text_that_is_no_link_get_a_sentence_not_a_fault():
    app = started(keyring=PageKeyring())
    assert "open part 2 of the same send too" in drawn(route(app, SITE + "#pl=1.1-2.abcdefgh.AAAA"))
    page = drawn(route(app, SITE + "#pl=1.2-2.abcdefgh.BBBB"))
    assert 'class="error"' in page and "Join the game" not in page
    for text in ("#pl=9.AAAA", "#pl=1.%%%", "#pl="):
        page = drawn(route(app, SITE + text))
        assert 'class="error"' in page and "Join the game" not in page, text


# Each game's first two-player table of people; Psi Squad's cyphers, a choice its moves do not
# list, are typed in by the test of its own above.
TWO_PLAYERS = {
    game: fields_of(game, example)
    for game, example in reversed(examples(more=True))
    if example.seats == 2 and not example.bots and game != "psi-squad"
}


@pytest.mark.parametrize(("game", "fields"), TWO_PLAYERS.items(), ids=list(TWO_PLAYERS))
def test_every_game_plays_to_the_end_by_link(game, fields):
    if game == "espeers":
        fields = [*fields, *ESPEERS_DECKS]
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    call(ada, {"op": "route", "hash": f"#link-{game}", "form": fields})
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    route(bo, invite[-1])
    fields_ = {"bylink-seat": "1", "bylink-name": "Bo", "espeers-deck": "starter:onslaught"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields_}})  # fmt: skip
    call(bo, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    plays, since, turns = play_out([ada, bo], links_in(drawn(out)), any_choice)
    assert [p.audit_result for p in plays] == [Verified(), Verified()]
    assert plays[0].match.head() == plays[1].match.head()
    assert 0 < since <= turns  # a link of routine steps only (Telepathic's checks) tells none


class Clock:
    """The time of day for both devices (`link_app.now`), moved on by the test."""

    def __init__(self, start: float = 1_790_000_000.0) -> None:
        self.at = start

    def __call__(self) -> float:
        return self.at


def limit(hours: str) -> dict:
    return {"tag": "select", "value": hours, "data": {"link-limit": ""}}


def test_a_time_per_move_set_in_the_form_lets_another_player_claim_the_game(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(link_app, "now", clock)
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    call(ada, {"op": "route", "hash": "#link-psi-squad", "form": [*psi_form(), limit("24")]})
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    assert "Time per move: 1 day, counted from the first move." in page
    invite = links_in(page)
    route(bo, invite[0])
    fields = {"bylink-seat": "1", "bylink-name": "Bo"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
    route(ada, links_in(drawn(out))[0])
    play = next(iter(ada.links().plays.values()))
    assert play.limit == 24 * 3600 and play.records[("s0", 1)].body["t"] == int(clock.at)
    assert ada.links().view(play).act(ChooseCypher("123"))
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    assert "If Bo's move has not come within 1 day, you can claim the game." in page
    assert "bylink-claim" not in page
    route(bo, links_in(page)[0])
    assert "Bo has 1 day left for this move" in drawn(call(bo, {"op": "route", "hash": "#bylink"}))
    clock.at += 23 * 3600
    early = drawn(call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-claim"}}))
    assert "Bo still has 1 hour for this move." in early and play.match.result() is None
    clock.at += 3600
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    assert "Bo's time for their move is up: you can claim the game (Bo forfeits)." in page
    line = '<p class="bylink-claim-line">Bo&#x27;s time'  # said plainly, not as a muted hint
    assert line in page or line.replace("&#x27;", "'") in page, page
    assert 'class="button primary" data-cmd="bylink-claim"' in page
    claimed = drawn(call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-claim"}}))
    assert "You claimed the game: Bo ran out of time for their move." in claimed
    assert play.match.result() is not None
    told = drawn(route(bo, links_in(claimed)[0]))
    assert "P1 claimed the game: Bo ran out of time." in told, told
    assert next(iter(bo.links().plays.values())).match.result() is not None


def test_a_game_by_link_signs_the_time_of_day_not_the_page_s_own_clock():
    """A time per move counts across devices and reloads: a record's time is the time of day
    (the page's monotonic clock starts again at each load)."""
    import time

    app = started(keyring=PageKeyring())
    call(app, {"op": "route", "hash": "#link-psi-squad", "form": psi_form()})
    play = next(iter(app.links().plays.values()))
    assert abs(play.records[("s0", 1)].body["t"] - time.time()) < 60


def telepathic_pair_after_a_turn() -> tuple[list[App], list[LinkPlay]] | None:
    """Two browsers with a Telepathic pair by link, played (no Announcement) until a turn is
    complete and every link is in; None when a lose condition ended the game before that
    (the cards are dealt at random)."""
    from parlour.games.telepathic.rules import Announce

    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    pair = [*form("telepathic", 2, {}), radio("arrangement", "pair", "2")]
    call(ada, {"op": "route", "hash": "#link-telepathic", "form": pair})
    route(bo, links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))[-1])
    fields = {"bylink-seat": "1", "bylink-name": "Bo"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
    devices, queue = [ada, bo], [(0, link) for link in links_in(drawn(out))]
    for _ in range(200):
        plays = [next(iter(a.links().plays.values())) for a in devices]
        state = plays[0].table.state if plays[0].table is not None else None
        if not queue and state is not None and state.phase == "hand" and state.turns:
            return devices, plays
        if queue:
            to, link = queue.pop(0)
            page = drawn(route(devices[to], link))
        else:
            movers = [i for i, p in enumerate(plays) if p.summary()["my_turn"]]
            if not movers:
                return None
            to = movers[0]
            seat = plays[to].local[0]
            legal = [c for c in plays[to].table.legal(seat) if not isinstance(c, Announce)]
            assert devices[to].links().view(plays[to]).act(legal[0])
            page = drawn(call(devices[to], {"op": "route", "hash": "#bylink"}))
        if plays[to].match_id in devices[to].links().sending:
            queue += [(1 - to, link) for link in links_in(page)]
            call(devices[to], {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    raise AssertionError("the pair did not complete a turn")


def test_the_telepathic_partner_who_is_not_active_announces_from_the_board_by_link():
    from parlour.games.telepathic.rules import DECKS

    found = next(filter(None, (telepathic_pair_after_a_turn() for _ in range(10))))
    devices, plays = found
    state = plays[0].table.state
    waiting = 1 - state.active
    device, play = devices[waiting], plays[waiting]
    page = drawn(call(device, {"op": "route", "hash": "#bylink"}))
    assert "Make the Announcement" in page
    kind = state.kind_of(state.active)
    for data in ({"cmd": "announce-open"},
                 {"cmd": "claim", "seat": str(state.active), "name": DECKS[kind][0]},
                 {"cmd": "announce"}):  # fmt: skip
        page = drawn(call(device, {"op": "click", "region": "bylink", "data": data}))
    assert play.table.state.phase == "respond" and play.table.state.announcer == waiting, page
    told = drawn(route(devices[1 - waiting], links_in(page)[0]))
    other = plays[1 - waiting]
    assert other.table.state.announcer == waiting and other.match.head() == play.match.head()
    assert "Answer the Announcement." in told and "makes the Announcement" in told


def finished_game() -> tuple[App, App, LinkPlay]:
    """Ada's and Bo's browsers after a whole game of Psi Squad by link, checked on both."""
    ada, bo, sent = joined()
    call(bo, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    plays, _, _ = play_out([ada, bo], sent, psi_choice)
    return ada, bo, plays[0]


def reloaded(app: App, tab: str = "") -> App:
    """The same browser's storage and keys in a new page load (or a second tab: `tab`)."""
    again = App()
    again.keyring = PageKeyring(app.keyring.kept_cryptos)
    if tab:
        again.links().tab = tab
    start = {"op": "start", "local": dict(app.storage.values["local"]), "session": {},
             "href": SITE + "#home"}  # fmt: skip
    call(again, start)
    return again


def test_start_up_reads_only_each_game_s_line_and_checks_a_game_s_signatures_when_opened():
    ada, _, sent = joined()
    route(ada, sent[0])
    play = next(iter(ada.links().plays.values()))
    local = dict(ada.storage.values["local"])
    start = {"op": "start", "local": local, "session": {}, "href": SITE + "#home"}
    again = App()
    again.keyring = PageKeyring(ada.keyring.kept_cryptos)
    assert again.signature_checks(json.dumps(start)) == []
    home = drawn(call(again, start), link_app.HOME_ROOT)
    assert "Psi Squad: P1, Bo" in home and again.links().plays == {}
    opened = {"op": "route", "hash": f"#bylink={play.match_id}"}
    proofs = {r.signature for r in play.records.values()}  # a batch's signature: checked once
    assert len(again.signature_checks(json.dumps(opened))) >= len(proofs)
    assert 'class="play play-psi-squad"' in drawn(call(again, opened))
    assert again.links().plays[play.match_id].match.head() == play.match.head()


def test_a_finished_game_can_be_removed_from_your_games_after_a_yes():
    ada, _, play = finished_game()
    key = link_app.SAVE + play.match_id

    def home_click(data: dict) -> str:
        return drawn(call(ada, {"op": "click", "region": "linkgames", "data": data}),
                     link_app.HOME_ROOT)  # fmt: skip

    home = drawn(call(ada, {"op": "route", "hash": "#bylink"}), link_app.HOME_ROOT)
    assert 'data-cmd="bylink-remove"' in home
    asked = home_click({"cmd": "bylink-remove", "match": play.match_id})
    assert "Remove this finished game from this browser?" in asked
    kept = home_click({"cmd": "bylink-remove-no"})
    assert "Remove this finished game" not in kept and key in ada.storage.values["local"]
    home_click({"cmd": "bylink-remove", "match": play.match_id})
    gone = home_click({"cmd": "bylink-remove-yes", "match": play.match_id})
    assert play.match_id not in gone and key not in ada.storage.values["local"]
    assert key not in ada.keyring.kept_cryptos and ada.links().plays == {}


def test_a_game_not_over_offers_no_removal():
    ada, _, sent = joined()
    home = drawn(route(ada, sent[0]), link_app.HOME_ROOT)
    play = next(iter(ada.links().plays.values()))
    out = call(ada, {"op": "click", "region": "linkgames",
                     "data": {"cmd": "bylink-remove", "match": play.match_id}})  # fmt: skip
    assert "bylink-remove" not in home and "Remove this" not in drawn(out, link_app.HOME_ROOT)
    assert link_app.SAVE + play.match_id in ada.storage.values["local"]


def test_two_tabs_with_one_game_one_plays_it_and_the_other_lets_go_until_asked():
    ada, _, sent = joined()
    route(ada, sent[0])
    play = next(iter(ada.links().plays.values()))
    second = reloaded(ada, tab="second")
    shown = drawn(call(second, {"op": "route", "hash": f"#bylink={play.match_id}"}))
    assert 'class="play play-psi-squad"' in shown
    for key, value in second.storage.values["local"].items():  # the storage events
        call(ada, {"op": "storage", "key": key, "value": value})
    before = dict(second.storage.values["local"])
    out = call(ada, {"op": "key", "region": "bylink", "key": "1"})
    page = drawn(out)
    assert "This game is open in another tab" in page and "Play it here instead" in page
    assert not out.get("local") and ada.links().plays == {}
    assert second.storage.values["local"] == before
    taken = call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-take-over"}})
    assert 'class="play play-psi-squad"' in drawn(taken)
    owner = link_app.SAVE + play.match_id + link_app.OWNER
    assert ada.storage.values["local"][owner] == ada.links().tab != "second"


def test_parts_of_a_split_link_are_kept_across_a_reload_and_each_part_has_its_qr_code(
    monkeypatch,
):
    whole = LinkPlay.links
    monkeypatch.setattr(LinkPlay, "links", lambda self, limit=300: whole(self, limit))
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    call(ada, {"op": "route", "hash": "#link-psi-squad", "form": psi_form()})
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    invite = links_in(page)
    assert len(invite) > 1 and page.count('class="qr"') == len(invite)
    assert "QR code of link part 2 of" in page
    other_game, _, _ = joined()  # Bo's browser also holds a game by link of its own
    bo.storage.values["local"].update(saved(other_game))
    bo.keyring.kept_cryptos.update(other_game.keyring.kept_cryptos)
    for part in invite[:-1]:
        assert "of the same send too" in drawn(route(bo, part))
    bo_again = reloaded(bo)  # a reload (or a browser restart) between two parts
    join = drawn(route(bo_again, invite[-1]))
    assert "Join a game of Psi Squad by link" in join
    assert link_app.PARTS not in bo_again.storage.values["local"]  # whole: nothing kept


def test_the_bar_says_what_a_link_brought_without_repeating_the_waiting_line_under_it():
    ada, _, sent = joined()
    page = drawn(route(ada, sent[0]))
    said = re.findall(r'data-role="bylink-said">([^<]*)<', page)
    waiting = re.findall(r'data-role="bylink-waiting">([^<]*)<', page)
    assert said == ["Bo joined and started the game."], page
    assert waiting == ["P1 to move (move 1)."], page


def test_a_link_in_parts_numbers_each_part_where_one_sees_it_and_asks_for_every_part():
    page = to_html(send_tree(["https://psi.example/#pl=1.1-3.x", "b", "c"]))
    shown = re.findall(r'<p class="bylink-part"[^>]*>([^<]*)<', page)
    assert shown == ["Link part 1 of 3", "Link part 2 of 3", "Link part 3 of 3"]
    assert 'class="bylink-share bylink-parts"' in page and "Send every part" in page
    assert "Send it to" not in page
    whole = to_html(send_tree(["https://psi.example/#pl=1.x"]))
    assert "bylink-part" not in whole and "Send it to your group chat" in whole


def test_smaller_codes_to_scan_give_parts_each_within_a_scannable_length_then_one_link_again():
    """A whole link's QR code is up to 177 modules, which a phone's camera reads badly off a
    screen: for a link longer than `SCAN_PART` (Telepathic four partners' invite holds a
    shared deck's lock), "Smaller codes to scan" shows the same step in parts of at most
    `SCAN_PART` characters, each with its own code, which make the same step on the other
    device (opened in any order); "One link for a chat" gives back the one link. A short link
    is not offered it."""
    arrangement = {"tag": "input", "type": "radio", "value": "four", "checked": True,
                   "data": {"variant": "arrangement"}}  # fmt: skip
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    call(ada, {"op": "route", "hash": "#link-telepathic",
               "form": [*form("telepathic", 4, {}), arrangement]})  # fmt: skip
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    (invite,) = links_in(page)
    assert len(invite) > SCAN_PART and "Smaller codes to scan" in page
    page = drawn(call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-scan"}}))
    parts = links_in(page)
    assert len(parts) > 1 and all(len(p) <= SCAN_PART for p in parts)
    assert len(re.findall(r'class="qr"', page)) == len(parts) and "One link for a chat" in page
    for part in reversed(parts[1:]):
        assert "of the same send too" in drawn(route(bo, part))
    assert "Join a game of Telepathic by link" in drawn(route(bo, parts[0]))
    again = drawn(call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-scan"}}))
    assert links_in(again) == [invite] and "Smaller codes to scan" in again
    _, _, short = joined()
    assert len(short[0]) <= SCAN_PART
    assert "Smaller codes to scan" not in to_html(send_tree(short))


def test_the_question_before_a_removal_is_a_block_in_the_list_not_a_dialog_box():
    """The site's `.confirm` is a centred dialog box with wide margins: inline in a row of Your
    games it overlapped the line above it."""
    asked = to_html(removal("m1", True))
    assert asked.startswith('<div class="bylink-confirm" role="group"')
    assert "<p>Remove this finished game from this browser?" in asked
    assert 'class="confirm"' not in asked


def test_the_join_screen_says_the_time_per_move_and_who_the_creator_s_device_plays():
    """Issue 37: before joining, the time per move (part of the table code) and the seats the
    creator's device holds besides its own, people and bots alike."""
    ada, bo = started(), started()
    call(ada, {"op": "route", "hash": "#link-psi-squad",
               "form": [*psi_form({2: "easy"}, seats=3), limit("24")]})  # fmt: skip
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    join = html.unescape(drawn(route(bo, invite[0])))
    assert "Time per move: 1 day, counted from when each move reaches its player" in join
    assert "P1's device plays the bot P3: whoever holds it could see their secrets." in join


def test_a_doctored_time_per_move_is_shown_and_refused_and_the_table_code_binds_it():
    play, _ = LinkPlay.create(
        "esp", ["Ada", "Bo"], {}, (0,), Ed25519Signer(), real_verify, 0, SITE, hours_per_move=1
    )
    assert play is not None
    body = dict(play.records[("s0", 1)].body, l=1)  # one second per move
    from parlour.fair.signing import Signed
    from parlour.match.by_link import packing

    doctored = Signed("s0", 1, "open", body)
    doctored.signature = play.signer.sign(doctored.payload(play.match_id))
    packet = packing.Packet(play.match_id, (doctored,), play._head())
    link = packing.links(SITE, packing.pack(packet))[0]
    bo = started()
    join = html.unescape(drawn(route(bo, link)))
    assert "not one this page offers" in join and "1 minute" not in join
    device, refused = LinkPlay.join(link, 1, "Bo", Ed25519Signer(), real_verify, 0, SITE)
    assert device is None and "time per move is not one this page offers" in refused.sentence


def test_the_bar_shows_the_table_code_during_play_and_it_binds_the_time_per_move():
    ada, bo = started(), started()
    call(ada, {"op": "route", "hash": "#link-psi-squad", "form": [*psi_form(), limit("1")]})
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    route(bo, invite[0])
    fields = {"bylink-seat": "1", "bylink-name": "Bo"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
    page = drawn(route(ada, links_in(drawn(out))[0]))
    play = next(iter(ada.links().plays.values()))
    code = play.table_code()
    assert code and f'data-code="{code}"' in page and "bylink-bar" in page
    assert play.match is not None and play.match.step == 0  # before the first move
    assert "Before you play, ask in your chat" in page and "bylink-compared" in page
    page = drawn(call(ada, {"op": "click", "region": "bylink",
                            "data": {"cmd": "bylink-compared"}}))  # fmt: skip
    assert "bylink-compared" not in page and f'data-code="{code}"' in page
    assert LinkPlay.from_json(play.to_json(), play.signer, real_verify, 0).compared
    play.limit = 7200  # another limit under the same keys and start: another code
    assert play.table_code() != code


@pytest.mark.parametrize(
    "field, value", [("last_link_at", "soon"), ("players", "Ada"), ("players", [1]), ("over", 1)]
)
def test_a_save_whose_summary_is_damaged_is_read_whole_or_set_aside_never_a_fault(field, value):
    ada, _, sent = joined()
    route(ada, sent[0])
    play = next(iter(ada.links().plays.values()))
    local = saved(ada)
    key = next(k for k in local if k.endswith(play.match_id))
    data = json.loads(local[key])
    data["summary"][field] = value
    local[key] = json.dumps(data)
    again = App()
    again.keyring = PageKeyring(ada.keyring.kept_cryptos)
    start = {"op": "start", "local": local, "session": {}, "href": SITE + "#home",
             "hash": "#home"}  # fmt: skip
    home = drawn(call(again, start), link_app.HOME_ROOT)
    assert "Your games by link" in home and "Psi Squad: P1, Bo" in home  # read back whole


def test_a_link_whose_match_id_is_not_one_is_refused():
    from parlour.fair.signing import Signed
    from parlour.match.by_link import packing

    play, _ = LinkPlay.create("esp", ["Ada", "Bo"], {}, (0,), Ed25519Signer(), real_verify, 0, SITE)
    for match_id in ("esp:owner", "m-" + "0" * 15 + ":", "bylink:m-1"):
        record = Signed("s0", 1, "open", dict(play.records[("s0", 1)].body))
        record.signature = play.signer.sign(record.payload(match_id))
        head = Signed("s0", 1, "head", {"have": {"s0": 1}, "n": 0, "h": "0" * 16})
        head.signature = play.signer.sign(head.payload(match_id))
        link = packing.links(SITE, packing.pack(packing.Packet(match_id, (record,), head)))[0]
        with pytest.raises(MalformedInput, match="not named as this page names one"):
            packing.unpack(packing.read_fragment(link))


def play_in_a_group_chat(devices: list[App], first: list[tuple[int, list[str]]]) -> list:
    """Devices play to the end by links only, as in a group chat (issue 38): each player opens
    every new link the chat shows them, in order, and only then looks at their screen: they send
    what it asks for (to everyone), press "Done: I sent it", and move when it is their turn.
    Nobody sends a link the screen did not ask for."""
    inbox: list[list[str]] = [[] for _ in devices]
    for sender, links in first:
        for i in range(len(devices)):
            if i != sender:
                inbox[i] += links
    rng = Rng(b"group chat")
    for _ in range(2000):
        plays = [next(iter(a.links().plays.values())) for a in devices]
        if all(isinstance(p.audit_result, Verified) for p in plays):
            return plays
        busy = [i for i, box in enumerate(inbox) if box]
        if busy:
            to = busy[0]
            for link in inbox[to]:
                page = drawn(route(devices[to], link))
            inbox[to] = []
        else:
            movers = [i for i, p in enumerate(plays) if p.summary()["my_turn"]]
            assert movers, [p.waiting() for p in plays]  # stuck: nobody to move, nothing sent
            to = movers[0]
            view = devices[to].links().view(plays[to])
            assert view.act(psi_choice(plays[to], plays, rng)), view.message
            page = drawn(call(devices[to], {"op": "route", "hash": "#bylink"}))
        if plays[to].match_id in devices[to].links().sending:
            for i in range(len(devices)):
                if i != to:
                    inbox[i] += links_in(page)
            call(devices[to], {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    raise AssertionError("the game by link did not end")


def test_three_players_by_link_in_a_group_chat_end_checked_on_every_device():
    """Issue 38: in a 3-player Psi Squad game, a device whose openings were made while the
    screen showed "Send this link", and which then opened another link with news, closed the
    panel: nobody was asked to send the openings and the others waited for good."""
    ada, bo, cy = (started(keyring=PageKeyring()) for _ in range(3))
    call(ada, {"op": "route", "hash": "#link-psi-squad", "form": psi_form(seats=3)})
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    first = [(0, invite)]
    for i, app in ((1, bo), (2, cy)):
        route(app, invite[0])
        fields = {"bylink-seat": str(i), "bylink-name": ["", "Bo", "Cy"][i]}
        out = call(app, {"op": "click", "region": "bylink",
                         "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
        first.append((i, links_in(drawn(out))))
        call(app, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    plays = play_in_a_group_chat([ada, bo, cy], first)
    assert len({p.match.head() for p in plays}) == 1


@pytest.mark.parametrize("typed", ["Zed (bot)", "Zed(BOT)", "Ada\u202eniw"])
def test_a_name_typed_as_a_bot_s_or_with_a_direction_override_is_refused_with_a_sentence(typed):
    ada = started()
    fields = psi_form()
    next(f for f in fields if f["data"].get("seat-name") == "0")["value"] = typed
    out = call(ada, {"op": "route", "hash": "#link-psi-squad", "form": fields})
    said = " ".join(t for _, t in out.get("text", []))
    assert "(bot)" in said or "direction-changing" in said, out
    assert not ada.links().plays
    call(ada, {"op": "route", "hash": "#link-psi-squad", "form": psi_form()})
    invite = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    bo = started()
    route(bo, invite[0])
    fields = {"bylink-seat": "1", "bylink-name": typed}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
    page = html.unescape(drawn(out))
    assert "cannot end in" in page or "direction-changing" in page, page
    assert not bo.links().plays
    # the form is drawn again as the player filled it in (it came back empty), to mend the name
    assert re.search(f'data-field="bylink-name"[^>]* value="{re.escape(typed)}"', page), page
    assert re.search('<option value="1" selected', page), page


def test_a_saved_fork_reloads_with_the_checks_the_page_asked_for_first():
    """The page checks a save's signatures before reading it back (WebCrypto answers later,
    `save_checks`), and its `verify` answers only those: both records of a fork kept are among
    them, so a game that proved a fork reloads with its proof (the fork's second record is not
    among the save's records; it was missing, and the save was set aside as damaged)."""
    from parlour.ui.by_link.saves import save_checks
    from tests.test_by_link import forked

    group, _, other = forked()
    saved = other.to_json()
    asked = set(save_checks(saved))

    def page_verify(algorithm: str, key: str, data: bytes, signature: bytes) -> bool:
        return (algorithm, key, data, signature) in asked and real_verify(
            algorithm, key, data, signature
        )

    again = LinkPlay.from_json(saved, other.signer, page_verify, group.now)
    assert len(again.forks) == len(other.forks) == 1
