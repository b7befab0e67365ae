"""The suite's screenshots get a second try (e2e/photos.py): a first try that runs out wakes the
compositor and the picture is taken again, for a page and for a locator alike."""

from __future__ import annotations

import pytest

from e2e import photos
from e2e.harness import UI_READY

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_screenshot_whose_first_try_runs_out_is_taken_again(page, site, watch, monkeypatch):
    page.goto(site.url)
    page.wait_for_selector(UI_READY, state="attached")
    monkeypatch.setattr(photos, "FIRST_TRY_MS", 1)  # no screenshot is ever that quick
    monkeypatch.setattr(photos, "wakes", [])
    with pytest.warns(UserWarning, match="woken and taken again"):
        whole = page.screenshot()
        part = page.locator("header").first.screenshot()
    assert whole.startswith(PNG) and part.startswith(PNG)
    assert len(photos.wakes) == 2, photos.wakes
    assert all("Timeout 1ms exceeded" in line for line in photos.wakes), photos.wakes


def test_a_screenshot_given_its_own_timeout_is_left_alone(page, site, watch, monkeypatch):
    page.goto(site.url)
    page.wait_for_selector(UI_READY, state="attached")
    monkeypatch.setattr(photos, "FIRST_TRY_MS", 1)
    monkeypatch.setattr(photos, "wakes", [])
    assert page.screenshot(timeout=30_000).startswith(PNG)
    assert photos.wakes == []
