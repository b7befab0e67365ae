"""Replays, pure: the record of a finished game as a link and as a file, read back exactly;
anything damaged, cut short, foreign or newer refused in words (fuzzed); the step-through model,
its verdict (the audit's), and the openings it may show, only when it may."""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.errors import MalformedInput, ParlourError
from parlour.fair.commit import Opening
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.replay import (
    CUT_SHORT,
    DAMAGED,
    NEWER,
    NOT_OURS_FILE,
    NOT_OURS_LINK,
    VERSION,
    ReplayRecord,
    file_text,
    from_code,
    from_file,
)
from parlour.match.viewer import NOT_TRUSTED, NOT_YET, Replay
from tests.replays import IDS, SETUPS, finished, index_of

ALL = pytest.mark.parametrize("setup", range(len(SETUPS)), ids=IDS)
FUZZ = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def pack(data: object) -> str:
    """Any JSON as a link's code, the way the codec packs a record."""
    raw = zlib.compress(json.dumps(data).encode())
    return f"{VERSION}." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def refusal(code: str) -> str:
    with pytest.raises(MalformedInput) as caught:
        from_code(code)
    return caught.value.sentence


# -- round trips -------------------------------------------------------------------------------


@ALL
def test_a_finished_game_goes_through_a_link_and_a_file_unchanged(setup):
    table, record = finished(setup)
    assert from_code(record.code()) == record
    assert from_code("https://example.org/?embed=1" + "#replay=" + record.code()) == record
    assert from_file(file_text(record)) == record
    replay = Replay.open(from_code(record.code()))
    assert replay.verdict == Verified()
    assert replay.match.result() == table.match.result()
    assert replay.match.head() == table.match.head()  # the same hash chain, recomputed
    assert not replay.cut_short


@ALL
def test_the_viewer_gives_the_verdict_the_players_got(setup):
    table, record = finished(setup)
    match = table.match
    openings = {s: table.openings(s) for s in table.stores}
    players = audit(match.game, match.config, match.seed, match.entries, openings)
    assert Replay.open(record).verdict == players == Verified()


def test_a_link_is_short_enough_to_paste():
    _, record = finished(index_of("esp"))
    assert len(record.link("https://psi-parlour.example/")) < 6000


def test_the_link_is_the_full_sites_even_from_an_embed():
    _, record = finished(index_of("psi-squad"))
    link = record.link("https://x.example/parlour/?embed=1&game=esp#play-esp")
    assert link.startswith("https://x.example/parlour/#replay=1.")


# -- refusals, in words ------------------------------------------------------------------------


