"""A game played by link keeps its signatures in its replay (issue 39): every device's first
record (its key and seats) and the record each move came from; the viewer says which device
signed which moves, as for an online game, and refuses a replay changed after the game. The
online game's replay keeps its own too, from any device's screen."""

from __future__ import annotations

import dataclasses
import functools

import pytest

from parlour.errors import MalformedInput
from parlour.fair.rng import Rng
from parlour.fair.signing import Signed, b64
from parlour.match.by_link import LinkPlay
from parlour.match.replay import ReplayRecord, file_text, from_code, from_file
from parlour.match.signature_check import (
    CAVEAT,
    UNSIGNED,
    SignatureReport,
    _heads,
    _moves_words,
)
from parlour.match.viewer import Replay
from parlour.ui.by_link.seats import LinkSeats, LinkView
from parlour.ui.play import PlaySession
from parlour.ui.screens import screen_for
from tests.by_link_group import Group
from tests.signers import Ed25519Signer, crypto, verify
from tests.test_by_link import flush, pen, settled
from tests.test_online import play, start

SITE = "https://psi.example/"
NAMES = ("Ada", "Bo", "Cy")


@functools.cache
def group() -> Group:
    """A whole game of Psi Squad by link: Ada's device holds her seat and the bot's (Cy), Bo's
    device his; links delivered in an order the seed chooses, some twice, some dropped."""
    played = Group("psi-squad", NAMES, {"length": 3}, bots={2: "easy"})
    rng = Rng(b"link-replay")
    played.play(lambda n: rng.below(n), Rng(b"moves"))
    played.check_the_end()
    return played


def record_of(play: LinkPlay) -> ReplayRecord:
    signed = play.replay_signatures()
    assert play.match is not None and signed is not None
    return ReplayRecord.of(play.match, play.openings, signed)


def report_of(record: ReplayRecord) -> SignatureReport:
    report = Replay.open(record, check=verify).signatures
    assert report is not None
    return report


def failed(record: ReplayRecord) -> str:
    """The sentence the viewer names a changed replay with, read back from its link as anyone
    opening it would."""
    report = report_of(from_code(record.code()))
    assert report.state == "failed", report
    return report.sentences[0]


def test_a_whole_game_by_link_replays_signed_and_names_the_device_of_each_move():
    played = group()
    ada = played.devices[0]
    record = record_of(ada)
    code = record.code()
    assert code.startswith("5.") and record.to_json()["version"] == 5
    again = from_code(code)
    assert again == record and from_file(file_text(record)) == record
    # every device holds the same records, so every device's replay is of the same moves and
    # checks as signed (a record sent again goes under its sender's newest batch: two devices
    # may hold two valid proofs of it, docs/links.md "What a signature covers")
    for device in played.devices:
        theirs = record_of(device)
        assert theirs.moves == record.moves and theirs.openings == record.openings
        assert report_of(from_code(theirs.code())).state == "signed"
    report = report_of(again)
    assert report.state == "signed", report
    assert f"Table code {ada.table_code()} " in report.sentences[0]
    moves = ada.match.entries
    by_ada = [n for n, e in enumerate(moves, start=1) if e.seat in (0, 2)]  # hers and the bot's
    by_bo = [n for n, e in enumerate(moves, start=1) if e.seat == 1]
    assert by_ada and by_bo
    said = sorted(line.partition(" (")[0] for line in report.sentences[1:3])
    assert said == sorted(
        [
            f"{_moves_words(by_ada)} signed by Ada's device",
            f"{_moves_words(by_bo)} signed by Bo's device",
        ]
    )
    names = ", ".join(ada.match.config.seats[s] for s in (0, 2, 1))
    assert f"carry the signature of the device that held them ({names})." in report.sentences[3]
    assert report.sentences[-1] == CAVEAT


def test_a_browser_that_cannot_check_a_replay_by_link_blames_no_one():
    report = Replay.open(record_of(group().devices[1])).signatures
    assert report is not None and report.state == "unchecked"


def test_a_move_changed_after_the_game_is_named():
    record = record_of(group().devices[0])
    moves = list(record.moves)
    i, j = next(
        (i, j)
        for i in range(len(moves))
        for j in range(i + 1, len(moves))
        if moves[i][0] == moves[j][0] and moves[i][1] != moves[j][1]
    )
    moves[i] = moves[j]  # the same seat's later move, said to be made earlier
    changed = dataclasses.replace(record, moves=tuple(moves))
    name = record.config.seats[moves[i][0]]
    assert failed(changed).startswith(f"Move {i + 1} ({name}'s) does not carry a valid signature")


