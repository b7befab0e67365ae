"""Live play across the internet, for real: two Chromiums, each in its own network namespace
behind its own NAT (iptables MASQUERADE), and a STUN server (coturn) in the "internet" between
them standing in for the public ones (e2e/netns.py draws the topology).

The host chooses "Across the internet" in the set-up; the page's public STUN servers are
replaced by the test's own through `psi-parlour:public-stun`, so the invite, the offer and the
answer go the same way as with the real ones. The devices' own addresses (10.200.1.2 and
10.200.2.2) cannot reach each other: only the addresses STUN tells them (their NATs') can.
- Through STUN the pair connects and plays a game of ESP to the end; the guest chose its name
  ("Bo") on the join screen, and both devices play under it.
- With everything between the two NATs dropped, the host is told within 15 s of pressing
  Connect that the devices found no direct route, and one tap starts the same game by link.

Skipped only where the kernel refuses network namespaces. Each test builds its own namespaces
and takes them down (processes, interfaces, rules) however it ends.
"""

from __future__ import annotations

import time

import pytest

from e2e.harness import CHROMIUM_ARGS, READY, READY_TIMEOUT_MS, chromium_launch_args
from e2e.netns import Topology, missing_tools, namespaces_refused
from e2e.players import plan_game
from e2e.test_online import ROOT, STEP_TIMEOUT_MS, Device, OnlineGame
from parlour.games.esp.actions import Flip
from parlour.net.sdp import OFFER, expand, parse_invite
from parlour.ui.online import network
from parlour.ui.online.screen import NO_ROUTE

pytestmark = pytest.mark.timing  # the connect and the no-route offer are bounded: run alone

NO_ROUTE_WITHIN = 15.0  # seconds from the host's Connect to the offer to play by link


@pytest.fixture(scope="module", autouse=True)
def _namespaces():
    why = namespaces_refused()
    if why is not None:
        pytest.skip(f"no network namespaces here: {why}")
    missing = missing_tools()
    assert not missing, f"the NAT tests need {missing}: scripts/nat-tools.sh installs them"


class Site:
    def __init__(self, url: str) -> None:
        self.url = url


def browsers(playwright, net: Topology):
    """One Chromium in each device's namespace, the public STUN servers replaced by the test's."""
    executable = chromium_launch_args().get("executable_path") or "chromium"
    out = []
    for part in ("a", "b"):
        browser = playwright.chromium.launch(
            executable_path=net.chromium(part, executable), args=list(CHROMIUM_ARGS)
        )
        out.append(Standing(browser, net.stun))
    return out


class Standing:
    """A browser whose every new context has the test's STUN server in the public ones' place."""

    def __init__(self, browser, stun: str) -> None:
        self.browser, self.stun = browser, stun

    def new_context(self, **kwargs):
        context = self.browser.new_context(**kwargs)
        context.add_init_script(
            f"localStorage.setItem({network.PUBLIC_STAND_IN!r}, {self.stun!r});"
        )
        return context

    def close(self) -> None:
        self.browser.close()


def across_the_internet(page) -> None:
    """The set-up's choice, made as a player makes it (the online part opened and closed again:
    `OnlineGame.open` opens it)."""
    page.check("input[name='esp-seats'][value='2']")
    page.click("#new-esp .online-setup summary")
    page.check("#new-esp input[data-network=internet]")
    page.click("#new-esp .online-setup summary")


def choose_name(seat: int, page) -> None:
    field = page.locator("[data-field=guest-name]")
    field.fill("Bo")
    field.press("Tab")  # a change: the worker keeps it for the hello


def photograph(page, shots, name: str) -> None:
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=shots / f"{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1100, "height": 900})


