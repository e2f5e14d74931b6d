"""The seed's duel, Nain A against Elfe B, played round after round until one is dying or dead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.dice.source import DiceSource
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.combat import AttackOptions, AttackResult, attack, initiative
from jdr.systems.cydonia.sheet import CydoniaSheet

NAIN_A: dict[str, Any] = {
    "systeme": "cydonia", "nom": "Nain A", "peuple": "nain",
    "caracteristiques": {"physique": 7, "agilite": 4, "dexterite": 4, "sensoriel": 3,
                         "courage": 5, "charisme": 2, "mental": 1, "chance": 3},
    "competences": {"hache": 6, "esquive": 2, "negociation": 3},
    "expertes": ["negociation"], "pv": 30,
    "armes": [{"nom": "Hache de bûcheron", "competence": "hache", "degats": "PHY+3+1d10",
               "equipee": "principale"}],
    "protections": {"torse": 3},
}
ELFE_B: dict[str, Any] = {
    "systeme": "cydonia", "nom": "Elfe B", "peuple": "elfe",
    "caracteristiques": {"physique": 5, "agilite": 4, "dexterite": 6, "sensoriel": 5,
                         "courage": 4, "charisme": 4, "mental": 4, "chance": 4},
    "competences": {"lame": 5, "esquive": 5, "observation": 4},
    "pv": 25,
    "armes": [{"nom": "Épée longue", "competence": "lame", "degats": "2+1d10",
               "equipee": "principale"}],
    "protections": {"toutes": 3},
}


@dataclass(frozen=True)
class DemoResult:
    rounds: tuple[tuple[int, tuple[AttackResult, ...]], ...]
    order: tuple[str, ...]
    outcome: str

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "outcome": self.outcome,
                "rounds": [{"round": n, "attacks": [a.to_json() for a in attacks]}
                           for n, attacks in self.rounds]}

    def render(self) -> str:
        lines = ["Duel : Nain A (hache de bûcheron) contre Elfe B (épée longue)",
                 "Initiative : " + " puis ".join(self.order)]
        for n, attacks in self.rounds:
            lines.append(f"\n— Tour {n} —")
            lines.extend(a.render() for a in attacks)
        lines.append("\n" + self.outcome)
        return "\n".join(lines)


def _with(sheet: CydoniaSheet, hp: int, dying: bool, dead: bool) -> CydoniaSheet:
    etat = sheet.etat.model_copy(update={"mourant": dying, "mort": dead})
    pv = sheet.pv.model_copy(update={"actuels": hp})
    return sheet.model_copy(update={"pv": pv, "etat": etat})


def duel_demo(source: DiceSource, max_rounds: int = 50) -> DemoResult:
    """Round after round (R000.21–R000.34) until one fighter is dying or dead."""
    fighters = {d["nom"]: Character(CydoniaSheet.model_validate(d)) for d in (NAIN_A, ELFE_B)}
    order = [e.name for e in initiative(list(fighters.values()), source).order]
    rounds = []
    for n in range(1, max_rounds + 1):
        attacks = []
        for name in order:
            target = next(k for k in order if k != name)
            result = attack(fighters[name], fighters[target], AttackOptions(), source)
            attacks.append(result)
            if result.hit:
                ch = result.changes
                fighters[target] = Character(
                    _with(fighters[target].sheet, ch["pv"], ch["mourant"], ch["mort"]))
            if result.state in ("mort", "mourant"):
                rounds.append((n, tuple(attacks)))
                verdict = "est mort" if result.state == "mort" else "est mourant (R000.34)"
                return DemoResult(tuple(rounds), tuple(order),
                                  f"{target} {verdict} ; {name} l'emporte au tour {n}.")
        rounds.append((n, tuple(attacks)))
    return DemoResult(tuple(rounds), tuple(order), f"Aucun vainqueur après {max_rounds} tours.")
