"""What pack drivers share (child side): copied into every sandbox harness as ``harness_kit.py``.

Standard library only, never importing ``graders``: a driver runs beside the student's code and
reaches this module as ``import harness_kit``. It holds what every game pack's driver needed
and once wrote for itself:

- :func:`plain` and :func:`safe`: a student value as JSON-able data, an exception as a line of
  text that names the student's file and line (:func:`error_text`); :func:`snapshot`: the
  student's state field by field, a field that raises an error of its own;
- :func:`typed` and :func:`patched`: ``input()`` answered from a script, attributes swapped
  for a call and always put back;
- :func:`import_student`: a student module, with a hint when importing it asks for input;
- the pieces of finding an entry point the way the course's tests find it, which the one
  resolver of a pack's declared ``[entries]`` (``harness_entries``) puts in order: by its
  pinned name (:func:`pinned`, skipping the starter's unwritten stub, :func:`unwritten`), through
  an interface file's menu (``playable_games['h']``), read with ``ast`` and never run
  (:func:`menu_entry`, :func:`menus_passed`, :func:`import_entry`), or as the handed-in class
  of the pinned name, or the unique subclass of its pinned base (:func:`class_homes`, which
  the parent's intake reads too).

The parent-side rule ``entry-name`` reads menus with the same :func:`menu_entry`.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import importlib.util
import inspect
import math
import os
import sys
import textwrap
import traceback
from pathlib import Path

SCALARS = (bool, int, float, str, type(None))
# The harness's folder (/harness in the sandbox): its frames are never the student's, as in
# child.student_traceback.
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))


class OutOfInput(BaseException):
    """The script of typed answers is used up (not an Exception: a retry loop does not catch
    it)."""


def plain(value, depth=0):
    """``value`` as JSON-able data: tuples become lists, non-finite floats and unknown objects
    their repr, integer-like objects (``__index__``) ints."""
    if depth > 20:
        return repr(value)
    if isinstance(value, SCALARS):
        return repr(value) if isinstance(value, float) and not math.isfinite(value) else value
    if isinstance(value, (list, tuple)):
        return [plain(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {str(plain(k, depth + 1)): plain(v, depth + 1) for k, v in value.items()}
    if hasattr(value, "__index__"):
        return int(value.__index__())
    return repr(value)


def error_text(exc, limit=300):
    """``"Type: message (file.py, line N)"``, N the deepest line outside the harness (a
    student's own ``driver_utils.py`` is theirs: only the harness's folder is left out)."""
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not os.path.abspath(frame.filename).startswith(HARNESS_DIR + os.sep):
            where = f" ({Path(frame.filename).name}, line {frame.lineno})"
            break
    return f"{type(exc).__name__}: {exc}"[: limit - len(where)] + where


def safe(call):
    """``call()`` as a scalar (other values as ``<type> repr``), or ``{"error": text}``."""
    try:
        value = call()
    except Exception as exc:  # noqa: BLE001 - the student's error is the answer
        return {"error": error_text(exc)}
    return scalar(value)


def scalar(value):
    """``value`` if it is a JSON scalar, else ``<type> repr`` (cut at 200 characters)."""
    if isinstance(value, SCALARS):
        return value
    return f"<{type(value).__name__}> {value!r}"[:200]


def snapshot(fields, *on, convert=None):
    """The student's state, field by field: ``{name: value}`` for each ``name: how`` of
    ``fields``, ``how`` an attribute of ``on[0]`` (``"over"``), a method of it to call
    (``"outcome()"``) or a function of ``*on``; ``convert`` applied to each value when given.
    A field that raises is ``{"error": text}``: one broken method costs only its own field."""
    snap = {}
    for name, how in fields.items():
        try:
            value = _field(how, on)
        except Exception as exc:  # noqa: BLE001 - the student's error is this field's value
            snap[name] = {"error": error_text(exc)}
        else:
            snap[name] = value if convert is None else convert(value)
    return snap


def _field(how, on):
    if callable(how):
        return how(*on)
    if how.endswith("()"):
        return getattr(on[0], how[:-2])()
    return getattr(on[0], how)


@contextlib.contextmanager
def patched(*swaps):
    """Set each ``(target, name, value)`` for the block, then restore (or delete) it."""
    missing = object()
    saved = [(target, name, vars(target).get(name, missing)) for target, name, _ in swaps]
    try:
        for target, name, value in swaps:
            setattr(target, name, value)
        yield
    finally:
        for target, name, old in reversed(saved):
            if old is missing:
                delattr(target, name)
            else:
                setattr(target, name, old)


@contextlib.contextmanager
def typed(answers=(), then=None, echo=None, limit=None):
    """``input()`` answers the lines of ``answers``, then ``then`` for ever (or raises
    :class:`OutOfInput` when ``then`` is None); ``echo`` (a text stream) receives the prompt
    and the typed line as a terminal shows them. Yields the list of prompts asked. More than
    ``limit`` prompts raise EOFError, naming the last."""
    feed, prompts = iter(answers), []

    def scripted_input(prompt=""):
        prompts.append(str(prompt))
        if limit is not None and len(prompts) > limit:
            raise EOFError(f"more than {limit} questions; the last: {prompt!r}")
        line = next(feed, then)
        if echo is not None:
            echo.write(str(prompt) + ("" if line is None else line + "\n"))
        if line is None:
            raise OutOfInput("the script of typed answers is used up")
        return line

    with patched((builtins, "input", scripted_input)):
        yield prompts


# The student modules whose import raised in this process, by the file each was read from
# (path, size, time written: a module of the same name from another folder, or the file
# written again, is imported anew), with the error and the traceback of that one run.
# Importing them again would run (and compile) the same code to the same end at every later
# call: a module too deep for the parser took a fifth of a second each time.
_FAILED_IMPORTS: dict = {}


# Set by the worker loop for each call (child.mark_student_imports): the fd on which
# import_student marks the start and the end of each student module's import (a process that
# ends or hangs between the two died importing it: worker_words.died_importing), and the
# modules whose import ended an earlier process of the worker, not imported again.
MARKS_FD = None
DIED: frozenset[str] = frozenset()
_write_mark = os.write  # bound before any student code exists


class DiedImporting(BaseException):
    """Raised for a module in ``DIED`` instead of importing it; the parent says what its
    import did. Not an Exception: a driver's ``except Exception`` must not make it a verdict
    of its own."""


def _mark(event, module):
    if MARKS_FD is not None:
        with contextlib.suppress(OSError):
            _write_mark(MARKS_FD, f"\ngraders-{event}: {module}\n".encode())


def import_student(module):
    """``import module``, turning an ``input()`` at import time into advice the student can
    act on (the sandbox has no keyboard). A module that raised while importing raises the same
    error again, not run again; but for one that asked for input, which a later call may
    answer."""
    if module in sys.modules:
        return importlib.import_module(module)
    if module in DIED:
        raise DiedImporting(module)
    source = _source_of(module)
    failed = _FAILED_IMPORTS.get(source) if source else None
    if failed is not None:
        error, trace = failed
        raise error.with_traceback(trace)
    _mark("importing", module)
    try:
        return importlib.import_module(module)
    except (EOFError, OutOfInput) as exc:
        if isinstance(exc, OutOfInput):
            raise
        raise RuntimeError(
            f"importing {module}.py ran code that asks for input(): put your own tests and the "
            "main program under `if __name__ == '__main__':`"
        ) from exc
    except BaseException as exc:
        if source:
            _FAILED_IMPORTS[source] = (exc, exc.__traceback__)
        raise
    finally:
        _mark("imported", module)


def _source_of(module):
    """``(module, file, size, time written)`` of the file ``import module`` would read, or
    None (no such module, not from a file)."""
    try:
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        facts = os.stat(origin) if origin and os.path.isfile(origin) else None
    except (ImportError, ValueError, OSError):
        return None
    return (module, origin, facts.st_size, facts.st_mtime_ns) if facts else None


# -- entry points: pinned names and menus ----------------------------------------------------


def pinned(module, name):
    """``(object or None, why not, the student's own import error or None)`` for ``name`` in
    ``module``: a module not handed in is a reason, a module that fails to import an error."""
    try:
        found = import_student(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None, f"no {module}.py was handed in", None
        return None, f"{module}.py could not be imported", exc
    except Exception as exc:  # noqa: BLE001 - the student's module failed: theirs to see
        return None, f"{module}.py could not be imported", exc
    if not hasattr(found, name):
        return None, f"{module}.py defines no `{name}`", None
    return getattr(found, name), "", None


def unwritten(cls):
    """Whether ``cls`` is a starter stub: every method ends by raising NotImplementedError."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return False
    return bool(tree.body) and isinstance(tree.body[0], ast.ClassDef) and stub(tree.body[0])


def stub(node):
    """Whether the class statement ``node`` is a starter stub (see :func:`unwritten`)."""
    methods = [item for item in node.body if isinstance(item, ast.FunctionDef)]
    return bool(methods) and all(raises_not_implemented(m.body[-1]) for m in methods)


def class_homes(sources, name, base=""):
    """Where a pinned class lives among the handed-in modules, read with ``ast``, never run:
    ``[(file, class name)]`` of the written (not stub) top-level classes called ``name``; when
    there is none, of those whose bases name ``base``. ``sources``: ``{file: text}``; a file
    that does not parse holds nothing. The caller decides what several homes mean."""
    named, derived = [], []
    for file in sorted(sources):
        try:
            tree = ast.parse(sources[file])
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if not isinstance(node, ast.ClassDef) or stub(node):
                continue
            if node.name == name:
                named.append((file, node.name))
            elif base and any(_base_name(b) == base for b in node.bases):
                derived.append((file, node.name))
    return named or derived


def _base_name(node):
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def module_sources(folder=".", skip=()):
    """``{file: text}`` of the ``.py`` files directly in ``folder`` (the workspace), the names
    in ``skip`` left out."""
    found = {}
    for path in sorted(Path(folder).glob("*.py")):
        if path.name not in skip:
            with contextlib.suppress(OSError, UnicodeDecodeError):
                found[path.name] = path.read_text(encoding="utf-8")
    return found


def raises_not_implemented(statement):
    """Whether ``statement`` is ``raise NotImplementedError[(...)]``."""
    if not isinstance(statement, ast.Raise) or statement.exc is None:
        return False
    raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def read_tree(path):
    """``(module tree or None, why not)`` of ``path``, parsed and never run."""
    try:
        return ast.parse(Path(path).read_text(encoding="utf-8")), ""
    except OSError:
        return None, f"no {path} was handed in"
    except (SyntaxError, ValueError) as exc:
        return None, f"{path} could not be read: {type(exc).__name__}: {exc}"


def menu_entry(tree, mapping, key):
    """The expression bound last (in source order) to ``mapping[key]``, by a ``mapping =
    {...}`` display or a ``mapping[key] = ...`` item anywhere in the module (a starter keeps
    its menus in the main block, students in a function of their own); None when there is
    none."""
    found, line = None, -1
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if isinstance(target, ast.Name) and target.id == mapping and \
                    isinstance(node.value, ast.Dict):
                for item_key, item in zip(node.value.keys, node.value.values, strict=True):
                    if isinstance(item_key, ast.Constant) and item_key.value == key and \
                            node.lineno >= line:
                        found, line = item, node.lineno
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                    target.value.id == mapping and isinstance(target.slice, ast.Constant) and \
                    target.slice.value == key and node.lineno >= line:
                found, line = node.value, node.lineno
    return found


def menus_passed(tree, callee, position):
    """Names of the dicts indexed as argument ``position`` of calls ``callee(x[k], ...)``."""
    return [node.args[position].value.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == callee and len(node.args) > position
            and isinstance(node.args[position], ast.Subscript)
            and isinstance(node.args[position].value, ast.Name)]


def bindings(tree):
    """``{bound name: (module, name or '')}`` of the module's imports; ``import *`` modules
    under ``'*'``."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name == "*":
                    bound.setdefault("*", []).append(node.module)
                else:
                    bound[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            bound.update({a.asname or a.name.split(".")[0]: (a.name, "") for a in node.names})
    return bound


def import_entry(tree, entry, file):
    """``(object or None, why not)``: what the expression ``entry`` of ``file`` names, imported
    from the module ``file`` imports it from (``file`` itself is never run)."""
    bound, shown = bindings(tree), ast.unparse(entry)
    if isinstance(entry, ast.Name) and isinstance(bound.get(entry.id), tuple) and \
            bound[entry.id][1]:
        module, name = bound[entry.id]
    elif isinstance(entry, ast.Attribute) and isinstance(entry.value, ast.Name) and \
            isinstance(bound.get(entry.value.id), tuple) and not bound[entry.value.id][1]:
        module, name = bound[entry.value.id][0], entry.attr
    elif isinstance(entry, ast.Name) and bound.get("*"):
        module = next((m for m in bound["*"] if _defines(m, entry.id)), None)
        name = entry.id
        if module is None:
            return None, f"it names `{shown}`, which none of its `import *` modules defines"
    else:
        return None, f"it names `{shown}`, which {file} does not import from a module"
    try:
        found = import_student(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None, f"it names `{shown}`, but no {module}.py was handed in"
    if not hasattr(found, name):
        return None, f"it names `{shown}`, but {module}.py defines no `{name}`"
    return getattr(found, name), ""


def _defines(module, name):
    try:
        return hasattr(import_student(module), name)
    except Exception:  # noqa: BLE001 - a module that fails to import defines nothing usable
        return False
