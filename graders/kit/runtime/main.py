# mypy: ignore-errors
"""The pre-check session: collect the student's files as the instructor's run does, run the
rule checks and the public tests, and say in plain words what passed and what to fix.

Used by the kit's ``conftest.py``, so ``python3 precheck.py`` and ``python3 -m pytest`` run
the same session.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from fnmatch import fnmatchcase
from pathlib import Path

import pytest
from _precheck import PACKAGE_DIR, fixtures
from _precheck.checks import run_rules, unchecked
from _precheck.declaration import Declaration
from _precheck.pack import Pack
from _precheck.plugin import GradingPlugin, GradingState
from _precheck.rules import syntax_error
from _precheck.sandbox import Sandbox
from _precheck.submissions import prepare
from _precheck.testing import MODE_NAMES
from _precheck.verdict import (
    as_marked,
    cause_weights,
    failing,
    is_notice,
    lists_kinds,
    plain_words,
    problems,
    public_points,
    style_lines,
)

MANIFEST = json.loads((PACKAGE_DIR / "kit.json").read_text(encoding="utf-8"))
# The instructor grades on this Python: code only a newer one reads is named here already.
syntax_error.GRADING_PYTHON = tuple(MANIFEST.get("python", syntax_error.GRADING_PYTHON))
KIT_FILES = {"_precheck", "precheck.py", "conftest.py", "pytest.ini", "README.txt",
             "requirements.txt", "__pycache__"}
WIDTH = 100


def load_pack() -> Pack:
    declaration = Declaration.model_validate(MANIFEST["declaration"])
    return Pack(declaration, PACKAGE_DIR / "packs" / declaration.id, PACKAGE_DIR)


def _student_files(folder: Path, target: Path) -> Path:
    """The student's own files, without the kit's machinery or a virtual environment."""
    target.mkdir(parents=True)
    for path in folder.iterdir():
        if path.name in KIT_FILES or path.name.startswith("."):
            continue
        if path.is_dir():
            if (path / "pyvenv.cfg").exists():
                continue
            shutil.copytree(path, target / path.name,
                            ignore=shutil.ignore_patterns("__pycache__", ".*"))
        elif path.is_file():
            shutil.copyfile(path, target / path.name)
    return target


class KitSession:
    """One pre-check: the submission, its rule violations and the test outcomes."""

    def __init__(self, folder: Path) -> None:
        self.scratch = Path(tempfile.mkdtemp(prefix="precheck-"))
        self.pack = load_pack()
        source = folder if folder.is_file() else _student_files(  # a .zip is read as it is
            folder, self.scratch / "submission" / folder.name)
        self.submission = prepare(source, self.pack, self.scratch / "work")
        self.violations = run_rules(self.pack, self.submission)
        self.unchecked = unchecked(self.pack, self.submission)
        self.state = GradingState(self.pack, Sandbox(), [self.submission], True, None)
        # What pytest ran of the public tests (conftest.py counts): a run stopped early or
        # told to leave tests out says so and gives no verdict.
        self.collected = self.finished = self.left_out = 0
        self.interrupted = False

    def incomplete(self) -> bool:
        """Whether some public test did not run (Ctrl-C, -x, -k, --deselect, --co)."""
        return self.interrupted or bool(self.left_out) or self.finished < self.collected

    def attach(self, config: pytest.Config) -> None:
        config.pluginmanager.register(GradingPlugin(self.state), "precheck-grading")
        config.pluginmanager.register(fixtures, "precheck-fixtures")

    def outcomes(self):
        """The public tests' outcomes as the instructor's marks read them (``as_marked``)."""
        return as_marked(self.pack, self.state.outcomes.get(self.submission.id, []))

    def problems(self) -> list:
        """The rule violations that cost marks (0-point notices are only shown)."""
        return problems(self.pack, self.violations)

    def passed(self) -> bool:
        """The instructor's `grade check` verdict: every public test passed, no rule broken
        (a 0-point notice is not a failure)."""
        tests = self.outcomes()
        return (bool(tests) and not self.incomplete() and not failing(self.pack, tests)
                and not self.problems())

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def report(session: KitSession) -> str:
    """What the student reads: one line per check, then what to fix."""
    shares = MANIFEST["shares"]
    lines = [f"{MANIFEST['title']}: pre-check (public tests and rule checks only)", ""]
    lines.append("Rule checks:")
    broken = {}
    for violation in session.violations:
        broken.setdefault(violation.rule, []).append(violation)
    if not MANIFEST["rules"] and not broken:
        lines.append("  (this assignment has no rule checks)")
    declared: dict[str, dict] = {}
    for rule in MANIFEST["rules"]:  # a rule declared twice (two entries) is one line
        declared.setdefault(rule["name"], rule)
    for rule in declared.values():
        lines.append(_rule_line(rule, broken.pop(rule["name"], []), session))
    for name, found in broken.items():  # collection problems (file names, encodings)
        lines.append(_rule_line({"name": name, "title": found[0].title, "deduction":
                                 found[0].deduction}, found, session))
    lines += ["", "Public tests:"]
    outcomes = session.outcomes()  # as marked: made once for the lines below
    for test in outcomes:
        lines += _test_lines(session, test, shares.get(test.name))
    if not outcomes:
        lines.append("  ERROR no public test could run (see the messages above)")
    if session.incomplete():
        lines += ["", "NOT FINISHED: the pre-check stopped before every public test ran (it was "
                  "interrupted, or pytest was told to stop early or leave tests out: -x, -k, "
                  "--deselect), so it gives no points and no verdict. Run `python3 "
                  "precheck.py` again and let it finish."]
        return "\n".join(lines)
    weights = cause_weights(session.pack, shares)
    lines += ["", public_points(outcomes, shares, weights)]
    failed = failing(session.pack, outcomes)
    if session.passed():
        lines.append("All public tests pass and no rule is broken. Hidden tests are run by the "
                     "instructor after the deadline.")
    else:
        lines.append(f"{len(failed)} public test(s) not passing, {len(session.problems())} rule "
                     "problem(s). Fix them before you upload.")
    return "\n".join(lines)


def as_json(session: KitSession) -> str:
    """Outcomes and violations as the instructor's results hold them."""
    return json.dumps({
        "passed": session.passed(),
        "finished": not session.incomplete(),
        "tests": [dataclasses.asdict(t) for t in session.outcomes()],
        "violations": [dataclasses.asdict(v) for v in session.violations],
    }, default=str)


