"""The end-of-game audit online, when it does not say "verified": every device finds it on its own,
tells the others, and shows it.

Psi Squad over the in-memory transport, three seats on three devices (Ada hosts; Bo and Cy are
guests). A guess goes to the target, whose device answers from its sealed cypher; the engines
cannot check an answer, so a lie is caught only by the audit, once every device has opened its
cypher. The cases:
- Bo's device lies in one answer: every device's audit names Bo and that move, every device has
  every device's "cheat" verdict, and every device's result dialog says so;
- Bo's device never sends its openings: once the reveal time is up, the other devices' audits
  are unverified, naming Bo, and their result dialogs say so;
- verdicts that did not come from the device they name, or name a seat not in the game: refused
  with a sentence, and every screen still shows the true verdicts;
- messages before the host's welcome (a verdict, a seed commitment): refused, never a crash.
"""

from __future__ import annotations

import json

from parlour.games.psi_squad.actions import Answer, ChooseCypher, Guess
from parlour.games.psi_squad.rules import PsiSquad
from parlour.match.audit import Cheat, Unverified, Verified
from parlour.match.online import HOST, OnlineSession, Phase, seat_peer
from parlour.match.wire import encode
from parlour.net.memory import MemoryNet
from parlour.ui.play import PlaySession
from parlour.ui.psi_squad.screen import PsiScreen
from parlour.ui.tree import Node
from tests.test_online import device, notices, same_everywhere, start

NAMES = ("Ada", "Bo", "Cy")
CYPHERS = {0: "123", 1: "456", 2: "789"}
NEAR_MISS = "465"  # for Bo's 456: 3 correct, 1 spotted
LIMIT = 30  # seconds to open the seals at the end


class LyingPsiSquad(PsiSquad):
    """The engine as a cheater's page runs it: the first answer its device gives by itself is
    false (0 correct, 0 spotted, or 1 correct when the truth is nothing at all)."""

    def __init__(self) -> None:
        self.lie: tuple[int, Answer, Answer] | None = None  # (move, truth, lie)

    def auto_action(self, state, seat, store):
        honest = super().auto_action(state, seat, store)
        if self.lie is not None or not isinstance(honest, Answer):
            return honest
        false = Answer(0, 0) if honest != Answer(0, 0) else Answer(1, 0)
        self.lie = (state.ply + 1, honest, false)
        return false


def three_devices(match_id: str, signed=None) -> tuple[MemoryNet, dict[int, PlaySession]]:
    """Ada's, Bo's and Cy's devices, connected, with the play screen each one shows."""
    net = start("psi-squad", NAMES, {"length": 3}, limit=LIMIT, match_id=match_id, signed=signed)
    assert all(dev.phase is Phase.PLAY for dev in net.everyone())
    screens = {
        seat: PlaySession(device(net, seat).table, PsiScreen(), device(net, seat))
        for seat in range(len(NAMES))
    }
    return net, screens


def play_out(net: MemoryNet) -> None:
    """Every seat seals its cypher; the first guesser other than Bo near-misses Bo's cypher (Bo's
    device answers it); then each guesser names a cypher exactly, until one is left."""
    for seat, digits in CYPHERS.items():
        result = device(net, seat).act(seat, ChooseCypher(digits))
        assert result.ok or result.sent, result.reason
    net.flush()
    host = net.host
    for _ in range(12):
        state = host.table.state
        if state.outcome is not None:
            return
        (seat,) = host.game.to_move(state)
        assert not host.game.automatic(state, seat), "an answer was not given by itself"
        bo_answered = any(r.target == 1 for r in state.history)
        if seat != 1 and not bo_answered:
            guess = Guess(1, NEAR_MISS)
        else:
            target = state.targets(seat)[0]
            guess = Guess(target, CYPHERS[target])
        result = device(net, seat).act(seat, guess)
        assert result.ok or result.sent, result.reason
        net.flush()
    raise AssertionError("the game did not end")


def result_dialog(screen: PlaySession) -> Node:
    screen.refresh()
    (dialog,) = screen.render().find_all(data_role="result")
    return dialog


