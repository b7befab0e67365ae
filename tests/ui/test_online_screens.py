"""Online play on screen, in CPython: the lobby, the guest's join screen, and a play session whose
moves travel through an online session (the in-memory transport stands in for the network)."""

from __future__ import annotations

from parlour.games import GAMES
from parlour.match.config import MatchConfig
from parlour.match.online import HOST, OnlineSession, seat_peer
from parlour.net.memory import MemoryNet
from parlour.ui.online.invites import host_lobby, online_banner
from parlour.ui.online.join import guest_join
from parlour.ui.online.screen import Invite, online_bar
from parlour.ui.play import PlaySession
from parlour.ui.psi_squad.screen import PsiScreen
from parlour.ui.tree import to_html


def lobby_session() -> OnlineSession:
    config = MatchConfig("psi-squad", "m-online-ui-01", ("Ada", "Bo", "Cy <b>"), {"length": 3})
    return OnlineSession.host(GAMES["psi-squad"], config, (0,), 0.0)


def test_the_lobby_has_an_invite_with_qr_link_and_answer_box_per_remote_seat():
    session = lobby_session()
    invites = {
        1: Invite(1, "waiting", "https://x.example/#join=AAAA", "https://x.example/#join=bc.room"),
        2: Invite(2, "making"),
    }
    tree = host_lobby(session, invites)
    html = to_html(tree)
    assert "Invite your players to Psi Squad" in html and "You play Ada on this device" in html
    (bo,) = [n for n in tree.find_all(data_seat="1") if n.tag == "article"]
    assert bo.find_all(data_role="invite-1")[0].attrs["value"] == "https://x.example/#join=AAAA"
    assert bo.find_all(aria_label="QR code of Bo's invite") and bo.find_all(data_field="answer-1")
    (cy,) = [n for n in tree.find_all(data_seat="2") if n.tag == "article"]
    assert "Making the invite" in cy.text()
    assert "Cy &lt;b&gt;" in html and "<b>" not in html  # a name is text, never markup
    assert "Waiting for Bo and Cy <b> to join." in tree.find_all(data_role="lobby-line")[0].text()


def test_the_join_screen_asks_for_a_good_invite_or_shows_the_answer_to_send():
    bad = guest_join(
        None, "", "failed", "That code has a typo or is cut short: copy it again, all of it."
    )
    assert bad.find_all(data_field="invite") and "typo" in bad.text()
    good = guest_join(OnlineSession.guest(0.0), "ANSWERCODE", "waiting", "")
    assert good.find_all(data_role="answer")[0].attrs["value"] == "ANSWERCODE"
    assert "The host has not connected yet." in good.text()


def game_over_the_network():
    config = MatchConfig("psi-squad", "m-online-ui-02", ("Ada", "Bo"), {"length": 3})
    host = OnlineSession.host(GAMES["psi-squad"], config, (0,), 0.0)
    net = MemoryNet(host)
    net.connect(1, OnlineSession.guest(0.0))
    return (
        net,
        PlaySession(host.table, PsiScreen(), host),
        PlaySession(net.guests[1].table, PsiScreen(), net.guests[1]),
    )


def type_cypher(session: PlaySession, digits: str, cmd: str) -> None:
    for d in digits:
        session.handle({"cmd": "digit", "digit": d})
    session.handle({"cmd": cmd})


def test_a_device_with_one_seat_never_hands_off_and_follows_the_other_device():
    net, ada, bo = game_over_the_network()
    assert ada.viewer == 0 and bo.viewer == 1  # no hand-off screen online with one seat each
    assert not ada.render().find_all(data_role="handoff")
    type_cypher(bo, "222", "seal-cypher")
    assert bo.message == "Your move is on its way to the host…"
    net.flush()
    bo.refresh()
    ada.refresh()
    assert "Bo chooses a cypher and seals it." in ada.message
    assert "222" in to_html(bo.render()) and "222" not in to_html(ada.render())
    type_cypher(ada, "111", "seal-cypher")
    net.flush()
    bo.refresh()
    html = to_html(ada.render())
    assert "Online" in html and "Undo" not in html
    bar = online_bar(net.host)
    assert "connected" in bar.text() and "on this device" in bar.text()


