"""The tables of ``assignment.toml`` for what a pack brings beyond its marking: its tools and
environment, golden runs, own settings, style tool, self-check and kit choices.

Every per-pack choice is a key here, so the engine never names a pack.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, field_validator, model_validator

from graders.specs import Strict


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
        "pip lines of the package that is that module (a course's own pep8.py: `pep8==1.7.1`). "
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


class GoldenRunSpec(Strict):
    argv: list[str] = Field(
        min_length=1, description="A command run in the reference workspace, in the sandbox, "
        "e.g. [\"python3\", \"play.py\"].")
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


SettingValue = bool | int | float | str
SETTING_TYPES: dict[str, tuple[type, ...]] = {
    "flag": (bool,), "integer": (int,), "number": (int, float), "text": (str,),
}


class SettingSpec(Strict):
    type: Literal["flag", "integer", "number", "text"] = Field(
        description="What the value is: `flag` (true/false), `integer`, `number` or `text`.")
    value: Any = Field(description="The setting's value, read by the pack's tests as "
                                "`pack.settings[NAME]`.")
    description: str = Field(min_length=1, description="What the setting changes.")
    choices: list[SettingValue] = Field(
        default_factory=list, description="The values allowed (default: any of its type).")
    minimum: float | None = Field(None, description="Smallest value allowed (numbers).")
    maximum: float | None = Field(None, description="Largest value allowed (numbers).")

    @model_validator(mode="after")
    def _value_fits(self) -> SettingSpec:
        value = self.value
        if not isinstance(value, SETTING_TYPES[self.type]) or (
                self.type != "flag" and isinstance(value, bool)):
            raise ValueError(f"value {value!r} is not of type {self.type}")
        if self.choices and value not in self.choices:
            raise ValueError(f"value {value!r} is not one of {self.choices}")
        if not isinstance(value, int | float) or isinstance(value, bool):
            return self
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"value {value!r} is below the minimum {self.minimum:g}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"value {value!r} is above the maximum {self.maximum:g}")
        return self


class PythonTaSpec(Strict):
    config: str = Field(
        "", description="The course's python_ta config file (a locked file), for a style "
        "criterion (graders/style/assessed.py); empty: the pack assesses no style.")
    files: list[str] = Field(
        default_factory=list, description="Handed-in files python_ta assesses (the student's "
        "helper modules too).")


class SelfcheckSpec(Strict):
    samples: int = Field(
        12, ge=1, description="Sample submissions with an expected.json `grade selfcheck` "
        "asks of the pack (whole programs or one framework class come in fewer shapes).")


class KitSpec(Strict):
    shipped: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Hidden helper module of the pack (an oracle or generator, which a kit "
        "otherwise answers from recordings) -> the functions of it the public tests apply to "
        "the student's own output, which the kit ships, e.g. `{ oracle = [\"tokens\"] }`.")


IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
DOTTED = rf"^{IDENTIFIER}(\.{IDENTIFIER})*\.{IDENTIFIER}$"
PY_FILE = rf"^{IDENTIFIER}\.py$"


class PinnedWay(Strict):
    pinned: str = Field(pattern=DOTTED, description="`module.Name`: the attribute, importing "
                        "the student's module (its own import error is theirs to see).")
    written: bool = Field(False, description="Pass over the starter's unwritten stub (every "
                          "method raises NotImplementedError), keeping it as the last resort.")
    base: str = Field("", pattern=rf"^({DOTTED[1:-1]})?$", description="`module.Base`: when "
                      "the attribute is missing, the reason names the module's own subclasses "
                      "of it.")


class MenuWay(Strict):
    menu: str = Field(pattern=PY_FILE, description="The interface file whose menu names it "
                      "(read with ast, never run, unless `run`).")
    mapping: str = Field(pattern=rf"^{IDENTIFIER}$", description="The menu: a dict of it.")
    key: str = Field(description="The menu's key for it.")
    run: bool = Field(False, description="Import the file and index its mapping first, as the "
                      "course's tests do; read it only when that fails.")
    passed_to: str = Field("", description="A callable whose argument `position` is indexed "
                           "in a dict that is a menu too (a dict under another name).")
    position: int = Field(0, ge=0, description="See `passed_to`.")


class HomeWay(Strict):
    home: str = Field(pattern=rf"^{IDENTIFIER}$", description="The one handed-in module "
                      "defining a written class of this name, read with ast, gives it.")
    base: str = Field("", description="Else the one class deriving from this base.")
    skip: list[str] = Field(default_factory=list, description="Modules never searched (the "
                            "starter's own).")


def _way_kind(way: Any) -> str | None:
    keys = way if isinstance(way, dict) else vars(way)
    return next((kind for kind in ("pinned", "menu", "home") if kind in keys), None)


Way = Annotated[
    Annotated[PinnedWay, Tag("pinned")] | Annotated[MenuWay, Tag("menu")]
    | Annotated[HomeWay, Tag("home")],
    Discriminator(_way_kind, custom_error_type="entry_way", custom_error_message=(
        "a way must say how: `pinned`, `menu` or `home`")),
]


class EntrySpec(Strict):
    what: str = Field(min_length=1, description="What it is, as the not-found message says "
                      "it (`the game state class`).")
    kind: Literal["any", "class"] = Field("any", description="`class`: a found object that "
                                          "is not a class is passed over, with a reason.")
    ways: list[Way] = Field(min_length=1, description="How to reach it, tried in order: "
                            "`{ pinned = ... }`, `{ menu = ..., mapping = ..., key = ... }`, "
                            "`{ home = ..., base = ... }`.")
    handout: str = Field("", description="The handout sentence that names it, quoted in the "
                         "not-found message.")

    def menu(self) -> MenuWay | None:
        """Its first menu way (what the course's tests index), if any."""
        return next((way for way in self.ways if isinstance(way, MenuWay)), None)

    def names(self) -> list[str]:
        """The names the handout pins for it: each pinned attribute's and home class's."""
        names = [way.pinned.rsplit(".", 1)[1] if isinstance(way, PinnedWay) else way.home
                 for way in self.ways if isinstance(way, PinnedWay | HomeWay)]
        return list(dict.fromkeys(names))

    def home_of(self) -> tuple[str, HomeWay] | None:
        """(its pinned module's file, its home way) when it has both: the file that must hold
        the class, and how to find the class elsewhere (`[submission] pinned_classes`)."""
        pinned = next((way for way in self.ways if isinstance(way, PinnedWay)), None)
        home = next((way for way in self.ways if isinstance(way, HomeWay)), None)
        if pinned is None or home is None:
            return None
        return f"{pinned.pinned.rsplit('.', 1)[0]}.py", home

    def files(self) -> set[str]:
        """The workspace files its ways name (a pinned module, a menu, a base's module)."""
        named = set()
        for way in self.ways:
            if isinstance(way, MenuWay):
                named.add(way.menu)
            elif isinstance(way, PinnedWay):
                named |= {f"{dotted.rsplit('.', 1)[0]}.py" for dotted in (way.pinned, way.base)
                          if dotted}
        return named
