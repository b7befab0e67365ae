"""The replay viewer's screen and its place in the app (pure): what its tree holds at every
move (the public view only, until "show everything"), its controls, the sentences a bad link
or file gets, the file it saves, and "Share this game" at the end of pass-and-play and online
games."""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace

import pytest

from parlour.errors import MalformedInput
from parlour.games import GAMES
from parlour.games.psi_squad.state import CYPHER_LABEL
from parlour.match.replay import CUT_SHORT, NOT_OURS_FILE, TOO_LARGE, from_code, from_file
from parlour.match.viewer import TOO_MANY_MOVES, Replay
from parlour.ui.app import App
from parlour.ui.play import PlaySession
from parlour.ui.psi_squad.tables import HISTORY_ROWS
from parlour.ui.replays.app import Watching
from parlour.ui.replays.screen import replay_tree
from parlour.ui.screens import screen_for
from parlour.ui.tree import Node, to_html
from parlour.ui.widgets import LOG_ROWS, earlier_words
from tests.replays import IDS, SETUPS, endless, finished, index_of
from tests.test_online import device, over, play, start

SITE = "https://parlour.example/"


def watching(setup: int, openings: bool = True) -> Watching:
    _, record = finished(setup)
    if not openings:
        record = replace(record, openings=dict.fromkeys(record.openings))
    return Watching(record.code(), record)


def drawn(w: Watching) -> Node:
    return replay_tree(w.replay, w.screen, w.said, SITE + "#replay=(the link)")


def without(tree: Node, *classes: str) -> str:
    """The tree's HTML without the sections of `classes` (the verdict and the switch, which
    rightly differ when the openings differ)."""

    def keep(node: Node | str) -> Node | str:
        if isinstance(node, str):
            return node
        kids = [
            keep(c)
            for c in node.children
            if isinstance(c, str) or not set(c.attrs.get("class", "").split()) & set(classes)
        ]
        return Node(node.tag, dict(node.attrs), kids, node.svg)

    return to_html(keep(tree))


@pytest.mark.parametrize("setup", range(len(SETUPS)), ids=IDS)
def test_no_opening_reaches_the_tree_before_show_everything(setup):
    """At every move the tree is the same whether the record holds the openings or not: it is
    drawn from the public view only. With the switch on, the openings show."""
    full, bare = watching(setup), watching(setup, openings=False)
    for position in range(full.replay.last + 1):
        full.replay.go(position)
        bare.replay.go(position)
        parts = ("replay-verdict", "replay-hidden")
        assert without(drawn(full), *parts) == without(drawn(bare), *parts), position
    assert full.replay.show_everything(True) and bare.replay.show_everything(True)
    differ = []
    for position in range(full.replay.last + 1):
        full.replay.go(position)
        bare.replay.go(position)
        shown, hidden = (without(drawn(w), "replay-verdict") for w in (full, bare))
        differ.append(shown != hidden)
    assert any(differ), "the switch shows nothing"


def test_a_cypher_never_guessed_is_nowhere_until_the_switch():
    table, _ = finished(index_of("psi-squad"))
    w = watching(index_of("psi-squad"))
    never = [s for s, guessed in enumerate(table.state.guessed) if not guessed]
    assert never
    secrets = [table.stores[s].value(CYPHER_LABEL) for s in never]
    for position in range(w.replay.last + 1):
        w.replay.go(position)
        html = without(drawn(w), "never")
        assert not any(f">{c}<" in html for c in secrets), position
    w.replay.show_everything(True)
    final = drawn(w).find_all(data_role="final")[0]
    assert all(c in final.text() for c in secrets)


def test_esp_tiles_symbol_down_open_on_the_board_only_with_the_switch():
    w = watching(index_of("esp"))
    w.replay.end()
    counts = []
    for position in range(w.replay.last + 1):
        w.replay.go(position)
        w.replay.show_everything(False)
        assert "revealed" not in to_html(drawn(w))
        w.replay.show_everything(True)
        down = sum(1 for t in w.replay.now().state.board.values() if not t.up)
        counts.append(down)
        assert to_html(drawn(w)).count("mark revealed") == down, position
    assert max(counts) > 0, "the game never had a tile symbol-down"


