"""PNT's golden files: the reference's output for the handout's sample (public) and for every
hidden case of fixtures/pnt/inputs/hidden.txt (hidden). The official outputs are the course's
own files, shipped in the starter kit as they are."""

from __future__ import annotations

from graders.golden import GoldenFile, GoldenRun
from graders.packs import Pack
from graders.packs.pnt.grading import PROGRAM, SAMPLE, SAMPLE_OUTPUT, hidden_cases


def golden_files(pack: Pack) -> list[GoldenFile]:
    sample = GoldenFile(
        SAMPLE_OUTPUT, [GoldenRun([*PROGRAM, *SAMPLE.position.argv()])], public=True
    )
    hidden = [
        GoldenFile(f"{case.name}.txt", [GoldenRun([*PROGRAM, *case.position.argv()])])
        for case in hidden_cases(pack.id)
    ]
    return [sample, *hidden]
