"""Members of a table (issue 11): name, role, hash of the token, revoked.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

# The table class lives in `jdr.campaign.schema`; importing it here registers it on
# `schema.Base.metadata` wherever the migrations run (the schema-vs-models test compares them).
import jdr.campaign.schema  # noqa: F401

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "jdr_members",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("campaign_id", sa.Integer,
                  sa.ForeignKey("jdr_campaigns.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(12), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("jdr_members")
