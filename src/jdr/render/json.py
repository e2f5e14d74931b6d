"""JSON for every result type: one key per notion across all systems (documented in
`docs/json.md`). Every object carries `type`; rule ids stay in JSON (`rule`).
Probabilities are floats in [0, 1]; dice are lists of faces, with `dice_detail` for the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jdr.core.results import Line

if TYPE_CHECKING:
    from jdr.core.check import CheckResult, Odds
    from jdr.core.contest import ContestResult
    from jdr.core.initiative import Order
    from jdr.core.results import (
        AttackReport,
        Damage,
        EncounterView,
        Location,
        Notes,
        Purchase,
        Report,
        SheetView,
    )
from jdr.dice.notation import Die, RollResult

SCHEMA_VERSION = 1


def _dice(dice: Sequence[Die]) -> dict[str, Any]:
    return {
        "dice": [d.face for d in dice],
        "dice_detail": [{"sides": d.sides, "face": d.face, "kept": d.kept, "note": d.note}
                        for d in dice],
    }


def _lines(lines: Sequence[Line | str]) -> list[dict[str, str]]:
    return [{"text": n.text, "rule": n.rule} if isinstance(n, Line) else {"text": n, "rule": ""}
            for n in lines]


def _p(value: Any) -> float | None:
    return None if value is None else float(value)


def roll(r: RollResult) -> dict[str, Any]:
    out = {
        "type": "roll", "expression": r.expression, "total": r.total, "success": r.success,
        "detail": r.detail(), **_dice(r.dice),
        "groups": [{"notation": g.notation, "value": g.value, "dice": [d.face for d in g.dice]}
                   for g in r.groups],
        "meaning": list(r.notes), "comment": r.comment,
    }
    if r.repeats:
        out["repeats"] = [roll(one) for one in r.repeats]
    return out


def dice_odds(o: Any) -> dict[str, Any]:
    """Exact odds of a free expression: distribution, P(at least), comparison, truncated part."""
    return {
        "type": "dice_odds", "expression": o.expression, "success": _p(o.success),
        "comparison": o.comparison, "counting": o.counting, "repeat": o.repeat,
        "mean": float(o.mean),
        "minimum": o.minimum if o.distribution else None,
        "maximum": o.maximum if o.distribution else None,
        "truncated": float(o.truncated),
        "distribution": {str(t): float(p) for t, p in o.distribution},
        "at_least": {str(t): float(o.at_least(t)) for t, _ in o.distribution},
        "meaning": list(o.notes), "comment": o.comment,
    }


def _natural(value: Any) -> Any:
    """The natural value as JSON: an int when the system's natural is int-like or has a face."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    face = getattr(value, "face", None)
    if isinstance(face, int):
        return face
    return value if isinstance(value, str) else str(value)


def check(r: CheckResult) -> dict[str, Any]:
    return {
        "type": "check", "label": r.label, "actor": r.who, "total": r.total,
        "natural": _natural(r.natural),
        **_dice(r.dice),
        "modifiers": [{"value": m.value, "reason": m.reason, "rule": m.rule} for m in r.modifiers],
        "threshold": r.threshold, "success": r.success, "critical": r.critical,
        "margin": r.margin, "rule": r.rule, "notes": _lines(r.notes),
    }


def contest(r: ContestResult) -> dict[str, Any]:
    actor = check(r.actor)
    return {
        "type": "contest", "total": r.actor.total, "success": r.success, "winner": r.winner,
        "tie": r.tie, "margin": r.gap, "critical": r.actor.critical,
        "dice": actor["dice"], "actor": actor, "opponent": check(r.opponent),
        "rounds": [{"actor": check(a), "opponent": check(b)} for a, b in r.rounds],
        "rule": r.rule, "notes": _lines(r.notes),
    }


def odds(o: Odds) -> dict[str, Any]:
    return {
        "type": "odds", "label": o.label, "threshold": o.threshold, "success": _p(o.success),
        "opponent_wins": _p(o.opponent_wins), "nobody": _p(o.nobody), "tie": _p(o.tie),
        "critical_success": _p(o.critical_success), "critical_failure": _p(o.critical_failure),
        "mean": float(o.mean),
        "distribution": {str(t): float(p) for t, p in o.distribution},
        **{key: float(p) for key, _, p in o.extra},
        "rule": o.rule, "notes": _lines(o.notes),
    }


