"""Every action the declarations give, played through the pages of each system (the example
system included); a dying Cydonia character saved by the rule the system declares; the MJ's
combat form kept while a player rolls."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from browser_support import COUNTER, Site, enter
from playwright.sync_api import expect
from test_pages_browser import choose, settled

SYSTEMS = ("cydonia", "maitrise", "dd35", "cyd", "felins", "deuxdes")
PLAYED: dict[str, tuple[int, int]] = {}


def table_of(url: str, system_id: str) -> Site:
    """A table of `system_id` with two characters from the system's own template."""
    r = httpx.post(f"{url}/api/tables", json={"nom": f"Table {system_id} {next(COUNTER)}",
                                               "systeme": system_id},
                   timeout=10)
    assert r.status_code == 201, r.text
    site = Site(url, r.json()["id"], r.json()["jeton"], "")
    site.player = site.api("POST", "/invitations", json={"role": "joueur", "nom": "Lise"})["jeton"]
    from jdr.core.registry import get_system

    text = get_system(system_id).template()
    name = re.search(r"^nom: *(.+?) *(#.*)?$", text, re.M)
    assert name is not None
    site.api("POST", "/personnages", json={"yaml": text, "joueur": "Lise"})
    site.api("POST", "/personnages", json={"yaml": text.replace(f"nom: {name.group(1)}",
                                                                 "nom: Adversaire", 1)})
    site.player_name = name.group(1).strip()
    return site


def _filled(fragment: str) -> dict[str, list[str]]:
    """A form fragment filled as a hurried player would: the first choice of every list, the
    first two boxes of a group, `1` in a number, `-1` for a value."""
    form: dict[str, list[str]] = {}
    for name, body in re.findall(r'<select id="[^"]*" name="([^"]+)"[^>]*>(.*?)</select>', fragment, re.S):
        if name.startswith("opt."):
            continue  # the system's options keep their defaults
        values = [html.unescape(v) for v in re.findall(r'<option value="([^"]*)"', body) if v]
        selected = re.findall(r'<option value="([^"]*)" selected', body)
        if selected or values:
            other = name == "defenseur" or (name.startswith("role.") and name != "role.0")
            pick = values[-1 if other else 0] if values else ""
            form[name] = [html.unescape(selected[0]) if selected else pick]
    for name, value in re.findall(r'<input type="checkbox" name="([^"]+)" value="([^"]*)"', fragment):
        form.setdefault(name, [])
        if len(form[name]) < 2:
            form[name].append(html.unescape(value))
    for name in re.findall(r'<input id="[^"]*" name="([^"]+)"[^>]*required', fragment):
        form[name] = ["-1" if name == "valeur" else "1d6" if name == "expression" else "1"]
    return form


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_declared_action_through_the_pages(browser: Any, server: str, system_id: str) -> None:
    site = table_of(server, system_id)
    mj = enter(browser, site, site.mj)
    types = mj.locator("#type option").evaluate_all("os => os.map(o => o.value)")
    assert "check" in types and "roll" in types and "sante" in types
    rules = [t for t in types if t.startswith("regle:")]
    from jdr.core.declare import CORE_KINDS
    from jdr.core.registry import get_system

    system = get_system(system_id)
    assert {f"regle:{n}" for n in system.actions if n not in CORE_KINDS} == set(rules)
    # the first one in the page itself: a check with its exact odds, then rolled
    expect(mj.locator("#competence option")).not_to_have_count(0)
    mj.locator("#competence").select_option(index=1)
    settled(mj)
    if mj.locator("#seuil-liste option").count():  # a ladder: its first step
        mj.fill("#seuil", mj.locator("#seuil-liste option").first.get_attribute("value") or "")
        mj.locator("#seuil").dispatch_event("change")
    expect(mj.locator("#chances .pourcent")).to_contain_text("%")
    mj.click("#jets button[type=submit]")
    expect(mj.locator("#jet-resultat .message")).to_be_visible()
    # then every action of the declarations, through the same routes, as the page posts them
    request = mj.context.request
    base = f"{site.url}/tables/{site.table}"
    token = mj.locator('meta[name="jdr-csrf"]').get_attribute("content") or ""
    safe = {"X-JDR-CSRF": token, "Origin": site.url}  # what the page's htmx requests carry
    played = 0
    harmful = ("attack", "duel", "sante")  # last: a blow may leave someone unable to act
    for kind in sorted(types, key=lambda t: t in harmful):
        fragment = request.post(f"{base}/f/formulaire", form={"type": kind}, headers=safe).text()
        form = _filled(fragment)
        names = {k: v for k, v in form.items() if k != "prefixe"}
        first = {"type": kind, **{k: v[0] for k, v in names.items()}}
        answer = request.post(f"{base}/f/formulaire", form=first, headers=safe)
        form = {**_filled(answer.text()), **names}
        # a hurried player takes the defaults after the dice (the wait for a player's choice is
        # walked in test_table_talk_browser)
        body = urlencode({"type": [kind], **form, "choix": ["defaut"]}, doseq=True)
        r = request.post(f"{base}/f/jet", data=body.encode(),
                         headers={**safe, "content-type": "application/x-www-form-urlencoded"})
        assert r.status == 200, (kind, r.text())
        assert 'class="message' in r.text(), (kind, r.text())
        played += 'class="message ok"' in r.text()
    PLAYED[system_id] = (played, len(types))
    print(f"{system_id} : {played} actions jouées sur {len(types)} proposées")
    assert played >= len(types) // 3, (system_id, played, len(types))
    mj.context.close()