def test_a_link_cut_short_anywhere_says_so():
    _, record = finished(index_of("psi-squad"))
    code = record.code()
    for end in range(3, len(code), max(1, len(code) // 60)):
        assert refusal(code[:end]) == CUT_SHORT, end


def test_a_changed_character_is_damage_or_changes_nothing():
    _, record = finished(index_of("psi-squad"))
    code = record.code()
    for at in range(2, len(code), max(1, len(code) // 80)):
        changed = code[:at] + ("A" if code[at] != "A" else "B") + code[at + 1 :]
        try:
            assert from_code(changed) == record  # only the unused bits of the last letter
        except MalformedInput as error:
            assert error.sentence in (DAMAGED, CUT_SHORT), error.sentence


def test_a_newer_format_asks_for_a_newer_page():
    _, record = finished(index_of("psi-squad"))
    newer = f"{VERSION + 1}." + record.code().split(".", 1)[1]
    assert refusal(newer) == NEWER.format(what="replay link", version=VERSION + 1, ours=VERSION)
    document = {**record.to_json(), "version": VERSION + 1}
    with pytest.raises(MalformedInput, match="newer version of Psi Parlour"):
        from_file(json.dumps(document))


@pytest.mark.parametrize("code", ["", "hello", "1", "1-abc", "0.abc", "1.a b", "#join=abc"])
def test_something_that_is_not_a_replay_link(code):
    assert refusal(code) in (NOT_OURS_LINK, CUT_SHORT)


def test_other_json_in_a_link_or_a_file_is_not_ours():
    assert refusal(pack({"hello": "world"})) == NOT_OURS_LINK
    assert refusal(pack([1, 2])) == NOT_OURS_LINK
    table, _ = finished(index_of("psi-squad"))
    for text in ("{}", "[]", "not json", table.match.dumps(), '{"format": "psi-parlour/replay"}'):
        with pytest.raises(MalformedInput) as caught:
            from_file(text)
        assert caught.value.sentence == NOT_OURS_FILE


def test_a_record_with_a_broken_part_says_which():
    _, record = finished(index_of("psi-squad"))
    document = record.to_json()
    broken = {
        "seed": {**document, "seed": "00"},
        "log": {**document, "log": [[7, {}]]},
        "openings": {**document, "openings": {"0": [{"label": "x"}]}},
        "config": {**document, "config": {"game": "chess"}},
    }
    for part, data in broken.items():
        with pytest.raises(MalformedInput, match="holds a game Psi Parlour cannot read") as caught:
            ReplayRecord.from_json(data, "replay link")
        assert "This replay link" in caught.value.sentence, part


def test_a_small_link_that_unpacks_into_too_much_is_refused():
    bomb = zlib.compress(b"[" + b"0," * 3_000_000 + b"0]", 9)
    code = f"{VERSION}." + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert "too large" in refusal(code)


# -- fuzzing: whatever arrives, a sentence or a replay, nothing else ---------------------------

ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=40)
SCALARS = st.none() | st.booleans() | st.integers(-3, 9) | st.integers() | ANY_TEXT
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=12,
)


def opens_or_refuses(code: str) -> None:
    """Read a code and, if it reads, watch it to the end: only sentences may come out."""
    try:
        replay = Replay.open(from_code(code))
    except ParlourError as error:
        assert error.sentence and "Traceback" not in error.sentence
        return
    replay.end()
    replay.show_everything(True)
    replay.now().result()


@FUZZ
@given(ANY_TEXT)
def test_any_text_as_a_link(text):
    opens_or_refuses(text)
    opens_or_refuses("1." + text)


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_behind_a_good_prefix(raw):
    opens_or_refuses(f"{VERSION}." + base64.urlsafe_b64encode(raw).decode().rstrip("="))
    opens_or_refuses(f"{VERSION}." + base64.urlsafe_b64encode(zlib.compress(raw)).decode())


@FUZZ
@given(st.dictionaries(st.sampled_from(["config", "seed", "log", "openings"]), JSON))
def test_any_fields_in_our_format(fields):
    opens_or_refuses(pack({"format": "psi-parlour/replay", "version": VERSION, **fields}))


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _put(value: object, path: tuple, new: object) -> object:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _put(value[head], rest, new)}
    assert isinstance(value, list)
    return [_put(v, rest, new) if i == head else v for i, v in enumerate(value)]


@FUZZ
@given(st.integers(0, len(SETUPS) - 1), st.data())
def test_a_real_record_with_one_value_replaced(setup, data):
    """The engines' and the audit's checks behind the codec's are reached too."""
    document = finished(setup)[1].to_json()
    paths = _paths(document)
    path = paths[data.draw(st.integers(0, len(paths) - 1))]
    opens_or_refuses(pack(_put(document, path, data.draw(JSON))))


# -- tampering: the verdict says so -------------------------------------------------------------


def _with_move(record: ReplayRecord, index: int, action: object) -> ReplayRecord:
    moves = list(record.moves)
    moves[index] = (moves[index][0], action)
    return replace(record, moves=tuple(moves))


def test_a_changed_move_is_a_cheat_and_the_replay_stops_before_it():
    _, record = finished(index_of("esp"))  # ESP
    places = [i for i, (_, a) in enumerate(record.moves) if a.get("type") == "place"]
    index = places[3]  # the first tile may go anywhere; the fourth must touch the group
    moved = _with_move(record, index, {**record.moves[index][1], "cell": [40, 40]})
    replay = Replay.open(from_code(moved.code()))
    assert isinstance(replay.verdict, Cheat) and replay.verdict.step == index + 1
    assert replay.cut_short and replay.match.step == index
    replay.end()
    assert not replay.show_everything(True) and replay.everything_refusal() == NOT_TRUSTED


def opened_in_the_log(moves: tuple) -> tuple[int, list]:
    """The first move of a log that carries an opening (a reveal in play), and the path to it
    in the move's JSON; (-1, []) when no move does."""

    def path_to(value: object, path: list) -> list | None:
        if isinstance(value, dict):
            if set(value) == {"label", "value", "nonce"}:
                return path
            items = list(value.items())
        elif isinstance(value, list):
            items = list(enumerate(value))
        else:
            return None
        return next((p for k, v in items if (p := path_to(v, [*path, k])) is not None), None)

    for index, (_, action) in enumerate(moves):
        found = path_to(action, [])
        if found is not None:
            return index, found
    return -1, []


@ALL
def test_a_changed_opening_is_a_cheat(setup):
    """An opening with another nonce is a cheat of its seat: one of the end's openings, for a
    game that ends with secrets sealed; else (Telepathic opens all in play) one in the log."""
    table, record = finished(setup)
    sealed = table.game.sealed(table.state)
    if sealed:
        seal = sealed[0]
        openings = dict(record.openings)
        ops = list(openings[seal.seat] or ())
        at = next(i for i, o in enumerate(ops) if o.label == seal.label)
        ops[at] = Opening(ops[at].label, ops[at].value, "0" * 64)  # another nonce
        openings[seal.seat] = tuple(ops)
        changed, seat = replace(record, openings=openings), seal.seat
    else:
        index, path = opened_in_the_log(record.moves)
        assert index >= 0, "nothing sealed at the end: the log opens the secrets in play"
        seat, action = record.moves[index]
        action = json.loads(json.dumps(action))
        opening = action
        for key in path:
            opening = opening[key]
        opening["nonce"] = "0" * 64
        changed = _with_move(record, index, action)
    verdict = Replay.open(changed).verdict
    assert isinstance(verdict, Cheat) and verdict.seat == seat
    assert "does not match the commitment" in verdict.reason


def test_a_seat_that_did_not_open_leaves_the_game_unverified():
    _, record = finished(index_of("psi-squad"))
    withheld = replace(record, openings={**record.openings, 1: None})
    back = from_code(withheld.code())
    assert back.openings[1] is None
    verdict = Replay.open(back).verdict
    assert isinstance(verdict, Unverified) and verdict.seats == (1,)


# -- the step-through ---------------------------------------------------------------------------


def test_stepping_first_previous_next_last_and_the_ends():
    _, record = finished(index_of("psi-squad"))
    replay = Replay.open(record)
    assert replay.position == 0 and replay.step == 0 and not replay.seen_end
    replay.previous()
    assert replay.position == 0
    replay.next()
    replay.next()
    assert replay.position == 2 and replay.step == replay.stops[2]
    replay.end()
    assert replay.at_end and replay.seen_end and replay.step == len(record.moves)
    replay.next()
    assert replay.at_end
    replay.first()
    assert replay.position == 0 and replay.seen_end  # once seen, the end stays seen
    replay.go(10_000)
    assert replay.at_end
    replay.go(-5)
    assert replay.position == 0


def test_routine_steps_fold_into_the_move_before():
    _, record = finished(index_of("psi-squad"))
    routine = {0, 1, 5}  # say the first two entries and the sixth tell nothing

    replay = Replay.open(record, routine=lambda match, index: index in routine)
    assert replay.stops[:4] == [2, 3, 4, 6]
    assert replay.stops[-1] == len(record.moves)
    assert len(replay.stops) == len(record.moves) - len(routine) + 1


def test_autoplay_moves_on_its_own_tick_only():
    _, record = finished(index_of("psi-squad"))
    replay = Replay.open(record)
    replay.play(True)
    tick = replay.revision
    assert replay.tick(tick) and replay.position == 1
    assert not replay.tick(tick)  # a tick from before the last move is stale
    replay.next()  # a click in between: the tick on its way changes nothing
    assert not replay.tick(replay.revision - 1)
    replay.end()
    assert not replay.playing  # the end stops it
    replay.play(True)
    assert replay.playing and replay.position == 0  # play at the end starts again


def test_show_everything_only_after_the_end_and_only_public_commitments():
    _, record = finished(index_of("psi-squad"))
    stray = Opening("cypher", "999", "ab" * 32)  # in the record, committed nowhere
    extra = (*(record.openings[0] or ()), replace(stray, label="stray"))
    replay = Replay.open(replace(record, openings={**record.openings, 0: extra}))
    assert replay.everything_refusal() == NOT_YET
    assert not replay.show_everything(True) and replay.store_of(0) is None
    replay.end()
    replay.first()
    assert replay.show_everything(True)
    store = replay.store_of(0)
    assert store is not None and "stray" not in store and "cypher" in store
    replay.show_everything(False)
    assert replay.store_of(0) is None


def test_the_past_is_a_match_of_its_own():
    table, record = finished(index_of("psi-squad"))
    replay = Replay.open(record)
    replay.go(3)
    earlier = replay.now()
    assert earlier.step == replay.step and earlier.state == table.match.state_at(replay.step)
    assert replay.match.step == len(record.moves)  # the whole match is unchanged


@pytest.mark.parametrize("setup", range(len(SETUPS)), ids=[s[0] for s in SETUPS])
def test_every_opening_value_of_a_real_record_replaced_by_a_list_is_refused(setup):
    """What the fuzzing above found once in ESPEERS (an opening's value `[]` where a card's id
    belongs raised "unhashable type" in the rules): every opening value of a finished game, in
    the log and in the openings, replaced by a list or an object, opens or is refused."""
    document = finished(setup)[1].to_json()
    values = [p for p in _paths(document) if p and p[-1] == "value"]
    assert values, "the record holds openings"
    for path in values:
        for bad in ([], {}):
            opens_or_refuses(pack(_put(document, path, bad)))
