"""dd35: the d20 / 3.5-style combat rules of the "Catégorie:Combat" page (RULES.md section 3).

What `jdr check FICHE COMPETENCE` understands as COMPETENCE (names per D-ALL.01):
- a weapon of the sheet (`armes[].nom`): attack roll vs `--contre DEFENSEUR` (its AC) or
  `--seuil CA` (R002.10, R002.17, R002.18, D-002.17). `jdr odds` gives the odds of hitting and of
  a critical, from the same definition;
- `embuscade`, `piege`, `mensonge`, `passage` (or `perception` with `--opt contexte=...`):
  Active Perception (R002.08) vs `--seuil ND`, or vs `--contre FICHE2 COMP2`;
- `perception_passive`: Passive Perception (R002.09), no roll;
- `reflexes`, `vigueur`, `volonte` (or `sauvegarde` with `--opt type=...`): saving throw against
  a manoeuvre's DC: `--seuil ND`, or `--contre AUTEUR` (A002.16 placeholder DC);
- `initiative` (R002.13); an ability (`force`, `dex`, ...): 1d20 + modifier (A002.01).

Options (`--opt cle=valeur`) read by this system:
- `contexte` (embuscade|piege|mensonge|passage) and `milieu` (nature, ingenierie, ...): Active
  Perception context and environment knowledge;
- `type` (reflexes|vigueur|volonte): the save of `sauvegarde`; `carac_manoeuvre` (ability of the
  manoeuvre's author for the placeholder DC, default force);
- `circonstance` (N): circumstance bonus to an attack or initiative; `iterative` (N, 1-based):
  which iterative attack a single `check`/`odds` attack uses;
- `depourvu` (oui/non): the defender is flat-footed (also `--defense depourvu`);
- `rd_sort` (N): the defender's spell DR (A002.10); `magique` (oui/non): treat the weapon as magic
  (A002.11, DR x/Magie is ignored);
- `naturel_1_rate` (oui/non): D-002.17 override; `force_projectiles` (oui/non): A002.19;
- `manoeuvre` (name) with `sauvegarde` (reflexes|vigueur|volonte) and `nd` (N) on `jdr attack`:
  a combat manoeuvre (R002.15) instead of an attack roll;
- `tour` (e.g. `mouvement+simple`, `complexe+pas`) on `jdr attack`: the turn's declared actions,
  checked (R002.14, A002.20) before the attack is played;
- `classe` (name) and `jet` (N) on `jdr xp --pv`: gain a level (R002.19, R002.02).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from jdr.core.check import Check, CheckResult, Odds, Opposed, OpposedResult
from jdr.core.sheet import SheetDocument, validate
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    GameSystem,
    Result,
    SheetChange,
    XpRequest,
)
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.dd35.character import Character, format_attacks
from jdr.systems.dd35.checks import (
    ability_check,
    active_perception,
    attack_check,
    initiative_check,
    manoeuvre_dc,
    parse_threshold,
    passive_perception_check,
    perception_context,
    saving_throw,
)
from jdr.systems.dd35.combat import (
    Action,
    parse_turn,
    resolve_attack,
    resolve_manoeuvre,
    roll_initiative,
    validate_turn,
)
from jdr.systems.dd35.config import Rules, flag, from_options, int_option, option
from jdr.systems.dd35.progression import level_up
from jdr.systems.dd35.sheet import TEMPLATE, Sheet
from jdr.systems.dd35.tables import ABILITIES, ABILITY_ALIASES, ABILITY_LABELS, CLASSES, SAVES


@dataclass(frozen=True)
class SheetView:
    """`jdr sheet show`: every derived value the document defines."""

    character: Character

    def to_json(self) -> dict[str, Any]:
        c = self.character
        return {
            "name": c.name,
            "abilities": {a: {"score": c.score(a), "modifier": c.mod(a)} for a in ABILITIES},
            "classes": dict(c.sheet.classes), "level": c.level,
            "base_attack": c.bab, "attacks": format_attacks(c.attacks),
            "iteratives": list(c.attacks),
            "ac": c.ac, "flat_footed_ac": c.flat_footed_ac,
            "damage_reduction": c.damage_reduction(), "damage_reduction_type": "Magie",
            "melee_attack": c.melee_bonus, "ranged_attack": c.ranged_bonus,
            "initiative": c.initiative_modifier, "passive_perception": c.passive_perception,
            "hp": {"max": c.max_hp, "current": c.current_hp, "computed_fixed": c.computed_hp},
        }

    def render(self) -> str:
        c = self.character
        classes = ", ".join(f"{CLASSES[k].label} {v}" for k, v in c.sheet.classes.items())
        abil = "  ".join(f"{ABILITY_LABELS[a][:3].upper()} {c.score(a)} ({c.mod(a):+d})"
                         for a in ABILITIES)
        lines = [
            f"{c.name} — {classes} (niveau {c.level})",
            abil,
            f"PV : {c.current_hp}/{c.max_hp} (calcul à valeur fixe : {c.computed_hp})",
            f"Base Attaque : {format_attacks(c.attacks)}",
            f"Attaque au contact : {c.melee_bonus:+d}  à distance : {c.ranged_bonus:+d}",
            f"CA : {c.ac}  pris au dépourvu : {c.flat_footed_ac}",
            f"Réduction de dégâts : {c.damage_reduction()}/Magie",
            f"Initiative : {c.initiative_modifier:+d}",
            f"Perception passive : {c.passive_perception}",
        ]
        for w in c.sheet.armes:
            mods = c.attack_modifiers(w)
            dmg = sum(m.value for m in c.damage_bonus(w))
            attacks = format_attacks(tuple(sum(m.value for m in mods) - (c.bab - v)
                                           for v in c.attacks))
            zone = f"{w.zone_critique}-20" if w.zone_critique < 20 else "20"
            lines.append(f"  {w.nom} : {attacks}, {w.degats}{dmg:+d}, "
                         f"critique {zone}/×{w.multiplicateur}")
        return "\n".join(lines)


def _opposed_decide(actor: CheckResult, opponent: CheckResult) -> tuple[bool, tuple[str, ...]]:
    """R002.08/R002.09: against a passive value (a difficulty) the total must equal or beat it;
    between two rolls a tie goes to the higher bonus, then to the opponent (3.5 convention)."""
    if not opponent.dice:
        return actor.total >= opponent.total, ()
    if actor.total != opponent.total:
        return actor.total > opponent.total, ()
    a = sum(m.value for m in actor.modifiers)
    b = sum(m.value for m in opponent.modifiers)
    if a != b:
        return a > b, ("égalité : le plus haut bonus l'emporte",)
    return False, ("égalité parfaite : l'opposant l'emporte",)


class Dd35System(GameSystem):
    id = "dd35"
    title = "d20 / 3.5 — Catégorie:Combat (armure = réduction de dégâts)"
    seed = "002_7c1c454f5d826199.txt"

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()

    # -- sheets ------------------------------------------------------------

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> Sheet:
        sheet = validate(Sheet, doc)
        assert isinstance(sheet, Sheet)
        return sheet

    def character(self, doc: SheetDocument, options: dict[str, str] | None = None) -> Character:
        return Character(self.load(doc), from_options(options or {}, self.rules))

    def check_sheet(self, doc: SheetDocument, creation: bool = False) -> list[str]:
        problems = super().check_sheet(doc, creation)
        if problems or not creation:
            return problems
        c = self.character(doc)
        if c.sheet.pv_mode == "fixe" and c.sheet.pv is not None and c.max_hp != c.computed_hp:
            problems.append(f"pv.max = {c.max_hp} : en pv_mode fixe, le calcul donne "
                            f"{c.computed_hp} (R002.02)")
        if c.sheet.pv_mode == "lance" and c.sheet.pv is None:
            problems.append("pv : obligatoire en pv_mode lance (écrivez le total des dés lancés)")
        return problems

    def show(self, doc: SheetDocument) -> SheetView:
        return SheetView(self.character(doc))

    # -- checks ------------------------------------------------------------

    def build(self, request: CheckRequest) -> Check | Opposed:
        """The one definition a `check` rolls and an `odds` computes."""
        if request.die is not None and normalize(request.die) not in ("d20", "1d20"):
            raise RuleError(f"--de {request.die} : le système dd35 lance toujours 1d20")
        opts = request.options
        c = self.character(request.sheet, opts)
        threshold = parse_threshold(request.threshold)
        opponent = self.character(request.opponent, opts) if request.opponent else None
        skill = normalize(request.skill)
        bonus = request.bonus
        check: Check
        if c.has_weapon(request.skill) or skill in ("attaque", "arme"):
            weapon = c.weapon(request.skill if c.has_weapon(request.skill) else None)
            ac = threshold
            target = ""
            if opponent is not None:
                flat = flag(opts, "depourvu", False)
                ac = opponent.flat_footed_ac if flat else opponent.ac
                target = opponent.name
            index = int_option(opts, "iterative", 1)
            if not 1 <= index <= len(c.attacks):
                raise RuleError(f"--opt iterative={index} : {c.name} a "
                                f"{len(c.attacks)} attaque(s) ({format_attacks(c.attacks)})")
            offset = c.bab - c.attacks[index - 1]
            circ = int_option(opts, "circonstance") + bonus
            return attack_check(c, weapon, ac, offset, circ, c.rules, target)
        context = perception_context(option(opts, "contexte") or "") if skill in (
            "perception", "perception_active") else perception_context(skill)
        if skill in ("perception", "perception_active") and context is None:
            raise RuleError("perception active : précisez le contexte avec --opt contexte="
                            "embuscade|piege|mensonge|passage")
        if context is not None:
            check = active_perception(c, context, threshold, bonus, option(opts, "milieu"))
        elif skill == "perception_passive":
            check = passive_perception_check(c, threshold, bonus)
        elif skill in SAVES or skill == "sauvegarde":
            save = skill if skill in SAVES else normalize(option(opts, "type") or "")
            if save not in SAVES:
                raise RuleError("sauvegarde : précisez --opt type=reflexes|vigueur|volonte")
            dc = threshold
            if dc is None and opponent is not None and request.opponent_skill is None:
                ability = normalize(option(opts, "carac_manoeuvre") or "force")
                ability = ABILITY_ALIASES.get(ability, ability)
                if ability not in ABILITIES:
                    raise RuleError(f"--opt carac_manoeuvre={ability} : caractéristique inconnue")
                dc = manoeuvre_dc(opponent, ability, c.rules)
                opponent = None
            check = saving_throw(c, save, dc, bonus)
        elif skill == "initiative":
            check = initiative_check(c, bonus + int_option(opts, "circonstance"))
        elif ABILITY_ALIASES.get(skill, skill) in ABILITIES:
            check = ability_check(c, ABILITY_ALIASES.get(skill, skill), threshold, bonus)
        else:
            weapons = [w.nom for w in c.sheet.armes]
            raise RuleError(
                f"« {request.skill} » inconnu pour dd35 : une arme de la fiche "
                f"({', '.join(weapons) or 'aucune'}), embuscade, piege, mensonge, passage, "
                "perception_passive, reflexes, vigueur, volonte, initiative ou une "
                "caractéristique")
        if opponent is not None and request.opponent_skill is not None:
            assert request.opponent is not None
            other = self.build(replace(request, sheet=request.opponent, skill=request.opponent_skill,
                                       opponent=None, opponent_skill=None, threshold=None,
                                       bonus=0))
            if isinstance(other, Opposed):
                raise RuleError("jet opposé imbriqué impossible")
            return Opposed(check, other, _opposed_decide, rule=check.rule)
        return check

    def check(self, request: CheckRequest, source: DiceSource) -> CheckResult | OpposedResult:
        return self.build(request).roll(source)

    def odds(self, request: CheckRequest) -> Odds:
        """Same definition as `check`: for a weapon, `success` is the chance to hit the AC and
        `critical_success` the chance of a critical (natural 20 or a Coup Fantastique)."""
        return self.build(request).odds()

    # -- combat ------------------------------------------------------------

    def attack(self, request: AttackRequest, source: DiceSource
               ) -> tuple[Result, list[SheetChange]]:
        opts = request.options
        if request.aimed is not None:
            raise RuleError("dd35 : pas de localisation des coups (--visee)")
        attacker = self.character(request.attacker, opts)
        defender = self.character(request.defender, opts)
        manoeuvre = option(opts, "manoeuvre")
        if manoeuvre is not None:
            save = normalize(option(opts, "sauvegarde") or "")
            if save not in SAVES:
                raise RuleError("manœuvre : précisez --opt sauvegarde=reflexes|vigueur|volonte")
            notes: list[str] = []
            if option(opts, "nd") is not None:
                dc = int_option(opts, "nd")
            else:
                ability = normalize(option(opts, "carac_manoeuvre") or "force")
                ability = ABILITY_ALIASES.get(ability, ability)
                if ability not in ABILITIES:
                    raise RuleError(f"--opt carac_manoeuvre={ability} : caractéristique inconnue")
                dc = manoeuvre_dc(attacker, ability, attacker.rules)
                notes.append("ND provisoire 10 + Base Attaque + modificateur (A002.16, "
                             "absent du document) : donnez --opt nd=N")
            return resolve_manoeuvre(attacker, [defender], manoeuvre, save, dc, source,
                                     notes), []
        if request.critical is not None:
            raise RuleError("dd35 : le critique vient du dé (20 naturel ou zone de critique), "
                            "pas de --critique")
        declared = option(opts, "tour")
        if declared is not None:
            self._check_turn(declared, request.full, len(attacker.attacks))
        flat = flag(opts, "depourvu", False) or (
            request.defence is not None and normalize(request.defence) in (
                "depourvu", "pris_au_depourvu"))
        magic = None
        if option(opts, "magique") is not None:
            magic = flag(opts, "magique", False)
        result = resolve_attack(
            attacker, defender, attacker.weapon(request.weapon), source, request.full, flat,
            int_option(opts, "circonstance"), int_option(opts, "rd_sort"), magic, attacker.rules)
        changes = []
        if result.damage and defender.sheet.pv is None:
            # pv omitted (computed, R002.02): write the pool out in full
            changes.append(SheetChange(request.defender, ("pv", "max"), defender.max_hp))
            changes.append(SheetChange(request.defender, ("pv", "actuels"), result.hp_after))
        elif result.damage:
            changes.append(SheetChange(request.defender, ("pv",), result.hp_after, pool=True))
        return result, changes

    @staticmethod
    def _check_turn(declared: str, full: bool, attacks: int) -> None:
        """R002.14 / A002.20: the declared turn (`--opt tour=mouvement+simple`) must be legal;
        a full attack needs the turn's Complex action."""
        actions = list(parse_turn(declared))
        if full:
            index = next((i for i, a in enumerate(actions) if a.kind == "complexe"), None)
            if index is None:
                actions.append(Action("simple", "attaque complète", full_attack=True))
            else:
                actions[index] = replace(actions[index], full_attack=True)
        verdict = validate_turn(actions, attacks)
        if not verdict.valid:
            raise RuleError("tour illégal : " + " ; ".join(verdict.problems))

    def initiative(self, docs: list[SheetDocument], source: DiceSource) -> Result:
        return roll_initiative([self.character(d) for d in docs], source)

    def xp(self, request: XpRequest) -> tuple[Result, list[SheetChange]]:
        if not request.hit_points:
            raise RuleError("dd35 : pas de table d'XP dans le document ; gagner un niveau : "
                            "jdr xp FICHE --pv --opt classe=NOM [--opt jet=N]")
        opts = request.options
        name = option(opts, "classe")
        if name is None:
            raise RuleError("niveau : précisez la classe avec --opt classe=NOM")
        c = self.character(request.sheet, opts)
        rolled = int_option(opts, "jet") if option(opts, "jet") is not None else None
        up = level_up(c, name, rolled)
        changes = [SheetChange(request.sheet, ("classes", up.class_name), up.new_level)]
        if c.sheet.pv is not None or rolled is not None:
            changes.append(SheetChange(request.sheet, ("pv", "max"), up.hp_max_after))
            changes.append(SheetChange(request.sheet, ("pv", "actuels"), up.hp_current_after))
        return up, changes


SYSTEM = Dd35System()

__all__ = ["SYSTEM", "Dd35System", "SheetView"]
