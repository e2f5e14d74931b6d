"""`jdr demo cyd`: a short scene in the Wasteland. The document has no example character: the
Rôdeuse is the sheet example (SHEETS.md), the Pillard her opponent; the crate to jump over is
the document's own "Facile 5" example (E003.01)."""

from __future__ import annotations

from typing import Any

from jdr.core.results import Line, Report, Result
from jdr.dice.source import DiceSource
from jdr.systems.cyd import tables
from jdr.systems.cyd.capacite import capacity, make_check
from jdr.systems.cyd.checks import Plan
from jdr.systems.cyd.odds import die_odds
from jdr.systems.cyd.opposition import opponent_capacity, roll_contest
from jdr.systems.cyd.sheet import CydSheet

RODEUSE: dict[str, Any] = {
    "systeme": "cyd", "nom": "Rôdeuse",
    "attributs": {"adresse": 5, "clairvoyance": 4, "presence": 3, "puissance": 6, "trempe": 5},
    "competences": {"tir": 3, "athletisme": 2, "discretion": 0},
    "attribut_usuel": {"tir": "adresse", "athletisme": "puissance", "discretion": "adresse"},
    "secondaires": {"defense": 10, "sante": {"max": 20, "actuels": 20}, "psyche": 10,
                    "vitesse": 8},
    "predilections": {"tir": "disponible"},
}
PILLARD: dict[str, Any] = {
    "systeme": "cyd", "nom": "Pillard",
    "attributs": {"adresse": 4, "clairvoyance": 5, "presence": 2, "puissance": 6, "trempe": 4},
    "competences": {"vigilance": 3, "bagarre": 4},
    "attribut_usuel": {"vigilance": "clairvoyance", "bagarre": "puissance"},
}


def demo(source: DiceSource) -> Result:
    """The crate (d10, Facile 5), the sneaking past the Pillard (opposed, d10 each), the odds of
    a difficult shot with either die, then the shot itself, risked on the d20."""
    rodeuse = CydSheet.model_validate(RODEUSE)
    pillard = CydSheet.model_validate(PILLARD)
    ladder = tables.LADDER
    jump = make_check(capacity(rodeuse, "athletisme", None), "d10", (), ladder["facile"])
    sneak = capacity(rodeuse, "discretion", None)
    watch, _ = opponent_capacity(pillard, "vigilance", None, sneak.attribute)
    shot_cap = capacity(rodeuse, "tir", None)
    shot_plans = [Plan(make_check(shot_cap, die, (), ladder["difficile"]), die, shot_cap)
                  for die in tables.DICE]
    parts: tuple[Result, ...] = (
        jump.roll(source),
        roll_contest(make_check(sneak, "d10", (), None), make_check(watch, "d10", (), None), source),
        Report("Le tir : d10 prudent ou d20 risqué ?", tuple(die_odds(p) for p in shot_plans)),
        shot_plans[1].check.roll(source),
    )
    notes = (
        Line("sauter par-dessus une petite caisse : Facile, seuil 5", "E003.01"),
        Line("se faufiler : Adresse + discrétion (à 0 : −3) contre Clairvoyance + vigilance",
             "R003.13"),
        Line("le tir : Adresse + tir / Difficile (15), la Rôdeuse prend le risque du d20",
             "R003.05"),
    )
    return Report("Démonstration CYD : une Rôdeuse dans le Wasteland", parts, notes, "R003.05")
