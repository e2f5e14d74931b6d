"""The pages in a real Chromium: live journal and secret rolls, a full fight, a sheet refused,
screenshots of every page at 375 px and 1280 px (saved under tests/browser/artifacts/)."""

from __future__ import annotations

import re
from typing import Any

from browser_support import ARTIFACTS, Site, enter, grown
from playwright.sync_api import expect

from jdr.core.french import state_label


def settled(page: Any) -> None:
    """Wait until no htmx request is under way (a list refreshed after a choice)."""
    page.wait_for_function("!document.querySelector('.htmx-request')")


def choose(page: Any, selector: str, value: str) -> None:
    """Pick a value in a list the declarations fill (the form may refresh after it)."""
    expect(page.locator(f"{selector} option[value='{value}']")).to_have_count(1)
    page.select_option(selector, value)
    settled(page)


def choose_check(page: Any, who: str, skill: str, threshold: str) -> None:
    choose(page, "#personnage", who)
    choose(page, "#competence", skill)
    page.fill("#seuil", threshold)
    page.locator("#seuil").dispatch_event("change")
    expect(page.locator("#chances .pourcent")).to_contain_text("%")
    expect(page.locator("#chances svg.barres rect")).not_to_have_count(0)


def test_player_check_reaches_mj_live_and_secret_stays_secret(browser: Any, site: Site) -> None:
    mj = enter(browser, site, site.mj)
    player = enter(browser, site, site.player)
    for page in (mj, player):
        expect(page.locator("#direct")).to_have_text("en direct")
    assert site.player not in player.url and "jeton" not in player.url

    choose_check(player, "Nain A", "hache", "moyenne")
    expect(player.locator("#chances .pourcent")).to_contain_text("60,0 %")
    player.click("#jets button[type=submit]")
    expect(player.locator("#jet-resultat .ok")).to_be_visible()
    last = mj.locator("#journal li.entree").last  # live in the MJ's open page (how fast: bench_live)
    expect(last).to_contain_text("Nain A")
    expect(last).to_contain_text("Hache")
    expect(last.locator(".de")).to_have_count(1)
    expect(last.locator(".verdict").first).to_have_text(re.compile("réussite|échec"))

    choose(mj, "#type", "roll")
    mj.fill("#expression", "7d13")
    mj.select_option("#visibilite", "mj")
    mj.click("#jets button[type=submit]")
    secret = mj.locator("#journal li.entree.vis-mj").last
    expect(secret).to_contain_text("secret MJ")
    expect(secret).to_contain_text("7d13")
    expect(secret.locator(".de")).to_have_count(7)
    # a public roll after the secret one: once the player has it, the secret would be there too
    mj.fill("#expression", "3d11")
    mj.select_option("#visibilite", "public")
    mj.click("#jets button[type=submit]")
    expect(player.locator("#journal li.entree").last).to_contain_text("3d11")
    assert player.locator("#journal li.vis-mj").count() == 0
    for html in (player.content(), player.context.request.get(f"{site.url}/tables/{site.table}").text(),
                 player.context.request.get(f"{site.url}/tables/{site.table}/f/journal").text()):
        assert "7d13" not in html and "secret MJ" not in html
    assert player.locator("select#visibilite option[value=mj]").count() == 0
    mj.context.close()
    player.context.close()


def _row(page: Any, name: str) -> Any:
    return page.locator(f"#combat tr[data-nom='{name}']")


def _attack(mj: Any) -> None:
    choose(mj, "#defenseur", "Gobelin")
    expect(mj.locator("#attaque-chances .pourcent")).to_contain_text("%")
    mj.click("#attaque button[type=submit]")


def _settled(site: Site, *pages: Any) -> str:
    """Wait until every page shows the server's last entry and whose turn it is; that name."""
    entries = site.api("GET", "/journal")
    current = next(e["result"]["current"] for e in reversed(entries)
                   if e["result"].get("type") == "encounter")
    for page in pages:
        expect(page.locator("#journal li.entree").last).to_have_attribute(
            "data-seq", str(entries[-1]["seq"]))
        expect(page.locator("#courant")).to_have_text(current)
    return str(current)


