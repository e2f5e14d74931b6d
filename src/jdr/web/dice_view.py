"""Dice chips of a journal entry, read from its result (the JSON of `jdr.render.json`), never
guessed: each group says what it rolled (attaque, défense, localisation, dégâts, the check's own
label), each die whether it was kept, and a long list is folded (the first `SHOWN` faces, the
others behind « … (N dés) »). Knows no system: only the shared result types.
"""

from __future__ import annotations

from typing import Any

from jdr.core.french import de

SHOWN = 20  # faces shown before the fold


def _faces(part: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not isinstance(part, dict):
        return []
    detail = part.get("dice_detail")
    if isinstance(detail, list):
        return [{"sides": d.get("sides"), "face": d.get("face"), "kept": d.get("kept", True)}
                for d in detail if isinstance(d, dict)]
    return [{"sides": None, "face": f, "kept": True} for f in part.get("dice") or []
            if isinstance(f, int)]


def _group(label: str, part: dict[str, Any] | None) -> list[dict[str, Any]]:
    dice = _faces(part)
    if not dice:
        return []
    return [{"label": label, "dice": dice[:SHOWN], "more": dice[SHOWN:], "count": len(dice)}]


def _check_label(part: dict[str, Any], default: str) -> str:
    label = part.get("label")
    return str(label) if isinstance(label, str) and label else default


def _rolloffs(rounds: Any) -> list[dict[str, Any]]:
    """The dice that broke ties in an order (« départage d'Alix »), round after round."""
    out: list[dict[str, Any]] = []
    for r in rounds if isinstance(rounds, list) else []:
        if not isinstance(r, dict):
            continue
        for name, face in zip(r.get("names") or [], r.get("faces") or [], strict=False):
            part = {"dice_detail": [{"sides": r.get("sides"), "face": face}]}
            out += _group(f"départage {de(str(name))}", part)
    return out


def groups(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The labelled dice groups of one result, in the order they were rolled."""
    kind = result.get("type")
    out: list[dict[str, Any]] = []
    if kind == "roll":
        out += _group("dés", result)
    elif kind == "check":
        out += _group(_check_label(result, "jet"), result)
    elif kind == "contest":
        out += _group(_check_label(result.get("actor") or {}, "jet"), result.get("actor"))
        out += _group(_check_label(result.get("opponent") or {}, "adversaire"),
                      result.get("opponent"))
    elif kind == "attack":
        for i, step in enumerate(result.get("steps") or []):
            if not isinstance(step, dict):
                continue
            if step.get("type") == "contest":
                out += _group("attaque" if i == 0 else _check_label(step.get("actor") or {}, "jet"),
                              step.get("actor"))
                out += _group("défense" if i == 0 else _check_label(step.get("opponent") or {},
                                                                      "adversaire"),
                              step.get("opponent"))
            else:
                out += _group("attaque" if i == 0 else _check_label(step, "jet"), step)
        out += _group("localisation", result.get("location"))
        damage = result.get("damage")
        for blow in damage if isinstance(damage, list) else [damage]:
            out += _group("dégâts", blow)
    elif kind == "order":
        for e in result.get("order") or []:
            if isinstance(e, dict):
                out += _group(f"initiative {de(str(e.get('name')))}", e.get("check"))
        out += _rolloffs(result.get("rolloffs"))
    elif kind == "attente":  # a roll waiting for a choice: the dice so far, none set aside yet
        out += [{**g, "dice": [{**d, "kept": True} for d in g["dice"]],
                 "more": [{**d, "kept": True} for d in g["more"]]}
                for g in groups(result.get("resultat") or {})]
    elif kind in ("report", "encounter"):
        for part in result.get("parts") or result.get("events") or []:
            if isinstance(part, dict):
                out += groups(part)
    return out
