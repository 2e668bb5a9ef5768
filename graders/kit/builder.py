"""`grade kit ID`: the zip an instructor posts for students.

It holds the starter and locked files as students get them, the public golden files and
examples (everything in ``student_templates/<id>/``), README.txt, requirements.txt (public
packages only, pinned to the versions the instructor's run uses) and the pre-check: the
public tests and the engine code they need, generated from the engine by
:mod:`graders.kit.vendor`, with answers of hidden helpers recorded by
:mod:`graders.kit.record`.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import zipfile
from fnmatch import fnmatch
from importlib import metadata
from pathlib import Path

from graders import PACKAGE_DIR
from graders.errors import GraderError
from graders.kit import record
from graders.kit.collect import collect
from graders.kit.readme import readme_text
from graders.kit.scan import hidden_material, kit_texts, leaks
from graders.kit.slicer import KIT
from graders.kit.vendor import vendor
from graders.pack import Pack
from graders.sandbox import HARNESS_MODULES, harness_entries
from graders.style.python_ta import RUNNER

RUNTIME = Path(__file__).with_name("runtime")
SANDBOX = Path(__file__).resolve().parent.parent / "sandbox"
# The harness folder of the kit: the engine's worker loop and the plain launcher's child side.
HARNESS_LOOPS = (SANDBOX / "child.py", SANDBOX / "plain_child.py")
BASE_PACKAGES = ["pytest", "hypothesis", "deepdiff", "pydantic"]
PYTEST_INI = """[pytest]
addopts = --strict-markers -p no:cacheprovider -p no:randomly
python_files = test_*.py
testpaths = {tests}
"""


def own_packages(pack: Pack) -> list[str]:
    """What the pre-check's own code imports (a pep8 rule runs pycodestyle in-process)."""
    pep8 = any(rule.name == "pep8" for rule in pack.declaration.rules)
    return [*BASE_PACKAGES, *(["pycodestyle"] if pep8 else [])]


def requirements(pack: Pack) -> list[str]:
    """Public packages, pinned as the instructor's run has them (the pack's tools and its
    ``[environment]`` too); never the harness."""
    names = own_packages(pack)
    pins = [f"{name}=={metadata.version(name)}" for name in names]
    for tool in pack.declaration.tools:
        pins += [r for r in tool.requirements if r.split("==")[0] not in names]
    # what student code may import, as the instructor's sandbox has it ([environment])
    pins += [r for r in pack.declaration.environment.requirements if r not in pins]
    return pins


def manifest(pack: Pack, shares: dict[str, float]) -> dict:
    """What the pre-check reads: the declaration (public parts) and the points per case."""
    data = pack.declaration.model_dump(mode="json")
    for criterion in data["criteria"]:  # hidden test names stay with the instructor
        criterion["tests"] = sorted(t for t in shares if any(
            fnmatch(t, pattern) for pattern in criterion["tests"]))
    data["tests"] = {"visibility": {}}
    data["golden"] = [g for g in data["golden"] if g["public"]]  # hidden runs stay too
    return {
        "id": pack.id,
        "title": pack.title,
        "declaration": data,
        "shares": shares,
        "python": list(sys.version_info[:2]),  # the grader's: the pre-check warns a newer one
        "needs": own_packages(pack),  # checked before the pre-check imports them
        "rules": [{"name": r.name, "title": _title(r.name), "deduction": r.deduction}
                  for r in pack.declaration.rules],
    }


def _title(rule: str) -> str:
    from graders.checks import title_of  # noqa: PLC0415 - the engine's titles

    return title_of(rule)


def shipped(pack: Pack) -> dict[str, set[str]]:
    """The pack's ``[kit] shipped`` by engine module: the hidden helpers' functions the kit
    runs on the student's own output."""
    return {f"graders.packs.{pack.id}.{stem}": set(names)
            for stem, names in pack.declaration.kit.shipped.items()}


def write_tree(pack: Pack, target: Path) -> tuple[Path, dict[str, set[str]]]:
    """The unzipped kit in ``target/<id>-kit``, before answers are recorded."""
    kit = target / f"{pack.id}-kit"
    shutil.copytree(pack.templates_dir, kit, ignore=shutil.ignore_patterns(
        "__pycache__", "precheck.py"))
    found = collect(pack)
    tests = {f"graders.packs.{pack.id}.{stem}": names for stem, names in found.public.items()}
    vendored = vendor(tests, {rule.name for rule in pack.declaration.rules}, shipped(pack))
    for path, text in vendored.files.items():
        _write(kit / path, text)
    private = kit / KIT
    _write(private / "__init__.py", (RUNTIME / "__init__.py").read_text("utf-8"))
    for name, where in [("sandbox.py", "sandbox/__init__.py"), ("tools.py", "tools.py"),
                        ("kit_stub.py", "kit_stub.py"), ("main.py", "main.py")]:
        _write(private / where, (RUNTIME / name).read_text("utf-8"))
    for module in (*HARNESS_LOOPS, *HARNESS_MODULES):
        _write(private / "harness" / module.name, module.read_text("utf-8"))
    if (private / "style" / "answers.py").is_file():  # its answers' key reads the runner
        _write(private / "style" / RUNNER, (PACKAGE_DIR / "style" / RUNNER).read_text("utf-8"))
    if pack.driver.is_file():
        _write(private / "harness" / "grader_driver.py", pack.driver.read_text("utf-8"))
    for helper in sorted(pack.dir.glob("driver_*.py")):
        _write(private / "harness" / helper.name, helper.read_text("utf-8"))
    _write(private / "harness" / harness_entries.TABLE_FILE,
           harness_entries.table_json(pack.dir / "assignment.toml"))
    shutil.copytree(pack.templates_dir, private / "student_templates" / pack.id,
                    ignore=shutil.ignore_patterns("__pycache__", "precheck.py"))
    for folder in [private / "packs" / pack.id, *(private / "sandbox").parents]:
        if folder.is_relative_to(private) and not (folder / "__init__.py").exists():
            (folder / "__init__.py").touch()
    _write(private / "kit.json", json.dumps(manifest(pack, found.shares), indent=1))
    tests_dir = f"{KIT}/packs/{pack.id}"
    _write(kit / "pytest.ini", PYTEST_INI.format(tests=tests_dir))
    _write(kit / "conftest.py", (RUNTIME / "conftest_kit.py").read_text("utf-8"))
    _write(kit / "precheck.py", (RUNTIME / "precheck_entry.py").read_text("utf-8").replace(
        "PACK_ID", pack.id))
    _write(kit / "requirements.txt", "\n".join(requirements(pack)) + "\n")
    _write(kit / "README.txt", readme_text(pack, sorted(
        name for names in found.public.values() for name in names)))
    return kit, found.public


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def build_kit(pack: Pack, out: Path) -> Path:
    """Write ``out/<id>-kit.zip`` and return its path."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kit-build-") as scratch:
        kit, public = write_tree(pack, Path(scratch))
        record.record(pack, kit)
        target = out / f"{pack.id}-kit.zip"
        partial = target.with_suffix(".zip.part")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(kit.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    archive.write(path, path.relative_to(kit.parent).as_posix())
        found = leaks(kit_texts(partial), hidden_material(pack, public))
        if found:
            partial.unlink()
            raise GraderError(f"the kit of {pack.id} would hold hidden material (not written):"
                              "\n  " + "\n  ".join(found[:20]))
        partial.replace(target)
    return target
