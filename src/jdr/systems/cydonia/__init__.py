"""Cydonia (seed 000, RULES.md section 1): Caractéristique + Compétence + 1D10.

Chapters: `checks` (resolution), `combat`, `progression`, `adventure` (other rules),
`tables` (rule tables and configuration), `sheet` (the sheet model).

`--opt` keys read by `jdr attack`: monte, defenseur_monte, immateriel, zone, morsure, letal
(oui/non) and concentration (jet/degats).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.core.sheet import SheetDocument, validate
from jdr.core.system import AttackRequest, CheckRequest, GameSystem, SheetChange, XpRequest
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message


@dataclass(frozen=True)
class SheetView:
    name: str
    rows: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "derived": dict(self.rows)}

    def render(self) -> str:
        width = max(len(k) for k, _ in self.rows)
        return "\n".join([f"Fiche Cydonia : {self.name}"] +
                         [f"  {k:<{width}}  {v}" for k, v in self.rows])


class Cydonia(GameSystem):
    id = "cydonia"
    title = "Cydonia : caractéristique + compétence + 1d10"
    seed = "000_e0f8dc4d415613aa.txt"

    def template(self) -> str:
        from jdr.systems.cydonia.sheet import TEMPLATE

        return TEMPLATE

    def load(self, doc: SheetDocument) -> Any:
        from jdr.systems.cydonia.sheet import CydoniaSheet

        return validate(CydoniaSheet, doc)

    def character(self, doc: SheetDocument) -> Any:
        from jdr.systems.cydonia.checks import Character

        return Character(self.load(doc))

    def show(self, doc: SheetDocument) -> SheetView:
        from jdr.systems.cydonia.adventure import carrying_left
        from jdr.systems.cydonia.progression import reputation_bonus, reputation_title
        from jdr.systems.cydonia.tables import CHARACTERISTICS

        c = self.character(doc)
        s = c.sheet
        rows = [(label, str(c.characteristic(key))) for key, label in CHARACTERISTICS.items()]
        rows += [(k.replace("_", " "), str(c.skill(k)) + (" (experte)" if c.is_expert(k) else ""))
                 for k in s.competences]
        small, large = carrying_left(c.characteristic("physique"), 0, 0)
        phy = c.characteristic("physique")
        rows += [
            ("Résistance Physique", f"{c.characteristic('courage') + phy} + 1d10 (R000.07)"),
            ("Résistance Mentale",
             f"{c.characteristic('courage') + c.characteristic('mental')} + 1d10 (R000.07)"),
            ("Initiative", f"{c.characteristic('agilite') + c.characteristic('sensoriel')} (R000.21)"),
            ("Portance", f"{5 * phy} petits objets ou {phy} gros (R000.51)"),
            ("PV", f"{s.pv.actuels}/{s.pv.max}"),
            ("Réputation", f"{s.reputation.niveau:+d} {reputation_title(s.reputation.niveau)} "
                           f"(bonus {reputation_bonus(s.reputation.niveau)}, R000.49)"),
            ("XP", str(s.xp)),
            ("État", "mort" if s.etat.mort else "mourant" if s.etat.mourant else
             "assommé" if s.etat.assomme else "debout"),
        ]
        del small, large
        return SheetView(s.nom, tuple(rows))

    def _check(self, request: CheckRequest) -> Any:
        from jdr.core.check import Opposed
        from jdr.systems.cydonia.checks import skill_check, threshold_value

        actor = self.character(request.sheet)
        if request.die is not None:
            raise RuleError("--de : Cydonia lance toujours 1d10 (2d10 pour une compétence experte)")
        if request.options:
            raise RuleError("jdr check (cydonia) ne prend pas d'option --opt")
        threshold = threshold_value(request.threshold)
        check = skill_check(actor, request.skill, carac=request.carac, threshold=threshold,
                            bonus=request.bonus, choice=request.choice)
        if request.opponent is None:
            return check
        other = self.character(request.opponent)
        assert request.opponent_skill is not None
        return Opposed(check, skill_check(other, request.opponent_skill), rule="R000.15")

    def check(self, request: CheckRequest, source: DiceSource) -> Any:
        return self._check(request).roll(source)

    def odds(self, request: CheckRequest) -> Any:
        return self._check(request).odds()

    def attack(self, request: AttackRequest, source: DiceSource) -> tuple[Any, list[SheetChange]]:
        from jdr.systems.cydonia.combat import attack, options_from

        if request.critical or request.full:
            raise RuleError("--critique et --complete n'existent pas en Cydonia")
        opts = options_from(request.defence, request.aimed, request.weapon, request.options)
        result = attack(self.character(request.attacker), self.character(request.defender),
                        opts, source)
        changes: list[SheetChange] = []
        ch = result.changes
        if "attacker_concentration" in ch:
            changes.append(SheetChange(request.attacker, ("etat", "concentration"), 0))
        if "defender_concentration" in ch:
            changes.append(SheetChange(request.defender, ("etat", "concentration"), 0))
        if result.hit:
            changes.append(SheetChange(request.defender, ("pv",), ch["pv"], pool=True))
            changes.append(SheetChange(request.defender, ("etat", "mourant"), ch["mourant"]))
            changes.append(SheetChange(request.defender, ("etat", "mort"), ch["mort"]))
            if "assomme" in ch:
                changes.append(SheetChange(request.defender, ("etat", "assomme"), ch["assomme"]))
        return result, changes

    def xp(self, request: XpRequest) -> tuple[Any, list[SheetChange]]:
        from jdr.systems.cydonia.progression import spend
        from jdr.systems.cydonia.tables import ABBREVIATIONS, CHARACTERISTICS, SKILL_ALIASES, SKILLS

        sheet = self.load(request.sheet)
        doc = request.sheet
        if request.options:
            raise RuleError("jdr xp (cydonia) ne prend pas d'option --opt")
        if request.hit_points:
            result = spend(sheet.nom, "pv", "PV max", sheet.pv.max, sheet.xp)
            changes = [SheetChange(doc, ("pv", "max"), result.after),
                       SheetChange(doc, ("pv", "actuels"), sheet.pv.actuels + 3)]
        elif request.carac:
            key = ABBREVIATIONS.get(normalize(request.carac), normalize(request.carac))
            if key not in CHARACTERISTICS:
                raise RuleError(unknown_name_message("caractéristique", request.carac,
                                                     CHARACTERISTICS))
            result = spend(sheet.nom, "carac", CHARACTERISTICS[key],
                           sheet.caracteristiques[key], sheet.xp)
            changes = [SheetChange(doc, ("caracteristiques", key), result.after)]
        else:
            assert request.skill is not None
            key = SKILL_ALIASES.get(normalize(request.skill), normalize(request.skill))
            if key not in SKILLS and key not in sheet.competences_libres:
                raise RuleError(unknown_name_message("compétence", request.skill,
                                                     [*SKILLS, *sheet.competences_libres]))
            result = spend(sheet.nom, "competence", key.replace("_", " "),
                           sheet.competences.get(key, 0), sheet.xp)
            changes = [SheetChange(doc, ("competences", key), result.after)]
        changes.append(SheetChange(doc, ("xp",), result.remaining))
        return result, changes

    def initiative(self, docs: list[SheetDocument], source: DiceSource) -> Any:
        from jdr.systems.cydonia.combat import initiative

        return initiative([self.character(d) for d in docs], source)


SYSTEM = Cydonia()
