"""The campaign database: tables (SQLAlchemy 2). The schema itself is created and upgraded by the
Alembic migrations in `jdr/campaign/migrations/` (tested from the first revision up); these
classes must match the head revision (a test compares them).

Only the migrations and the tests import this module: at run time the rows are read and
written through the DB-API (`jdr.campaign.sql`, `jdr.campaign.rows`), without SQLAlchemy.

One database may hold several campaigns (a PostgreSQL server hosting many tables); a SQLite file
made by `jdr campagne nouvelle` holds one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class CampaignRow(Base):
    """A campaign (a game table): its system, and the last journal sequence number used."""

    __tablename__ = "jdr_campaigns"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    system: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    journal_seq: Mapped[int] = mapped_column(Integer, default=0)
    # what the MJ chose for the table (`jdr.web.visibility`: the others' health in the fight)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class CharacterRow(Base):
    """A character or NPC: its sheet as YAML text (lossless: comments and key order kept)."""

    __tablename__ = "jdr_characters"
    __table_args__ = (UniqueConstraint("campaign_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("jdr_campaigns.id", ondelete="CASCADE"),
                                             index=True)
    name: Mapped[str] = mapped_column(String(200))
    key: Mapped[str] = mapped_column(String(200))  # normalised name (D-ALL.01)
    kind: Mapped[str] = mapped_column(String(10), default="pj")  # pj | pnj
    group_name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
    yaml: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EncounterRow(Base):
    """The campaign's encounter (at most one active): order, round, whose turn, conditions."""

    __tablename__ = "jdr_encounters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("jdr_campaigns.id", ondelete="CASCADE"),
                                             index=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)


class JournalRow(Base):
    """One action: when, who, what, every die face, the result (JSON, text, forum), the changes
    with their values before and after, and who may see it."""

    __tablename__ = "jdr_journal"
    __table_args__ = (UniqueConstraint("campaign_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("jdr_campaigns.id", ondelete="CASCADE"),
                                             index=True)
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(60))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    dice: Mapped[list[Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    text: Mapped[str] = mapped_column(Text)
    forum: Mapped[str] = mapped_column(Text)
    changes: Mapped[list[Any]] = mapped_column(JSON)
    visibility: Mapped[str] = mapped_column(String(10), default="public")
    author: Mapped[str | None] = mapped_column(String(200), nullable=True)
    undone_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    undoes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # a séance's dice (issue 21): {"seance", "verifiable", "tag"} or {"seance", "verifiable":
    # false, "raison"}; None outside a séance or without dice
    verif: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class MemberRow(Base):
    """One person at one table: the MJ, a joueur or a spectateur (`jdr.campaign.members`)."""

    __tablename__ = "jdr_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("jdr_campaigns.id", ondelete="CASCADE"),
                                             index=True)
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(12))  # mj | joueur | spectateur
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class SeanceRow(Base):
    """One séance of a campaign: its number, its secret seed (hex) until revealed
    (`jdr.campaign.seance`)."""

    __tablename__ = "jdr_seances"
    __table_args__ = (UniqueConstraint("campaign_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("jdr_campaigns.id", ondelete="CASCADE"),
                                             index=True)
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    open: Mapped[bool] = mapped_column(Boolean, default=True)
    contributions: Mapped[int] = mapped_column(Integer, default=0)


class PendingRow(Base):
    """One roll waiting for a choice (`jdr.campaign.choices`)."""

    __tablename__ = "jdr_attentes"
    __table_args__ = (UniqueConstraint("campaign_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("jdr_campaigns.id", ondelete="CASCADE"),
                                             index=True)
    seq: Mapped[int] = mapped_column(Integer)  # the notice's number in the journal
    author: Mapped[str] = mapped_column(String(200))  # the member who rolled
    actor: Mapped[str] = mapped_column(String(200))  # the character who acts
    keys: Mapped[list[Any]] = mapped_column(JSON)  # every character named (normalised)
    request: Mapped[dict[str, Any]] = mapped_column(JSON)  # type, params, visibilite, …
    faces: Mapped[list[Any]] = mapped_column(JSON)  # [[sides, face], …] rolled so far
    answers: Mapped[list[Any]] = mapped_column(JSON)
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    draw: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # séance dice
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
