"""The sheet form in a real Chromium, on a 375 px phone: a player creates a character of each
system through the form only (no YAML), fixes a mistake shown beside its field, and rolls with
it; an existing sheet is edited through the same form (a weapon added). Screenshots of each
creation form go to /tmp/shots/ (and tests/browser/artifacts/)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_support import ARTIFACTS, Site, enter
from playwright.sync_api import expect
from test_pages_browser import choose, settled
from web_support import http

SHOTS = Path("/tmp/shots")


@dataclass(frozen=True)
class Case:
    """One system: the mistake typed (field, value), where its problem shows, the fix, the
    check rolled afterwards (skill, threshold)."""

    system: str
    name: str
    wrong: tuple[str, str]
    shown: str
    says: str
    fix: tuple[tuple[str, str], ...]
    skill: str
    threshold: str
    add: str = ""  # a list to add an item to, for the fix
    rolls: bool = True  # False: the roll box cannot choose cyd's die yet, its odds are shown


CASES = [
    # R000.06 / D-000.50: a dwarf starts Expert in Négociation (a creation rule).
    Case("cydonia", "Brunehilde", ("#champ-peuple", "nain"), "#champ-expertes-err",
         "Expert en Négociation", (("#champ-expertes-0", "negociation"),), "lame", "moyenne",
         add="#champ-expertes"),
    # R004.03: Chance at most 3 at creation; the rank's budget is spent too.
    Case("felins", "Museau-Gris", ("#champ-caracteristiques-chance", "5"),
         "#champ-caracteristiques-chance-err", "Chance ne peut pas dépasser 3",
         (("#champ-caracteristiques-chance", "1"),), "discretion", ""),
    Case("dd35", "Aldric", ("#champ-armes-0-degats", "beaucoup"), "#champ-armes-0-degats-err",
         "formule de dés", (("#champ-armes-0-degats", "1d8"),), "force", "10"),
    Case("maitrise", "Ysolde", ("#champ-caracteristiques-force", "25"),
         "#champ-caracteristiques-force-err", "de 1 à 20",
         (("#champ-caracteristiques-force", "14"),), "epee", ""),
    Case("cyd", "Sable", ("#champ-attributs-adresse", "12"), "#champ-attributs-adresse-err",
         "de 1 à 10", (("#champ-attributs-adresse", "6"),), "tir", "moyenne", rolls=False),
]


def _table(url: str, system: str) -> Site:
    r = http().post(f"{url}/api/tables", json={"nom": f"Table {system}", "systeme": system},
                    timeout=10)
    assert r.status_code == 201, r.text
    site = Site(url, r.json()["id"], r.json()["jeton"], "")
    site.player = site.api("POST", "/invitations", json={"role": "joueur", "nom": "Lise"})["jeton"]
    return site


@pytest.mark.parametrize("case", CASES, ids=[c.system for c in CASES])
def test_player_creates_each_system_through_the_form(browser: Any, server: str, case: Case) -> None:
    site = _table(server, case.system)
    page = enter(browser, site, site.player, width=375)
    page.goto(f"{site.url}/tables/{site.table}/fiches")
    page.click("#nouvelle-fiche")
    expect(page.locator("#fiche-form")).to_be_visible()
    page.fill("#champ-nom", case.name)
    _shoot(page, case.system)

    selector, value = case.wrong
    page.fill(selector, value)
    error = page.locator(case.shown)
    expect(error).to_contain_text(case.says)
    assert page.locator(f".erreur-champ:has-text('{case.says}')").count() == 1  # once
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"nouvelle-fiche-{case.system}-erreur-375.png"))
    # the refused form comes back in place of the form: wait for it before filling the fix
    with page.expect_response(lambda r: r.url.endswith("/nouvelle-fiche") and r.request.method == "POST"):
        page.click("#fiche-enregistrer")
    page.wait_for_function("!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    expect(page.locator("#fiche-erreur")).to_be_visible()
    assert site.api("GET", "/personnages") == []

    if case.add:
        page.click(f"{case.add} > .ajouter")
    for selector, value in case.fix:
        page.fill(selector, value)
    expect(page.locator(case.shown)).to_be_empty()
    page.click("#fiche-enregistrer")
    page.wait_for_url(f"**/fiches/{case.name}")
    made = site.api("GET", f"/personnages/{case.name}")
    assert made["joueur"] == "Lise"

    page.goto(f"{site.url}/tables/{site.table}")
    choose(page, "#personnage", case.name)
    expect(page.locator("#competence option")).not_to_have_count(0)  # the character's own skills
    choose(page, "#competence", case.skill)
    page.fill("#seuil", case.threshold)
    page.locator("#seuil").dispatch_event("change")
    expect(page.locator("#chances .pourcent")).to_contain_text("%")
    if case.rolls:
        settled(page)
        page.click("#jets button[type=submit]")
        expect(page.locator("#jet-resultat .ok")).to_contain_text(case.name)
        assert site.api("GET", "/journal")[-1]["action"] == "check"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 376, f"la page déborde à 375 px ({wide})"
    page.context.close()


def _shoot(page: Any, system: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    ARTIFACTS.mkdir(exist_ok=True)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 376, f"le formulaire {system} déborde à 375 px ({wide})"
    for folder in (SHOTS, ARTIFACTS):
        page.screenshot(path=str(folder / f"nouvelle-fiche-{system}-375.png"), full_page=True)


def test_existing_sheet_edited_with_the_form_keeps_comments(browser: Any, site: Site) -> None:
    """A weapon added to Nain A (no such key could be added before), a stale version refused."""
    page = enter(browser, site, site.player, width=1280)
    page.goto(f"{site.url}/tables/{site.table}/fiches/Nain%20A")
    before = site.api("GET", "/personnages/Nain A?format=yaml")
    expect(page.locator("#champ-caracteristiques-dexterite")).to_have_value("4")  # `DEX: 4`
    page.click("#champ-armes > .ajouter")
    page.fill("#champ-armes-1-nom", "Arc court")
    page.fill("#champ-armes-1-competence", "arc")
    page.get_by_role("button", name="Retirer : Compétence n° 2").click()  # esquive
    expect(page.locator("#champ-competences-1-cle")).to_have_count(0)
    with page.expect_response(lambda r: "/f/fiche/enregistrer" in r.url):  # saved, then reloaded
        page.click("#fiche-enregistrer")
    page.wait_for_load_state()
    after = site.api("GET", "/personnages/Nain A?format=yaml")
    assert "Arc court" in after and "esquive" not in after and "DEX: 4" in after
    assert [line for line in before.splitlines() if "#" in line] == \
        [line for line in after.splitlines() if "#" in line]
    page.context.close()