def order(o: Order) -> dict[str, Any]:
    return {
        "type": "order", "rule": o.rule,
        "order": [{"name": e.name, "score": e.score,
                   "dice": [d.face for d in e.check.dice] if e.check is not None else [],
                   "check": check(e.check) if e.check is not None else None,
                   "tiebreaks": [{"label": k, "value": v} for k, v in e.tiebreaks],
                   "rolloffs": list(e.rolloffs)} for e in o.entries],
        "rolloffs": [{"names": list(r.names), "faces": list(r.faces), "sides": r.sides}
                     for r in o.rolloffs],
        "notes": _lines(o.notes),
    }


def _damage(d: Damage) -> dict[str, Any]:
    return {"formula": d.formula, "total": d.total, "protection": d.protection,
            "suffered": d.suffered, **_dice(d.dice), "notes": _lines(d.detail)}


def _location(loc: Location | None) -> dict[str, Any] | None:
    if loc is None:
        return None
    return {"total": loc.total, "zone": loc.zone, **_dice(loc.dice), "notes": _lines(loc.detail)}


def attack(r: AttackReport) -> dict[str, Any]:
    damage = [_damage(d) for d in r.damage]
    return {
        "type": "attack", "attacker": r.attacker, "defender": r.defender, "weapon": r.weapon,
        "hit": r.hit, "critical": r.critical,
        "steps": [to_json(s) for s in r.steps],
        "location": _location(r.location),
        "damage": damage[0] if len(damage) == 1 else (damage or None),
        "health": None if r.health is None else {
            "unit": r.health.unit, "before": r.health.before, "after": r.health.after,
            "max": r.health.max},
        "state": None if r.state is None else r.state.after,
        "state_before": None if r.state is None else r.state.before,
        "rule": r.rule, "notes": _lines(r.notes),
    }


def sheet(v: SheetView) -> dict[str, Any]:
    return {
        "type": "sheet", "system": v.system, "name": v.name,
        "values": {row.key: row.value for s in v.sections for row in s.rows},
        "sections": [{"title": s.title,
                      "rows": [{"key": r.key, "label": r.label, "value": r.value,
                                "text": r.text or ("" if r.value is None else str(r.value)),
                                "rule": r.rule} for r in s.rows]}
                     for s in v.sections],
        "notes": _lines(v.notes),
    }


def purchase(p: Purchase) -> dict[str, Any]:
    return {"type": "purchase", "name": p.name, "what": p.what, "before": p.before,
            "after": p.after, "cost": p.cost, "xp_before": p.xp_before, "xp_after": p.xp_after,
            "rule": p.rule, "notes": _lines(p.notes)}


def notes(n: Notes) -> dict[str, Any]:
    return {"type": "notes", "title": n.title, "lines": _lines(n.lines), "rule": n.rule}


def report(r: Report) -> dict[str, Any]:
    return {"type": "report", "title": r.title, "parts": [to_json(p) for p in r.parts],
            "rule": r.rule, "notes": _lines(r.notes)}


def encounter(e: EncounterView) -> dict[str, Any]:
    return {
        "type": "encounter", "round": e.round, "current": e.current, "ended": e.ended,
        "order": [{"name": c.name, "score": c.score, "state": c.state, "acted": c.acted,
                   "hit_points": None if c.health is None else {
                       "unit": c.health.unit, "current": c.health.after, "max": c.health.max},
                   "conditions": list(c.conditions)} for c in e.order],
        "events": [to_json(x) for x in e.events],
        "notes": _lines(e.notes),
    }


_DISPATCH: dict[str, Any] = {  # by class name, along the MRO (see render/text.py)
    "RollResult": roll, "CheckResult": check, "ContestResult": contest, "Odds": odds,
    "Order": order, "AttackReport": attack, "SheetView": sheet, "Purchase": purchase,
    "Notes": notes, "Report": report, "EncounterView": encounter, "DiceOdds": dice_odds,
}


def to_json(result: Any) -> dict[str, Any]:
    for cls in type(result).__mro__:
        fn = _DISPATCH.get(cls.__name__)
        if fn is not None:
            out: dict[str, Any] = fn(result)
            return out
    raise TypeError(f"pas de rendu JSON pour {type(result).__name__}")


_UNSAFE: Any = None


def dumps(data: Any) -> str:
    """JSON text; characters a terminal or a page could obey (DEL, C1 controls, line and
    paragraph separators, bidi overrides) are written as `\\uXXXX` escapes, still valid JSON."""
    import re

    global _UNSAFE
    if _UNSAFE is None:
        _UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
    text = json.dumps(data, ensure_ascii=False, indent=2)
    escaped: str = _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return escaped


def error(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)
