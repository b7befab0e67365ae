"""A step lost with a connection is sent again on the next one (issue 13, point 3).

A guest's required step (an ESPEERS seal) or ordinary move that was on its way when the link
broke used to stay "on its way" for ever: `run_automatic` skipped it, the host never had it, and
after the reconnection the guest accepted the host's stall forfeit, because the step predated
the new connection. A host could do that on purpose: ignore the step, drop, re-invite, declare
the forfeit. Now every welcome makes the guest send its pending moves again, the host knows one
it already has, and a step sent again on this connection counts as sent.
"""

from __future__ import annotations

import json

from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match.audit import Verified
from parlour.match.config import MatchConfig
from parlour.match.online import OnlineSession, Phase, seat_peer
from parlour.net.memory import MemoryNet
from tests.test_online import device, notices, play, same_everywhere


def kind(text: str) -> str:
    return json.loads(text)["t"]


def espeers_with_bo_seal_lost(match_id: str, limit: int = 60) -> MemoryNet:
    """Bo's device seals its deck the moment the game begins; that message is lost and the
    connection breaks."""
    config = MatchConfig("espeers", match_id, ("Ada", "Bo"))
    host = OnlineSession.host(GAMES["espeers"], config, (0,), 0.0, reveal_limit=limit)
    net = MemoryNet(host)
    net.tamper = lambda s, t, text: None if s == seat_peer(1) and kind(text) == "propose" else text
    net.connect(1, OnlineSession.guest(0.0))
    bo = net.guests[1]
    assert bo.phase is Phase.PLAY and 1 in bo.pending  # the seal is "on its way"
    assert not any(e.seat == 1 for e in net.host.match.entries)  # ... and never arrived
    net.tamper = None
    net.drop(1)
    return net


def test_a_seal_lost_in_a_drop_is_sent_again_and_the_game_ends_verified():
    net = espeers_with_bo_seal_lost("m-reconnect-01")
    net.tick(10.0)  # the host notices the silence
    net.connect(1, net.guests[1])  # a fresh invite, the same page
    bo = net.guests[1]
    assert 1 not in bo.pending
    assert any(e.seat == 1 for e in net.host.match.entries)  # the seal arrived this time
    play(net, seed=b"reconnect")
    same_everywhere(net)
    for dev in net.everyone():
        assert dev.audit_result == Verified(), dev.audit_result
        assert dev.match.result().termination is not Termination.FORFEIT


def test_a_seal_lost_in_a_drop_survives_a_reload_of_the_guest():
    net = espeers_with_bo_seal_lost("m-reconnect-02")
    saved = json.loads(json.dumps(net.guests[1].to_json()))
    net.tick(10.0)
    reloaded = OnlineSession.from_json(saved, net.now)
    assert 1 in reloaded.pending
    net.connect(1, reloaded)
    assert 1 not in reloaded.pending
    play(net, seed=b"reconnect-reload")
    same_everywhere(net)
    assert all(dev.audit_result == Verified() for dev in net.everyone())


def test_a_host_cannot_drop_a_step_re_invite_and_declare_the_forfeit():
    """The deliberate version: the host throws Bo's seal away, re-invites, throws the seal
    away again, and declares Bo forfeit when the time is up by its own clock. Bo's device sent
    the step again on the new connection, so it refuses the forfeit as forged."""
    net = espeers_with_bo_seal_lost("m-reconnect-03", limit=30)
    host = net.host
    net.tick(10.0)
    net.tamper = lambda s, t, text: None if s == seat_peer(1) and kind(text) == "propose" else text
    net.connect(1, net.guests[1])  # the host ignores the seal sent again
    bo = net.guests[1]
    assert 1 in bo.pending
    for _ in range(30):
        net.tick(1.0)  # Bo's device answers pings: only the seal is thrown away
    assert host.match.result() is not None
    assert host.match.result().termination is Termination.FORFEIT
    assert bo.match.result() is None
    assert "refused as forged" in notices(bo)


def psi_until_bo_guesses(match_id: str) -> MemoryNet:
    config = MatchConfig("psi-squad", match_id, ("Ada", "Bo"), {"length": 3})
    net = MemoryNet(OnlineSession.host(GAMES["psi-squad"], config, (0,), 0.0))
    net.connect(1, OnlineSession.guest(0.0))
    for seat in (0, 1):
        device(net, seat).act(seat, ChooseCypher("987"))
        net.flush()
    if GAMES["psi-squad"].to_move(net.host.table.state) == {0}:
        assert net.host.act(0, Guess(1, "000")).ok
        net.flush()
    assert GAMES["psi-squad"].to_move(net.host.table.state) == {1}
    return net


def test_an_ordinary_move_lost_in_a_drop_is_not_stuck_on_its_way():
    """A Psi Squad guess on its way when the link broke, lost or arrived: after the
    reconnection it is in the log once (never twice) and play goes on to a verified end."""
    for arrived in (False, True):
        net = psi_until_bo_guesses(f"m-reconnect-1{int(arrived)}")
        host, bo = net.host, net.guests[1]
        before = len(host.table.state.history)
        if not arrived:
            net.drop(1)
        else:  # the guess reaches the host; the host's answer is lost with the link
            net.tamper = lambda s, t, text: None if s == "host" else text
        assert bo.act(1, Guess(0, "123")).sent
        net.flush()
        net.tamper = None
        net.drop(1)
        assert 1 in bo.pending
        net.tick(10.0)
        net.connect(1, bo)
        assert 1 not in bo.pending, notices(bo)
        history = host.table.state.history
        assert len(history) == before + 1
        assert (history[-1].guesser, history[-1].digits) == (1, "123")
        same_everywhere(net)
        play(net, seed=b"after")
        assert all(dev.audit_result == Verified() for dev in net.everyone())
