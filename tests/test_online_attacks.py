"""Attacks on the trust claims of online play (docs/online.md, "Trust model"; docs/fair-play.md).

Each test plays a cheating device (a doctored page: a subclass or a rewritten message) against
honest ones over the in-memory transport, and asserts what the documents promise. Where the
promise holds the test passes; where it does not, the test fails and its docstring says where.

A rewrite of a message from the host (`net.tamper` on "host" -> guest) is something a malicious
host can always do: every message a guest receives passes through the host's device.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from parlour.fair import joint as joint_module
from parlour.fair import sra
from parlour.fair.commit import commitment_of
from parlour.fair.joint import JointRandomness
from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.espeers.hands import deck_order
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.games.telepathic import rules as telepathic_module
from parlour.games.telepathic.actions import DeclareLost, PlayOn
from parlour.games.telepathic.rules import Telepathic
from parlour.match.audit import Cheat, Unverified, Verified
from parlour.match.config import MatchConfig
from parlour.match.online import HOST, OnlineSession, Phase, seat_peer
from parlour.match.wire import encode
from parlour.net.memory import MemoryNet
from tests.signers import crypto
from tests.test_online import acts, device, notices, play, start
from tests.test_online_verdicts import LIMIT, LyingPsiSquad, play_out, three_devices


def kind(text: str) -> str:
    return json.loads(text)["t"]


def inject(dev: OnlineSession, peer: str, type_: str, **body) -> None:
    """A message on `peer`'s connection with the next number: what that peer's device could send."""
    dev.receive(peer, encode(type_, dev.links[peer].n_in + 1, **body), dev.now)


def psi_three(match_id: str, signed=None) -> MemoryNet:
    """Psi Squad, Ada hosts, Bo and Cy are guests; every cypher sealed."""
    net = start(
        "psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, limit=60, match_id=match_id, signed=signed
    )
    for seat, digits in {0: "123", 1: "456", 2: "789"}.items():
        acts(device(net, seat), seat, ChooseCypher(digits))
    net.flush()
    return net


def until_to_move(net: MemoryNet, seat: int) -> None:
    """Wrong guesses until `seat` is to guess."""
    host = net.host
    for _ in range(6):
        (mover,) = host.game.to_move(host.table.state)
        if mover == seat:
            return
        target = host.table.state.targets(mover)[0]
        result = device(net, mover).act(mover, Guess(target, "000"))
        assert result.ok or result.sent, result.reason
        net.flush()
    raise AssertionError(f"seat {seat} never came to move")


# -- forfeits ---------------------------------------------------------------------------------


def test_a_guest_cannot_make_another_seat_forfeit():
    """HOLE. `_on_propose` (online.py) passes any JSON action to `Match.submit_json`, and
    `Match._append` accepts `{"forfeit": s}` from any seat against any seat `s` that owes an
    automatic step. Bo guesses Cy's cypher and, in the same breath, proposes Cy's forfeit: the
    host appends it before Cy's device could even see the guess, and Cy loses."""
    net = psi_three("m-attack-forfeit-1")
    host, bo = net.host, net.guests[1]
    until_to_move(net, 1)
    assert bo.act(1, Guess(2, "000")).sent
    doctored = {"forfeit": 2}  # a doctored page
    bo._send(bo.links[HOST], "propose", seat=1, action=doctored, after=host.match.step)
    net.flush()
    outcome = host.match.result()
    assert outcome is None or outcome.termination is not Termination.FORFEIT, (
        f"Bo made Cy forfeit at once: {outcome}"
    )


def test_a_guest_cannot_make_another_seat_time_out():
    """`Match` takes `{"timeout": s}` (a claim of time, by link) against any seat the game
    waits on, from any seat: online, a guest proposing it, or a host sending it as an entry,
    must be refused as a forfeit is. Bo proposes Cy's time-out the moment Cy is to guess."""
    net = psi_three("m-attack-timeout-1")
    host, bo = net.host, net.guests[1]
    until_to_move(net, 1)
    assert bo.act(1, Guess(2, "000")).sent
    net.flush()
    bo._send(bo.links[HOST], "propose", seat=1, action={"timeout": 2}, after=host.match.step)
    net.flush()
    assert host.match.result() is None, f"Bo made Cy lose at once: {host.match.result()}"


def test_a_guest_refuses_a_time_out_the_host_sends_against_it():
    """The host's own seat "times out" Bo as an entry of its own: online has no claims of
    time (its forfeits are checked against the guest's own clock), so Bo's device refuses."""
    net = start("esp", ("Ada", "Bo"))
    host, bo = net.host, net.guests[1]
    host.act(0, host.table.legal(0)[0])
    net.flush()
    (waiting,) = host.game.to_move(host.table.state)
    entry = host.match.submit_json(0, {"timeout": waiting}).entry
    assert entry is not None
    host._appended(entry)
    net.flush()
    assert bo.match.result() is None, f"Bo's device accepted: {bo.match.result().reason}"


