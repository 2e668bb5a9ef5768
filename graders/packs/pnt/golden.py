"""PNT's golden files: the reference's output for the handout's sample (public) and for each
hidden case of fixtures/pnt/inputs/ (hidden), one file a case. The runs come from the case
files, so they are not repeated as ``[[golden]]`` data; each hidden case must be a legal,
unfinished game. The official outputs are the course's own files, shipped as they are."""

from __future__ import annotations

from graders.errors import GraderError
from graders.golden import GoldenFile, GoldenRun
from graders.pack import Pack
from graders.packs.pnt.checks import PROGRAM, SAMPLE, SAMPLE_OUTPUT, hidden_cases
from graders.packs.pnt.oracle import position_error


def golden_files(pack: Pack) -> list[GoldenFile]:
    """The sample's golden file, then one per hidden case."""
    files = [GoldenFile(SAMPLE_OUTPUT, [GoldenRun([*PROGRAM, *SAMPLE.argv()])], public=True)]
    for name, position in hidden_cases(pack).items():
        if problem := position_error(position):
            raise GraderError(f"hidden case {name} of {pack.id} is not a valid case: {problem}")
        files.append(GoldenFile(f"{name}.txt", [GoldenRun([*PROGRAM, *position.argv()])]))
    return files
