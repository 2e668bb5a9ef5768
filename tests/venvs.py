"""Fresh virtual environments for the suite, installed from the install step's wheelhouse."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from graders.pack import project_root


def wheelhouse() -> Path:
    """The wheels ``scripts/install.sh`` gathered (``$GRADERS_WHEELHOUSE``, else
    ``.wheelhouse/``): the fresh environments of the tests install from there alone."""
    folder = Path(os.environ.get("GRADERS_WHEELHOUSE") or project_root() / ".wheelhouse")
    if not any(folder.glob("*.whl")):
        pytest.fail(f"no wheelhouse at {folder}: run scripts/install.sh first")
    return folder


def fresh_venv(folder: Path, install: list[str]) -> Path:
    """A new virtual environment holding only what ``pip install *install`` gives from the
    wheelhouse (and pip); its python."""
    # With pip of its own (and, on Python 3.11, setuptools): what `python3 -m venv` makes a
    # student, which a linter's import checks see. Installing with this process's pip into a
    # venv without one saved about 3.5 s of processor time per venv; not worth the difference.
    venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-index", "--find-links",
                    str(wheelhouse()), *install], check=True, timeout=600, capture_output=True)
    return python
