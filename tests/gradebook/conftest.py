"""The gradebook's fixtures: a real PostgreSQL server for the shared-gradebook tests.

The server is Debian's ``postgresql`` package (``scripts/install.sh --with-browser`` installs
it), started by pytest-postgresql's executor in a folder of its own. PostgreSQL refuses to run
as root: when the tests run as root (CI does), ``pg_ctl`` runs as the ``postgres`` user the
package creates, through ``runuser``. Without ``pg_ctl`` (or, as root, without that user) the
tests that need the server are skipped, saying why.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SERVER_USER = "postgres"
_NUMBERS = itertools.count(1)


def pg_ctl() -> Path | None:
    """Debian's ``pg_ctl`` (not on PATH there: ``/usr/lib/postgresql/<version>/bin``)."""
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path)
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    return found[-1] if found else None


def _why_not() -> str | None:
    if pg_ctl() is None:
        return ("no pg_ctl on this machine: install Debian's postgresql package "
                "(scripts/install.sh --with-browser does)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"PostgreSQL refuses to run as root and there is no {SERVER_USER!r} user"
        if shutil.which("runuser") is None:
            return "PostgreSQL refuses to run as root and runuser is missing"
    return None


def _executable(folder: Path) -> str:
    """``pg_ctl``, or as root a script running it as the server's user."""
    real = pg_ctl()
    assert real is not None
    if os.geteuid() != 0:
        return str(real)
    script = folder / "pg_ctl"
    script.write_text(f'#!/bin/sh\nexec runuser -u {SERVER_USER} -- "{real}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(script)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    """A running PostgreSQL server (pytest-postgresql's executor), stopped at the end."""
    why = _why_not()
    if why:
        pytest.skip(why)
    from port_for import get_port
    from pytest_postgresql.executors import PostgreSQLExecutor

    folder = Path(tempfile.mkdtemp(prefix="gradebook-pg-"))
    folder.chmod(0o755)
    if os.geteuid() == 0:
        entry = pwd.getpwnam(SERVER_USER)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = get_port(None)
    executor = PostgreSQLExecutor(
        executable=_executable(folder), host="127.0.0.1", port=port, user=SERVER_USER,
        dbname="gradebook", options="", datadir=str(folder / "data"), unixsocketdir=str(folder),
        logfile=str(folder / "server.log"), startparams="-w", postgres_options="",
    )
    executor.start()
    try:
        executor.wait_for_postgres()
        yield executor
    finally:
        try:
            executor.stop()
        except subprocess.CalledProcessError as error:
            # The server ended before the session did (seen once in CI: pg_ctl "could not
            # send stop signal ... No such process", its data folder gone). The tests that
            # used it passed or failed on their own; the session does not fail at its end.
            sys.stderr.write(f"postgres_server: the server had ended already: {error}\n")
        finally:
            shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(postgres_server, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh database on the server, as a ``postgresql://`` URL; dropped afterwards."""
    from pytest_postgresql.janitor import DatabaseJanitor

    server: Any = postgres_server
    name = f"gradebook_{next(_NUMBERS)}"
    with DatabaseJanitor(user=server.user, host=server.host, port=server.port, dbname=name):
        yield f"postgresql://{server.user}@{server.host}:{server.port}/{name}"