def verdict_items(dialog: Node) -> dict[str, str]:
    """The verdicts list of a result dialog: each line's text -> its data-verdict."""
    (listing,) = dialog.find_all(data_role="verdicts")
    return {
        item.text(): item.attrs["data-verdict"]
        for item in listing.find_all()
        if item.attrs.get("data-verdict")
    }


def entry_guesser(net: MemoryNet, move: int) -> int:
    """Who made the guess answered at `move` (the move just before it)."""
    guess = net.host.match.entries[move - 2]
    assert guess.action["type"] == "guess" and guess.action["target"] == 1
    return guess.seat


# -- a lie in an answer -------------------------------------------------------------------------


def test_a_guest_device_that_lies_in_an_answer_is_named_by_every_device():
    net, screens = three_devices("m-verdict-lie-01")
    bo = net.guests[1]
    liar = LyingPsiSquad()
    bo.game = liar  # Bo's page runs a doctored engine; every other device runs the real one
    play_out(net)

    # The lie went through: every engine took it (an answer cannot be checked before the end).
    assert liar.lie is not None, "Bo's device was never asked for an answer"
    move, truth, false = liar.lie
    assert truth == Answer(3, 1) and false == Answer(0, 0)
    entry = net.host.match.entries[move - 1]
    assert entry.seat == 1 and entry.action == {"type": "answer", "correct": 0, "spotted": 0}
    same_everywhere(net)
    for dev in net.everyone():
        assert "refused" not in notices(dev).lower()
        assert dev.phase is Phase.END
        assert set(dev.openings) == {0, 1, 2}  # every cypher was opened on every device

    # Every device's own audit names Bo and the move of the lie.
    for dev in net.everyone():
        found = dev.audit_result
        assert isinstance(found, Cheat), found
        assert (found.seat, found.step) == (1, move)
        assert (
            f"Bo answered 0 correct, 0 spotted to {NAMES[entry_guesser(net, move)]}'s guess "
            f"{NEAR_MISS} at move {move}, but the cypher 456 gives 3 correct, 1 spotted."
        ) == found.reason

    # Every device has every device's verdict; the honest devices' own sentence names Bo.
    sentence = f"Bo cheated: {net.host.audit_result.reason}"
    for dev in net.everyone():
        assert set(dev.verdicts) == {0, 1, 2}, (dev.local, dev.verdicts)
        for honest in (0, 2):
            assert dev.verdicts[honest] == ("cheat", sentence)
        assert dev.verdicts[1][0] == "cheat"  # Bo's device lied in play, not in its audit
    verdict_messages = [
        json.loads(text)
        for sender, _, text in net.traffic
        if json.loads(text)["t"] == "verdict" and sender != "host"
    ]
    assert {m["seat"] for m in verdict_messages} == {1, 2}  # the guests' own, sent to the host

    # Every device's result dialog shows the cheat and every device's "cheat".
    for seat, screen in screens.items():
        dialog = result_dialog(screen)
        (shown,) = dialog.find_all(data_audit="cheat")
        assert shown.text().startswith("Fair-play check: Bo cheated. "), (seat, shown.text())
        assert "Bo answered 0 correct, 0 spotted to" in shown.text()
        assert f"at move {move}" in shown.text()
        assert not dialog.find_all(data_audit="verified")
        items = verdict_items(dialog)
        assert sorted(items.values()) == ["cheat"] * 3, (seat, items)
        assert any("Bo" in line for line in items), items


def test_an_honest_game_of_the_same_moves_is_verified_everywhere():
    """The control: the same play without the doctored engine ends verified on every device, so
    the cheat above comes from the lie and nothing else."""
    net, screens = three_devices("m-verdict-lie-02")
    play_out(net)
    for dev in net.everyone():
        assert dev.audit_result == Verified()
        assert {kind for kind, _ in dev.verdicts.values()} == {"verified"}
        assert set(dev.verdicts) == {0, 1, 2}
    for screen in screens.values():
        dialog = result_dialog(screen)
        assert dialog.find_all(data_audit="verified") and not dialog.find_all(data_audit="cheat")
        assert sorted(verdict_items(dialog).values()) == ["verified"] * 3


