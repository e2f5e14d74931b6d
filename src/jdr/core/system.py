"""The interface every game system implements, and the requests the front ends send it.

A front end (CLI, web table) never calls a system directly: it goes through `jdr.core.usecase`,
which loads each sheet once into the system's typed model (`Loaded`), parses options once, rolls
from an injected source, validates every changed sheet and commits all or none. A system only
applies its rules: each action takes a request and returns one `Outcome` (result + changes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from jdr.core.frozen import frozen
from jdr.core.options import NO_OPTIONS, ActionSpec, Options
from jdr.core.sheet import SheetDocument
from jdr.dice.source import DiceSource
from jdr.errors import RuleError

if TYPE_CHECKING:
    from fractions import Fraction

    from jdr.core.check import Odds
    from jdr.core.compile import Effect
    from jdr.core.encounter import EncounterState
    from jdr.core.french import Genre
    from jdr.core.results import Health, Line, Report, Result, SheetView
    from jdr.core.threshold import Ladder
    from jdr.core.turns import Cost, TurnAct, TurnLimits

S = TypeVar("S")


@frozen
class Loaded(Generic[S]):
    """A sheet loaded once: the document as the person wrote it, and the system's typed model."""

    doc: SheetDocument
    model: S
    name: str

    @property
    def genre(self) -> Genre:
        """`f`, `m` or None (neutral wording): the sheet's optional `genre` (docs/fiches.md)."""
        from jdr.core.french import parse_genre

        if hasattr(self.model, "genre"):  # read from the typed model: the YAML is not parsed again
            try:
                return parse_genre(self.model.genre)
            except ValueError:
                return None
        data = self.doc.data
        value = SheetChange.doc_get(data, "genre") if isinstance(data, Mapping) else None
        try:
            return parse_genre(value)
        except ValueError:
            return None


@frozen
class SheetChange:
    """One update the rules make to a sheet (hit points after a blow, XP spent, ...)."""

    doc: SheetDocument
    path: tuple[str, ...]
    value: Any
    pool: bool = False

    def current(self) -> Any:
        """The value this change replaces (None when absent), as plain data. Read from the
        document's tree along the path, not from the whole sheet made plain (three changes of
        one blow made the sheet plain three times)."""
        from jdr.core.sheet import to_plain

        node: Any = self.doc.data
        for name in self.path:
            if not isinstance(node, Mapping):
                return None
            node = self.doc_get(node, name)
        if self.pool and isinstance(node, Mapping):
            node = node.get("actuels")
        return to_plain(node)

    @staticmethod
    def doc_get(node: Mapping[str, Any], name: str) -> Any:
        from jdr.names import normalize

        wanted = normalize(name)
        for key, value in node.items():
            if normalize(str(key)) == wanted:
                return value
        return None

    def apply(self) -> None:
        if self.pool:
            self.doc.set_pool(self.path[0], int(self.value))
        else:
            self.doc.set(self.path, self.value)


@frozen
class Outcome:
    """What one action produced: the result to render and the sheet changes to commit."""

    result: Result
    changes: tuple[SheetChange, ...] = ()


@frozen
class Question:
    """A choice the rules let a player make after seeing the dice (keep the other die, use a
    prédilection, a critical's option ...). `default` is taken when nobody can be asked.
    `labels`: how each choice reads on a button (« Garder le dé 2 (8) »), in the order of
    `choices`; `who`: the character whose choice it is (empty: the one who acts)."""

    prompt: str
    choices: tuple[str, ...]
    default: str
    shown: Result | None = None
    labels: tuple[str, ...] = ()
    who: str = ""

    def label(self, choice: str) -> str:
        """The French words of one choice (its label, else the choice itself in words)."""
        from jdr.core.french import humanize

        if choice in self.choices and len(self.labels) == len(self.choices):
            return self.labels[self.choices.index(choice)]
        return humanize(choice)


