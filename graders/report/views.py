"""Presentation helpers for the report templates: plain functions over the result model.

Nothing here changes a result; each helper builds new, display-only data (folded diffs,
per-criterion test lists, class statistics) so the templates stay declarative.
"""

from __future__ import annotations

import difflib
import json
import re
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from graders.environment import blamed_modules, missing_module
from graders.marking import feeds
from graders.pack import Pack
from graders.report import source
from graders.results import CauseCharge, SubmissionResult, TestOutcome
from graders.submissions import slugify
from graders.testing import MODE_NAMES
from graders.verdict import is_notice

CONTEXT = 3  # unchanged lines kept around each difference
MAX_INLINE = 2000  # longest line pair that gets a character-level highlight
MAX_SHOWN = 40  # diff rows shown before the rest is folded
MAX_FOLDED = 60  # folded rows kept on the page per fold (a whole golden file is not needed)
MIN_FOLD = 3  # shorter unchanged runs are shown, not folded
ONE_SIDED = 8  # lines of a one-sided run (missing or extra output) shown before folding
MAX_VARIANTS = 4  # variants of one failure shown in full on a student page
SIMILAR = 0.6  # replaced line pairs at least this similar get a character-level highlight
PAGE_SOURCE_CHARS = 300_000  # source shown on one student page; the rest is linked as files

MODE_HELP = {
    "exact": "Every character counts: spaces, blank lines, capitals and the final newline must "
             "match the expected output exactly.",
    "rstrip": "Spaces at the end of lines and blank lines at the very end are ignored; "
              "everything else must match exactly.",
    "tokens": "Only the words matter: any run of spaces, tabs or newlines counts as one space.",
}


def mode_name(mode: str) -> str:
    """The comparison mode of a text diff (``exact``, ``rstrip``, ``tokens``) as a reader
    says it."""
    return MODE_NAMES.get(mode, mode)


def mode_help(mode: str) -> str:
    """What the comparison mode of a text diff means, in plain words."""
    return MODE_HELP.get(mode, "")


def diff_blocks(rows: Sequence[dict[str, Any]], context: int = CONTEXT,
                shown: int = MAX_SHOWN) -> list[dict[str, Any]]:
    """Split side-by-side diff rows into shown blocks and folded ones.

    Runs of unchanged lines away from any difference are folded, and so is everything after the
    first ``shown`` visible rows. Returns ``[{"folded": bool, "changes": int, "rows": [...]}]``
    where ``changes`` counts the changed rows in the block; each row is a copy of the original
    with ``first`` (the first changed row) and ``left_parts``/``right_parts`` (lists of
    ``(text, changed)`` for a character-level highlight of replaced lines). A folded block keeps
    its first MAX_FOLDED rows; ``cut`` counts the rows left out."""
    changed = [i for i, row in enumerate(rows) if row.get("tag") != "equal"]
    keep: set[int] = set()
    run = 0  # position in a run of lines only one side has (a missing or an extra stretch)
    for i in changed:
        tag = rows[i].get("tag")
        run = run + 1 if tag in ("delete", "insert") and i and rows[i - 1].get("tag") == tag else 0
        if run < ONE_SIDED:
            keep.update(range(max(0, i - context), min(len(rows), i + context + 1)))
    if not changed:  # nothing differs line by line: show the end, where newlines differ
        keep.update(range(max(0, len(rows) - context), len(rows)))
    blocks: list[dict[str, Any]] = []
    visible = 0
    for i, row in enumerate(rows):
        view = dict(row, first=bool(changed) and i == changed[0])
        view["left_parts"], view["right_parts"] = _inline(row)
        folded = i not in keep or visible >= shown
        visible += not folded
        if blocks and blocks[-1]["folded"] == folded:
            blocks[-1]["rows"].append(view)
        else:
            blocks.append({"folded": folded, "rows": [view]})
    for block in blocks:
        block["cut"] = 0
        if block["folded"] and len(block["rows"]) > MAX_FOLDED:  # the rest is in the JSON twin
            block["cut"] = len(block["rows"]) - MAX_FOLDED
            block["rows"] = block["rows"][:MAX_FOLDED]
        block["changes"] = sum(row.get("tag") != "equal" for row in block["rows"])
        if block["folded"] and len(block["rows"]) <= MIN_FOLD:  # folding saves nothing
            block["folded"] = False
    return blocks