def test_a_guest_refuses_a_forfeit_the_host_declares_at_once():
    """HOLE. The host may forfeit a seat that "holds up a required step for longer than the time
    chosen at set-up", but a guest accepts a forfeit entry against its own seat at any moment:
    `_on_entries` exempts forfeits from the forged check (`mine = ... and forfeited_seat(...) is
    None`) and never looks at the time. ESPEERS: Bo's device seals its deck the moment the game
    starts; the host drops the seal and declares Bo forfeit 0 seconds later. Bo loses, and every
    screen says Bo "did not take a required step in time"."""
    config = MatchConfig("espeers", "m-attack-forfeit-2", ("Ada", "Bo"))
    host = OnlineSession.host(GAMES["espeers"], config, (0,), 0.0, reveal_limit=120)
    net = MemoryNet(host)
    net.tamper = lambda s, t, text: None if s == seat_peer(1) and kind(text) == "propose" else text
    net.connect(1, OnlineSession.guest(0.0))
    bo = net.guests[1]
    assert bo.phase is Phase.PLAY and 1 in bo.pending  # Bo's seal is on its way
    entry = host.match.submit_json(1, {"forfeit": 1}).entry  # the host, at time 0
    assert entry is not None
    host._appended(entry)
    net.flush()
    assert bo.match.result() is None, f"Bo's device accepted: {bo.match.result().reason}"


# -- dealt values: bound before the seed? -----------------------------------------------------


class RedealsAfterTheSeed(OnlineSession):
    """A doctored ESPEERS page: its seed commitment carries no dealt commitments, and once the
    public seed is known it picks its deck's private seed (so its draw order) to suit it: here,
    the opening hand with the most copies of one card, out of 400 tries."""

    def _commit_seed(self) -> None:
        names = list(self.config.seats)
        self.joint = {s: JointRandomness(self.config.match_id, names, s) for s in self.local}
        for seat in self.local:
            body = {"seat": seat, "commitment": self.joint[seat].my_commitment(), "dealt": {}}
            self._take_commit(body)
            self._broadcast("seed-commit", **body)
        self._maybe_reveal()

    def run_automatic(self) -> None:
        if self.table is not None and not hasattr(self, "chosen"):
            store = self.stores[self.local[0]]
            deck = dict(store.value("deck"))

            def repeats(seed: str) -> int:
                hand = deck_order({**deck, "seed": seed}, self.match.seed, 0)[:5]
                return max(Counter(hand).values())

            best = max((f"{i:064x}" for i in range(400)), key=repeats)
            store.commit("deck", {**deck, "seed": best}, replace=True)
            self.chosen = commitment_of(store.context, store.opening("deck"))
        super().run_automatic()


def test_a_guest_cannot_choose_its_deck_after_the_seed_by_leaving_out_its_dealt_commitments():
    """Bo's doctored device commits to no deck, meaning to pick its deck's private seed (its
    draw order) once the seed is known. Every seed commitment must bind exactly what the game
    deals that seat (`Game.dealt_labels`), so the host refuses Bo's at once, names him, and the
    game never starts: there is no seed for Bo to choose against."""
    config = MatchConfig("espeers", "m-attack-dealt-1", ("Ada", "Bo"))
    host = OnlineSession.host(GAMES["espeers"], config, (0,), 0.0)
    net = MemoryNet(host)
    cheat = RedealsAfterTheSeed.guest(0.0)
    net.connect(1, cheat)
    assert "Bo's commitment does not bind what was dealt to them (deck)" in notices(host)
    assert host.table is None and cheat.table is None and host.match is None
    assert not hasattr(cheat, "chosen")


# -- shared decks: can a recipient read another's card? ----------------------------------------


def test_the_last_locker_cannot_copy_another_recipients_card():
    """`Dealing.take_lock` refuses a locked deck with a repeated value and names the locker
    (it once accepted one, and the audit named it only at the end). Telepathic, four partners:
    Ada and Bo draw from the colour deck and Bo locks last. Bo's device copies Ada's locked card
    into its own place, so that Ada's device would remove her lock from it for Bo and Bo would
    read Ada's secret before the game began. An honest lock of distinct values is distinct (a
    power map is one to one), so the repeat is refused on arrival."""

    def copy(sender, to, text):
        data = json.loads(text)
        if data["t"] == "deal-lock" and data["label"] == "colour" and data["seat"] == 1:
            data["values"][1] = data["values"][0]  # Bo's card := Ada's card
            return json.dumps(data, sort_keys=True, separators=(",", ":"))
        return text

    config = MatchConfig(
        "telepathic", "m-attack-sra-1", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}
    )
    host = OnlineSession.host(GAMES["telepathic"], config, (0,), 0.0)
    net = MemoryNet(host)
    net.tamper = copy
    for seat in (1, 2, 3):
        net.connect(seat, OnlineSession.guest(0.0))
    assert "Bo locked the deck with a card repeated" in notices(host)
    assert host.table is None  # the colour deal stops there: Ada never unlocks the copy for Bo
    assert "conditions" not in host.stores[0].openings  # Ada's colour is dealt to nobody
    assert "conditions" not in net.guests[1].stores[1].openings