def test_two_devices_behind_two_nats_connect_through_stun_and_play(playwright, screenshots):
    began = time.monotonic()
    with Topology() as net:
        browser_a, browser_b = browsers(playwright, net)
        try:
            names = ("Ada", "Bo")
            plan = iter(plan_game(names))

            def decide(session, seat):
                planned_seat, choice = next(plan)
                assert planned_seat == seat
                if isinstance(choice, Flip):  # flip with this device's own opening
                    return next(
                        a
                        for a in session.table.legal(seat)
                        if isinstance(a, Flip) and a.cell == choice.cell
                    )
                return choice

            game = OnlineGame(browser_a, Site(net.site_url), "esp", ("Ada", ""))
            game.browser = browser_b  # the guest's device: the other namespace
            invites: list[str] = []

            def before_connect(seat, page):
                invites.append(game.host.page.locator("[data-role=invite-1]").input_value())
                choose_name(seat, page)

            game.before_connect = before_connect
            try:
                game.open(across_the_internet)
                game.names = names  # what the game is played under, once Bo has said so
                code, stun, _ = parse_invite(invites[0])
                assert stun == [net.stun]  # "Across the internet", the test's server standing in
                assert " typ srflx " in expand(code, OFFER)  # the host's NAT, as STUN told it
                assert game.connect_seconds[0] < NO_ROUTE_WITHIN and game.retries == 0
                for device in game.devices:
                    bar = device.page.locator(f"{ROOT} .online-bar")
                    assert "Bo" in bar.inner_text() and "Player 2" not in bar.inner_text()
                game.play_to_the_end(decide)
                game.check_end()
            except Exception:
                game.explain()
                raise
            finally:
                game.close()
        finally:
            browser_a.close()
            browser_b.close()
    print(f"NAT pair connected in {game.connect_seconds[0]:.1f} s; the test took "
          f"{time.monotonic() - began:.0f} s")  # fmt: skip


def test_two_devices_with_no_route_are_offered_the_game_by_link(playwright, screenshots):
    began = time.monotonic()
    with Topology(blocked=True) as net:
        browser_a, browser_b = browsers(playwright, net)
        try:
            game = OnlineGame(browser_a, Site(net.site_url), "esp", ("Ada", "Bo"))
            game.browser = browser_b
            host = game.host.page
            host.goto(net.site_url + "#new-esp")
            host.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
            across_the_internet(host)
            host.fill("#new-esp [data-seat-name='0']", "Ada")
            host.fill("#new-esp [data-seat-name='1']", "Bo")
            host.click("#new-esp .online-setup summary")
            photograph(host, screenshots, "nat-setup-across-the-internet")
            host.click("#new-esp >> text=Make the invites")
            guest = Device(browser_b, Site(net.site_url), game.watches)
            game.guests[1] = guest
            pressed = game.exchange(1)
            told = host.locator("[data-role=no-route]")
            told.wait_for(timeout=NO_ROUTE_WITHIN * 1000)
            seconds = time.monotonic() - pressed
            assert seconds < NO_ROUTE_WITHIN and told.inner_text() == NO_ROUTE
            photograph(host, screenshots, "nat-no-route")
            guest_told = guest.page.locator("[data-role=join-status]", has_text=NO_ROUTE)
            guest_told.wait_for(timeout=40_000)
            guest_seconds = time.monotonic() - pressed
            photograph(guest.page, screenshots, "nat-no-route-guest")
            host.click("[data-cmd=play-by-link]")
            host.wait_for_function("location.hash === '#bylink'", timeout=STEP_TIMEOUT_MS)
            bar = host.locator("#bylink [data-role=bylink-bar]")
            bar.wait_for(timeout=STEP_TIMEOUT_MS)
            shown = host.locator("#bylink").inner_text()
            assert "Ada" in shown and "Bo" in shown, shown
            photograph(host, screenshots, "nat-by-link-instead")
            game.close()
        finally:
            browser_a.close()
            browser_b.close()
    print(f"no route told in {seconds:.1f} s on the host, {guest_seconds:.1f} s on the guest; "
          f"the test took {time.monotonic() - began:.0f} s")  # fmt: skip