def play_to_the_end(net, ada: PlaySession, bo: PlaySession) -> None:
    """Both seal, then each guesses the other's cypher until the game is over."""
    type_cypher(bo, "222", "seal-cypher")
    type_cypher(ada, "111", "seal-cypher")
    net.flush()
    for _ in range(4):
        for session, target, guess in ((ada, "1", "222"), (bo, "0", "111")):
            session.refresh()
            if session.to_act() is None or session.table.match.result():
                continue
            session.handle({"cmd": "target", "seat": target})
            type_cypher(session, guess, "guess")
            net.flush()
    ada.refresh()
    bo.refresh()


def test_an_online_game_ends_with_every_device_s_verdict():
    net, ada, bo = game_over_the_network()
    play_to_the_end(net, ada, bo)
    for session in (ada, bo):
        tree = session.render()
        (result,) = tree.find_all(data_role="result")
        assert result.find_all(data_audit="verified")
        verdicts = result.find_all(data_role="verdicts")[0].text()
        assert "Ada's device: verified" in verdicts and "Bo's device: verified" in verdicts
        assert not result.find_all(data_cmd="rematch")
    final = ada.render().find_all(data_role="final")[0].text()
    assert "222" in final and "111" in final  # Bo's cypher, opened by his device at the end


def title(tree) -> str:
    return next(n for n in tree.walk() if getattr(n, "tag", "") == "h2").text()


def test_the_join_screen_names_the_game_and_offers_a_deck_only_for_espeers():
    decks = [("starter:onslaught", "Onslaught (starter)"), ("starter:mindwall", "Mindwall")]
    guest = OnlineSession.guest(0.0)
    esp = guest_join(guest, "ANSWER", "waiting", "", decks=decks, game="esp")
    assert title(esp) == "Joining a game of ESP"
    assert not esp.find_all(data_field="espeers-deck")
    duel = guest_join(guest, "ANSWER", "waiting", "", decks=decks, game="espeers")
    assert title(duel) == "Joining a game of ESPEERS"
    (choice,) = duel.find_all(data_field="espeers-deck")
    assert "Your deck" in duel.text() and "If the game" not in duel.text()
    assert [o.attrs["value"] for o in choice.children] == ["starter:onslaught", "starter:mindwall"]
    # an invite without a game word (or with a made-up one) keeps the cautious wording
    for word in ("", "<b>chess</b>"):
        unsure = guest_join(guest, "ANSWER", "waiting", "", decks=decks, game=word)
        assert title(unsure) == "Joining a game"
        assert "If the game is ESPEERS" in unsure.text() and "chess" not in to_html(unsure)


def test_a_guest_that_lost_the_host_is_told_what_to_do():
    net, _ada, bo = game_over_the_network()
    guest = net.guests[1]
    assert not online_bar(guest).find_all(data_role="host-lost")
    guest.closed(HOST, 1.0)
    (line,) = online_bar(guest).find_all(data_role="host-lost")
    assert "ask Ada for a new invite and open it here" in line.text()
    assert "connection lost" in online_bar(guest).text()
    assert not online_bar(net.host).find_all(data_role="host-lost")  # the host has invite cards
    bo.refresh()
    assert bo.render().find_all(data_role="host-lost")  # shown above the game itself


def test_a_lost_seat_with_a_fresh_invite_out_is_reconnecting_in_the_bar_and_its_card():
    net, _ada, _bo = game_over_the_network()
    net.host.closed(seat_peer(1), 1.0)
    lost = {1: Invite(1, "connected", "https://x.example/#join=OLD")}
    assert online_bar(net.host, lost).find_all(data_seat="1")[0].find_all(data_state="lost")
    again = {1: Invite(1, "waiting", "https://x.example/#join=NEW")}
    bar = online_bar(net.host, again)
    assert bar.find_all(data_seat="1")[0].find_all(data_state="reconnecting")
    card = online_banner(net.host, again).find_all(aria_label="Invite for Bo")[0]
    assert card.find_all(data_state="reconnecting") and "takes them back" in card.text()


