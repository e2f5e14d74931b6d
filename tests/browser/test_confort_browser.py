"""Comfort and French in a real Chromium (issue 17.5, 17.7, 17.8): a character with `genre: f`,
« tour d'Orque 3 », WCAG AA contrast of every text in both themes, « Mes tables », a new MJ
link (the old one refused). Screenshots of the table page, light and dark, 375 and 1280 px."""

from __future__ import annotations

from typing import Any

from browser_support import ARTIFACTS, Site, enter, grown, new_site
from playwright.sync_api import expect
from web_support import GOBELIN_YAML, http

SHOTS = ARTIFACTS
ORQUE = GOBELIN_YAML.replace("nom: Gobelin", "nom: Orque 3")
CAMILLE = GOBELIN_YAML.replace("nom: Gobelin", "nom: Camille\ngenre: f").replace(
    "pv: 12", "pv: 12\netat: {assomme: 12}")

# Every element that shows text: its colour against the first opaque background behind it.
CONTRAST = """() => {
  function rgb(s) { const m = s.match(/[\\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2],
                    a: m.length > 3 ? m[3] : 1}; }
  function lum(c) { const f = v => { v /= 255;
                                     return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
                    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); }
  function background(el) {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.a > 0.5) { return c; }
    }
    return rgb(getComputedStyle(document.documentElement).backgroundColor || 'rgb(255,255,255)');
  }
  const bad = [];
  let seen = 0;
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const style = getComputedStyle(el);
    const shown = el.offsetParent !== null || style.position === 'fixed';
    if (!own || style.visibility === 'hidden' || !shown) continue;
    seen += 1;
    const fg = rgb(style.color), bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const what = `${el.tagName}.${el.className} « ${el.textContent.trim().slice(0, 30)} »`;
    if (ratio < 4.5) bad.push(`${what} ${ratio.toFixed(2)}`);
  }
  return {seen, bad};
}"""


def _site_with_camille(server: str) -> Site:
    site = new_site(server)
    site.api("POST", "/personnages", json={"yaml": ORQUE})
    site.api("POST", "/personnages", json={"yaml": CAMILLE})
    return site


def _measure(page: Any, where: str) -> None:
    found = page.evaluate(CONTRAST)
    assert found["seen"] > 10, where
    assert not found["bad"], f"{where} : contraste < 4,5:1 : {found['bad']}"


