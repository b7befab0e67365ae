"""Online play's beginnings, from the app: a host's new table (#host-<game>: the set-up form
read, the seats dealt, the invites made) and a guest's join (#join=: the invite read, or the
game this browser already plays)."""

from __future__ import annotations

from parlour.errors import MalformedInput, ParlourError
from parlour.games import GAMES
from parlour.match.config import MatchConfig
from parlour.match.online import OnlineSession
from parlour.match.online.device import Crypto
from parlour.match.table import new_match_id
from parlour.net.sdp import parse_invite, stun_servers
from parlour.ui.online import network
from parlour.ui.online.app import OnlineController, TheApp, replace_controller
from parlour.ui.online.saves import saved_game
from parlour.ui.screens import now
from parlour.ui.setup_form import SetUp


def host_new(app: TheApp, game_id: str, setup: SetUp) -> None:
    """The set-up form's "Make the invites": a new online game hosted here."""
    bots = setup.bots
    names = setup.bot_named()
    variant = dict(setup.variant)
    if setup.decks:
        variant["decks"] = app.chosen_decks(setup.decks)
    # a bot plays on the host's device, its secrets kept there like the host's own
    local = tuple(sorted(set(setup.here) | set(bots)))
    limit = setup.online_limit
    if not _remember_network(app, game_id, setup):
        return
    private = {}
    if game_id == "espeers":  # every player brings a deck the other does not see
        chosen = variant.get("decks", [])
        private = {seat: {"deck": chosen[seat]} for seat in local if seat < len(chosen)}
        variant["decks"] = ["sealed", "sealed"]
    levels = {str(seat): level for seat, level in bots.items()}
    config = MatchConfig(game_id, new_match_id(), names, variant, bots=levels)
    try:
        session = OnlineSession.host(
            GAMES[game_id],
            config,
            local,
            now(),
            reveal_limit=limit,
            private=private,
            crypto=_fresh_key(app),
        )
    except ParlourError as problem:
        _refuse_setup(app, game_id, problem.sentence)
        return
    _refuse_setup(app, game_id, "")  # nothing wrong: clear an earlier sentence
    controller = replace_controller(app, OnlineController(app, session))
    controller.setup = setup  # for "Play by link instead", should no route be found
    controller.invite_all()
    controller.after()
    app.go("#online")


def _remember_network(app: TheApp, game_id: str, setup: SetUp) -> bool:
    """Keep the set-up's network choice and its own STUN servers (checked first: False, and
    the set-up says why, when they cannot be used)."""
    choice = setup.network
    stun_text = setup.stun_text
    if stun_text is not None:
        try:
            stun = stun_servers(stun_text.split(","))
        except MalformedInput as problem:
            _refuse_setup(app, game_id, problem.sentence)
            return False
        app.storage.set(network.STUN, ",".join(stun))
    if choice in (network.SAME, network.INTERNET):
        app.storage.set(network.NETWORK, choice)
    return True


def _fresh_key(app: TheApp) -> Crypto | None:
    """A new key pair for a game begun here: signed play wherever the page can sign."""
    return app.keyring.fresh() if app.keyring is not None else None


def _refuse_setup(app: TheApp, game_id: str, sentence: str) -> None:
    """Say under the set-up form's online part why no invites were made (or clear it)."""
    app.effects.text.append([f"#new-{game_id} [data-role=online-error]", sentence])
    if sentence:
        app.go(f"#new-{game_id}")


def guest_new(app: TheApp, fragment: str) -> None:
    """An invite opened: `#join=<code>` (WebRTC) or `#join=bc.<room>` (another tab)."""
    code, stun, game = parse_invite(fragment)
    if app.online is None or app.online.session.is_host:
        saved = saved_game(app)
        if saved is not None and not saved[0].is_host:
            replace_controller(app, OnlineController(app, saved[0]), saved[1])
        else:
            replace_controller(
                app, OnlineController(app, OnlineSession.guest(now(), _fresh_key(app)))
            )
    assert app.online is not None  # replace_controller set it
    app.online.answer(code, stun, game)
    app.go("#online")
