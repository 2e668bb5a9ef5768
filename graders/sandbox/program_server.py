"""The program server: runs a student's whole programs inside ONE sandbox, one fork per run.

Copied into the sandbox as ``/harness/program_server.py`` and started as ``python3
/harness/program_server.py [MODULE...]`` (never ``-I``: the flags, environment and ``sys.path``
must be the ones ``python3 prog.py`` gets). Standard library only; nothing from ``graders`` is
importable. The MODULEs are the course's packages the programs import: imported once, before
anything else, and kept for every run (see :func:`_preload`).

Protocol (fd 3, a SOCK_SEQPACKET socket whose other end only the grader holds): the server
sends ``{"ready": true}``; then each request is one JSON packet ``{"argv": [...], "cpu": s,
"memory": bytes, "extra": {name: base64}}`` carrying three file descriptors (the run's stdin,
stdout and stderr); the answer is ``{"exit": status}`` (bubblewrap's convention: 128 + N for
a program killed by signal N) or ``{"decline": why}`` when the run must be a fresh process.

Before each run every other process of the sandbox uid is killed and ``/sandbox`` is put back
as it was when the server started: the files the grader bound there get their bytes, mode and
times back, anything else is removed, and the run's extra files are written. The run itself is
a forked child, made to look like a fresh ``python3 prog.py`` (see :func:`_enter`): the fork
happens before any of the student's code is imported, modules the server imported are taken
out of ``sys.modules`` (so a student's ``json.py`` shadows ``json`` as it would), and the
program's code runs at module level, so the interpreter itself ends the child: threads are
waited for, ``atexit`` handlers run, streams are flushed, as at the end of a fresh process.
The server is non-dumpable, so no program can open its memory or its socket through ``/proc``.
"""

import sys

_FRESH_MODULES = frozenset(sys.modules)  # what `python3 prog.py` has when prog.py starts
_MAIN_KEYS = [key for key in globals() if key.startswith("__")]


def _vm_size():
    with open("/proc/self/status", "rb") as status:
        return 1024 * int(next(line for line in status if line.startswith(b"VmSize:")).split()[1])


_FRESH_SIZE = _vm_size()  # a fresh program's address space at start


def _preload(names):
    """Import the course's packages the programs import (``argv``: top-level names the grader
    found; sympy takes 0.3 s a run), before anything of the server's own: every run then
    finds them imported, as a fresh interpreter has them after its own ``import``. Returns the
    modules a run keeps and the address space they take (charged to the run), or a reason
    the server must not fork at all. Nothing is kept unless the imports left ``sys.path``
    alone and no entry of /sandbox could have stood in for a module they loaded (a fresh run
    finds the student's ``mpmath.py`` first); a module that starts a thread makes forking
    unsafe (a child has only the forking thread). An import that prints is not kept either:
    a fresh run's output would hold what it printed."""
    if not names:
        return frozenset(), 0, None
    import os  # noqa: PLC0415 - loaded at start-up already: binds it, imports nothing

    path, before, size = list(sys.path), frozenset(sys.modules), _vm_size()
    saved = [os.dup(1), os.dup(2)]
    said = os.memfd_create("printed")  # what the imports print
    os.dup2(said, 1)
    os.dup2(said, 2)
    try:
        failed = not all(_imported(name) for name in names if name.isidentifier())
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        printed = os.lseek(said, 0, os.SEEK_END) > 0
        for fd in (*saved, said):
            os.close(fd)
    if len(os.listdir("/proc/self/task")) > 1:
        return frozenset(), 0, "an imported module started a thread"
    added = frozenset(sys.modules) - before
    local = {entry.partition(".")[0] for entry in os.listdir("/sandbox")}
    if failed or printed or sys.path != path or any(n.partition(".")[0] in local for n in added):
        return frozenset(), 0, None  # a run imports them itself, as a fresh one does
    return added, _vm_size() - size, None


def _imported(name):
    """Import ``name``; False when that failed other than by its absence (nothing loaded)."""
    try:
        __import__(name)
    except ModuleNotFoundError as error:
        return error.name == name
    except BaseException:  # noqa: BLE001 - a run imports it itself, fresh, and sees why
        return False
    return True


_PRELOADED, _PRELOADED_SIZE, _UNFORKABLE = _preload(sys.argv[1:])
_KEPT = _FRESH_MODULES | _PRELOADED

import base64  # noqa: E402 - the two snapshots above must come first
import ctypes  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402

