"""The roll box gives the exact odds of a free expression as it is typed (real Chromium)."""

from __future__ import annotations

from typing import Any

from browser_support import ARTIFACTS, Site, enter
from playwright.sync_api import expect


def test_free_expression_odds_as_you_type(browser: Any, site: Site) -> None:
    player = enter(browser, site, site.player)
    player.select_option("#type", "roll")  # the roll box: free notation
    expect(player.locator("#expression")).to_be_visible()
    player.locator("#expression").press_sequentially("1d20+5>=15")
    zone = player.locator("#chances-des")
    expect(zone.locator(".pourcent")).to_contain_text("55,0 %")
    expect(zone.locator(".pourcent")).to_contain_text("moyenne 15,50")
    expect(zone.locator("svg.barres rect")).to_have_count(20)
    ARTIFACTS.mkdir(exist_ok=True)
    player.screenshot(path=str(ARTIFACTS / "chances-des.png"), full_page=True)
    player.fill("#expression", "")
    player.locator("#expression").press_sequentially("1d20!!!")
    expect(zone).to_contain_text("une seule explosion")
    player.context.close()