class Chooser(Protocol):
    def __call__(self, question: Question) -> str: ...


def default_choice(question: Question) -> str:
    return question.default


@frozen
class CheckRequest(Generic[S]):
    """`jdr test` / `jdr chances`. `opponent_skill=None`: what the rules oppose by default."""

    actor: Loaded[S]
    skill: str
    carac: str | None = None
    threshold: str | None = None
    opponent: Loaded[S] | None = None
    opponent_skill: str | None = None
    bonus: int = 0
    choice: int | None = None
    die: str | None = None
    options: Options = NO_OPTIONS
    chooser: Chooser = default_choice


@frozen
class AttackRequest(Generic[S]):
    attacker: Loaded[S]
    defender: Loaded[S]
    weapon: str | None = None
    defence: str | None = None
    aimed: str | None = None
    critical: str | None = None
    full: bool = False
    options: Options = NO_OPTIONS
    chooser: Chooser = default_choice


@frozen
class XpRequest(Generic[S]):
    sheet: Loaded[S]
    skill: str | None = None
    carac: str | None = None
    hit_points: bool = False
    options: Options = NO_OPTIONS


@frozen
class GroupRequest(Generic[S]):
    """Actions on several characters: initiative, duel (two), new session."""

    sheets: tuple[Loaded[S], ...]
    options: Options = NO_OPTIONS


@frozen
class RuleRequest(Generic[S]):
    """A rule of the system's own (torture, négociation, soigner, ...): its characters, in the
    order the rule names them, and its options."""

    sheets: tuple[Loaded[S], ...]
    options: Options = NO_OPTIONS
    chooser: Chooser = default_choice


@frozen
class TurnRequest(Generic[S]):
    """The start of one character's turn in an encounter (or of a new round: `sheet` is None)."""

    encounter: EncounterState
    sheet: Loaded[S] | None
    everyone: tuple[Loaded[S], ...] = ()


@frozen
class Choice:
    """One value a form may offer for a parameter: what is sent, and what a person reads."""

    value: str
    label: str = ""

    @property
    def shown(self) -> str:
        return self.label or self.value


@frozen
class HandHealth:
    """How the MJ's damage or healing by hand reads for this system: its unit and sign
    (« PV −5 / +3 », « blessures +1 »), said in the form and in the messages."""

    unit: str          # "PV", "blessures"
    example: str       # "−5 (dégâts), +3 (soins) ou 12"
    damage_sign: str   # "-": damage lowers the value (PV); "+": damage adds to it (wounds)


@frozen
class SystemHelp:
    """What `jdr aide SYSTEME` lists."""

    characteristics: Mapping[str, str]  # key -> French label
    skills: Mapping[str, str]
    defences: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())


