"""The rules of felins that no core command plays, declared as actions (`jdr regle NOM CHATS…
--opt cle=valeur`) and played through `FelinsSystem.rule` / `rule_odds`:

- `soigner SOIGNEUR PATIENT` (R004.33): a roll, with exact odds;
- `tanniere PATIENT --opt jours=N` (R004.32): days at the healer's den;
- `reveil CHAT --opt minutes=N` (R004.32): minutes of unconsciousness passing (a roll only when
  the sheet does not hold the 3d10 × 5 yet, with exact odds);
- `fin_combat CHATS…` (R004.28, A004.21): the fight is over, the cats that fled are back.

`acts` (core) says whether the first named character acts (D-ALL.02): the healer does; a patient
resting at the den, an unconscious cat waking up or a cat coming back from its flight do not.
"""

from __future__ import annotations

from jdr.core.check import Odds
from jdr.core.frozen import frozen
from jdr.core.messages import Ref, say, usage
from jdr.core.options import ActionSpec, Options, OptionSpec
from jdr.core.system import Loaded, Outcome, RuleRequest
from jdr.core.threshold import Ladder, parse_threshold
from jdr.core.usecase import same_character
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.felins import care
from jdr.systems.felins.config import CHANCE_DICE, FelinsConfig
from jdr.systems.felins.sheet import Cat

MAX_CATS = 50


@frozen
class RuleSpec(ActionSpec):
    """A declared rule: how many characters it names, in which order (`usage`)."""

    usage: str = ""
    least: int = 1
    most: int = 1


THRESHOLD = OptionSpec(
    "seuil", "text", "seuil du jet de Soigner : un nombre ou un nom de l'échelle (défaut moyen, "
    "9)", rule="A004.23",
    label="Seuil du jet de Soigner")
NEXT_DAY = OptionSpec(
    "lendemain", "bool", "la journée est passée depuis un soin raté : nouvel essai permis",
    default=False, rule="R004.33",
    label="Le lendemain")
DAYS = OptionSpec("jours", "int", "jours passés à la tanière du guérisseur", rule="R004.32",
                  lo=1, hi=3650,
                  label="Jours à la tanière", required=True)
MINUTES = OptionSpec("minutes", "int", "minutes écoulées pendant l'inconscience",
                     rule="R004.32", lo=1, hi=100_000,
                     label="Minutes d'inconscience", required=True)
DURATION_DICE = "3d10 (durée de l'inconscience, 3d10 × 5 minutes)"

RULES: dict[str, RuleSpec] = {
    "soigner": RuleSpec(
        "soigner", "SOIGNEUR PATIENT — Soigner (Ω) : réussite −1 niveau de blessure (critique "
        "−2), maladresse +1 ; ranime un chat inconscient, sort un chat du coma ; un soin réussi "
        "ne se retente pas, un soin raté se retente le lendemain", (THRESHOLD, NEXT_DAY),
        dice="soigneur : " + CHANCE_DICE + " ; puis " + DURATION_DICE + " si le patient tombe "
        "inconscient (maladresse) ou sort du coma sans reprendre conscience",
        usage="SOIGNEUR PATIENT (la même fiche deux fois pour se soigner soi-même)",
        least=2, most=2),
    "tanniere": RuleSpec(
        "tanniere", "PATIENT --opt jours=N — jours à la tanière du guérisseur : un niveau de "
        "blessure par trois jours ; un jour réveille un chat inconscient, met fin à une fuite et "
        "permet de retenter un soin raté ; le coma demande Soigner", (DAYS,), rolls=False,
        usage="PATIENT", acts=False, title="tanière"),
    "reveil": RuleSpec(
        "reveil", "CHAT --opt minutes=N — des minutes passent pour un chat inconscient : il se "
        "réveille au bout de ses 3d10 × 5 minutes (tirées à la chute)", (MINUTES,),
        dice=DURATION_DICE + ", seulement si la fiche ne donne pas encore la durée (inconscience)",
        usage="CHAT", acts=False, title="réveil"),
    "fin_combat": RuleSpec(
        "fin_combat", "CHATS… — le combat est terminé : les chats en fuite reviennent (ils "
        "avaient abandonné le combat jusqu'à sa fin)", rolls=False, usage="CHATS…",
        most=MAX_CATS, acts=False, title="fin du combat"),
}


def _spec(name: str) -> RuleSpec:
    spec = RULES.get(name)
    if spec is None:
        raise RuleError(f"felins : pas de règle « {name} » (règles : {', '.join(RULES)})")
    return spec


def _sheets(spec: RuleSpec, sheets: tuple[Loaded[Cat], ...]) -> tuple[Loaded[Cat], ...]:
    if not spec.least <= len(sheets) <= spec.most:
        raise RuleError(say(Ref(f"regle {spec.name} : {spec.usage}",
                                usage(f"{spec.name} {spec.usage}").web),
                            f" ({len(sheets)} fiche(s) données)"))
    return sheets


def _required(options: Options, option: OptionSpec) -> int:
    value = options.int(option.name)
    if value is None:
        raise RuleError(options.missing(option.name, option.help))
    return value


@frozen
class Rules:
    """The rules of one configuration of felins."""

    config: FelinsConfig
    ladder: Ladder

    def _threshold(self, options: Options) -> int:
        value = parse_threshold(options.text("seuil"), self.ladder, options.ref("seuil"))
        return self.config.heal_threshold if value is None else value

    def play(self, name: str, request: RuleRequest[Cat], source: DiceSource | None) -> Outcome:
        sheets = _sheets(_spec(name), request.sheets)
        options = request.options
        if name == "soigner":
            healer, patient = sheets
            patient = healer if same_character(healer, patient) else patient
            if source is None:
                raise RuleError("regle soigner : ce jet demande des dés")
            return care.heal(healer, patient, source, self._threshold(options), self.config,
                             options.flag("lendemain"), request.chooser)
        if name == "tanniere":
            return care.den(sheets[0], _required(options, DAYS), self.config)
        if name == "reveil":
            return care.wake(sheets[0], _required(options, MINUTES), source)
        return care.end_of_fight(sheets)

    def odds(self, name: str, request: RuleRequest[Cat]) -> Odds:
        sheets = _sheets(_spec(name), request.sheets)
        options = request.options
        if name == "soigner":
            healer, patient = sheets
            return care.heal_odds(healer.model, patient.model, self._threshold(options),
                                  options.flag("lendemain"), self.config)
        if name == "reveil":
            return care.wake_odds(sheets[0].model, _required(options, MINUTES))
        raise RuleError(f"regle {name} : ce n'est pas un jet, pas de chances à calculer")