def test_a_player_who_re_signs_a_move_of_their_own_breaks_the_next_move_sealed_after_it():
    """Bo holds his own key, so he can sign another move of his in place of one he made; but
    every move names the log's head it was sealed on, so the next move sealed after his no
    longer holds, and is named."""
    played = group()
    bo = played.devices[1]
    record = record_of(played.devices[0])
    assert record.signed is not None
    proofs, moves = record.signed.proofs, list(record.moves)
    i, j = next(
        (i, j)
        for i in range(len(moves))
        for j in range(i + 1, len(moves))
        if moves[i][0] == moves[j][0] == 1 and moves[i][1] != moves[j][1]
    )
    moves[i] = moves[j]
    heads = _heads(record.config.match_id, record.genesis(), moves)
    mine = proofs[i]
    body = {"s": 1, "a": moves[i][1], "at": mine.after, "h": heads[mine.after][:16]}
    again = Signed("s1", mine.seq, "act", {**body, "t": mine.time})
    signature = bo.signer.sign(again.payload(record.config.match_id))
    assert signature is not None
    forged = swap_proof(dataclasses.replace(record, moves=tuple(moves)), i, signature)
    k = next(k for k in range(i + 1, len(moves)) if proofs[k].after > i)
    name = record.config.seats[moves[k][0]]
    assert failed(forged).startswith(f"Move {k + 1} ({name}'s) does not carry a valid signature")


def swap_proof(record: ReplayRecord, index: int, signature: bytes, **more: object):
    """The record with one move's signature (and any other field of its proof) changed."""
    assert record.signed is not None
    proofs = list(record.signed.proofs)
    proofs[index] = dataclasses.replace(proofs[index], signature=signature, **more)  # type: ignore[arg-type]
    return dataclasses.replace(
        record, signed=dataclasses.replace(record.signed, proofs=tuple(proofs))
    )


def bo_move(played: Group) -> tuple[int, Signed]:
    """The first of Bo's moves: its place in the log and the record it came from."""
    ada = played.devices[0]
    index = next(i for i, e in enumerate(ada.match.entries) if e.seat == 1)
    return index, ada.records[ada.sources[index]]


def test_a_signature_made_with_another_key_is_refused():
    played = group()
    record = record_of(played.devices[0])
    index, source = bo_move(played)
    eve = Ed25519Signer().sign(source.payload(record.config.match_id))
    said = failed(swap_proof(record, index, eve))
    assert said.startswith(f"Move {index + 1} (Bo's) does not carry a valid signature of Bo's")


def test_a_key_swapped_for_another_is_refused_at_that_device_s_first_move():
    """Eve puts her own key in Bo's join, signed with it: the join holds, but none of Bo's moves
    does under Eve's key (and the table code would not be the one the players compared)."""
    played = group()
    record = record_of(played.devices[0])
    assert record.signed is not None
    start_records = list(record.signed.start)
    k = next(i for i, r in enumerate(start_records) if r.device == "s1")
    eve = Ed25519Signer()
    join = Signed("s1", 1, "join", {**start_records[k].body, "k": ["Ed25519", b64(eve.public_key)]})
    join.signature = eve.sign(join.payload(record.config.match_id))
    start_records[k] = join
    swapped = dataclasses.replace(
        record, signed=dataclasses.replace(record.signed, start=tuple(start_records))
    )
    index, _ = bo_move(played)
    assert failed(swapped).startswith(f"Move {index + 1} (Bo's) does not carry a valid signature")


def test_an_invite_changed_after_the_game_is_named():
    """The creator's invite says which seats its device held and the time per move (part of
    the table code): changed without its signature, the replay says so before any move."""
    record = record_of(group().devices[0])
    assert record.signed is not None
    start_records = list(record.signed.start)
    k = next(i for i, r in enumerate(start_records) if r.kind == "open")
    invite = start_records[k]
    start_records[k] = dataclasses.replace(invite, body={**invite.body, "l": 3600})
    changed = dataclasses.replace(
        record, signed=dataclasses.replace(record.signed, start=tuple(start_records))
    )
    assert failed(changed).startswith("The seats and key of Ada's device do not carry a valid")


def test_a_record_bo_signed_for_another_match_is_refused():
    played = group()
    record = record_of(played.devices[0])
    index, source = bo_move(played)
    bo = played.devices[1]
    elsewhere = bo.signer.sign(source.payload("m-another-game"))
    assert elsewhere is not None
    said = failed(swap_proof(record, index, elsewhere))
    assert said.startswith(f"Move {index + 1} (Bo's) does not carry a valid signature")


def test_a_move_claimed_by_a_device_that_does_not_hold_its_seat_is_refused():
    """Bo signs, with his own key, the record of one of Ada's moves as if his device made it:
    the viewer checks each move against the device that holds its seat, never another."""
    played = group()
    ada, bo = played.devices[0], played.devices[1]
    record = record_of(ada)
    index = next(i for i, e in enumerate(ada.match.entries) if e.seat == 0)
    real = ada.records[ada.sources[index]]
    claimed = Signed("s1", bo._mine() + 1, real.kind, real.body)
    signature = bo.signer.sign(claimed.payload(record.config.match_id))
    assert signature is not None
    forged = swap_proof(record, index, signature, device="s1", seq=claimed.seq)
    report = report_of(forged)  # as the forger made it
    assert report.state == "failed"
    assert report.sentences[0].startswith(f"Move {index + 1} (Ada's) does not carry a valid")
    assert failed(forged).startswith(f"Move {index + 1} (Ada's) does not carry a valid")


