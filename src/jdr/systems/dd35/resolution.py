"""What `jdr test` / `jdr chances` roll in dd35 (RULES.md 3.2): a request becomes ONE definition,
a `Check` (against a DC, an AC, or nothing) or a `Contest` (two checks, R002.08 "jet opposé").

What COMPETENCE names (D-ALL.01):
- a weapon of the sheet, or `attaque` / `arme` (the first weapon): attack roll (R002.10) against
  `--seuil CA` or, with `--contre DEFENSEUR`, against the defender's AC (flat-footed with
  `--opt depourvu=oui`);
- `embuscade`, `piege`, `mensonge`, `passage`, or `perception` with `--opt contexte=...`: Active
  Perception (R002.08); `perception_passive`: Passive Perception (R002.09), no roll;
- `reflexes`, `vigueur`, `volonte`, or `sauvegarde` with `--opt type=...`: a save (R002.15);
  `--contre AUTEUR` alone: against the placeholder DC of the author's manoeuvre (A002.16);
- `initiative` (R002.13); an ability (`force`, `dex`, ...): 1d20 + modifier (A002.01).

`--contre FICHE` alone, for anything but an attack or a save, opposes the same check;
`--contre FICHE:COMPETENCE` opposes that one. The `--bonus` and the actor's options
`circonstance` and `iterative` apply to the actor only.
"""

from __future__ import annotations

from jdr.core.check import Check
from jdr.core.contest import Contest
from jdr.core.frozen import frozen
from jdr.core.messages import Message, Ref, arg, say
from jdr.core.options import Options
from jdr.core.system import CheckRequest
from jdr.core.threshold import Ladder, parse_threshold
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.dd35.character import Character, format_attacks
from jdr.systems.dd35.checks import (
    CONTEST,
    PLACEHOLDER_DC,
    ability_check,
    active_perception,
    attack_check,
    initiative_check,
    manoeuvre_dc,
    passive_perception_check,
    perception_context,
    saving_throw,
)
from jdr.systems.dd35.config import Rules
from jdr.systems.dd35.sheet import Sheet
from jdr.systems.dd35.tables import ABILITIES, ABILITY_ALIASES, PERCEPTION_CONTEXTS, SAVES

AC_NAMES = ("ca", "classe_d_armure", "classe_armure")
FLAT_FOOTED_NAMES = ("depourvu", "pris_au_depourvu", "ca_depourvu")


@frozen
class Skill:
    """What a COMPETENCE names: `kind` (attack, perception, passive, save, initiative, ability)
    and its key (weapon name, context, save, ability)."""

    kind: str
    key: str | None = None


def ability_named(text: str, where: Message) -> str:
    """An ability by any spelling or 3.5 abbreviation (A002.01, D-ALL.01)."""
    key = normalize(text)
    key = ABILITY_ALIASES.get(key, key)
    if key not in ABILITIES:
        raise RuleError(say(where, " : " + unknown_name_message("caractéristique", text,
                                                                 ABILITIES)))
    return key


def _perception(options: Options) -> Skill:
    """`perception` needs `--opt contexte=...` (R002.08: the context decides the bonus)."""
    text = options.text("contexte")
    if text is None:
        raise RuleError(say("perception active : précisez le contexte avec ",
                            options.ref("contexte", "embuscade|piege|mensonge|passage")))
    context = perception_context(text)
    if context is None:
        raise RuleError(say(options.ref("contexte"), " : "
                            + unknown_name_message("contexte", text, PERCEPTION_CONTEXTS)))
    return Skill("perception", context)


def _save(options: Options) -> Skill:
    save = options.text("type")
    if save is None or save not in SAVES:
        raise RuleError(say("sauvegarde : précisez ", options.ref("type", "reflexes|vigueur|volonte")))
    return Skill("save", save)


def skill_of(character: Character, name: str, options: Options) -> Skill:
    """What `name` means for this character (a weapon of the sheet first)."""
    key = normalize(name)
    if character.has_weapon(name):
        return Skill("attack", name)
    if key in ("attaque", "arme"):
        return Skill("attack")
    if key in ("perception", "perception_active"):
        return _perception(options)
    context = perception_context(key)
    if context is not None:
        return Skill("perception", context)
    if key == "perception_passive":
        return Skill("passive")
    if key in SAVES:
        return Skill("save", key)
    if key == "sauvegarde":
        return _save(options)
    if key == "initiative":
        return Skill("initiative")
    if ABILITY_ALIASES.get(key, key) in ABILITIES:
        return Skill("ability", ABILITY_ALIASES.get(key, key))
    weapons = ", ".join(w.nom for w in character.sheet.armes) or "aucune"
    raise RuleError(
        f"« {name} » inconnu pour dd35 : une arme de la fiche ({weapons}), embuscade, piege, "
        "mensonge, passage, perception_passive, reflexes, vigueur, volonte, initiative ou une "
        "caractéristique")