def test_dying_cydonia_character_saved_by_the_declared_rule(browser: Any, site: Site) -> None:
    text = site.api("GET", "/personnages/Nain A?format=yaml")
    version = site.api("GET", "/personnages/Nain A")["version"]
    dying = text.replace("pv: {max: 30, actuels: 30}", "pv: {max: 30, actuels: -2}")
    dying += "etat:\n  mourant: true\n"
    site.api("PUT", "/personnages/Nain A", json={"yaml": dying, "version": version})
    mj = enter(browser, site, site.mj)
    choose(mj, "#type", "regle:soin")
    choose(mj, "#role-0", "Nain A")
    mj.fill("#opt-pv", "5")
    mj.click("#jets button[type=submit]")
    expect(mj.locator("#jet-resultat .ok")).to_contain_text("Soin")
    sheet = site.api("GET", "/personnages/Nain A")
    assert sheet["fiche"]["values"]["state"] == "debout"
    mj.context.close()


def test_mj_target_and_message_stay_while_a_player_rolls(browser: Any, site: Site) -> None:
    mj = enter(browser, site, site.mj)
    player = enter(browser, site, site.player)
    mj.goto(f"{site.url}/tables/{site.table}/combat")
    mj.check("#debut input[value='Nain A']")
    mj.check("#debut input[value='Gobelin']")
    mj.click("#debut button[type=submit]")
    expect(mj.locator("#round")).to_have_text("1")
    choose(mj, "#sante-personnage", "Gobelin")
    mj.fill("#sante-valeur", "abc")
    mj.click("#sante button[type=submit]")
    error = mj.locator("#combat-message .erreur")
    expect(error).to_be_visible()
    mj.fill("#sante-valeur", "-3")
    seq = site.api("GET", "/journal")[-1]["seq"]
    choose(player, "#personnage", "Nain A")
    choose(player, "#competence", "hache")
    player.fill("#seuil", "10")
    player.click("#jets button[type=submit]")
    expect(player.locator("#jet-resultat .ok")).to_be_visible()
    expect(mj.locator("#journal li.entree").last).not_to_have_attribute("data-seq", str(seq))
    settled(mj)
    expect(mj.locator("#sante-valeur")).to_have_value("-3")
    expect(mj.locator("#sante-personnage")).to_have_value("Gobelin")
    expect(error).to_be_visible()
    mj.click("#combat-message button.fermer")
    expect(error).to_have_count(0)
    mj.context.close()
    player.context.close()


def test_example_system_in_the_pages(browser: Any, server: str) -> None:
    site = table_of(server, "deuxdes")
    mj = enter(browser, site, site.mj)
    choose(mj, "#personnage", site.player_name)
    choose(mj, "#competence", "adresse")
    expect(mj.locator("#chances .pourcent")).to_contain_text("58,3 %")
    mj.fill("#des", "4, 5")
    mj.click("#jets button[type=submit]")
    expect(mj.locator("#jet-resultat .ok")).to_be_visible()
    mj.goto(f"{site.url}/tables/{site.table}/combat")
    mj.check(f"#debut input[value='{site.player_name}']")
    mj.check("#debut input[value='Adversaire']")
    mj.click("#debut button[type=submit]")
    expect(mj.locator("#round")).to_have_text("1")
    choose(mj, "#attaquant", site.player_name)
    choose(mj, "#defenseur", "Adversaire")
    expect(mj.locator("#attaque-chances .pourcent")).to_contain_text("58,3 %")
    mj.fill("#attaque-des", "6, 3, 4")
    mj.check("#derogation")  # it is Adversaire's turn: the MJ overrides the turn rule (issue 17)
    mj.click("#attaque button[type=submit]")
    row = mj.locator("#combat tr[data-nom='Adversaire'] .pv-texte")
    expect(row).to_have_text("PV 2/10")
    mj.click("#annuler")
    expect(row).to_have_text("PV 10/10")
    mj.context.close()
