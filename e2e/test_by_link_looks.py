"""Screens of play by link seen as a player sees them, at 360x740 and 1280x800, light and
dark (e2e/screenshots/look-*.png), and checked with axe: the join screen with the invite's code
to compare, "Claim the game" once a time per move is up, "Your games by link" with a finished
game's Remove and the question it asks, the panel of a link split into parts, each with its
QR code, and an older page's invite that nobody may join, refused in plain words."""

from __future__ import annotations

import time

from e2e import axe
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from e2e.link_players import PROTOCOL_WORDS, ROOT, SAVE, STEP_MS, Chat, Device
from e2e.test_by_link import shots
from parlour.match.by_link import LinkPlay
from parlour.match.by_link import device as device_module
from parlour.match.by_link.device import UNSEALED
from tests.signers import Ed25519Signer, verify

HOUR = 3600


def move_clock(page, seconds: int) -> None:
    """Move the clock the game reads (Pyodide's `time.time()` in the worker: its `Date.now`)
    on by `seconds`, as hours passing would."""
    assert page.workers
    for worker in page.workers:
        worker.evaluate(
            "s => { const real = Date.now; Date.now = () => real.call(Date) + s * 1000; }",
            seconds,
        )


def below(page, upper: str, lower: str, width: int = 360) -> None:
    """`lower` starts under `upper`'s end, with a gap (nothing overlaps or touches), at
    `width`."""
    page.set_viewport_size({"width": width, "height": 740})
    top = page.locator(upper).bounding_box()
    under = page.locator(lower).bounding_box()
    assert top and under and under["y"] >= top["y"] + top["height"] + 4, (top, under)


def test_a_claim_when_time_is_up_then_the_finished_game_in_your_games_and_its_removal(
    browser, site, screenshots
):
    watches: list[PageWatch] = []
    chat = Chat(
        [
            Device(browser, site, watches, 1280, 800, "light"),
            Device(browser, site, watches, 360, 740, "dark"),
        ]
    )

    def form(page) -> None:
        page.check("input[name='esp-seats'][value='2']")
        page.fill("#new-esp [data-seat-name='0']", "Ada")
        page.eval_on_selector("#new-esp [data-link-limit]", "e => { e.value = '1'; }")

    invite = chat.create("esp", form)
    joiner = chat.devices[1].page
    joiner.goto(invite[0])
    joiner.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    joiner.locator(f"{ROOT} [data-role=invite-code]").wait_for(timeout=STEP_MS)
    joining = axe.AxeLog(joiner, "by link join")
    shots(joiner, screenshots, "join", None, joining, prefix="look")  # the invite code
    joining.assert_clean()
    chat.join(1, invite, "Bo")
    chat.deliver()
    plays = [d.saved() for d in chat.devices]
    mover = next(i for i, p in enumerate(plays) if p.summary()["my_turn"])
    claimant = chat.devices[1 - mover]
    page = claimant.page
    match_id = plays[0].match_id
    move_clock(page, 2 * HOUR)
    page.evaluate("m => { location.hash = '#home'; location.hash = '#bylink=' + m; }", match_id)
    claim = page.locator(f"{ROOT} [data-cmd=bylink-claim]")
    claim.wait_for(timeout=STEP_MS)
    log = axe.AxeLog(page, "by link")
    shots(page, screenshots, "claim", None, log, prefix="look")
    below(page, f"{ROOT} [data-cmd=bylink-claim]", f"{ROOT} [data-cmd=bylink-send]")
    claim.click()
    page.locator(f"{ROOT} [data-role=result]").wait_for(timeout=STEP_MS)
    shots(page, screenshots, "claimed", None, log, prefix="look")
    page.evaluate("() => { location.hash = '#home'; }")
    remove = page.locator(".link-games [data-cmd=bylink-remove]")
    remove.wait_for(timeout=STEP_MS)
    shots(page, screenshots, "your-games", ".link-games", log, prefix="look")
    remove.click()
    page.locator(".link-games [data-role=bylink-remove-confirm]").wait_for(timeout=STEP_MS)
    shots(page, screenshots, "remove-confirm", ".link-games", log, prefix="look")
    for width in (360, 1280):
        below(page, ".link-games .turn", ".link-games [data-role=bylink-remove-confirm]", width)
    log.assert_clean()
    chat.close(watches)


