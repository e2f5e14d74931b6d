"""Verifiable dice in the pages (issue 21): the MJ opens and closes a séance with the buttons, each
browser adds its contribution, and the « Vérifier » page (WebCrypto, in Chromium) gives exactly
the verdicts of `jdr verifier` on the same journals — faithful, tampered, and forum blocks."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path
from typing import Any

from browser_support import Site, enter
from playwright.sync_api import expect

from jdr.dice.verifiable import verify_blocks, verify_journal


def _verdicts(page: Any) -> list[tuple[int, str]]:
    expect(page.locator("#resume")).not_to_be_empty()
    rows = page.locator("#resultats tbody tr")
    return [(int(rows.nth(i).get_attribute("data-seq") or 0), rows.nth(i).get_attribute("data-status") or "")
            for i in range(rows.count())]


def _check_file(page: Any, path: Path) -> list[tuple[int, str]]:
    page.locator("#resume").evaluate("e => { e.textContent = ''; }")
    page.set_input_files("#fichier", str(path))
    page.click("#lancer-verification")
    return _verdicts(page)


def test_seance_in_the_pages_and_the_browser_verifier_agrees(browser: Any, site: Site,
                                                             tmp_path: Path) -> None:
    mj = enter(browser, site, site.mj)
    player = enter(browser, site, site.player)
    mj.click("#seance-ouvrir")
    expect(mj.locator("#seance")).to_contain_text("Séance 1 ouverte")
    expect(player.locator("#seance")).to_contain_text("Séance 1 ouverte", timeout=5000)
    player.reload()  # the player's browser contributes once the panel shows the séance
    check = {"type": "check", "params": {"personnage": "Nain A", "competence": "hache",
                                         "seuil": "difficile"}}
    site.api("POST", "/actions", token=site.player, json=check)
    site.api("POST", "/actions", json={"type": "roll", "params": {"expression": "4d6kh3"}})
    site.api("POST", "/actions", json={"type": "roll", "params": {"expression": "2d10"}, "des": [3, 9]})
    contributors = {e["actor"] for e in site.api("GET", "/journal") if e["action"] == "seance:contribution"}
    assert contributors == {"MJ", "Lise"}
    mj.on("dialog", lambda dialog: dialog.accept())
    mj.click("#seance-fermer")
    expect(mj.locator("#seance")).to_contain_text("graine révélée")

    journal = site.api("GET", "/journal")
    good = tmp_path / "journal.json"
    good.write_text(json.dumps(journal), encoding="utf-8")
    bad_journal = copy.deepcopy(journal)
    rolled = next(e for e in bad_journal if (e.get("verif") or {}).get("verifiable"))
    rolled["dice"][0]["face"] = rolled["dice"][0]["face"] % rolled["dice"][0]["sides"] + 1
    bad = tmp_path / "falsifie.json"
    bad.write_text(json.dumps(bad_journal), encoding="utf-8")

    page = mj.context.new_page()
    page.goto(f"{site.url}/verifier")
    expect(page.get_by_label("Journal exporté (JSON) ou texte copié d'un forum")).to_be_visible()
    for path, data in ((good, journal), (bad, bad_journal)):
        expected = [(c.seq, c.status) for c in verify_journal(data).checks]
        assert _check_file(page, path) == expected
    assert ("ok" in {s for _q, s in _verdicts(page)}) and page.locator("#resume[data-ok=non]").count() == 1
    assert sorted(c.status for c in verify_journal(journal).checks) == ["non_verifiable", "ok", "ok"]
    assert "echec" in {c.status for c in verify_journal(bad_journal).checks}

    # forum blocks, pasted with the published seed
    from jdr.cli.engagement import read_commitment
    from jdr.cli.verifiable import commitment_cmd, verifiable_roll

    engagement = tmp_path / "eng.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        commitment_cmd(fichier=engagement, reveler=False, fmt="forum")
        verifiable_roll("3d6+1", engagement, "forum", False)
        verifiable_roll("1d100", engagement, "texte", False)
    seed = read_commitment(engagement)["graine"]
    for text in (out.getvalue(), out.getvalue().replace('"expression":"1d100"', '"expression":"1d10"')):
        page.goto(f"{site.url}/verifier")
        page.fill("#texte", text)
        page.fill("#graine", seed)
        page.click("#lancer-verification")
        assert _verdicts(page) == [(c.seq, c.status) for c in verify_blocks(text, seed).checks]
    for p in (mj, player):
        p.context.close()
