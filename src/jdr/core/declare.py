"""One declaration per action: its parameters, who may use it, whether it rolls and is journaled,
and its runner. Every front end is derived from this table:

- the CLI builds each action command from it (`jdr.cli.derive`: arguments and options from
  `Param.cli`, help from the label and help, the common options from `rolls`, `journaled`,
  `who`) and validates through `execute`;
- the API's `Action` body is validated against `ACTIONS` (unknown type or parameter refused) and
  its OpenAPI schema documents each type's `params` from here (`params_schema`);
- the pages render every form from `form(...)` (`jdr.core.forms`), which fills each parameter's
  choices from the system's hooks and the actual sheets (this character's skills, the defences
  allowed against this attack, the zones one may aim at, the weapons, the system's rules and
  their options).

Nothing here imports a system, pydantic or the rules: the CLI reads it at start-up (the forms
are in their own module, which only the pages import).
"""

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from typing import Literal

    from jdr.core.forms import Form
    from jdr.core.system import GameSystem
    from jdr.core.usecase import Workspace

    ParamKind = Literal["character", "characters", "opponent", "text", "int", "flag", "choice",
                        "expression", "options"]
    # where a parameter's list comes from (a system hook on the sheets already chosen)
    Source = Literal["", "mine", "all", "targets", "skills", "caracs", "dice", "ladder",
                     "weapons", "defences", "zones", "criticals", "rules"]
    Who = Literal["mj", "joueur"]
    Own = Literal["", "one", "first", "all"]
else:  # at run time a text; the annotations below are evaluated when `jdr` starts
    ParamKind = Source = Who = Own = str


# Named tuples rather than dataclasses, and annotations evaluated (no `from __future__`): the CLI
# reads these at start-up, and such a class costs a sixth of a frozen dataclass to create (no
# generated method, no annotation text to compile). A changed copy is `param._replace(label=…)`.


class Param(NamedTuple):
    """One parameter of an action, as the API (`params`), the CLI and the pages name it."""

    name: str
    kind: ParamKind
    label: str
    help: str = ""
    required: bool = False
    cli: str = ""                 # "FICHE" (an argument) or "--carac" (an option)
    metavar: str = ""             # how the CLI shows an option's value (default: from `cli`)
    lo: int | None = None
    hi: int | None = None
    source: Source = ""          # where the choices come from
    open: bool = False            # a value outside the list is allowed (a number for a threshold)
    own: Own = ""                 # a player must own this character ("first": the first one)
    depends: tuple[str, ...] = ()  # the choices change when these parameters change
    rule: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # a fixed list (value, French label), no hook
    empty: str = ""               # the words of a list's empty choice (« — celle en main — »)

    @property
    def positional(self) -> bool:
        return bool(self.cli) and not self.cli.startswith("-")


class ActionDef(NamedTuple):
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
    tool: bool = False            # an MJ's tool with its own route (the simulator), not `execute`
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
               "jet opposé ; l'adversaire oppose ce que les règles opposent, ou la compétence "
               "nommée", cli="--contre", metavar="FICHE[:COMPETENCE]", source="all")
BONUS = Param("bonus", "int", "Bonus", "bonus (ou malus si négatif) du MJ", cli="--bonus",
              lo=-1000, hi=1000)
CHOIX = Param("choix", "int", "Dé gardé", "le dé que garde le joueur dans un jet à plusieurs dés",
              cli="--choix", lo=1, hi=100)
DE = Param("de", "choice", "Dé", "le dé choisi, quand les règles laissent choisir", cli="--de",
           source="dice", depends=("personnage",))
OPT = Param("opt", "options", "Options", "options propres au système, cle=valeur", cli="--opt",
            metavar="CLE=VALEUR")
PERSONNAGES = Param("personnages", "characters", "Personnages", "fiches ou noms", True,
                    "PERSONNAGES", source="all", own="first")
