"""Actions by type and French parameters — the one entry point of every front end.

The CLI turns its arguments into `params` (French names: `personnage`, `competence`, `seuil`,
`contre`, `attaquant`, `defenseur`, `arme`, ...), the web table receives the same `params` in
JSON; both call `execute(workspace, type, params, ...)`. Here the characters are loaded once
(from files or a campaign), the system's request is built, states are enforced (D-ALL.02), the
action runs with an injected dice source, and the result is rendered for the journal before
anything is committed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jdr.core.messages import Ref, arg, say
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    Chooser,
    GroupRequest,
    Loaded,
    Outcome,
    RuleRequest,
    SheetChange,
    XpRequest,
    default_choice,
)
from jdr.core.usecase import (
    AnySystem,
    Pending,
    Record,
    Recording,
    Workspace,
    action_spec,
    options,
    prepare,
    record,
    same_character,
)
from jdr.dice.source import DiceSource
from jdr.errors import JdrError, RuleError

MAX_TEXT = 200
MAX_PATH = 4096  # a character may be a sheet path: the file layer says when a name is too long
LIMITS = {"expression": 100_000}  # the dice parser refuses past its own limits, in French
MAX_CHARACTERS = 50


def _where(key: str) -> Ref:
    """A parameter of the request as each front end names it: `« bonus » (--bonus)` on the
    command line; in the API, the key of `params` its client sent (« bonus »): these refusals
    are of the request's shape, which the pages' forms already give right."""
    from jdr.core.declare import cli_name

    return Ref(f"« {key} » ({cli_name(key)})", f"« {key} »")


def journaled(kind: str) -> bool:
    """Whether an action is journaled (and so writes, in a campaign): odds and sheet views
    change nothing."""
    from jdr.core.declare import ACTIONS

    action = ACTIONS.get(kind)
    return action.journaled if action is not None else True


def rolls(kind: str, params: Mapping[str, Any]) -> bool:
    """Whether the action takes a dice source (the CLI makes one only then)."""
    from jdr.core.declare import ACTIONS

    action = ACTIONS.get(kind)
    return (action.rolls if action is not None else True) and not params.get("chances")


@dataclass
class Done:
    """An action done and validated, not yet committed: its result, what to journal."""

    kind: str
    system: AnySystem | None
    pending: Pending
    make_record: Callable[[], Record]
    refs: list[str] = field(default_factory=list)
    journal: bool = True  # odds, sheet views and dry runs change nothing and are not journaled
    _rec: Record | None = None

    @property
    def result(self) -> Any:
        return self.pending.result

    @property
    def rec(self) -> Record:
        """What the journal keeps (rendered three ways): built only for a campaign."""
        if self._rec is None:
            self._rec = self.make_record()
        return self._rec


def split_ref(value: str) -> tuple[str, str | None]:
    """`FICHE` or `FICHE:COMPETENCE` (a path that exists as written wins over the split)."""
    if Path(value).is_file() or ":" not in value:
        return value, None
    ref, skill = value.rsplit(":", 1)
    return ref, (skill or None)


def _text(params: Mapping[str, Any], key: str, required: bool = False) -> str | None:
    value = params.get(key)
    if value is None or value == "":
        if required:
            raise JdrError(say("paramètre ", _where(key), " manquant"))
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise JdrError(say("paramètre ", _where(key), " : texte attendu"))
    text = str(value)
    from jdr.core.declare import REF_NAMES

    limit = MAX_PATH if key in REF_NAMES else LIMITS.get(key, MAX_TEXT)
    if len(text) > limit:
        raise JdrError(say("paramètre ", _where(key), f" : {limit} caractères au plus"))
    return text


def _flag(params: Mapping[str, Any], key: str) -> bool:
    value = params.get(key, False)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("oui", "o", "vrai", "1", "true"):
        return True
    if isinstance(value, str) and value.lower() in ("non", "n", "faux", "0", "false", ""):
        return False
    raise JdrError(say("paramètre ", _where(key), " : oui ou non attendu"))


def _names(params: Mapping[str, Any], key: str) -> list[str]:
    value = params.get(key)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise JdrError(say("paramètre ", _where(key), " : une liste de personnages attendue"))
    if len(value) > MAX_CHARACTERS:
        raise JdrError(say("paramètre ", _where(key), f" : {MAX_CHARACTERS} personnages au plus"))
    out = []
    for item in value:
        if not isinstance(item, str) or not item or len(item) > MAX_PATH:
            raise JdrError(say("paramètre ", _where(key), f" : noms de 1 à {MAX_PATH} caractères"))
        out.append(item)
    return out


def _opts(params: Mapping[str, Any]) -> list[str] | dict[str, str]:
    value = params.get("opt")
    if value is None:
        return []
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        for item in value:
            if item.startswith("--"):
                raise JdrError(f"--opt « {item[:40]} » : il faut cle=valeur, pas une autre option")
        return list(value)
    raise JdrError("paramètre « opt » : cle=valeur attendu")


def check_params(kind: str, params: Mapping[str, Any]) -> None:
    from jdr.core.declare import ACTIONS, played

    if kind not in played():
        raise JdrError(f"action « {kind[:40]} » inconnue (actions : {', '.join(sorted(played()))})")
    allowed = ACTIONS[kind].names
    unknown = sorted(set(params) - allowed)
    if unknown:
        from jdr.names import unknown_name_message

        raise JdrError(f"{kind} : " + unknown_name_message("paramètre", str(unknown[0])[:40], allowed))


def refs_of(kind: str, params: Mapping[str, Any]) -> list[str]:
    """The characters an action names, in order (sheet paths or names in a campaign): every
    parameter the declaration types as a character, in its order."""
    from jdr.core.declare import ACTIONS

    action = ACTIONS.get(kind)
    if action is None:
        return []
    refs: list[str] = []
    for param in action.params:
        if param.kind in ("character", "opponent"):
            value = _text(params, param.name, param.required)
            if value is not None:
                refs.append(split_ref(value)[0] if param.kind == "opponent" else value)
        elif param.kind == "characters":
            if params.get(param.name) is None and not param.required:
                continue
            refs.extend(_counted(_names(params, param.name), param))
    return refs


def _counted(names: list[str], param: Any) -> list[str]:
    """As many characters as the declaration says (`lo`..`hi`: a duel takes two)."""
    lo, hi = param.lo, param.hi
    if lo is None or hi is None or lo <= len(names) <= hi:
        return names
    count = f"{lo} personnages exactement" if lo == hi else f"de {lo} à {hi} personnages"
    raise JdrError(say("paramètre ", _where(param.name),
                        f" : {count} ({param.help}), pas {len(names)}"))


def _refuse_if_unable(system: AnySystem, kind: str, who: Sequence[Loaded[Any]],
                      request: object = None) -> None:
    """D-ALL.02: whoever the rules leave unable to act cannot attack, roll an active check or
    spend an action (the system says which reactions and passive values stay allowed)."""
    for sheet in who:
        why = system.refusal(kind, sheet, request)
        if why is not None:
            rule = f" ({why.rule})" if why.rule else ""
            raise RuleError(f"{sheet.name} ne peut pas agir : {why.text}{rule}")


Run = Callable[[DiceSource | None], Outcome]


def _run_check(system: AnySystem, kind: str, params: Mapping[str, Any], loaded: list[Loaded[Any]],
               chooser: Chooser) -> Run:
    contre = _text(params, "contre")
    if contre is not None and _text(params, "seuil") is not None:
        raise JdrError(say(arg("seuil"), " et ", arg("contre"),
                           " s'excluent : un jet a un seuil OU un adversaire"))
    from jdr.core.options import parse_int

    bonus = _text(params, "bonus")
    choix = _text(params, "choix")
    request = CheckRequest(
        actor=loaded[0], skill=_text(params, "competence", True) or "",
        carac=_text(params, "carac"), threshold=_text(params, "seuil"),
        opponent=loaded[1] if contre is not None else None,
        opponent_skill=split_ref(contre)[1] if contre is not None else None,
        bonus=parse_int(bonus, arg("bonus"), -1000, 1000) if bonus is not None else 0,
        choice=parse_int(choix, arg("choix"), 1, 100) if choix is not None else None,
        die=_text(params, "de"), options=options(system, kind, _opts(params)), chooser=chooser)
    if kind == "odds":
        return lambda _src: Outcome(system.odds(request))
    _refuse_if_unable(system, kind, [loaded[0]], request)
    return lambda src: system.check(request, _need(src))


def _need(source: DiceSource | None) -> DiceSource:
    if source is None:
        raise JdrError("cette action lance des dés : source de dés absente")
    return source


def _run_attack(system: AnySystem, kind: str, params: Mapping[str, Any], loaded: list[Loaded[Any]],
                chooser: Chooser) -> Run:
    attacker, defender = loaded
    if same_character(attacker, defender) or attacker.name == defender.name:
        from jdr.core.french import accord

        raise RuleError(f"{attacker.name} ne peut pas s'attaquer "
                        + accord(attacker.genre, "lui-même", "elle-même", "soi-même"))
    request = AttackRequest(attacker, defender, _text(params, "arme"), _text(params, "defense"),
                            _text(params, "visee"), _text(params, "critique"),
                            _flag(params, "complete"), options(system, "attack", _opts(params)),
                            chooser)
    if kind == "attack_odds":
        return lambda _src: Outcome(system.attack_odds(request))
    _refuse_if_unable(system, "attack", [attacker], request)
    return lambda src: system.attack(request, _need(src))


def _run_xp(system: AnySystem, kind: str, params: Mapping[str, Any], loaded: list[Loaded[Any]],
            chooser: Chooser) -> Run:
    skill, carac, pv = _text(params, "competence"), _text(params, "carac"), _flag(params, "pv")
    if len([x for x in (skill, carac) if x]) + int(pv) != 1:
        raise JdrError(say(Ref("jdr xp : ", ""), "choisir exactement un achat parmi ",
                           arg("competence", kind="xp"), ", ", arg("carac", kind="xp"),
                           ", ", arg("pv", kind="xp")))
    request = XpRequest(loaded[0], skill, carac, pv, options(system, "xp", _opts(params)))
    return lambda _src: system.xp(request)


def _health_changes(doc: Any, path: tuple[str, ...], value: int, top: int | None
                    ) -> tuple[SheetChange, ...]:
    """Set the current value of a pool (`{max, actuels}`, or a bare number turned into one), or
    of a plain count, wherever it sits on the sheet."""
    node: Any = doc.plain()
    for name in path:
        node = SheetChange.doc_get(node, name) if isinstance(node, Mapping) else None
    if isinstance(node, Mapping):
        return (SheetChange(doc, (*path, "actuels"), value),)
    if isinstance(node, int) and path[-1] == "blessures":
        return (SheetChange(doc, path, value),)
    keep = node if isinstance(node, int) and not isinstance(node, bool) else top
    return (SheetChange(doc, path, {"max": keep if keep is not None else value, "actuels": value}),)


def _run_show(system: AnySystem, kind: str, params: Mapping[str, Any], loaded: list[Loaded[Any]],
              chooser: Chooser) -> Run:
    sheet = loaded[0]
    return lambda _src: Outcome(system.show(sheet))


def _run_health(system: AnySystem, kind: str, params: Mapping[str, Any], loaded: list[Loaded[Any]],
                chooser: Chooser) -> Run:
    """The MJ's damage or healing by hand: `valeur` = `12` (set), `+3` or `-5` (change), in the
    system's own unit (`hand_health`: PV, blessures)."""
    sheet = loaded[0]
    from jdr.core.options import parse_int
    from jdr.core.results import Line, Notes

    raw = _text(params, "valeur", True) or ""
    number = parse_int(raw, "valeur", -1000, 1000)
    health = system.health(sheet)
    if health is None:
        raise RuleError(f"{sheet.name} : la fiche n'a pas de points de vie à changer")
    after = health.after + number if raw.strip()[:1] in "+-" else number
    if health.unit == "pv" and health.max is not None:
        after = min(after, health.max)  # healing by hand stops at the maximum
    hand = system.hand_health(sheet)
    unit = hand.unit if hand is not None else ("PV" if health.unit == "pv" else "blessures")
    top = f"/{health.max}" if health.max is not None else ""
    result = Notes(f"{sheet.name} : {unit} {health.after}{top} → {after}{top}",
                   (Line("changement à la main (MJ)"),))
    changes = _health_changes(sheet.doc, system.health_path(sheet), after, health.max)
    return lambda _src: Outcome(result, changes)


