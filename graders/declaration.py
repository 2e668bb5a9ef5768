"""The schema of ``graders/packs/<id>/assignment.toml``: every key documents itself.

``grade explain`` prints these descriptions; :func:`load_declaration` turns any validation
problem into a :class:`DeclarationError` naming the file, the key and the bad value.
"""

from __future__ import annotations

import re
import tomllib
import typing
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from graders.errors import DeclarationError
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
        "`{ name = \"TippyGameState\", base = \"GameState\" }`. When the file is missing, or "
        "does not define it, and exactly one other handed-in module does (or defines the one "
        "subclass of `base`), that module is graded in its place, with "
        "`penalties.wrong_file_name`.",
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
        description="Rules that feed this criterion: all points when none is broken, else 0.",
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
        description="Message kinds (prefixes) a proportional criterion lists but never counts.",
    )
    handout: str = Field(
        "",
        description="The handout sentence this criterion enforces, quoted (or the spec line, "
        "or `instructor's choice: <reason>`); shown beside the mark in reports.",
    )


    @field_validator("causes")
    @classmethod
    def _positive_weights(cls, causes: dict[str, float]) -> dict[str, float]:
        bad = {kind: weight for kind, weight in causes.items() if not weight > 0}
        if bad:
            raise ValueError(f"a cause's weight must be more than 0 points, got {bad}")
        return causes


class ToolSpec(Strict):
    name: str = Field(
        pattern=r"^[a-z][a-z0-9_]*$",
        description="Tool id: `grade setup` builds its own virtual environment in "
        ".tools/<name>, mounted read-only at /tools/<name> in the sandbox.",
    )
    requirements: list[str] = Field(
        min_length=1,
        description="pip requirements of the environment; pin exact versions, since marks "
        "depend on what the tool reports.",
    )
    wall_seconds: float = Field(
        120.0, gt=0, le=1800, description="Wall-clock (and CPU) limit of one run of the tool."
    )
    memory_mb: int = Field(2048, ge=64, le=16384, description="Address-space limit of a run.")


PINNED = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?==[A-Za-z0-9.+!_-]+$")
ENVIRONMENT_PREFIX = "env_"  # the environment's tool name is env_<id>; no [[tools]] may take it


class EnvironmentSpec(Strict):
    course: list[str] = Field(
        default_factory=list,
        description="Modules the course gave students to keep beside their files, as pinned "
        "pip lines of the package that is that module (tippy's pep8.py: `pep8==1.7.1`). "
        "Student code imports them as the handout says; a file of the same name handed in "
        "wins.",
    )
    packages: list[str] = Field(
        default_factory=list,
        description="Public packages student code may import, pinned pip lines "
        "(`sympy==1.14.0`; pin their dependencies too). With `course`, `grade setup` builds "
        "them once per pack into .tools/env_<id>, which the sandbox mounts read-only as the "
        "interpreter of student code; the kit's requirements.txt lists them.",
    )
    handout: str = Field(
        "",
        description="The handout sentence that has students import these (or `instructor's "
        "choice: <reason>`).",
    )

    @field_validator("course", "packages")
    @classmethod
    def _pinned(cls, lines: list[str]) -> list[str]:
        loose = [line for line in lines if not PINNED.match(line.strip())]
        if loose:
            raise ValueError(f"pin each package exactly (`name==version`), got {loose}")
        return [line.strip() for line in lines]

    @property
    def requirements(self) -> list[str]:
        """Every pip line of the environment: the course's modules, then the packages."""
        return [*self.course, *self.packages]


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


class GoldenRunSpec(Strict):
    argv: list[str] = Field(
        min_length=1, description="A command run in the reference workspace, in the sandbox, "
        "e.g. [\"python3\", \"altNim.py\"].")
    stdin: str = Field("", description="What is typed into it.")
    inputs: list[str] = Field(
        default_factory=list,
        description="Hidden files of fixtures/<id>/inputs/ this run also sees.")


class GoldenSpec(Strict):
    name: str = Field(description="The golden file's name: the joined stdout of its runs.")
    public: bool = Field(
        False, description="true: the handout gives it to students (student_templates/<id>/); "
        "false: hidden (fixtures/<id>/golden/).")
    joiner: str = Field("", description="Put between the outputs of the runs.")
    runs: list[GoldenRunSpec] = Field(min_length=1, description="The runs, in order.")


