"""A throwaway PostgreSQL server for the tests, and an empty database per test.

Import the fixtures explicitly (``from tests.conftest_postgres import pg_url``). The server
is Debian's PostgreSQL (``/usr/lib/postgresql/*/bin``): a cluster made by ``initdb`` in a
temporary folder, started once per test session on a free loopback port (no Unix socket), as
an unprivileged user when the tests run as root (``initdb`` refuses root), and stopped at the
end. Without those binaries the tests that need it are skipped, except under ``CI``, where
they fail with the reason: ``.ci/run`` installs the ``postgresql`` package.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from glob import glob
from pathlib import Path

import pytest

from .services import free_port, unavailable

#: The unprivileged account that owns the cluster when the tests run as root.
_UNPRIVILEGED = "nobody"
_STARTUP_SECONDS = 60
_SUPERUSER = "triqua"


def _binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/N/bin`` that has initdb and pg_ctl."""
    found = [
        Path(initdb).parent
        for initdb in glob("/usr/lib/postgresql/*/bin/initdb")
        if Path(initdb).with_name("pg_ctl").exists()
    ]
    return max(
        found, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, default=None
    )


def _missing(reason: str) -> None:
    """Fail under CI, where Postgres must run; skip elsewhere, saying so."""
    unavailable(
        reason,
        ci="CI must run the Postgres tests (.ci/run installs postgresql)",
        hint="apt-get install postgresql to run it",
    )


def _as_owner(command: list[str]) -> list[str]:
    """``command`` run as the unprivileged owner when the tests run as root."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", _UNPRIVILEGED, "--", *command]


def _run(command: list[str], what: str, log: Path | None = None) -> None:
    done = subprocess.run(
        _as_owner(command), capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
        pytest.fail(f"{what} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A running PostgreSQL cluster for this session; yields its ``postgresql://`` base URL."""
    bin_dir = _binaries()
    if bin_dir is None:
        _missing("PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb) are missing")
    assert bin_dir is not None
    try:
        import psycopg  # noqa: F401  (the driver the store and the tests use)
    except ImportError:
        _missing("psycopg is not installed (pip install 'triqua[postgres]')")
    root = Path(tempfile.mkdtemp(prefix="triqua-pg-"))
    data, log = root / "data", root / "server.log"
    if os.geteuid() == 0:
        owner = pwd.getpwnam(_UNPRIVILEGED)
        os.chown(root, owner.pw_uid, owner.pw_gid)
    root.chmod(0o700)
    port = free_port()
    _run(
        [str(bin_dir / "initdb"), "-D", str(data), "-U", _SUPERUSER, "--auth=trust", "-E", "UTF8"],
        "initdb",
    )
    options = f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off"
    _run(
        [
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-o",
            options,
            "-w",
            "-t",
            str(_STARTUP_SECONDS),
            "start",
        ],
        "pg_ctl start",
        log,
    )
    try:
        yield f"postgresql://{_SUPERUSER}@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
            capture_output=True,
            timeout=60,
            check=False,
        )
        shutil.rmtree(root, ignore_errors=True)


def new_database(server: str) -> str:
    """The URL of a new, empty database on ``server``."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


def drop_database(url: str) -> None:
    """Drop the database at ``url``, waiting for its last connections to close."""
    import psycopg

    server, name = url.rsplit("/", 1)
    deadline = time.monotonic() + 10
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        while True:  # a test's last connection may still be closing
            try:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except psycopg.errors.ObjectInUse:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """The URL of a new, empty database on the session's server (dropped afterwards)."""
    url = new_database(pg_server)
    yield url
    drop_database(url)


@contextmanager
def password_cluster(password: str) -> Iterator[str]:
    """A cluster of its own whose TCP logins need a password (scram-sha-256 in pg_hba).

    Yields its base URL with the superuser's name and no password (give it with
    ``PGPASSWORD`` or in the URL).
    """
    bin_dir = _binaries()
    if bin_dir is None:
        _missing("PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb) are missing")
    assert bin_dir is not None
    root = Path(tempfile.mkdtemp(prefix="triqua-pgpw-"))
    data, log, secret = root / "data", root / "server.log", root / "pw"
    secret.write_text(password + "\n")
    if os.geteuid() == 0:
        owner = pwd.getpwnam(_UNPRIVILEGED)
        for path in (root, secret):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    root.chmod(0o700)
    port = free_port()
    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", _SUPERUSER, "-E", "UTF8"]
    auth = ["--auth-host=scram-sha-256", "--auth-local=trust", f"--pwfile={secret}"]
    _run([*initdb, *auth], "initdb")
    options = f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off"
    start = [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w"]
    _run([*start, "-t", str(_STARTUP_SECONDS), "start"], "pg_ctl start", log)
    try:
        yield f"postgresql://{_SUPERUSER}@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
            capture_output=True,
            timeout=60,
            check=False,
        )
        shutil.rmtree(root, ignore_errors=True)
