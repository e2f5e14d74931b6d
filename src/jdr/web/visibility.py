"""What each member sees of a fight: the one filter of the combat panel, the API's view of the
encounter and the journal's entries (API, pages, live channel).

- The MJ sees everything exactly.
- A joueur sees its own characters exactly (it reads their sheets anyway).
- Every other combatant, for a joueur or a spectateur, shows as the MJ chose for the table
  (`jdr_campaigns.settings`): `exacte` (health, state, conditions), `etat` (the system's
  descriptive state and conditions, no number) or `cachee` (nothing). Defaults: `etat` for the
  NPCs (the characters given to no joueur), `exacte` for the joueurs' characters.
- Never a value changed by an action the member may not see (a secret `sante -13` of the MJ, a
  private roll of another joueur): a combatant touched by such an entry (not undone) shows as it
  was just before the first of them, its sheet rebuilt from the journal's values before; a later
  visible entry that changed it (a public blow) has the values it shows of it masked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from jdr.names import normalize
from jdr.web.auth import Caller
from jdr.web.deps import CallerDep, ServerDep, TableId

MODES = ("exacte", "etat", "cachee")
DEFAULTS = {"pnj": "etat", "pj": "exacte"}
HIDDEN_STATE = "inconnu"
Mode = Literal["exacte", "etat", "cachee"]
ENCOUNTER = "@rencontre"

router = APIRouter(prefix="/api/tables/{id}", tags=["combat"])


# ------------------------------------------------------------------ the table's choice


def settings_of(tx: Any) -> dict[str, str]:
    """The modes of the table (`pnj`, `pj`), defaults filled in."""
    from jdr.campaign.rows import CampaignRow

    row = tx.session.get(CampaignRow, tx.campaign.id)
    chosen = (row.settings or {}).get("sante", {}) if row is not None else {}
    return {k: str(chosen[k]) if chosen.get(k) in MODES else v for k, v in DEFAULTS.items()}


def table_settings(caller: Caller) -> dict[str, str]:
    with caller.campaign.reading() as tx:
        return settings_of(tx)


def set_settings(caller: Caller, pnj: str | None, pj: str | None) -> dict[str, str]:
    from jdr.campaign.rows import CampaignRow
    from jdr.web.errors import ApiError

    caller.require_mj()
    for value in (pnj, pj):
        if value is not None and value not in MODES:
            raise ApiError(422, f"santé : « {value[:40]} » inconnu (exacte, etat ou cachee)")
    with caller.campaign.transaction() as tx:
        row = tx.session.get(CampaignRow, tx.campaign.id)
        assert row is not None
        current = settings_of(tx)
        if pnj is not None:
            current["pnj"] = pnj
        if pj is not None:
            current["pj"] = pj
        row.settings = {**(row.settings or {}), "sante": current}
        return current


# ------------------------------------------------------------------ what one member may know


@dataclass
class Known:
    """What one member may know of the combatants, read once per request."""

    caller: Caller
    modes: dict[str, str]
    players: dict[str, str | None] = field(default_factory=dict)  # key → joueur
    hidden_from: dict[str, int] = field(default_factory=dict)  # key → first unseen change
    before: dict[str, dict[str, Any] | None] = field(default_factory=dict)  # key → rebuilt row

    def mode(self, name: str) -> str:
        key = normalize(name)
        player = self.players.get(key)
        if self.caller.is_mj or self.caller.owns(player):
            return "exacte"
        return self.modes["pj" if player else "pnj"]

    def row(self, row: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        """One line of the encounter (`render.json` form) as this member may see it; `seq`: the
        journal entry it comes from (None: now)."""
        mode = self.mode(str(row.get("name", "")))
        key = normalize(str(row.get("name", "")))
        out = dict(row)
        if not (self.caller.is_mj or self.caller.owns(self.players.get(key))):
            first = self.hidden_from.get(key)
            if first is not None and (seq is None or seq > first):
                rebuilt = self.before.get(key)
                out.update(rebuilt if rebuilt is not None else
                           {"state": HIDDEN_STATE, "hit_points": None, "conditions": []})
        if mode == "etat":
            out["hit_points"] = None
        elif mode == "cachee":
            out.update({"state": HIDDEN_STATE, "hit_points": None, "conditions": []})
        out["sante"] = mode
        return out

    def encounter(self, view: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        return {**view, "order": [self.row(r, seq) for r in view.get("order", [])]}


def known(caller: Caller, tx: Any) -> Known:
    """Who plays whom, and the combatants changed by entries this member may not see."""
    info = Known(caller, settings_of(tx))
    for character in tx.characters():
        info.players[normalize(character.name)] = character.player
    if caller.is_mj:
        return info
    for entry in _unseen(caller, tx):
        for change in entry.changes:
            name = str(change.get("character", ""))
            key = normalize(name)
            if name != ENCOUNTER and key in info.players and key not in info.hidden_from \
                    and not caller.owns(info.players[key]):
                info.hidden_from[key] = entry.seq
    if info.hidden_from:
        info.before = _rebuilt(tx, info.hidden_from)
    return info


def _unseen(caller: Caller, tx: Any) -> list[Any]:
    """The entries (not undone) this member may not see, in order: only non-public ones."""
    from jdr.campaign.rows import JournalRow
    from jdr.campaign.store import _entry
    from jdr.web.live import owners

    rows = tx.session.rows(JournalRow, "campaign_id = :c AND visibility <> 'public' AND "
                           "undone_by IS NULL AND undoes IS NULL", {"c": tx.campaign.id},
                           "ORDER BY seq")
    entries = [_entry(r) for r in rows]
    return [e for e, owner in owners(tx, entries) if not caller.may_see(e.visibility, owner)]


def _rebuilt(tx: Any, first: dict[str, int]) -> dict[str, dict[str, Any] | None]:
    """Each combatant's line as it was just before its first unseen change: its sheet with every
    later change put back to its value before, newest first (None: the sheet cannot be rebuilt)."""
    from jdr.campaign.journal import _delete
    from jdr.core.system import SheetChange
    from jdr.core.usecase import load

    since = min(first.values()) - 1
    later: list[Any] = []
    while True:
        page = tx.entries(since=since, limit=500)
        later += page
        if len(page) < 500:
            break
        since = page[-1].seq
    system = tx.campaign.system
    out: dict[str, dict[str, Any] | None] = {}
    for key, seq in first.items():
        try:
            doc = tx.document(key)
            for entry in reversed(later):
                if entry.seq < seq:
                    break
                for change in reversed(entry.changes):
                    if normalize(str(change.get("character", ""))) != key:
                        continue
                    path = tuple(change["path"])
                    if change["before"] is None:
                        _delete(doc, path)
                    else:
                        SheetChange(doc, path, change["before"], bool(change.get("pool"))).apply()
            sheet = load(system, doc)
            health = system.health(sheet)
            out[key] = {"state": system.state(sheet), "conditions": list(system.conditions(sheet)),
                        "hit_points": None if health is None else {
                            "unit": health.unit, "current": health.after, "max": health.max}}
        except Exception:  # a sheet edited by hand since: nothing rather than a guess
            out[key] = None
    return out


# ------------------------------------------------------------------ the journal's encounter entries


def is_encounter(entry: dict[str, Any]) -> bool:
    result = entry.get("result")
    return isinstance(result, dict) and result.get("type") == "encounter"


def touches(entry: dict[str, Any]) -> bool:
    """Whether an entry may show a combatant's values: an encounter, or a change of a sheet."""
    return is_encounter(entry) or any(
        isinstance(c, dict) and c.get("character") != ENCOUNTER for c in entry.get("changes") or [])