# -- the host relays openings and verdicts ------------------------------------------------------


def frame_bo_to_cy(sender, to, text):
    """The host changes one nonce in Bo's openings on their way to Cy."""
    data = json.loads(text)
    if data["t"] == "openings" and to == seat_peer(2) and data["seat"] == 1:
        first = data["openings"][0]
        first["nonce"] = ("0" if first["nonce"][0] != "0" else "1") + first["nonce"][1:]
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    return text


def test_the_host_cannot_frame_an_honest_guest_by_changing_its_openings_on_the_way():
    """HOLDS, with signed play (it was a limit: openings were relayed by the host and not bound
    to their sender). The host changes one nonce in Bo's openings on their way to Cy: Bo's
    device signed them, so Cy's device refuses them, naming Bo's device as the one whose
    signature does not hold, and its audit can say "unverified" (Bo's openings never came
    intact), never that Bo cheated. Bo's and the host's own audits say verified."""
    net, _screens = three_devices("m-attack-frame-1", signed=crypto)

    net.tamper = frame_bo_to_cy
    play_out(net)
    for _ in range(2 * LIMIT + 2):
        net.tick(1.0)
    assert net.guests[1].audit_result == Verified() and net.host.audit_result == Verified()
    cy = net.guests[2].audit_result
    assert isinstance(cy, Unverified), cy
    assert "said to come from Bo's device does not carry its signature" in notices(net.guests[2])
    assert 1 not in net.guests[2].openings


def fork_cy(net: MemoryNet, relay_words: bool):
    """Ada guesses Bo's cypher; Bo owes the answer. The host tells Cy alone that Bo forfeited
    (numbering its messages to Cy without a gap), and goes on with Bo. With `relay_words` the
    host passes on every device's signed position (the acks that ride on any message, and the
    verdicts) as it must; without, it keeps them from Cy and keeps Cy's to itself."""
    host, cy = net.host, net.guests[2]
    until_to_move(net, 0)
    to_cy = {"n": cy.links[HOST].n_in, "forged": None}
    words = ("ping", "pong", "verdict") if relay_words else ("ping", "pong")

    def only_words(data):
        """A message kept from Cy's game, or from Cy: its acks still go on (as the heartbeat
        that carries them), if the host relays them as it must; else nothing."""
        if not relay_words or "a" not in data:
            return None
        return {"v": data["v"], "t": "ping", "n": data["n"], "at": 0, "a": data["a"]}

    def fork(sender, to, text):
        data = json.loads(text)
        if not relay_words:
            data.pop("a", None)
        if sender == seat_peer(2):  # the host keeps Cy's words (openings, moves) to itself
            data = data if data["t"] in words else only_words(data)
            return json.dumps(data) if data is not None else None
        if to != seat_peer(2):
            return text
        if data["t"] not in words and (to_cy["forged"] or "\0") not in text:
            data = only_words(data)  # the real game goes on without Cy
            if data is None:
                return None
        to_cy["n"] += 1
        data["n"] = to_cy["n"]
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    net.tamper = fork
    assert host.act(0, Guess(1, "000")).ok
    world = type(host.match).from_json(host.match.to_json())  # Cy's world, before Bo answers
    forged = world.submit_json(1, {"forfeit": 1}).entry
    net.flush()  # Bo answers, in the real game
    to_cy["forged"] = forged.hash
    proof = host._originate(
        "propose", {"seat": 1, "action": {"forfeit": 1}, "after": forged.seq - 1}
    )
    host._send(
        host.links[seat_peer(2)],
        "entries",
        entries=[host.match.entries[-2].to_json(), forged.to_json()],
        proofs=[host.proofs[-2], proof],
    )
    net.flush()
    assert cy.match.result() is not None
    assert "Bo did not take a required step in time" in cy.match.result().reason


