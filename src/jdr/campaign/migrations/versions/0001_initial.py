"""Initial campaign schema: campaigns, characters, encounters, journal.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    _campaigns()
    _characters()
    _encounters()
    _journal()


def _campaigns() -> None:
    op.create_table(
        "jdr_campaigns",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("journal_seq", sa.Integer, nullable=False),
    )


def _characters() -> None:
    op.create_table(
        "jdr_characters",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("campaign_id", sa.Integer,
                  sa.ForeignKey("jdr_campaigns.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("group_name", sa.String(200), nullable=True),
        sa.Column("player", sa.String(200), nullable=True),
        sa.Column("yaml", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("campaign_id", "key"),
    )


def _encounters() -> None:
    op.create_table(
        "jdr_encounters",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("campaign_id", sa.Integer,
                  sa.ForeignKey("jdr_campaigns.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )


def _journal() -> None:
    op.create_table(
        "jdr_journal",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("campaign_id", sa.Integer,
                  sa.ForeignKey("jdr_campaigns.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("action", sa.String(60), nullable=False),
        sa.Column("params", sa.JSON, nullable=False),
        sa.Column("dice", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("forum", sa.Text, nullable=False),
        sa.Column("changes", sa.JSON, nullable=False),
        sa.Column("visibility", sa.String(10), nullable=False),
        sa.Column("author", sa.String(200), nullable=True),
        sa.Column("undone_by", sa.Integer, nullable=True),
        sa.Column("undoes", sa.Integer, nullable=True),
        sa.UniqueConstraint("campaign_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("jdr_journal")
    op.drop_table("jdr_encounters")
    op.drop_table("jdr_characters")
    op.drop_table("jdr_campaigns")
