"""The schema of ``graders/packs/<id>/assignment.toml``: every key documents itself.

The tables are :mod:`graders.specs` and :mod:`graders.pack_specs`; this module puts them
together and loads a file.

``grade explain`` prints these descriptions; :func:`load_declaration` turns any validation
problem into a :class:`DeclarationError` naming the file, the key and the bad value.
"""

from __future__ import annotations

import tomllib
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, model_validator

from graders.errors import DeclarationError
from graders.pack_specs import (
    ENVIRONMENT_PREFIX,
    EntrySpec,
    EnvironmentSpec,
    GoldenSpec,
    KitSpec,
    PythonTaSpec,
    SelfcheckSpec,
    SettingSpec,
    ToolSpec,
)
from graders.rules import get_rule
from graders.specs import (
    CourseSpec,
    CriterionSpec,
    GraderTestsSpec,
    LateSpec,
    LimitsSpec,
    LockedSpec,
    PenaltiesSpec,
    PinnedClass,
    RuleSpec,
    Strict,
    SubmissionSpec,
)


class Declaration(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="The assignment id (folder names).")
    title: str = Field(description="Human title shown in reports.")
    submission: SubmissionSpec
    locked: LockedSpec = Field(default_factory=LockedSpec)
    limits: LimitsSpec = Field(default_factory=LimitsSpec)
    settings: dict[str, SettingSpec] = Field(
        default_factory=dict,
        description="The pack's own settings, one table each (`[settings.NAME]`), read by its "
        "tests as `pack.settings[NAME]`; typed and checked when the declaration loads.",
    )
    entries: dict[str, EntrySpec] = Field(
        default_factory=dict,
        description="What the pack's driver asks for by name (`entry(\"NAME\")`, resolved in "
        "the sandbox by graders/sandbox/harness_entries.py), one table each "
        "(`[entries.NAME]`): the ways to reach it in the student's work, tried in order.",
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
    python_ta: PythonTaSpec = Field(default_factory=PythonTaSpec)
    selfcheck: SelfcheckSpec = Field(default_factory=SelfcheckSpec)
    kit: KitSpec = Field(default_factory=KitSpec)
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
        known = {*self.submission.files, *self.submission.optional, *self.locked.files}
        for name, entry in self.entries.items():
            if entry.files() - known:
                raise ValueError(f"entries.{name} names files the submission neither hands in "
                                 f"nor locks: {sorted(entry.files() - known)}")
        for rule in self.rules:
            self.rule_options(rule)  # an `[entries]` table a rule reads exists and fits it
        declared = {rule.name for rule in self.rules}
        for criterion in self.criteria:
            missing = set(criterion.rules) - declared
            if missing:
                raise ValueError(f"criterion {criterion.id!r} names undeclared rules {missing}")
        return self

    def rule_options(self, rule: RuleSpec) -> dict[str, Any]:
        """``rule``'s options, with what they read from the ``[entries]`` table filled in
        (``entry-name``'s ``entry = "NAME"``: the menu and names the entry declares)."""
        return get_rule(rule.name).with_entries(rule.options, self.entries)

    @property
    def pinned_classes(self) -> dict[str, PinnedClass]:
        """Submitted file -> the class the handout pins in it: ``[submission] pinned_classes``
        and each entry with a pinned way and a home way (its module's file, the home's class
        and base), so the class is declared once for the driver and the intake alike."""
        found = {}
        for entry in self.entries.values():
            if (home := entry.home_of()) is not None:
                found[home[0]] = PinnedClass(name=home[1].home, base=home[1].base)
        return {**found, **self.submission.pinned_classes}

    @property
    def setting_values(self) -> dict[str, Any]:
        """Each setting's value by name (what ``pack.settings`` gives the pack's tests)."""
        return {name: spec.value for name, spec in self.settings.items()}

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


def _item_model(annotation: Any, container: type) -> type[BaseModel] | None:
    """``Model`` for a ``list[Model]`` (or ``dict[str, Model]``) annotation, else None."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is container and args and isinstance(args[-1], type):
        return args[-1] if issubclass(args[-1], BaseModel) else None
    return None


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models a (possibly annotated, union) annotation allows, e.g. each kind of way."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in typing.get_args(annotation) for model in _models_in(arg)]


def describe_keys(model: type[BaseModel] = Declaration, prefix: str = "") -> list[str]:
    """One line per key, with its description: the declaration documents itself."""
    lines = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        key = f"{prefix}{name}"
        item = _item_model(annotation, list)
        table = _item_model(annotation, dict)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            lines.append(f"[{key}]")
            lines += describe_keys(annotation, f"{key}.")
        elif item is not None:
            lines.append(f"[[{key}]]: {field.description or 'a list of tables'}")
            lines += describe_keys(item, f"{key}[].")
        elif table is not None:
            lines.append(f"[{key}.NAME]: {field.description or 'a table per name'}")
            lines += describe_keys(table, f"{key}.NAME.")
        elif typing.get_origin(annotation) is list and _models_in(annotation):
            lines.append(f"{key}: {field.description or 'a list of tables of several kinds'}")
            for kind in _models_in(annotation):
                lines += describe_keys(kind, f"{key}[].")
        else:
            lines.append(f"{key}: {field.description or ''}".rstrip(": "))
    return lines