@pytest.mark.parametrize("seat", [0, 2])
def test_a_join_that_claims_a_seat_another_device_holds_cannot_be_read(seat):
    """Bo re-signs his join for Ada's seat, or for the bot's: the first records no longer hold
    every seat once, with each device named after its seat, and the replay is refused."""
    played = group()
    record = record_of(played.devices[0])
    assert record.signed is not None
    bo = played.devices[1]
    start_records = list(record.signed.start)
    k = next(i for i, r in enumerate(start_records) if r.device == "s1")
    join = Signed("s1", 1, "join", {**start_records[k].body, "s": seat})
    join.signature = bo.signer.sign(join.payload(record.config.match_id))
    start_records[k] = join
    claimed = dataclasses.replace(
        record, signed=dataclasses.replace(record.signed, start=tuple(start_records))
    )
    with pytest.raises(MalformedInput, match="first entries are not one invite"):
        from_code(claimed.code())


def test_openings_changed_after_the_game_are_named():
    record = record_of(group().devices[0])
    bo = list(record.openings[1] or ())
    bo[0] = dataclasses.replace(
        bo[0], nonce=("0" if bo[0].nonce[0] != "0" else "1") + bo[0].nonce[1:]
    )
    changed = dataclasses.replace(record, openings={**record.openings, 1: tuple(bo)})
    assert failed(changed).startswith("Bo's openings do not carry a valid signature")


def test_a_game_ended_by_a_claim_of_time_replays_signed_with_the_claim_as_its_last_move():
    played = settled(hours=1)
    mover = pen(played)
    staller = played.holder(mover)
    waiter = played.devices[1 - played.devices.index(staller)]
    out = waiter.claim(3600 * 2)
    assert out.ok
    played.post(played.devices.index(waiter), out.links)
    played.now = 3600 * 2
    flush(played)
    played.resend()
    flush(played)
    played.check_the_end()
    record = record_of(staller)
    assert record.moves[-1] == (waiter.local[0], {"timeout": mover})
    report = report_of(from_code(record.code()))
    assert report.state == "signed", report
    claimant = waiter.match.config.seats[waiter.local[0]]
    last = f"{len(record.moves)} signed by {claimant}'s device"
    assert any(last in line for line in report.sentences), report


def test_a_game_by_link_not_over_yet_replays_signed_and_before_its_start_unsigned():
    played = settled(moves=3)
    record = record_of(played.devices[1])
    assert len(record.moves) == 3 and report_of(record).state == "signed"
    fresh = Group("esp", ("Ada", "Bo"), {})
    assert fresh.devices[0].replay_signatures() is None  # no table yet


class Clock:
    def clock(self) -> float:
        return 0.0

    def outcome(self, play, out) -> None:
        return None


def test_the_by_link_screen_s_replay_is_signed():
    """ "Watch the replay" and the replay link under a game by link carry its signatures."""
    ada = group().devices[0]
    table = ada.table
    assert table is not None
    view = LinkView(table, screen_for(table.game.id), LinkSeats(Clock(), ada), SITE)  # type: ignore[arg-type]
    record = view.replay_record()
    assert record == record_of(ada) and record.code().startswith("5.")
    report = report_of(record)
    assert report.state == "signed" and report.sentences != (UNSIGNED,)


@pytest.mark.parametrize("seat", [0, 1])
def test_an_online_game_s_replay_is_signed_from_the_host_s_screen_and_a_guest_s(seat):
    net = start("psi-squad", NAMES, {"length": 3}, match_id="m-online-replay", signed=crypto)
    play(net, seed=b"online-replay")
    device = net.host if seat == 0 else net.guests[seat]
    session = PlaySession(device.table, screen_for("psi-squad"), device, site=SITE)
    record = session.replay_record()
    assert record.code().startswith("3.")
    report = report_of(from_code(record.code()))
    assert report.state == "signed", report
    assert "the host's device" in " ".join(report.sentences)
    assert f"Table code {device.table_code()} " in report.sentences[0]


def test_the_page_checks_a_replay_by_link_s_signatures_before_the_call_that_opens_it():
    """The page checks with WebCrypto, before the call, every signature the viewer will ask
    about: each device's first record, each move's, each device's openings."""
    import json

    from parlour.ui.app import App

    record = record_of(group().devices[0])
    assert record.signed is not None
    app = App()
    app.call(json.dumps({"op": "start", "local": {}, "session": {}}))
    route = json.dumps({"op": "route", "hash": "#replay=" + record.code()})
    checks = app.signature_checks(route)
    assert len(checks) == len(record.signed.start) + len(record.moves) + 2  # two devices opened
    answers = {c: verify(*c) for c in checks}
    assert all(answers.values())

    class Checked:  # the page's keyring answers only what WebCrypto checked first
        @staticmethod
        def checked_signature(*wanted):
            return answers.get(wanted)

    app.keyring = Checked()  # type: ignore[assignment]
    app.call(route)
    watching = app.replays().watching
    assert watching is not None and watching.replay.signatures is not None
    assert watching.replay.signatures.state == "signed"