def test_full_fight_through_the_pages(browser: Any, site: Site) -> None:
    mj = enter(browser, site, site.mj)
    player = enter(browser, site, site.player)
    mj.goto(f"{site.url}/tables/{site.table}/combat")
    player.goto(f"{site.url}/tables/{site.table}/combat")
    mj.check("#debut input[value='Nain A']")
    mj.check("#debut input[value='Gobelin']")
    mj.click("#debut button[type=submit]")
    expect(mj.locator("#round")).to_have_text("1")
    expect(player.locator("#round")).to_have_text("1")
    for _ in range(30):
        current = _settled(site, mj, player)
        if _row(mj, "Gobelin").locator(".etat").inner_text() != "debout":
            break
        if current == "Nain A":  # Lise's turn: she attacks from her own page
            seq = site.api("GET", "/journal")[-1]["seq"]
            _attack(player)
            grown(site, seq)
            _settled(site, mj, player)
        seq = site.api("GET", "/journal")[-1]["seq"]
        mj.click("#suivant")
        grown(site, seq)
    attacks = [e for e in site.api("GET", "/journal") if e["action"] == "attack" and e["result"]["hit"]]
    assert attacks, "aucune attaque n'a touché"
    health = attacks[-1]["result"]["health"]
    final_state = attacks[-1]["result"]["state"]
    for page in (mj, player):
        # the state's id is the class; the text is its French label (no genre: neutral wording)
        expect(_row(page, "Gobelin").locator(f".etat.etat-{final_state}")).to_have_text(
            state_label(final_state))
    # the MJ's goblin: its health exact for the MJ, its state only for Lise (the table's default)
    expect(_row(mj, "Gobelin").locator(".pv-texte")).to_have_text(
        f"PV {health['after']}/{health['max']}")
    expect(_row(player, "Gobelin").locator(".pv-texte")).to_have_count(0)
    assert final_state != "debout"

    # the rules refuse a check to the fallen goblin; the French reason is shown
    mj.goto(f"{site.url}/tables/{site.table}")
    choose(mj, "#personnage", "Gobelin")
    choose(mj, "#competence", "petite_lame")
    mj.fill("#seuil", "10")
    mj.click("#jets button[type=submit]")
    expect(mj.locator("#jet-resultat .erreur")).to_contain_text("Gobelin ne peut pas agir")

    # the MJ heals by hand, undoes it, ends the fight
    mj.goto(f"{site.url}/tables/{site.table}/combat")
    choose(mj, "#sante-personnage", "Nain A")
    mj.fill("#sante-valeur", "-4")
    mj.click("#sante button[type=submit]")
    expect(_row(player, "Nain A").locator(".pv-texte")).to_contain_text("PV 26/30")
    mj.click("#annuler")
    expect(_row(player, "Nain A").locator(".pv-texte")).to_contain_text("PV 30/30")
    mj.once("dialog", lambda d: d.accept())
    mj.click("#fin")
    expect(player.locator("#combat")).to_contain_text("Aucune rencontre en cours")
    assert site.api("GET", "/journal")[-1]["action"] == "combat:fin"
    mj.context.close()
    player.context.close()


def test_invalid_sheet_shows_french_error_beside_field(browser: Any, site: Site) -> None:
    player = enter(browser, site, site.player)
    before = site.api("GET", "/personnages/Nain A")
    player.goto(f"{site.url}/tables/{site.table}/fiches")
    player.click("text=Nain A")
    field = player.locator("#champ-caracteristiques-physique")
    expect(field).to_have_value("7")
    field.fill("30")
    player.click("#fiche-enregistrer")
    error = player.locator("#champ-caracteristiques-physique-err")
    expect(error).to_be_visible()
    expect(error).to_contain_text("30 hors limites (autorisé : de 1 à 14)")
    expect(player.locator("#fiche-erreur")).to_be_visible()
    expect(player.locator("#champ-caracteristiques-physique")).to_have_value("30")
    after = site.api("GET", "/personnages/Nain A")
    assert after["version"] == before["version"]
    assert after["fiche"]["values"]["physique"] == 7

    # XP: the cost first, then the purchase
    player.select_option("#xp-competence", "esquive")  # the declaration's list of skills
    player.click("#xp button[type=submit]")
    expect(player.locator("#xp-prix")).to_have_text("2 XP")
    assert site.api("GET", "/personnages/Nain A")["fiche"]["values"]["xp"] == 10
    player.click("#xp-confirmer")
    expect(player.locator("td[data-cle=esquive]")).to_contain_text("3")
    assert site.api("GET", "/personnages/Nain A")["fiche"]["values"]["xp"] == 8
    player.context.close()


PAGES = {"accueil": "/", "table": "/tables/{t}", "fiches": "/tables/{t}/fiches",
         "fiche": "/tables/{t}/fiches/Nain%20A", "combat": "/tables/{t}/combat",
         "membres": "/tables/{t}/membres"}


def test_screenshots_of_every_page(browser: Any, site: Site) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    site.api("POST", "/actions", json={"type": "check", "params": {
        "personnage": "Nain A", "competence": "hache", "seuil": "15"}})
    site.api("POST", "/actions", json={"type": "roll", "params": {"expression": "3d6"},
                                       "visibilite": "mj"})
    for width in (375, 1280):
        mj = enter(browser, site, site.mj, width)
        for name, path in PAGES.items():
            if name == "combat":
                mj.goto(f"{site.url}/tables/{site.table}/combat")
                if mj.locator("#debut").count():
                    mj.check("#debut input[value='Nain A']")
                    mj.check("#debut input[value='Elfe B']")
                    mj.click("#debut button[type=submit]")
                    expect(mj.locator("#round")).to_have_text("1")
            mj.goto(site.url + path.format(t=site.table))
            assert mj.locator("body").inner_text().strip()
            wide = mj.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 1, f"{name} déborde à {width} px ({wide})"
            mj.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        mj.context.close()