CHECK_PARAMS = (PERSONNAGE, COMPETENCE, CARAC, SEUIL, CONTRE, BONUS, CHOIX, DE, OPT)
ATTACK_PARAMS = (
    Param("attaquant", "character", "Attaquant", "fiche ou nom de l'attaquant", True, "ATTAQUANT",
          source="mine", own="one"),
    Param("defenseur", "character", "Cible", "fiche ou nom du défenseur", True, "DEFENSEUR",
          source="targets", depends=("attaquant",)),
    Param("arme", "choice", "Arme", "l'arme utilisée (sinon celle en main)", cli="--arme",
          source="weapons", depends=("attaquant",), empty="— celle en main —"),
    Param("defense", "choice", "Défense de la cible", "ce que la cible oppose, parmi ce que les "
          "règles permettent (sinon la défense par défaut)", cli="--defense", source="defences",
          depends=("attaquant", "defenseur", "arme"), empty="— la défense par défaut —"),
    Param("visee", "choice", "Zone visée", "une attaque visée (sinon, localisation au dé)",
          cli="--visee", metavar="ZONE", source="zones", depends=("attaquant", "arme"),
          empty="— localisation au dé —"),
    Param("critique", "choice", "Option de critique", "choisie d'avance, pour une réussite "
          "critique", cli="--critique", metavar="CHOIX", source="criticals",
          depends=("attaquant",)),
    Param("complete", "flag", "Attaque complète", "toutes les attaques du round", cli="--complete"),
    OPT,
)
TACTICS = (("faible", "Viser le plus faible"), ("hasard", "Une cible au hasard"),
           ("prudente", "Prudente : se mettre à l'écart quand on est bas"))
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
    ActionDef("attack", "Attaque", "une attaque entière (attaque, défense, localisation, dégâts)",
              ATTACK_PARAMS, runner="_run_attack", odds="attack_odds"),
    ActionDef("attack_odds", "Chances d'une attaque", "les chances exactes d'une attaque",
              ATTACK_PARAMS, rolls=False, journaled=False, runner="_run_attack"),
    ActionDef("xp", "Expérience", "coût, XP disponible et fiche mise à jour",
              (PERSONNAGE,
               COMPETENCE._replace(required=False, cli="--competence", label="Compétence à monter",
                       help=""),
               CARAC._replace(label="Caractéristique à monter", help=""),
               Param("pv", "flag", "Points de vie", "acheter des points de vie", cli="--pv"), OPT),
              rolls=False, runner="_run_xp"),
    ActionDef("initiative", "Initiative", "l'ordre de jeu, avec ses départages",
              (PERSONNAGES, OPT), runner="_run_group"),
    ActionDef("duel", "Duel", "le provocateur contre le provoqué",
              (PERSONNAGES._replace(help="le provocateur puis le provoqué", lo=2, hi=2), OPT),
              runner="_run_group"),
    ActionDef("session", "Nouvelle session", "remet à zéro ce qui se remet à zéro",
              (PERSONNAGES._replace(own="all"),), rolls=False, runner="_run_group"),
    ActionDef("show", "Fiche", "une fiche et ses valeurs dérivées",
              (PERSONNAGE._replace(source="all"),), rolls=False, journaled=False,
              runner="_run_show"),
    ActionDef("regle", "Règle", "une règle propre au système",
              (Param("nom", "choice", "Règle", "règle du système (décrite dans l'aide du système)",
                     True, "REGLE", source="rules"),
               PERSONNAGES._replace(required=False, help="dans l'ordre que la règle nomme",
                       depends=("nom",)),
               OPT,
               Param("chances", "flag", "Chances", "chances exactes, sans rien lancer",
                     cli="--chances")),
              runner="_run_group", odds="regle"),
    ActionDef("sante", "Santé à la main", "dégâts ou soins à la main (décision du MJ)",
              (PERSONNAGE._replace(source="all", own=""),
               Param("valeur", "text", "Valeur", "12 (fixe), +3 ou -5 (changement), dans l'unité "
                     "du système", True, "VALEUR", depends=("personnage",))),
              who="mj", rolls=False, runner="_run_health"),
    # the encounter's steps (a campaign's encounter: `jdr combat …`, the combat panel)
    ActionDef("combat:debut", "Lancer le combat", "les combattants, dans l'ordre de l'initiative",
              (NAMES,), who="mj", encounter=True),
    ActionDef("combat:suivant", "Tour suivant", "ce que les règles font à ce moment, puis le "
              "combattant suivant", who="mj", encounter=True),
    ActionDef("combat:rejoindre", "Rejoindre le combat", "des combattants entrent dans la rencontre",
              (NAMES._replace(label="Arrivants"),), who="mj", encounter=True),
    ActionDef("combat:quitter", "Quitter le combat", "des combattants sortent de la rencontre",
              (NAMES._replace(label="Partants"),), who="mj", rolls=False, encounter=True),
    ActionDef("combat:fin", "Fin du combat", "termine la rencontre", who="mj", rolls=False,
              encounter=True),
    # the MJ's balance of an encounter (`jdr simuler`, `jdr.sim`): nothing rolled nor written
    ActionDef("simuler", "Équilibrer la rencontre", "simule N combats des deux camps sur les vraies "
              "fiches : chances de victoire, rounds, chute et mort de chacun",
              (NAMES._replace(name="camp1", label="Camp 1", help="ses combattants ; NOM×N pour "
                       "N copies"),
               NAMES._replace(name="camp2", label="Camp 2", help="ses combattants ; NOM×N pour "
                       "N copies"),
               # the table's bound (`jdr simuler` takes the engine's own, `jdr.sim.run.MAX_N`)
               Param("n", "int", "Nombre de combats", "10\u202f000 par défaut", cli="--n",
                     lo=1, hi=20_000),
               Param("tactique1", "choice", "Tactique du camp 1", "", choices=TACTICS),
               Param("tactique2", "choice", "Tactique du camp 2", "", choices=TACTICS),
               Param("graine", "int", "Graine", "la même simulation à chaque fois (facultative)",
                     cli="--seed", metavar="GRAINE", lo=0, hi=999_999_999)),
              who="mj", rolls=False, journaled=False, tool=True),
)}

