"""Audit hooks (PEP 578) that keep student code from reaching into the worker that runs it.

Child side, standard library only: copied into the sandbox as ``/harness/child_guard.py`` and
installed by ``child.py`` after the pack's driver is imported and before any request (so before
any student code) runs. Hooks cannot be removed, and ours run before any a student could add.

What is refused, and why (``docs/threat-model.md``):

- switching the grader's probes off: ``sys.settrace``, ``sys.setprofile`` (the recursion probe),
  adding audit hooks, ``ctypes`` (raw memory), ``gc.get_objects``/``get_referrers``/
  ``get_referents`` and ``gc.set_debug`` (every object, the harness's included), fresh copies of
  ``sys``, ``gc``, ``_signal``, ``_thread`` or ``_imp`` (pristine functions);
- reaching the harness's frames, where the request id and the probe's state live:
  ``sys._getframe``, ``sys._current_frames``, ``tb_frame``, ``gi_frame``, ``cr_frame``,
  ``ag_frame``; a signal handler gets ``None`` for its frame;
- giving student code a standard-library, harness or ``<frozen ...>`` file name (``compile``,
  ``code.__new__``); opening a file named ``mem`` (``/proc/self/mem``: the worker is
  non-dumpable, so the kernel refuses it too).

Who is asking is decided by the nearest frame that is not the standard library's: the harness's
code passes; student code is stopped. Code is told apart by the code object, never by its file
name (a name is the student's to choose: ``_imp._fix_co_filename`` renames code with no audit
event): what existed when the guard was installed is trusted, and code made later is Python's or
the harness's only if it equals the code compiled from the read-only file it names. A refusal
made directly by student code stops the worker at once (``os._exit(REFUSED_STATUS)``, after a
line ``graders-refused: <reason>`` on fd 2): it cannot be caught, and the parent turns it into
the student's failure with that reason. When the standard library asks on a student's behalf
(``namedtuple``, ``typing`` and ``logging`` read the caller's module name; ``inspect.stack()``),
the call raises :class:`Refused`, a ``ValueError``, which those modules already tolerate;
``traceback``'s text functions (``print_exc`` and friends) are allowed, since they hand back
text only.

Why frame identity and not a flag: a flag is data, and data the harness can reach, student code
reaching the same module can flip. The recursion watch instead remembers the *frame* that
started it; only code running in that frame (the driver's own ``finally``) can stop it, and
frame objects are exactly what student code cannot get. The profiler and the findings live in
this module's closures, referenced by nothing student code can reach (``sys.getprofile`` is
removed; gc and frames are refused). Findings are drained only by the frame that locked the
guard (``child.serve``'s), which student code cannot be (see :func:`install`).
"""

from __future__ import annotations

import _imp
import _signal
import gc
import io
import os
import signal
import sys
import threading
import types
from pathlib import Path

REFUSED_STATUS = 86
MARKER = "graders-refused:"
SWITCH_OFF = "your code tried to switch off the grader's recursion check"
LOOK = "your code tried to look at the grader's call stack"
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
FRESH_MODULES = frozenset({"sys", "gc", "_signal", "_thread", "_imp", "builtins", "_ctypes"})
TEXT_TRACEBACKS = frozenset({
    "print_exc", "format_exc", "print_exception", "format_exception", "print_tb",
    "format_tb", "print_stack", "format_stack", "extract_tb", "extract_stack", "print_last",
})
KILL = {
    "sys.settrace": f"{SWITCH_OFF} (sys.settrace)",
    "sys.setprofile": f"{SWITCH_OFF} (sys.setprofile)",
    "sys.addaudithook": "your code tried to add an audit hook of its own (sys.addaudithook)",
    "sys._current_frames": f"{LOOK} (sys._current_frames)",
    "sys._current_exceptions": f"{LOOK} (sys._current_exceptions)",
    "gc.get_objects": "your code tried to search the grader's memory (gc.get_objects)",
    "gc.get_referrers": "your code tried to search the grader's memory (gc.get_referrers)",
    "gc.get_referents": "your code tried to search the grader's memory (gc.get_referents)",
}


