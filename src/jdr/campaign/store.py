"""A campaign: characters (YAML kept losslessly), the encounter and the journal, in one database.

Every write goes through `Campaign.transaction()`: one database transaction in which the campaign
is locked for writing (SQLite `BEGIN IMMEDIATE`; PostgreSQL `SELECT … FOR UPDATE` on the campaign
row), so two processes acting on one campaign are serialised and never lose an update. Killing a
process mid-action rolls the transaction back: the campaign is before or after, never between.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jdr.campaign.db import (
    CampaignError,
    check_schema,
    database_for,
    migrate,
    split_target,
    translated_errors,
)
from jdr.campaign.rows import CampaignRow, CharacterRow, EncounterRow, JournalRow
from jdr.campaign.sql import Database, Session, in_list
from jdr.core.frozen import frozen
from jdr.core.heap import older_objects_frozen
from jdr.core.sheet import SheetDocument
from jdr.core.system import GameSystem, Loaded
from jdr.errors import JdrError, RuleError
from jdr.names import normalize, unknown_name_message

MAX_NAME = 200
NOTIFY_CHANNEL = "jdr_journal"
# entries that change nothing an undo could put back: undo itself, what people say, a reveal,
# a roll request, the notice of a roll waiting for a choice (a roll « pour moi seul » or a
# whisper is skipped too: the MJ does not see them)
NOT_UNDONE = ("annuler", "message", "reveler", "demande", "attente")


def now() -> datetime:
    return datetime.now(UTC)


@frozen
class CharacterInfo:
    name: str
    kind: str
    group: str | None
    player: str | None
    version: int


@frozen
class Entry:
    """One journal entry, as read back."""

    seq: int
    at: datetime
    actor: str
    action: str
    params: dict[str, Any]
    dice: list[Any]
    result: dict[str, Any]
    text: str
    forum: str
    changes: list[Any]
    visibility: str
    author: str | None
    undone_by: int | None
    undoes: int | None
    verif: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "at": self.at.isoformat(), "actor": self.actor,
            "action": self.action, "params": self.params, "dice": self.dice,
            "result": self.result, "text": self.text, "forum": self.forum,
            "changes": self.changes, "visibility": self.visibility, "author": self.author,
            "undone_by": self.undone_by, "undoes": self.undoes, "verif": self.verif,
        }


def _entry(row: JournalRow) -> Entry:
    """An entry from its row."""
    return Entry(row.seq, row.at, row.actor, row.action, row.params, row.dice, row.result,
                 row.text, row.forum, row.changes, row.visibility, row.author, row.undone_by,
                 row.undoes, row.verif)


class Campaign:
    """Handle on one campaign of a database."""

    def __init__(self, db: Database, campaign_id: int, name: str, system_id: str, target: str) -> None:
        self.db = db
        self.id = campaign_id
        self.name = name
        self.system_id = system_id
        self.target = target

    # -- creation and opening --------------------------------------------------

    @classmethod
    def create(cls, target: str, name: str, system_id: str) -> Campaign:
        from jdr.core.registry import get_system

        system = get_system(system_id)
        clean_name = _check_name(name, "nom de campagne")
        url, _ = split_target(target)
        with translated_errors():
            db = database_for(url, must_exist=False)
            migrate(db)
            return cls.create_in(db, target, clean_name, system.id)

    @classmethod
    def create_in(cls, db: Database, target: str, name: str, system_id: str) -> Campaign:
        """A new campaign in a database already at the current schema (`jdr serve`'s own
        connections: no second pool, no migration per table)."""
        clean_name = _check_name(name, "nom de campagne")
        with translated_errors(), db.begin() as conn:
            session = Session(conn)
            if session.first(CampaignRow, "name = :name", {"name": clean_name}):
                raise CampaignError(f"la campagne « {clean_name} » existe déjà dans cette base")
            row = CampaignRow(name=clean_name, system=system_id, created_at=now(), journal_seq=0)
            session.add(row)
            campaign_id = row.id
        return cls(db, campaign_id, clean_name, system_id, target)

    @classmethod
    def open(cls, target: str) -> Campaign:
        url, wanted = split_target(target)
        with translated_errors():
            db = database_for(url, must_exist=True)
            check_schema(db)
            with db.begin(write=False) as conn:
                rows = [(int(r[0]), str(r[1]), str(r[2])) for r in
                        conn.all("SELECT id, name, system FROM jdr_campaigns ORDER BY id")]
        if wanted is not None:
            rows = [r for r in rows if normalize(r[1]) == normalize(wanted)]
            if not rows:
                raise CampaignError(f"campagne « {wanted} » introuvable dans cette base")
        if not rows:
            raise CampaignError("cette base ne contient aucune campagne")
        if len(rows) > 1:
            names = ", ".join(r[1] for r in rows)
            raise CampaignError(f"cette base contient plusieurs campagnes ({names}) : "
                                "ajoutez #NOM à l'adresse")
        campaign_id, name, system_id = rows[0]
        return cls(db, campaign_id, name, system_id, target)

    @property
    def system(self) -> GameSystem[Any]:
        from jdr.core.registry import get_system

        return get_system(self.system_id)

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One locked write transaction: committed at the end, rolled back on any error. The
        objects the process held before it are not scanned by the garbage collector meanwhile
        (`jdr.core.heap`: an action on 1,000 combatants is no dearer per combatant than on 50)."""
        with older_objects_frozen(), translated_errors(), self.db.begin(key=self.id) as conn:
            tx = Tx(self, Session(conn))
            tx.lock()
            yield tx
            tx.session.flush()

    @contextmanager
    def reading(self) -> Iterator[Tx]:
        """A transaction for reading only (rolled back at the end); the collector as in
        `transaction`."""
        with older_objects_frozen(), translated_errors(), self.db.begin(write=False) as conn:
            yield Tx(self, Session(conn))

    def dispose(self) -> None:
        self.db.dispose()


