"""The campaign's rows as run time reads and writes them (`jdr.campaign.sql.Record`): the same
tables and columns as `jdr.campaign.schema` (SQLAlchemy, for the migrations and the test that
compares them with the head revision), without importing SQLAlchemy."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from jdr.campaign.sql import Record


class CampaignRow(Record):
    TABLE = "jdr_campaigns"
    COLUMNS = ("id", "name", "system", "created_at", "journal_seq", "settings")
    JSON = frozenset({"settings"})
    MOMENTS = frozenset({"created_at"})
    id: int
    name: str
    system: str
    created_at: datetime
    journal_seq: int
    settings: dict[str, Any] | None


class CharacterRow(Record):
    TABLE = "jdr_characters"
    COLUMNS = ("id", "campaign_id", "name", "key", "kind", "group_name", "player", "yaml",
               "version", "updated_at")
    MOMENTS = frozenset({"updated_at"})
    id: int
    campaign_id: int
    name: str
    key: str
    kind: str
    group_name: str | None
    player: str | None
    yaml: str
    version: int
    updated_at: datetime


class EncounterRow(Record):
    TABLE = "jdr_encounters"
    COLUMNS = ("id", "campaign_id", "active", "state", "version")
    JSON = frozenset({"state"})
    BOOLEANS = frozenset({"active"})
    id: int
    campaign_id: int
    active: bool
    state: dict[str, Any]
    version: int


class JournalRow(Record):
    TABLE = "jdr_journal"
    COLUMNS = ("id", "campaign_id", "seq", "at", "actor", "action", "params", "dice", "result",
               "text", "forum", "changes", "visibility", "author", "undone_by", "undoes", "verif")
    JSON = frozenset({"params", "dice", "result", "changes", "verif"})
    MOMENTS = frozenset({"at"})
    id: int
    campaign_id: int
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
    verif: dict[str, Any] | None


class MemberRow(Record):
    TABLE = "jdr_members"
    COLUMNS = ("id", "campaign_id", "name", "role", "token_hash", "created_at", "revoked")
    MOMENTS = frozenset({"created_at"})
    BOOLEANS = frozenset({"revoked"})
    id: int
    campaign_id: int
    name: str
    role: str
    token_hash: str
    created_at: datetime
    revoked: bool


class SeanceRow(Record):
    TABLE = "jdr_seances"
    COLUMNS = ("id", "campaign_id", "number", "seed", "commitment", "opened_at", "open",
               "contributions")
    MOMENTS = frozenset({"opened_at"})
    BOOLEANS = frozenset({"open"})
    id: int
    campaign_id: int
    number: int
    seed: str
    commitment: str
    opened_at: datetime
    open: bool
    contributions: int


class PendingRow(Record):
    TABLE = "jdr_attentes"
    COLUMNS = ("id", "campaign_id", "seq", "author", "actor", "keys", "request", "faces",
               "answers", "question", "draw", "created_at", "expires_at")
    JSON = frozenset({"keys", "request", "faces", "answers", "question", "draw"})
    MOMENTS = frozenset({"created_at", "expires_at"})
    id: int
    campaign_id: int
    seq: int
    author: str
    actor: str
    keys: list[Any]
    request: dict[str, Any]
    faces: list[Any]
    answers: list[Any]
    question: dict[str, Any]
    draw: dict[str, Any] | None
    created_at: datetime
    expires_at: datetime
