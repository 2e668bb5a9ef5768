"""Fuzzed intake: whatever a class hands in, every submission yields exactly one result row, and
the batch never raises (issue 13).

Hypothesis builds class folders of random submission folders and zips: random student names
(unicode, spaces, hyphens, case twins, a folder and a zip with one name), nested sub-folders,
near-miss and duplicate file names, empty files, binary junk, other encodings, expressions too
long or too deep for Python's parser, and export metadata with odd times. Intake, rule checks,
marking and every report run for real; only the sandboxed tests are left out (they are the
same for every input shape, and would make each example cost seconds).
"""

from __future__ import annotations

import csv
import json
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graders import stages
from graders.batch import BatchRequest, grade_batch
from graders.pack import get_pack

PACK = get_pack("altnim")
CORRECT = (PACK.fixtures_dir / "submissions" / "correct" / "myAltNimFunctions.py").read_bytes()
FILE_NAMES = [
    "myAltNimFunctions.py", "MyAltNimFunctions.py", "myAltNimFunctions.template",
    "myAltNimFunctions (1).py", "myaltnimfunctions-2.py", "helper.py", "notes.txt",
    "submission_meta.json", "__MACOSX", ".DS_Store", "ünïcödé.py", "a b.py",
]
CONTENTS = st.one_of(
    st.just(b""),
    st.just(CORRECT),
    st.just(b"X = " + b"+".join([b"1"] * 200_000) + b"\n"),
    st.just(b"Y = " + b"-" * 100_000 + b"1\n"),
    st.just(b"Z = " + b"(" * 500 + b"1" + b")" * 500 + b"\n"),
    st.binary(max_size=300),
    st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.text(alphabet="éàüß€œ ", max_size=50).map(lambda text: text.encode("cp1252")),
    st.text(max_size=50).map(lambda text: text.encode("utf-16")),
    st.sampled_from(["2015-03-05T21:00:00", "2015-03-05T21:00:00+00:00", "yesterday", "", 7])
    .map(lambda when: json.dumps({"submitted_at": when}).encode()),
    st.integers(0, 3 * 1024 * 1024).map(lambda size: b"#" * size),
)
PATHS = st.lists(
    st.one_of(st.sampled_from(FILE_NAMES), st.sampled_from(["src", "A2", "deep", "..", "x"])),
    min_size=1, max_size=6,
).map(lambda parts: [*[p for p in parts[:-1] if p != ".."], parts[-1]])
SUBMISSION = st.tuples(
    st.booleans(),  # a zip, or a folder
    st.lists(st.tuples(PATHS, CONTENTS), max_size=6),
)
NAMES = st.one_of(
    st.sampled_from(["bob", "Bob", "smith-john", "-dash", "Zoë O'Brien", "a b", "x" * 120]),
    st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"], blacklist_characters="/\\"),
            min_size=1, max_size=20),
).filter(lambda name: not name.startswith(".") and name.strip() and name not in ("__MACOSX",))
CLASSES = st.lists(st.tuples(NAMES, SUBMISSION), min_size=1, max_size=4)


def _no_tests(pack, sandbox, submissions, options, work_root):
    return {}, {}


def _build(folder: Path, name: str, is_zip: bool, files: list[tuple[list[str], bytes]]) -> Path:
    if is_zip:
        target = folder / f"{name}.zip"
        with zipfile.ZipFile(target, "w") as archive:
            for parts, data in files:
                archive.writestr("/".join(parts), data)  # duplicate names allowed on purpose
        return target
    target = folder / name
    target.mkdir()
    for parts, data in files:
        path = target.joinpath(*parts)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError:  # a name already taken by a folder, or the other way round
            continue
    return target


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.long
@settings(max_examples=30, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(CLASSES)
def test_every_submission_yields_exactly_one_row_and_the_batch_never_raises(students):
    with tempfile.TemporaryDirectory() as temp, pytest.MonkeyPatch.context() as patch:
        patch.setattr(stages, "run_session", _no_tests)
        folder = Path(temp) / "class"
        folder.mkdir()
        sources = []
        for name, (is_zip, files) in students:
            try:
                sources.append(_build(folder, name, is_zip, files))
            except (FileExistsError, OSError):
                continue  # the same name twice as a folder (or too long for the file system)
        out = Path(temp) / "reports"
        outcome = grade_batch(BatchRequest(pack=PACK, sources=sources, out_dir=out))
        assert len(outcome.results) == len(sources)
        assert len({result.student for result in outcome.results}) == len(sources)
        with (out / "marks.csv").open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        assert len(rows) == len(sources)
        assert len(list((out / "students").glob("*.json"))) == len(sources)
        assert len(json.loads((out / "results.json").read_text(encoding="utf-8"))) == len(sources)