def test_the_controls_say_where_the_viewer_is():
    w = watching(index_of("psi-squad"))
    tree = drawn(w)
    assert tree.find_all(data_cmd="first")[0].attrs.get("disabled") == ""
    assert tree.find_all(data_cmd="next")[0].attrs.get("disabled") is None
    (slider,) = tree.find_all(data_cmd="seek")
    assert slider.attrs["max"] == str(w.replay.last) and slider.attrs["value"] == "0"
    assert "The start of the game" in tree.find_all(data_role="said")[0].text()
    assert tree.find_all(data_role="ending") == []  # no spoiler before the end
    (switch,) = tree.find_all(data_cmd="everything")
    assert switch.attrs["disabled"] == "" and switch.attrs["aria-checked"] == "false"
    w.replay.end()
    tree = drawn(w)
    assert tree.find_all(data_cmd="last")[0].attrs.get("disabled") == ""
    assert tree.find_all(data_role="ending")[0].text().endswith(("wins!", "win!", "draw"))
    assert "disabled" not in tree.find_all(data_cmd="everything")[0].attrs
    assert tree.find_all(data_audit="verified")


def test_the_result_is_not_told_before_the_end_even_after_the_end_was_seen():
    """Issue 39: at the end, then back at move 4, the header read "Ada wins!"; now it tells
    the ending at the end only, or when "Show the result" is pressed."""
    w = watching(index_of("psi-squad"))
    w.replay.end()
    ending = drawn(w).find_all(data_role="ending")[0].text()
    w.replay.go(4)
    tree = drawn(w)
    assert tree.find_all(data_role="ending") == [] and ending not in to_html(tree)
    (button,) = tree.find_all(data_cmd="show-result")
    assert button.tag == "button" and button.text() == "Show the result"
    w.replay.show_result()
    assert drawn(w).find_all(data_role="ending")[0].text() == ending
    assert drawn(w).find_all(data_cmd="show-result") == []


# -- in the app ---------------------------------------------------------------------------------


def call(app: App, **request: object) -> dict:
    out = json.loads(app.call(json.dumps(request)))
    assert "error" not in out, out.get("error")
    return out


def html_of(out: dict) -> str:
    return dict(out["render"])["#replay .replay-root"]


def test_a_replay_link_opens_the_viewer_and_keys_step_through_it():
    _, record = finished(index_of("psi-squad"))
    app = App()
    code = record.code()
    out = call(app, op="route", hash="#replay=" + code, href=SITE + "#replay=" + code)
    assert 'data-position="0"' in html_of(out)
    assert f'data-copy="{SITE}#replay={code}"' in html_of(out)
    out = call(app, op="key", region="replay", key="ArrowRight")
    assert 'data-position="1"' in html_of(out)
    out = call(app, op="key", region="replay", key="End")
    last = app.replays().watching.replay.last
    assert f'data-position="{last}"' in html_of(out)
    out = call(app, op="click", region="replay", data={"cmd": "seek", "fields": {"position": "2"}})
    assert 'data-position="2"' in html_of(out)
    out = call(app, op="route", hash="#replay=" + code, href=SITE)  # the same link: kept
    assert 'data-position="2"' in html_of(out)


