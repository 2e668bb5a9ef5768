"""python_ta answers reused: a file's report is kept on disk, keyed by everything that can
change it, so a file python_ta has seen once is never analysed again.

What python_ta says about a file depends on the file, on the modules of the same folder it
imports (astroid reads them to infer names), on the config file and on the tool's versions.
The key is a digest of exactly that: the file's name and text, the texts of the local modules
it imports (transitively), the config's text, the tool's installed versions (as ``grade setup``
recorded them) and the runner script's own text. So

- a starter file is analysed once per pack, not once per grading session;
- a file identical across students (with identical imports) is analysed once;
- a regrade of a student whose files did not change costs no python_ta time.

Only answers that do not depend on the machine's load are kept: a report python_ta finished
(with or without messages) or refused for a reason in the file (a ``pylint:`` comment). A file
python_ta ran out of time on, or crashed on, is asked again next time.

The answers live beside the tool's environment (``graders.tools.answers_dir``); the student's
pre-check keeps its own inside the kit, keyed by the student's installed versions, so running
it again costs python_ta time only for the files that changed. Each answer is one small JSON
file, written atomically, so parallel workers share the folder safely.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from graders.results import write_atomic
from graders.style.python_ta import RUNNER, TIMED_OUT, FileReport, Message, Run

FORMAT = 1  # bump when what an answer holds changes


def local_imports(source: str) -> set[str]:
    """Top-level names of the modules ``source`` imports (absolute imports only: a relative
    import is a package's, and a package is read whole)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # nested beyond the parser
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def _module_files(folder: Path, name: str) -> list[Path]:
    """The files of local module ``name`` in ``folder``: ``name.py``, or a package whole."""
    single = folder / f"{name}.py"
    if single.is_file():
        return [single]
    package = folder / name
    return sorted(package.rglob("*.py")) if package.is_dir() else []


def context(folder: Path, file: str) -> dict[str, str]:
    """``file`` and every local module it reaches through imports: path -> text."""
    texts: dict[str, str] = {}
    pending = [folder / file]
    while pending:
        path = pending.pop()
        name = path.relative_to(folder).as_posix()
        if name in texts or not path.is_file():
            continue
        texts[name] = path.read_text(encoding="utf-8", errors="replace")
        for module in sorted(local_imports(texts[name])):
            pending.extend(_module_files(folder, module))
    return texts


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


class Answers:
    """python_ta's reports kept in ``home`` (None: nothing kept, nothing found), for one
    config text and one build of the tool (its installed distributions and versions)."""

    def __init__(self, home: Path | None, config_text: str, versions: dict[str, str]) -> None:
        self.home = home
        self.salt = ""
        if home is not None:
            runner = Path(__file__).with_name(RUNNER).read_text(encoding="utf-8")
            self.salt = json.dumps([FORMAT, _digest(config_text), sorted(versions.items()),
                                    _digest(runner)])

    def key(self, folder: Path, file: str) -> str | None:
        """The digest naming ``file``'s answer in workspace ``folder``; None when the file is
        not there to read."""
        if self.home is None or not (folder / file).is_file():
            return None
        texts = context(folder, file)
        parts = [self.salt, file, *(f"{name}:{_digest(text)}" for name, text in
                                    sorted(texts.items()))]
        return _digest("\n".join(parts))

    def _path(self, key: str) -> Path:
        assert self.home is not None
        return self.home / key[:2] / f"{key}.json"

    def get(self, key: str | None) -> tuple[FileReport, dict[str, str]] | None:
        """The kept report and the versions that made it, or None."""
        if key is None:
            return None
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            report = data["report"]
            messages = [Message(**message) for message in report.pop("messages")]
            return FileReport(messages=messages, **report), dict(data["versions"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str | None, report: FileReport, versions: dict[str, str]) -> None:
        """Keep ``report`` when it does not depend on the machine's load."""
        if key is None or report.crashed or (report.refused or "").startswith(TIMED_OUT):
            return
        record = {"report": asdict(report), "versions": versions}
        with contextlib.suppress(OSError):  # a folder we may not write: nothing is kept
            write_atomic(self._path(key), json.dumps(record))

    def run_of(self, folder: Path, files: list[str], config: str) -> Run | None:
        """A whole run rebuilt from kept answers, or None when any file lacks one."""
        return self.run_from(self.signature(folder, files), files, config)

    def run_from(self, keys: tuple[str | None, ...], files: list[str], config: str) -> Run | None:
        """As :meth:`run_of`, from the files' keys (:meth:`signature`) already made."""
        reports: dict[str, FileReport] = {}
        versions: dict[str, str] = {}
        for file, key in zip(files, keys, strict=True):
            found = self.get(key)
            if found is None:
                return None
            reports[file], versions = found
        return Run(reports, versions, config)

    def keep(self, folder: Path, run: Run) -> None:
        """Keep every answer of ``run``, made on workspace ``folder``."""
        for file, report in run.files.items():
            self.put(self.key(folder, file), report, run.versions)

    def signature(self, folder: Path, files: list[str]) -> tuple[str | None, ...]:
        """What makes two workspaces' runs over ``files`` the same run."""
        return tuple(self.key(folder, file) for file in files)