def test_a_host_that_forks_the_log_is_noticed_by_some_device():
    """HOLDS, with signed play (it was a limit: no message carried a log head to compare). The
    host shows Cy a game where Bo forfeited and goes on with Bo. Every device signs where its log
    stands and the host must pass these on: Bo's device sees that Cy's device signed another
    position for the same move, and names it, with Cy's signed word kept as proof; no device
    says verified."""
    net = psi_three("m-attack-fork-1", signed=crypto)
    bo, cy = net.guests[1], net.guests[2]
    fork_cy(net, relay_words=True)
    net.tick(1.0)  # the acks ride on the next messages: here, the heartbeat
    assert "Cy's device saw a different game" in notices(bo), notices(bo)
    assert "Bo's device saw a different game" in notices(cy), notices(cy)
    assert bo.diverged["seat-2"].device == "seat-2"
    for _ in range(3 * 60 + 2):
        net.tick(1.0)
    assert not any(dev.audit_result == Verified() for dev in (bo, cy))


def test_a_host_that_forks_the_log_and_withholds_the_words_is_named():
    """HOLDS, with signed play. The same fork, but the host keeps every device's signed
    position from Cy, and Cy's to itself: Cy's game is over, and once the time allowed has
    passed twice over, Cy's device says the host did not pass on the others' final positions,
    so it cannot say verified."""
    net = psi_three("m-attack-fork-2", signed=crypto)
    cy = net.guests[2]
    fork_cy(net, relay_words=False)
    for _ in range(3 * 60 + 2):
        net.tick(1.0)
    assert isinstance(cy.audit_result, Unverified), cy.audit_result
    assert "The host did not pass on the signed final position of" in cy.audit_result.reason
    assert "Bo's device" in cy.audit_result.reason


# -- joint randomness: what holds -----------------------------------------------------------------


