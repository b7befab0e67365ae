"""Loading a damaged save: it loads, or it is refused as `MalformedInput`, and nothing else.

The saves are real: online games played over the in-memory transport and saved on every device
at every stage (a guest not yet welcomed, a host alone in its lobby, the seed half drawn, shared
decks half dealt, play with a move on its way, the end with its verdicts, a seed forfeit). Each
is then damaged the ways a save gets damaged: a key deleted, a value's type changed, two values
swapped, a part of another save put in, a list cut short, garbage text, junk nested in. The page
drops a save it cannot load and says so (ui/online/app.py); any other exception would escape
as a fault of the page. A save that does load must then work as a session: it saves again and
its clock ticks.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.errors import MalformedInput
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.match.config import MatchConfig
from parlour.match.online import OnlineSession, Phase, seat_peer
from parlour.match.wire import encode
from parlour.net.memory import MemoryNet
from tests.test_online import choose, device, over, play, start
from tests.test_wire_fuzz import ANY_TEXT

Path = tuple[Any, ...]
# What a save's values look like, and what they must not: seats and steps, hex of a hash's or a
# nonce's length, names and labels, and now and then any text at all (a lone surrogate: check_text
# refuses the whole save at once, so it is kept rare, to let the damage reach further in).
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-2, 9)
    | st.integers(-(2**40), 2**40)
    | st.text("0123456789abcdef", min_size=63, max_size=65)
    | st.text(max_size=12)
    | st.sampled_from(["host", "guest", "seat-1", "seed-commit", "deal-lock", "verified", "0"])
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


def _kind(text: str) -> str:
    return json.loads(text)["t"]


def _guest_to_move(net: MemoryNet) -> int:
    """A guest's seat that can choose a move now (0 if none: the host's seat)."""
    game, state = net.host.game, net.host.table.state
    seats = [s for s in sorted(game.to_move(state)) if s and not game.automatic(state, s)]
    return seats[0] if seats else 0


def _saves_of(net: MemoryNet) -> list[dict]:
    return [json.loads(json.dumps(dev.to_json())) for dev in net.everyone()]


def _real_saves() -> dict[str, dict]:
    """Every stage of a game, saved on every device, as the page would save it."""
    saves: dict[str, list[dict]] = {}

    saves["guest before the welcome"] = [OnlineSession.guest(0.0).to_json()]

    config = MatchConfig("esp", "m-saves-lobby-1", ("Ada", "Bo", "Cy"))
    lobby = MemoryNet(OnlineSession.host(GAMES["esp"], config, (0,), 0.0))
    saves["host alone"] = _saves_of(lobby)
    lobby.connect(1, OnlineSession.guest(0.0))
    saves["seed half drawn"] = _saves_of(lobby)

    net = start("esp", ("Ada", "Bo"), match_id="m-saves-esp-1")
    play(net, seed=b"saves", steps=4, to_the_end=False)
    saves["esp in play"] = _saves_of(net)
    play(net, seed=b"saves")
    saves["esp over"] = _saves_of(net)
    assert all(dev.phase is Phase.END for dev in net.everyone())

    net = start("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, match_id="m-saves-psi-1")
    play(net, seed=b"saves", steps=2, to_the_end=False)
    while not (guest := _guest_to_move(net)):
        play(net, seed=b"saves more", steps=1, to_the_end=False)
    net.tamper = lambda s, t, text: None if _kind(text) == "propose" else text
    dev = device(net, guest)
    assert dev.act(guest, choose(net, guest, Rng(b"saves"))).sent
    net.flush()
    assert dev.pending, "no move on its way"
    saves["psi squad, a move on its way"] = _saves_of(net)

    net = start("espeers", ("Ada", "Bo"), match_id="m-saves-espeers-1")
    play(net, seed=b"saves", steps=6, to_the_end=False)
    assert not over(net)
    saves["espeers in play"] = _saves_of(net)

    four = MatchConfig("telepathic", "m-saves-tele-1", ("Ada", "Bo", "Cy", "Di"))
    four = MatchConfig(four.game, four.match_id, four.seats, {"arrangement": "four"})
    net = MemoryNet(OnlineSession.host(GAMES["telepathic"], four, (0,), 0.0))
    net.tamper = lambda s, t, text: None if _kind(text) == "deal-unlock" else text
    for seat in (1, 2, 3):
        net.connect(seat, OnlineSession.guest(0.0))
    assert any(t == "deal-lock" for t, _ in net.host.seed_log)
    saves["telepathic, decks half dealt"] = _saves_of(net)
    net = start(
        "telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}, match_id="m-saves-tele-2"
    )
    play(net, seed=b"saves", steps=3, to_the_end=False)
    saves["telepathic in play"] = _saves_of(net)

    config = MatchConfig("esp", "m-saves-forfeit-1", ("Ada", "Bo"))
    net = MemoryNet(OnlineSession.host(GAMES["esp"], config, (0,), 0.0, reveal_limit=20))
    net.tamper = lambda s, t, text: None if _kind(text) == "seed-reveal" and s != "host" else text
    net.connect(1, OnlineSession.guest(0.0))
    for _ in range(25):
        net.tick(1.0)
    assert net.host.phase is Phase.FORFEIT
    saves["seed forfeit"] = _saves_of(net)

    return {
        f"{stage}, {save['role']} {i}": save
        for stage, found in saves.items()
        for i, save in enumerate(found)
    }


SAVES = _real_saves()
NAMES = sorted(SAVES)


def _in_any_order(steps: list) -> list[str]:
    return sorted(json.dumps(step, sort_keys=True) for step in steps)


@pytest.mark.parametrize("name", NAMES)
def test_every_real_save_loads_and_saves_the_same(name):
    """The seed steps are taken again deals first, then commitments, then reveals: the same
    steps, in that order."""
    save = SAVES[name]
    session = OnlineSession.from_json(copy.deepcopy(save), 100.0)
    again = json.loads(json.dumps(session.to_json()))
    assert _in_any_order(again.pop("seed_log")) == _in_any_order(save["seed_log"])
    assert again == {k: v for k, v in save.items() if k != "seed_log"}
    assert all(link.state == "lost" for link in session.links.values())


# -- damage ---------------------------------------------------------------------------------------


def _paths(value: Any, path: Path = ()) -> list[Path]:
    """Every place inside a JSON value (not the value itself)."""
    found: list[Path] = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    if isinstance(value, dict | list):
        for key, item in items:
            found.append((*path, key))
            if isinstance(item, dict | list):
                found.extend(_paths(item, (*path, key)))
    return found


def _get(value: Any, path: Path) -> Any:
    for key in path:
        value = value[key]
    return value


def _set(value: Any, path: Path, new: Any) -> None:
    _get(value, path[:-1])[path[-1]] = new


def _retyped(value: Any) -> Any:
    """The same value, written as another type (as an older or careless writer might)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return [str(value), float(value % 2**53), -value - 1, 2**63, True][value % 5]
    if isinstance(value, str):
        return int(value, 16) if value and all(c in "0123456789abcdef" for c in value) else [value]
    if isinstance(value, list):
        return {str(i): item for i, item in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return {}


def _garbled(text: str, data: st.DataObject) -> str:
    how = data.draw(st.integers(0, 4))
    if how == 0 or not text:
        return data.draw(ANY_TEXT | st.text(max_size=12))
    at = data.draw(st.integers(0, len(text) - 1))
    if how == 1:  # one character changed (a hex digit flipped, a seat renamed)
        return text[:at] + ("0" if text[at] != "0" else "1") + text[at + 1 :]
    if how == 2:
        return text[:at]
    if how == 3:
        return text + data.draw(ANY_TEXT)
    return text.upper()


def _damage(save: dict, data: st.DataObject) -> None:
    """One kind of damage, somewhere in `save` (changed in place). Places are picked evenly, by
    a Random seeded from hypothesis (whose own choices lean towards the first place: the save's
    format, every time)."""
    where = random.Random(data.draw(st.integers(0, 2**32)))
    paths = _paths(save)
    path = where.choice(paths)
    value = _get(save, path)
    how = data.draw(
        st.sampled_from(
            ["delete", "junk", "retype", "swap", "graft", "truncate", "garble", "nest", "repeat"]
        )
    )
    if how == "delete":
        del _get(save, path[:-1])[path[-1]]
    elif how == "junk":
        _set(save, path, data.draw(JUNK))
    elif how == "retype":
        _set(save, path, _retyped(value))
    elif how == "swap":
        other = where.choice(paths)
        if other[: len(path)] != path and path[: len(other)] != other:
            mine = copy.deepcopy(value)
            _set(save, path, copy.deepcopy(_get(save, other)))
            _set(save, other, mine)
    elif how == "graft":  # a part of another save, in this one's place
        donor = SAVES[where.choice(NAMES)]
        donor_path = where.choice(_paths(donor))
        _set(save, path, copy.deepcopy(_get(donor, donor_path)))
    elif how == "truncate" and isinstance(value, list):
        _set(save, path, value[: data.draw(st.integers(0, max(0, len(value) - 1)))])
    elif how == "garble" and isinstance(value, str):
        _set(save, path, _garbled(value, data))
    elif how == "nest":
        _set(save, path, data.draw(st.sampled_from([[value], {"value": value}, [value, value]])))
    elif how == "repeat" and isinstance(value, list) and value:
        _set(save, path, [*value, copy.deepcopy(value[-1])])
    else:
        _set(save, path, data.draw(JUNK))


DAMAGE = settings(
    max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@DAMAGE
@given(st.sampled_from(NAMES), st.integers(1, 3), st.data())
def test_a_damaged_save_loads_or_is_refused_as_malformed_and_nothing_else(name, times, data):
    save = copy.deepcopy(SAVES[name])
    for _ in range(times):
        if _paths(save):
            _damage(save, data)
    try:
        session = OnlineSession.from_json(save, 100.0)
    except MalformedInput as error:
        assert error.sentence
        return
    json.dumps(session.to_json())  # it saves again
    session.tick(101.0)  # and it runs: its clock,
    session.tick(400.0)
    for peer in session.links:  # its connections, made again,
        session.opened(peer, 401.0)
        if session.is_host:  # a guest that comes back (the host replays everything to it),
            session.receive(peer, encode("hello", 1, resume=None), 401.5)
    session.tick(402.0)
    json.dumps(session.take_outbox())  # and what it says


def test_the_save_of_a_host_names_every_invited_seat():
    """A sanity check of the corpus: the damage above reaches every part of a host's save."""
    host = SAVES[next(n for n in NAMES if n.startswith("esp in play, host"))]
    assert set(host["links"]) == {seat_peer(1)}
    assert set(host) >= {"config", "stores", "joint", "seed_log", "match", "openings", "pending"}