@frozen
class Roller:
    """One side of a check: the character, its rules, and what only the actor gets."""

    character: Character
    options: Options
    bonus: int = 0
    actor: bool = True
    flat_footed: bool = False  # `--contre FICHE:depourvu`

    def circumstance(self) -> int:
        return (self.options.int("circonstance", 0) or 0) if self.actor else 0

    def check(self, skill: Skill, threshold: int | None, ac_of: Character | None = None) -> Check:
        """The check `skill` names, against `threshold` (a DC, an AC, or None)."""
        c = self.character
        if skill.kind in ("attack", "perception", "ability"):
            c.require_able()
        if skill.kind == "attack":
            return self.attack(skill, threshold, ac_of)
        if skill.kind == "perception":
            assert skill.key is not None
            return active_perception(c, skill.key, threshold, self.bonus,
                                     self.options.text("milieu"))
        if skill.kind == "passive":
            return passive_perception_check(c, threshold, self.bonus)
        if skill.kind == "save":
            assert skill.key is not None
            return saving_throw(c, skill.key, threshold, self.bonus)
        if skill.kind == "initiative":
            return initiative_check(c, self.bonus + self.circumstance())
        assert skill.key is not None
        return ability_check(c, skill.key, threshold, self.bonus)

    def attack(self, skill: Skill, ac: int | None, defender: Character | None) -> Check:
        """R002.10: one attack (`--opt iterative=N` picks which, R002.04) against an AC."""
        c = self.character
        weapon = c.weapon(skill.key)
        index = (self.options.int("iterative", 1) or 1) if self.actor else 1
        if not 1 <= index <= len(c.attacks):
            raise RuleError(say(self.options.ref("iterative", str(index)), f" : {c.name} a "
                                f"{len(c.attacks)} attaque(s) ({format_attacks(c.attacks)})"))
        target = ""
        if defender is not None:
            flat = self.flat_footed or (
                self.options.flag("depourvu") if self.options.was_given("depourvu")
                else defender.sheet.etat.surpris)   # A002.21: surprised, flat-footed
            ac = defender.flat_footed_ac if flat else defender.ac
            target = defender.name
        offset = c.bab - c.attacks[index - 1]
        return attack_check(c, weapon, ac, offset, self.circumstance() + self.bonus, c.rules,
                            target)


def _refuse_unused(request: CheckRequest[Sheet]) -> None:
    """dd35 always rolls one d20: `--de`, `--choix` and `--carac` have no meaning here."""
    if request.die is not None and normalize(request.die) not in ("d20", "1d20"):
        raise RuleError(say(arg("de", request.die), " : le système dd35 lance toujours 1d20"))
    if request.choice is not None:
        raise RuleError(say(arg("choix"), " : le système dd35 lance un seul d20, il n'y a pas de "
                            "dé à choisir"))
    if request.carac is not None:
        raise RuleError(say(arg("carac"), " : en dd35 la compétence dit déjà ce qui s'ajoute au "
                            "d20 (pour un test de caractéristique : ",
                            Ref("jdr test FICHE force", "un test de « force »"), ")"))


def _against_flat_footed_ac(skill: str | None) -> bool:
    """`--contre FICHE` or `FICHE:ca` on an attack: against that AC; `FICHE:depourvu`: against
    the flat-footed AC (R002.06). An attack is never opposed to another roll (R002.10)."""
    if skill is None or normalize(skill) in AC_NAMES:
        return False
    if normalize(skill) in FLAT_FOOTED_NAMES:
        return True
    raise RuleError(Ref(f"--contre …:{skill} : une attaque se compare à la CA du défenseur "
                        "(--contre FICHE, FICHE:ca ou FICHE:depourvu)",
                        f"« {skill} » : une attaque se compare à la CA du défenseur (sa CA, ou sa "
                        "CA pris au dépourvu)"))


def build(request: CheckRequest[Sheet], rules: Rules, ladder: Ladder | None) -> Check | Contest:
    """The one definition that `check` rolls and `odds` counts."""
    _refuse_unused(request)
    threshold = parse_threshold(request.threshold, ladder)
    actor = Roller(Character(request.actor.model, rules), request.options, request.bonus)
    skill = skill_of(actor.character, request.skill, request.options)
    if request.opponent is None:
        return actor.check(skill, threshold)
    opponent = Character(request.opponent.model, rules)
    if skill.kind == "attack":
        flat = _against_flat_footed_ac(request.opponent_skill)
        return Roller(actor.character, request.options, request.bonus, flat_footed=flat).check(
            skill, None, opponent)
    if skill.kind == "save" and request.opponent_skill is None:
        return _against_manoeuvre(actor, skill, opponent)
    theirs = Roller(opponent, request.options, actor=False)
    other = skill_of(opponent, request.opponent_skill or request.skill, request.options)
    return Contest(actor.check(skill, None), theirs.check(other, None), CONTEST)


def _against_manoeuvre(actor: Roller, skill: Skill, author: Character) -> Check:
    """A002.16: a save against the placeholder DC of the author's manoeuvre
    (`--opt carac_manoeuvre=...`, Force by default)."""
    text = actor.options.text("carac_manoeuvre") or "force"
    ability = ability_named(text, "--opt carac_manoeuvre")
    dc = manoeuvre_dc(author, ability, actor.character.rules)
    assert skill.key is not None
    return saving_throw(actor.character, skill.key, dc, actor.bonus, (PLACEHOLDER_DC,))