# A code object's identity, as ``id`` gives it but without the audit event ``id`` raises:
# ``object.__hash__`` is the address, rotated (code objects hash by content instead).
IDENTITY = object.__hash__


class Refused(ValueError):
    """Raised where the standard library asked for a frame on student code's behalf."""


def _frameless(handler):
    """A signal handler that hands ``handler`` no frame (a frame leads to the harness's)."""
    return lambda signum, frame: handler(signum, None)


def install(harness_dir: str) -> None:
    """Install the hooks. Call once, from the frame that will drain findings (``serve``):
    ``sys.audit("graders.lock")`` from that frame then makes it the only one allowed to.

    Everything the hook uses is bound here, in its closure: module globals and builtins are
    looked up when used, and student code can rebind those (``builtins.type = ...``)."""
    harness = os.path.join(os.path.abspath(harness_dir), "")
    # The interpreter's own library folders (the standard library and the system's
    # dist-packages), which no sandbox uid can write to.
    stdlib = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(os.__file__))), "")
    ours = Path(__file__).resolve().as_posix()
    getframe, setprofile, getprofile = sys._getframe, sys.setprofile, sys.getprofile
    create_builtin, exec_builtin, real_signal = (
        _imp.create_builtin, _imp.exec_builtin, _signal.signal)
    ident, write, exit_now, read_file = threading.get_ident, os.write, os._exit, io.open
    type_, callable_, len_, str_, int_, frameless, refused = (
        type, callable, len, str, int, _frameless, Refused)
    # identity without `id()`, which raises an audit event on every call
    id_, any_, compile_, code_type, is_frozen, get_frozen = (
        IDENTITY, any, compile, types.CodeType, _imp.is_frozen, _imp.get_frozen_object)
    kill, frame_attributes, fresh, texts = (
        dict(KILL), FRAME_ATTRIBUTES, FRESH_MODULES, TEXT_TRACEBACKS)
    spec_type, signals, handlers, modules = (
        type(sys.__spec__), signal.Signals, signal.Handlers, sys.modules)
    marker, switch_off, look, status = MARKER, SWITCH_OFF, LOOK, REFUSED_STATUS
    state: dict = {"busy": set(), "installing": None, "watch": None, "server": None,
                   "findings": []}

    def stop(reason: str) -> None:
        write(2, f"\n{marker} {reason}\n".encode("utf-8", "replace"))
        exit_now(status)

    # Who wrote a piece of code is told by the code object itself, never by its file name
    # (student code can carry any name: `<frozen os>`, a renamed pyc): every code object
    # alive now is trusted (no student code has run yet); one made later counts as the
    # standard library's or the harness's only if it equals the code compiled from the
    # genuine file (or frozen module) it names, which no sandbox uid can write.
    known = _code_snapshot()
    ours_too = {key for key, code in known.items()
                if code.co_filename.startswith(harness) or code.co_filename == ours}
    verdicts: dict = {}
    origins: dict = {}

    def kind(code) -> str:
        key = id_(code)
        if key in known:
            return "harness" if key in ours_too else "stdlib"
        seen = verdicts.get(key)
        if seen is None or seen[0] is not code:
            seen = verdicts[key] = (code, vouched(code))
        return seen[1]

    def vouched(code) -> str:
        name = code.co_filename
        if type_(name) is not str_:
            return "student"
        if name.startswith(harness) or name == ours:
            place = "harness"
        elif name.startswith(stdlib) or name.startswith("<frozen "):
            place = "stdlib"
        else:
            return "student"
        return place if found_in(name, code) else "student"

    def found_in(name: str, code) -> bool:
        """Whether ``code`` equals the code at its name and line in the file ``name``."""
        if name not in origins:
            origins[name] = index_of(origin_of(name))
        twins = origins[name].get((code.co_qualname, code.co_firstlineno), ())
        return any_(twin == code for twin in twins)

    def index_of(module) -> dict:
        """``(qualified name, first line) -> [code]`` of a module's code and all it nests."""
        index: dict = {}
        stack = [module] if type_(module) is code_type else []
        while stack:
            code = stack.pop()
            index.setdefault((code.co_qualname, code.co_firstlineno), []).append(code)
            stack.extend([c for c in code.co_consts if type_(c) is code_type])
        return index

    def origin_of(name: str):
        try:
            if name.startswith("<frozen "):
                module = name[len_("<frozen "):-1]
                return get_frozen(module) if is_frozen(module) else None
            with read_file(name, "rb") as handle:
                return compile_(handle.read(), name, "exec", dont_inherit=True)
        except (OSError, SyntaxError, ValueError, ImportError):
            return None

    def spoofed(filename: object) -> bool:
        if type_(filename) is not str_:
            return False
        assert isinstance(filename, str)  # for mypy; type_ is the real type, bound above
        return (filename.startswith(harness) or filename.startswith(stdlib)
                or filename.startswith("<frozen"))

    def frame_access(caller, what: str) -> None:
        if kind(caller.f_code) == "student":
            stop(f"{look} ({what})")
        frame = caller
        while frame is not None and kind(frame.f_code) == "stdlib":
            code = frame.f_code
            if code.co_name in texts and code.co_filename.endswith("/traceback.py"):
                return
            frame = frame.f_back
        if frame is not None and kind(frame.f_code) == "student":
            raise refused(f"{look} ({what}); the grader refused it")

    def compiled(args: tuple) -> None:
        source, filename = args[0], args[1]
        if not spoofed(filename):
            return
        try:
            with read_file(filename, "rb") as handle:
                text = handle.read()
        except OSError:
            text = None
        if type_(source) is str_ and text is not None and source.encode() == text:
            return
        if type_(source) is bytes and source == text:
            return
        stop(f"your code tried to pass itself off as the grader's or Python's own ({filename})")

    def set_profile(function) -> None:
        state["installing"] = ident()
        try:
            setprofile(function)
        finally:
            state["installing"] = None

    def watch(caller, event: str, args: tuple) -> None:
        if event == "graders.recursion.start":
            if state["watch"] is not None or getprofile() is not None:
                stop(f"{switch_off} (a second watch inside the running one)")
            scope = args[0] if args and type_(args[0]) is str_ else ""
            state["watch"] = {"frame": caller, "scope": scope, "active": {}, "found": None}
            set_profile(profiler)
            return
        current = state["watch"]
        if current is None or current["frame"] is not caller:
            stop(f"{switch_off} (it tried to end the grader's watch)")
        intact = getprofile() is profiler
        set_profile(None)
        state["watch"] = None
        finding = {"scope": current["scope"], "recursion": current["found"], "intact": intact}
        state["findings"].append(finding)
        if args and type_(args[0]) is dict:
            args[0].update(finding)

    def profiler(frame, event: str, arg: object) -> None:
        current = state["watch"]
        if current is None or (event != "call" and event != "return"):
            return
        code = frame.f_code
        # the harness's and Python's own code may recurse
        if id_(code) in known or kind(code) != "student":
            return
        active = current["active"]
        if event == "call":
            active[code] = active.get(code, 0) + 1
            if active[code] > 1 and current["found"] is None:
                current["found"] = code.co_name
        else:
            active[code] = active.get(code, 1) - 1

    def drain(caller, args: tuple) -> None:
        if state["server"] is None:
            state["server"] = caller
        elif state["server"] is not caller:
            stop("your code tried to take the grader's findings")
        if args and type_(args[0]) is list:
            args[0].extend(state["findings"])
        state["findings"] = []

    def builtin_module(event: str, args: tuple) -> None:
        target, box = args[0], args[1]
        if event == "graders.exec_builtin":
            name = target.__name__ if type_(target) is type_(sys) else None
        else:
            name = target.name if type_(target) is spec_type else None
        again = event == "graders.create_builtin" and name in modules
        if type_(name) is not str_ or name in fresh or again:
            stop(f"your code tried to make a fresh copy of the module {name!r}")
        run = exec_builtin if event == "graders.exec_builtin" else create_builtin
        box.append(run(target))

    def install_handler(args: tuple) -> None:
        number, handler, box = args
        if type_(number) is not int_ and type_(number) is not signals:
            raise TypeError("signal number must be an int")
        if callable_(handler):
            handler = frameless(handler)
        elif type_(handler) is handlers:
            handler = handler.value  # the C function takes SIG_IGN and SIG_DFL as plain ints
        elif type_(handler) is not int_:
            raise TypeError("signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a "
                            "callable object")
        box.append(real_signal(number, handler))

    def handle(caller, event: str, args: tuple) -> None:
        if event in kill:
            if event == "sys.setprofile" and state["installing"] == ident():
                return
            stop(kill[event])
        elif event == "object.__getattr__":
            if len_(args) > 1 and args[1] in frame_attributes:
                frame_access(caller, str_(args[1]))
        elif event == "sys._getframe":
            frame_access(caller, "sys._getframe")
        elif event.startswith("ctypes.") or (
                event == "import" and args and type_(args[0]) is str_
                and args[0].partition(".")[0] in ("ctypes", "_ctypes")):
            stop("your code tried to use ctypes, which reaches into the grader's memory")
        elif event == "compile":
            compiled(args)
        elif event == "open" and args and (type_(args[0]) is str_ or type_(args[0]) is bytes):
            slash = "/" if type_(args[0]) is str_ else b"/"
            if args[0].rpartition(slash)[2] in ("mem", b"mem"):  # /proc/<pid>/mem
                stop("your code tried to read or write the grader's memory (/proc/self/mem)")
        elif event == "code.__new__" and len_(args) > 1 and spoofed(args[1]):
            stop(f"your code tried to pass itself off as the grader's or Python's ({args[1]})")
        elif event in ("marshal.loads", "marshal.load"):
            if kind(caller.f_code) == "student":
                stop("your code tried to build code from marshal data")
        elif event.startswith("graders."):
            internal(caller, event, args)

    def internal(caller, event: str, args: tuple) -> None:
        if event in ("graders.recursion.start", "graders.recursion.stop"):
            watch(caller, event, args)
        elif event in ("graders.lock", "graders.findings"):
            drain(caller, args)
        elif event in ("graders.create_builtin", "graders.exec_builtin") and len_(args) == 2:
            builtin_module(event, args)
        elif event == "graders.signal" and len_(args) == 3 and type_(args[2]) is list:
            install_handler(args)

    def hook(event: str, args: tuple) -> None:
        me = ident()
        if me in state["busy"]:
            return  # the hook's own work (the frames it reads, the files it opens)
        state["busy"].add(me)
        try:
            handle(getframe(1), event, args)
        finally:
            state["busy"].discard(me)

    _lock_modules()
    sys.addaudithook(hook)