def _rule_line(rule: dict, found: list, session: KitSession) -> list[str] | str:
    points = f" (-{rule['deduction']:g} points)" if rule.get("deduction") else ""
    if not found and session.unchecked.get(rule["name"]):
        files = ", ".join(session.unchecked[rule["name"]])
        return (f"  ---- {rule['title']} [{rule['name']}]: not checked in {files}, which Python "
                "cannot read (see its syntax error)")
    if not found:
        return f"  PASS {rule['title']} [{rule['name']}]"
    notice = all(is_notice(session.pack, v) for v in found)
    mark, points = ("NOTE", " (0 points: shown, not charged)") if notice else ("FAIL", points)
    out = [f"  {mark} {found[0].title} [{rule['name']}]{points}"]
    for v in found:
        where = f"{v.file}:{v.line}" if v.line else v.file
        out.append(f"       at {where}: {plain_words(v.message, {}, {}, test=False)}")
        if v.source_line:
            out.append(f"       line: {v.source_line.strip()}")
    if found[0].fix:
        out.append(f"       what to fix: {plain_words(found[0].fix, {}, {}, test=False)}")
    return "\n".join(out)


def _test_lines(session: KitSession, test, share) -> list[str]:
    mark = {"passed": "PASS", "failed": "FAIL", "skipped": "NOTE"}.get(test.outcome, "ERROR")
    case = f" [{test.case}]" if test.case else ""
    worth = f" ({share:g} points)" if share else ""
    listed = lists_kinds(test)  # a style test whose every kind is free: it earned its points
    if listed:
        mark, worth = "NOTE", " (0 points: listed, not counted)"
    out = [f"  {mark} {test.name}{case}{worth}"]
    if test.outcome == "passed" and not listed:
        return out
    message = (style_lines(session.pack, test) if test.outcome == "failed" or listed else []) or [
        plain_words(test.message, test.details, session.submission.files)]
    out += ["       " + line for text in message for line in text.splitlines()]
    if test.outcome == "failed" and test.causes:
        out.append("       kind of slip: " + "; ".join(_slip(test.name, kind, words)
                                                     for kind, words in test.causes.items()))
    out += ["       " + line for line in _diff(test.details)]
    if test.outcome == "error":
        out.append("       (not your fault: the pre-check could not run this test)")
    return out


def _slip(test_name: str, kind: str, words: str) -> str:
    """A kind of slip, with what it costs: once, where the test's criterion charges it, or
    nothing here where the criterion lists it and another charges it."""
    criteria = MANIFEST["declaration"]["criteria"]
    own = [c for c in criteria if any(fnmatchcase(test_name, p) for p in c["tests"])]
    for criterion in own:
        if criterion.get("causes", {}).get(kind):
            return (f"{words} (charged once: -{criterion['causes'][kind]:g} points, however "
                    "many cases show it)")
    charged = [c for c in criteria if c.get("causes", {}).get(kind)]
    if charged and any(kind in c.get("free_kinds", []) for c in own):
        return (f"{words} (0 points here: charged once under \"{charged[0]['id']}\", "
                f"-{charged[0]['causes'][kind]:g} points)")
    return words


def _diff(details: dict) -> list[str]:
    """The first differing lines of a text diff, expected beside got."""
    if details.get("kind") != "text-diff":
        return []
    rows = [r for r in details.get("rows", []) if r["tag"] != "equal"][:12]
    out = [f"expected ({MODE_NAMES.get(details.get('mode', ''), '')}) | got"]
    for row in rows:
        left = f"{row['left_no'] or '':>4} {row['left']}"[:WIDTH // 2 - 2]
        right = f"{row['right_no'] or '':>4} {row['right']}"
        out.append(f"{left:<{WIDTH // 2 - 2}} | {right}"[:WIDTH])
    return out
