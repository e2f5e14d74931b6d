"""Rolls waiting for a player's choice (issue 17.4), kept in the campaign until answered.

An action played at the table (`jdr.web.play`) whose rules ask a question after the dice (the
expert's other die, a prédilection, a critical's option, the die a cat keeps) does not take the
default any more: it stops (`jdr.core.choices.Waiting`) and `start` keeps, in one transaction,

- a row of `jdr_attentes` (migration 0005): the action as asked, the faces rolled so far, the
  answers given, the question, whose answer it is, when it expires;
- a journal entry `attente` (the notice): the question and the dice rolled so far, seen by the
  roller and the MJ only (`prive`; `mj` for a blind or secret roll, `moi` for « pour moi
  seul »), sent on the live channel like any entry. It changes nothing and is never undone.

`answer` plays the action again with the faces already rolled (`Replay`: a choice never
rerolls) and the answers given: a new question updates the row; the last one completes the
action, journaled once (dice, result, sheet changes, the turn counted), and the row goes.
Nothing else may act on the characters of a waiting roll (`guard`), so its sheets are those
the dice were rolled on.

Who answers: the roller for its own character, the MJ for anyone (a question about another
character — the defender's critical option, the opponent's expert die — and every question of a
blind or secret roll are the MJ's). If nobody answers, the roll takes the defaults: when the MJ
settles it, when its delay (`DELAY`, 10 minutes) is over (at the next action in the table, or
when the waiting rolls are listed), at the next turn of the encounter, at its end, and when the
séance closes. The MJ may abandon a roll the rules can no longer replay (a sheet changed).

Séance dice (issue 21): the dice of a waiting roll are derived for the notice's number (`seq`),
which no other entry uses; the completed entry's verification record names it (`tirage`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from jdr.campaign.rows import PendingRow
from jdr.core.frozen import frozen
from jdr.errors import JdrError, RuleError

if TYPE_CHECKING:
    from jdr.campaign.store import Entry, Tx
    from jdr.core.choices import Waiting

DELAY = timedelta(minutes=10)
NOTICE = "attente"
NOTICE_SIGHT = {"public": "prive", "prive": "prive", "aveugle": "mj", "mj": "mj", "moi": "moi"}


@frozen
class Request:
    """An action as it was asked (what `answer` plays again)."""

    kind: str
    params: dict[str, Any]
    visibility: str = "public"
    force: bool = False
    faces: list[int] | None = None  # `des`: faces rolled by hand
    seed: int | None = None  # `graine` (MJ)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "params": self.params, "visibilite": self.visibility,
                "derogation": self.force, "des": self.faces, "graine": self.seed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Request:
        return cls(str(data["type"]), dict(data["params"]), str(data["visibilite"]),
                   bool(data["derogation"]), data.get("des"), data.get("graine"))


def aware(moment: datetime) -> datetime:
    """A moment read back from the database, with its time zone (SQLite drops it: UTC)."""
    from datetime import UTC

    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def rows(tx: Tx) -> list[PendingRow]:
    return tx.session.rows(PendingRow, "campaign_id = :c", {"c": tx.campaign.id}, "ORDER BY seq")


def brief(tx: Tx) -> list[tuple[int, int, list[Any], datetime]]:
    """(id, seq, keys, expires_at) of each waiting roll: one light query, asked before every
    action (almost always none), and not again in the same transaction while nothing was
    written (an action asked it three times)."""
    if tx.absent("attentes"):
        return []
    known = tx.recall("brief")
    if known is not None:
        return list(known)
    conn = tx.session.conn
    found = tx.session.all('SELECT id, seq, "keys", expires_at FROM jdr_attentes '
                           "WHERE campaign_id = :c", {"c": tx.campaign.id})
    result = [(r[0], r[1], conn.json(r[2]), conn.moment(r[3])) for r in found]
    tx.keep("brief", tuple(result))
    return result


def row_of(tx: Tx, seq: int) -> PendingRow | None:
    return tx.session.first(PendingRow, "campaign_id = :c AND seq = :seq",
                            {"c": tx.campaign.id, "seq": seq})


def answered_by(row: PendingRow) -> str:
    """« mj » or « lanceur »: who may answer the current question (the MJ always may)."""
    return str(row.question.get("repond", "mj"))


def _who_answers(request: Request, question_who: str, actor: str) -> str:
    from jdr.names import normalize

    if request.visibility in ("aveugle", "mj"):
        return "mj"
    if question_who and normalize(question_who) != normalize(actor):
        return "mj"
    return "lanceur"


# ------------------------------------------------------------------ a roll stops: the notice


def _draw(tx: Tx) -> dict[str, Any] | None:
    """The séance dice of this roll (drawn for the notice's number), before the notice takes it."""
    pending = tx.pending_verif
    if pending is None:
        return None
    return {"seance": pending["seance"], "tirage": pending["seq"],
            "verifiable": bool(pending["verifiable"]), "raison": pending.get("raison")}


def notice_text(actor: str, question: dict[str, Any]) -> str:
    """« Choix en attente — Nain A — hache, compétence experte : dés 3 et 8 ; garder … ? »,
    what was rolled, who answers and what happens without an answer."""
    default = next((c["libelle"] for c in question["choix"] if c["defaut"]), question["defaut"])
    who = "le MJ" if question["repond"] == "mj" else f"le joueur {de_name(actor)} ou le MJ"
    minutes = int(DELAY.total_seconds() // 60)
    shown = f"avec le choix par défaut (« {default} ») :\n{question['texte']}" if question[
        "texte"] else ""
    lines = [f"Choix en attente : {question['question']}", shown,
             f"réponse : {who} ; sans réponse dans {minutes} minutes ou au tour suivant, le "
             "choix par défaut"]
    return "\n".join(line for line in lines if line)


def de_name(name: str) -> str:
    from jdr.core.french import de

    return de(name)


def start(tx: Tx, request: Request, waiting: Waiting, faces: Sequence[Sequence[int]],
          refs: Sequence[str], author: str, actor: str) -> tuple[Entry, PendingRow]:
    """Keep a roll that stopped at a question: its notice in the journal, its row."""
    from jdr.campaign.store import now
    from jdr.core.choices import question_json
    from jdr.names import normalize

    draw = _draw(tx)
    question = question_json(waiting.question, _who_answers(request, waiting.question.who, actor))
    dice = [{"sides": int(s), "face": int(f)} for s, f in faces]
    text = notice_text(actor, question)
    entry = tx.append(actor, NOTICE, {"type": request.kind}, dice, {"type": NOTICE, **question},
                      text, text, [], NOTICE_SIGHT[request.visibility], author)
    moment = now()
    row = PendingRow(campaign_id=tx.campaign.id, seq=entry.seq, author=author, actor=actor,
                     keys=sorted({normalize(r) for r in refs}), request=request.to_json(),
                     faces=[[int(s), int(f)] for s, f in faces], answers=[], question=question,
                     draw=draw, created_at=moment, expires_at=moment + DELAY)
    tx.session.add(row)
    return entry, row


# ------------------------------------------------------------------ an answer: played again


def _replay(tx: Tx, row: PendingRow, request: Request) -> Any:
    """The faces already rolled, then the rest: from the same hand-given faces, seed or séance
    derivation (which give the first ones again, checked), else fresh dice."""
    from jdr.core.choices import Replay
    from jdr.dice.source import FixedSource, RandomSource

    if request.faces is not None:
        return Replay(row.faces, FixedSource(request.faces), True)
    if request.seed is not None:
        return Replay(row.faces, RandomSource(request.seed), True)
    if row.draw is not None and row.draw.get("verifiable"):
        from jdr.campaign.seance import draw_source

        return Replay(row.faces, draw_source(tx, row.draw), True)
    return Replay(row.faces, RandomSource(), False)


def _final_verif(tx: Tx, row: PendingRow) -> None:
    """The completed entry's séance record: the dice drawn for the notice (`tirage`)."""
    from jdr.campaign.seance import current, draw_key

    if not hasattr(tx, "row"):
        tx.lock()
    seq = tx.row.journal_seq + 1
    draw = row.draw
    if draw is None:
        now_open = current(tx)
        tx.pending_verif = None if now_open is None else {
            "seance": now_open.number, "seq": seq, "verifiable": False,
            "raison": "jet commencé avant l'ouverture de la séance"}
    elif draw.get("verifiable"):
        tx.pending_verif = {"seance": draw["seance"], "seq": seq, "verifiable": True,
                            "key": draw_key(tx, draw), "tirage": draw["tirage"]}
    else:
        tx.pending_verif = {"seance": draw["seance"], "seq": seq, "verifiable": False,
                            "raison": draw.get("raison") or "dés hors de la dérivation"}


def _play(tx: Tx, row: PendingRow, request: Request, source: Any, chooser: Any) -> Any:
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.actions import execute

    ws = CampaignWorkspace(tx, force=request.force, resuming=row.id)
    done = execute(ws, request.kind, request.params, source, chooser=chooser,
                   visibility=request.visibility, author=row.author, system=tx.campaign.system)
    return ws, done


def answer(tx: Tx, row: PendingRow, choice: str | None, settle: bool = False
           ) -> tuple[Entry | None, PendingRow | None]:
    """One more answer (None with `settle`: the defaults for every question left). The roll
    completes — (its journal entry, None) — or waits again — (None, its row)."""
    from jdr.core.choices import Waiting, scripted
    from jdr.core.usecase import Recording

    request = Request.from_json(row.request)
    answers = [*row.answers, *([choice] if choice is not None else [])]
    source = Recording(_replay(tx, row, request))
    _final_verif(tx, row)
    try:
        ws, done = _play(tx, row, request, source, scripted(answers, settle))
    except Waiting as waiting:
        tx.pending_verif = None
        question = question_json_of(waiting, request, row.actor)
        row.faces, row.answers, row.question = [list(r) for r in source.rolls], answers, question
        return None, row
    except BaseException:
        tx.pending_verif = None
        raise
    return _complete(tx, row, ws, done), None


def question_json_of(waiting: Waiting, request: Request, actor: str) -> dict[str, Any]:
    from jdr.core.choices import question_json

    return question_json(waiting.question, _who_answers(request, waiting.question.who, actor))


def _complete(tx: Tx, row: PendingRow, ws: Any, done: Any) -> Entry:
    from jdr.core.actions import commit

    if row.request.get("visibilite") == "moi" and (done.rec.changes or ws.turn is not None):
        raise RuleError("visibilite « moi » (pour moi seul) : cette action change une fiche ou "
                        "compte dans le tour, le MJ doit la voir (prive ou aveugle)")
    seq = commit(ws, done)
    assert seq is not None
    tx.session.delete(row)
    (entry,) = tx.entries(since=seq - 1, limit=1)
    return entry


# ------------------------------------------------------------------ nobody answers


def abandon(tx: Tx, row: PendingRow, why: str, author: str = "MJ") -> Entry:
    """The roll is dropped (nothing changes); a note tells its roller and the MJ why."""
    text = f"Jet en attente n° {row.seq} abandonné : {why}"
    entry = tx.append(row.actor, NOTICE, {"type": row.request.get("type"), "abandon": row.seq},
                      [], {"type": NOTICE, "abandon": row.seq}, text, text, [],
                      NOTICE_SIGHT.get(str(row.request.get("visibilite")), "prive"), author)
    tx.session.delete(row)
    return entry


def settle(tx: Tx, row: PendingRow) -> Entry:
    """The defaults for every question left; a roll the rules can no longer replay is dropped."""
    try:
        entry, _ = answer(tx, row, None, settle=True)
    except JdrError as exc:
        return abandon(tx, row, exc.message)
    assert entry is not None
    return entry


def expired(row: PendingRow) -> bool:
    from jdr.campaign.store import now

    return aware(row.expires_at) <= now()


def settle_expired(tx: Tx) -> list[Entry]:
    """Every roll whose delay is over takes its defaults (before anything else is played)."""
    from jdr.campaign.store import now

    if not any(aware(ends) <= now() for _, _, _, ends in brief(tx)):
        return []
    return [settle(tx, row) for row in rows(tx) if expired(row)]


def settle_all(tx: Tx, source: Any = None) -> list[Entry]:
    """Every waiting roll takes its defaults (the turn ends, the encounter ends, the séance
    closes). A step that had drawn its séance dice draws them again: its entry comes after."""
    if not brief(tx):
        return []
    found = rows(tx)
    before, tx.pending_verif = tx.pending_verif, None
    done = [settle(tx, row) for row in found]
    if before is not None:
        from jdr.campaign.seance import redraw

        redraw(tx, source, before)
    return done


def guard(tx: Tx, refs: Sequence[str], resuming: int | None = None) -> None:
    """Nothing else is played on a character whose roll waits for a choice (its sheets stay
    those the dice were rolled on)."""
    from jdr.core.french import de
    from jdr.names import normalize

    wanted = {normalize(r) for r in refs}
    for ident, seq, keys, _ in brief(tx):
        if ident != resuming and wanted & set(keys):
            row = row_of(tx, seq)
            actor = row.actor if row is not None else "ce personnage"
            raise RuleError(f"un jet {de(actor)} attend un choix (n° {seq}) : rien d'autre sur "
                            "ses personnages avant la réponse du joueur, ou le MJ le règle")
