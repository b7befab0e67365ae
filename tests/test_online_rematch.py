"""Playing again online, and joining a new game from a device that saved an old one.

"Play again" is the host's: once a game is over and checked, and everyone is still connected,
the host welcomes every guest to a new match over the connections they have. Every device then
deals, commits and draws the seed as for a first game, so nothing of the last game (its seed,
its seals, its log) carries over but the players, the variant and their private choices.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from parlour.errors import IllegalAction
from parlour.games import GAMES
from parlour.games.espeers.cards import STARTER_DECKS
from parlour.match.audit import Verified
from parlour.match.config import MatchConfig
from parlour.match.online import HOST, OnlineSession, Phase, seat_peer
from parlour.match.wire import encode
from parlour.net.memory import MemoryNet
from tests.test_online import notices, play, same_everywhere, start


def reloaded(dev: OnlineSession, now: float) -> OnlineSession:
    return OnlineSession.from_json(json.loads(json.dumps(dev.to_json())), now)


def finished(game_id, names, variant=None, match_id="m-rematch-01") -> MemoryNet:
    net = start(game_id, names, variant, match_id=match_id)
    play(net, seed=b"first")
    net.tick(1.0)
    assert all(dev.audit_result == Verified() for dev in net.everyone())
    return net


def check_fresh_game(net: MemoryNet, match_id: str, old_seed: bytes) -> None:
    for dev in net.everyone():
        assert dev.phase is Phase.PLAY, dev.notices
        assert dev.config.match_id == match_id and dev.match.config.match_id == match_id
        assert dev.match.seed != old_seed
        assert dev.verdicts == {} and dev.audit_result is None and dev.openings == {}
    same_everywhere(net)


@pytest.mark.parametrize(
    "game_id, names, variant",
    [
        ("esp", ("Ada", "Bo"), {}),
        ("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}),
        ("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "teams"}),
    ],
)
def test_the_host_starts_another_game_and_it_plays_to_a_verified_end(game_id, names, variant):
    net = finished(game_id, names, variant)
    old_seed = net.host.match.seed
    net.host.rematch("m-rematch-02", net.now)
    net.flush()
    check_fresh_game(net, "m-rematch-02", old_seed)
    assert "A new game: the devices draw its seed together." in notices(net.host)
    play(net, seed=b"second")
    net.tick(1.0)
    assert all(dev.audit_result == Verified() for dev in net.everyone())
    assert all(set(dev.verdicts) == set(range(len(names))) for dev in net.everyone())


def test_espeers_players_bring_the_same_decks_again_even_after_a_reload():
    onslaught = STARTER_DECKS["onslaught"]["cards"]
    mindwall = STARTER_DECKS["mindwall"]["cards"]
    config = MatchConfig(
        "espeers", "m-rematch-decks", ("Ada", "Bo"), {"decks": ["sealed", "sealed"]}
    )
    host = OnlineSession.host(
        GAMES["espeers"], config, (0,), 0.0, private={0: {"deck": dict(mindwall)}}
    )
    guest = OnlineSession.guest(0.0)
    guest.guest_choices = {"deck": "onslaught"}
    net = MemoryNet(host)
    net.connect(1, guest)
    play(net, seed=b"decks-1")
    net.tick(1.0)
    # both pages reload between the games: their choices were saved with the game
    host, guest = reloaded(net.host, net.now), reloaded(net.guests[1], net.now)
    guest.guest_choices = {}  # the join screen is long gone
    net = MemoryNet(host, net.now)
    net.connect(1, guest)
    net.tick(1.0)
    host.rematch("m-rematch-decks-2", net.now)
    net.flush()
    assert host.config.variant["decks"] == ["sealed", "sealed"]

    def deck(dev, seat):
        return Counter(dev.stores[seat].value("deck")["cards"])

    assert deck(host, 0) == Counter(c for c, n in mindwall.items() for _ in range(n))
    assert deck(guest, 1) == Counter(c for c, n in onslaught.items() for _ in range(n))
    play(net, seed=b"decks-2")
    net.tick(1.0)
    assert all(dev.audit_result == Verified() for dev in net.everyone())


def test_playing_again_is_refused_with_a_sentence_until_the_game_is_over_and_all_are_here():
    net = start("esp", ("Ada", "Bo"), match_id="m-rematch-early")
    with pytest.raises(IllegalAction, match="once this one is over and checked"):
        net.host.rematch("m-too-soon", net.now)
    with pytest.raises(IllegalAction, match="Only the host"):
        net.guests[1].rematch("m-guest", net.now)
    play(net, seed=b"early")
    net.tick(1.0)
    net.host.closed(seat_peer(1), net.now)
    with pytest.raises(IllegalAction, match="waiting for Bo's device"):
        net.host.rematch("m-not-everyone", net.now)
    assert net.host.config.match_id == "m-rematch-early" and net.host.audit_result is not None


def test_a_guest_refuses_a_new_game_while_this_one_is_still_on():
    """A host cannot wipe a game in progress by welcoming its guests to another one."""
    net = start("esp", ("Ada", "Bo"), match_id="m-rematch-mid")
    play(net, seed=b"mid", steps=6, to_the_end=False)
    guest = net.guests[1]
    step, head = guest.match.step, guest.match.head()
    other = MatchConfig("esp", "m-rematch-other", ("Ada", "Bo"))
    n = net.host.links[seat_peer(1)].n_out + 1
    net.host.links[seat_peer(1)].n_out = n
    text = encode("welcome", n, config=other.to_json(), seat=1, limits={"reveal": 60}, host=[0])
    guest.receive(HOST, text, net.now)
    assert "another game while this one is still on" in notices(guest)
    assert (guest.config.match_id, guest.match.step, guest.match.head()) == (
        "m-rematch-mid",
        step,
        head,
    )


def test_a_device_that_saved_an_old_game_joins_a_new_one_cleanly():
    """A browser that last played as a guest resumes that save when it opens a new invite; the
    new host's welcome must replace it (the old seed state once stalled the new game)."""
    net = finished("esp", ("Ada", "Bo"), match_id="m-old-game")
    saved = reloaded(net.guests[1], net.now)
    config = MatchConfig("esp", "m-new-game", ("Cy", "Bo"))
    host = OnlineSession.host(GAMES["esp"], config, (0,), net.now)
    fresh = MemoryNet(host, net.now)
    fresh.connect(1, saved)
    assert host.phase is Phase.PLAY and saved.phase is Phase.PLAY
    assert saved.config.match_id == "m-new-game" and saved.match.step == host.match.step
    play(fresh, seed=b"new-game")
    fresh.tick(1.0)
    assert all(dev.audit_result == Verified() for dev in fresh.everyone())


