"""The pages' forms, from the declarations (`jdr.core.declare`): each parameter of an action with
its current value and the choices it has now — from the system's hooks on the characters already
chosen (this character's skills, the defences allowed against this attack, the zones one may aim
at, the weapons, the system's rules and their options).

Only the pages need it: the command line reads the declarations without it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from jdr.core.declare import ACTIONS, ActionDef, Param, rule_roles, rules_of
from jdr.core.french import number

if TYPE_CHECKING:
    from jdr.core.declare import Source
    from jdr.core.system import Choice, GameSystem, Loaded
    from jdr.core.usecase import Workspace


@dataclass
class Field:
    """One control of a form: a parameter with its current value and choices."""

    name: str
    kind: str                      # select, multi, text, int, flag
    label: str
    help: str = ""
    value: Any = None
    choices: list[tuple[str, str]] = field(default_factory=list)
    required: bool = False
    open: bool = False
    lo: int | None = None
    hi: int | None = None
    rule: str = ""
    refresh: bool = False          # changing it changes other lists: the form is asked again
    sub: Field | None = None       # an opponent's skill, beside the opponent
    empty: str = ""                # the words of a list's empty choice (« — par défaut : Non — »)


@dataclass
class Form:
    """An action's form: what the pages render, from the declaration and the sheets."""

    kind: str
    label: str
    help: str
    fields: list[Field]
    odds: str = ""
    rolls: bool = True
    rule: str = ""                 # for `regle`: the rule chosen

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

def _choices(items: Sequence[Choice]) -> list[tuple[str, str]]:
    return [(c.value, c.shown) for c in items]


def build(ws: Workspace, kind: str, params: Mapping[str, Any], system: GameSystem[Any],
         characters: Sequence[str], mine: Sequence[str] | None = None) -> Form:
    """The form of `kind` with the choices its parameters have now: `params` are the values
    already chosen (a character chosen → its skills). `characters` are every character that
    may be named, `mine` those the caller may act as (None: all)."""
    action = ACTIONS[kind]
    own = list(characters if mine is None else mine)
    loaded = _load_named(ws, action, params)
    fields: list[Field] = []
    rule = str(params.get("nom") or "") if kind == "regle" else ""
    for p in action.params:
        f = _field(p, params, system, characters, own, loaded, kind)
        if f is None:
            continue
        if p.kind == "options":
            fields.extend(_option_fields(system, rule or kind, params))
            continue
        if p.kind == "characters" and kind == "regle":
            fields.extend(_role_fields(system, rule, params, characters, own))
            continue
        fields.append(f)
    return Form(kind, action.label, action.help, fields, action.odds, action.rolls, rule)


def _load_named(ws: Workspace, action: ActionDef, params: Mapping[str, Any]
                ) -> dict[str, Loaded[Any]]:
    """The characters already chosen, loaded once (one that does not load has no choices)."""
    from jdr.errors import JdrError

    out: dict[str, Loaded[Any]] = {}
    for p in action.params:
        if p.kind not in ("character", "opponent"):
            continue
        value = params.get(p.name)
        if not isinstance(value, str) or not value:
            continue
        ref = value.rsplit(":", 1)[0] if p.kind == "opponent" and ":" in value else value
        try:
            _, (sheet,) = ws.open([ref])
        except (JdrError, ValueError):
            continue
        out[p.name] = sheet
    return out


def _safe(call: Callable[[], Sequence[Choice]]) -> list[tuple[str, str]]:
    from jdr.errors import JdrError

    try:
        return _choices(call())
    except JdrError:
        return []


