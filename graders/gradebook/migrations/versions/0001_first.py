"""The gradebook's first version: assignments, students, runs, results, overrides.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "assignment",
        sa.Column("id", sa.String(100), primary_key=True),
        sa.Column("title", sa.String(300), nullable=False),
        sa.Column("pack_digest", sa.String(64), nullable=False),
    )
    op.create_table(
        "student",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(300), nullable=False, unique=True),
        sa.Column("lms_id", sa.String(300), nullable=False),
        sa.Column("display_name", sa.String(300), nullable=False),
    )
    op.create_table(
        "run",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment_id", sa.String(100), sa.ForeignKey("assignment.id"),
                  nullable=False, index=True),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("harness_digest", sa.String(64), nullable=False),
        sa.Column("pack_digest", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("due", sa.String(40), nullable=False),
        sa.Column("times_digest", sa.String(64), nullable=False),
        sa.Column("report_dir", sa.Text, nullable=False),
    )
    op.create_table(
        "blob",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_table(
        "result",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id"), nullable=False, index=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("student.id"), nullable=False,
                  index=True),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("status", sa.String(30), nullable=False),
        sa.Column("total", sa.Float, nullable=False),
        sa.Column("automatic_total", sa.Float, nullable=False),
        sa.Column("max_total", sa.Float, nullable=False),
        sa.Column("late_penalty", sa.Float, nullable=False),
        sa.Column("code_digest", sa.String(64), nullable=False),
        sa.Column("submitted_at", sa.String(40), nullable=False),
        sa.Column("overrides", sa.Text, nullable=False),
        sa.Column("blob_digest", sa.String(64), sa.ForeignKey("blob.digest"), nullable=False),
        sa.UniqueConstraint("run_id", "name"),
    )
    op.create_table(
        "mark",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("result_id", sa.Integer, sa.ForeignKey("result.id"), nullable=False,
                  index=True),
        sa.Column("criterion", sa.String(100), nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("earned", sa.Float, nullable=False),
        sa.Column("automatic", sa.Float, nullable=False),
    )
    op.create_table(
        "outcome",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("result_id", sa.Integer, sa.ForeignKey("result.id"), nullable=False,
                  index=True),
        sa.Column("test", sa.Text, nullable=False),
        sa.Column("case", sa.Text, nullable=False),
        sa.Column("outcome", sa.String(30), nullable=False),
        sa.Column("causes", sa.Text, nullable=False),
    )
    op.create_table(
        "override",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment_id", sa.String(100), sa.ForeignKey("assignment.id"),
                  nullable=False, index=True),
        sa.Column("student", sa.String(300), nullable=False),
        sa.Column("criterion", sa.String(100), nullable=False),
        sa.Column("from_points", sa.Float, nullable=True),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("comment", sa.Text, nullable=False),
        sa.Column("by", sa.String(300), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("code", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    for table in ("override", "outcome", "mark", "result", "blob", "run", "student",
                  "assignment"):
        op.drop_table(table)