def test_a_replay_link_opens_at_the_move_it_names_and_copies_where_the_viewer_stands():
    """Issue 28, point 9: `&move=N` opens the replay at move N; past the end, the end; not a
    number, the start; "Copy link" gives the link to the move on screen."""
    _, record = finished(index_of("psi-squad"))
    code = record.code()
    app = App()
    out = call(app, op="route", hash=f"#replay={code}&move=3", href=SITE)
    assert 'data-position="3"' in html_of(out)
    assert f'data-copy="{SITE}#replay={code}&amp;move=3"' in html_of(out)
    out = call(app, op="key", region="replay", key="ArrowRight")
    assert f'data-copy="{SITE}#replay={code}&amp;move=4"' in html_of(out)
    last = app.replays().watching.replay.last
    out = call(app, op="route", hash=f"#replay={code}&move=9999", href=SITE)
    assert f'data-position="{last}"' in html_of(out)
    for odd in ("x", "-2", ""):
        out = call(App(), op="route", hash=f"#replay={code}&move={odd}", href=SITE)
        assert 'data-position="0"' in html_of(out)
        assert f'data-copy="{SITE}#replay={code}"' in html_of(out)


def test_a_link_to_a_move_opens_without_the_result():
    """Issue 39: after the end was seen, a link to move 4 (or pressing "Show the result",
    then following such a link) opens at move 4 with no result in the page."""
    _, record = finished(index_of("psi-squad"))
    code = record.code()
    app = App()
    out = call(app, op="route", hash=f"#replay={code}&move=9999", href=SITE)
    ending = app.replays().watching.replay.match.result()
    assert 'data-role="ending"' in html_of(out) and ending is not None
    call(app, op="click", region="replay", data={"cmd": "previous"})
    out = call(app, op="click", region="replay", data={"cmd": "show-result"})
    assert 'data-role="ending"' in html_of(out)
    out = call(app, op="route", hash=f"#replay={code}&move=4", href=SITE)
    assert 'data-position="4"' in html_of(out)
    assert 'data-role="ending"' not in html_of(out) and "wins!" not in html_of(out)
    assert 'data-cmd="show-result"' in html_of(out)


def test_autoplay_asks_for_its_next_tick_and_a_stale_tick_changes_nothing():
    _, record = finished(index_of("psi-squad"))
    app = App()
    call(app, op="route", hash="#replay=" + record.code(), href=SITE)
    out = call(app, op="click", region="replay", data={"cmd": "play", "play": "on"})
    ((pause, tick),) = out["later"]
    assert tick["op"] == "replay-tick" and pause > 0
    out = call(app, **tick)
    assert 'data-position="1"' in html_of(out) and out["later"]
    call(app, op="click", region="replay", data={"cmd": "next"})  # a click stops autoplay
    out = call(app, **tick)
    assert "render" not in out and app.replays().watching.replay.position == 2
    out = call(app, op="click", region="replay", data={"cmd": "play", "play": "on"})
    ((_, tick),) = out["later"]
    call(app, op="route", hash="#home", href=SITE)  # leaving the replay stops it
    assert "render" not in call(app, **tick)


def test_a_damaged_link_or_file_is_refused_in_a_sentence():
    _, record = finished(index_of("psi-squad"))
    app = App()
    out = call(app, op="route", hash="#replay=" + record.code()[:40], href=SITE)
    assert CUT_SHORT in html_of(out) and "Traceback" not in html_of(out)
    out = call(app, op="replay-file", text='{"not": "ours"}', size=15)
    assert NOT_OURS_FILE in html_of(out)
    out = call(app, op="replay-file", text=None, size=10**9)
    assert TOO_LARGE.format(what="game file") in html_of(out)
    out = call(app, op="route", hash="#replay", href=SITE)
    assert 'data-replay-file=""' in html_of(out) and NOT_OURS_FILE not in html_of(out)


def test_a_game_file_is_saved_and_opens_as_its_link():
    _, record = finished(index_of("espeers"))
    app = App()
    call(app, op="route", hash="#replay=" + record.code(), href=SITE)
    out = call(app, op="click", region="replay", data={"cmd": "download"})
    ((name, text),) = out["download"]
    assert name == f"psi-parlour-espeers-{record.config.match_id}.json"
    assert from_file(text) == record
    out = call(app, op="replay-file", text=text, size=len(text))
    assert out["go"] == "#replay=" + record.code()