def entries_for(caller: Caller, tx: Any, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries (already those the member may see), each as it may see it."""
    if caller.is_mj or not any(touches(e) for e in entries):
        return entries
    info = known(caller, tx)
    return [shown_entry(info, e) for e in entries]


def shown_entry(info: Known, entry: dict[str, Any]) -> dict[str, Any]:
    if is_encounter(entry):
        return entry_for(info, entry)
    if info.hidden_from and touches(entry):
        return masked(info, entry)
    return entry


def masked(info: Known, entry: dict[str, Any]) -> dict[str, Any]:
    """A visible entry that changed a combatant already changed by an unseen entry: the values
    it shows of that combatant (before and after) are masked — they carry the unseen change."""
    seq = int(entry["seq"])
    names = {str(c.get("character")) for c in entry.get("changes") or [] if isinstance(c, dict)}
    hidden = {n for n in names if normalize(n) in info.hidden_from
              and info.hidden_from[normalize(n)] < seq}
    if not hidden:
        return entry
    changes = [{**c, "before": None, "after": None, "masque": True}
               if isinstance(c, dict) and str(c.get("character")) in hidden else c
               for c in entry.get("changes") or []]
    return {**entry, "changes": changes, "result": _masked_json(entry.get("result"), hidden),
            "text": _masked_text(str(entry.get("text", "")), hidden),
            "forum": _masked_text(str(entry.get("forum", "")), hidden)}


MASK = "{name} : santé masquée (changée par une action que vous ne voyez pas)"


def _masked_text(text: str, hidden: set[str]) -> str:
    out = []
    state_of: str | None = None
    for line in text.split("\n"):
        bare = line.strip()
        name = next((n for n in hidden if n in line and "→" in line), None)
        if name is not None:
            out.append(line[: len(line) - len(line.lstrip())] + MASK.format(name=name))
            state_of = name
        elif state_of is not None and bare.startswith("état :"):
            continue  # the state after the masked blow
        else:
            out.append(line)
            state_of = None
    return "\n".join(out)


def _masked_json(value: Any, hidden: set[str]) -> Any:
    if isinstance(value, list):
        return [_masked_json(v, hidden) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _masked_json(v, hidden) for k, v in value.items()}
    target = out.get("defender") or out.get("name") or out.get("character")
    if target in hidden and "health" in out:
        out.update({"health": None, "state": None, "state_before": None})
    title = out.get("title")
    if isinstance(title, str) and "→" in title:
        out["title"] = _masked_text(title, hidden)
    return out


def entry_for(info: Known, entry: dict[str, Any]) -> dict[str, Any]:
    """An encounter entry with its lines filtered, its text and forum lines rendered again."""
    from jdr.core.results import CombatantView, EncounterView, Health, Line
    from jdr.render.forum import to_forum
    from jdr.render.text import to_text

    view = info.encounter(entry["result"], int(entry["seq"]))
    rows = []
    for r in view["order"]:
        hp = r.get("hit_points")
        health = None if not hp else Health(hp["unit"], hp["current"], hp["current"], hp["max"])
        rows.append(CombatantView(str(r["name"]), int(r["score"]), str(r["state"]), health,
                                  tuple(r.get("conditions") or ()), bool(r.get("acted"))))
    notes = tuple(Line(str(n.get("text", "")), str(n.get("rule") or "")) for n in view.get("notes") or []
                  if isinstance(n, dict))
    table = EncounterView(int(view["round"]), view.get("current"), tuple(rows),
                          bool(view.get("ended")), notes)
    return {**entry, "result": view, "text": _events(entry.get("text", "")) + to_text(table),
            "forum": _events(entry.get("forum", "")) + to_forum(table)}


def caller_key(caller: Caller) -> tuple[str, str]:
    """What decides what a member sees of a fight: its role and its name."""
    return caller.role, normalize(caller.name)


def any_touches(entries: list[Any]) -> bool:
    """Whether some of these journal entries (`Entry`) may need `live_texts` (no database read)."""
    return any((isinstance(e.result, dict) and e.result.get("type") == "encounter")
               or any(isinstance(c, dict) and c.get("character") != ENCOUNTER for c in e.changes)
               for e in entries)


def live_texts(campaign: Any, callers: list[Caller], entries: list[Any]
               ) -> dict[tuple[str, str, int], str]:
    """For the live channel: each entry that a (non-MJ) member sees otherwise than as written
    (`shown_entry`), as the JSON text to send, by (role, name, seq)."""
    import json

    plain = [e.to_json() for e in entries]
    fights = [e for e in plain if touches(e)]
    others = {caller_key(c): c for c in callers if not c.is_mj}
    out: dict[tuple[str, str, int], str] = {}
    if not fights or not others:
        return out
    with campaign.reading() as tx:
        for key, caller in others.items():
            info = known(caller, tx)
            for entry in fights:
                shown = shown_entry(info, entry)
                if shown is not entry:
                    out[(*key, int(entry["seq"]))] = json.dumps(shown, ensure_ascii=False)
    return out


def _events(text: str) -> str:
    """The lines before the encounter's own table (what the rules did on this step)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if "Rencontre — round" in line:
            return "".join(x + "\n" for x in lines[:i])
    return ""


# ------------------------------------------------------------------ the API


def encounter_view(caller: Caller) -> dict[str, Any] | None:
    """The encounter as this member may see it (None: no encounter)."""
    from jdr.campaign.encounter import view
    from jdr.render.json import to_json

    with caller.campaign.reading() as tx:
        if tx.encounter() is None:
            return None
        return known(caller, tx).encounter(to_json(view(tx)))


class HealthSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pnj: Annotated[Mode | None, Field(description="Les PNJ (personnages confiés à aucun joueur).")] \
        = None
    pj: Annotated[Mode | None, Field(description="Les personnages des autres joueurs.")] = None


@router.get("/combat", summary="La rencontre en cours, telle que l'appelant peut la voir")
async def get_encounter(caller: CallerDep) -> dict[str, Any]:
    return {"rencontre": await run_in_threadpool(encounter_view, caller)}


@router.get("/reglages", summary="Les réglages de la table (santé des autres combattants)")
async def get_settings(caller: CallerDep) -> dict[str, Any]:
    return {"sante": await run_in_threadpool(table_settings, caller)}


@router.put("/reglages", summary="(MJ) Comment les joueurs et spectateurs voient la santé des autres")
async def put_settings(body: HealthSettings, caller: CallerDep, server: ServerDep
                       ) -> dict[str, Any]:
    chosen = await run_in_threadpool(set_settings, caller, body.pnj, body.pj)
    server.hubs.wake(caller.campaign.id)
    return {"sante": chosen}


# ------------------------------------------------------------------ the MJ's form (page)

pages = APIRouter(include_in_schema=False)


@pages.post("/tables/{id}/reglages")
async def page_settings(id: TableId, request: Request) -> Response:
    from jdr.web.pagekit import caller_from_cookie, form_of, one

    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    await run_in_threadpool(set_settings, caller, one(form, "pnj") or None, one(form, "pj") or None)
    return RedirectResponse(f"/tables/{id}/membres?reglages=1", status_code=303)
