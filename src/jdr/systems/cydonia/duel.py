"""Cydonia, a fight to the end between two characters (RULES.md 1.3): initiative, then round
after round each fighter attacks the other with its main weapon, until one is dying or dead.

A knocked-out fighter (R000.41) loses its next turn, then rolls to wake up at the start of each
of its turns (D-000.49); it cannot act until it wakes (D-ALL.02) and makes no defence roll
(D-000.47).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jdr.core.french import is_state, loses_turn
from jdr.core.frozen import frozen
from jdr.core.results import Line, Notes, Report, Result
from jdr.dice.source import DiceSource
from jdr.systems.cydonia.checks import Character, wake_check
from jdr.systems.cydonia.combat import AttackOptions, Update, attack, initiative, updated


@dataclass
class Fighter:
    """One side of the duel, as it stands now."""

    character: Character
    turns_out: int = 0  # the fighter's turns since it was knocked out
    changes: dict[tuple[str, ...], int | bool | str | None] = field(default_factory=dict)

    def apply(self, updates: tuple[Update, ...]) -> None:
        if not updates:
            return
        was_out = bool(self.character.sheet.etat.assomme)
        self.character = updated(self.character, updates)
        self.changes.update(dict(updates))
        if self.character.sheet.etat.assomme and not was_out:
            self.turns_out = 0

    @property
    def over(self) -> bool:
        return self.character.state in ("mourant", "mort")


@frozen
class DuelResult:
    report: Report
    fighters: tuple[Fighter, Fighter]


def _weapon_name(c: Character) -> str:
    main = next((w.nom for w in c.sheet.armes if w.equipee == "principale"), None)
    return main or "mains nues"


def duel(a: Character, b: Character, source: DiceSource, max_rounds: int = 50) -> DuelResult:
    """R000.21–R000.41, D-000.47, D-000.49: rounds until one fighter is dying or dead."""
    order = initiative([a, b], source)
    fighters = {a.name: Fighter(a), b.name: Fighter(b)}
    parts: list[Result] = [order]
    outcome = Line(f"aucun vainqueur après {max_rounds} tours")
    for n in range(1, max_rounds + 1):
        played: list[Result] = []
        winner = None
        for name in order.names:
            me = fighters[name]
            foe = next(f for k, f in fighters.items() if k != name)
            if _turn(me, foe, source, played):
                winner = me
                break
        parts.append(Report(f"Tour {n}", tuple(played)))
        if winner is not None:
            loser = next(f for f in fighters.values() if f is not winner)
            fallen = is_state(loser.character.name, loser.character.state, loser.character.genre)
            outcome = Line(f"{fallen} ; {winner.character.name} l'emporte au tour {n}", "R000.34")
            break
    title = (f"Duel : {a.name} ({_weapon_name(a)}) contre {b.name} ({_weapon_name(b)})")
    report = Report(title, tuple(parts), (outcome,), "R000.21")
    return DuelResult(report, (fighters[a.name], fighters[b.name]))


def _turn(me: Fighter, foe: Fighter, source: DiceSource, played: list[Result]) -> bool:
    """One fighter's turn: wake up if knocked out, lose it if paralysed (R000.27), then attack.
    True when the foe is down."""
    if me.character.sheet.etat.assomme and not _wakes(me, source, played):
        return False
    if me.character.sheet.etat.paralyse:
        who = me.character
        played.append(Notes(f"{is_state(who.name, 'paralyse', who.genre)} : {loses_turn(who.genre)}",
                            rule="R000.27"))
        me.apply(((("etat", "paralyse"), False),))
        return False
    blow = attack(me.character, foe.character, AttackOptions(), source)
    played.append(blow.report)
    me.apply(blow.attacker)
    foe.apply(blow.defender)
    return foe.over


def wake_turn(character: Character, turns_out: int, source: DiceSource) -> tuple[Result, bool]:
    """R000.41, A000.29, D-000.49: at its `turns_out`-th turn since the knock-out, the first is
    lost; then Résistance Physique must be strictly greater than damage − n at the n-th attempt.
    Returns what happened and whether the character woke up."""
    if turns_out <= 1:
        return Notes(f"{is_state(character.name, 'assomme', character.genre)} : "
                     f"{loses_turn(character.genre)}", rule="R000.41"), False
    roll = wake_check(character, turns_out - 1).roll(source)
    return roll, bool(roll.success)


def _wakes(me: Fighter, source: DiceSource, played: list[Result]) -> bool:
    me.turns_out += 1
    result, woke = wake_turn(me.character, me.turns_out, source)
    played.append(result)
    if woke:
        me.apply(((("etat", "assomme"), 0),))
    return woke
