"""`jdr aide SYSTEME`: what a player needs to type commands for one system."""

from __future__ import annotations

from typing import Any

# an action's command (the action ids are the use-case layer's; the commands are French)
COMMANDS = {"check": "jdr test", "odds": "jdr chances", "attack": "jdr attaque", "xp": "jdr xp",
            "initiative": "jdr initiative", "duel": "jdr duel", "session": "jdr session nouvelle"}


def data(system_id: str) -> dict[str, Any]:
    from jdr.core.registry import get_system

    system = get_system(system_id)
    info = system.help()
    ladder = system.ladder
    return {
        "system": system.id,
        "title": system.title,
        "characteristics": dict(info.characteristics),
        "skills": dict(info.skills),
        "ladder": dict(ladder.steps) if ladder is not None else {},
        "defences": list(info.defences),
        "actions": {
            name: {
                "help": spec.help,
                "dice": spec.dice,
                "options": [{"name": o.name, "label": o.title, "kind": o.kind, "default": o.default,
                             "help": o.help, "rule": o.rule, "min": o.lo, "max": o.hi,
                             "choices": list(o.choices),
                             "choice_labels": {c: o.shown(c) for c in o.choices}}
                            for o in spec.options],
            }
            for name, spec in system.actions.items()
        },
        "notes": list(info.notes),
    }


def describe(system_id: str, as_json: bool = False) -> str:
    from jdr.core.registry import get_system

    d = data(system_id)
    if as_json:
        from jdr.render.json import dumps

        return dumps(d)
    system = get_system(system_id)
    lines = [f"{d['system']} — {d['title']}", "", "Caractéristiques :"]
    lines += [f"  {k:<20} {v}" for k, v in d["characteristics"].items()]
    lines += ["", "Compétences :"]
    lines += [f"  {k:<20} {v}" for k, v in d["skills"].items()]
    if d["ladder"]:
        lines += ["", "Seuils nommés (--seuil) :"]
        lines += [f"  {k:<20} {v}" for k, v in d["ladder"].items()]
    if d["defences"]:
        lines += ["", "Défenses (--defense) : " + ", ".join(d["defences"])]
    for name, spec in system.actions.items():
        command = COMMANDS.get(name) or f"jdr regle {name}"
        lines += ["", f"{command} : {spec.help}"]
        if spec.dice:
            lines.append(f"  ordre des dés (--des) : {spec.dice}")
        if spec.options:
            lines.append("  options (--opt cle=valeur) :")
            lines += [f"    {o.describe()}" for o in spec.options]
    if d["notes"]:
        lines += [""] + [f"· {n}" for n in d["notes"]]
    return "\n".join(lines)