@pytest.mark.parametrize(
    "game_id, names, variant",
    [("esp", ("Ada", "Bo"), {}), ("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3})],
)
def test_signed_play_again_is_a_new_match_with_a_fresh_key_pair_on_every_device(
    game_id, names, variant
):
    """A new match signs with new keys: every device takes a fresh key pair for it (the page's
    keyring makes them), so nothing signed in one match can be taken for the other's, and the
    new table code is made from the new keys. The game plays to a verified end."""
    from tests.signers import crypto

    net = start(game_id, names, variant, match_id="m-rematch-keys-1", signed=crypto)
    for dev in net.everyone():
        dev.key_maker = crypto
    play(net, seed=b"first")
    net.tick(1.0)
    old = {dev.me: dev.keys[dev.me] for dev in net.everyone()}
    old_code = net.host.table_code()
    net.host.rematch("m-rematch-keys-2", net.now)
    net.flush()
    check_fresh_game(net, "m-rematch-keys-2", b"")
    for dev in net.everyone():
        assert set(dev.keys) == set(old)
        assert all(dev.keys[d] != key for d, key in old.items()), dev.me
        assert dev.keys[dev.me].public == dev.crypto.signer.public_key
        assert not [n for n in dev.notices if "efused" in n], dev.notices
    assert len({dev.table_code() for dev in net.everyone()} | {old_code}) == 2
    play(net, seed=b"second")
    net.tick(1.0)
    assert all(dev.audit_result == Verified() for dev in net.everyone())