def test_a_link_split_into_parts_shows_each_part_with_its_qr_code(browser, site, screenshots):
    """Telepathic teams with two bots on the creator's device: its invite seals the deck its
    own seats draw from and holds its lock of the other deck, one link for a chat (it was 2
    parts before the sealed deal); "Smaller codes to scan" cuts it into parts, each short
    enough for a phone's camera."""
    watches: list[PageWatch] = []
    ada = Device(browser, site, watches, 1280, 800, "light")
    page = ada.page
    page.goto(site.url + "#new-telepathic")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.check("input[name='telepathic-arrangement'][value='teams']")
    page.fill("#new-telepathic [data-seat-name='0']", "Ada")
    for seat in (1, 2):
        page.select_option(f"#new-telepathic [data-seat-kind='{seat}']", "easy")
    page.click("#new-telepathic .link-setup summary")
    page.click("#new-telepathic a[href='#link-telepathic']")
    inputs = page.locator(f"{ROOT} [data-role=bylink-send] input")
    inputs.first.wait_for(timeout=STEP_MS)
    ada.wait_signed()
    whole = inputs.count()
    assert whole == 1, "a chat's invite of four seats is one link (docs/links.md, Sizes)"
    log = axe.AxeLog(page, "by link")
    shots(page, screenshots, "one-link", None, log, prefix="look")  # with "Smaller codes"
    page.click(f"{ROOT} [data-cmd=bylink-scan]")  # "Smaller codes to scan"
    page.locator(f"{ROOT} [data-cmd=bylink-scan]", has_text="One link for a chat").wait_for(
        timeout=STEP_MS
    )
    assert inputs.count() > max(whole, 1)
    assert all(len(inputs.nth(i).input_value()) <= 700 for i in range(inputs.count()))
    first, second = (page.locator(f"{ROOT} .bylink-link").nth(i).bounding_box() for i in (0, 1))
    assert first and second and second["x"] > first["x"] + first["width"]  # side by side
    # each part's code big enough to read off the screen: at least 2.8 px a module (the viewBox
    # is the modules and the quiet zone; at 16rem it was 1.7 px)
    codes = page.locator(f"{ROOT} .bylink-parts .qr")
    for i in range(codes.count()):
        modules = float(codes.nth(i).get_attribute("viewBox").split()[2])
        assert codes.nth(i).bounding_box()["width"] / modules >= 2.8, i
    shots(page, screenshots, "parts", None, log, prefix="look")
    log.assert_clean()
    ada.context.close()
    for watch in watches:
        assert watch.foreign_requests() == []
        assert watch.unexpected_problems() == []


# An element wholly inside the window, as it is scrolled.
IN_VIEW = (
    "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
)


def old_invite(base: str, monkeypatch) -> list[str]:
    """An invite as a page before the sealed deal made it (tests/test_sealed_deal.py): Ada's
    device holds the bots Cy and Di, the two seats Telepathic's shape deck goes to, and deals
    that deck by locks with nobody else's lock in it."""
    with monkeypatch.context() as old:
        old.setattr(device_module, "sealed_commitments", lambda deals, stores: {})
        old.setattr(device_module, "new_locks", lambda deals, stores, seal=False: None)
        creator, out = LinkPlay.create(
            "telepathic", ["Ada", "Bo", "Cy", "Di"], {"arrangement": "four"}, (0,),
            Ed25519Signer(), verify, time.time(), base, {2: "easy", 3: "easy"},
        )  # fmt: skip
    assert creator is not None and out.ok, out.sentence
    assert creator.unsealed_at_one_device() == ["shape"]
    return out.links


def test_an_invite_from_an_older_page_that_could_choose_its_bots_cards_is_refused_plainly(
    browser, site, screenshots, monkeypatch
):
    """Bo opens an older page's invite whose creator could choose the cards its two bots draw,
    and tries to join: the join screen says why not in plain words, draws no board, keeps no
    game in "Your games by link", and offers the way back to all games."""
    invite = old_invite(site.url, monkeypatch)
    watches: list[PageWatch] = []
    bo = Device(browser, site, watches, 360, 740, "light")
    page = bo.page
    page.goto(invite[0])
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    for part in invite[1:]:  # the older page's invite came in parts, as a chat carries them
        page.evaluate("link => { location.hash = new URL(link).hash; }", part)
    page.locator(f"{ROOT} [data-role=bylink-join]").wait_for(timeout=STEP_MS)
    page.fill(f"{ROOT} [data-field=bylink-name]", "Bo")
    page.select_option(f"{ROOT} [data-field=bylink-seat]", "1")
    page.click(f"{ROOT} [data-cmd=bylink-join]")
    error = page.locator(f"{ROOT} [data-role=bylink-error]")
    page.wait_for_function(  # the refusal, or a board (joined after all)
        "() => document.querySelector('#bylink [data-role=bylink-bar]')"
        " || (document.querySelector('#bylink [data-role=bylink-error]') || {}).textContent",
        timeout=STEP_MS,
    )
    assert page.locator(f"{ROOT} .play, {ROOT} [data-role=bylink-bar]").count() == 0  # no board
    assert error.inner_text() == UNSEALED
    assert not PROTOCOL_WORDS.search(UNSEALED), UNSEALED  # in a player's words
    assert error.get_attribute("role") == "alert"
    # on a phone, in view after pressing Join (under the form it was below the fold, and the
    # redrawn page showed its top)
    assert error.evaluate(IN_VIEW), error.bounding_box()
    # nothing to press again that would only be refused again
    assert page.locator(f"{ROOT} [data-cmd=bylink-join], {ROOT} [data-field]").count() == 0
    log = axe.AxeLog(page, "by link join")
    shots(page, screenshots, "unsealed", None, log, prefix="look")
    saves = page.evaluate(f"Object.keys(localStorage).filter(k => k.startsWith('{SAVE}'))")
    assert saves == [], saves  # nothing kept for "Your games by link"
    back = page.locator(f"{ROOT} a[href='#home']")
    assert back.is_visible(), "the refused invite leaves no way back to all games"
    back.click()
    page.wait_for_function("location.hash === '#home'", timeout=STEP_MS)
    assert page.locator(".link-games li[data-match]").count() == 0
    log.assert_clean()
    bo.context.close()
    for watch in watches:
        assert watch.foreign_requests() == []
        assert watch.unexpected_problems() == []
