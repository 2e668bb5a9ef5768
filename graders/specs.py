"""The tables of ``assignment.toml``: each key typed, bounded and documented.

:class:`graders.declaration.Declaration` puts them together; ``grade explain`` prints every
description. A pack's per-pack choices are keys here, never names in engine code.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from graders.rules import get_rule
from graders.sandbox.isolation import Limits


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PinnedClass(Strict):
    name: str = Field(description="The class the handout asks for in this file.")
    base: str = Field(
        "", description="The base class the handout says it subclasses: when no handed-in "
        "module defines `name`, the one class deriving from `base` is taken.")


class SubmissionSpec(Strict):
    files: list[str] = Field(min_length=1, description="File names a student hands in.")
    optional: list[str] = Field(
        default_factory=list, description="Files a student may hand in too (graded if present)."
    )
    templates: dict[str, str] = Field(
        default_factory=dict,
        description="Submitted file -> the template in student_templates/<id>/ it was filled "
        "in from (rules compare the two).",
    )
    extra_files: Literal["allow", "forbid"] = Field(
        "allow",
        description="Other .py files a student hands in (their own helper modules): `allow` "
        "places them in the workspace beside the required files, where rules check them too; "
        "`forbid` also does, but deducts `penalties.extra_files` once.",
    )
    max_mb: float = Field(
        20, gt=0, le=1000,
        description="Cap on one student's hand-in, in MB (10^6 bytes): files past it are not "
        "read (Python files are read first), and the report says which.",
    )
    entry_program: str | None = Field(
        None,
        description="Where the handout names no file: the student's program (the file whose "
        "main block reads sys.argv; `main.py`/`Main.py` first) is graded as this file.",
    )
    starter_owned: dict[str, list[str]] = Field(
        default_factory=dict,
        description="File -> its top-level blocks that are starter code, never judged as the "
        "student's: a def or class by name, or `__main__` for the `if __name__ == "
        "'__main__':` block.",
    )
    starter_text: dict[str, list[str]] = Field(
        default_factory=dict,
        description="File -> lines of the course's original starter (where it differs from "
        "the bundled template): a rule or style message on such a line never costs a mark.",
    )
    starter_versions: dict[str, list[str]] = Field(
        default_factory=dict,
        description="File -> earlier versions of its starter (paths in "
        "student_templates/<id>/, e.g. a copy patched mid-term): each student's copy is "
        "compared with the version closest to it, the bundled template included, and the "
        "lines of every version are starter text.",
    )
    class_share: float = Field(
        0.6, ge=0, le=1,
        description="Class consensus: a line of a starter file (templates, starter_text, "
        "starter_versions) that no bundled starter or reference has, but at least this share "
        "of the batch's copies has, is taken for starter text, and the index lists it. 0 "
        "turns it off.",
    )
    class_min: int = Field(
        4, ge=2,
        description="Class consensus needs at least this many copies of the file in the batch "
        "(a student graded alone never makes their own lines starter lines).",
    )


    pinned_classes: dict[str, PinnedClass] = Field(
        default_factory=dict,
        description="Submitted file -> the class the handout pins in it, e.g. "
        "`{ name = \"BoardState\", base = \"GameState\" }`. When the file is missing, or "
        "does not define it, and exactly one other handed-in module does (or defines the one "
        "subclass of `base`), that module is graded in its place, with "
        "`penalties.wrong_file_name`. An `[entries]` table with a pinned way and a home way "
        "already declares its class so (the pinned module's file, the home's name and base): "
        "list here only the classes no entry declares.",
    )

    @field_validator("starter_versions")
    @classmethod
    def _relative_versions(cls, versions: dict[str, list[str]]) -> dict[str, list[str]]:
        for file, paths in versions.items():
            for path in paths:
                if not path or path.startswith("/") or "\\" in path:
                    raise ValueError(f"{file}: {path!r} is not a path in student_templates/<id>/")
        return versions


class LockedSpec(Strict):
    files: list[str] = Field(
        default_factory=list,
        description="Files taken from student_templates/<id>/ and copied OVER the submission "
        "(the instructor's copy always wins).",
    )


class LimitsSpec(Strict):
    wall_seconds: float = Field(
        10.0, gt=0, le=600,
        description="Wall-clock limit per program run (and per worker call, unless "
        "call_seconds says otherwise).")
    cpu_seconds: int = Field(10, gt=0, le=600, description="CPU-time limit per call/run.")
    memory_mb: int = Field(512, ge=64, le=8192, description="Address-space limit per process.")
    processes: int = Field(32, ge=4, le=1024, description="Processes the sandbox may run.")
    file_size_mb: int = Field(8, ge=1, le=1024, description="Largest file the code may write.")
    disk_mb: int = Field(
        64, ge=1, le=4096,
        description="Room for new files in the code's working folder (a memory-backed disk).",
    )
    open_files: int = Field(64, ge=16, le=4096, description="Open file descriptors.")
    output_kb: int = Field(256, ge=1, le=65536, description="Captured stdout/stderr kept.")
    call_seconds: float | None = Field(
        None, gt=0, le=600,
        description="Wall-clock limit per call of the student's worker from a grader test "
        "(default: wall_seconds); a short one fails a looping function fast. A test may still "
        "pass its own `timeout=`.",
    )

    def to_limits(self) -> Limits:
        return Limits(**self.model_dump())


class RuleSpec(Strict):
    name: str = Field(description="Registry name of the rule (see `grade rules`).")
    files: list[str] = Field(
        default_factory=list, description="Submitted files to check (default: all of them)."
    )
    options: dict[str, Any] = Field(default_factory=dict, description="The rule's own options.")
    deduction: float = Field(
        0.0, ge=0, description="Points off when the rule is broken (0 = shown as a warning)."
    )
    helpers: bool | None = Field(
        None,
        description="Also check the student's own helper modules when `files` names files "
        "(default: the rule's own choice, see `grade rules`; rules that compare with a "
        "template never check helpers).",
    )
    handout: str = Field(
        "",
        description="The handout sentence this rule enforces, quoted (or the spec line, or "
        "`instructor's choice: <reason>`); shown beside the rule in reports.",
    )

    @field_validator("name")
    @classmethod
    def _known_rule(cls, name: str) -> str:
        try:
            get_rule(name)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        return name

    @model_validator(mode="after")
    def _options_fit_the_rule(self) -> RuleSpec:
        try:
            get_rule(self.name).Options.model_validate(self.options)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()
            )
            raise ValueError(f"options of rule {self.name!r}: {problems}") from None
        return self


class CriterionSpec(Strict):
    id: str = Field(pattern=r"^[a-z0-9_-]+$", description="Short id, used in marks.csv.")
    title: str = Field(description="What the criterion measures, as students read it.")
    points: float = Field(gt=0, description="Points available.")
    tests: list[str] = Field(
        default_factory=list,
        description="fnmatch patterns over grader test function names; each matching test "
        "(each parameter case) is one equal share of the points.",
    )
    rules: list[str] = Field(
        default_factory=list,
        description="Rules that feed this criterion: all points when none is broken, else 0 "
        "(a rule `causes` weighs costs that weight once instead).",
    )
    per_kind: float | None = Field(
        None,
        gt=0,
        description="Proportional criterion: starts at full points and loses this much per "
        "distinct message kind (a rule violation's kind, or a failing test's "
        "details['kinds'] or causes), capped at the points; `causes` may weigh a kind "
        "otherwise. A failing test that names no kind forfeits the criterion.",
    )
    causes: dict[str, float] = Field(
        default_factory=dict,
        description="Kind of difference -> points it costs, ONCE however many cases or tests "
        "show it (a failing case names its kinds: graders/causes.toml, or the pack's own "
        "checks); the loss is capped at the criterion's points. A failing case whose every "
        "kind is weighted here (or by `per_kind`) keeps its share; any other failing case "
        "loses its share as usual. E.g. `causes = { \"extra-line-after\" = 3 }`.",
    )
    free_kinds: list[str] = Field(
        default_factory=list,
        description="Kinds (prefixes) listed but never counted: a proportional criterion's "
        "message kinds (python_ta's newer ones), or a kind of difference another criterion "
        "charges (one flaw, one charge): a failing case whose every kind is free keeps its "
        "share. E.g. `free_kinds = [\"move-order\"]`.",
    )
    handout: str = Field(
        "",
        description="The handout sentence this criterion enforces, quoted (or the spec line, "
        "or `instructor's choice: <reason>`); shown beside the mark in reports.",
    )

    def is_free(self, kind: str) -> bool:
        """Whether message kind ``kind`` is listed but never counted (``free_kinds``)."""
        return any(kind.startswith(prefix) for prefix in self.free_kinds)

    def lists_only(self, details: Mapping[str, Any]) -> bool:
        """Whether a failed test's ``details`` name message kinds, all of them free: a
        proportional criterion takes nothing for them, so the test earned its points."""
        kinds = details.get("kinds") if details.get("kind") == "kinds" else None
        return (self.per_kind is not None and isinstance(kinds, dict) and bool(kinds)
                and all(self.is_free(str(kind)) for kind in kinds))

    @field_validator("causes")
    @classmethod
    def _positive_weights(cls, causes: dict[str, float]) -> dict[str, float]:
        bad = {kind: weight for kind, weight in causes.items() if not weight > 0}
        if bad:
            raise ValueError(f"a cause's weight must be more than 0 points, got {bad}")
        return causes


class PenaltiesSpec(Strict):
    wrong_file_name: float = Field(
        0.0, ge=0, description="Points off when a file was found under a wrong name."
    )
    not_utf8: float = Field(0.0, ge=0, description="Points off for a file not saved as UTF-8.")
    extra_files: float = Field(
        0.0, ge=0, description="Points off (once) for extra .py files, when "
        "`submission.extra_files` is `forbid`."
    )


class LateSpec(Strict):
    due: datetime | None = Field(None, description="Due date-time (ISO 8601, with offset).")
    percent_per_hour: float = Field(
        0.0, ge=0, le=100, description="Per cent of the mark lost per started hour late."
    )


class CourseSpec(Strict):
    timezone: str | None = Field(
        None, description="The course's time zone (e.g. America/Toronto): LMS export times "
        "written without a zone (Moodle, Brightspace) are read in it; `--timezone` wins."
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        if value is not None:
            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError):
                raise ValueError(f"unknown time zone {value!r}") from None
        return value


Visibility = Literal["visible", "after_due", "hidden"]


class GraderTestsSpec(Strict):
    visibility: dict[str, Visibility] = Field(
        default_factory=dict,
        description="fnmatch pattern over grader test function names -> what students see of "
        "such a test in their feedback (`visible`: in full; `after_due`: in full once the due "
        "date has passed; `hidden`: its name and pass/fail only). The first matching pattern "
        "wins; a test no pattern matches is visible when marked `@pytest.mark.public`, else "
        "hidden.",
    )
