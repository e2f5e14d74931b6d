"""`maitrise`: the d20 Mastery-Rank system (RULES.md section 2, seed 001_13101d48f57b5cde.txt).

One d20; a skill (0..100) succeeds when the natural die reaches its rank's face (10/10/10/8/6/4/2),
20 and the chosen extra faces always succeed, 1 always fails; the margin floor((d20 + level) / 2)
decides contests; characteristic rolls need a margin of 10. Modules read like the rulebook:
`tables` (every table), `sheet` (the sheet, its view), `checks` (resolution, the contest rule),
`combat` (attack, damage, initiative), `progression` (XP), `config` (every [Proposed] choice, one
dataclass), `demo` (a short scene).

Options are declared in `ACTIONS` (parsed once by the core). The attacker's critical option is
`--critique rapidite|degats|precision|mj` (R001.18), or chosen once the die is seen (the
chooser); `--visee ZONE` names the spot with "precision"; `--defense parade|esquive|aucune`
(parade when the defender has a weapon, else esquive). `--seuil N` is a minimum margin on a skill
roll and adds N to the 10 of a characteristic roll (R001.12): the system has no named ladder.
Rules of its own (`jdr regle`): `surprise` (A001.24). States: `debout`, `hors_de_combat` at
0 pv, `mort` once the MJ decides it (`etat.mort`, D-001.30); neither of the last two acts.
"""

from __future__ import annotations

from jdr.core.check import Check, Odds
from jdr.core.contest import Contest
from jdr.core.options import ActionSpec, OptionSpec
from jdr.core.results import Health, Line, Result, SheetView
from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    Choice,
    GameSystem,
    GroupRequest,
    Loaded,
    Outcome,
    RuleRequest,
    SystemHelp,
    XpRequest,
)
from jdr.core.turns import TurnLimits
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.maitrise import combat, demo, progression, surprise
from jdr.systems.maitrise.checks import request_checks
from jdr.systems.maitrise.config import DEFAULT, MaitriseConfig
from jdr.systems.maitrise.sheet import TEMPLATE, Character, load_character, sheet_view
from jdr.systems.maitrise.tables import (
    ATTACK_CRITICALS,
    CHARACTERISTICS,
    DEFENCE_CRITICALS,
    DEFENCES,
    DODGE,
    RANKS,
)

__all__ = ["ACTIONS", "SYSTEM", "MaitriseSystem"]

OPPOSITION = ("avec --contre FICHE seul, l'adversaire oppose ce que les règles opposent : "
              "contre une compétence d'arme, sa défense (parade avec sa première arme, esquive "
              "s'il n'en a pas) ; sinon la même compétence ou caractéristique")

# the French words of each option, as the table reads them (« Rapidité : +10 de marge… »)
DEFENCE_CRITICAL_LABELS = tuple(text.split(" : ")[0] for text in DEFENCE_CRITICALS.values())

ATTACK_OPTIONS = (
    OptionSpec("critique_defense", "choice",
               "option du défenseur sur une défense critique : rapidite (+10 de marge, "
               "contre-attaque), appuis (+1d10+5 de marge), resister (−1d10 aux dégâts), mj",
               None, "R001.19", choices=tuple(DEFENCE_CRITICALS),
               label="Option de défense critique", labels=DEFENCE_CRITICAL_LABELS),
    OptionSpec("arme_defense", "text", "arme (ou compétence) qui pare ; la première arme du "
               "défenseur par défaut", None, "A001.05",
               label="Arme qui pare"),
    OptionSpec("bonus_attaque", "int", "modificateur de situation de l'attaque, ajouté avant "
               "la division par 2", 0, "A001.06", -1000, 1000,
               label="Modificateur de l'attaque"),
    OptionSpec("bonus_defense", "int", "modificateur de situation de la défense, ajouté avant "
               "la division par 2", 0, "A001.06", -1000, 1000,
               label="Modificateur de la défense"),
    OptionSpec("mort", "bool", "le MJ décide qu'un personnage tombé à 0 pv meurt (sinon il est "
               "hors de combat)", False, "D-001.30",
               label="Mort à 0 PV"),
)

