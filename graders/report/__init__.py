"""Render results as self-contained HTML (jinja2), JSON twins and ``marks.csv``.

Renderers read only :class:`~graders.results.SubmissionResult`. Every write is atomic (a temp
file renamed into place), so a stopped run never leaves half a report behind.
"""

from __future__ import annotations

import base64
import csv
import functools
import hashlib
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from graders import citations, overrides
from graders.pack import Pack
from graders.report import boards, similar, stats, views
from graders.results import OverrideRecord, SubmissionResult, results_json, write_atomic
from graders.sandbox import Isolation
from graders.submissions import slugify

if TYPE_CHECKING:
    from graders.consensus import SharedLines


def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("graders.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pts"] = views.pts
    env.filters["slug"] = slugify
    env.filters["one_line"] = views.one_line
    env.filters["citation"] = citations.render
    env.globals["views"] = views
    env.globals["boards"] = boards
    env.globals["stats"] = stats
    # The one inline script, allowed by its hash: the Content-Security-Policy blocks any other
    # script (even if escaping ever failed) and every network request.
    script = env.loader.get_source(env, "report.js")[0]  # type: ignore[union-attr]
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    env.globals["report_js"] = Markup(script)
    env.globals["csp"] = (f"default-src 'none'; script-src 'sha256-{digest}'; "
                          "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
                          "form-action 'none'")
    return env


@functools.cache
def _shared_environment() -> Environment:
    """One environment per process: each share's worker makes a writer, and making the
    environment and compiling its templates again cost more than writing a share's pages."""
    return environment()


class ReportWriter:
    """Writes ``<out>/students/<slug>.html|.json``, ``index.html``, ``marks.csv`` and
    ``results.json``."""

    def __init__(self, out_dir: Path, pack: Pack) -> None:
        self.out_dir = out_dir
        self.pack = pack
        self.env = _shared_environment()
        self._overrides: tuple[list[overrides.Override], list[str]] | None = None

    def student_json(self, student: str) -> Path:
        return self.out_dir / "students" / f"{slugify(student)}.json"

    def cached(self, student: str, key: str) -> SubmissionResult | None:
        """The stored result of ``student`` if it was graded under exactly this grading key
        (see :func:`graders.outcomes.grading_key`) and without a grader error; else None."""
        path = self.student_json(student)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("digest") != key:
            return None
        if data.get("status") != "graded":
            return None
        try:
            return SubmissionResult.from_dict(data)
        except TypeError:
            return None

    def write_student(self, result: SubmissionResult) -> None:
        """The student's page and JSON twin, with the TA's overrides applied to ``result``."""
        self._apply_overrides(result)
        html = self.env.get_template("student.html.j2").render(r=result, pack=self.pack)
        page = self.student_json(result.student).with_suffix(".html")
        names = list(result.files)
        for index, link in views.linked_only(result).items():  # plain text: never run as HTML
            write_atomic(page.parent / link, result.files[names[index - 1]])
        write_atomic(page, html)
        write_atomic(self.student_json(result.student), result.to_json())

    def write_index(
        self, results: list[SubmissionResult], isolation: Isolation,
        shared: Sequence[SharedLines] = (), changed: str | None = None,
        moved: Mapping[str, str] | None = None,
        fingerprints: similar.Fingerprinting | None = None,
    ) -> None:
        """``index.html``, ``marks.csv`` and ``results.json``, every result with the current
        overrides (a student page whose override changed is written again); the similarity
        section never stops this (nor changes a mark). ``shared``: the batch's class
        consensus, listed for the instructor. ``changed``: the gradebook's line on the marks
        that moved since the last run, and ``moved`` each such student's move and reason.
        ``fingerprints``: the similarity fingerprints the batch made as it graded."""
        self._overrides = None  # read overrides.toml again: a TA may have edited it
        for result in results:
            before = _override_state(result)
            self._apply_overrides(result)
            if _override_state(result) != before:
                self.write_student(result)
        entries, problems = self._loaded()
        problems = problems + overrides.usable(entries, results)[1]
        criteria = self.pack.declaration.criteria
        failures = stats.common_failures(results)
        html = self.env.get_template("index.html.j2").render(
            results=results, pack=self.pack, criteria=criteria, isolation=isolation,
            max_total=self.pack.declaration.max_points,
            histograms=stats.histograms(results, criteria), rates=stats.test_rates(results),
            failures=failures, reasons={r.student: stats.reasons(r) for r in results},
            tokens={r.student: stats.row_tokens(r, failures) for r in results},
            counts={r.student: stats.counted_tests(self.pack, r) for r in results},
            override_problems=problems, stale=overrides.stale(results), shared=shared,
            changed=changed, moved=moved or {},
            similarity=similar.section(self.pack, results,
                                       cache=self.out_dir / "similarity.json",
                                       fingerprints=fingerprints),
        )
        write_atomic(self.out_dir / "index.html", html)
        write_atomic(self.out_dir / "marks.csv", marks_csv(results, [c.id for c in criteria]))
        write_atomic(self.out_dir / "results.json", results_json(results))

    def _loaded(self) -> tuple[list[overrides.Override], list[str]]:
        if self._overrides is None:
            self._overrides = overrides.load(self.out_dir / overrides.FILE_NAME)
        return self._overrides

    def _apply_overrides(self, result: SubmissionResult) -> None:
        entries = [entry for entry in self._loaded()[0] if entry.student == result.student]
        overrides.apply(result, [e for e in entries if overrides.check(e, result) is None])


def _override_state(result: SubmissionResult) -> str:
    return json.dumps([result.total, result.automatic_total,
                       [[m.earned, m.automatic] for m in result.criteria],
                       [vars(o) for o in result.overrides]], default=str)


def marks_csv(results: list[SubmissionResult], criteria: list[str]) -> str:
    """One row per student for the grade book, with the final marks (overrides applied; the
    grader's own total beside them); every cell is :func:`csv_cell`-safe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["student", "total", "max", *criteria, "deductions", "status", "violations",
                     "automatic_total", "overrides"])
    for result in results:
        earned = {mark.id: mark.earned for mark in result.criteria}
        row = [
            result.student, f"{result.total:g}", f"{result.max_total:g}",
            *(f"{earned.get(c, 0):g}" for c in criteria),
            f"{sum(d.points for d in result.deductions):g}", result.status,
            "; ".join(sorted({v.rule for v in result.violations})),
            f"{result.total if result.automatic_total is None else result.automatic_total:g}",
            "; ".join(_override_note(o) for o in result.overrides if not o.superseded),
        ]
        writer.writerow([csv_cell(cell) for cell in row])
    return buffer.getvalue()


def _override_note(record: OverrideRecord) -> str:
    flag = " [code changed since]" if record.stale else ""
    return f"{record.criterion} {record.automatic:g}->{record.points:g} by {record.by}{flag}"


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """``text`` with a leading ``'`` when a spreadsheet would read it as a formula (OWASP's
    CSV injection rule): a student named ``=HYPERLINK(...)`` stays a name in the grade book."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text
