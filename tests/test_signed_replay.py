"""An online game's replay carries its signatures (issue 26, stage 5): the viewer says which
device made which move, names the move whose signature fails, and old unsigned links open."""

from __future__ import annotations

import dataclasses
import re

import pytest

from parlour.match.replay import ReplayRecord, file_text, from_code, from_file
from parlour.match.signature_check import CAVEAT, UNCHECKED, UNSIGNED
from parlour.match.viewer import Replay
from tests.signers import crypto, verify
from tests.test_online import play, start


def signed_record(game_id: str = "esp", names=("Ada", "Bo")) -> ReplayRecord:
    """A whole signed online game as the host's device shares it."""
    net = start(game_id, names, match_id=f"m-signed-replay-{game_id}", signed=crypto)
    play(net, seed=b"replay")
    host = net.host
    assert host.table.match.result() is not None
    signed = host.replay_signatures()
    assert signed is not None
    record = ReplayRecord.of(host.table.match, host.openings, signed)
    report = Replay.open(record, check=verify).signatures
    assert report is not None and str(host.table_code()) in report.sentences[0]
    return ReplayRecord.of(host.table.match, host.openings, signed)


@pytest.mark.parametrize("game_id", ["esp", "psi-squad"])
def test_a_signed_replay_round_trips_and_says_which_device_made_which_move(game_id):
    record = signed_record(game_id)
    code = record.code()
    assert code.startswith("3.")
    again = from_code(code)
    assert again == record and from_file(file_text(record)) == record
    report = Replay.open(again, check=verify).signatures
    assert report is not None and report.state == "signed"
    said = " ".join(report.sentences)
    assert "the host's device" in said and "Bo's device" in said and CAVEAT in said
    assert "Table code" in said


def test_a_tampered_signature_is_named_by_its_move():
    record = signed_record()
    assert record.signed is not None
    proofs = list(record.signed.proofs)
    bo = next(i for i, p in enumerate(proofs) if p.device == "seat-1")
    bad = bytes([proofs[bo].signature[0] ^ 1]) + proofs[bo].signature[1:]
    proofs[bo] = dataclasses.replace(proofs[bo], signature=bad)
    forged = dataclasses.replace(
        record, signed=dataclasses.replace(record.signed, proofs=tuple(proofs))
    )
    report = Replay.open(from_code(forged.code()), check=verify).signatures
    assert report is not None and report.state == "failed"
    assert report.sentences[0].startswith(f"Move {bo + 1} (Bo's) does not carry a valid")


def test_a_move_said_to_be_signed_by_another_seat_s_device_fails():
    record = signed_record()
    assert record.signed is not None
    proofs = list(record.signed.proofs)
    host_move = next(i for i, p in enumerate(proofs) if p.device == "host")
    proofs[host_move] = dataclasses.replace(proofs[host_move], device="seat-1")
    forged = dataclasses.replace(
        record, signed=dataclasses.replace(record.signed, proofs=tuple(proofs))
    )
    report = Replay.open(forged, check=verify).signatures
    assert report is not None and report.state == "failed"
    assert report.sentences[0].startswith(f"Move {host_move + 1} ")


def test_a_browser_that_cannot_check_says_so_and_blames_no_one():
    report = Replay.open(signed_record()).signatures
    assert report is not None and report.state == "unchecked"
    assert report.sentences == (UNCHECKED,)


def test_an_unsigned_replay_is_still_version_1_and_an_old_link_opens():
    record = dataclasses.replace(signed_record(), signed=None)
    code = record.code()
    assert code.startswith("1.") and record.to_json()["version"] == 1
    assert "signed" not in record.to_json()
    report = Replay.open(from_code(code), check=verify).signatures
    assert report is not None and report.sentences == (UNSIGNED,)


def test_the_app_has_the_page_check_a_replay_s_signatures_before_the_call_that_opens_it():
    import json

    from parlour.ui.app import App

    record = signed_record()
    app = App()
    app.call(json.dumps({"op": "start", "local": {}, "session": {}}))
    route = json.dumps({"op": "route", "hash": "#replay=" + record.code()})
    assert (
        len(app.signature_checks(route)) == len(record.moves) + 2 + 2
    )  # and both seats' openings, both verdicts

    class Checked:  # the page's keyring answers from what WebCrypto checked first
        checked_signature = staticmethod(verify)

    app.keyring = Checked()  # type: ignore[assignment]
    app.call(route)
    watching = app.replays().watching
    assert watching is not None and watching.replay.signatures is not None
    assert watching.replay.signatures.state == "signed"