def test_a_pasted_link_opens_through_the_address():
    _, record = finished(index_of("psi-squad"))
    app = App()
    call(app, op="route", hash="#replay", href=SITE)
    link = record.link(SITE)
    data = {"cmd": "open-link", "fields": {"replay-link": f"  {link[:50]}\n{link[50:]} "}}
    out = call(app, op="click", region="replay", data=data)
    assert out["go"] == "#replay=" + record.code()


# -- Share this game ----------------------------------------------------------------------------


def finished_session(setup: int) -> PlaySession:
    table, _ = finished(setup, index=1)
    return PlaySession(table, screen_for(table.game.id), site=SITE + "?embed=1#play-esp")


def test_the_result_of_a_game_offers_its_link_and_its_file():
    session = finished_session(2)
    assert session.result_open and not session.render().find_all(data_role="share")
    session.handle({"cmd": "share"})
    tree = session.render()
    (box,) = tree.find_all(data_role="share-link")
    link = box.attrs["value"]
    assert link.startswith(SITE + "#replay=1.")
    record = from_code(link)
    assert record == session.replay_record()
    assert Replay.open(record).verdict == session.audit_result
    name, text = session.game_file()
    assert from_file(text) == record and name.endswith(".json")
    session.handle({"cmd": "share"})
    assert not session.render().find_all(data_role="share")