def test_no_guest_reveals_while_the_host_withholds_its_own_commitment():
    """HOLDS. A host that keeps its commitment back to see the guests' reveals first sees none:
    a guest reveals only once every commitment, the host's too, is in; the host's early reveal
    is refused and the seed is never drawn."""
    config = MatchConfig("esp", "m-attack-seed-1", ("Ada", "Bo", "Cy"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0)
    net = MemoryNet(host)

    def withhold(sender, to, text):
        data = json.loads(text)
        if sender == "host" and data["t"] == "seed-commit" and data["seat"] == 0:
            return None
        return text

    net.tamper = withhold
    net.connect(1, OnlineSession.guest(0.0))
    net.connect(2, OnlineSession.guest(0.0))
    guest_reveals = [t for s, _to, t in net.traffic if s != "host" and kind(t) == "seed-reveal"]
    assert guest_reveals == []
    assert all(dev.table is None for dev in net.guests.values())
    assert "revealed before every commitment was in" in notices(net.guests[1])


def test_a_guest_that_saw_the_others_reveal_cannot_commit_again_after_reconnecting():
    """HOLDS. Cy's reveal is held up; Cy's device has every other reveal. It reconnects (the
    numbering restarts) and commits to other bytes, then reveals them: the host refuses both,
    and no seed is drawn from bytes chosen after the others were known."""
    config = MatchConfig("esp", "m-attack-seed-2", ("Ada", "Bo", "Cy"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0)
    net = MemoryNet(host)
    net.tamper = lambda s, t, text: (
        None if s == seat_peer(2) and kind(text) == "seed-reveal" else text
    )
    net.connect(1, OnlineSession.guest(0.0))
    net.connect(2, OnlineSession.guest(0.0))
    cy = net.guests[2]
    assert set(cy.joint[2].reveals) == {0, 1, 2} and host.table is None
    other = JointRandomness("m-attack-seed-2", ["Ada", "Bo", "Cy"], 2)
    net.tamper = None
    host.opened(seat_peer(2), net.now)  # a new connection: numbers start again
    inject(host, seat_peer(2), "seed-commit", seat=2, commitment=other.my_commitment(), dealt={})
    assert "Cy sent a second, different commitment" in notices(host)
    for seat, commitment in host.joint[0].commitments.items():
        if seat != 2:
            other.receive_commitment(seat, commitment)
    inject(host, seat_peer(2), "seed-reveal", seat=2, opening=other.my_reveal().to_json())
    assert host.table is None and host.phase is not Phase.PLAY
    assert "Cy's reveal of their random contribution does not match" in notices(host)


# -- play again and replays: what holds ---------------------------------------------------------


def test_after_play_again_no_old_secret_is_used_and_old_messages_do_nothing():
    """HOLDS. After "play again" every seat deals fresh nonces and fresh random bytes; the old
    game's entries and seed reveals, sent again (with fresh numbers, as a host or the guest
    itself could), are refused by the new game's hashes and commitments."""
    net = start("esp", ("Ada", "Bo"), match_id="m-attack-again-1")
    play(net, seed=b"again")
    net.tick(1.0)
    bo = net.guests[1]
    old_nonces = {o.nonce for s in bo.stores.values() for o in s.openings.values()}
    old_nonces.add(bo.joint[1].secret()[1].hex())
    old_bytes = bo.joint[1].secret()[0]
    old = [(s, to, t) for s, to, t in net.traffic if kind(t) in ("entries", "seed-reveal")]
    net.host.rematch("m-attack-again-2", net.now)
    net.flush()
    assert bo.phase is Phase.PLAY and bo.config.match_id == "m-attack-again-2"
    new_nonces = {o.nonce for s in bo.stores.values() for o in s.openings.values()}
    assert not (old_nonces & new_nonces) and bo.joint[1].secret()[0] != old_bytes
    step, head = bo.match.step, bo.match.head()
    for sender, _to, text in old:
        data = json.loads(text)
        body = {k: v for k, v in data.items() if k not in ("v", "t", "n")}
        if sender == "host":
            inject(bo, HOST, data["t"], **body)
        else:
            inject(net.host, sender, data["t"], **body)
    net.flush()
    assert (bo.match.step, bo.match.head()) == (step, head)
    assert net.host.match.head() == head


# -- the audit catches what the engines cannot: what holds -----------------------------------------


class FixedBytes:
    """Stands in for `secrets` where the seed bytes and the dealt cards are drawn, so that this
    game's grid and cards are always the same (the nonces stay random)."""

    def __init__(self, tag: str) -> None:
        self.tag, self.count = tag, 0

    def token_bytes(self, n: int) -> bytes:
        self.count += 1
        return hashlib.sha256(f"{self.tag}/{self.count}".encode()).digest()[:n]


class HidesItsLoss(Telepathic):
    """A doctored page: its device says "play on" when its lose condition is met."""

    hidden = 0

    def auto_action(self, state, seat, store):
        honest = super().auto_action(state, seat, store)
        if isinstance(honest, DeclareLost):
            self.hidden += 1
            return PlayOn()
        return honest


def test_a_guest_that_hides_its_lost_game_is_named_by_every_device(monkeypatch):
    """HOLDS. Telepathic, a pair: Ada's guest device plays on although her lose condition is
    met. No engine can see it at the time; every device's audit names Ada and the move."""
    fixed = FixedBytes("hide17")  # a game in which Ada's lose condition comes up at move 6
    monkeypatch.setattr(joint_module, "secrets", fixed)
    monkeypatch.setattr(telepathic_module, "secrets", fixed)
    net = start("telepathic", ("Ada", "Bo"), {"arrangement": "pair"}, host_local=(1,))
    hider = HidesItsLoss()
    net.guests[0].game = hider
    play(net, seed=b"hide")
    net.tick(1.0)
    assert hider.hidden == 1
    for dev in net.everyone():
        assert isinstance(dev.audit_result, Cheat) and dev.audit_result.seat == 0
        assert "Ada let play go on at move 6" in dev.audit_result.reason
        assert dev.verdicts[0][0] == dev.verdicts[1][0] == "cheat"


class LocksOneCardOnly(OnlineSession):
    """A doctored page: when it locks a shared deck, every card it passes on is the same one."""

    def _advance_deals(self) -> None:
        honest = sra.lock

        def lock(values, k):
            locked = honest(values, k)
            return [locked[0]] * len(locked)

        sra.lock = lock
        try:
            super()._advance_deals()
        finally:
            sra.lock = honest


def falsified_four(match_id: str) -> MemoryNet:
    """Telepathic, four partners: Cy and Di draw from the shape deck, Cy locks first, and Cy's
    device locks it as copies of one card (so Di would be dealt Cy's own card)."""
    config = MatchConfig("telepathic", match_id, ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"})
    net = MemoryNet(OnlineSession.host(GAMES["telepathic"], config, (0,), 0.0))
    net.connect(1, OnlineSession.guest(0.0))
    net.connect(2, LocksOneCardOnly.guest(0.0))
    net.connect(3, OnlineSession.guest(0.0))
    return net


def test_a_shared_deck_locked_with_a_card_repeated_is_refused_on_arrival_naming_the_locker():
    net = falsified_four("m-attack-sra-2")
    assert "Cy locked the deck with a card repeated" in notices(net.host)
    for seat in (0, 1, 3):
        dev = device(net, seat)
        assert dev.phase is not Phase.PLAY
    assert net.guests[3].stores[3].openings.get("conditions") is None  # Di was dealt nothing


def test_the_audit_names_the_seat_that_falsified_a_shared_deal_not_its_victim(monkeypatch):
    """Were the repeat let through (a device without the live check), the Telepathic audit
    names Cy's false lock, not Di, who was dealt Cy's card: the shared deal is checked before
    the dealing, whose "a card was dealt twice" would name the later seat."""
    from parlour.match.dealing import Dealing

    monkeypatch.setattr(Dealing, "_check_distinct", lambda self, seat, deck: None)
    net = falsified_four("m-attack-sra-3")
    assert all(dev.phase is Phase.PLAY for dev in net.everyone())
    cy = net.guests[2].stores[2].value("conditions")["lose"]
    di = net.guests[3].stores[3].value("conditions")["win"]
    assert cy == di  # the deal went through: Cy holds Di's card
    play(net, seed=b"one-card")
    net.tick(1.0)
    named = {dev.audit_result.seat for dev in net.everyone() if isinstance(dev.audit_result, Cheat)}
    assert named == {2}, f"the audits name {named}: {net.host.audit_result}"


def test_a_host_cannot_escape_the_audit_by_starting_another_game_at_once():
    """HOLE. A guest takes "play again" once its game is *over* (`_on_welcome`: `self.match.result()
    is None` is the only test), not once it is *checked*. Psi Squad, two players: Ada's host
    device lies in an answer; when the game ends it keeps its openings (and its verdict) back and
    welcomes Bo to a new game at once. Bo's device drops the old game, audit pending, and never
    names Ada."""
    net = start("psi-squad", ("Ada", "Bo"), {"length": 3}, match_id="m-attack-escape-1")
    host, bo = net.host, net.guests[1]
    liar = LyingPsiSquad()
    host.game = liar
    for seat, digits in {0: "123", 1: "456"}.items():
        acts(device(net, seat), seat, ChooseCypher(digits))
    net.flush()
    net.tamper = lambda s, t, text: (
        None if s == "host" and kind(text) in ("openings", "verdict") else text
    )
    for _ in range(12):
        if host.match.result() is not None:
            break
        (seat,) = host.game.to_move(host.table.state)
        if liar.lie is None:  # Ada misses until she has lied (the first seat is drawn)
            guess = Guess(0, "132") if seat == 1 else Guess(1, "999")
        else:
            guess = Guess(1 - seat, {0: "123", 1: "456"}[1 - seat])
        acts(device(net, seat), seat, guess)
        net.flush()
    assert liar.lie is not None and bo.match.result() is not None
    assert bo.audit_result is None  # waiting for Ada's openings
    host.rematch("m-attack-escape-2", net.now)
    net.flush()
    assert bo.config.match_id == "m-attack-escape-1" or isinstance(bo.audit_result, Cheat), (
        "Bo's device left the game Ada cheated in before its audit, and never named her"
    )


def test_a_guest_framed_by_the_host_is_shown_how_to_tell():
    """What Cy's screen says when the audit pins a cheat on another guest: that guest's
    messages came through the host, and its own device's verdict (verified) is right below."""
    from parlour.ui.play import PlaySession
    from parlour.ui.psi_squad.screen import PsiScreen

    net, _screens = three_devices("m-attack-frame-2")

    net.tamper = frame_bo_to_cy
    play_out(net)
    net.tick(1.0)
    cy = net.guests[2]
    screen = PlaySession(cy.table, PsiScreen(), cy)
    screen.refresh()
    (audit,) = screen.render().find_all(data_audit="cheat")
    assert "Bo's messages reached this device through the host's" in audit.text()
    assert cy.verdicts[1][0] == "verified"  # Bo's own word, which the reader compares
    host_view = PlaySession(net.host.table, PsiScreen(), net.host).render()
    assert not host_view.find_all(data_audit="cheat")  # the host's own audit: verified


# -- the seed: the last revealer cannot veto it for free (issue 13, point 4) ------------------


def esp_three_cy_withholds(match_id: str, limit: int = 20) -> MemoryNet:
    """ESP for three: Ada hosts, Bo and Cy are guests; Cy's device holds its reveal back once
    every commitment is in (it could compute the seed then, and dislike it)."""
    config = MatchConfig("esp", match_id, ("Ada", "Bo", "Cy"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0, reveal_limit=limit)
    net = MemoryNet(host)
    cy = OnlineSession.guest(0.0)
    cy._maybe_reveal = lambda: None  # a doctored page: never reveals
    net.connect(1, OnlineSession.guest(0.0))
    net.connect(2, cy)
    assert all(dev.phase is Phase.SEED for dev in net.everyone())
    return net


def test_a_seat_that_withholds_its_seed_reveal_forfeits_the_match_everywhere():
    net = esp_three_cy_withholds("m-attack-veto-1")
    for _ in range(25):
        net.tick(1.0)
    for dev in net.everyone():
        assert dev.phase is Phase.FORFEIT, notices(dev)
        assert dev.forfeit.termination is Termination.FORFEIT
        assert dev.forfeit.winners == {0, 1}
        assert dev.forfeit.reason.startswith("Cy did not reveal their part of the seed")
    saved = OnlineSession.from_json(json.loads(json.dumps(net.guests[1].to_json())), net.now)
    assert saved.phase is Phase.FORFEIT and saved.forfeit == net.guests[1].forfeit


def test_a_seed_forfeit_before_the_time_is_up_is_refused_by_a_guest():
    """Bo does not take the host's word early; once the time is up by Bo's own clock and Cy's
    reveal still has not come, Bo takes it."""
    net = esp_three_cy_withholds("m-attack-veto-2", limit=60)
    net.tick(5.0)
    bo = net.guests[1]
    inject(bo, HOST, "seed-forfeit", seats=[2])
    assert bo.phase is Phase.SEED
    assert "before the time allowed was up by this device's clock: not taken" in notices(bo)
    for _ in range(60):
        net.tick(1.0)
    assert bo.phase is Phase.FORFEIT and bo.forfeit.winners == {0, 1}


def test_a_seed_forfeit_of_a_seat_that_revealed_is_refused():
    net = esp_three_cy_withholds("m-attack-veto-3")
    for _ in range(25):
        net.tick(1.0)
    bo = net.guests[1]
    bo.forfeit = None  # as if this had not arrived: the host now names Bo, who revealed
    inject(bo, HOST, "seed-forfeit", seats=[1])
    assert bo.forfeit is None
    assert "Bo's reveal was sent on time: refused as forged" in notices(bo)


def test_a_seed_forfeit_before_every_commitment_is_refused():
    config = MatchConfig("esp", "m-attack-veto-4", ("Ada", "Bo", "Cy"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0, reveal_limit=20)
    net = MemoryNet(host)
    net.connect(1, OnlineSession.guest(0.0))  # Cy is not here yet: no commitment of Cy's
    bo = net.guests[1]
    net.tick(30.0)
    inject(bo, HOST, "seed-forfeit", seats=[2])
    assert bo.forfeit is None
    assert "before every commitment was in: refused as forged" in notices(bo)


def test_after_a_seed_forfeit_the_host_can_play_again():
    net = esp_three_cy_withholds("m-attack-veto-5")
    for _ in range(25):
        net.tick(1.0)
    net.guests[2]._maybe_reveal = OnlineSession._maybe_reveal.__get__(net.guests[2])  # repents
    net.host.rematch("m-attack-veto-5b", net.now)
    net.flush()
    assert all(dev.phase is Phase.PLAY for dev in net.everyone())
    assert len({dev.match.seed for dev in net.everyone()}) == 1


def test_a_seat_that_sees_the_seed_and_leaves_instead_of_stalling_still_forfeits():
    """Review of issue 13: the host declared a seed forfeit only while everyone was connected,
    so closing the tab after seeing the others' reveals was a free veto."""
    for seats in (2, 3):
        names = ("Ada", "Bo", "Cy")[:seats]
        config = MatchConfig("esp", f"m-attack-leave-{seats}", names)
        host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0, reveal_limit=20)
        net = MemoryNet(host)
        staller = OnlineSession.guest(0.0)
        staller._maybe_reveal = lambda: None
        for seat in range(1, seats - 1):
            net.connect(seat, OnlineSession.guest(0.0))
        net.connect(seats - 1, staller)
        net.drop(seats - 1)  # it has seen the others' reveals: it leaves
        for _ in range(25):
            net.tick(1.0)
        assert host.phase is Phase.FORFEIT and host.forfeit_seats() == [seats - 1]
        for seat, guest in net.guests.items():
            if seat != seats - 1:
                assert guest.phase is Phase.FORFEIT


def test_a_host_that_withholds_its_own_reveal_is_declared_forfeit_by_its_guests():
    """Review of issue 13: the host gets every guest's reveal before it must send its own, and
    only the host declared forfeits, so a host could see the seed and veto it for free. Each
    guest now keeps its own clock for the host's seats."""
    config = MatchConfig("esp", "m-attack-host-veto", ("Ada", "Bo", "Cy"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), 0.0, reveal_limit=20)
    host._maybe_reveal = lambda: host._note_committed()  # a doctored host page
    host._check_stalls = lambda now: None
    net = MemoryNet(host)
    net.connect(1, OnlineSession.guest(0.0))
    net.connect(2, OnlineSession.guest(0.0))
    assert host.joint[0].missing_reveals() == [0]  # it could work the seed out now
    for _ in range(25):
        net.tick(1.0)
    for guest in net.guests.values():
        assert guest.phase is Phase.FORFEIT
        assert guest.forfeit.winners == {1, 2}
        assert guest.forfeit.reason.startswith("Ada did not reveal")


def test_a_seed_forfeit_lost_in_a_drop_is_replayed_to_the_returning_guest():
    net = esp_three_cy_withholds("m-attack-veto-lost")
    bo = net.guests[1]
    net.tamper = lambda s, t, text: None if t == "seat-1" and kind(text) == "seed-forfeit" else text
    for _ in range(22):
        net.tick(1.0)
    assert net.host.phase is Phase.FORFEIT and bo.phase is not Phase.FORFEIT
    net.tamper = None
    net.drop(1)
    net.tick(10.0)
    net.connect(1, bo)
    assert bo.phase is Phase.FORFEIT and bo.forfeit == net.host.forfeit


def test_a_later_welcome_cannot_shorten_the_time_allowed():
    net = esp_three_cy_withholds("m-attack-limit", limit=600)
    bo = net.guests[1]
    net.tick(3.0)
    net.drop(1)
    net.tick(6.0)

    def low_limit(sender, to, text):
        data = json.loads(text)
        if to == seat_peer(1) and data["t"] == "welcome":
            data["limits"] = {"reveal": 0}
            return json.dumps(data)
        return text

    net.tamper = low_limit
    net.connect(1, bo)
    net.host._declare_seed_forfeit([2])  # 9 s into a 600 s limit
    net.flush()
    assert bo.limits == {"reveal": 600} and bo.phase is Phase.SEED


def test_a_reject_does_not_erase_that_a_step_was_sent():
    """Review of issue 13: a host that answered Bo's seal with any `reject` wiped Bo's record of
    having sent it, and Bo then accepted the host's stall forfeit. Now Bo sends the step again
    at its next tick and refuses the forfeit."""
    config = MatchConfig("espeers", "m-attack-reject", ("Ada", "Bo"))
    host = OnlineSession.host(GAMES["espeers"], config, (0,), 0.0, reveal_limit=30)
    net = MemoryNet(host)

    def eat_seal(sender, to, text):
        if sender == seat_peer(1) and kind(text) == "propose":
            link = host.links[seat_peer(1)]
            host._send(link, "reject", reason="That move is not allowed.")
            link.n_in += 1
            return None
        return text

    net.tamper = eat_seal
    net.connect(1, OnlineSession.guest(0.0))
    bo = net.guests[1]
    for _ in range(31):
        net.tick(1.0)
    assert host.match.result().termination is Termination.FORFEIT
    assert bo.match.result() is None
    assert "this device sent that step at once: refused as forged" in notices(bo)


def test_an_even_lock_is_named_as_a_cheat_not_a_crash():
    """Review of issue 13: an even exponent locks the squares too, but has no inverse modulo
    P - 1; opened at the end, it crashed every device's audit. Now it is a false lock."""
    honest_new, honest_inverse = sra.new_exponent, sra.unlock_exponent

    def inverse(k):  # the doctored page takes its own even lock off modulo Q
        return pow(k, -1, sra.Q) if k % 2 == 0 else honest_inverse(k)

    class EvenLock(OnlineSession):
        def _begin(self, game, config, local):
            sra.new_exponent = lambda: honest_new() - 1  # even, below the order
            try:
                super()._begin(game, config, local)
            finally:
                sra.new_exponent = honest_new

    config = MatchConfig(
        "telepathic", "m-attack-even", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}
    )
    sra.unlock_exponent = inverse
    try:
        net = MemoryNet(OnlineSession.host(GAMES["telepathic"], config, (0,), 0.0))
        net.connect(1, EvenLock.guest(0.0))
        net.connect(2, OnlineSession.guest(0.0))
        net.connect(3, OnlineSession.guest(0.0))
    finally:
        sra.unlock_exponent = honest_inverse
    play(net, seed=b"even")
    net.tick(1.0)
    for dev in net.everyone():
        assert isinstance(dev.audit_result, Cheat) and dev.audit_result.seat == 1
        assert "not a lock this deal allows" in dev.audit_result.reason


def test_odd_digits_and_deep_nesting_are_refused_not_crashes():
    """Review of issue 13: "²".isdigit() is true and int("²") raises; a save of 200,000
    brackets ended in a RecursionError."""
    from parlour.errors import MalformedInput
    from parlour.match.match import Match

    net = start("esp", ("Ada", "Bo"), match_id="m-attack-digits")
    saved = net.host.match.to_json()
    saved["config"]["dealt"] = {"²": {"tile:0": "0" * 64}}
    with pytest.raises(MalformedInput):
        Match.from_json(saved)
    with pytest.raises(MalformedInput, match="nests deeper"):
        Match.loads("[" * 200_000)
    bo = net.guests[1]
    inject(bo, HOST, "status", links={"²": "lost"})
    assert "bad 'links'" in notices(bo)
