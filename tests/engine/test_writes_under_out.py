"""Grading writes only under ``--out`` (issue 28): nothing lands in the folder `grade` was
started in, Hypothesis's files included (they go to the user's cache folder)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from graders.pack import get_pack

SAMPLE = get_pack("game_of_nim").fixtures_dir / "submissions" / "do_nothing"


def test_a_grading_run_leaves_the_folder_it_started_in_untouched(tmp_path: Path):
    here, out, cache = tmp_path / "here", tmp_path / "out", tmp_path / "cache"
    here.mkdir()
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from graders.cli import main; sys.exit(main())",
         str(SAMPLE), "-a", "game_of_nim", "--out", str(out), "--fresh"],
        cwd=here, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (out / "marks.csv").is_file()
    assert sorted(p.name for p in here.iterdir()) == []
    # Hypothesis writes nothing now that grading draws no local constants (it kept them in
    # its home); whatever it may write goes under the cache folder, never beside the run.
    assert not list(here.parent.glob("**/.hypothesis"))
