"""One declaration per action: its parameters, who may use it, whether it rolls and is journaled,
and its runner. Every front end is derived from this table:

- the CLI names its arguments and options from `Param.cli` and validates through `execute`;
- the API's `Action` body is validated against `ACTIONS` (unknown type or parameter refused) and
  its OpenAPI schema documents each type's `params` from here (`params_schema`);
- the pages render every form from `form(...)`, which fills each parameter's choices from the
  system's hooks and the actual sheets (this character's skills, the defences allowed against
  this attack, the zones one may aim at, the weapons, the system's rules and their options).

Nothing here imports a system, pydantic or the rules: the CLI reads it at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from jdr.core.system import Choice, GameSystem, Loaded
    from jdr.core.usecase import Workspace

ParamKind = Literal["character", "characters", "opponent", "text", "int", "flag", "choice",
                    "expression", "options"]
# where a parameter's list comes from (a system hook on the sheets already chosen)
Source = Literal["", "mine", "all", "targets", "skills", "caracs", "dice", "ladder", "weapons",
                 "defences", "zones", "criticals", "rules"]
Who = Literal["mj", "joueur"]
Own = Literal["", "one", "first", "all"]


@dataclass(frozen=True)
class Param:
    """One parameter of an action, as the API (`params`), the CLI and the pages name it."""

    name: str
    kind: ParamKind
    label: str
    help: str = ""
    required: bool = False
    cli: str = ""                 # "FICHE" (an argument) or "--carac" (an option)
    lo: int | None = None
    hi: int | None = None
    source: Source = ""          # where the choices come from
    open: bool = False            # a value outside the list is allowed (a number for a threshold)
    own: Own = ""                 # a player must own this character ("first": the first one)
    depends: tuple[str, ...] = ()  # the choices change when these parameters change
    rule: str = ""

    @property
    def positional(self) -> bool:
        return bool(self.cli) and not self.cli.startswith("-")


@dataclass(frozen=True)
class ActionDef:
    """One action: what it takes, who may play it, what it does to the journal."""

    kind: str
    label: str
    help: str
    params: tuple[Param, ...] = ()
    who: Who = "joueur"           # "mj": the MJ only; "joueur": the MJ or a player (on own characters)
    rolls: bool = True            # takes a dice source (`des` faces by hand, a seed)
    journaled: bool = True        # written to the journal (and the sheets) in a campaign
    runner: str = ""              # the function of `jdr.core.actions` that plays it
    odds: str = ""                # the action giving its exact odds first ("odds", "attack_odds")
    encounter: bool = False       # a step of the encounter (`jdr.campaign.encounter`)
    journal_name: str = ""        # how the journal names it (default: the kind)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.params)

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def acting(self, params: Mapping[str, Any]) -> list[str]:
        """The characters a player must own to play this action with these params."""
        out: list[str] = []
        for p in self.params:
            value = params.get(p.name)
            if not p.own or value in (None, "", []):
                continue
            names = [value] if isinstance(value, str) else list(value) if isinstance(
                value, (list, tuple)) else []
            out.extend(str(n) for n in (names if p.own == "all" else names[:1]))
        return out


# ------------------------------------------------------------------ the shared parameters

PERSONNAGE = Param("personnage", "character", "Personnage", "fiche YAML, ou nom dans une campagne",
                   True, "FICHE", source="mine", own="one")
COMPETENCE = Param("competence", "choice", "Compétence",
                   "compétence, caractéristique ou résistance de ce personnage", True, "COMPETENCE",
                   source="skills", depends=("personnage",))
CARAC = Param("carac", "choice", "Caractéristique", "une autre caractéristique que l'habituelle",
              cli="--carac", source="caracs", depends=("personnage",))
SEUIL = Param("seuil", "choice", "Seuil", "un nombre ou un nom de l'échelle (facile, difficile…)",
              cli="--seuil", source="ladder", open=True)
CONTRE = Param("contre", "opponent", "Contre un adversaire",
               "jet opposé : FICHE ou FICHE:COMPETENCE (par défaut, ce que les règles opposent)",
               cli="--contre", source="all")
BONUS = Param("bonus", "int", "Bonus", "bonus (ou malus si négatif) du MJ", cli="--bonus",
              lo=-1000, hi=1000)
CHOIX = Param("choix", "int", "Dé gardé", "pour un jet à plusieurs dés : le dé gardé (1, 2…)",
              cli="--choix", lo=1, hi=100)
DE = Param("de", "choice", "Dé", "le dé choisi, quand les règles laissent choisir", cli="--de",
           source="dice", depends=("personnage",))
OPT = Param("opt", "options", "Options", "options propres au système (cle=valeur)", cli="--opt")
PERSONNAGES = Param("personnages", "characters", "Personnages", "fiches ou noms", True,
                    "PERSONNAGES", source="all", own="first")
CHECK_PARAMS = (PERSONNAGE, COMPETENCE, CARAC, SEUIL, CONTRE, BONUS, CHOIX, DE, OPT)
ATTACK_PARAMS = (
    Param("attaquant", "character", "Attaquant", "fiche ou nom de l'attaquant", True, "ATTAQUANT",
          source="mine", own="one"),
    Param("defenseur", "character", "Cible", "fiche ou nom du défenseur", True, "DEFENSEUR",
          source="targets", depends=("attaquant",)),
    Param("arme", "choice", "Arme", "l'arme utilisée (sinon celle en main)", cli="--arme",
          source="weapons", depends=("attaquant",)),
    Param("defense", "choice", "Défense de la cible", "ce que la cible oppose, parmi ce que les "
          "règles permettent (sinon la défense par défaut)", cli="--defense", source="defences",
          depends=("attaquant", "defenseur", "arme")),
    Param("visee", "choice", "Zone visée", "attaque visée : la zone (sinon localisation au dé)",
          cli="--visee", source="zones", depends=("attaquant", "arme")),
    Param("critique", "choice", "Option de critique", "choisie d'avance", cli="--critique",
          source="criticals", depends=("attaquant",)),
    Param("complete", "flag", "Attaque complète", "toutes les attaques du round", cli="--complete"),
    OPT,
)
NAMES = Param("personnages", "characters", "Combattants", "noms des personnages", True,
              "PERSONNAGES", source="all")

ACTIONS: dict[str, ActionDef] = {a.kind: a for a in (
    ActionDef("roll", "Notation libre", "une expression de dés libre (4d6kh3, 1d20+5>=15…)",
              (Param("expression", "expression", "Notation", "3d6+2, 4d6kh3, 1d20…", True,
                     "EXPRESSION"),), runner="_roll"),
    ActionDef("check", "Test", "un jet de compétence contre un seuil ou un adversaire",
              CHECK_PARAMS, runner="_run_check", odds="odds"),
    ActionDef("odds", "Chances", "les chances exactes d'un test, sans rien lancer", CHECK_PARAMS,
              rolls=False, journaled=False, runner="_run_check"),
    ActionDef("attack", "Attaque", "une attaque entière : attaque, défense, localisation, dégâts",
              ATTACK_PARAMS, runner="_run_attack", odds="attack_odds"),
    ActionDef("attack_odds", "Chances d'une attaque", "les chances exactes d'une attaque",
              ATTACK_PARAMS, rolls=False, journaled=False, runner="_run_attack"),
    ActionDef("xp", "Expérience", "dépense de l'expérience : coût, XP disponible, fiche mise à jour",
              (PERSONNAGE,
               replace(COMPETENCE, required=False, cli="--competence", label="Compétence à monter"),
               replace(CARAC, label="Caractéristique à monter"),
               Param("pv", "flag", "Points de vie", "acheter des points de vie", cli="--pv"), OPT),
              rolls=False, runner="_run_xp"),
    ActionDef("initiative", "Initiative", "l'ordre de jeu, avec ses départages",
              (PERSONNAGES, OPT), runner="_run_group"),
    ActionDef("duel", "Duel", "un duel : le provocateur puis le provoqué",
              (replace(PERSONNAGES, help="le provocateur puis le provoqué", lo=2, hi=2), OPT),
              runner="_run_group"),
    ActionDef("session", "Nouvelle session", "remet à zéro ce qui se remet à zéro",
              (replace(PERSONNAGES, own="all"),), rolls=False, runner="_run_group"),
    ActionDef("show", "Fiche", "une fiche et ses valeurs dérivées",
              (replace(PERSONNAGE, source="all"),), rolls=False, journaled=False,
              runner="_run_show"),
    ActionDef("regle", "Règle", "une règle propre au système",
              (Param("nom", "choice", "Règle", "règle du système (jdr aide SYSTEME)", True, "REGLE",
                     source="rules"),
               replace(PERSONNAGES, required=False, help="dans l'ordre que la règle nomme",
                       depends=("nom",)),
               OPT,
               Param("chances", "flag", "Chances", "chances exactes, sans rien lancer",
                     cli="--chances")),
              runner="_run_group", odds="regle"),
    ActionDef("sante", "Santé à la main", "dégâts ou soins à la main (décision du MJ)",
              (replace(PERSONNAGE, source="all", own=""),
               Param("valeur", "text", "Valeur", "12 (fixe), +3 ou -5 (changement)", True, "VALEUR",
                     depends=("personnage",))),
              who="mj", rolls=False, runner="_run_health"),
    # the encounter's steps (a campaign's encounter: `jdr combat …`, the combat panel)
    ActionDef("combat:debut", "Lancer le combat", "les combattants, dans l'ordre de l'initiative",
              (NAMES,), who="mj", encounter=True),
    ActionDef("combat:suivant", "Tour suivant", "ce que les règles font à ce moment, puis le "
              "combattant suivant", who="mj", encounter=True),
    ActionDef("combat:rejoindre", "Rejoindre le combat", "des combattants entrent dans la rencontre",
              (replace(NAMES, label="Arrivants"),), who="mj", encounter=True),
    ActionDef("combat:quitter", "Quitter le combat", "des combattants sortent de la rencontre",
              (replace(NAMES, label="Partants"),), who="mj", rolls=False, encounter=True),
    ActionDef("combat:fin", "Fin du combat", "termine la rencontre", who="mj", rolls=False,
              encounter=True),
)}

# what the API's `actions` route and `execute` play (the encounter's steps have their routes)
ENGINE_KINDS = tuple(k for k, a in ACTIONS.items() if not a.encounter)
REF_NAMES = frozenset(p.name for a in ACTIONS.values() for p in a.params
                      if p.kind in ("character", "characters", "opponent"))
# a system's `actions` that are not one of the core's kinds are its own rules (`regle NOM`)
CORE_KINDS = frozenset({"check", "odds", "attack", "xp", "initiative", "duel", "session"})


@cache
def played() -> tuple[str, ...]:
    return ENGINE_KINDS


def cli_name(key: str) -> str:
    """A parameter as the CLI names it (`--bonus`, `FICHE`)."""
    for action in ACTIONS.values():
        param = action.param(key)
        if param is not None and param.cli:
            return param.cli if not param.positional or key != "personnage" else "FICHE|NOM"
    return "--" + key


# ------------------------------------------------------------------ rights


def may_play(kind: str, is_mj: bool) -> bool:
    action = ACTIONS.get(kind)
    return action is not None and (is_mj or action.who == "joueur")


# ------------------------------------------------------------------ the pages' forms


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


def rules_of(system: GameSystem[Any]) -> list[tuple[str, str]]:
    """The system's own rules (`regle NOM`), with their French help's first words."""
    return [(name, _short(spec.help) or name) for name, spec in system.actions.items()
            if name not in CORE_KINDS]


def _short(text: str) -> str:
    head = text.split(" — ", 1)[-1]
    return head.split(" ; ")[0].split(" (")[0][:90]


def rule_roles(system: GameSystem[Any], name: str) -> list[tuple[str, bool, bool]]:
    """The characters a rule names, from the words in capitals that open its help
    (`SOIGNEUR [PATIENT] — …`): each role, whether it is required, whether it is several
    (`PERSONNAGES…`)."""
    spec = system.actions.get(name)
    if spec is None or " — " not in spec.help:
        return []
    head = spec.help.split(" — ", 1)[0]
    roles: list[tuple[str, bool, bool]] = []
    for word in head.split():
        optional = word.startswith("[")
        many = "…" in word
        clean = word.strip("[]…").strip(".")
        if clean and clean.upper() == clean and any(c.isalpha() for c in clean):
            roles.append((clean.lower().replace("_", " "), not optional, many))
    return roles


def _choices(items: Sequence[Choice]) -> list[tuple[str, str]]:
    return [(c.value, c.shown) for c in items]


def form(ws: Workspace, kind: str, params: Mapping[str, Any], system: GameSystem[Any],
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
    # a choice: its list comes from the rules and the sheets
    f.kind = "select"
    choices = _source_choices(p.source, system, actor, loaded.get("defenseur"),
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
        choices = [("oui", "oui"), ("non", "non")] if o.kind == "bool" else [(c, c) for c in o.choices]
        default = "" if o.default is None else (
            ("oui" if o.default else "non") if isinstance(o.default, bool) else str(o.default))
        help_text = o.help + (f" (défaut : {default})" if default else "")
        # a value is sent only when chosen: the default stays the system's own
        out.append(Field(f"opt.{o.name}", kind, o.name.replace("_", " ").capitalize(), help_text,
                         given.get(o.name), choices, False, False, o.lo, o.hi, o.rule))
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


def params_from_form(kind: str, values: Mapping[str, str | list[str]]) -> dict[str, Any]:
    """A filled form back into the action's `params` (the API's names): empty fields dropped,
    `opt.X` gathered into `opt`, a rule's roles into `personnages`, an opponent's skill joined."""
    action = ACTIONS[kind]
    params: dict[str, Any] = {}

    def first(key: str) -> str:
        value = values.get(key)
        if isinstance(value, list):
            value = value[0] if value else ""
        return (value or "").strip()

    for p in action.params:
        if p.kind == "options":
            opts = {k[4:]: first(k) for k in values if k.startswith("opt.") and first(k)}
            if opts:
                params["opt"] = opts
        elif p.kind == "characters":
            roles = sorted((k for k in values if k.startswith("role.") and k[5:].isdigit()),
                           key=lambda k: int(k[5:]))
            names: list[str] = []
            for key in roles or [p.name]:
                raw = values.get(key) or ""
                names.extend(n.strip() for n in (raw if isinstance(raw, list) else [raw])
                             if n.strip())
            if names:
                params[p.name] = names
        elif p.kind == "flag":
            if first(p.name) in ("on", "oui", "1", "true"):
                params[p.name] = True
        elif p.kind == "opponent":
            who, skill = first(p.name), first(p.name + "_competence")
            if who:
                params[p.name] = f"{who}:{skill}" if skill else who
        elif first(p.name):
            params[p.name] = first(p.name)
    return params


def form_values(kind: str, params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """`params` back into a form's fields (what `params_from_form` reads): a confirmation step
    carries the action as hidden fields."""
    out: list[tuple[str, str]] = []
    for p in ACTIONS[kind].params:
        value = params.get(p.name)
        if value is None or value is False or value == "":
            continue
        if p.kind == "options" and isinstance(value, Mapping):
            out += [(f"opt.{k}", str(v)) for k, v in value.items()]
        elif p.kind == "characters" and isinstance(value, (list, tuple)):
            out += [(p.name, str(v)) for v in value]
        elif p.kind == "flag":
            out.append((p.name, "oui"))
        elif p.kind == "opponent" and ":" in str(value):
            who, skill = str(value).rsplit(":", 1)
            out += [(p.name, who), (p.name + "_competence", skill)]
        else:
            out.append((p.name, str(value)))
    return out


# ------------------------------------------------------------------ the API's schema


def params_schema() -> dict[str, Any]:
    """The JSON schema of `params`, one entry per action type (OpenAPI)."""
    out: dict[str, Any] = {}
    for kind in ENGINE_KINDS:
        action = ACTIONS[kind]
        props: dict[str, Any] = {}
        for p in action.params:
            props[p.name] = _param_schema(p)
        out[kind] = {"type": "object", "title": f"{kind} : {action.label}",
                     "description": action.help + ("" if action.who == "joueur" else " (MJ seulement)"),
                     "properties": props, "additionalProperties": False,
                     "required": [p.name for p in action.params if p.required]}
    return out


def _param_schema(p: Param) -> dict[str, Any]:
    desc = f"{p.label} : {p.help}" if p.help else p.label
    if p.kind == "characters":
        return {"type": "array", "items": {"type": "string"}, "description": desc}
    if p.kind == "flag":
        return {"type": "boolean", "description": desc}
    if p.kind == "int":
        schema: dict[str, Any] = {"type": ["string", "integer"], "description": desc}
        if p.lo is not None:
            schema["description"] += f" (de {p.lo} à {p.hi})"
        return schema
    if p.kind == "options":
        return {"type": "object", "additionalProperties": {"type": "string"}, "description": desc}
    return {"type": "string", "description": desc}