# -- openings never sent ------------------------------------------------------------------------


def test_a_guest_that_never_opens_its_cypher_leaves_the_others_unverified_after_the_limit():
    net, screens = three_devices("m-verdict-mute-01")
    bo = net.guests[1]

    def bo_keeps_his_seals(sender: str, to: str, text: str) -> str | None:
        return None if sender == seat_peer(1) and json.loads(text)["t"] == "openings" else text

    net.tamper = bo_keeps_his_seals
    play_out(net)
    same_everywhere(net)
    others = [net.host, net.guests[2]]
    assert all(dev.phase is Phase.END for dev in net.everyone())
    assert all(1 not in dev.openings for dev in others)
    assert set(bo.openings) == {0, 1, 2}  # Bo's device got everyone else's

    for _ in range(LIMIT - 1):  # the other devices wait for Bo's openings, the whole time
        net.tick(1.0)
        assert all(dev.audit_result is None for dev in others)
    for seat in (0, 2):
        dialog = result_dialog(screens[seat])
        assert dialog.find_all(data_audit="pending")
        assert not dialog.find_all(data_audit="unverified")
    net.tick(2.0)

    for dev in others:
        found = dev.audit_result
        assert isinstance(found, Unverified), found
        assert found.seats == (1,)
        assert found.reason.startswith("Bo did not open a hidden value in time")
        assert set(dev.verdicts) == {0, 1, 2}, dev.verdicts
        assert dev.verdicts[0] == dev.verdicts[2] == ("unverified", found.reason)
        assert dev.verdicts[1][0] == "verified"  # Bo's device saw every seal opened
    assert bo.audit_result == Verified()
    assert bo.verdicts[0][0] == bo.verdicts[2][0] == "unverified"

    for seat in (0, 2):
        dialog = result_dialog(screens[seat])
        (shown,) = dialog.find_all(data_audit="unverified")
        assert shown.text().startswith("Fair-play check: unverified. Bo did not open")
        assert not dialog.find_all(data_audit="pending")
        items = verdict_items(dialog)
        assert sorted(items.values()) == ["unverified", "unverified", "verified"], items
        assert next(line for line, kind in items.items() if kind == "verified").startswith("Bo")


# -- verdicts that did not come from the device they name ---------------------------------------


def ended_verified(match_id: str) -> tuple[MemoryNet, dict[int, PlaySession]]:
    net, screens = three_devices(match_id)
    play_out(net)
    assert all(dev.audit_result == Verified() for dev in net.everyone())
    assert all(dev.verdicts[1][0] == "verified" for dev in net.everyone())
    return net, screens


def test_a_guest_refuses_a_verdict_the_host_made_up_for_its_device():
    net, screens = ended_verified("m-verdict-forged-01")
    host, bo = net.host, net.guests[1]
    own = bo.verdicts[1]
    host._broadcast("verdict", seat=1, verdict="cheat", text="Bo cheated: says the host.")
    net.flush()
    assert bo.verdicts[1] == own
    assert "verdict for Bo's device that this device never gave: refused as forged" in notices(bo)
    assert "Bo's device refused" in notices(host)  # the refusal goes back to the sender
    dialog = result_dialog(screens[1])
    assert dialog.find_all(data_audit="verified")
    assert sorted(verdict_items(dialog).values()) == ["verified"] * 3


def test_a_guest_cannot_send_a_verdict_for_another_seat():
    net, _ = ended_verified("m-verdict-forged-02")
    host, cy = net.host, net.guests[2]
    text = encode("verdict", cy.links[HOST].n_out + 1, seat=1, verdict="cheat", text="Bo cheated.")
    host.receive(seat_peer(2), text, net.now)
    net.flush()
    assert "That verdict claims to be Bo's but came from Cy's device: refused as forged" in (
        notices(host)
    )
    assert all(dev.verdicts[1][0] == "verified" for dev in net.everyone())  # nothing relayed
    assert "refused as forged" in notices(cy)