CHANNEL_FD = 3
ROOT = "/sandbox"
PACKET = 8 * 1024 * 1024
# The server's module frame and its exec() call sit below the program: two more levels keep the
# depth a program may recurse to exactly a fresh interpreter's (measured on CPython 3.11).
EXTRA_DEPTH = 2
_BUILTINS = globals()["__builtins__"]
_LOADER = sys.modules["_frozen_importlib_external"].SourceFileLoader


def _dumpable(flag):
    ctypes.CDLL(None, use_errno=True).prctl(4, flag, 0, 0, 0)  # 4: PR_SET_DUMPABLE


def _snapshot(root):
    """Every file and folder under ``root``: path -> (bytes or None for a folder, mode, times)."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            data = None
            if not os.path.isdir(path):
                with open(path, "rb") as handle:
                    data = handle.read()
            found[path] = (data, info.st_mode & 0o7777, (info.st_atime_ns, info.st_mtime_ns))
    return found


def _sweep():
    """Kill every process of this uid but the server, and reap the server's children."""
    for _ in range(50):
        try:  # noqa: SIM105 - contextlib is one more module for every child to forget
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        while True:
            try:
                pid, _status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not _others():
            return


def _others():
    """Live processes of this uid other than the server (zombies are dead already)."""
    me, uid, found = os.getpid(), os.getuid(), []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in (me, 1):
            continue
        try:
            if os.stat(f"/proc/{name}").st_uid != uid:
                continue
            with open(f"/proc/{name}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[-1].split()[:1] != [b"Z"]:
                    found.append(int(name))
        except OSError:
            continue
    return found


def _chmod(path, mode):
    try:  # noqa: SIM105
        os.chmod(path, mode)
    except PermissionError:  # a folder bubblewrap made (root's, already 0777)
        pass


def _reset(pristine):
    """Put /sandbox back as it was: pristine files restored, everything else removed."""
    _clear(ROOT, pristine)
    for path in sorted(pristine):
        data, mode, times = pristine[path]
        if data is None:
            if not os.path.isdir(path):
                os.mkdir(path)
            _chmod(path, mode)
            continue
        os.chmod(path, 0o600)
        with open(path, "wb") as handle:
            handle.write(data)
        os.chmod(path, mode)
        os.utime(path, ns=times)


def _clear(folder, pristine):
    _chmod(folder, 0o777)
    for entry in os.scandir(folder):
        path = entry.path
        if path in pristine and pristine[path][0] is None and entry.is_dir(follow_symlinks=False):
            _clear(path, pristine)
        elif path not in pristine:
            _remove(path)


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        _chmod(path, 0o777)
        for entry in os.scandir(path):
            _remove(entry.path)
        os.rmdir(path)
    else:
        os.unlink(path)


def _script(argv):
    """The program's absolute path and source, or (None, why) when it needs a fresh process."""
    name = argv[1] if len(argv) > 1 else ""
    if not name.endswith(".py") or name.startswith(("-", "/")) or ".." in name.split("/"):
        return None, f"not a plain program path: {name!r}"
    path = os.path.join(ROOT, name)
    if os.path.islink(path) or not os.path.isfile(path):
        return None, f"{name} is not a regular file"
    with open(path, "rb") as handle:
        source = handle.read()
    try:
        source.decode("utf-8")
    except UnicodeDecodeError:
        return None, "source is not UTF-8"
    if b"\0" in source:
        return None, "source holds a null byte"
    return path, source


def _answer(channel, message):
    channel.send(json.dumps(message).encode())


def _serve():
    """Serve runs until the grader closes the channel; return (argv, source, path, cpu) in
    the forked child of a run (the parent never returns)."""
    _dumpable(0)
    channel = socket.socket(fileno=CHANNEL_FD)
    pristine = _snapshot(ROOT)
    # Every object the server holds joins the collector's permanent generation: a run's child
    # then never walks them (its collections and its interpreter's final one), so it does not
    # copy the server's pages on write. It halves a run's CPU (a program that does nothing:
    # from about 12 to 6 ms). Invisible to a run: source naming the collector runs fresh.
    gc.freeze()
    if _UNFORKABLE:
        _answer(channel, {"unforkable": _UNFORKABLE})
        os._exit(0)
    _answer(channel, {"ready": True, "preloaded": [n for n in sys.argv[1:] if n in _PRELOADED]})
    while True:
        packet, fds, _flags, _address = socket.recv_fds(channel, PACKET, 3)
        if not packet:
            os._exit(0)
        request = json.loads(packet)
        _sweep()
        _reset(pristine)
        for name, data in request.get("extra", {}).items():
            with open(os.path.join(ROOT, name), "wb") as handle:
                handle.write(base64.b64decode(data))
        path, source = _script(request["argv"])
        if path is None or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            _answer(channel, {"decline": source if path is None else "no stdio given"})
            continue
        pid = os.fork()
        if pid == 0:
            channel.close()
            _stdio(fds)
            return request["argv"], source, path, request["cpu"], request["memory"]
        for fd in fds:
            os.close(fd)
        _pid, status = os.waitpid(pid, 0)
        _sweep()
        code = os.waitstatus_to_exitcode(status)
        _answer(channel, {"exit": 128 - code if code < 0 else code})


def _stdio(fds):
    """The run's pipes as fds 0, 1 and 2, and no other descriptor, as a fresh process has."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    os.closerange(3, 1 << 16)


def _enter(argv, source, path, cpu, memory):
    """Make this forked child look like ``python3 <argv...>`` started in /sandbox; return the
    program's code (None after a syntax error, already reported) and its ``__main__``.

    Limits are a fresh process's: CPU time counts from the fork, and the address space a
    program may add is ``memory`` over what a fresh interpreter starts with (the server's own
    modules stay mapped in the child, so the cap grows by what they take)."""
    _dumpable(1)
    os.setsid()  # bwrap --new-session: the program leads its own session and group
    resource.setrlimit(resource.RLIMIT_CPU, (cpu + 1, cpu + 2))
    room = memory + max(0, _vm_size() - _FRESH_SIZE - _PRELOADED_SIZE)
    resource.setrlimit(resource.RLIMIT_AS, (room, room))
    os.chdir(ROOT)
    sys.argv = list(argv[1:])
    sys.orig_argv = [sys.orig_argv[0], *argv[1:]]
    sys.path[0] = os.path.realpath(os.path.dirname(path))
    _forget_modules()
    if "random" in _PRELOADED:  # a fresh interpreter seeds it anew: not every run alike
        sys.modules["random"].seed()
    main = _main_module(path)
    sys.setrecursionlimit(sys.getrecursionlimit() + EXTRA_DEPTH)
    try:
        return compile(source, path, "exec", dont_inherit=True), main
    except SyntaxError as error:
        _flush()
        _print_error(error, None)
        return None, main


def _forget_modules():
    """Drop what the server imported for itself: the program imports it afresh, from its own
    folder first, as a fresh interpreter would (the preloaded course packages stay)."""
    for name in [name for name in sys.modules if name not in _KEPT]:
        module = sys.modules.pop(name)
        parent, _, child = name.rpartition(".")
        if parent in _KEPT and getattr(sys.modules.get(parent), child, None) is module:
            delattr(sys.modules[parent], child)


def _main_module(path):
    """A new ``__main__`` with the keys, in the order, that a script's ``__main__`` has."""
    main = type(sys)("__main__")
    values = {"__name__": "__main__", "__doc__": None, "__package__": None,
              "__loader__": _LOADER("__main__", path), "__spec__": None,
              "__annotations__": {}, "__builtins__": _BUILTINS, "__file__": path,
              "__cached__": None}
    main.__dict__.clear()
    main.__dict__.update((key, values[key]) for key in _MAIN_KEYS if key in values)
    sys.modules["__main__"] = main
    return main


def _flush():
    """flush_io(): stderr then stdout, errors ignored."""
    for stream in (sys.stderr, sys.stdout):
        try:  # noqa: SIM105
            stream.flush()
        except Exception:  # noqa: BLE001, S110 - the interpreter ignores these too
            pass


def _print_error(error, traceback):
    """PyErr_Print for an uncaught exception: sys.last_* then sys.excepthook."""
    error = error.with_traceback(traceback)
    sys.last_type, sys.last_value, sys.last_traceback = type(error), error, traceback
    sys.excepthook(type(error), error, traceback)


def _forget_file(main):
    """A script's ``__file__`` and ``__cached__`` leave ``__main__`` when it ends (not on
    SystemExit), before atexit handlers run."""
    main.__dict__.pop("__file__", None)
    main.__dict__.pop("__cached__", None)


if __name__ == "__main__":
    _job = _serve()
    _code, _main = _enter(*_job)
    del _job
    try:
        if _code is None:
            _forget_file(_main)
            sys.exit(1)
        try:
            exec(_code, _main.__dict__)  # noqa: S102 - the student's program, in its sandbox
        except SystemExit:
            raise
        except BaseException as _error:  # noqa: BLE001 - reported as the interpreter would
            _flush()
            _print_error(_error, _error.__traceback__ and _error.__traceback__.tb_next)
            _forget_file(_main)
            sys.exit(1)
        _flush()
        _forget_file(_main)
    finally:
        # These globals are frozen (never collected): holding the program's __main__ here
        # would keep its objects, and their finalizers, alive past the interpreter's end.
        del _code, _main
