"""Engines for configured URLs and one-line driver errors, shared by the source and the SQL store."""

from __future__ import annotations

import logging
import os
import re
import warnings
from urllib.parse import quote, unquote, urlparse

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..errors import ConfigError
from .driver_logs import quiet_driver_cleanup
from .masking import mask_secrets, remember_secrets

log = logging.getLogger(__name__)


def make_engine(url: str, what: str) -> sa.Engine:
    """An engine for a configured URL; a malformed URL or missing driver is a configuration error."""
    remember_secrets(url)
    quiet_driver_cleanup()
    try:
        u = with_default_driver(sa.make_url(url))
        if u.get_backend_name() in ("mysql", "mariadb") and "charset" not in u.query:
            u = u.update_query_dict({"charset": "utf8mb4"})  # Chinese text needs 4-byte UTF-8
        kwargs = {"pool_pre_ping": True} if u.get_backend_name() != "sqlite" else {}
        return sa.create_engine(u, **kwargs)
    except ImportError as e:
        raise ConfigError(f"{what}.url: cannot use {mask_secrets(url)!s}: {missing_module(e)}") from None
    except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ValueError) as e:
        raise ConfigError(f"{what}.url: cannot use {mask_secrets(url)!s}: {first_line(e)}") from None


# the package extra that installs each driver dedup names (pyproject.toml's optional dependencies)
EXTRAS = {"psycopg": "postgres", "psycopg2": "postgres", "pymysql": "mysql", "MySQLdb": "mysql", "pyspark": "spark"}


def missing_module(e: ImportError) -> str:
    """A missing driver as one line that says what to install: ``No module named 'psycopg'; pip
    install 'dedup[postgres]'`` for the drivers dedup's extras install, the error's own line otherwise."""
    name = (getattr(e, "name", None) or "").split(".")[0]
    if name not in EXTRAS:
        return first_line(e)
    hint = f"pip install 'dedup[{EXTRAS[name]}]'"
    if name == "MySQLdb":
        hint += " and write mysql+pymysql://"
    return f"No module named {name!r}; {hint}"


def with_default_driver(u: sa.URL) -> sa.URL:
    """``postgres://`` (Heroku's and libpq's spelling) and ``postgresql://`` with no driver mean
    PostgreSQL through psycopg 3, the driver ``dedup[postgres]`` installs (SQLAlchemy would look
    for a ``postgres`` dialect, or for psycopg2)."""
    if u.drivername in ("postgres", "postgresql"):
        return u.set(drivername="postgresql+psycopg")
    return u


def first_line(e: BaseException) -> str:
    """The first meaningful line of a (driver) error, with secrets masked."""
    inner = getattr(e, "orig", None) or e
    text = str(inner).strip().splitlines()
    return mask_secrets(text[0] if text else type(inner).__name__)


def read_only_sqlite_url(url: str) -> str | None:
    """The URL that reads a SQLite store file without writing to it; None when the file does not exist.

    The file is opened as a URI filename with ``mode=ro``; where its directory cannot be written
    and no WAL index (``-shm``) is there, SQLite could not make one, so it is opened ``immutable=1``.
    Other URLs (servers, in-memory SQLite) are returned unchanged.
    """
    u = sa.make_url(url)
    db = u.database
    if u.get_backend_name() != "sqlite" or not db or db == ":memory:" or u.query.get("mode") == "memory":
        return url
    query = dict(u.query)
    if db.startswith("file:"):  # already a URI filename: it may say mode= itself
        path = os.path.abspath(unquote(urlparse(db).path))
        query.setdefault("mode", "ro")
    else:
        path = os.path.abspath(db)
        db, query["mode"] = "file:" + quote(path), "ro"
    if not os.path.isfile(path):
        return None
    if not os.access(os.path.dirname(path), os.W_OK) and not os.path.exists(path + "-shm"):
        query["immutable"] = "1"
    return u.set(database=db, query={**query, "uri": "true"}).render_as_string(hide_password=False)


_UNKNOWN_TYPE = re.compile(r"Did not recognize type '(.+)' of column '(.+)'")


def reflect_table(engine: sa.Engine, name: str, url: str) -> sa.Table:
    """The table ``name`` reflected (an unknown column type one warning line); a table the
    database lacks is a ConfigError that lists the tables (and views) it has."""
    try:
        with engine.connect() as conn, warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", sa_exc.SAWarning)
            tbl = sa.Table(name, sa.MetaData(), autoload_with=conn)
    except sa_exc.NoSuchTableError:
        raise ConfigError(f"table {name!r} not found in the source database {mask_secrets(url)}"
                          f" ({_table_names(engine)})") from None
    say_unknown_types(name, seen)
    return tbl


def _table_names(engine: sa.Engine) -> str:
    """The tables (and views) a database has, for the message about a table it lacks."""
    try:
        inspector = sa.inspect(engine)
        names = sorted(set(inspector.get_table_names()) | set(inspector.get_view_names()))
    except sa_exc.SQLAlchemyError as e:
        return f"cannot list its tables: {first_line(e)}"
    return "tables: " + ", ".join(names) if names else "it has no tables"


def say_unknown_types(table: str, seen: list) -> None:
    """SQLAlchemy's warning about a column type it does not know (PostgreSQL's ``point``, say),
    as one line naming the column (a raw Python warning showed dedup's source line to users);
    other warnings are passed on as they were."""
    for w in seen:
        found = _UNKNOWN_TYPE.search(str(w.message))
        if found:
            log.warning("%s: column %r has a type SQLAlchemy does not know (%s); its values are read as the "
                        "database driver gives them", table, found.group(2), found.group(1))
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