XP_OPTIONS = (
    OptionSpec("maitre", "bool", "le professeur exigé pour changer de rang a été trouvé",
               False, "R001.28",
               label="Maître trouvé"),
    OptionSpec("professeur", "bool", "comme maitre", False, "R001.28",
               label="Professeur trouvé"),
    OptionSpec("mj", "bool", "le MJ autorise le parcours solitaire vers Grand maître", False,
               "A001.18",
               label="Accord du MJ"),
    OptionSpec("cout_or", "int", "pièces d'or demandées par le MJ pour Grand maître", 0,
               "A001.18", 0, 1_000_000,
               label="Coût en pièces d'or"),
    OptionSpec("face", "int", "face de réussite critique choisie à 20+ / 100+ (de 2 à 19)",
               None, "R001.13", 1, 20,
               label="Face critique choisie"),
)

ACTIONS: dict[str, ActionSpec] = {
    "check": ActionSpec(
        "check", "jet de compétence ou de caractéristique (esquive : jet d'Adresse) ; --seuil N "
        "est une marge minimale (ajoutée aux 10 d'un jet de caractéristique) ; " + OPPOSITION,
        dice="un d20 pour le personnage, puis (avec --contre) un d20 pour l'adversaire"),
    "odds": ActionSpec(
        "odds", "chances exactes d'un jet, ou d'un jet opposé à la marge ; " + OPPOSITION,
        rolls=False),
    "attack": ActionSpec(
        "attack", "attaque contre parade, esquive ou aucune défense ; --critique "
        + "|".join(ATTACK_CRITICALS) + " sur une attaque critique, --visee ZONE avec precision",
        ATTACK_OPTIONS,
        dice="d20 d'attaque ; d20 de défense (parade ou esquive, aucun sans défense) ; 1d10 "
             "« Solidifier ses appuis » (parade critique contre une attaque réussie) ; si le "
             "coup porte : 1d6 de dégâts, 1d10 « Dégâts » (attaque critique), 1d10 « Résister "
             "au coup » (défense critique battue)"),
    "xp": ActionSpec("xp", "monter une compétence ou une caractéristique", XP_OPTIONS,
                     rolls=False),
    "initiative": ActionSpec(
        "initiative", "ordre de jeu : Adresse la plus haute d'abord",
        dice="un d20 par personnage à égalité d'Adresse, dans l'ordre des fiches, relancé "
             "entre ceux qui restent à égalité"),
    surprise.NAME: surprise.SPEC,
}
RULES = (surprise.NAME,)


