"""Cydonia, progression as `jdr regle` actions (RULES.md 1.4): reputation points and levels,
buying mana and a companion's stats with XP, and the end-of-scenario awards."""

from __future__ import annotations

from jdr.core.messages import Ref, say
from jdr.core.results import Line, Notes, Purchase
from jdr.core.system import Outcome, RuleRequest, SheetChange
from jdr.core.threshold import require_known
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.config import option
from jdr.systems.cydonia.progression import (
    bounty,
    gain_reputation,
    points_needed,
    reputation_bonus,
    reputation_title,
    scenario_awards,
    spend,
)
from jdr.systems.cydonia.rulekit import Update, cast, character, required_int, required_text, sheet_changes
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import (
    COMMON_AWARDS,
    HIT_POINTS_PER_XP,
    INDIVIDUAL_AWARDS,
    XP_SERVANT_STAT,
)

Request = RuleRequest[CydoniaSheet]

# ------------------------------------------------------------------ réputation (R000.48–R000.50)

REPUTATION = "reputation PERSONNAGE --opt points=N"


def _reputation(c: Character, delta: int) -> tuple[tuple[Update, ...], tuple[Line, ...]]:
    """R000.50, A000.32: signed points add up; reaching a level (|T| points toward it) resets them."""
    level, points = int(c.sheet.reputation.niveau), int(c.sheet.reputation.points)
    new_level, new_points = gain_reputation(level, points, delta)
    lines = [
        Line(f"{delta:+d} point(s) de réputation : niveau {level:+d} « {reputation_title(level)} » "
             f"→ {new_level:+d} « {reputation_title(new_level)} »", "R000.48, R000.50"),
        Line(f"points accumulés {points:+d} → {new_points:+d}"
             + (" (remis à 0 au changement de niveau)" if new_level != level else ""), "A000.32"),
        Line(f"prochain niveau : {points_needed(new_level, 1)} point(s) vers {new_level + 1:+d}, "
             f"−{points_needed(new_level, -1)} vers {new_level - 1:+d}", "R000.50, A000.32"),
        Line(f"bonus sur un jet de Charisme joué avec elle : +{reputation_bonus(new_level)} "
             "(option « Jouer sa réputation » du test)", "R000.49"),
    ]
    if bounty(new_level):
        lines.append(Line(f"prime sur sa tête : {bounty(new_level)} Po", "R000.48"))
    updates = ((("reputation", "niveau"), new_level), (("reputation", "points"), new_points))
    return updates, tuple(lines)


def reputation(request: Request) -> Outcome:
    (sheet,) = cast(request, REPUTATION, 1)
    c = character(sheet)
    delta = required_int(request.options, "points", REPUTATION,
                         "les points de réputation gagnés (+) ou perdus (−)")
    if delta == 0:
        raise RuleError(say(request.options.ref("points", "0"), " : rien ne change (R000.50)"))
    updates, lines = _reputation(c, delta)
    return Outcome(Notes(f"Réputation : {c.name}", lines, "R000.50"),
                   sheet_changes(sheet.doc, updates))


# ------------------------------------------------------------------ achats d'XP (R000.45)

MANA = "xp_mana PERSONNAGE"
COMPANION = "xp_compagnon PERSONNAGE --opt compagnon=NOM --opt stat=NOM"


def buy_mana(request: Request) -> Outcome:
    """R000.45: +3 mana for 1 XP (the maximum and the current value)."""
    (sheet,) = cast(request, MANA, 1)
    c = character(sheet)
    mana = c.sheet.mana
    top, now = (int(mana.max), int(mana.actuels)) if mana is not None else (0, 0)
    bought = spend(c.name, "pv", "Mana max", top, int(c.sheet.xp))
    doc = sheet.doc
    changes = (SheetChange(doc, ("mana", "max"), bought.after),
               SheetChange(doc, ("mana", "actuels"), now + HIT_POINTS_PER_XP),
               SheetChange(doc, ("xp",), bought.xp_after))
    return Outcome(bought, changes)