def test_the_viewer_sets_codes_whole_and_the_caveat_apart_from_the_devices():
    """The table code and each key's fingerprint are set as the table code is everywhere (never
    broken at their hyphen on a phone), and what a signature cannot prove is its own sentence,
    not one more device in the list."""
    from parlour.ui.replays.screen import _signatures
    from parlour.ui.tree import to_html

    replay = Replay.open(signed_record(), check=verify)
    report = replay.signatures
    assert report is not None and report.state == "signed"
    html = to_html(_signatures(replay))
    codes = re.findall(r'<strong class="code">([0-9A-Z]{4}-[0-9A-Z]{4})</strong>', html)
    assert len(codes) == 1 + len(replay.record.signed.keys)  # the table code, then each key's
    assert codes[0] in report.sentences[0]
    assert html.count("<li>") == len(report.sentences) - 2  # one line per device
    assert f'data-role="signature-scope">{CAVEAT}</p>' in html


def test_a_signed_replay_carries_the_openings_and_verdicts_signatures_and_a_tampered_one_fails():
    """Each seat's openings and each device's verdict carry their signatures in the replay too:
    the viewer checks them (the openings against what the replay opens, the verdicts against the
    final position it recomputes), and a replay whose opening or verdict was changed after the
    game is named as changed."""
    record = signed_record()
    assert record.signed is not None
    assert [p.seat for p in record.signed.openings] == [0, 1]
    assert {p.verdict for p in record.signed.verdicts} == {"verified"}
    again = from_code(record.code())
    assert again == record
    said = " ".join(Replay.open(again, check=verify).signatures.sentences)
    assert "The secrets opened at the end carry the signature" in said
    assert "Each device signed its verdict on this whole game" in said
    bo = list(record.openings[1])
    bo[0] = dataclasses.replace(
        bo[0], nonce=("0" if bo[0].nonce[0] != "0" else "1") + bo[0].nonce[1:]
    )
    changed = dataclasses.replace(record, openings={**record.openings, 1: tuple(bo)})
    report = Replay.open(from_code(changed.code()), check=verify).signatures
    assert report.state == "failed", report
    assert report.sentences[0].startswith("Bo's openings do not carry a valid signature")
    said = dataclasses.replace(record.signed.verdicts[0], text="Everything was fine, trust me.")
    lied = dataclasses.replace(
        record,
        signed=dataclasses.replace(record.signed, verdicts=(said, *record.signed.verdicts[1:])),
    )
    report = Replay.open(from_code(lied.code()), check=verify).signatures
    assert report.state == "failed" and "The verdict of" in report.sentences[0], report


def test_a_signed_link_too_long_for_a_messenger_is_not_offered_and_the_game_file_is():
    """64 bytes of signature per move cannot be packed smaller: a signed ESP game's link is
    about 21 KB, past what messengers carry (about 8 KB). The replay page and the share box
    say so and offer the game file instead of the link; a short signed game keeps its link."""
    from parlour.match.replay import MESSENGER_LINK, too_long_to_send
    from parlour.ui.app import App
    from parlour.ui.play import _share_link
    from parlour.ui.tree import to_html
    from tests.ui.test_replay_screen import SITE, call, html_of

    long, short = signed_record("esp"), signed_record("psi-squad")
    assert len(long.link(SITE)) > MESSENGER_LINK >= len(short.link(SITE))
    for record, fits in ((long, False), (short, True)):
        code = record.code()
        html = html_of(call(App(), op="route", hash="#replay=" + code, href=SITE))
        assert ("Copy link" in html) is fits
        assert ('data-role="long-link"' in html) is not fits
        assert "Download the game file" in html
        share = to_html(_share_link(record.link(SITE)))
        assert ('data-role="share-link"' in share) is fits
    sentence = too_long_to_send(long.link(SITE))
    assert sentence is not None and "Send the game file instead" in sentence


def test_a_signed_replay_of_format_2_still_opens_and_is_checked():
    """Format 2 wrote each move's proof out whole (device, number, step, signature) and signed
    neither openings nor verdicts: its links and files still open, signed."""
    import json

    from parlour.fair.signing import b64

    record = signed_record()
    document = record.to_json()
    document["version"] = 2
    document["signed"] = {
        "keys": document["signed"]["keys"],
        "proofs": [[p.device, p.seq, p.after, b64(p.signature)] for p in record.signed.proofs],
    }
    old = from_file(json.dumps(document))
    assert old.moves == record.moves and old.signed.proofs == record.signed.proofs
    assert old.signed.openings == () and old.signed.verdicts == ()
    assert Replay.open(old, check=verify).signatures.state == "signed"