class MaitriseSystem(GameSystem[Character]):
    id = "maitrise"
    attack_health_relative = True  # the simulator compiles its attack apart from health
    title = "Système d20 à rangs de maîtrise"
    seed = "001_13101d48f57b5cde.txt"
    actions = ACTIONS
    ladder = None  # `--seuil N` is a minimum margin (R001.12 uses 10)
    states = ("debout", "hors_de_combat", "mort")

    def __init__(self, config: MaitriseConfig = DEFAULT) -> None:
        self.config = config

    # sheets
    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> Character:
        return load_character(doc, self.config)

    def show(self, sheet: Loaded[Character]) -> SheetView:
        return sheet_view(sheet.model)

    def help(self) -> SystemHelp:
        ranks = ", ".join(f"{r.low if r.low == r.high else f'{r.low}-{r.high}'} {r.name} "
                          f"(dé {r.success_face})" for r in RANKS)
        return SystemHelp(
            characteristics=CHARACTERISTICS,
            skills={DODGE: "Esquive : jet d'Adresse, 10 de marge (pas une compétence)"},
            defences=tuple(DEFENCES),
            notes=("Compétences libres, notées sur la fiche de 0 à 100 ; rangs : " + ranks,
                   *(f"--defense {k} : {v}" for k, v in DEFENCES.items()),
                   *(f"--critique {k} : {v}" for k, v in ATTACK_CRITICALS.items()),
                   *(f"--opt critique_defense={k} : {v}" for k, v in DEFENCE_CRITICALS.items()),
                   "sans --critique ni critique_defense, l'option d'une réussite critique est "
                   "demandée une fois le dé vu (aucune si personne ne peut répondre)",
                   "--seuil N : marge minimale d'un jet de compétence ; ajoutée aux 10 de marge "
                   "d'un jet de caractéristique (R001.12)",
                   "à 0 pv : hors de combat, ni action ni défense ; la mort est la décision du "
                   "MJ (--opt mort=oui sur l'attaque, notée etat.mort sur la fiche, D-001.30)",
                   "jdr regle surprise QUI CIBLE… --opt competence=C --opt resistance=R : "
                   "surprise contre résistance à la surprise, à la marge (A001.24)"),
        )

    # the forms' choices
    def check_choices(self, sheet: Loaded[Character]) -> tuple[Choice, ...]:
        """R001.01, R001.04, A001.23: the characteristics, this sheet's skills and weapon skills,
        and the dodge (an Adresse roll)."""
        model = sheet.model
        skills = sorted({*model.skills, *model.weapon_skills})
        return (*(Choice(k, v) for k, v in CHARACTERISTICS.items()),
                *(Choice(k, k.replace("_", " ").capitalize()) for k in skills),
                Choice(DODGE, "Esquive (Adresse)"))

    def weapon_choices(self, sheet: Loaded[Character]) -> tuple[Choice, ...]:
        return tuple(Choice(name, f"{name} ({skill})") for name, skill in sheet.model.weapons)

    def critical_choices(self, attacker: Loaded[Character]) -> tuple[Choice, ...]:
        """R001.18: the option of a critical attack, chosen ahead."""
        return tuple(Choice(k, v.split(" : ")[0]) for k, v in ATTACK_CRITICALS.items())

    # rules
    def _built(self, request: CheckRequest[Character]) -> Check | Contest:
        return request_checks(request, self.config)

    def check(self, request: CheckRequest[Character], source: DiceSource) -> Outcome:
        """D-ALL.02: a character hors de combat (or dead) rolls no active check."""
        request.actor.model.refuse_if_unable()
        return Outcome(self._built(request).roll(source))

    def odds(self, request: CheckRequest[Character]) -> Odds:
        return self._built(request).odds()

    def attack(self, request: AttackRequest[Character], source: DiceSource) -> Outcome:
        return combat.attack(request, source, self.config)

    def attack_odds(self, request: AttackRequest[Character]) -> Odds:
        """R001.15 .. R001.19: P(the blow lands), from the same steps as `attack`."""
        from jdr.systems.maitrise.attack_odds import attack_odds

        return attack_odds(request, self.config)

    def xp(self, request: XpRequest[Character]) -> Outcome:
        return progression.spend(request, self.config)

    def initiative(self, request: GroupRequest[Character], source: DiceSource) -> Outcome:
        return Outcome(combat.initiative(request.sheets, source))

    def demo(self, source: DiceSource) -> Result:
        return demo.scene(self, source)

    def _rule_name(self, name: str) -> str:
        if name not in RULES:
            raise RuleError(f"maitrise : pas de règle « {name[:40]} » (règles : "
                            f"{', '.join(RULES)})")
        return name

    def rule(self, name: str, request: RuleRequest[Character], source: DiceSource | None
             ) -> Outcome:
        """A001.24 `surprise`: the contest the seed names, with the MJ's skills."""
        self._rule_name(name)
        if source is None:
            raise RuleError("surprise : cette règle lance des dés")
        return surprise.play(request, self.config, source)

    def rule_odds(self, name: str, request: RuleRequest[Character]) -> Odds:
        self._rule_name(name)
        return surprise.odds(request, self.config)

    # states (D-001.30, D-ALL.02)
    def state(self, sheet: Loaded[Character]) -> str:
        """D-001.30: `hors_de_combat` at 0 pv, `mort` once the MJ decided it, else `debout`."""
        return sheet.model.state()

    def incapacity(self, sheet: Loaded[Character]) -> Line | None:
        """D-ALL.02: hors de combat or dead, a character neither acts nor defends; the seed
        leaves no check (reaction, resistance) to a character at 0 pv."""
        return sheet.model.incapacity()

    def turn_limits(self) -> TurnLimits:
        """One attack per turn; the second one of a Rapidité critical (R001.18, A001.10) is the
        MJ's to allow (override)."""
        return LIMITS

    def health(self, sheet: Loaded[Character]) -> Health | None:
        """A001.12: the sheet's `pv` (or Constitution, if so configured)."""
        hp = sheet.model.max_hit_points()
        return None if hp is None else Health("pv", hp[1], hp[1], hp[0])


LIMITS = TurnLimits({"action": 1}, "une attaque par tour (la seconde vient d'une Rapidité, "
                    "R001.18)", "R001.18", "R001.24")
SYSTEM = MaitriseSystem()
