"""tippy: the starter the students really had (issue 25, item 3).

``fixtures/tippy/class_starter/batch/`` is a class of five written against a deliberately
altered starter (``class_starter/starter/game_view.py``: the same 12 code lines of ``play()``
differ from the bundled one); one student wrote against the bundled starter. On main before
this change every altered copy failed "fewer than a dozen lines changed" and the changed-lines
rule. Graded as one batch, the class consensus takes the shared lines for starter lines; a
student's own change stays his. Graded alone, with the altered starter declared as an earlier
version, the same student's file changes few lines and breaks no rule.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from graders.batch import BatchRequest, grade_batch
from graders.checks import run_rules
from graders.consensus import as_option, class_consensus
from graders.outcomes import GradeOptions, grading_key
from graders.pack import Pack, get_pack
from graders.selfcheck import expected_path, mismatches
from graders.starter import closest_starter, is_starter_line
from graders.submissions import find_submissions, prepare

PACK = get_pack("tippy")
FOLDER = PACK.fixtures_dir / "class_starter"
BATCH = FOLDER / "batch"
ALTERED = FOLDER / "starter" / "game_view.py"
VERSION = "../../fixtures/tippy/class_starter/starter/game_view.py"  # from student_templates/tippy


def with_submission(pack: Pack, **keys: object) -> Pack:
    spec = pack.declaration.submission.model_copy(update=keys)
    return Pack(pack.declaration.model_copy(update={"submission": spec}), pack.dir, pack.root)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("class-starter")
    outcome = grade_batch(BatchRequest(pack=PACK, sources=find_submissions(BATCH), out_dir=out,
                                       fresh=True))
    return outcome, out


@pytest.mark.long
def test_each_student_of_the_altered_starter_batch_gets_the_expected_mark(graded):
    outcome, _ = graded
    results = {result.student: result for result in outcome.results}
    assert sorted(results) == ["alice", "bob", "carol", "dave", "erin"]
    for folder in find_submissions(BATCH):
        expected = json.loads(expected_path(folder).read_text(encoding="utf-8"))
        assert mismatches(results[folder.name], expected) == [], folder.name


@pytest.mark.long
def test_the_index_and_the_outcome_name_the_shared_lines_and_their_file(graded):
    outcome, out = graded
    [shared] = outcome.shared
    assert (shared.file, shared.copies, shared.needed) == ("game_view.py", 5, 3)
    assert "next_state = self.state.apply_move(move)" in shared.lines
    assert "print(str(self.state))" in shared.lines
    assert not any("Thinking" in line for line in shared.lines)  # one student's own line
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'data-testid="class-starter"' in index
    assert "next_state = self.state.apply_move(move)" in index


def test_a_student_graded_alone_makes_no_consensus(tmp_path: Path):
    [alice] = [prepare(BATCH / "alice", PACK, tmp_path)]
    assert class_consensus(PACK, [alice]) == ()


def test_the_consensus_is_the_same_whatever_the_order_and_enters_the_grading_key(tmp_path):
    subs = [prepare(folder, PACK, tmp_path / folder.name) for folder in find_submissions(BATCH)]
    found = class_consensus(PACK, subs)
    assert found == class_consensus(PACK, list(reversed(subs)))
    options = GradeOptions(pack_digest="x")
    assert grading_key(PACK, subs[0], options) != grading_key(
        PACK, subs[0], replace(options, shared=as_option(found)))
    assert class_consensus(with_submission(PACK, class_share=0.0), subs) == ()


def test_shared_lines_are_starter_text_for_every_rule(tmp_path: Path):
    alice = prepare(BATCH / "alice", PACK, tmp_path / "a")
    source = alice.files["game_view.py"]
    line = source.splitlines().index("                while next_state is None:") + 1
    assert not is_starter_line(PACK, "game_view.py", source, line)
    shared = PACK.with_shared([("game_view.py", ["while next_state is None:"])])
    assert is_starter_line(shared, "game_view.py", source, line)


def test_each_copy_is_compared_with_the_starter_version_closest_to_it():
    pack = with_submission(PACK, starter_versions={"game_view.py": [VERSION]})
    altered, bundled = ALTERED.read_text(), PACK.template_text("game_view.py")
    alice = (BATCH / "alice" / "game_view.py").read_text()
    erin = (BATCH / "erin" / "game_view.py").read_text()
    assert closest_starter(pack, "game_view.py", alice) == altered
    assert closest_starter(pack, "game_view.py", erin) == bundled
    assert closest_starter(PACK, "game_view.py", alice) == bundled  # no version declared


def test_with_the_real_starter_declared_a_student_alone_changes_few_lines(tmp_path: Path):
    alice = prepare(BATCH / "alice", PACK, tmp_path / "a")
    source = alice.files["game_view.py"]
    changed = [v for v in run_rules(PACK, alice) if v.rule == "changed-lines"]
    assert any("outside the parts" in v.message for v in changed)
    pack = with_submission(PACK, starter_versions={"game_view.py": [VERSION]})
    assert run_rules(pack, alice) == []
    assert closest_starter(pack, "game_view.py", source) == \
        ALTERED.read_text()


def test_the_console_names_the_file_and_its_shared_lines(tmp_path: Path, capsys):
    from graders import console

    subs = [prepare(folder, PACK, tmp_path / folder.name) for folder in find_submissions(BATCH)]
    console.class_starter(class_consensus(PACK, subs))
    err = capsys.readouterr().err
    assert "9 line(s) of game_view.py are in at least 3 of 5 copies and in no bundled" in err
    assert "next_state = self.state.apply_move(move)" in err
