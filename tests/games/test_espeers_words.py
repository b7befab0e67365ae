"""ESPEERS in words: the log's sentence for every kind of action, public facts only."""

from __future__ import annotations

from parlour.games.espeers.actions import (
    AnswerPrediction,
    AssignDamage,
    BarrierAttack,
    Cycle,
    Discard,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
    Predict,
    RevealBarrier,
    SealDeck,
)
from parlour.games.espeers.words import describe, pass_meaning
from tests.games.test_espeers import A_HEAD, B_SLAM, Duel, duel


def said(d: Duel, seat: int, action) -> str:
    return describe(d.state, seat, action)


def test_mulligans_and_sealing():
    d = duel(A_HEAD)
    assert said(d, 0, SealDeck("ab" * 32)) == ""
    before = d.state
    assert describe(before, 0, Mulligan(False)).endswith("(free) and draws six new cards.")
    d.set(0, mulligans=2)
    assert said(d, 0, Mulligan(False)) == (
        "Ada takes a mulligan (1 PSI to Spent) and draws six new cards."
    )
    assert said(d, 0, Mulligan(True)) == "Ada keeps the hand after 2 mulligans."


def test_play_cycle_and_the_passes():
    d = duel(A_HEAD)
    assert said(d, 0, Play("psychic-jab")) == (
        "Ada plays Psychic Jab for 2 PSI: “Deal 2 damage.” It is suspended."
    )
    d.set(0, spent=1)
    assert said(d, 0, Cycle("mind-spike")) == "Ada cycles Mind Spike (star): Ada regains 1 PSI."
    assert said(d, 0, Cycle("feedback")) == "Ada cycles Feedback (circle): nothing happens."
    assert pass_meaning(d.state, 0) == "Pass: end your Active phase"
    assert said(d, 0, Pass()) == (
        "Ada passes: the Active phase ends, and Bo has a last Opportunity before the turn ends."
    )
    d.do(0, Play("psychic-jab"))
    d.do(1, Pass())
    assert pass_meaning(d.state, 0) == "Pass: Psychic Jab resolves"
    assert said(d, 0, Pass()) == "Ada passes: Psychic Jab resolves: Bo is dealt 2 damage."
    d.do(0, Pass())
    d.do(0, Pass())
    assert pass_meaning(d.state, 1) == "Pass: Ada's turn ends"
    assert said(d, 1, Pass()) == "Bo passes: Ada's turn ends."


def test_barrier_words_never_name_the_card_before_it_is_shown():
    d = duel(A_HEAD, B_SLAM)
    text = said(d, 0, PlaceBarrier("mind-spike"))
    assert text == "Ada lays a barrier: a card face down with 2 PSI on it." and "Spike" not in text
    d.do(0, PlaceBarrier("mind-spike"))
    assert said(d, 1, Predict(None)) == "Bo makes no guess at the barrier's symbol."
    assert said(d, 1, Predict("star")) == "Bo guesses that the barrier is a star."
    opening = d.stores[0].opening("barrier:0")
    assert said(d, 0, AnswerPrediction(False)) == "Ada: wrong guess, the barrier stays."
    assert said(d, 0, AnswerPrediction(True, opening)) == (
        "Ada: right guess! The barrier (Mind Spike) is discarded and its 2 PSI go to Spent."
    )
    assert said(d, 0, BarrierAttack(opening)) == (
        "Ada discards the barrier (Mind Spike) to attack: Bo takes 1 damage."
    )
    assert said(d, 0, RevealBarrier(opening)) == (
        "Ada's barrier (Mind Spike) absorbs the damage and is discarded."
    )


def test_damage_and_discards():
    d = duel(A_HEAD)
    assert said(d, 1, AssignDamage(1, 2)) == "Bo takes 3 damage: 1 from the Pool and 2 from Spent."
    assert said(d, 1, AssignDamage(0, 1)) == "Bo takes 1 damage: 1 from Spent."
    assert said(d, 0, Discard(("mind-spike", "focus"))) == (
        "Ada discards Mind Spike and Focus to get down to six cards."
    )


def test_the_pass_that_ends_the_active_phase_says_the_discard_comes_first():
    d = duel(A_HEAD)
    d.do(0, Play("quick-recall"))
    d.do(1, Pass())
    d.do(0, Pass())  # Quick Recall resolves: 7 cards
    assert pass_meaning(d.state, 0) == "Pass: end your Active phase"
    assert said(d, 0, Pass()) == "Ada passes: the Active phase ends, and Ada discards down to six."
    d.do(0, Pass())
    d.do(0, Discard(("mind-spike",)))
    assert pass_meaning(d.state, 1) == "Pass: Ada's turn ends"
    assert said(d, 1, Pass()) == "Bo passes: Ada's turn ends."