ONLINE = [
    ("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, (0,)),
    ("telepathic", ("Ada", "Bo"), {"arrangement": "pair"}, (1,)),
    ("espeers", ("Ada", "Bo"), {}, (0,)),
]


@pytest.mark.parametrize(
    ("game_id", "names", "variant", "local"), ONLINE, ids=[g[0] for g in ONLINE]
)
def test_an_online_game_is_shared_from_any_device_with_what_it_received(
    game_id, names, variant, local
):
    net = start(game_id, names, variant, local)
    play(net, seed=b"share-" + game_id.encode())
    assert over(net)
    records = set()
    for seat in range(len(names)):
        dev = device(net, seat)
        session = PlaySession(dev.table, screen_for(game_id), dev, SITE)
        record = session.replay_record()
        assert all(record.openings[s] is not None for s in range(len(names)))
        replay = Replay.open(from_code(record.code()))
        assert replay.verdict == dev.audit_result
        records.add(json.dumps(record.to_json(), sort_keys=True))
    assert len(records) == 1, "every device shares the same game"


def test_espeers_hands_and_the_card_under_a_barrier_show_with_the_switch():
    from tests.ui.test_espeers_screen import click_card, session, take

    s = session()  # stacked decks: Ada lays Mind Spike as a barrier, Bo guesses wrong
    click_card(s, "mind-spike")
    s.handle({"cmd": "barrier"})
    take(s, 1)
    s.handle({"cmd": "predict", "symbol": "circle"})
    record = s.replay_record()  # a game not over yet still replays
    w = Watching(record.code(), record)
    w.replay.end()
    assert "under the barrier" not in drawn(w).text() and not drawn(w).find_all(data_role="final")
    w.replay.show_everything(True)
    (final,) = drawn(w).find_all(data_role="final")
    assert "under the barrier: Mind Spike" in final.text()
    w.replay.first()
    assert "under the barrier" not in drawn(w).text()  # not laid yet at the start
    html = to_html(drawn(w))
    assert 'aria-label="Ada (player)"' in html and "opponent" not in html  # a spectator's


# -- the longest replay a link may hold (issue 25) ------------------------------------------------


def psi_most() -> int:
    """The most moves a Psi Squad replay may hold: ten times the longest real game."""
    most = GAMES["psi-squad"].options.max_moves  # type: ignore[union-attr]
    assert isinstance(most, int)
    return most


def rows(html: str) -> tuple[int, int]:
    """The log's rows and the guesses table's rows in the viewer's HTML."""
    log = re.search(r'<ol data-role="log"[^>]*>(.*?)</ol>', html)
    return (log.group(1).count("<li>") if log else 0), html.count("<tr data-step=")


def test_the_longest_replay_accepted_answers_each_step_with_a_window_of_rows():
    """A forged Psi Squad link as long as a game may be (its `max_moves`, ten times the longest
    real game) opens, and Last, one step back and First each answer with at most `LOG_ROWS`
    log rows and `HISTORY_ROWS` guesses, saying how many earlier ones are left out: before,
    a 20,000-move link drew every row (3.7 MB of HTML, 1.9 s a redraw under CPython)."""
    most = psi_most()
    code = endless(most).code()
    app = App()
    call(app, op="route", hash="#replay=" + code, href=SITE + "#replay=" + code)
    watching = app.replays().watching
    assert watching is not None and watching.replay.last > 2 * HISTORY_ROWS
    guesses = (most - 2) // 2  # two seals, then a guess and its answer each
    for key, back in (("End", 0), ("ArrowLeft", 1), ("Home", None)):
        started = time.perf_counter()
        html = html_of(call(app, op="key", region="replay", key=key))
        took = time.perf_counter() - started
        assert took < 1.0, f"{key}: {took:.2f} s"  # 0.02 s here; generous for a busy machine
        assert len(html) < 60_000, f"{key}: {len(html):,} characters"
        if back is None:
            assert rows(html) == (0, 0) and 'data-position="0"' in html
            continue
        assert rows(html) == (LOG_ROWS, HISTORY_ROWS)
        told = len([line for line in watching.said[: watching.replay.step] if line])
        assert earlier_words(told - LOG_ROWS, "move", "moves") in html
        assert earlier_words(guesses - back - HISTORY_ROWS, "guess", "guesses") in html


def test_a_replay_longer_than_any_real_game_is_refused_in_a_sentence():
    too_long = endless(psi_most() + 1)
    sentence = TOO_MANY_MOVES.format(game="Psi Squad")
    assert sentence == (
        "This replay has more moves than any real game of Psi Squad could: it was not made by "
        "this site."
    )
    with pytest.raises(MalformedInput) as refused:
        Replay.open(too_long)
    assert refused.value.sentence == sentence
    app = App()
    code = too_long.code()
    out = call(app, op="route", hash="#replay=" + code, href=SITE + "#replay=" + code)
    assert sentence in html_of(out) and app.replays().watching is None


def test_every_game_bounds_its_moves_well_above_its_real_games():
    """The bound is data beside each game; the finished games here are far under it."""
    for game in GAMES.values():
        assert game.options is not None and isinstance(game.options.max_moves, int), game.id
    for setup in range(len(SETUPS)):
        table, _ = finished(setup)
        most = table.game.options.max_moves
        assert table.match.step * 5 < most, (table.game.id, table.match.step)


def test_the_verdict_says_what_the_check_proves_and_what_it_cannot():
    """A forged record of a game never played still replays and checks: "verified" is true of
    the record, and the sentence beside it says that much only."""
    w = Watching("forged", endless(40))
    (section,) = drawn(w).find_all(aria_label="Fair-play check")
    words = section.text()
    assert "Fair-play check: verified." in words
    assert "follows the rules" in words and "matches its seal" in words
    assert "cannot prove who played, that the game took place" in words
    assert "nobody saw another player's secrets" in words


def test_a_game_by_link_ended_by_a_claim_of_time_is_told_in_words():
    """A time-out entry (play by link's claim) is no game action: the log and a replay tell it
    as the end it is, and the last move marked is the one before it."""
    from parlour.ui.screens import screen_for
    from parlour.ui.widgets import describe_entry, newest_told
    from tests.test_by_link import pen, settled

    group = settled(hours=1)
    staller = group.holder(pen(group))
    waiter = group.devices[1 - group.devices.index(staller)]
    assert waiter.claim(3600 * 2).ok
    match, screen = waiter.match, screen_for("esp")
    told = describe_entry(screen, match, match.entries[-1])
    assert told == match.result().reason
    last = newest_told(match, screen)
    assert last is not None and last.seq == match.step - 1
