"""Séances (issue 21): secret seeds and their commitments; the journal's verification records.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import jdr.campaign.schema  # noqa: F401  (registers the table on the metadata)

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "jdr_seances",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("campaign_id", sa.Integer,
                  sa.ForeignKey("jdr_campaigns.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("contributions", sa.Integer, nullable=False),
        sa.UniqueConstraint("campaign_id", "number"),
    )
    with op.batch_alter_table("jdr_journal") as batch:
        batch.add_column(sa.Column("verif", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("jdr_journal") as batch:
        batch.drop_column("verif")
    op.drop_table("jdr_seances")
