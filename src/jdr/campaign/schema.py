"""The campaign database: tables (SQLAlchemy 2). The schema itself is created and upgraded by the
Alembic migrations in `jdr/campaign/migrations/` (tested from the first revision up); these
classes must match the head revision (a test compares them).

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


# Tables defined beside their feature, registered on the same metadata (Alembic compares them).
import jdr.campaign.choices  # noqa: E402
import jdr.campaign.members  # noqa: E402
import jdr.campaign.seance  # noqa: E402, F401
