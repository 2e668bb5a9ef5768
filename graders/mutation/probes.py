"""Probes: the cases a ``handout-silent`` entry names to show its difference when the pack's own
cases never reach it (a finished game given to a player program, the utility of an unfinished game).

Each probe is a driver operation with its arguments, or a program's argv (and stdin). It is run
on the mutant and on the unmutated reference in the sandbox, never graded, and its answers are
compared like the graded ones (:func:`graders.observe.differences`)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from graders.errors import StudentFault
from graders.mutation.mutants import Mutant
from graders.observe import Difference, answer_of, differences, run_entry
from graders.pack import Pack
from graders.sandbox import Sandbox
from graders.tools import environment_mount


def probe_differences(pack: Pack, mutant: Mutant, probes: list[dict[str, Any]]) -> list[Difference]:
    """What the mutant answers otherwise than the reference on ``probes``."""
    sandbox = Sandbox(environment=environment_mount(pack))
    folder = Path(tempfile.mkdtemp(prefix="grade-probes-"))
    try:
        answers = []
        for name, changed in (("reference", None), ("mutant", mutant)):
            workspace = pack.build_reference_workspace(folder / name)
            if changed is not None:
                (workspace / changed.file).write_text(changed.source, encoding="utf-8")
            answers.append([_ask(sandbox, pack, workspace, probe) for probe in probes])
    finally:
        sandbox.close()
        shutil.rmtree(folder, ignore_errors=True)
    return differences(answers[0], answers[1])


def _ask(sandbox: Sandbox, pack: Pack, workspace: Path, probe: dict[str, Any]) -> dict[str, Any]:
    stdin = str(probe.get("stdin", ""))
    if "program" in probe:
        argv = [str(part) for part in probe["program"]]
        return run_entry(argv, stdin, sandbox.run(workspace, argv, pack.limits, stdin=stdin))
    op, args = str(probe["op"]), list(probe.get("args", []))
    with sandbox.worker(workspace, pack.driver, pack.limits, "probe") as worker:
        try:
            answer = answer_of(worker.call_raw(op, *args))
        except StudentFault as exc:  # a timeout or a crash: an answer too
            answer = {"raised": type(exc).__name__}
    return {"at": "probe", "op": op, "args": args, "kwargs": {}, "stdin": None, "answer": answer}
