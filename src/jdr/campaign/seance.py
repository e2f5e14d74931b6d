"""Séances (issue 21): commit to a secret seed when a séance opens, derive every die of the
séance from it, reveal it when the séance closes, so that anyone can check the journal.

The seed is kept in `jdr_seances` and never leaves the database before it is revealed: no route,
page, live message or error carries it (tests look for it). Opening a séance also does what the
rules reset per session (`new_session`, e.g. cyd's prédilections), as `jdr session nouvelle` did.

`dice_for(tx, requested, reason)` is what every rolling action of a campaign asks for its dice:
while a séance is open, the dice of the next journal entry are derived from the seed (or, when
the faces were given by hand or by a seed of the MJ's, the entry is marked not verifiable, with
the reason); the entry's verification record is written by `Tx.append`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from jdr.campaign.rows import JournalRow, SeanceRow
from jdr.errors import RuleError

if TYPE_CHECKING:
    from jdr.campaign.store import Entry, Tx
    from jdr.dice.source import DiceSource

MAX_CONTRIBUTIONS = 200
CONTRIBUTION = re.compile(r"^[0-9a-f]{16,128}$")


def current(tx: Tx) -> SeanceRow | None:
    if tx.absent("seance"):
        return None
    return tx.session.first(SeanceRow, 'campaign_id = :c AND "open" = :yes',
                            {"c": tx.campaign.id, "yes": True})


def status(tx: Tx) -> dict[str, Any]:
    """What anyone may know of the séances: numbers, commitments, seeds once revealed."""
    rows = tx.session.rows(SeanceRow, "campaign_id = :c", {"c": tx.campaign.id}, "ORDER BY number")
    seances = [{"seance": r.number, "engagement": r.commitment, "ouverte": r.open,
                "graine": None if r.open else r.seed, "contributions": r.contributions}
               for r in rows]
    return {"type": "seances", "current": next((s for s in seances if s["ouverte"]), None),
            "seances": seances}


def _notes(title: str, *lines: str) -> Any:
    from jdr.core.results import Line, Notes

    return Notes(title, tuple(Line(text) for text in lines))


def _append(tx: Tx, author: str, action: str, params: dict[str, Any], result: Any) -> Entry:
    from jdr.render.forum import to_forum
    from jdr.render.json import to_json
    from jdr.render.text import to_text

    return tx.append(author, action, params, [], to_json(result), to_text(result), to_forum(result),
                     [], "public", author)


def open_seance(tx: Tx, author: str = "MJ") -> list[Entry]:
    """Open the next séance: a new secret seed, its commitment journaled; then the rules'
    new session for every character of the campaign."""
    from jdr.campaign.store import now
    from jdr.dice.verifiable import OPEN, commitment, new_seed

    if current(tx) is not None:
        from jdr.core.messages import Ref, say

        raise RuleError(say("une séance est déjà ouverte : fermez-la d'abord (",
                            Ref("jdr seance fermer", "« Fermer la séance »"), ")"))
    last = tx.session.scalar("SELECT max(number) FROM jdr_seances WHERE campaign_id = :c",
                             {"c": tx.campaign.id})
    number = int(last or 0) + 1
    seed = new_seed()
    commit = commitment(seed)
    tx.session.add(SeanceRow(campaign_id=tx.campaign.id, number=number, seed=seed.hex(),
                             commitment=commit, opened_at=now(), open=True, contributions=0))
    result = _notes(f"Séance {number} ouverte",
                    f"engagement (SHA-256 de la graine secrète) : {commit}",
                    "la graine sera révélée à la fermeture : chacun pourra vérifier chaque dé")
    entries = [_append(tx, author, OPEN, {"seance": number, "engagement": commit}, result)]
    session = _new_session(tx, author)
    if session is not None:
        entries.append(session)
    return entries


def _new_session(tx: Tx, author: str) -> Entry | None:
    """What the rules reset per session, for every character (as `jdr session nouvelle` does)."""
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.actions import commit, execute

    names = [c.name for c in tx.characters()]
    system = tx.campaign.system
    if not names or "session" not in system.actions:
        return None
    ws = CampaignWorkspace(tx)
    done = execute(ws, "session", {"personnages": names}, None, actor="MJ", author=author)
    seq = commit(ws, done)
    if seq is None:
        return None
    (entry,) = tx.entries(since=seq - 1, limit=1)
    return entry


def close_seance(tx: Tx, author: str = "MJ") -> Entry:
    """Close the open séance and reveal its seed in the journal."""
    from jdr.dice.verifiable import REVEAL

    row = current(tx)
    if row is None:
        from jdr.core.messages import Ref, say

        raise RuleError(say("aucune séance ouverte (", Ref("jdr seance ouvrir",
                                                            "« Ouvrir une séance »"), ")"))
    from jdr.campaign.choices import settle_all

    settle_all(tx)  # a roll waiting for a choice takes its defaults before the seed is shown
    row.open = False
    result = _notes(f"Séance {row.number} fermée : graine révélée",
                    f"graine : {row.seed}",
                    f"engagement publié à l'ouverture : {row.commitment}",
                    "vérifier : jdr verifier JOURNAL.json, ou la page « Vérifier »")
    return _append(tx, author, REVEAL, {"seance": row.number, "graine": row.seed}, result)


def contribute(tx: Tx, value: str, author: str) -> Entry:
    """A member's random contribution to the open séance (public, journaled as it arrives)."""
    from jdr.dice.verifiable import CONTRIBUTION as ACTION

    text = value.strip().lower()
    if not CONTRIBUTION.match(text):
        raise RuleError("contribution : de 16 à 128 chiffres hexadécimaux (0-9, a-f)")
    row = current(tx)
    if row is None:
        raise RuleError("aucune séance ouverte : rien à quoi contribuer")
    if row.contributions >= MAX_CONTRIBUTIONS:
        raise RuleError(f"séance {row.number} : {MAX_CONTRIBUTIONS} contributions au plus")
    row.contributions += 1
    result = _notes(f"Contribution de {author} aux dés de la séance {row.number}", text)
    return _append(tx, author, ACTION, {"seance": row.number, "contribution": text}, result)


