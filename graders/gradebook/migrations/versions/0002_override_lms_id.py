"""An override follows the student's LMS id: ``override.lms_id`` ("" when the export gave none).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column; every override recorded before it keeps following the report's name."""
    with op.batch_alter_table("override") as table:
        table.add_column(sa.Column("lms_id", sa.String(300), nullable=False, server_default=""))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("override") as table:
        table.drop_column("lms_id")
