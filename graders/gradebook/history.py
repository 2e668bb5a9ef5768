"""One student's runs of one assignment: each total, what produced it, and what changed."""

from __future__ import annotations

from dataclasses import dataclass

from graders.gradebook.changes import Change, moved, reasons, words
from graders.gradebook.schema import Override, Result, Run

SHORT = 12  # digest characters shown


@dataclass(frozen=True)
class Entry:
    """One run of the student: the mark, its provenance, and what moved since the last."""

    run: int
    at: str
    total: float
    automatic: float
    max_total: float
    status: str
    code: str
    pack: str
    harness: str
    change: Change | None  # None: first run, or nothing moved
    first: bool
    inputs: tuple[str, ...] = ()  # what changed though no mark moved (words.toml reasons)

    @property
    def said(self) -> str:
        """What changed, in words."""
        if self.first:
            return "first graded"
        if self.change is None:
            said = "; ".join(words()["reasons"][key] for key in self.inputs)
            return f"no mark moved ({said})" if said else "no mark moved"
        change = self.change
        moves = "".join(f"; {name} {a:g} → {b:g}" for name, a, b in change.criteria
                        if name != "total")
        return f"total {change.before:g} → {change.after:g}{moves} ({change.why})"


@dataclass(frozen=True)
class History:
    """Every run of ``name`` in ``assignment``, oldest first, and the overrides made."""

    assignment: str
    name: str
    display_name: str
    entries: list[Entry]
    overrides: list[Override]

    def lines(self) -> list[str]:
        """The history as console lines."""
        out = [f"{self.assignment}: {self.name} ({self.display_name})"]
        for e in self.entries:
            out.append(f"  run {e.run} at {e.at}: {e.total:g}/{e.max_total:g} "
                       f"(automatic {e.automatic:g}, {e.status}); code {e.code[:SHORT]}, "
                       f"pack {e.pack[:SHORT]}, grader {e.harness[:SHORT]}: {e.said}")
        for o in self.overrides:
            out.append(f"  override at {o.at} by {o.by}: {o.criterion} {was(o)}→ "
                       f"{o.points:g} ({o.comment})")
        return out


def history(assignment: str, name: str, runs: list[Run], entries: list[Override]
            ) -> History:
    """The history of ``name`` over ``runs`` (those of ``assignment``, oldest first)."""
    found: list[Entry] = []
    previous: tuple[Run, Result] | None = None
    display = name
    for run in runs:
        result = next((r for r in run.results if r.name == name), None)
        if result is None:
            continue
        display = result.student.display_name or name
        change: Change | None = None
        inputs: tuple[str, ...] = ()
        if previous is not None:
            inputs = reasons(previous[1], result, previous[0], run)
            criteria = moved(previous[1], result)
            if criteria is not None:
                change = Change(name, previous[1].total, result.total, inputs, criteria)
            inputs = tuple(key for key in inputs if key != "none")
        found.append(Entry(run=run.id, at=run.at, total=result.total,
                           automatic=result.automatic_total, max_total=result.max_total,
                           status=result.status, code=result.code_digest, pack=run.pack_digest,
                           harness=run.harness_digest, change=change, first=previous is None,
                           inputs=inputs))
        previous = (run, result)
    mine = [entry for entry in entries if entry.student == name]
    return History(assignment, name, display, found, mine)


def was(row: Override) -> str:
    """The mark an override replaced, with a trailing space ("" when not known: it came in
    from a hand-written overrides.toml)."""
    return "" if row.from_points is None else f"{row.from_points:g} "


def reason_words() -> dict[str, str]:
    """Each reason key with its words."""
    return dict(words()["reasons"])