def test_a_failed_invite_says_why_and_offers_a_new_one_instead_of_making_forever():
    session = lobby_session()
    offer = Invite(1, "failed", error="This browser could not make an invite (is WebRTC off?).")
    answer = Invite(
        2, "failed", "https://x.example/#join=A", error="The connection could not be made."
    )
    tree = host_lobby(session, {1: offer, 2: answer})
    for seat, error in ((1, offer.error), (2, answer.error)):
        (card,) = [n for n in tree.find_all(data_seat=str(seat)) if n.tag == "article"]
        assert error in card.text() and "Making the invite" not in card.text()
        (button,) = card.find_all(data_cmd="new-invite")
        assert str(button.attrs["data-seat"]) == str(seat) and "Make a new invite" in button.text()
        text = card.text()  # why first, then what to do about it
        assert text.index(error) < text.index("Make a new invite")


def test_i_have_an_invite_asks_for_it_without_an_error_and_a_bad_one_says_why():
    ask = guest_join(None, "", "paste", "")
    assert ask.find_all(data_field="invite") and ask.find_all(data_cmd="use-invite")
    assert not ask.find_all(role="alert") and "Paste the invite the host sent you" in ask.text()
    decks = [("starter:onslaught", "Onslaught (starter)")]
    assert not guest_join(None, "", "paste", "", decks=decks).find_all(data_field="espeers-deck")
    bad = guest_join(None, "", "failed", "That code has a typo or is cut short.")
    (alert,) = bad.find_all(role="alert")
    assert alert.text() == "That code has a typo or is cut short." and bad.find_all(
        data_field="invite"
    )


def test_the_host_can_play_again_from_the_result_and_a_guest_is_told_who_can():
    net, ada, bo = game_over_the_network()
    play_to_the_end(net, ada, bo)
    (button,) = ada.render().find_all(data_cmd="play-again")
    assert "disabled" not in button.attrs and button.text() == "Play again"
    (line,) = bo.render().find_all(data_role="play-again-note")
    assert line.text() == "Ada can start another game with everyone here."
    assert not bo.render().find_all(data_cmd="play-again")
    net.host.closed(seat_peer(1), 9.0)
    ada.refresh()
    (button,) = ada.render().find_all(data_cmd="play-again")
    assert "disabled" in button.attrs
    assert (
        "Everyone must be connected" in ada.render().find_all(data_role="play-again-note")[0].text()
    )


def test_between_games_the_screen_says_the_next_one_is_being_set_up():
    from parlour.ui.online.screen import next_game_tree

    net, _ada, _bo = game_over_the_network()
    tree = next_game_tree(net.host)
    assert tree.find_all(data_role="next-game") and "Another game of Psi Squad" in tree.text()


def your_turn(session: PlaySession) -> bool:
    return any(getattr(n, "attrs", {}).get("class") == "your-turn" for n in session.render().walk())


def test_online_the_seat_to_act_sees_your_turn_and_the_other_does_not():
    net, ada, bo = game_over_the_network()
    for session in (ada, bo):
        session.refresh()
    assert your_turn(ada) and your_turn(bo)  # both seal their cyphers at once
    type_cypher(bo, "222", "seal-cypher")
    type_cypher(ada, "111", "seal-cypher")
    net.flush()
    ada.refresh()
    bo.refresh()
    first = min(net.host.game.to_move(net.host.table.state))
    for session in (ada, bo):
        assert your_turn(session) == (session.viewer == first)


def test_a_click_that_is_not_a_move_leaves_the_last_move_in_sight():
    net, ada, bo = game_over_the_network()
    type_cypher(bo, "222", "seal-cypher")
    type_cypher(ada, "111", "seal-cypher")
    net.flush()
    bo.refresh()
    last = bo.log_lines()[-1]
    assert last.endswith("chooses a cypher and seals it.")
    assert any(last in n.text() for n in bo.render().find_all(data_role="message"))
    bo.handle({"cmd": "target", "seat": "0"})  # choosing a target is no move
    assert any(last in n.text() for n in bo.render().find_all(data_role="message"))


