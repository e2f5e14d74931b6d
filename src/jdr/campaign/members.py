"""The people of a table (issue 11): who may connect, with which role, by which token.

A token is shown once, at its creation; only its SHA-256 (hex) is kept. A revoked member keeps
its row (its name still owns its characters and its private journal entries) but its token no
longer opens anything. The table is created by migration 0002.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from jdr.campaign.schema import Base

ROLES = ("mj", "joueur", "spectateur")


class MemberRow(Base):
    """One person at one table: the MJ, a joueur or a spectateur."""

    __tablename__ = "jdr_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("jdr_campaigns.id", ondelete="CASCADE"),
                                             index=True)
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(12))  # mj | joueur | spectateur
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