def _run_group(system: AnySystem, kind: str, params: Mapping[str, Any], loaded: list[Loaded[Any]],
               chooser: Chooser) -> Run:
    if kind == "regle":
        name = _text(params, "nom", True) or ""
        action_spec(system, name)
        rule = RuleRequest(tuple(loaded), options(system, name, _opts(params)), chooser)
        if _flag(params, "chances"):
            return lambda _src: Outcome(system.rule_odds(name, rule))
        if system.actions[name].acts:
            _refuse_if_unable(system, name, loaded[:1], rule)
        return lambda src: system.rule(name, rule, src)
    request = GroupRequest(tuple(loaded), options(system, kind, _opts(params)))
    if kind == "initiative":
        return lambda src: system.initiative(request, _need(src))
    if kind == "duel":
        if len(loaded) != 2:
            raise JdrError("un duel oppose exactement deux personnages")
        _refuse_if_unable(system, kind, loaded, request)
        return lambda src: system.duel(request, _need(src))
    return lambda _src: system.new_session(request)


def execute(ws: Workspace, kind: str, params: Mapping[str, Any], source: DiceSource | None = None,
            *, dry_run: bool = False, chooser: Chooser = default_choice, actor: str | None = None,
            visibility: str = "public", author: str | None = None,
            system: AnySystem | None = None) -> Done:
    """Run one action in `ws` (not committed: see `commit`)."""
    from jdr.core.declare import ACTIONS

    check_params(kind, params)
    recording = Recording(source) if source is not None else None
    if kind == "roll":
        return _roll(params, recording, actor, visibility, author)
    refs = refs_of(kind, params)
    loaded: list[Loaded[Any]] = []
    if refs:
        system, loaded = ws.open(refs)
    elif system is None:
        raise JdrError(f"{kind} : aucun personnage donné")
    assert system is not None
    action = _text(params, "nom", True) or "" if kind == "regle" else kind
    runner = globals()[ACTIONS[kind].runner]
    run = runner(system, kind, params, loaded, chooser)
    journal = journaled(kind)
    if kind == "regle" and _flag(params, "chances"):
        recording, journal = None, False
    if journal and loaded and kind != "sante" and ws.journaled:  # turns: a campaign's encounter
        ws.admit(system, _turn_act(action, params, loaded))
    pending = prepare(system, "attack" if kind == "attack_odds" else action, run, recording,
                      dry_run)
    who = actor or (loaded[0].name if loaded else "MJ")
    name = kind if kind != "regle" else f"regle:{action}"
    return Done(kind, system, pending,
                lambda: record(pending, who, name, _plain(params), recording, visibility, author),
                refs, journal and not dry_run)


def _turn_act(action: str, params: Mapping[str, Any], loaded: list[Loaded[Any]]) -> Any:
    from jdr.core.turns import TurnAct

    return TurnAct(action, loaded[0].name, max(1, len(loaded) - 1), _flag(params, "complete"))


def _roll(params: Mapping[str, Any], source: Recording | None, actor: str | None,
          visibility: str, author: str | None) -> Done:
    from jdr.dice.notation import roll

    expression = _text(params, "expression", True) or ""
    if source is None:
        raise JdrError("roll : source de dés absente")
    result = roll(expression, source)
    source.finish()
    pending = Pending(Outcome(result), ())
    return Done("roll", None, pending,
                lambda: record(pending, actor or "MJ", "roll", _plain(params), source, visibility,
                               author), [], True)


def _plain(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in params.items()}


def commit(ws: Workspace, done: Done) -> int | None:
    """Write the changed sheets (and the journal entry in a campaign); the journal's seq."""
    if not done.journal:
        return None
    return ws.commit(done.pending, done.rec if ws.journaled else None)
