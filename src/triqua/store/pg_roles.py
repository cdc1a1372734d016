"""Two roles for a run store in PostgreSQL: one owns the tables, triqua runs as the other.

The append-only triggers hold against any role that does not own the tables: only an owner
(or a superuser) may ``ALTER TABLE … DISABLE TRIGGER`` or drop a trigger. So
:func:`init_store` creates the tables, the triggers and the checkpoint tables as the owner
role, and grants the role triqua runs as only what a check, ``runs``, ``show``,
``regrade``, ``runs prune`` and a durable run need: ``SELECT`` and ``INSERT`` on the store,
``DELETE`` on ``runs`` and ``outcomes`` (the triggers let only a run without a report go),
and reading and writing the checkpoints. ``runs delete`` lifts the triggers, so it takes
the owner's URL.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from triqua.store.postgres import PostgresDatabase, import_psycopg
from triqua.store.tables import APPEND_ONLY_TABLES, CHAIN_TABLE

__all__ = ["CHECKPOINT_TABLES", "as_role", "grant_run_as", "init_store"]

#: LangGraph's checkpoint tables (written by a durable run) and its migrations table (read).
CHECKPOINT_TABLES = ("checkpoints", "checkpoint_blobs", "checkpoint_writes")
_MIGRATIONS = "checkpoint_migrations"
_ROLE = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def _checked(role: str) -> str:
    """``role`` when it is a plain SQL identifier (it goes into a connection option)."""
    if not _ROLE.fullmatch(role):
        raise ValueError(f"role {role!r}: use letters, digits, _ and $ only")
    return role


def as_role(url: str, role: str) -> str:
    """``url`` with the session switched to ``role`` at login (libpq ``options=-c role=…``).

    The login user must be ``role`` or a member of it.
    """
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-c role={_checked(role)}"))
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))  # libpq: no +


def grant_run_as(url: str, run_as: str, *, checkpoints: bool) -> None:
    """Grant ``run_as`` what triqua needs on the store at ``url`` (connected as the owner)."""
    psycopg = import_psycopg()
    from psycopg import sql

    who = sql.Identifier(_checked(run_as))

    def tables(names: tuple[str, ...]) -> sql.Composed:
        return sql.SQL(", ").join(sql.Identifier(name) for name in names)

    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        schema = conn.execute("SELECT current_schema()").fetchone()[0]
        statements = [
            sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(schema), who),
            sql.SQL("GRANT SELECT, INSERT ON {} TO {}").format(
                tables((*APPEND_ONLY_TABLES, CHAIN_TABLE)), who
            ),
            sql.SQL("GRANT SELECT ON store_version TO {}").format(who),
            sql.SQL("GRANT DELETE ON runs, outcomes TO {}").format(who),
        ]
        if checkpoints:
            statements += [
                sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {} TO {}").format(
                    tables(CHECKPOINT_TABLES), who
                ),
                sql.SQL("GRANT SELECT ON {} TO {}").format(sql.Identifier(_MIGRATIONS), who),
            ]
        for statement in statements:
            conn.execute(statement)


def init_store(url: str, owner: str) -> str:
    """Create the run store at ``url`` as ``owner`` (the tables, the function, the triggers).

    Returns:
        ``url`` switched to ``owner``: the URL to set up the checkpoints and grant through.

    Raises:
        StoreError: psycopg is missing or the server refuses the connection or the role.
        ValueError: a role name that is not a plain identifier.
    """
    owned = as_role(url, owner)
    PostgresDatabase(owned)
    return owned
