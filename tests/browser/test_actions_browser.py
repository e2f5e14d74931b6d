"""Every action the declarations give, played through the pages of each system (the example
system included); a dying Cydonia character saved by the rule the system declares; the MJ's
combat form kept while a player rolls; the example system created through the form, then checked
and attacking with its odds, and undone.

Cheap by design: one server, one browser and two pages (the MJ's, a player's) for the module;
each test enters its own table in the same page (a cookie per table). The walk draws no page: from
the MJ's page as it stands, it enters each table, reads its « Action » list, and plays every
declared action in one go, as htmx posts them (same routes, same form token, same origin): no
navigation and no round trip to Python per request, no fixed wait anywhere. The roll box by hand
is played by the other tests here (and per system in test_sheet_form_browser).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browser_support import ARTIFACTS, COUNTER, Site
from playwright.sync_api import expect
from test_pages_browser import choose, settled
from web_support import ELFE_YAML, GOBELIN_YAML, NAIN_YAML

SYSTEMS = ("cydonia", "maitrise", "dd35", "cyd", "felins", "deuxdes")
HARMFUL = ("attack", "duel", "sante")  # played last: a blow may leave someone unable to act


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    """One HTTP client for the module's API calls (one connection pool, one TLS context)."""
    with httpx.Client(timeout=10) as client:
        yield client


def api(http: httpx.Client, site: Site, method: str, path: str, **kw: Any) -> Any:
    """The table's API as its MJ."""
    r = http.request(method, f"{site.url}/api/tables/{site.table}{path}",
                     headers={"Authorization": f"Bearer {site.mj}"}, **kw)
    assert r.status_code < 300, r.text
    return r.json() if "json" in r.headers.get("content-type", "") else r.text


def new_table(http: httpx.Client, url: str, system_id: str, sheets: list[dict[str, Any]],
              player_name: str = "Lise") -> Site:
    """A table of `system_id`, Lise invited as a player, its sheets imported."""
    r = http.post(f"{url}/api/tables", json={"nom": f"Table {system_id} {next(COUNTER)}",
                                             "systeme": system_id})
    assert r.status_code == 201, r.text
    site = Site(url, r.json()["id"], r.json()["jeton"], "", player_name)
    site.player = api(http, site, "POST", "/invitations", json={"role": "joueur", "nom": "Lise"})[
        "jeton"]
    for body in sheets:
        api(http, site, "POST", "/personnages", json=body)
    return site