def _inline(row: dict[str, Any]) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    left, right = str(row.get("left", "")), str(row.get("right", ""))
    if row.get("tag") != "replace" or len(left) + len(right) > MAX_INLINE:
        return [(left, False)], [(right, False)]
    matcher = difflib.SequenceMatcher(a=left, b=right, autojunk=False)
    if matcher.ratio() < SIMILAR:  # unrelated lines: a character highlight would be noise
        return [(left, False)], [(right, False)]
    lparts: list[tuple[str, bool]] = []
    rparts: list[tuple[str, bool]] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if a1 > a0:
            lparts.append((left[a0:a1], tag != "equal"))
        if b1 > b0:
            rparts.append((right[b0:b1], tag != "equal"))
    return lparts, rparts


def anchor_of_test(index: int) -> str:
    return f"test-{index}"


def criterion_tests(pack: Pack, result: SubmissionResult) -> dict[str, list[dict[str, Any]]]:
    """For each criterion id: the tests that fed it (same fnmatch rule as the marking), with
    their anchor on the student page."""
    by_id: dict[str, list[dict[str, Any]]] = {}
    for criterion in pack.declaration.criteria:
        by_id[criterion.id] = [
            {"anchor": anchor_of_test(i), "test": test}
            for i, test in enumerate(result.tests, 1)
            if feeds(criterion, test.name)
        ]
    return by_id


