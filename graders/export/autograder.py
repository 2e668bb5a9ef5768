"""``grade gradescope ID --out DIR``: the autograder zip Gradescope takes, running this pack.

The zip holds ``setup.sh`` and ``run_autograder`` at its root, the harness (``graders/``, with
only this assignment's pack), the assignment's trees (starter kit, reference solution, golden
files and inputs; never the sample submissions) and ``pyproject.toml``. Gradescope unpacks it
to ``/autograder/source`` and runs ``setup.sh`` once (a virtual environment with the harness,
bubblewrap when the image allows it, and the pack's tools); for each submission it runs
``run_autograder``, which grades ``/autograder/submission`` with
:mod:`graders.gradescope_run` and writes ``/autograder/results/results.json``.
``GRADESCOPE_ROOT`` moves ``/autograder`` (tests run it against a fake tree), ``GRADER_PYTHON``
picks the interpreter.
"""

from __future__ import annotations

import io
import stat
import zipfile
from collections.abc import Iterator
from pathlib import Path

from graders import PACKAGE_DIR
from graders.pack import PACKS_DIR, Pack

SETUP = """#!/usr/bin/env bash
# Built by `grade gradescope {id}`: runs once while Gradescope builds the image.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y python3 python3-venv python3-pip python3-tk
apt-get install -y bubblewrap || echo "no bubblewrap: the container is the isolation"
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install --no-cache-dir /autograder/source
GRADERS_ROOT=/autograder/source /autograder/venv/bin/grade setup {id} || true
"""

RUN = """#!/usr/bin/env bash
# Built by `grade gradescope {id}`: grades /autograder/submission into results/results.json.
set -eu
ROOT="${{GRADESCOPE_ROOT:-/autograder}}"
PY="${{GRADER_PYTHON:-$ROOT/venv/bin/python}}"
mkdir -p "$ROOT/results"
cd "$ROOT/source"
export GRADERS_ROOT="$ROOT/source"
export PYTHONPATH="$ROOT/source${{PYTHONPATH:+:$PYTHONPATH}}"
exec "$PY" -m graders.gradescope_run {id} "$ROOT"
"""


def bundle_files(pack: Pack) -> Iterator[tuple[str, Path]]:
    """``(name in the zip, file)`` for the harness and the assignment's trees."""
    for path in sorted(PACKAGE_DIR.rglob("*")):
        relative = path.relative_to(PACKAGE_DIR.parent)
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        if PACKS_DIR in path.parents and pack.dir not in path.parents and path.parent != PACKS_DIR:
            continue  # other assignments' packs stay home
        yield relative.as_posix(), path
    pyproject = PACKAGE_DIR.parent / "pyproject.toml"
    if pyproject.is_file():
        yield "pyproject.toml", pyproject
    for tree in (pack.templates_dir, pack.reference_dir, pack.fixtures_dir):
        for path in sorted(tree.rglob("*")):
            relative = path.relative_to(pack.root)
            if path.is_file() and "submissions" not in relative.parts[2:3] \
                    and "__pycache__" not in path.parts:
                yield relative.as_posix(), path


def build_bundle(pack: Pack, out_dir: Path) -> Path:
    """Write ``<out_dir>/<id>-gradescope.zip`` and return its path."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in (("setup.sh", SETUP), ("run_autograder", RUN)):
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFREG | 0o755) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.format(id=pack.id))
        for name, path in bundle_files(pack):
            archive.write(path, name)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{pack.id}-gradescope.zip"
    temp = target.with_name(f".{target.name}.tmp")
    temp.write_bytes(buffer.getvalue())
    temp.replace(target)
    return target