def test_online_the_board_stays_this_seat_s_way_round_after_the_end():
    net, ada, bo = game_over_the_network()
    play_to_the_end(net, ada, bo)
    assert bo.table.match.result() is not None and bo.viewer == 1
    assert "222" in to_html(bo.render())  # Bo's own cypher still shown as his


def test_the_bar_shows_news_and_lets_it_go():
    from parlour.ui.online.screen import NOTICE_SECONDS, REFUSAL_SECONDS, bar_notice

    net, _ada, _bo = game_over_the_network()
    host = net.host
    net.tick(1.0)
    assert bar_notice(host) == "Everyone is here: the game begins."
    for _ in range(NOTICE_SECONDS):
        net.tick(1.0)
    assert bar_notice(host) == "" and not online_bar(host).find_all(data_role="notice")[0].text()
    host.receive(seat_peer(1), "{not json", net.now)
    assert bar_notice(host).startswith("Refused")
    for _ in range(NOTICE_SECONDS + 1):
        net.tick(1.0)
    assert bar_notice(host).startswith("Refused")  # a refusal stays longer
    for _ in range(REFUSAL_SECONDS):
        net.tick(1.0)
    assert bar_notice(host) == ""


def test_an_espeers_guest_chooses_the_deck_first_then_sends_the_answer():
    decks = [("starter:onslaught", "Onslaught (starter)"), ("starter:mindwall", "Mindwall")]
    tree = guest_join(
        OnlineSession.guest(0.0), "ANSWER", "waiting", "", decks=decks, game="espeers"
    )
    steps = [n.text() for n in tree.walk() if getattr(n, "tag", "") == "h4"]
    assert steps == [
        "1. Choose your deck",
        "2. Send this answer code back to the host",
        "3. Wait for the host to paste it",
    ]
    assert len(tree.find_all(data_field="espeers-deck")) == 1


def test_a_seed_forfeit_is_shown_as_a_result_with_play_again_on_the_host():
    from parlour.ui.online.screen import forfeit_tree
    from tests.test_online_attacks import esp_three_cy_withholds

    net = esp_three_cy_withholds("m-online-ui-veto")
    for _ in range(25):
        net.tick(1.0)
    host_view, guest_view = forfeit_tree(net.host), forfeit_tree(net.guests[1])
    for tree in (host_view, guest_view):
        (title,) = [n for n in tree.walk() if getattr(n, "tag", None) == "h2"]
        assert title.text() == "Ada and Bo win!"
        assert "Cy did not reveal their part of the seed in time" in tree.text()
    (button,) = host_view.find_all(data_cmd="play-again")
    assert not button.attrs.get("disabled")
    assert not guest_view.find_all(data_cmd="play-again")
    assert "can start another game" in guest_view.text()


def test_every_device_shows_one_table_code_and_a_guest_which_seats_the_host_plays():
    """Psi Squad with Ada and a bot on the host's device: every device's bar shows the same
    table code; Bo's says the host's device plays Ada and the bot and what that means, and
    marks both seats as on the host's device rather than connected; the host's bar does not."""
    from tests.signers import crypto
    from tests.test_online import start

    config_names = ("Ada", "Bo", "Cy (bot)")
    net = start("psi-squad", config_names, {"length": 3}, host_local=(0, 2), signed=crypto)
    bars = {dev.role: to_html(online_bar(dev)) for dev in net.everyone()}
    code = net.host.table_code()
    assert code is not None and all(f'data-code="{code}"' in bar for bar in bars.values())
    guest = bars["guest"]
    said = "Ada's device plays Ada and the bot Cy: whoever holds it could see the bot's cypher."
    assert said in guest
    assert guest.count('data-state="host"') == 2
    assert 'data-role="host-seats"' not in bars["host"]


def test_an_unsigned_game_shows_no_table_code():
    net = MemoryNet(
        OnlineSession.host(
            GAMES["esp"], MatchConfig("esp", "m-unsigned-bar", ("Ada", "Bo")), (0,), 0.0
        )
    )
    net.connect(1, OnlineSession.guest(0.0))
    assert "data-code" not in to_html(online_bar(net.host))
