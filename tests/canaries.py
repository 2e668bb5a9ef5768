"""Canaries: a file holding the run's random token in each hidden tree of every bundled pack
(``reference_solutions/<pack>/``, ``fixtures/<pack>/golden/``, ``graders/packs/<pack>/``),
there for the whole test run.

The attack suite (``tests/attacks/test_attacks.py``) proves that no token reaches a result, a
report or a file. The run's first process plants them before any xdist worker starts and
removes them when the run ends, so the trees hold the same files from the first test to the
last: a pack's digest (:func:`graders.outcomes.digest_pack`) never changes under a test that
grades twice and expects the second run to reuse the first, and nothing waits for an attack
batch. (They were planted for each attack batch alone, once: a tippy class graded twice beside
the tippy attack batch was graded again instead of reused, and CI failed.)

The trees are the repository's own, so a run that is killed leaves its canaries behind: the
next run removes them, and ``.gitignore`` keeps them out of a commit.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from graders.pack import Pack, discover_packs

ROOT = Path(__file__).resolve().parents[1]  # the repository's trees, whatever $GRADERS_ROOT says

ENV = "GRADERS_TEST_CANARY"  # the token, for the workers the first process starts
PREFIX = "zz_canary_"


def hidden_trees(pack: Pack) -> tuple[Path, ...]:
    """Where ``pack`` keeps what a student must never read."""
    return pack.reference_dir, pack.golden_dir, pack.dir


def is_canary(path: Path) -> bool:
    return path.name.startswith(PREFIX)


def plant() -> bool:
    """The run's token in the environment, and a canary holding it in every hidden tree;
    True if this process planted them. A run still going on this checkout (a developer's
    second pytest) keeps its canaries, and its token is this run's too; canaries a killed run
    left are replaced."""
    live = _live_token()
    if live is not None:
        os.environ[ENV] = live
        return False
    token = secrets.token_hex(16)
    os.environ[ENV] = token
    for pack in discover_packs(ROOT).values():
        for folder in hidden_trees(pack):
            _clear(folder)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{PREFIX}{token}.txt").write_text(
                f"hidden canary {token} of process {os.getpid()}\n", encoding="utf-8")
    return True


def remove() -> None:
    """Every canary, and a golden folder that held nothing else."""
    for pack in discover_packs(ROOT).values():
        for folder in hidden_trees(pack):
            _clear(folder)
        if pack.golden_dir.is_dir() and not any(pack.golden_dir.iterdir()):
            pack.golden_dir.rmdir()


def token() -> str:
    """The run's token (planted by the run's first process, see ``tests/conftest.py``)."""
    found = os.environ.get(ENV)
    if not found:
        raise RuntimeError(f"no canary token in ${ENV}: run the tests through pytest, whose "
                           "tests/conftest.py plants the canaries")
    return found


def _live_token() -> str | None:
    """The token of canaries a live process planted, if any."""
    for pack in discover_packs(ROOT).values():
        for canary in pack.dir.glob(f"{PREFIX}*.txt"):
            words = canary.read_text(encoding="utf-8", errors="replace").split()
            if len(words) == 6 and words[-1].isdigit() and Path(f"/proc/{words[-1]}").exists():
                return words[2]
    return None


def _clear(folder: Path) -> None:
    if folder.is_dir():
        for stale in folder.glob(f"{PREFIX}*.txt"):
            stale.unlink()
