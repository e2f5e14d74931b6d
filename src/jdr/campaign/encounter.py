"""The campaign's encounter: start (initiative by the system's rule), show, next turn, join, leave,
end. Each step is journaled with the encounter's state before and after, so `jdr annuler` undoes
it like any other action.

`next_turn` applies what the rules do at that moment through the system's hooks: a new round
(`round_start`: a bonus to who did not act, the end of combat, ...), then the new current
character's turn (`turn_start`: a wake-up roll, a waking time, ...). A character the rules leave
unable to act has its turn passed, with a note naming the rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from jdr.campaign.journal import ENCOUNTER
from jdr.campaign.store import Entry, Tx
from jdr.core.encounter import Combatant, EncounterState
from jdr.core.initiative import Order, order_of
from jdr.core.results import CombatantView, EncounterView, Line, Result
from jdr.core.system import GroupRequest, Loaded, Outcome, TurnRequest
from jdr.core.usecase import AnySystem, apply_changes, changes_json, options
from jdr.dice.source import DiceSource
from jdr.errors import RuleError


def _state(tx: Tx) -> EncounterState:
    row = tx.encounter()
    if row is None:
        from jdr.core.messages import command, say

        raise RuleError(say("aucune rencontre en cours : ",
                            command("combat:debut", "combat debut NOMS…")))
    return EncounterState.from_json(row.state)


def view(tx: Tx, state: EncounterState | None = None, events: tuple[Result, ...] = (),
         notes: tuple[Line, ...] = ()) -> EncounterView:
    state = state or _state(tx)
    system, loaded = tx.load(state.names()) if state.order else (tx.campaign.system, [])
    rows = []
    for c, sheet in zip(state.order, loaded, strict=True):
        rows.append(CombatantView(c.name, c.score, system.state(sheet), system.health(sheet),
                                  system.conditions(sheet), c.acted, sheet.genre))
    current = state.current
    return EncounterView(state.round, current.name if current else None, tuple(rows), state.ended,
                         notes, events)


def _journal(tx: Tx, action: str, params: dict[str, Any], before: dict[str, Any] | None,
             after: EncounterState | None, result: EncounterView, changes: list[Any],
             dice: list[Any], author: str) -> Entry:
    from jdr.render.forum import to_forum
    from jdr.render.json import to_json
    from jdr.render.text import to_text

    state = after.to_json() if after is not None else None
    tx.set_encounter(state)
    enc_change = {"character": ENCOUNTER, "path": ["etat"], "pool": False, "before": before,
                  "after": state}
    return tx.append(author, action, params, dice, to_json(result), to_text(result),
                     to_forum(result), [*changes, enc_change], "public", author)


def _given_order(loaded: list[Loaded[Any]]) -> Outcome:
    """The order the MJ gives (a system with no initiative rule, or `--ordre-donne`)."""
    from jdr.core.initiative import OrderEntry

    n = len(loaded)
    entries = tuple(OrderEntry(s.name, n - i, None, (), ()) for i, s in enumerate(loaded))
    return Outcome(Order(entries, (), "", "initiative",
                         (Line("ordre donné par le MJ, dans l'ordre des noms"),)))


def start(tx: Tx, names: list[str], source: Any, opts: Any = None, author: str = "MJ",
          given: bool = False) -> tuple[EncounterView, Entry]:
    if tx.encounter() is not None:
        from jdr.core.messages import command, say

        raise RuleError(say("une rencontre est déjà en cours : ",
                            command("combat:fin", "combat fin"), ", ou ",
                            command("combat:rejoindre", "combat rejoindre")))
    system, loaded = tx.load(names)
    if given or "initiative" not in system.actions:
        outcome = _given_order(loaded)
    else:
        request = GroupRequest(tuple(loaded), options(system, "initiative", opts or []))
        outcome = system.initiative(request, source)
    order = order_of(outcome.result)
    state = EncounterState(order=[Combatant(e.name, e.score) for e in order.entries])
    events: list[Result] = [outcome.result]
    changes: list[Any] = []
    notes = _settle(tx, state, source, events, changes, advance=False)
    result = view(tx, state, tuple(events), tuple(notes))
    entry = _journal(tx, "combat:start", {"personnages": names}, None, state, result, changes,
                     source.dice_json() if hasattr(source, "dice_json") else [], author)
    return result, entry


def _apply(tx: Tx, system: AnySystem, outcome: Outcome | None, events: list[Result],
           changes: list[Any]) -> None:
    if outcome is None:
        return
    events.append(outcome.result)
    if outcome.changes:
        from jdr.core.usecase import Pending

        docs, before = apply_changes(system, outcome.changes)
        tx.save(list(docs))
        changes.extend(changes_json(Pending(outcome, docs, before)))


def _reload(tx: Tx, names: list[str]) -> tuple[AnySystem, dict[str, Loaded[Any]]]:
    system, loaded = tx.load(names)
    return system, {sheet.name: sheet for sheet in loaded}


def _settle(tx: Tx, state: EncounterState, source: DiceSource, events: list[Result],
            changes: list[Any], advance: bool) -> list[Line]:
    """Advance (or not) to the next character who can act, applying the rules of each new round
    and of each turn that begins; a character who cannot act has its turn passed, with a note."""
    notes: list[Line] = []
    for _ in range(len(state.order) + 1):
        if advance and state.advance():
            system, everyone = _reload(tx, state.names())
            _apply(tx, system, system.round_start(
                TurnRequest(state, None, tuple(everyone.values())), source), events, changes)
            if state.ended:
                return notes
            for c in state.order:
                c.acted = False
        advance = True
        current = state.current
        assert current is not None
        system, everyone = _reload(tx, state.names())
        _apply(tx, system, system.turn_start(
            TurnRequest(state, everyone[current.name], tuple(everyone.values())), source),
            events, changes)
        system, everyone = _reload(tx, state.names())
        why = system.incapacity(everyone[current.name])
        if why is None:
            return notes
        notes.append(Line(f"{current.name} ne peut pas agir : {why.text} — tour passé", why.rule))
    notes.append(Line("personne ne peut agir"))
    return notes


def next_turn(tx: Tx, source: DiceSource, author: str = "MJ") -> tuple[EncounterView, Entry]:
    from jdr.campaign.choices import settle_all

    settle_all(tx, source)  # a roll still waiting for a choice takes its defaults
    state = _state(tx)
    before = state.to_json()
    events: list[Result] = []
    changes: list[Any] = []
    notes = _settle(tx, state, source, events, changes, advance=True)
    result = view(tx, state, tuple(events), tuple(notes))
    dice = source.dice_json() if hasattr(source, "dice_json") else []
    return result, _journal(tx, "combat:suivant", {}, before, state, result, changes, dice, author)


def join(tx: Tx, names: list[str], source: Any, author: str = "MJ") -> tuple[EncounterView, Entry]:
    state = _state(tx)
    before = state.to_json()
    system, loaded = tx.load(names)
    if "initiative" in system.actions:
        outcome = system.initiative(GroupRequest(tuple(loaded)), source)
    else:  # no initiative rule: newcomers come last, in the order given
        low = min((c.score for c in state.order), default=0)
        given = order_of(_given_order(loaded).result)
        outcome = Outcome(replace(given, entries=tuple(
            replace(e, score=low - 1 - i) for i, e in enumerate(given.entries))))
    order = order_of(outcome.result)
    for e in order.entries:
        state.join(Combatant(e.name, e.score, joined_round=state.round))
    result = view(tx, state, events=(outcome.result,))
    dice = source.dice_json() if hasattr(source, "dice_json") else []
    return result, _journal(tx, "combat:rejoindre", {"personnages": names}, before, state, result,
                            [], dice, author)


def leave(tx: Tx, names: list[str], author: str = "MJ") -> tuple[EncounterView, Entry]:
    state = _state(tx)
    before = state.to_json()
    for name in names:
        state.leave(name)
    result = view(tx, state)
    return result, _journal(tx, "combat:quitter", {"personnages": names}, before, state, result,
                            [], [], author)


def end(tx: Tx, author: str = "MJ") -> tuple[EncounterView, Entry]:
    from jdr.campaign.choices import settle_all

    settle_all(tx)
    state = _state(tx)
    before = state.to_json()
    state.ended = True
    result = view(tx, state)
    return result, _journal(tx, "combat:fin", {}, before, None, result, [], [], author)