def _field(p: Param, params: Mapping[str, Any], system: GameSystem[Any], characters: Sequence[str],
           own: Sequence[str], loaded: Mapping[str, Loaded[Any]], kind: str) -> Field | None:
    value = params.get(p.name)
    f = Field(p.name, "text", p.label, p.help, value, [], p.required, p.open, p.lo, p.hi, p.rule)
    f.empty = p.empty
    actor = loaded.get("personnage") or loaded.get("attaquant")
    if p.kind in ("character", "opponent"):
        names = own if p.source == "mine" else [
            n for n in characters if p.source != "targets" or n != params.get("attaquant")]
        f.kind, f.choices = "select", [(n, n) for n in names]
        f.refresh = True
        if p.kind == "opponent":
            f.value = str(value).rsplit(":", 1)[0] if value else value
            other = loaded.get(p.name)
            sub = _safe(lambda: system.check_choices(other)) if other is not None else []
            skill = str(value).rsplit(":", 1)[1] if value and ":" in str(value) else None
            f.sub = Field(p.name + "_competence", "select", "Sa compétence",
                          "par défaut, ce que les règles opposent", skill, sub)
        return f
    if p.kind == "characters":
        f.kind, f.choices = "multi", [(n, n) for n in characters]
        return f
    if p.kind in ("int", "flag", "text", "expression", "options"):
        f.kind = {"int": "int", "flag": "flag", "options": "options"}.get(p.kind, "text")
        if p.kind == "flag" and p.name == "complete" and not system.full_attack:
            return None
        if p.name == "valeur" and kind == "sante" and actor is not None:
            hand = system.hand_health(actor)
            if hand is not None:
                f.label = f"Valeur ({hand.unit})"
                f.help = f"en {hand.unit} : {hand.example}"
        return f
    # a choice: its list comes from the declaration, or from the rules and the sheets
    f.kind = "select"
    choices = list(p.choices) or _source_choices(p.source, system, actor, loaded.get("defenseur"),
                                                 str(params.get("arme") or "") or None)
    if choices is None:
        return None
    f.choices = choices
    f.refresh = f.refresh or p.source == "rules" or bool(_dependents(p.name))
    if p.open:
        f.kind = "open"
    return f


HIDDEN_WHEN_EMPTY = frozenset({"caracs", "dice", "weapons", "defences", "zones", "criticals"})


def _source_choices(source: Source, system: GameSystem[Any], actor: Loaded[Any] | None,
                    defender: Loaded[Any] | None, weapon: str | None) -> list[tuple[str, str]] | None:
    """A parameter's list from the system's hooks; None: the rules have no such list here (the
    control is not shown)."""
    if source == "ladder":
        ladder = system.ladder
        return [(k, f"{k} ({v})") for k, v in ladder.steps.items()] if ladder else []
    if source == "rules":
        return rules_of(system)
    if actor is None:
        return []
    hooks: dict[str, Callable[[], Sequence[Choice]]] = {
        "skills": lambda: system.check_choices(actor),
        "caracs": lambda: system.carac_choices(actor),
        "dice": lambda: system.die_choices(actor),
        "weapons": lambda: system.weapon_choices(actor),
        "defences": lambda: system.defence_choices(actor, defender, weapon),
        "zones": lambda: system.aim_choices(actor, weapon),
        "criticals": lambda: system.critical_choices(actor),
    }
    if source not in hooks:
        return []
    found = _safe(hooks[source])
    return None if not found and source in HIDDEN_WHEN_EMPTY else found


@cache
def _dependents(name: str) -> tuple[str, ...]:
    return tuple(p.name for a in ACTIONS.values() for p in a.params if name in p.depends)


YES_NO = [("oui", "Oui"), ("non", "Non")]


def _option_fields(system: GameSystem[Any], action: str, params: Mapping[str, Any]) -> list[Field]:
    """The system's own options of this action (`--opt cle=valeur`), each its own control."""
    spec = system.actions.get(action)
    if spec is None:
        return []
    given = params.get("opt") if isinstance(params.get("opt"), Mapping) else {}
    assert isinstance(given, Mapping)
    out = []
    for o in spec.options:
        kind = {"int": "int", "choice": "select", "bool": "select"}.get(o.kind, "text")
        choices = YES_NO if o.kind == "bool" else [(c, o.shown(c)) for c in o.choices]
        default = "" if o.default is None else (
            ("Oui" if o.default else "Non") if isinstance(o.default, bool)
            else number(o.default) if isinstance(o.default, int) else o.shown(str(o.default)))
        help_text = o.help + (f" (défaut : {default.lower() if o.kind == 'bool' else default})"
                              if default else "")
        # a value is sent only when chosen: the default stays the system's own
        out.append(Field(f"opt.{o.name}", kind, o.title, help_text, given.get(o.name), choices,
                         o.required, False, o.lo, o.hi, o.rule,
                         empty=f"— par défaut : {default} —" if default else ""))
    return out


def _role_fields(system: GameSystem[Any], rule: str, params: Mapping[str, Any],
                 characters: Sequence[str], own: Sequence[str]) -> list[Field]:
    """A rule's characters, one control per role its help names (the first: one of mine)."""
    roles = rule_roles(system, rule) or [("personnages", False, True)]
    chosen = params.get("personnages") or []
    if isinstance(chosen, str):
        chosen = [chosen]
    out = []
    for i, (role, required, many) in enumerate(roles):
        names = own if i == 0 and not many else characters
        value: Any = chosen[i:] if many else (chosen[i] if i < len(chosen) else None)
        out.append(Field(f"role.{i}", "multi" if many else "select", role.capitalize(), "", value,
                         [(n, n) for n in names], required))
    return out
