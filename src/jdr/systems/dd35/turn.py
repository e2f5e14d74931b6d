"""The actions of a turn in dd35 (R002.14, R002.15, A002.14, A002.15, A002.20): pure values and a
verdict, checked before `jdr attaque` or the `manoeuvre` rule plays (`--opt tour=mouvement+simple`)
and by the `tour` rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field, replace
from typing import Literal

from jdr.core.frozen import frozen
from jdr.core.turns import Cost, TurnAct, TurnLimits
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.dd35.tables import MOVE_SQUARE_METRES

ActionKind = Literal["mouvement", "simple", "simple_en_mouvement", "complexe", "libre", "pas"]

ACTION_LABELS: dict[ActionKind, str] = {
    "mouvement": "Action Mouvement", "simple": "Action Simple",
    "simple_en_mouvement": "Action Simple utilisée comme Action Mouvement",
    "complexe": "Action Complexe", "libre": "Action Libre", "pas": "Pas de Placement",
}

ALIASES: dict[str, ActionKind] = {
    "move": "mouvement", "standard": "simple", "full": "complexe", "complete": "complexe",
    "gratuite": "libre", "free": "libre", "pas_de_placement": "pas", "5ft": "pas",
}


@frozen
class Action:
    """One declared action. `moves`: it is a Déplacement (a move action usually is).
    `full_attack`: every iterative attack. `targets`: opponents of a manoeuvre."""

    kind: ActionKind
    name: str = ""
    moves: bool | None = None
    full_attack: bool = False
    manoeuvre: bool = False
    targets: int = 1

    @property
    def is_movement(self) -> bool:
        if self.moves is not None:
            return self.moves
        return self.kind in ("mouvement", "simple_en_mouvement")


@frozen
class TurnVerdict:
    valid: bool
    problems: tuple[str, ...] = field(default=())
    distance_step_m: float | None = None


def _count(actions: Sequence[Action]) -> dict[str, int]:
    count: dict[str, int] = {k: 0 for k in ACTION_LABELS}
    for a in actions:
        if a.kind not in ACTION_LABELS:
            raise RuleError(f"action inconnue « {a.kind} » (autorisé : {', '.join(ACTION_LABELS)})")
        count[a.kind] += 1
    return count


def _economy(count: dict[str, int]) -> list[str]:
    """R002.14 + A002.14: one Move and one Simple (usable as a second move), or one Complex."""
    problems: list[str] = []
    simple = count["simple"] + count["simple_en_mouvement"]
    if count["mouvement"] > 1:
        problems.append("une seule Action Mouvement par tour")
    if simple > 1:
        problems.append("une seule Action Simple par tour (y compris utilisée comme mouvement)")
    if count["complexe"] > 1:
        problems.append("une seule Action Complexe par tour")
    if count["complexe"] and (count["mouvement"] or simple):
        problems.append("aucune autre action avant ou après une Action Complexe, sauf des "
                        "Actions Libres ou un Pas de Placement")
    return problems


def _step(actions: Sequence[Action], count: dict[str, int], difficult_terrain: bool) -> list[str]:
    """R002.14 + A002.15: one Pas de Placement, not after a Déplacement, not in difficult terrain."""
    problems: list[str] = []
    if count["pas"] > 1:
        problems.append("un seul Pas de Placement par tour")
    if count["pas"] and any(a.is_movement for a in actions if a.kind != "pas"):
        problems.append("pas de Pas de Placement dans un tour où le personnage s'est déplacé")
    if count["pas"] and difficult_terrain:
        problems.append("pas de Pas de Placement en terrain difficile")
    return problems


def _attacks(actions: Sequence[Action], attacks_per_round: int) -> list[str]:
    """A002.20: a full attack is a Complex action. R002.15: a manoeuvre reaches at most as many
    opponents as the attacks per round, and against several it is a Complex action."""
    problems: list[str] = []
    for a in actions:
        label = a.name or ACTION_LABELS[a.kind]
        if a.full_attack and a.kind != "complexe":
            problems.append(f"{label} : une attaque complète (toutes les attaques itératives) "
                            "est une Action Complexe")
        if a.manoeuvre and a.targets > attacks_per_round:
            problems.append(f"{label} : {a.targets} adversaires, mais seulement "
                            f"{attacks_per_round} attaque(s) par round")
        if a.manoeuvre and a.targets > 1 and a.kind != "complexe":
            problems.append(f"{label} : contre plusieurs adversaires, la manœuvre devient "
                            "une Action Complexe")
    return problems


def validate_turn(actions: Sequence[Action], attacks_per_round: int = 1,
                  difficult_terrain: bool = False) -> TurnVerdict:
    """R002.14: a Move action and a Simple action, or one Complex action; any Free actions; a
    5-foot step (1.5 m, one square) unless the character moved this turn (A002.14, A002.15,
    A002.20, R002.15 in the steps above)."""
    count = _count(actions)
    problems = (_economy(count) + _step(actions, count, difficult_terrain)
                + _attacks(actions, attacks_per_round))
    return TurnVerdict(not problems, tuple(problems),
                       MOVE_SQUARE_METRES if count["pas"] else None)


def parse_turn(text: str) -> tuple[Action, ...]:
    """`mouvement+simple+libre` → actions (names after D-ALL.01 normalisation)."""
    kinds: dict[str, ActionKind] = {**{k: k for k in ACTION_LABELS}, **ALIASES}
    out: list[Action] = []
    for part in text.replace(",", "+").split("+"):
        key = normalize(part)
        if not key:
            continue
        if key not in kinds:
            raise RuleError(f"action inconnue « {part.strip()} » "
                            f"(autorisé : {', '.join(ACTION_LABELS)})")
        out.append(Action(kinds[key]))
    return tuple(out)


def check_declared_turn(declared: str, full: bool, attacks: int) -> None:
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


def check_declared_manoeuvre(declared: str, targets: int, attacks: int) -> None:
    """R002.15: the declared turn (`--opt tour=...`) with a manoeuvre against `targets`
    opponents, played by its Complex action, else its Simple action (added when neither is
    declared): against several opponents it must be the Complex action."""
    actions = list(parse_turn(declared))
    kinds = [a.kind for a in actions]
    slot = "complexe" if "complexe" in kinds else "simple"
    if slot in kinds:
        index = kinds.index(slot)
        actions[index] = replace(actions[index], name="manœuvre", manoeuvre=True, targets=targets)
    else:
        actions.append(Action("simple", "manœuvre", manoeuvre=True, targets=targets))
    verdict = validate_turn(actions, attacks)
    if not verdict.valid:
        raise RuleError("tour illégal : " + " ; ".join(verdict.problems))


def pas_de_placement_distance() -> tuple[float, int]:
    """E002.07: a Pas de Placement moves 1.5 m, one square."""
    return MOVE_SQUARE_METRES, 1


# ------------------------------------------------------------------ what a turn allows (core.turns)

LIMITS = TurnLimits(
    {"mouvement": 1, "simple": 1, "complexe": 1, "tour": 1},
    "une Action Mouvement et une Action Simple, ou une Action Complexe, par tour", "R002.14",
    "R002.13",
    {"complexe": frozenset({"mouvement", "simple", "complexe", "tour"}),
     "simple": frozenset({"complexe", "tour"}), "mouvement": frozenset({"complexe", "tour"}),
     "tour": frozenset({"mouvement", "simple", "complexe", "tour"})})


def turn_cost(action: str, act: TurnAct) -> Cost | None:
    """R002.14, A002.20: one attack is an Action Simple, a full attack (every iterative) an
    Action Complexe; R002.15: a manoeuvre against several opponents becomes Complexe; attendre
    (R002.13, A002.04) is the whole turn not played."""
    if action == "attack":
        if act.full:
            return Cost("complexe", "une attaque complète (Action Complexe)", "A002.20")
        return Cost("simple", "une attaque (Action Simple)", "A002.20")
    if action == "manoeuvre":
        if act.targets > 1:
            return Cost("complexe", "une manœuvre contre plusieurs adversaires (Action Complexe)",
                        "R002.15")
        return Cost("simple", "une manœuvre (Action Simple)", "R002.15")
    if action == "attendre":
        return Cost("tour", "attendre", "A002.04", declaration=True)
    return None
