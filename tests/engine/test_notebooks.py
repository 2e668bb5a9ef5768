"""A Jupyter notebook handed in for a Python file is graded as its code cells
(``graders.notebooks``), with a notice; anything else named ``.ipynb`` is read as it is."""

from __future__ import annotations

import json
from pathlib import Path

from graders.notebooks import notebook_code
from graders.pack import get_pack
from graders.submissions import prepare

PACK = get_pack("altnim")


def notebook(*cells: dict, version: int = 4) -> bytes:
    if version == 3:
        return json.dumps({"worksheets": [{"cells": list(cells)}], "nbformat": 3}).encode()
    return json.dumps({"cells": list(cells), "nbformat": 4, "nbformat_minor": 5}).encode()


def code(source, **extra) -> dict:
    return {"cell_type": "code", "source": source, "outputs": [], "metadata": {}, **extra}


def test_code_cells_in_order_one_blank_line_apart_markdown_left_out():
    data = notebook({"cell_type": "markdown", "source": ["# Title\n", "text"]},
                    code(["def f():\n", "    return 1\n"]), code("x = f()"), code([]))
    assert notebook_code(data) == "def f():\n    return 1\n\nx = f()\n"


def test_a_version_3_notebook_keeps_its_code_under_input():
    data = notebook({"cell_type": "code", "input": ["y = 2\n"], "language": "python"},
                    version=3)
    assert notebook_code(data) == "y = 2\n"


def test_ipython_only_lines_go_only_from_a_cell_python_cannot_read():
    """``%magic`` and ``!shell`` lines are left out of a cell that needs it; a cell Python
    reads keeps every line (``%`` opening a line inside a string is the student's text)."""
    data = notebook(code("%matplotlib inline\n!pip install sympy\nimport math"),
                    code('NOTE = """\n%d moves\n!important\n"""'))
    assert notebook_code(data) == 'import math\n\nNOTE = """\n%d moves\n!important\n"""\n'


def test_what_is_no_notebook_is_none():
    for data in (b"def f(): pass\n", b"[1, 2]", b'{"cells": "none"}', b"\xff\xfe\x00", b"{"):
        assert notebook_code(data) is None, data


def test_a_notebook_handed_in_is_graded_as_its_code_with_a_notice(tmp_path: Path):
    source = tmp_path / "s1"
    source.mkdir()
    reference = (PACK.reference_dir / "myAltNimFunctions.py").read_text(encoding="utf-8")
    (source / "myAltNimFunctions.ipynb").write_bytes(notebook(code(reference)))
    submission = prepare(source, PACK, tmp_path / "work")
    assert submission.files["myAltNimFunctions.py"] == reference
    kinds = {problem.rule: problem.message for problem in submission.problems}
    assert set(kinds) == {"file-name", "notebook"}
    assert "its code cells, in order, were graded as `myAltNimFunctions.py`" in kinds["notebook"]


def test_a_file_named_like_a_notebook_that_is_none_is_read_as_it_is(tmp_path: Path):
    source = tmp_path / "s1"
    source.mkdir()
    (source / "myAltNimFunctions.ipynb").write_text("x = 1\n", encoding="utf-8")
    submission = prepare(source, PACK, tmp_path / "work")
    assert submission.files["myAltNimFunctions.py"] == "x = 1\n"
    assert "notebook" not in {problem.rule for problem in submission.problems}
