"""A result remembers the student's own due date: ``result.own_due`` (``--extensions``; "" when
they had none), so that "why marks moved" can name an extension.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


# Not a batch (copy-and-rename) operation: SQLite would drop `result`, which `mark` and
# `outcome` refer to. SQLite (3.35 and later) and PostgreSQL add and drop a column in place.
def upgrade() -> None:
    """Add the column; every result recorded before it had no due date of its own."""
    op.add_column("result", sa.Column("own_due", sa.String(40), nullable=False,
                                      server_default=""))


def downgrade() -> None:
    """Drop the column."""
    op.drop_column("result", "own_due")