def buy_companion_stat(request: Request) -> Outcome:
    """R000.45: an animal's or servant's stat +1 for 2 XP; companions and their stats are the
    MJ's data on the owner's sheet (`compagnons`), no cap is given (0–100 accepted)."""
    (sheet,) = cast(request, COMPANION, 1)
    c = character(sheet)
    if not c.sheet.compagnons:
        raise RuleError(f"{c.name} n'a aucun compagnon sur sa fiche (compagnons: {{loup: {{stats: "
                        "{physique: 4}}}}) ; leurs stats sont des données du MJ (R000.45)")
    name = require_known(required_text(request.options, "compagnon", COMPANION, "le compagnon"),
                         c.sheet.compagnons, "compagnon")
    stats = c.sheet.compagnons[name].stats
    stat = require_known(required_text(request.options, "stat", COMPANION, "la stat à monter"),
                         stats, "stat")
    xp, before = int(c.sheet.xp), int(stats[stat])
    if xp < XP_SERVANT_STAT:
        raise RuleError(f"{name} : {stat} +1 coûte {XP_SERVANT_STAT} XP, {c.name} n'en a que {xp} "
                        "(R000.45)")
    bought = Purchase(c.name, f"{name} : {stat}", before, before + 1, XP_SERVANT_STAT, xp,
                      xp - XP_SERVANT_STAT, rule="R000.45")
    changes = (SheetChange(sheet.doc, ("compagnons", name, "stats", stat), before + 1),
               SheetChange(sheet.doc, ("xp",), bought.xp_after))
    return Outcome(bought, changes)


# ------------------------------------------------------------------ récompenses (R000.46, R000.47)

AWARDS = "recompenses PERSONNAGE --opt participation=oui …"
LABELS = {
    "participation": "participation au scénario entier", "reussite": "réussite du scénario",
    "amelioration_shira": "amélioration Shira", "respect_du_kei": "respect du Kei",
    "meilleure_idee": "meilleure idée", "meilleure_action": "meilleure action",
    "meilleur_combattant": "meilleur combattant", "meilleur_roleplay": "meilleur rôleplay",
    "meilleure_punchline": "meilleure punchline", "plus_gros_poissard": "plus gros poissard",
}
EVENTS = (("participation", "participation"), ("reussite", "reussite"),
          ("shira", "amelioration_shira"), ("kei", "respect_du_kei"))


def _individual(text: str | None) -> list[tuple[str, str]]:
    """`meilleure_idee:pa, plus_gros_poissard` → [(award, "pa"), (award, "xp")]."""
    out: list[tuple[str, str]] = []
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, _, taken = item.partition(":")
        key = normalize(name)
        if key not in INDIVIDUAL_AWARDS:
            raise RuleError(say(option("individuelles"), " : " + unknown_name_message(
                "récompense", name.strip(), INDIVIDUAL_AWARDS)))
        kind = normalize(taken) or "xp"
        if kind not in ("xp", "pa"):
            raise RuleError(say(option("individuelles"), f" : « {key}:{taken.strip()} » — xp ou pa"))
        out.append((key, kind))
    return out


def _award_lines(events: list[str], individual: list[tuple[str, str]], shaman: bool) -> list[Line]:
    lines = []
    for event in events:
        xp, pa, shira = COMMON_AWARDS[event]
        if event == "respect_du_kei" and shaman:
            xp, pa, shira = 0, 1, 0
        lines.append(Line(f"{LABELS[event]} : {xp} XP, {pa} PA, {shira} XP Shira",
                          "R000.46"))
    for award, kind in individual:
        gain = INDIVIDUAL_AWARDS[award][0 if kind == "xp" else 1]
        lines.append(Line(f"{LABELS[award]} : +{gain} {kind.upper()}", "R000.47"))
    return lines


def awards(request: Request) -> Outcome:
    """R000.46, R000.47, R000.50: the scenario's awards written to the sheet."""
    (sheet,) = cast(request, AWARDS, 1)
    c, o = character(sheet), request.options
    events = [event for flag, event in EVENTS if o.flag(flag)]
    individual, shaman = _individual(o.text("individuelles")), o.flag("shaman")
    delta = o.int("reputation", 0) or 0
    if not events and not individual and not delta:
        raise RuleError(Ref("aucune récompense : --opt participation=oui, reussite=oui, shira=oui, "
                            "kei=oui, individuelles=…, reputation=N (R000.46, R000.47)",
                            "aucune récompense : choisissez au moins une récompense parmi les "
                            "options de la règle (R000.46, R000.47)"))
    got = scenario_awards(events, individual, shaman)
    lines = _award_lines(events, individual, shaman)
    updates: list[Update] = _totals(c, got.xp, got.pa, got.shira, lines)
    if delta:
        more, said = _reputation(c, delta)
        updates += more
        lines += said
    return Outcome(Notes(f"Récompenses : {c.name}", tuple(lines), "R000.46"),
                   sheet_changes(sheet.doc, updates))


def _totals(c: Character, xp: int, pa: int, shira: int, lines: list[Line]) -> list[Update]:
    s = c.sheet
    lines.append(Line(f"XP {s.xp} → {s.xp + xp}, PA {s.pa} → {s.pa + pa}, XP Shira "
                      f"{s.xp_shira} → {s.xp_shira + shira}", "R000.44"))
    pairs = ((("xp",), s.xp, xp), (("pa",), s.pa, pa), (("xp_shira",), s.xp_shira, shira))
    return [(path, int(before) + gain) for path, before, gain in pairs if gain]

