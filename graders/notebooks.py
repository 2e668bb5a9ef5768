"""A Jupyter notebook handed in where a Python file was asked for: its code, as a script.

Intro courses run in Jupyter, and a student may hand in ``myAltNimFunctions.ipynb`` for
``myAltNimFunctions.py``. Read as Python, a notebook is one dict literal: no syntax error,
every function "missing", 0 marks for reasons that say nothing of what happened. What the
student wrote is the notebook's code cells, so those are graded: each cell's source in order,
one blank line apart, as ``jupyter nbconvert --to script`` gives them but without its ``# In[N]:``
markers (comments a template rule would read as the student's). In a cell Python cannot read
as it is, the lines only IPython understands (``%magic``, ``!shell``) are left out: they are
no Python the student wrote for the file, and as comments the header and comment rules would
read them.

Hand-written rather than ``nbformat``: only the code cells' text is read, and nbformat would
bring four packages into the grader and into every student's pre-check kit. Both formats
students meet are read: version 4 (``cells``) and version 3 (``worksheets[].cells``, ``input``).
"""

from __future__ import annotations

import json
from typing import Any

NOTEBOOK_SUFFIX = ".ipynb"
_IPYTHON_ONLY = ("%", "!")


def notebook_code(data: bytes) -> str | None:
    """The code cells of notebook ``data`` as one Python file, or None when ``data`` is no
    notebook (not JSON, or no list of cells)."""
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    cells = _cells(notebook)
    if cells is None:
        return None
    sources = [_text(cell.get("source", cell.get("input", ""))) for cell in cells
               if isinstance(cell, dict) and cell.get("cell_type") == "code"]
    scripts = [_script(source) for source in sources]
    return "\n\n".join(script for script in scripts if script.strip()) + "\n"


def _cells(notebook: Any) -> list[Any] | None:
    if not isinstance(notebook, dict):
        return None
    if isinstance(notebook.get("cells"), list):
        return notebook["cells"]
    sheets = notebook.get("worksheets")
    if isinstance(sheets, list):
        return [cell for sheet in sheets
                if isinstance(sheet, dict) and isinstance(sheet.get("cells"), list)
                for cell in sheet["cells"]]
    return None


def _text(source: Any) -> str:
    """A cell's source: a string, or a list of lines (each with its own line end)."""
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def _script(source: str) -> str:
    source = source.rstrip("\n")
    try:
        compile(source, "<cell>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "\n".join(line for line in source.split("\n")
                         if not line.lstrip().startswith(_IPYTHON_ONLY))
    return source
