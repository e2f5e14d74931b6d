"""Talking at the table: messages, whispers, inline rolls; the MJ's reveal and roll requests;
whose turn it is.

    POST /api/tables/{id}/messages                 a message (text, /me, /w NOM, /r, [[1d20+5]])
    POST /api/tables/{id}/reveler/{seq}            (MJ) show a hidden roll to everyone
    POST /api/tables/{id}/demandes                 (MJ) ask a player for a check
    GET  /api/tables/{id}/demandes                 the requests waiting for the caller
    POST /api/tables/{id}/demandes/{seq}/lancer    roll what was asked (one click on the page)
    GET  /api/tables/{id}/tour                     whose turn it is, and whether it is the caller's

Every one is a journal entry, with the journal's visibility (`Caller.sight`) and live channel.
A whisper to the MJ is `prive`; a whisper to another member is `chuchote` with `params.a` = its
name: only its author and its target see it (the MJ does not see whispers between players).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Path
from starlette.concurrency import run_in_threadpool

from jdr.web.auth import MJ, Caller
from jdr.web.deps import CallerDep, ServerDep
from jdr.web.errors import ApiError
from jdr.web.models import MAX_ID, Action, Answer, Message, RollRequest
from jdr.web.state import Server

router = APIRouter(prefix="/api/tables/{id}", tags=["table"])
Seq = Annotated[int, Path(ge=1, le=MAX_ID, description="Numéro de l'entrée du journal.")]
INLINE = re.compile(r"\[\[(.{1,200}?)\]\]")
MAX_INLINE = 10
HIDDEN = ("prive", "aveugle", "mj")
SCAN = 500  # how far back the pending requests are looked for


# ------------------------------------------------------------------ messages


@dataclass(frozen=True)
class Parsed:
    kind: str  # texte | emote | chuchote
    body: str
    target: str | None = None  # as written after /w


def _quoted(rest: str) -> tuple[str, str] | None:
    if rest[:1] not in "\"«":
        return None
    close = "»" if rest[0] == "«" else "\""
    end = rest.find(close, 1)
    if end < 0:
        return None
    return rest[1:end].strip(), rest[end + 1:].strip()


def parse(text: str, names: list[str]) -> Parsed:
    """`/me …`, `/w NOM …` (the longest known name that starts the rest, or a quoted one), `/r
    EXPR`, or plain text."""
    from jdr.names import normalize

    line = text.strip()
    if not line:
        raise ApiError(422, "message vide")
    if not line.startswith("/"):
        return Parsed("texte", line)
    head, _, rest = line.partition(" ")
    command, rest = head.lower(), rest.strip()
    if command in ("/me", "/em"):
        if not rest:
            raise ApiError(422, "/me : écrivez l'action, ex. /me dégaine sa hache")
        return Parsed("emote", rest)
    if command in ("/r", "/roll", "/jet"):
        if not rest:
            raise ApiError(422, "/r : écrivez l'expression, ex. /r 1d20+5")
        return Parsed("texte", f"[[{rest}]]")
    if command in ("/w", "/chuchote"):
        quoted = _quoted(rest)
        if quoted is None:
            low = normalize(rest)
            known = sorted(names, key=len, reverse=True)
            found = next((n for n in known if low.startswith(normalize(n))
                          and rest[len(n):len(n) + 1] in ("", " ")), None)
            target, _, body = rest.partition(" ") if found is None else \
                (found, " ", rest[len(found):].strip())
            quoted = (target, body.strip())
        target, body = quoted
        if not target or not body:
            raise ApiError(422, "/w : à qui, puis le texte, ex. /w MJ je garde la clé "
                                "(/w \"Nom composé\" texte)")
        return Parsed("chuchote", body, target)
    raise ApiError(422, f"commande inconnue : {head[:20]} (permises : /me, /w NOM, /r EXPRESSION)")


def _recipients(server: Server, caller: Caller) -> dict[str, tuple[str, str]]:
    """Normalised name → (member name, role), characters' names mapping to their player."""
    from jdr.campaign.rows import MemberRow
    from jdr.names import normalize

    out: dict[str, tuple[str, str]] = {normalize(MJ): (MJ.upper(), MJ)}
    with server.session() as session:
        for row in session.rows(MemberRow, "campaign_id = :c AND revoked = :no",
                                {"c": caller.campaign.id, "no": False}):
            out[normalize(row.name)] = (row.name, row.role)
    with caller.campaign.reading() as tx:
        for info in tx.characters():
            if info.player and normalize(info.player) in out:
                out.setdefault(normalize(info.name), out[normalize(info.player)])
    return out