def test_a_verdict_for_a_seat_not_in_the_game_is_refused_and_the_screen_still_shows():
    net, screens = ended_verified("m-verdict-forged-03")
    host, bo = net.host, net.guests[1]
    host._broadcast("verdict", seat=5, verdict="cheat", text="Seat 6 cheated.")
    net.flush()
    assert set(bo.verdicts) == {0, 1, 2}
    assert "A verdict came for seat 6, which is not in this game." in notices(bo)
    dialog = result_dialog(screens[1])
    assert sorted(verdict_items(dialog).values()) == ["verified"] * 3


def test_a_verdict_before_the_welcome_is_refused_without_a_crash():
    guest = OnlineSession.guest(0.0)  # not welcomed yet: it knows no game
    guest.opened(HOST, 0.0)
    guest.receive(HOST, encode("verdict", 1, seat=0, verdict="cheat", text="x"), 0.0)
    assert guest.verdicts == {}
    assert "A verdict arrived before the host's welcome." in notices(guest)


def test_a_guest_that_refused_the_welcome_refuses_the_seed_messages_after_it_without_a_crash():
    """The host's set-up fails the guest's checks (a match id too short for the wire): the guest
    refuses the welcome, then the commitments the host replays after it, each with a sentence."""
    from parlour.games import GAMES
    from parlour.match.config import MatchConfig

    config = MatchConfig("psi-squad", "m-x", ("Ada", "Bo"), {"length": 3})
    net = MemoryNet(OnlineSession.host(GAMES["psi-squad"], config, (0,), 0.0))
    net.connect(1, OnlineSession.guest(0.0))  # before the fix: AttributeError out of receive
    bo = net.guests[1]
    assert bo.config is None and bo.table is None
    assert "That match set-up has no proper game or match id." in notices(bo)
    assert "A commitment arrived before the host's welcome." in notices(bo)
    assert net.host.phase is Phase.SEED and net.host.table is None


# -- verdicts survive reloads and late arrivals ------------------------------------------------


def reloaded(dev: OnlineSession, now: float) -> OnlineSession:
    """The same device after a page reload: rebuilt from what it saved, every link lost."""
    return OnlineSession.from_json(json.loads(json.dumps(dev.to_json())), now)


def ended_esp(tamper=None) -> MemoryNet:
    from tests.test_online import play

    net = start("esp", ("Ada", "Bo"), match_id="m-verdict-reload")
    net.tamper = tamper
    play(net)
    net.tick(1.0)
    return net


def test_a_guest_that_reloads_after_the_end_gets_every_verdict_back():
    net = ended_esp()
    assert set(net.guests[1].verdicts) == {0, 1}
    again = reloaded(net.guests[1], net.now)
    assert again.verdicts == net.guests[1].verdicts  # saved with the game
    fresh = reloaded(net.guests[1], net.now)
    # a save from before verdicts were kept: its own audit runs again, the host tells the rest
    fresh.verdicts = {s: v for s, v in fresh.verdicts.items() if s in fresh.local}
    net.connect(1, fresh)
    assert fresh.verdicts == {0: net.host.verdicts[0], 1: net.host.verdicts[1]}
    assert fresh.verdicts[0][0] == "verified"


def test_a_host_that_reloads_after_the_end_still_shows_and_tells_every_verdict():
    net = ended_esp()
    host = reloaded(net.host, net.now)
    assert set(host.verdicts) == {0, 1} and type(host.audit_result) is Verified
    again = MemoryNet(host, net.now)
    guest = reloaded(net.guests[1], net.now)
    guest.verdicts = {s: v for s, v in guest.verdicts.items() if s in guest.local}
    again.connect(1, guest)
    assert set(guest.verdicts) == {0, 1}


def test_a_verdict_lost_on_the_way_is_given_again_when_the_guest_comes_back():
    def drop_bo_verdict(sender, to, text):
        return None if sender == seat_peer(1) and '"t":"verdict"' in text else text

    net = ended_esp(drop_bo_verdict)
    assert 1 not in net.host.verdicts  # Bo's device audited, but its word never arrived
    net.tamper = None
    net.drop(1)
    net.tick(6.0)
    net.connect(1, reloaded(net.guests[1], net.now))
    assert net.host.verdicts[1][0] == "verified"