def _contributions(tx: Tx, number: int, before: int | None = None) -> list[str]:
    """The séance's contributions journaled (before entry `before`), in order."""
    from jdr.dice.verifiable import CONTRIBUTION as ACTION

    where, params = "campaign_id = :c AND action = :action", {"c": tx.campaign.id, "action": ACTION}
    if before is not None:
        where, params = where + " AND seq < :before", {**params, "before": before}
    rows = tx.session.rows(JournalRow, where, params, "ORDER BY seq")
    return [str(r.params.get("contribution")) for r in rows if r.params.get("seance") == number]


def draw_key(tx: Tx, draw: dict[str, Any]) -> bytes:
    """The key of the dice drawn for entry `tirage` of séance `seance` (a roll that waited for a
    choice: its dice were drawn for its notice, `jdr.campaign.choices`)."""
    from jdr.dice.verifiable import entry_key

    number, seq = int(draw["seance"]), int(draw["tirage"])
    row = tx.session.first(SeanceRow, "campaign_id = :c AND number = :n",
                           {"c": tx.campaign.id, "n": number})
    if row is None:
        raise RuleError(f"séance {number} introuvable : ses dés ne se dérivent plus")
    return entry_key(bytes.fromhex(row.seed), str(number), seq, _contributions(tx, number, seq))


def draw_source(tx: Tx, draw: dict[str, Any]) -> DiceSource:
    from jdr.dice.verifiable import EntrySource

    return EntrySource(draw_key(tx, draw))


def redraw(tx: Tx, source: Any, before: dict[str, Any]) -> None:
    """Entries were journaled since the dice of the next one were drawn (`before`): they are
    drawn again for its new number (nothing was rolled from them yet)."""
    if not hasattr(tx, "row"):
        tx.lock()
    if not before["verifiable"] or source is None:
        tx.pending_verif = {**before, "seq": tx.row.journal_seq + 1}
        return
    use_seance(tx, source, None)


def dice_for(tx: Tx, requested: DiceSource, reason: str | None) -> DiceSource:
    """The dice of the next journal entry: derived from the open séance's seed, or `requested`
    (marked not verifiable with `reason`, e.g. « dés à la main »). Outside a séance: `requested`."""
    from jdr.dice.verifiable import EntrySource, entry_key

    row = current(tx)
    if row is None:
        return requested
    if not hasattr(tx, "row"):
        tx.lock()
    seq = tx.row.journal_seq + 1
    if reason is not None:
        tx.pending_verif = {"seance": row.number, "seq": seq, "verifiable": False, "raison": reason}
        return requested
    key = entry_key(bytes.fromhex(row.seed), str(row.number), seq, _contributions(tx, row.number))
    tx.pending_verif = {"seance": row.number, "seq": seq, "verifiable": True, "key": key}
    return EntrySource(key)


def use_seance(tx: Tx, source: Any, reason: str | None) -> Any:
    """`dice_for` for a source already wrapped in a `Recording` (its inner source is swapped)
    or a plain source (the derived one is returned)."""
    from jdr.core.usecase import Recording

    if isinstance(source, Recording):
        source.inner = dice_for(tx, source.inner, reason)
        return source
    return dice_for(tx, source, reason)


def reason_of(seed: object, faces: object) -> str | None:
    """Why dice given by a person are not verifiable (None: they come from the séance)."""
    if faces is not None:
        return "dés lancés à la main"
    if seed is not None:
        return "graine choisie par le MJ"
    return None


def verification(pending: dict[str, Any] | None, seq: int, action: str, params: Any,
                 dice: Any) -> dict[str, Any] | None:
    """The `verif` record of an entry being appended (what the verifier reads)."""
    from jdr.dice.verifiable import entry_tag

    if pending is None or not dice:
        return None
    if pending["seq"] != seq:
        raise RuleError("dés de séance tirés pour une autre entrée du journal ; rien n'est écrit")
    if not pending["verifiable"]:
        return {"seance": pending["seance"], "verifiable": False, "raison": pending["raison"]}
    drawn = {"tirage": pending["tirage"]} if pending.get("tirage") is not None else {}
    return {"seance": pending["seance"], "verifiable": True,
            "tag": entry_tag(pending["key"], action, params, dice), **drawn}
