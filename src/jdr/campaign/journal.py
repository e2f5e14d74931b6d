"""The journal: every action appended with its dice, result and sheet changes; undo of the last one.

`commit(tx, pending, record)` writes the changed sheets and appends the entry in the same
transaction. `undo(tx, author)` puts back the values the last action changed, and refuses (in
French) when one of them has changed since — a later action, or an edit by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jdr.campaign.store import Entry, Tx
from jdr.core.french import action_label, humanize
from jdr.core.results import Line, Notes
from jdr.core.sheet import SheetDocument, to_plain
from jdr.core.system import SheetChange
from jdr.core.usecase import Pending, Record
from jdr.errors import RuleError

ENCOUNTER = "@rencontre"


def commit(tx: Tx, pending: Pending, rec: Record) -> Entry:
    """Write the sheets and the journal entry together (one transaction)."""
    tx.save(pending.docs)
    pending.committed = True
    return tx.append(rec.actor, rec.action, rec.params, rec.dice, rec.result, rec.text, rec.forum,
                     rec.changes, rec.visibility, rec.author)


def _delete(doc: SheetDocument, path: tuple[str, ...], created: int = 0) -> None:
    """Remove the value an action added, and the `created` tables it made on the way (the sheet
    is then exactly as before: no empty `echecs: {}` left behind)."""
    doc.changed_shape()
    node: Any = doc.data
    chain: list[tuple[Any, Any]] = []
    for name in path[:-1]:
        key = doc._key(node, name)
        chain.append((node, key))
        node = node.get(key)
        if not isinstance(node, Mapping):
            return
    key = doc._key(node, path[-1])
    if key in node:
        del node[key]
    for parent, key in reversed(chain[len(chain) - created:] if created else []):
        if isinstance(parent.get(key), Mapping) and not parent[key]:
            del parent[key]


def _label(change: Mapping[str, Any]) -> str:
    """« Gobelin 1 PV », « Nain A état assommé » : what a change touched, in words."""
    from jdr.core.french import humanize

    return f"{change['character']} {' '.join(humanize(str(p)) for p in change['path'])}"


def _value_text(value: Any, top: Any) -> str:
    from jdr.core.french import pool_text

    if isinstance(value, Mapping):
        value = value.get("actuels", value.get("max"))
    if top is not None and isinstance(value, int) and not isinstance(value, bool):
        return f"{value}/{top}"
    return pool_text(value)


def change_text(change: Mapping[str, Any], system: Any = None) -> str:
    """A change as a person reads it: « Gobelin 1 PV 8/12 → 12/12 », « Nain A : dégâts
    d'assommement 13 → 0 » (a key the sheet form labels), never a Python dict nor a key."""
    before, after = change.get("before"), change.get("after")
    top = next((v.get("max") for v in (before, after) if isinstance(v, Mapping)), None)
    what = path_label(system, [str(p) for p in change["path"]])
    return f"{change['character']} : {what} {_value_text(before, top)} → {_value_text(after, top)}"


def path_label(system: Any, path: list[str]) -> str:
    """A sheet path in words: the label the system's sheet form gives a nested key (`etat`,
    `assomme` → « dégâts d'assommement »), else its keys as words (« PV », « compétences lame »)."""
    words = " ".join(humanize(p) for p in path)
    if system is None or len(path) < 2:
        return words
    from jdr.core.sheetform import form_data

    try:
        labels = form_data(system).labels
    except RuleError:
        return words
    label = labels.get(".".join(path)) or labels.get(path[-1])
    return label[:1].lower() + label[1:] if label else words


def _check_unchanged(tx: Tx, row: Any, ch: Mapping[str, Any], current: Any) -> None:
    if current != ch["after"]:
        if ch["character"] == ENCOUNTER:
            raise RuleError(f"impossible d'annuler l'action n° {row.seq} ({action_label(row.action)}) : "
                            "la rencontre a changé depuis")
        later = _later_change(tx, row.seq, ch)
        since = f" par l'action n° {later}" if later else " (modifié à la main)"
        raise RuleError(f"impossible d'annuler l'action n° {row.seq} ({action_label(row.action)}) : "
                        f"{_label(ch)} vaut {current!r} au lieu de {ch['after']!r}, changé "
                        f"depuis{since}")


def _put_back(tx: Tx, row: Any) -> tuple[dict[str, SheetDocument], list[dict[str, Any]]]:
    """Check every value the action changed is still as it left it, and put the old ones back."""
    docs: dict[str, SheetDocument] = {}
    inverse: list[dict[str, Any]] = []
    for ch in reversed(row.changes):
        inverse.append({**ch, "before": ch["after"], "after": ch["before"]})
        if ch["character"] == ENCOUNTER:
            encounter = tx.encounter()
            _check_unchanged(tx, row, ch, encounter.state if encounter is not None else None)
            tx.set_encounter(ch["before"])
            continue
        doc = docs.get(ch["character"]) or tx.document(ch["character"])
        docs[ch["character"]] = doc
        path = tuple(ch["path"])
        _check_unchanged(tx, row, ch, to_plain(SheetChange(doc, path, None, ch["pool"]).current()))
        if ch["before"] is None:
            _delete(doc, path, int(ch.get("created", 0)))
        else:
            SheetChange(doc, path, ch["before"], ch["pool"]).apply()
    return docs, inverse


def undo(tx: Tx, author: str = "MJ") -> Entry:
    """Undo the last action not yet undone; refuse if a value it changed has moved since."""
    from jdr.render.forum import to_forum
    from jdr.render.json import to_json
    from jdr.render.text import to_text

    row = tx.last_undoable()
    if row is None:
        raise RuleError("rien à annuler : le journal n'a aucune action annulable")
    from jdr.campaign.choices import guard

    guard(tx, [c["character"] for c in row.changes if c["character"] != ENCOUNTER])
    docs, inverse = _put_back(tx, row)
    system = tx.campaign.system
    for doc in docs.values():
        system.load(doc)
    tx.save(list(docs.values()))
    lines = tuple(Line("rencontre remise comme avant" if c["character"] == ENCOUNTER
                       else change_text(c, system)) for c in inverse)
    result = Notes(f"Annulation de l'action n° {row.seq} ({action_label(row.action)}, "
                   f"{row.actor})", lines)
    entry = tx.append(author, "annuler", {"seq": row.seq}, [], to_json(result), to_text(result),
                      to_forum(result), inverse, row.visibility, author, undoes=row.seq)
    row.undone_by = entry.seq
    return entry


def _later_change(tx: Tx, seq: int, change: Mapping[str, Any]) -> int | None:
    for entry in tx.entries(since=seq):
        for other in entry.changes:
            if other["character"] == change["character"] and other["path"] == change["path"]:
                return entry.seq
    return None