def _audience(server: Server, caller: Caller, parsed: Parsed) -> tuple[str, str | None]:
    """(visibility, target's name) of a message."""
    from jdr.names import normalize

    if parsed.kind != "chuchote":
        return "public", None
    assert parsed.target is not None
    known = _recipients(server, caller)
    found = known.get(normalize(parsed.target))
    if found is None:
        names = sorted({name for name, _ in known.values()})
        raise ApiError(422, f"/w : personne ne s'appelle « {parsed.target[:60]} » à cette table "
                            f"(membres : {', '.join(names)})")
    name, role = found
    if role == MJ:
        return "prive", "MJ"
    if caller.is_named(name):
        raise ApiError(422, "/w : on ne se chuchote pas à soi-même")
    return "chuchote", name


def _inline(body: str, source: Any) -> tuple[list[dict[str, Any]], str]:
    """The message's parts (text, rolls rolled from `source`) and its one-line text."""
    from jdr.dice.notation import roll
    from jdr.errors import JdrError

    parts: list[dict[str, Any]] = []
    flat: list[str] = []
    at = 0
    matches = list(INLINE.finditer(body))
    if len(matches) > MAX_INLINE:
        raise ApiError(422, f"{MAX_INLINE} jets au plus dans un message")
    for match in matches:
        if match.start() > at:
            parts.append({"text": body[at:match.start()]})
            flat.append(body[at:match.start()])
        expression = match.group(1).strip()
        try:
            result = roll(expression, source)
        except JdrError as exc:
            raise ApiError(422, f"[[{expression[:40]}]] : {exc.message}") from None
        faces = [{"sides": d.sides, "face": d.face, "kept": d.kept} for d in result.dice]
        parts.append({"roll": expression, "total": result.total, "dice": faces})
        shown = ", ".join(str(d["face"]) if d["kept"] else f"({d['face']})" for d in faces)
        flat.append(f"[{expression} = {result.total}" + (f" : {shown}]" if shown else "]"))
        at = match.end()
    if at < len(body):
        parts.append({"text": body[at:]})
        flat.append(body[at:])
    return parts, "".join(flat)


def run_message(server: Server, caller: Caller, body: Message) -> dict[str, Any]:
    from jdr.core.usecase import Recording
    from jdr.dice.source import make_source

    caller.require_player()
    names = [name for name, _ in _recipients(server, caller).values()]
    with caller.campaign.reading() as tx:
        names += [i.name for i in tx.characters()]
    parsed = parse(body.texte, names)
    visibility, target = _audience(server, caller, parsed)
    faces = ",".join(str(f) for f in body.des) if body.des is not None else None
    source = Recording(make_source(None, faces))
    parts, flat = _inline(parsed.body, source)
    source.finish()
    who = caller.name
    if parsed.kind == "emote":
        text = f"{who} {flat}"
    elif target is not None:
        text = f"{who} (à {target}) : {flat}"
    else:
        text = f"{who} : {flat}"
    result = {"type": "message", "kind": parsed.kind, "to": target, "parts": parts}
    params: dict[str, Any] = {"texte": body.texte}
    if target is not None:
        params["a"] = target
    with caller.campaign.transaction() as tx:
        entry = tx.append(who, "message", params, source.dice_json(), result, text, text, [],
                          visibility, who)
        return entry.to_json()