# what the API's `actions` route and `execute` play (the encounter's steps have their routes)
ENGINE_KINDS = tuple(k for k, a in ACTIONS.items() if not a.encounter and not a.tool)
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


def rules_of(system: "GameSystem[Any]") -> list[tuple[str, str]]:
    """The system's own rules (`regle NOM`), with their French help's first words."""
    return [(name, _short(spec.help) or name) for name, spec in system.actions.items()
            if name not in CORE_KINDS]


def _short(text: str) -> str:
    head = text.split(" — ", 1)[-1]
    return head.split(" ; ")[0].split(" (")[0][:90]


def rule_roles(system: "GameSystem[Any]", name: str) -> list[tuple[str, bool, bool]]:
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


def form(ws: "Workspace", kind: str, params: Mapping[str, Any], system: "GameSystem[Any]",
         characters: Sequence[str], mine: Sequence[str] | None = None) -> "Form":
    """The form of `kind` with the choices its parameters have now (`jdr.core.forms`): `params`
    are the values already chosen (a character chosen → its skills). `characters` are every
    character that may be named, `mine` those the caller may act as (None: all)."""
    from jdr.core.forms import build

    return build(ws, kind, params, system, characters, mine)



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
    return {kind: action_schema(kind) for kind in ENGINE_KINDS}


def action_schema(kind: str) -> dict[str, Any]:
    """The JSON schema of one action's `params`."""
    action = ACTIONS[kind]
    props = {p.name: _param_schema(p) for p in action.params}
    return {"type": "object", "title": f"{kind} : {action.label}",
            "description": action.help + ("" if action.who == "joueur" else " (MJ seulement)"),
            "properties": props, "additionalProperties": False,
            "required": [p.name for p in action.params if p.required]}


def _param_schema(p: Param) -> dict[str, Any]:
    from jdr.core.french import number

    desc = f"{p.label} : {p.help}" if p.help else p.label
    if p.kind == "characters":
        return {"type": "array", "items": {"type": "string"}, "description": desc}
    if p.kind == "flag":
        return {"type": "boolean", "description": desc}
    if p.kind == "int":
        schema: dict[str, Any] = {"type": ["string", "integer"], "description": desc}
        if p.lo is not None and p.hi is not None:
            schema["description"] += f" (de {number(p.lo)} à {number(p.hi)})"
        return schema
    if p.kind == "options":
        return {"type": "object", "additionalProperties": {"type": "string"}, "description": desc}
    if p.choices:
        return {"enum": [value for value, _ in p.choices], "description": desc}
    return {"type": "string", "description": desc}