def by_test_name(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Group ``{"anchor", "test"}`` items by test function (parameter cases together), in
    order of first appearance: ``{"name", "cases", "passed", "counted", "faults", "anchor",
    "state"}`` where ``faults`` are the failed/errored items, ``anchor`` the first fault's (or
    the first case's) and ``state`` is passed, failed, partial or skipped."""
    groups: dict[str, dict[str, Any]] = {}
    for item in items:
        test = item["test"]
        group = groups.setdefault(test.name, {"name": test.name, "cases": [], "faults": []})
        group["cases"].append(item)
        if test.outcome in ("failed", "error"):
            group["faults"].append(item)
    for group in groups.values():
        outcomes = [item["test"].outcome for item in group["cases"]]
        group["passed"] = outcomes.count("passed")
        group["counted"] = group["passed"] + len(group["faults"])
        group["anchor"] = (group["faults"] or group["cases"])[0]["anchor"]
        group["state"] = ("skipped" if not group["counted"] else "passed" if not group["faults"]
                          else "failed" if not group["passed"] else "partial")
    return list(groups.values())


def faults(result: SubmissionResult) -> list[dict[str, Any]]:
    """Test functions with at least one failed case (the student's faults; grader errors are
    not), grouped as :func:`by_test_name` does, with ``failed`` (the failed items only).
    Cases that failed only because a module could not be imported are left out: the
    ``missing-module`` note names them, once (:mod:`graders.environment`)."""
    blamed = blamed_modules(result)  # one note stands for every test such a module failed
    items = [{"anchor": anchor_of_test(i), "test": test} for i, test in enumerate(result.tests, 1)
             if not blamed or missing_module(test) not in blamed]
    groups = by_test_name(items)
    for group in groups:
        group["failed"] = [item for item in group["faults"] if item["test"].outcome == "failed"]
        if group["failed"]:
            group["anchor"] = group["failed"][0]["anchor"]
    return [group for group in groups if group["failed"]]


def rules_named(pack: Pack, result: SubmissionResult) -> list[tuple[str, bool]]:
    """Each rule the result's violations name, once, in order, and whether it is a 0-point
    notice (the index marks those: they break nothing)."""
    named: dict[str, bool] = {}
    for violation in result.violations:
        named[violation.rule] = named.get(violation.rule, True) and is_notice(pack, violation)
    return list(named.items())


def criterion_rules(pack: Pack) -> dict[str, str]:
    """Criterion id -> how the rules it names take its points, in words: all of them, or
    (a proportional criterion) so much per distinct kind of message, or per weighed rule."""
    notes = {}
    for criterion in pack.declaration.criteria:
        if not criterion.rules:
            continue
        rules = ", ".join(criterion.rules)
        if criterion.per_kind is not None:
            notes[criterion.id] = (f"{criterion.per_kind:g} point(s) off per distinct kind of "
                                   f"message from rule(s) {rules}, at most {criterion.points:g}")
        elif all(rule in criterion.causes for rule in criterion.rules):
            notes[criterion.id] = "a broken rule costs its weight, once: " + ", ".join(
                f"{rule} (-{criterion.causes[rule]:g})" for rule in criterion.rules)
        else:
            notes[criterion.id] = f"all or nothing on rule(s): {rules}"
    return notes


def criteria_of(pack: Pack, test: TestOutcome) -> list[str]:
    """Ids of the criteria a test counts towards."""
    return [c.id for c in pack.declaration.criteria
            if feeds(c, test.name)]


def pts(value: float) -> str:
    """Points as people write them: 15, 26.25 (``float()`` makes an undefined value fail as
    undefined, not as a puzzling format error)."""
    return f"{float(value):g}"


def one_line(text: str, limit: int = 240) -> str:
    """A message on one line (whitespace runs become one space), cut at ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"


def file_anchor(files: Iterable[str], name: str, line: int | None) -> str | None:
    """Anchor of a line of a graded file on the student page, or None if not shown."""
    names = list(files)
    if name not in names:
        return None
    index = names.index(name) + 1
    return f"file-{index}-L{line}" if line else f"file-{index}"


def class_stats(results: Sequence[SubmissionResult]) -> dict[str, Any]:
    """Summary numbers for the class page (graded results only: grader errors are excluded)."""
    totals = [r.total for r in results if r.status == "graded"]
    if not totals:
        return {"count": 0}
    return {
        "count": len(totals),
        "mean": statistics.fmean(totals),
        "median": statistics.median(totals),
        "low": min(totals),
        "high": max(totals),
        "full": sum(r.total >= r.max_total > 0 for r in results if r.status == "graded"),
        "zero": sum(t == 0 for t in totals),
    }


def band(earned: float, points: float) -> str:
    """CSS class for a score cell: full, partial or zero."""
    if points and earned >= points:
        return "full"
    return "zero" if earned <= 0 else "part"


def case_label(student: str, case: str) -> str:
    """A parameter case id without the student's own name (or its slug) in it."""
    for name in {student, slugify(student)}:
        if case == name:
            return ""
        for sep in ("-", "_", " "):
            if case.startswith(name + sep):
                case = case[len(name) + 1:]
            if case.endswith(sep + name):
                case = case[: -len(name) - 1]
    return case


def failure_groups(result: SubmissionResult) -> list[dict[str, Any]]:
    """Failed and errored tests grouped by cause: the same outcome and the same message once the
    test's own case id and quoted calls are left out (a missing file fails a hundred tests one
    way: one entry). ``{"anchor", "test", "items", "variants", "heads"}``: ``items`` every
    ``{"anchor", "test"}`` in the group, ``variants`` the items split by exact message and
    details (the first is shown in full, the others each once), ``heads`` the anchors of the
    variants' first items. Only the first MAX_VARIANTS variants are shown (the others are
    in ``more_variants``, and all of them in the JSON twin)."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for index, test in enumerate(result.tests, 1):
        if test.outcome not in ("failed", "error"):
            continue
        item = {"anchor": anchor_of_test(index), "test": test}
        named = _named_causes(test)
        group = groups.setdefault((test.outcome, named or _cause(test)), {
            "anchor": item["anchor"], "test": test, "items": [], "variants": {}})
        group["items"].append(item)
        # a failure that names its causes is one failure however its details differ (the
        # running time an extra line prints): every case of it is listed, the first shown
        exact = (named or test.message,
                 "" if named else json.dumps(test.details, sort_keys=True, default=str))
        group["variants"].setdefault(exact, []).append(item)
    for group in groups.values():
        variants = list(group["variants"].values())
        group["variants"], group["more_variants"] = variants[:MAX_VARIANTS], variants[MAX_VARIANTS:]
        group["heads"] = {variant[0]["anchor"] for variant in group["variants"]}
    return list(groups.values())


QUOTED = re.compile(r"`[^`\n]*`")
MAX_PLACES = 8  # places of a cause named on the page (all of them are in the JSON twin)


def _named_causes(test: TestOutcome) -> str:
    """The kinds of difference a failed case names, as one key ("" when it names none)."""
    return "\0".join([test.name, *sorted(test.causes)]) if test.causes else ""


def cause_places(charge: CauseCharge, shown: int = MAX_PLACES) -> str:
    """Where a charged cause shows, each test once with its cases: ``test_format (27 cases:
    input1, input2, ...)``; rule places (``a.py:3``) as they are."""
    by_test: dict[str, list[str]] = {}
    for where in charge.places:
        name, _, case = where.partition(" [")
        by_test.setdefault(name if case else where, []).append(case.rstrip("]"))
    parts = []
    for name, cases in by_test.items():
        cases = [c for c in cases if c]
        if not cases:
            parts.append(name)
            continue
        more = ", \u2026" if len(cases) > shown else ""
        count = f"{len(cases)} case{'s' if len(cases) > 1 else ''}"
        parts.append(f"{name} ({count}: {', '.join(cases[:shown])}{more})")
    return "; ".join(parts)


def _cause(test: TestOutcome) -> str:
    message = test.message
    if len(test.case) >= 3:  # a short case id ("1") could be any number in the message
        message = re.sub(rf"(?<!\w){re.escape(test.case)}(?!\w)", "\0", message)
    return QUOTED.sub("`\u2026`", message)


def source_files(result: SubmissionResult) -> list[dict[str, Any]]:
    """The files shown on the student page, highlighted: ``{"name", "label", "anchor",
    "lines", "hits", "helper"}``; ``label`` names the file handed in when the program was
    graded under another name (``program.py (your Code3/Main.py)``)."""
    shown = []
    linked_files = linked_only(result)
    for index, (name, text) in enumerate(result.files.items(), 1):
        hits = sorted({v.line for v in result.violations if v.file == name and v.line})
        handed_in = result.aliases.get(name)
        link = linked_files.get(index)
        shown.append({
            "name": name,
            "label": f"{name} (your {handed_in})" if handed_in else name,
            "anchor": f"file-{index}",
            "lines": [] if link else source.highlighted(name, text),
            "count": len(text.splitlines()),
            "link": link,
            "hits": hits,
            "helper": name in result.helpers,
        })
    return shown


def linked_only(result: SubmissionResult) -> dict[int, str]:
    """The files too long for the page (``PAGE_SOURCE_CHARS`` of source in all, files in
    order, each shown whole or not at all), by their number: each is written beside the page
    as plain text (``students/<slug>.files/file-N.txt``) and linked, by this relative path."""
    budget, linked_files = PAGE_SOURCE_CHARS, {}
    for index, text in enumerate(result.files.values(), 1):
        if len(text) <= budget:
            budget -= len(text)
        else:
            linked_files[index] = f"{slugify(result.student)}.files/file-{index}.txt"
    return linked_files


def linked(result: SubmissionResult, text: str) -> list[tuple[str, str | None]]:
    """``text`` (a traceback, error output) with each frame in a shown file linked to its
    line on the page."""
    return source.linked(text, source.file_anchors(result.files, result.aliases))


def failing_line(result: SubmissionResult, test: TestOutcome) -> str | None:
    """The anchor of the line of the student's code where a failing call ended, if known."""
    details = test.details
    texts = [str(details.get(key) or "") for key in ("traceback", "stderr")] + [test.message]
    anchors = source.file_anchors(result.files, result.aliases)
    for text in texts:
        found = source.deepest_frame(text, anchors)
        if found:
            return found
    return None


def line_name(result: SubmissionResult, anchor: str) -> str:
    """``file-2-L7`` as people say it: ``strategy.py line 7``."""
    head, _, line = anchor.rpartition("-L")
    names = list(result.files)
    index = int(head.removeprefix("file-")) - 1
    name = names[index] if 0 <= index < len(names) else "?"
    return f"{name} line {line}"
