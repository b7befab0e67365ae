"""The end-of-game audit: verified, cheat with evidence, or unverified."""

from __future__ import annotations

from parlour.fair.commit import Context
from parlour.fair.store import PrivateStore
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.config import MatchConfig
from parlour.match.log import entry_hash
from parlour.match.match import Match
from tests.example_game import HIDDEN_NUMBERS, Guess, Reveal
from tests.test_match import SEED, new_match, play


def openings_of(stores: list[PrivateStore]) -> dict:
    return {s: list(store.openings.values()) for s, store in enumerate(stores)}


def test_an_honest_game_is_verified():
    match = new_match()
    private = play(match, [3, 7, 9], [7, 1, 4], luckies=[1, 10, 4])
    result = audit(HIDDEN_NUMBERS, match.config, SEED, match.entries, openings_of(private))
    assert isinstance(result, Verified)


def test_a_seat_that_does_not_open_makes_it_unverified():
    match = new_match()
    private = play(match, [3, 7, 9], [7, 1, 4])
    openings = openings_of(private)
    openings[2] = None
    result = audit(HIDDEN_NUMBERS, match.config, SEED, match.entries, openings)
    assert result == Unverified((2,), result.reason)
    assert "Cy did not open a hidden value in time" in result.reason


def test_a_missing_opening_counts_as_not_opening():
    match = new_match()
    private = play(match, [3, 7, 9], [7, 1, 4])
    openings = openings_of(private)
    openings[1] = [o for o in openings[1] if o.label != "lucky"]
    result = audit(HIDDEN_NUMBERS, match.config, SEED, match.entries, openings)
    assert isinstance(result, Unverified) and result.seats == (1,)


def test_an_opening_that_does_not_match_at_the_end_is_a_cheat():
    match = new_match()
    private = play(match, [3, 7, 9], [7, 1, 4])
    liar = PrivateStore(Context(match.config.match_id, 1))
    liar.commit("lucky", 6)
    openings = openings_of(private)
    openings[1] = [private[1].opening("number"), liar.opening("lucky")]
    result = audit(HIDDEN_NUMBERS, match.config, SEED, match.entries, openings)
    assert result == Cheat(
        1, 2, "Bo's opening of their lucky number does not match the commitment made at move 2."
    )


def test_a_hidden_value_that_breaks_the_rules_is_a_cheat():
    match = new_match()
    private = play(match, [3, 7, 9], [7, 1, 4], luckies=[5, 5, 42])
    result = audit(HIDDEN_NUMBERS, match.config, SEED, match.entries, openings_of(private))
    assert result == Cheat(2, 3, "Cy's lucky number 42 was never a number from 1 to 10.")


def _reforge(entries: list[dict], match_id: str, genesis: str) -> list[dict]:
    """What a cheater who controls the whole log can do: recompute every hash."""
    prev = genesis
    for entry in entries:
        entry["prev"] = prev
        entry["hash"] = entry_hash(match_id, entry["seq"], entry["seat"], entry["action"], prev)
        prev = entry["hash"]
    return entries


def test_a_forged_reveal_in_a_rehashed_log_is_caught_at_its_step():
    match = new_match(("Ada", "Bo"))
    private = play(match, [3, 8], [8, 2])
    log = [e.to_json() for e in match.entries]
    forged = PrivateStore(private[1].context)
    forged.commit("number", 3)
    log[5]["action"] = HIDDEN_NUMBERS.action_to_json(Reveal(forged.opening("number")))
    _reforge(log, match.config.match_id, match.genesis)
    result = audit(HIDDEN_NUMBERS, match.config, SEED, log, openings_of(private))
    assert result == Cheat(
        1, 6, "Bo's reveal of their number does not match the commitment made at move 2."
    )


def test_a_tampered_log_entry_is_caught():
    match = new_match(("Ada", "Bo"))
    private = play(match, [3, 8], [8, 2])
    log = [e.to_json() for e in match.entries]
    log[2]["action"] = HIDDEN_NUMBERS.action_to_json(Guess(3))
    result = audit(HIDDEN_NUMBERS, match.config, SEED, log, openings_of(private))
    assert isinstance(result, Cheat) and result.step == 3 and "altered" in result.reason


def test_an_illegal_action_in_the_log_is_a_cheat_by_its_seat():
    match = new_match(("Ada", "Bo"))
    private = play(match, [3, 8], [8, 2])
    log = [e.to_json() for e in match.entries]
    log[2]["action"] = HIDDEN_NUMBERS.action_to_json(Guess(11))
    _reforge(log, match.config.match_id, match.genesis)
    result = audit(HIDDEN_NUMBERS, match.config, SEED, log, openings_of(private))
    assert result == Cheat(0, 3, "A guess is a number from 1 to 10.")


def test_audit_of_a_different_setup_fails_at_the_first_move():
    match = new_match(("Ada", "Bo"))
    private = play(match, [3, 8], [8, 2])
    other = MatchConfig(HIDDEN_NUMBERS.id, "match-other", ("Ada", "Bo"))
    result = audit(HIDDEN_NUMBERS, other, SEED, match.entries, openings_of(private))
    assert isinstance(result, Cheat) and result.step == 1
    assert isinstance(Match(HIDDEN_NUMBERS, other, SEED), Match)


def test_a_provable_cheat_outranks_another_seat_refusing_to_open():
    match = new_match()
    private = play(match, [3, 7, 9], [7, 1, 4], luckies=[5, 42, 5])
    openings = openings_of(private)
    openings[0] = None  # Ada withholds; Bo's impossible lucky number is still proven
    result = audit(HIDDEN_NUMBERS, match.config, SEED, match.entries, openings)
    assert result == Cheat(1, 2, "Bo's lucky number 42 was never a number from 1 to 10.")