def test_genre_elision_contrast_and_screenshots(browser: Any, server: str) -> None:
    site = _site_with_camille(server)
    mj = enter(browser, site, site.mj)
    mj.goto(f"{site.url}/tables/{site.table}/combat")
    mj.check("#debut input[value='Orque 3']")
    mj.check("#debut input[value='Camille']")
    mj.click("#debut button[type=submit]")
    row = mj.locator("#combat tr[data-nom='Camille']")
    expect(row.locator(".etat")).to_have_text("assommée")
    if mj.locator("#courant").inner_text() != "Orque 3":
        mj.click("#suivant")
    expect(mj.locator("#courant")).to_have_text("Orque 3")
    expect(mj.locator("#combat .round")).to_contain_text("tour d'Orque 3")
    expect(mj.locator(".raccourcis")).to_contain_text("tour suivant")
    seq = site.api("GET", "/journal")[-1]["seq"]
    mj.keyboard.press("n")  # the MJ's shortcut: next turn (Camille's, lost: she is knocked out)
    grown(site, seq)  # the key played the next turn; whose it is now, the server says:
    # Orque 3 (Camille's turn lost), or Camille's waking roll when she won the initiative tie
    now = site.api("GET", "/journal")[-1]["result"]["current"]
    expect(mj.locator("#courant")).to_have_text(now)
    _measure(mj, "combat, thème clair")
    mj.goto(f"{site.url}/tables/{site.table}")
    entry = mj.locator("#journal li.entree", has_text="elle perd ce tour").last
    expect(entry).to_contain_text("Camille est assommée : elle perd ce tour")
    expect(entry.locator("button[data-copier]")).to_have_count(2)
    mj.select_option("#type", "roll")  # the roll box: free notation
    expect(mj.locator("#expression")).to_be_visible()
    mj.fill("#expression", "4d6kh3")
    mj.fill("#des", "2, 4, 3, 4")
    mj.click("#jets button[type=submit]")
    expect(mj.locator("#jet-resultat .ok")).to_be_visible()
    last = mj.locator("#journal li.entree", has_text="4d6kh3").last
    expect(last.locator(".de.ecarte").first).to_have_attribute("title", "d6 (écarté)")
    expect(last.locator(".texte")).not_to_contain_text("~")
    expect(mj.locator("#jet-resultat")).not_to_contain_text("~")
    mj.locator("details.aide-notation summary").click()
    expect(mj.locator("details.aide-notation")).to_contain_text("4d6kh3")
    expert = {"type": "check", "params": {"personnage": "Nain A", "competence": "negociation",
                                          "seuil": "10"}, "des": [3, 8]}
    waiting = http().post(f"{site.url}/api/tables/{site.table}/actions", json=expert, timeout=10,
                          headers={"Authorization": f"Bearer {site.player}"})
    assert waiting.status_code == 202, waiting.text  # Lise's roll waits for her choice
    expect(mj.locator("#avis .attente")).to_contain_text("Garder le dé 1 (3)")  # the MJ's too
    SHOTS.mkdir(parents=True, exist_ok=True)
    _measure(mj, "table, thème clair")
    mj.screenshot(path=str(SHOTS / "i17-french-table-clair-1280.png"), full_page=True)
    mj.click("#theme")  # the switch, remembered in this browser
    assert mj.evaluate("document.documentElement.dataset.theme") == "sombre"
    _measure(mj, "table, thème sombre")
    mj.screenshot(path=str(SHOTS / "i17-french-table-sombre-1280.png"), full_page=True)
    mj.goto(f"{site.url}/tables/{site.table}/combat")
    assert mj.evaluate("document.documentElement.dataset.theme") == "sombre"
    _measure(mj, "combat, thème sombre")
    mj.context.close()
    for scheme in ("light", "dark"):  # the system's setting, no choice made
        context = browser.new_context(viewport={"width": 375, "height": 800}, locale="fr-FR",
                                      color_scheme=scheme)
        page = context.new_page()
        page.goto(site.link(site.player))
        page.wait_for_url(f"{site.url}/tables/{site.table}")
        _measure(page, f"table à 375 px, {scheme}")
        name = "clair" if scheme == "light" else "sombre"
        page.screenshot(path=str(SHOTS / f"i17-french-table-{name}-375.png"), full_page=True)
        context.close()


def test_my_tables_and_new_mj_link(browser: Any, server: str) -> None:
    first, second = new_site(server), new_site(server)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = context.new_page()
    for site, token in ((first, first.mj), (second, second.player)):
        page.goto(site.link(token))
        page.wait_for_url(f"{site.url}/tables/{site.table}")
    page.goto(f"{first.url}/")
    tables = page.locator("#mes-tables li")
    expect(tables).to_have_count(2)
    expect(tables.nth(0)).to_contain_text("joueur · Cydonia ·")  # the game's name, not its id
    expect(tables.nth(1)).to_contain_text("mj")
    tables.nth(1).locator("a").click()
    page.wait_for_url(f"{first.url}/tables/{first.table}")
    page.goto(f"{first.url}/tables/{first.table}/membres")
    page.once("dialog", lambda d: d.accept())
    page.click("#lien-mj button")
    link = page.locator("#nouveau-lien").input_value()
    assert f"/table/{first.table}#jeton=" in link
    new = link.split("#jeton=")[1]
    old = http().get(f"{first.url}/api/tables/{first.table}/journal",
                     headers={"Authorization": f"Bearer {first.mj}"}, timeout=10)
    assert old.status_code == 401
    fresh = http().get(f"{first.url}/api/tables/{first.table}/journal",
                       headers={"Authorization": f"Bearer {new}"}, timeout=10)
    assert fresh.status_code == 200
    page.goto(f"{first.url}/tables/{first.table}")  # this browser stays in, with the new token
    expect(page.locator(".bandeau .moi")).to_contain_text("MJ")
    assert page.locator(".bandeau .moi").inner_text().count("MJ") == 1  # named MJ: said once
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.click(".bandeau .moi a")  # « sortir » asks first: dismissed, nothing happens
    expect(page).to_have_url(f"{first.url}/tables/{first.table}")
    assert asked and "rouvrez votre lien d'invitation" in asked[0]
    context.close()