def _code_snapshot() -> dict:
    """``identity -> code`` of every function's code alive now and the code nested in it
    (strong references keep each identity unique: it is the object's address, see
    :data:`IDENTITY`). Called before any student code exists."""
    found: dict = {}
    function, code_type = types.FunctionType, types.CodeType
    stack = [thing.__code__ for thing in gc.get_objects() if type(thing) is function]
    while stack:
        code = stack.pop()
        key = IDENTITY(code)
        if key not in found:
            found[key] = code
            stack += [const for const in code.co_consts if type(const) is code_type]
    return found


def _create_builtin(spec):
    box: list = []
    sys.audit("graders.create_builtin", spec, box)
    return box[0]


def _exec_builtin(module):
    box: list = []
    sys.audit("graders.exec_builtin", module, box)
    return box[0]


def _signal_wrapper(signalnum, handler):
    """``signal.signal`` for student code: the handler gets no frame."""
    box: list = []
    sys.audit("graders.signal", signalnum, handler, box)
    return box[0]


def _refuse_debug(flags: int) -> None:
    sys.audit("gc.get_objects")  # refused like it: DEBUG_SAVEALL keeps every object


def _lock_modules() -> None:
    del sys.getprofile  # the profiler would lead to the watch's state
    _imp.create_builtin = _create_builtin
    _imp.exec_builtin = _exec_builtin
    _signal.signal = _signal_wrapper  # signal.signal calls it, with enums made ints
    gc.set_debug = _refuse_debug