class GameSystem(Generic[S]):
    """Base of a game system, generic over its typed sheet model `S`.

    A system declares `actions` (the ones it supports, with their options and `--des` order);
    the use-case layer refuses any other action before calling it. Methods return an `Outcome`.
    """

    id: str = ""
    title: str = ""
    seed: str = ""
    actions: Mapping[str, ActionSpec] = {}
    ladder: Ladder | None = None
    # every state `state` may give (`jdr.core.french.STATES` words them, agreed by genre)
    states: tuple[str, ...] = ("debout",)

    @property
    def short_title(self) -> str:
        """The game's name, as a page header or a list shows it: its title up to the first
        « : », « — » or « ( » (« Cydonia : caractéristique + compétence + 1d10 » → « Cydonia »)."""
        head = self.title
        for cut in (" : ", " — ", " ("):
            head = head.split(cut, 1)[0]
        return head.strip() or self.id

    def _unsupported(self, what: str) -> RuleError:
        return RuleError(f"le système « {self.id} » ne prend pas en charge {what}")

    # sheets
    def template(self) -> str:
        raise self._unsupported("les modèles de fiche")

    def load(self, doc: SheetDocument) -> S:
        """Validate a sheet into the typed model; raise SheetError listing every problem."""
        raise self._unsupported("les fiches")

    def name_of(self, model: S) -> str:
        """The character's name as written on the sheet (`nom`)."""
        return str(getattr(model, "nom", "") or getattr(model, "name", ""))

    def creation_problems(self, loaded: Loaded[S]) -> list[str]:
        """Extra problems `sheet check --creation` reports (budgets ...); none by default."""
        return []

    def show(self, sheet: Loaded[S]) -> SheetView:
        raise self._unsupported("l'affichage de fiche")

    def help(self) -> SystemHelp:
        raise self._unsupported("l'aide")

    # actions (each one listed in `actions`)
    def check(self, request: CheckRequest[S], source: DiceSource) -> Outcome:
        raise self._unsupported("les jets")

    def odds(self, request: CheckRequest[S]) -> Odds | Report:
        raise self._unsupported("le calcul des chances")

    def attack(self, request: AttackRequest[S], source: DiceSource) -> Outcome:
        raise self._unsupported("les attaques")

    def xp(self, request: XpRequest[S]) -> Outcome:
        raise self._unsupported("la dépense d'XP")

    def initiative(self, request: GroupRequest[S], source: DiceSource) -> Outcome:
        raise self._unsupported("l'initiative")

    def duel(self, request: GroupRequest[S], source: DiceSource) -> Outcome:
        raise self._unsupported("les duels")

    def new_session(self, request: GroupRequest[S]) -> Outcome:
        raise self._unsupported("les nouvelles sessions")

    def demo(self, source: DiceSource) -> Result:
        raise self._unsupported("la démonstration")

    def demo_sheets(self) -> tuple[str, ...]:
        """The sheets (YAML) of the demo table (`make run`); none: the template and a copy."""
        return ()

    def rule(self, name: str, request: RuleRequest[S], source: DiceSource | None) -> Outcome:
        """A rule of the system's own, declared in `actions` under `name`."""
        raise self._unsupported(f"la règle « {name} »")

    def rule_odds(self, name: str, request: RuleRequest[S]) -> Odds | Report:
        """The exact odds of a rule that is a roll (`jdr regle NOM ... --chances`)."""
        raise self._unsupported(f"les chances de la règle « {name} »")

    # states and encounters (D-ALL.02)
    def state(self, sheet: Loaded[S]) -> str:
        """The character's state: `debout`, `assomme`, `mourant`, `mort`, `inconscient`, `coma`,
        `en_fuite`, `hors_de_combat`."""
        return "debout"

    def incapacity(self, sheet: Loaded[S]) -> Line | None:
        """Why this character cannot act now (French, with the rule id), or None."""
        return None

    def refusal(self, action: str, sheet: Loaded[S], request: object) -> Line | None:
        """Why `sheet` may not take this action now (D-ALL.02), or None. By default whoever
        cannot act is refused every active action; a system allows reactions and passive values
        (a save, a resistance roll) by overriding this with the action and its request."""
        return self.incapacity(sheet)

    def health(self, sheet: Loaded[S]) -> Health | None:
        return None

    def hand_health(self, sheet: Loaded[S]) -> HandHealth | None:
        """The unit and sign of health by hand (`sante`), from `health` by default: hit points
        go down with damage, wounds go up."""
        health = self.health(sheet)
        if health is None:
            return None
        if health.unit == "pv":
            return HandHealth("PV", "−5 (dégâts), +3 (soins) ou 12 (valeur fixée)", "-")
        return HandHealth("blessures", "+1 (une blessure de plus), −1 (une de moins) ou 2", "+")

    # choices the forms offer (pages, `jdr aide`): from the rules and the actual sheets
    def check_choices(self, sheet: Loaded[S]) -> tuple[Choice, ...]:
        """What this character may roll a check with (skills, characteristics, resistances…):
        by default the system's help lists."""
        info = self.help()
        return tuple(Choice(k, v) for k, v in {**info.skills, **info.characteristics}.items())

    def carac_choices(self, sheet: Loaded[S]) -> tuple[Choice, ...]:
        """The characteristics a check may be rolled with instead of the usual one."""
        return tuple(Choice(k, v) for k, v in self.help().characteristics.items())

    def die_choices(self, sheet: Loaded[S]) -> tuple[Choice, ...]:
        """The dice a player may choose for a check (`--de`); none by default."""
        return ()

    def weapon_choices(self, sheet: Loaded[S]) -> tuple[Choice, ...]:
        """The weapons this character may attack with; none by default (bare hands)."""
        return ()

    def defence_choices(self, attacker: Loaded[S], defender: Loaded[S] | None,
                        weapon: str | None) -> tuple[Choice, ...]:
        """The defences the rules allow against this attack; by default the help's list."""
        return tuple(Choice(d) for d in self.help().defences)

    def aim_choices(self, attacker: Loaded[S], weapon: str | None) -> tuple[Choice, ...]:
        """The zones an attack may aim at (`--visee`); none by default (no aimed attack)."""
        return ()

    def critical_choices(self, attacker: Loaded[S]) -> tuple[Choice, ...]:
        """The critical options a player may pick ahead (`--critique`); none by default."""
        return ()

    full_attack: bool = False  # the rules know a full attack (`--complete`)

    def attack_odds(self, request: AttackRequest[S]) -> Odds | Report:
        """The exact odds of the attack `attack` would roll (asked before every attack)."""
        raise self._unsupported("les chances d'une attaque")

    # The simulator may compile one attack table per pair of sheets apart from their health
    # (instead of one per health) when the attack's effect on health is a difference that does not
    # depend on either character's health, its other changes neither, and `state`/`incapacity`
    # follow from the sheet's values (docs/systemes.md).
    attack_health_relative: bool = False

    def attack_outcomes(self, request: AttackRequest[S]) -> Mapping[Effect, Fraction] | None:
        """The exact outcomes of the attack `attack` rolls, for the simulator (`jdr simuler`):
        each effect on the two sheets (0: attacker, 1: defender) with its probability, or None
        when it cannot be compiled (the simulator then plays it die by die). By default, `attack`
        itself enumerated over every sequence of faces (`jdr.core.compile`); a system may give
        the same table faster from its distributions."""
        from jdr.core.compile import compile_outcomes

        return compile_outcomes(lambda source: self.attack(request, source),
                                (request.attacker.doc, request.defender.doc))

    def health_path(self, sheet: Loaded[S]) -> tuple[str, ...]:
        """Where the current health is kept on the sheet (a `{max, actuels}` pool, or a plain
        count): what `jdr sante` (the MJ's damage or healing by hand) changes."""
        return ("pv",)

    def conditions(self, sheet: Loaded[S]) -> tuple[str, ...]:
        """Lasting conditions shown in the encounter table (concentration, prédilection utilisée …)."""
        return ()

    def turn_start(self, request: TurnRequest[S], source: DiceSource) -> Outcome | None:
        """What the rules do when `request.sheet`'s turn begins (a wake-up roll, ...)."""
        return None

    def round_start(self, request: TurnRequest[S], source: DiceSource) -> Outcome | None:
        """What the rules do when a new round begins (may reorder `request.encounter`)."""
        return None

    # turns (`jdr.core.turns`): what a turn allows, and what each action costs of it
    def turn_limits(self) -> TurnLimits:
        """What one turn allows (by default one action per turn)."""
        from jdr.core.turns import DEFAULT_LIMITS

        return DEFAULT_LIMITS

    def turn_cost(self, action: str, act: TurnAct) -> Cost | None:
        """What `action` costs of its character's turn, or None when it is not bound to the
        turn (by default only an attack: one action)."""
        from jdr.core.turns import default_cost

        return default_cost(action, act)