class Declaration(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="The assignment id (folder names).")
    title: str = Field(description="Human title shown in reports.")
    submission: SubmissionSpec
    locked: LockedSpec = Field(default_factory=LockedSpec)
    limits: LimitsSpec = Field(default_factory=LimitsSpec)
    settings: dict[str, Any] = Field(
        default_factory=dict, description="Free-form settings read by the pack's tests."
    )
    rules: list[RuleSpec] = Field(
        default_factory=list, description="Rule checks on the submitted sources (`grade rules`)."
    )
    tools: list[ToolSpec] = Field(
        default_factory=list,
        description="Third-party Python tools (python_ta, ...) the pack's tests run on "
        "submissions in the sandbox, each in an environment of its own.",
    )
    environment: EnvironmentSpec = Field(
        default_factory=EnvironmentSpec,
        description="What student code may import beyond the standard library and its own "
        "files: the course's modules and the allowed public packages.",
    )
    criteria: list[CriterionSpec] = Field(
        min_length=1, description="What the marks are for; the points add up to the total."
    )
    penalties: PenaltiesSpec = Field(default_factory=PenaltiesSpec)
    late: LateSpec = Field(default_factory=LateSpec)
    course: CourseSpec = Field(default_factory=CourseSpec)
    tests: GraderTestsSpec = Field(default_factory=GraderTestsSpec)
    golden: list[GoldenSpec] = Field(
        default_factory=list,
        description="Golden files `grade golden` makes from the reference (a pack's golden.py "
        "adds those data cannot say).",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Declaration:
        ids = [criterion.id for criterion in self.criteria]
        if len(ids) != len(set(ids)):
            raise ValueError(f"criteria ids must be unique, got {ids}")
        names = [tool.name for tool in self.tools]
        if len(names) != len(set(names)):
            raise ValueError(f"tool names must be unique, got {names}")
        if any(name.startswith(ENVIRONMENT_PREFIX) for name in names):
            raise ValueError(f"tool names starting with {ENVIRONMENT_PREFIX!r} are the "
                             f"[environment]'s, got {names}")
        golden = [spec.name for spec in self.golden]
        if len(golden) != len(set(golden)):
            raise ValueError(f"golden file names must be unique, got {golden}")
        declared = {rule.name for rule in self.rules}
        for criterion in self.criteria:
            missing = set(criterion.rules) - declared
            if missing:
                raise ValueError(f"criterion {criterion.id!r} names undeclared rules {missing}")
        return self

    @property
    def max_points(self) -> float:
        return sum(criterion.points for criterion in self.criteria)

    def golden_spec(self, name: str) -> GoldenSpec:
        """The declared golden file ``name`` (a grader test replays its runs on a student)."""
        for spec in self.golden:
            if spec.name == name:
                return spec
        raise KeyError(f"no [[golden]] named {name!r} in the declaration")


def load_declaration(path: Path) -> Declaration:
    """Read and validate one declaration; errors name the file, key and bad value."""
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DeclarationError(f"{path}: not valid TOML: {exc}") from None
    try:
        return Declaration.model_validate(data)
    except ValidationError as exc:
        raise DeclarationError(_explain(path, exc)) from None


def _explain(path: Path, exc: ValidationError) -> str:
    lines = [f"{path}: {exc.error_count()} problem(s) in the assignment declaration"]
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"]) or "(top level)"
        value = error.get("input")
        shown = repr(value) if not isinstance(value, dict) else "{...}"
        lines.append(f"  key `{key}`: {error['msg']} (got {shown[:120]})")
    return "\n".join(lines)


def _list_item_model(annotation: Any) -> type[BaseModel] | None:
    """``Model`` for a ``list[Model]`` annotation, else None."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is list and args and isinstance(args[0], type):
        return args[0] if issubclass(args[0], BaseModel) else None
    return None


def describe_keys(model: type[BaseModel] = Declaration, prefix: str = "") -> list[str]:
    """One line per key, with its description: the declaration documents itself."""
    lines = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        key = f"{prefix}{name}"
        item = _list_item_model(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            lines.append(f"[{key}]")
            lines += describe_keys(annotation, f"{key}.")
        elif item is not None:
            lines.append(f"[[{key}]]: {field.description or 'a list of tables'}")
            lines += describe_keys(item, f"{key}[].")
        else:
            lines.append(f"{key}: {field.description or ''}".rstrip(": "))
    return lines