@router.post("/messages", summary="Un message au journal : texte, /me, /w NOM (chuchoté), [[1d20]]")
async def message(body: Message, caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    answer = await run_in_threadpool(run_message, server, caller, body)
    server.hubs.wake(caller.campaign.id)
    return answer


# ------------------------------------------------------------------ the MJ reveals a hidden roll


def run_reveal(caller: Caller, seq: int) -> dict[str, Any]:
    caller.require_mj()
    with caller.campaign.transaction() as tx:
        row = tx.entry_row(seq)
        if row is None:
            raise ApiError(404, f"aucune entrée n° {seq} au journal")
        if row.visibility not in HIDDEN or row.action in ("message", "attente"):
            raise ApiError(409, f"l'entrée n° {seq} ne se révèle pas : seuls les jets privés, "
                                "aveugles ou secrets du MJ se révèlent")
        if row.params.get("revele"):
            raise ApiError(409, f"l'entrée n° {seq} est déjà révélée (n° {row.params['revele']})")
        text = f"Révélé par le MJ (jet n° {seq} de {row.actor}) :\n{row.text}"
        entry = tx.append(row.actor, "reveler", {"seq": seq}, row.dice, row.result, text,
                          row.forum, [], "public", caller.name)
        row.params = {**row.params, "revele": entry.seq}
        return entry.to_json()


@router.post("/reveler/{seq}", summary="(MJ) Montre à tous un jet privé, aveugle ou secret")
async def reveal(seq: Seq, caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    answer = await run_in_threadpool(run_reveal, caller, seq)
    server.hubs.wake(caller.campaign.id)
    return answer


# ------------------------------------------------------------------ roll requests


def run_request(server: Server, caller: Caller, body: RollRequest) -> dict[str, Any]:
    """The MJ asks for a check; the request is seen by the character's player (and the MJ),
    or by everyone when the roll asked for is public."""
    caller.require_mj()
    params = {"personnage": body.personnage, "competence": body.competence}
    if body.seuil:
        params["seuil"] = body.seuil
    if body.bonus:
        params["bonus"] = str(body.bonus)
    with caller.campaign.transaction() as tx:
        from jdr.web.characters import find

        row = find(tx, body.personnage)
        params["personnage"] = row.name
        # the odds are computed now: a request the rules refuse is refused at once
        from jdr.campaign.workspace import CampaignWorkspace
        from jdr.core.actions import execute

        execute(CampaignWorkspace(tx), "odds", params, system=caller.campaign.system)
        visibility, target = "public", None
        if body.visibilite != "public":
            visibility, target = ("chuchote", row.player) if row.player else ("mj", None)
        threshold = f" (seuil {body.seuil})" if body.seuil else ""
        text = f"Le MJ demande à {row.name} un test de {body.competence}{threshold}"
        stored = {**params, "mode": body.visibilite, **({"a": target} if target else {})}
        entry = tx.append(caller.name, "demande", stored, [], {"type": "demande", **params}, text,
                          text, [], visibility, caller.name)
        return entry.to_json()


def pending(caller: Caller) -> list[dict[str, Any]]:
    """The requests not yet rolled that the caller may roll (its characters'; all for the MJ)."""
    from jdr.campaign.rows import JournalRow

    out = []
    with caller.campaign.reading() as tx:
        players = {i.name: i.player for i in tx.characters()}
        rows = tx.session.rows(JournalRow, "campaign_id = :c AND action = 'demande'",
                               {"c": caller.campaign.id}, f"ORDER BY seq DESC LIMIT {int(SCAN)}")
        for row in rows:
            params = dict(row.params)
            if params.get("reponse") or row.undone_by is not None:
                continue
            name = params.get("personnage")
            if name not in players or not caller.may_read_character(players[name]):
                continue
            if caller.role == "spectateur":
                continue
            out.append({"seq": row.seq, "personnage": name, "competence": params["competence"],
                        "seuil": params.get("seuil"), "bonus": params.get("bonus"),
                        "mode": params.get("mode", "public"), "texte": row.text})
    return out[::-1]


def run_answer(server: Server, caller: Caller, seq: int, body: Answer) -> dict[str, Any]:
    """Roll what the MJ asked, as the roll box would, and mark the request answered (one
    transaction)."""
    from jdr.web.play import run_action

    wanted = next((p for p in pending(caller) if p["seq"] == seq), None)
    if wanted is None:
        raise ApiError(404, f"aucune demande de jet n° {seq} en attente pour vous")
    params = {k: wanted[k] for k in ("personnage", "competence", "seuil", "bonus") if wanted[k]}
    action = Action(type="check", params=params, visibilite=wanted["mode"], des=body.des)

    def answered(tx: Any, entry_seq: int) -> None:
        row = tx.entry_row(seq)
        if row is None or row.params.get("reponse"):
            raise ApiError(409, f"la demande n° {seq} a déjà sa réponse")
        row.params = {**row.params, "reponse": entry_seq}

    return run_action(server, caller, action, answered)


@router.post("/demandes", status_code=201, summary="(MJ) Demande un jet à un joueur")
async def ask(body: RollRequest, caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    answer = await run_in_threadpool(run_request, server, caller, body)
    server.hubs.wake(caller.campaign.id)
    return answer


@router.get("/demandes", summary="Les demandes de jet qui attendent l'appelant")
def asked(caller: CallerDep) -> list[dict[str, Any]]:
    return pending(caller)


@router.post("/demandes/{seq}/lancer", summary="Lance le jet demandé par le MJ")
async def answer(seq: Seq, body: Answer, caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    entry = await run_in_threadpool(run_answer, server, caller, seq, body)
    server.hubs.wake(caller.campaign.id)
    return entry


# ------------------------------------------------------------------ whose turn


def turn_of(caller: Caller) -> dict[str, Any]:
    """Whose turn it is, and whether it is one of the caller's characters."""
    from jdr.core.encounter import EncounterState

    with caller.campaign.reading() as tx:
        row = tx.encounter()
        if row is None:
            return {"rencontre": False, "courant": None, "round": None, "a_moi": False}
        state = EncounterState.from_json(row.state)
        players = {i.name: i.player for i in tx.characters()}
    current = state.current.name if state.current is not None else None
    mine = current is not None and caller.owns(players.get(current))
    return {"rencontre": True, "courant": current, "round": state.round, "a_moi": mine}


def turn_text(turn: dict[str, Any]) -> str:
    """« tour d'Elfe B » (elided)."""
    from jdr.core.turns import of

    return f"tour {of(turn['courant'])}" if turn.get("courant") else ""


@router.get("/tour", summary="À qui est le tour, et s'il est à l'un des personnages de l'appelant")
def turn(caller: CallerDep) -> dict[str, Any]:
    return turn_of(caller)