@pytest.fixture
def site(http: httpx.Client, server: str) -> Site:
    """A Cydonia table: Lise plays Nain A; Elfe B and Gobelin are the MJ's."""
    return new_table(http, server, "cydonia", [{"yaml": NAIN_YAML, "joueur": "Lise"},
                                               {"yaml": ELFE_YAML}, {"yaml": GOBELIN_YAML}])


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    """The MJ's page and a player's, each in its own browser context, for the whole module."""
    out: dict[str, Any] = {}
    for who in ("mj", "joueur"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
        out[who] = context.new_page()
    yield out
    for page in out.values():
        page.context.close()


def enter_table(page: Any, site: Site, token: str, where: str = "") -> Any:
    """The page's browser enters `site`'s table as the link's page does (`POST /entrer`: the
    cookie of that table is set), then opens the table's page `where` (the roll box by default).
    Entering by the link itself is tested in test_pages_browser."""
    r = page.request.post(f"{site.url}/entrer", form={"table": str(site.table), "jeton": token},
                          headers={"Origin": site.url})
    assert r.ok and 'class="message ok"' in r.text(), r.text()
    page.goto(f"{site.url}/tables/{site.table}{where}")
    return page


def table_of(http: httpx.Client, url: str, system_id: str) -> Site:
    """A table of `system_id` with two characters from the system's own template."""
    from jdr.core.registry import get_system

    text = get_system(system_id).template()
    name = re.search(r"^nom: *(.+?) *(#.*)?$", text, re.M)
    assert name is not None
    other = text.replace(f"nom: {name.group(1)}", "nom: Adversaire", 1)
    return new_table(http, url, system_id, [{"yaml": text, "joueur": "Lise"}, {"yaml": other}],
                     name.group(1).strip())


# Entering a table from the page already open (same origin): the link's `POST /entrer` (the
# table's cookie), then the table's page read — not drawn — for its « Action » list and its form
# token.
ENTER = r"""async ([table, token]) => {
  const entered = await fetch('/entrer', {method: 'POST', body: new URLSearchParams(
    [['table', String(table)], ['jeton', token]])});
  const welcome = await entered.text();
  const page = new DOMParser().parseFromString(
    await (await fetch('/tables/' + table)).text(), 'text/html');
  return {welcome: welcome,
          types: [...page.querySelectorAll('#type option')].map(o => o.value),
          csrf: page.querySelector('meta[name="jdr-csrf"]').content};
}"""

# Every action of the table, from that page: its form asked (`/f/formulaire`, as the « Action »
# list does) with the acting character and the target already chosen (`who`: the first and the
# last of the lists, so that the lists depending on them come filled), filled as a hurried player
# would — the first choice of every list (the last for a target), the first two boxes of a group,
# `1` in a required field (`-1` for a value, `1d6` for dice) —, its exact odds asked for an attack
# (`/f/chances`, as the combat panel does first), then played (`/f/jet`), each request as htmx
# sends it (the form token in its header, same origin).
PLAY_ALL = r"""async ([table, csrf, kinds, withOdds, who]) => {
  const base = '/tables/' + table;
  const post = async (path, pairs) => {
    const r = await fetch(base + path, {method: 'POST', headers: {'X-JDR-CSRF': csrf},
                                        body: new URLSearchParams(pairs)});
    return [r.status, await r.text()];
  };
  const filled = (html) => {
    const doc = new DOMParser().parseFromString('<div>' + html + '</div>', 'text/html');
    const form = new Map();
    for (const s of doc.querySelectorAll('select[id][name]')) {
      if (s.name.startsWith('opt.')) continue;  // the system's options keep their defaults
      const values = [...s.options].map(o => o.value).filter(v => v);
      const chosen = [...s.options].find(o => o.hasAttribute('selected'));
      const other = s.name === 'defenseur' || (s.name.startsWith('role.') && s.name !== 'role.0');
      if (chosen) form.set(s.name, [chosen.value]);
      else if (values.length) form.set(s.name, [values[other ? values.length - 1 : 0]]);
    }
    for (const c of doc.querySelectorAll('input[type=checkbox][name]:not([id])')) {
      const list = form.get(c.name) || [];
      if (list.length < 2) list.push(c.value);
      form.set(c.name, list);
    }
    for (const i of doc.querySelectorAll('input[id][name][required]')) {
      form.set(i.name, [i.name === 'valeur' ? '-1' : i.name === 'expression' ? '1d6' : '1']);
    }
    return form;
  };
  const pairs = (kind, form) => [['type', kind],
    ...[...form].flatMap(([name, values]) => values.map(v => [name, v]))];
  const out = [];
  for (const kind of kinds) {
    const form = filled((await post('/f/formulaire', [['type', kind], ...who]))[1]);
    const chosen = pairs(kind, form);
    const odds = withOdds.includes(kind) ? (await post('/f/chances', chosen))[1] : null;
    // a hurried MJ takes the defaults after the dice (the wait for a player's choice is walked
    // in test_table_talk_browser)
    const [status, text] = await post('/f/jet', [...chosen, ['choix', 'defaut']]);
    out.push([kind, status, text, odds]);
  }
  return out;
}"""


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_declared_action_through_the_pages(pages: dict[str, Any], http: httpx.Client,
                                                 server: str, system_id: str) -> None:
    """One table per system, entered and played from the MJ's page as it stands (no page drawn
    for it): the « Action » list offers every rule the system declares, and every action of the
    list is played once; an attack shows its exact odds first, in every system that attacks."""
    site = table_of(http, server, system_id)
    mj = pages["mj"]
    if not mj.url.startswith(server):
        mj.goto(f"{server}/")  # any page of the server: the requests are the page's own
    table = mj.evaluate(ENTER, [site.table, site.mj])
    assert 'class="message ok"' in table["welcome"], table["welcome"]
    types = table["types"]
    assert "check" in types and "roll" in types and "sante" in types
    from jdr.core.declare import CORE_KINDS
    from jdr.core.registry import get_system

    declared = {f"regle:{n}" for n in get_system(system_id).actions if n not in CORE_KINDS}
    assert declared == {t for t in types if t.startswith("regle:")}
    order = sorted(types, key=lambda t: t in HARMFUL)
    who = [[name, site.player_name] for name in ("personnage", "attaquant", "role.0")]
    who.append(["defenseur", "Adversaire"])
    results = mj.evaluate(PLAY_ALL, [site.table, table["csrf"], order, ["attack"], who])
    assert [kind for kind, *_ in results] == order
    played = 0
    for kind, status, text, odds in results:
        assert status == 200, (kind, text)
        assert 'class="message' in text, (kind, text)
        played += 'class="message ok"' in text
        if odds is not None:  # an attack: its exact odds first, in every system that attacks
            assert 'class="pourcent"' in odds and "ne prend pas en charge" not in odds, odds
    print(f"{system_id} : {played} actions jouées sur {len(types)} proposées")
    assert played >= len(types) // 3, (system_id, played, len(types))


def test_dying_cydonia_character_saved_by_the_declared_rule(pages: dict[str, Any],
                                                           http: httpx.Client, site: Site) -> None:
    text = api(http, site, "GET", "/personnages/Nain A?format=yaml")
    version = api(http, site, "GET", "/personnages/Nain A")["version"]
    dying = text.replace("pv: {max: 30, actuels: 30}", "pv: {max: 30, actuels: -2}")
    dying += "etat:\n  mourant: true\n"
    api(http, site, "PUT", "/personnages/Nain A", json={"yaml": dying, "version": version})
    mj = enter_table(pages["mj"], site, site.mj)
    choose(mj, "#type", "regle:soin")
    choose(mj, "#role-0", "Nain A")
    mj.fill("#opt-pv", "5")
    mj.click("#jets button[type=submit]")
    expect(mj.locator("#jet-resultat .ok")).to_contain_text("Soin")
    sheet = api(http, site, "GET", "/personnages/Nain A")
    assert sheet["fiche"]["values"]["state"] == "debout"


def test_a_rule_refused_in_the_page_names_the_option_by_its_label(pages: dict[str, Any],
                                                                  site: Site) -> None:
    """A refusal of the rules reads as the form reads: the option's label, never `--opt`."""
    mj = enter_table(pages["mj"], site, site.mj)
    choose(mj, "#type", "regle:charge")
    choose(mj, "#role-0", "Nain A")
    choose(mj, "#role-1", "Gobelin")
    mj.fill("#opt-course_monture", "500")
    mj.click("#jets button[type=submit]")
    error = mj.locator("#jet-resultat .erreur")
    expect(error).to_contain_text("« Course de la monture » : 500 hors limites")
    expect(error).not_to_contain_text("--opt")
    expect(error).not_to_contain_text("course_monture")


def test_mj_target_and_message_stay_while_a_player_rolls(pages: dict[str, Any], http: httpx.Client,
                                                         site: Site) -> None:
    mj = enter_table(pages["mj"], site, site.mj, "/combat")
    player = enter_table(pages["joueur"], site, site.player)
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
    seq = api(http, site, "GET", "/journal")[-1]["seq"]
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
    # the system's options read in French on a phone, each rule a hint beside its label: the
    # accessible name is the label alone (issue 15, labels)
    mj.set_viewport_size({"width": 375, "height": 800})
    try:
        expect(mj.get_by_label("Défenseur monté", exact=True)).to_be_visible()
        expect(mj.get_by_label("Intention de tuer", exact=True)).to_be_visible()
        hint = mj.locator("#attaque .etiquette", has_text="Défenseur monté").locator(".regle")
        expect(hint).to_have_text("règle R000.38")
        expect(mj.locator("#attaque")).not_to_contain_text("Defenseur monte")
        expect(mj.locator(".nom-table small")).to_have_text("(Cydonia)")
        wide = mj.evaluate("document.documentElement.scrollWidth")
        assert wide <= 376, f"le panneau de combat déborde à 375 px ({wide})"
        mj.locator("#attaque").screenshot(path=str(ARTIFACTS / "combat-labels-375.png"))
    finally:
        mj.set_viewport_size({"width": 1280, "height": 900})


def test_example_system_in_the_pages(pages: dict[str, Any], http: httpx.Client,
                                     server: str) -> None:
    """deuxdes, a system no line of core, cli, web or render was written for: a player creates
    a character through the form on a 375 px phone and checks with its exact odds; the MJ starts
    a fight, attacks with the attack's exact odds, and undoes it."""
    site = table_of(http, server, "deuxdes")
    player = pages["joueur"]
    player.set_viewport_size({"width": 375, "height": 800})
    try:
        enter_table(player, site, site.player, "/nouvelle-fiche")
        expect(player.locator("#fiche-form")).to_be_visible()
        player.fill("#champ-nom", "Brune")
        wide = player.evaluate("document.documentElement.scrollWidth")
        assert wide <= 376, f"le formulaire deuxdes déborde à 375 px ({wide})"
        ARTIFACTS.mkdir(exist_ok=True)
        player.screenshot(path=str(ARTIFACTS / "nouvelle-fiche-deuxdes-375.png"), full_page=True)
        player.click("#fiche-enregistrer")
        player.wait_for_url("**/fiches/Brune")
    finally:
        player.set_viewport_size({"width": 1280, "height": 900})
    assert api(http, site, "GET", "/personnages/Brune")["joueur"] == "Lise"
    player.goto(f"{site.url}/tables/{site.table}")
    choose(player, "#personnage", "Brune")
    choose(player, "#competence", "adresse")
    expect(player.locator("#chances .pourcent")).to_contain_text("58,3 %")  # 2d6 + 1 ≥ 8
    player.fill("#des", "4, 5")
    player.click("#jets button[type=submit]")
    expect(player.locator("#jet-resultat .ok")).to_contain_text("Brune")
    mj = enter_table(pages["mj"], site, site.mj, "/combat")
    mj.check("#debut input[value='Brune']")
    mj.check("#debut input[value='Adversaire']")
    mj.click("#debut button[type=submit]")
    expect(mj.locator("#round")).to_have_text("1")
    # the fight's start comes back live too and may redraw the attack form (whose turn it is):
    # choose in the form drawn last, not in one about to be replaced
    started = api(http, site, "GET", "/journal")[-1]["seq"]
    expect(mj.locator("#journal li.entree").last).to_have_attribute("data-seq", str(started))
    mj.wait_for_function("!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    choose(mj, "#attaquant", "Brune")
    choose(mj, "#defenseur", "Adversaire")
    expect(mj.locator("#attaque-chances .pourcent")).to_contain_text("58,3 %")
    mj.fill("#attaque-des", "6, 3, 4")
    mj.check("#derogation")  # if it is Adversaire's turn, the MJ overrides the turn rule
    mj.click("#attaque button[type=submit]")
    row = mj.locator("#combat tr[data-nom='Adversaire'] .pv-texte")
    expect(row).to_have_text("PV 2/10")
    mj.click("#annuler")
    expect(row).to_have_text("PV 10/10")
