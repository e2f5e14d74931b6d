"""`maitrise`: the d20 Mastery-Rank system (RULES.md section 2, seed 001_13101d48f57b5cde.txt).

One d20; a skill (0..100) succeeds when the natural die reaches its rank's face (10/10/10/8/6/4/2),
20 and the chosen extra faces always succeed, 1 always fails; the margin floor((d20 + level) / 2)
decides contests; characteristic rolls need a margin of 10. Modules read like the rulebook:
`tables` (every table), `sheet` (the sheet), `checks` (resolution), `combat`, `progression`,
`config` (every [Proposed] choice, one dataclass).

Options read (`--opt cle=valeur`):
- attack: `critique_defense=rapidite|appuis|resister|mj` (the defender's critical option,
  R001.19), `arme_defense=NOM` (the weapon that parries; the defender's first one by default),
  `bonus_attaque=N`, `bonus_defense=N` (situational modifiers before halving). The attacker's
  critical option is `--critique rapidite|degats|precision|mj` (R001.18); `--visee ZONE` names
  the spot with "precision"; `--defense parade|esquive|aucune` (parade when the defender has a
  weapon, else esquive). `--complete` has no meaning in this system and is ignored.
- xp: `maitre=oui` (or `professeur=oui`: the teacher needed to cross a tier has been found),
  `mj=oui` (the MJ allows the solitary path to Grand maître), `cout_or=N` (gold the MJ asks for
  it), `face=N` (the extra critical face chosen at 20+ / 100+, 2..19).
- check / odds: none. `--seuil N` is a minimum margin (the system has no named ladder).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.core.check import Check
from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    GameSystem,
    Result,
    SheetChange,
    XpRequest,
)
from jdr.dice.source import DiceSource
from jdr.systems.maitrise import combat, progression
from jdr.systems.maitrise.checks import (
    Contest,
    ContestOdds,
    ContestResult,
    MaitriseCheckResult,
    OddsResult,
    check_request_dice,
    parse_threshold,
    resolve_stat,
    stat_check,
)
from jdr.systems.maitrise.config import DEFAULT, MaitriseConfig
from jdr.systems.maitrise.sheet import TEMPLATE, Character, load_character
from jdr.systems.maitrise.tables import CHARACTERISTICS, modifier

__all__ = ["SYSTEM", "MaitriseSystem"]


@dataclass(frozen=True)
class SheetView:
    """`jdr sheet show`: characteristics with modifiers, skills with their rank."""

    char: Character

    def _caracs(self) -> list[dict[str, Any]]:
        c = self.char
        return [{"key": k, "name": name, "base": c.base[k], "bonus": c.bonus(k),
                 "value": c.characteristic(k), "modifier": modifier(c.characteristic(k)),
                 "critical_faces": sorted(c.critical_faces(k))}
                for k, name in CHARACTERISTICS.items()]

    def _skills(self) -> list[dict[str, Any]]:
        c = self.char
        keys = sorted(set(c.skills) | set(c.weapon_skills))
        out = []
        for k in keys:
            rank = c.rank(k)
            level = c.skill(k)
            out.append({"key": k, "level": level, "rank": rank.name, "rank_key": rank.key,
                        "success_face": rank.success_face, "weapon": c.is_weapon_skill(k),
                        "plus": level >= 100 and bool(c.extra_faces.get(k)),
                        "critical_faces": sorted(c.critical_faces(k))})
        return out

    def to_json(self) -> dict[str, Any]:
        c = self.char
        hp = c.max_hit_points()
        return {
            "system": "maitrise", "name": c.name,
            "characteristics": self._caracs(), "skills": self._skills(),
            "weapons": [{"name": n, "skill": s} for n, s in c.weapons],
            "armour": c.armour,
            "hit_points": None if hp is None else {"max": hp[0], "current": hp[1]},
            "xp": c.xp, "gold": c.gold,
        }

    def render(self) -> str:
        c = self.char
        lines = [f"{c.name} (maitrise)", "Caractéristiques :"]
        for e in self._caracs():
            bonus = f" (dont +{e['bonus']} de maîtrise)" if e["bonus"] else ""
            plus = "+" if len(e["critical_faces"]) > 1 else ""
            faces = (f", critiques sur {', '.join(map(str, e['critical_faces']))}"
                     if len(e["critical_faces"]) > 1 else "")
            lines.append(f"  {e['name']:<13} {e['value']:>3}{plus}  mod {e['modifier']:+d}"
                         f"{bonus}{faces}")
        lines.append("Compétences :")
        for e in self._skills():
            plus = "+" if e["plus"] else ""
            weapon = " (arme)" if e["weapon"] else ""
            faces = (f", critiques sur {', '.join(map(str, e['critical_faces']))}"
                     if len(e["critical_faces"]) > 1 else "")
            malus = ", −7 à l'attaque et −2 aux dégâts" if c.incompetent(e["key"]) else ""
            lines.append(f"  {e['key']:<13} {e['level']:>3}{plus}  {e['rank']}{weapon} — "
                         f"réussite au dé dès {e['success_face']}{faces}{malus}")
        if c.weapons:
            lines.append("Armes : " + ", ".join(f"{n} ({s})" for n, s in c.weapons))
        hp = c.max_hit_points()
        lines.append(f"Armure {c.armour} ; pv "
                     + ("inconnus" if hp is None else f"{hp[1]}/{hp[0]}")
                     + f" ; XP {c.xp} ; or {c.gold}")
        return "\n".join(lines)


class MaitriseSystem(GameSystem):
    id = "maitrise"
    title = "Système d20 à rangs de maîtrise"
    seed = "001_13101d48f57b5cde.txt"

    def __init__(self, config: MaitriseConfig = DEFAULT) -> None:
        self.config = config

    # sheets
    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> Character:
        return load_character(doc, self.config)

    def show(self, doc: SheetDocument) -> Result:
        return SheetView(self.load(doc))

    # rules
    def _checks(self, request: CheckRequest) -> Contest | Check:
        check_request_dice(request)
        char = self.load(request.sheet)
        threshold = parse_threshold(request.threshold)
        stat = resolve_stat(char, request.skill, request.carac)
        check = stat_check(char, stat, self.config, request.bonus, threshold)
        if request.opponent is None:
            return check
        other = self.load(request.opponent)
        other_stat = resolve_stat(other, request.opponent_skill or request.skill)
        return Contest(check, stat_check(other, other_stat, self.config))

    def check(self, request: CheckRequest, source: DiceSource
              ) -> MaitriseCheckResult | ContestResult:
        built = self._checks(request)
        if isinstance(built, Contest):
            return built.roll(source)
        return MaitriseCheckResult(built.roll(source))

    def odds(self, request: CheckRequest) -> OddsResult | ContestOdds:
        built = self._checks(request)
        if isinstance(built, Contest):
            return built.odds()
        return OddsResult(built.odds(), built.label)

    def attack(self, request: AttackRequest, source: DiceSource
               ) -> tuple[Result, list[SheetChange]]:
        attacker = self.load(request.attacker)
        defender = self.load(request.defender)
        return combat.attack(attacker, defender, request, source, self.config)

    def xp(self, request: XpRequest) -> tuple[Result, list[SheetChange]]:
        return progression.spend(self.load(request.sheet), request, self.config)

    def initiative(self, docs: list[SheetDocument], source: DiceSource) -> Result:
        return combat.initiative([self.load(d) for d in docs], source)


SYSTEM = MaitriseSystem()
