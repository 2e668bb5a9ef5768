"""Check your work before you upload it: run `python3 precheck.py` in this folder.

It runs the assignment's rule checks and public tests on the files in this folder, with the
same verdict, messages and points the instructor's grader gives for those parts
(`python3 precheck.py FOLDER` checks the files in another folder). See README.txt.
Exit status 0: everything public passes; 1: something to fix; 2: the command line named no
file or folder there is.
"""

import os
import sys

# The pre-check's own code needs this (tomllib, StrEnum), whatever your code needs. Said before
# anything else is imported, in a form any Python 3.6 or newer can run.
MINIMUM = (3, 11)
if sys.version_info[:2] < MINIMUM:
    sys.exit(f"The pre-check needs Python {MINIMUM[0]}.{MINIMUM[1]} or newer; this is Python "
             f"{sys.version.split()[0]} ({sys.executable}).\nInstall a newer Python "
             "(python.org), make the .venv with it and install the requirements again (see\n"
             "README.txt), then run the pre-check with that Python.")

import json  # noqa: E402 - after the version check
from importlib import metadata  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import NoReturn  # noqa: E402

HERE = Path(__file__).resolve().parent
INSTALL = ("run\n    python3 -m pip install -r requirements.txt\nin this folder (see README.txt), "
           "then run the pre-check again.")


def _missing_packages() -> list[str]:
    """The packages the pre-check's own code imports (kit.json's ``needs``) that this Python
    does not have: a half-finished install, or the pre-check run with another Python than the
    one they were installed in. One pinned at another version is named, not refused. A style
    tool's packages, and those the course lets your code import, are checked where used."""
    manifest = json.loads((HERE / "_precheck" / "kit.json").read_text(encoding="utf-8"))
    pins = dict(line.split("#")[0].strip().partition("==")[::2] for line in
                (HERE / "requirements.txt").read_text(encoding="utf-8").splitlines())
    missing = []
    for name in manifest.get("needs", []):
        try:
            found = metadata.version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
            continue
        if pins.get(name) and found != pins[name]:
            print(f"Note: requirements.txt pins {name} {pins[name]}; this Python has {found}. "
                  "The verdict may differ from the instructor's: " + INSTALL.replace("\n", " "))
    return missing


def _folder(args: list[str]) -> Path | None:
    """The folder (or .zip) named on the command line, None for this folder; exits with
    the usage for anything else."""
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0)
    usage = ("Usage: python3 precheck.py [FOLDER or ZIP]: the pre-check of the files in this "
             "folder, or in the one folder or .zip named.")
    if len(args) > 1:
        _usage(f"{usage}\nIt was given {len(args)} paths: name one (a path with spaces goes "
               "in quotes).")
    if not args:
        return None
    named = Path(args[0]).expanduser()
    if not named.exists():
        _usage(f"There is no file or folder {args[0]!r} (looked for {named.resolve()}).\n"
               f"{usage}")
    return named.resolve()


def _usage(text: str) -> NoReturn:
    print(text, file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    FOLDER = _folder(sys.argv[1:])
    MISSING = _missing_packages()
    if MISSING:
        sys.exit(f"The pre-check needs {', '.join(MISSING)}, not installed for this Python "
                 f"({sys.executable}): {INSTALL}")

try:
    # Hypothesis before pytest starts: as a pytest plugin's package it would otherwise be
    # rewritten for pytest's assert messages (about 70 modules, half a second a run), for
    # asserts no check reads.
    import hypothesis  # noqa: F401
    import pytest
except ImportError:
    sys.exit("The pre-check needs pytest and a few other packages: " + INSTALL)

TESTS = HERE / "_precheck" / "packs" / "PACK_ID"

if __name__ == "__main__":
    if FOLDER is not None:  # another folder holding your files
        os.environ["PRECHECK_FOLDER"] = str(FOLDER)
    # As in the grader's sessions: no pytest setting of your shell (PYTEST_ADDOPTS, ...) and
    # no plugin installed beside pytest changes the verdict; a conftest.py in a folder above
    # the kit never joins it. The kit's tests need Hypothesis's plugin alone.
    from _precheck.plugin import own_session

    with own_session(("_hypothesis_pytestplugin",)) as loaded:
        code = pytest.main(["-c", str(HERE / "pytest.ini"), "--rootdir", str(HERE),
                            "--confcutdir", str(HERE), *loaded, "-p", "no:terminal",
                            str(TESTS)])
    sys.exit(code)