def check_new(name: str, system_id: str) -> tuple[str, str]:
    """What `Campaign.create` will check of a new campaign, before anything is written."""
    return _check_name(name, "nom de campagne"), system_id


def _check_name(name: str, what: str) -> str:
    from jdr.render.safe import clean

    text = name.strip()
    if not text or len(text) > MAX_NAME or clean(text) != text:
        raise RuleError(f"{what} invalide : 1 à {MAX_NAME} caractères imprimables, sur une ligne")
    return text


# What `Tx.lock` looks for besides the campaign's row (`:id` is the campaign, `:yes` true).
_PROBES = {
    "attentes": ("jdr_attentes", "campaign_id = :id"),
    "seance": ("jdr_seances", 'campaign_id = :id AND "open" = :yes'),
    "rencontre": ("jdr_encounters", "campaign_id = :id AND active = :yes"),
}
_PROBED = tuple(table for table, _ in _PROBES.values())  # what they hold while none is written


class Tx:
    """What one transaction can do on a campaign."""

    def __init__(self, campaign: Campaign, session: Session) -> None:
        self.campaign = campaign
        self.session = session
        self._rows: dict[int, CharacterRow] = {}  # id(doc) -> row
        self._loaded: dict[str, Loaded[Any]] = {}  # key -> the sheet as this transaction has it
        self.pending_verif: dict[str, Any] | None = None  # the next entry's séance dice
        self.memo: dict[str, Any] = {}  # what a query answered, kept for this transaction
        self.appended: dict[int, Entry] = {}  # seq -> the entry this transaction wrote

    def lock(self) -> None:
        """Lock the campaign's row, and learn in the same query which of the waiting rolls, the
        open séance and the active encounter it has none of: nearly every action asks for the
        three, and most tables have none (`absent`)."""
        session = self.session
        probes = ", ".join(f"EXISTS (SELECT 1 FROM {table} WHERE {where})"
                           for table, where in _PROBES.values())
        found = session.all(f"SELECT {CampaignRow.column_list()}, {probes} FROM "
                            f"{CampaignRow.TABLE} WHERE id = :id{session.conn.for_update}",
                            {"id": self.campaign.id, "yes": True})
        if not found:
            raise CampaignError("campagne supprimée entre-temps")
        raw = found[0]
        width = len(CampaignRow.COLUMNS)
        self.row = session.row_of(CampaignRow, raw[:width])
        self.keep("absent", frozenset(name for name, there in zip(_PROBES, raw[width:], strict=True)
                                      if not there), _PROBED)

    def absent(self, name: str) -> bool:
        """Whether the lock found no `name` (« attentes », « seance », « rencontre ») and
        nothing was written since: the query that would look for one can be skipped."""
        none = self.recall("absent")
        return none is not None and name in none

    def keep(self, key: str, value: Any, tables: tuple[str, ...] | None = None) -> None:
        """Remember what a query of `tables` (None: of any table) answered, for `recall` in
        this transaction."""
        self.memo[key] = (tables, self.session.version(tables), value)

    def recall(self, key: str) -> Any:
        """What `keep(key, …)` remembered, while nothing was written since to the tables it
        was read from; None otherwise."""
        known = self.memo.get(key)
        if known is None:
            return None
        tables, version, value = known
        return value if self.session.version(tables) == version else None

    # -- characters ---------------------------------------------------------------

    def _character(self, name: str) -> CharacterRow:
        row = self._by_key(normalize(name))
        if row is None:
            known = self.session.scalars("SELECT key FROM jdr_characters WHERE campaign_id = :c",
                                         {"c": self.campaign.id})
            raise RuleError(unknown_name_message("personnage", name, list(known)))
        return row

    def _by_key(self, key: str) -> CharacterRow | None:
        return self.session.first(CharacterRow, "campaign_id = :c AND key = :k",
                                  {"c": self.campaign.id, "k": key})

    def characters(self) -> list[CharacterInfo]:
        rows = self.session.all("SELECT name, kind, group_name, player, version FROM jdr_characters "
                                "WHERE campaign_id = :c ORDER BY id", {"c": self.campaign.id})
        return [CharacterInfo(*r) for r in rows]

    def document(self, name: str) -> SheetDocument:
        known = self._loaded.get(normalize(name))
        if known is not None:
            return known.doc
        return self._document(self._character(name))

    def _document(self, row: CharacterRow) -> SheetDocument:
        from jdr.campaign.sheets import LazyDocument

        doc = LazyDocument(row.yaml, Path(row.name))
        self._rows[id(doc)] = row
        return doc

    def load(self, names: Sequence[str]) -> tuple[GameSystem[Any], list[Loaded[Any]]]:
        """Characters by name, as `Loaded` handles. Within a transaction each sheet is read and
        parsed at most once (a second `load` hands back the same handle; a saved sheet is
        validated again from its document in memory); across transactions its validated model
        is kept by exact text (`jdr.campaign.sheets.MODELS`), and its YAML is only parsed when
        the action reads or changes the document itself. The rows are fetched in one query."""
        system = self.campaign.system
        keys = [normalize(n) for n in names]
        missing = [k for k in dict.fromkeys(keys) if k not in self._loaded]
        if missing:
            rows = self._rows_by_key(missing)
            for key, name in zip(keys, names, strict=True):
                if key in self._loaded:
                    continue
                row = rows.get(key)
                if row is None:
                    self._character(name)  # raises the French "unknown" message
                    continue
                self._loaded[key] = self._load_row(system, row)
        return system, [self._loaded[k] for k in keys]

    def _rows_by_key(self, keys: Sequence[str]) -> dict[str, CharacterRow]:
        rows: dict[str, CharacterRow] = {}
        for start in range(0, len(keys), 500):
            listed, params = in_list("k", keys[start:start + 500])
            for row in self.session.rows(CharacterRow, f"campaign_id = :c AND key IN {listed}",
                                         {"c": self.campaign.id, **params}):
                rows[row.key] = row
        return rows

    def _load_row(self, system: GameSystem[Any], row: CharacterRow) -> Loaded[Any]:
        from jdr.campaign.sheets import MODELS

        doc = self._document(row)
        cached = MODELS.get(system.id, row.yaml)
        if cached is not None:
            return Loaded(doc, cached[0], cached[1])
        model = system.load(doc)
        name = system.name_of(model)
        MODELS.put(system.id, row.yaml, model, name)
        return Loaded(doc, model, name)

    def row_of(self, doc: SheetDocument) -> CharacterRow:
        row: CharacterRow = self._rows[id(doc)]
        return row

    def add(self, doc: SheetDocument, kind: str = "pj", group: str | None = None,
            player: str | None = None, replace: bool = False) -> str:
        """Import a validated sheet; its `nom` is its name in the campaign."""
        from jdr.core.usecase import load

        system = self.campaign.system
        if doc.system_id != system.id:
            raise RuleError(f"{doc.path} : fiche {doc.system_id}, la campagne est en {system.id}")
        loaded = load(system, doc)
        name = _check_name(loaded.name, "nom de personnage")
        key = normalize(name)
        existing = self._by_key(key)
        text = doc.dump()
        if existing is not None:
            if not replace:
                raise RuleError(f"« {name} » existe déjà dans la campagne "
                                "(--remplacer pour le mettre à jour)")
            existing.yaml, existing.version = text, existing.version + 1
            self._loaded.pop(key, None)
            existing.updated_at = now()
            return name
        self.session.add(CharacterRow(
            campaign_id=self.campaign.id, name=name, key=key, kind=kind, group_name=group,
            player=player, yaml=text, version=1, updated_at=now()))
        return name

    def add_group(self, template: SheetDocument, count: int, base: str) -> list[str]:
        """NPC group from one template: « 3 gobelins » → Gobelin 1..3, each with its own sheet."""
        if not 1 <= count <= 100:
            raise RuleError("groupe de PNJ : de 1 à 100 membres")
        names = []
        for i in range(1, count + 1):
            doc = SheetDocument.from_text(template.dump(), template.path)
            doc.set(("nom",), f"{base} {i}")
            names.append(self.add(doc, kind="pnj", group=base))
        return names

    def export(self, name: str) -> str:
        return self._character(name).yaml

    def save(self, docs: Sequence[SheetDocument]) -> None:
        """Write changed sheets (already validated by the use case) back to their rows."""
        for doc in docs:
            row = self._rows.get(id(doc))
            if row is None:
                raise JdrError(f"{doc.path} : fiche hors de la campagne")
            text = doc.dump()
            if len(text.encode("utf-8")) > 1_000_000:
                raise RuleError(f"{row.name} : la fiche dépasserait 1 Mo ; rien n'est écrit")
            row.yaml, row.version, row.updated_at = text, row.version + 1, now()
            self._reloaded(row, doc)

    def _reloaded(self, row: CharacterRow, doc: SheetDocument) -> None:
        """A saved sheet: the next `load` of this transaction sees the new model, validated from
        the document in memory (not parsed again); the new text's model is kept for later."""
        from jdr.campaign.sheets import MODELS, keep_tree

        system = self.campaign.system
        model = system.load(doc)
        name = system.name_of(model)
        MODELS.put(system.id, row.yaml, model, name)
        keep_tree(row.yaml, doc.data)
        self._loaded[row.key] = Loaded(doc, model, name)

    # -- journal ------------------------------------------------------------------------

    def append(self, actor: str, action: str, params: dict[str, Any], dice: list[Any],
               result: dict[str, Any], text: str, forum: str, changes: list[Any],
               visibility: str = "public", author: str | None = None,
               undoes: int | None = None) -> Entry:
        if not hasattr(self, "row"):
            self.lock()
        self.row.journal_seq += 1
        from jdr.campaign.seance import verification

        verif = verification(self.pending_verif, self.row.journal_seq, action, params, dice)
        self.pending_verif = None
        row = JournalRow(
            campaign_id=self.campaign.id, seq=self.row.journal_seq, at=now(), actor=actor,
            action=action, params=params, dice=dice, result=result, text=text, forum=forum,
            changes=changes, visibility=visibility, author=author, undoes=undoes, verif=verif)
        # PostgreSQL: tell every process (every `jdr servir`) that the entry exists, in the same
        # statement. NOTIFY is transactional: delivered at the commit, never for a rolled-back
        # entry. The payload is only `<table>:<seq>`: listeners read the entry with their rights.
        if self.session.dialect == "postgresql":
            self.session.add(row, ", pg_notify(:channel, :payload)",
                             {"channel": NOTIFY_CHANNEL, "payload": f"{self.campaign.id}:{row.seq}"})
        else:
            self.session.add(row)
        entry = self.appended[row.seq] = _entry(row)
        return entry

    def entries(self, since: int = 0, limit: int = 1000) -> list[Entry]:
        rows = self.session.rows(JournalRow, "campaign_id = :c AND seq > :since",
                                 {"c": self.campaign.id, "since": since},
                                 f"ORDER BY seq LIMIT {int(limit)}")
        return [_entry(r) for r in rows]

    def entries_before(self, before: int | None, limit: int) -> list[Entry]:
        """The `limit` entries before seq `before` (or the last ones), newest first: read as
        one query (a page of the journal costs the same at any length)."""
        where, params = "campaign_id = :c", {"c": self.campaign.id}
        if before is not None:
            where, params = where + " AND seq < :before", {**params, "before": before}
        rows = self.session.rows(JournalRow, where, params, f"ORDER BY seq DESC LIMIT {int(limit)}")
        return [_entry(r) for r in rows]

    def entry_row(self, seq: int) -> JournalRow | None:
        return self.session.first(JournalRow, "campaign_id = :c AND seq = :seq",
                                  {"c": self.campaign.id, "seq": seq})

    def last_undoable(self) -> JournalRow | None:
        skipped, params = in_list("a", NOT_UNDONE)
        return self.session.first(
            JournalRow, "campaign_id = :c AND undone_by IS NULL AND undoes IS NULL AND action NOT "
            f"IN {skipped} AND visibility NOT IN ('moi', 'chuchote')",
            {"c": self.campaign.id, **params}, "ORDER BY seq DESC LIMIT 1")

    # -- encounter ----------------------------------------------------------------------

    def encounter(self) -> EncounterRow | None:
        if self.absent("rencontre"):
            return None
        return self.session.first(EncounterRow, "campaign_id = :c AND active = :yes",
                                  {"c": self.campaign.id, "yes": True})

    def set_encounter(self, state: dict[str, Any] | None) -> None:
        row = self.encounter()
        if state is None:
            if row is not None:
                row.active = False
            return
        if row is None:
            self.session.add(EncounterRow(campaign_id=self.campaign.id, active=True, state=state,
                                          version=1))
        else:
            row.state, row.version = state, row.version + 1
