"""`dedup init`: a table dedup has never seen, reflected and sampled, becomes a starter config.

The key is the primary key, else a column declared unique, else a column whose values are all
distinct and never NULL on the whole table (said so in the file); without one nothing is written.
The watermark is a date/time column whose name says it changes (updated_at), else one that says
rows are added (created_at), else an integer primary key (new rows only). Each other column is a
field or left out, by its type and a sample of its values (dedup.db.guess_columns).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..config.starter import PASSWORD_VAR, Choice, Starter
from ..errors import ConfigError, SourceError
from .engine import first_line, make_engine, reflect_table
from .guess_columns import Profile, choose_fields, display_columns, hinted
from .masking import mask_secrets
from .watermark import column_kind

SAMPLE_ROWS = 2000
_CHANGED = r"updat|modif|chang|edit|last|mtime|touch|revis"
_ADDED = r"creat|insert|add|file|submit|receiv|regist|time|date|_at$|_on$"
_SECRET_QUERY = re.compile(r"password|pwd|passwd|secret|token", re.I)
_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}")


def guess_starter(url: str, table: str, config_path: str | os.PathLike, sample: int = SAMPLE_ROWS) -> Starter:
    """Reflect ``table`` at ``url``, sample up to ``sample`` rows and decide its config."""
    _sqlite_file_exists(url)
    engine = make_engine(url, "source")
    try:
        tbl = reflect_table(engine, table, url)
        with engine.connect() as conn:
            rows = conn.execute(sa.select(*tbl.c).limit(sample)).all()
            profiles = [Profile.of(c, [r[i] for r in rows]) for i, c in enumerate(tbl.c)]
            key = _key(conn, tbl, profiles)
    except sa_exc.SQLAlchemyError as e:
        raise SourceError(f"cannot read the source database {mask_secrets(url)}: {first_line(e)}") from None
    finally:
        engine.dispose()
    watermark, no_watermark = _watermark(tbl, profiles, key.column, engine.dialect.name)
    rest = [p for p in profiles if p.column.name not in (key.column, watermark and watermark.column)]
    fields, left_out = choose_fields(rest, len(rows))
    if not rows:
        raise ConfigError(f"table {table!r} is empty: init guesses the fields from its rows; run it when the table "
                          "holds some, or write the config by hand (config.example.yaml); nothing written")
    if not fields:
        raise ConfigError(f"table {table!r}: no column to compare rows by ("
                          + "; ".join(f"{c.column}: {c.why}" for c in left_out) + "); nothing written")
    config_dir = Path(config_path).resolve().parent
    source_url, hidden = _public_url(url, config_dir)
    return Starter(table=table, source_url=source_url, store_url=f"sqlite:///{Path(config_path).stem}-store.db",
                   key=key, watermark=watermark, no_watermark=no_watermark, fields=fields, left_out=left_out,
                   display=display_columns(fields, profiles), sampled=len(rows), password_hidden=hidden,
                   date_column=_date_column(profiles, key.column, engine.dialect.name, watermark))


def _sqlite_file_exists(url: str) -> None:
    """A SQLite path that names no file is a typo: connecting would create an empty database there."""
    try:
        u = sa.make_url(url)
    except sa_exc.ArgumentError:
        return  # make_engine says what is wrong with it
    db = u.database or ""
    if u.get_backend_name() == "sqlite" and db and db != ":memory:" and not db.startswith("file:") \
            and not Path(db).is_file():
        raise ConfigError(f"no SQLite database file at {Path(db).resolve()}")


def _key(conn, tbl: sa.Table, profiles: list[Profile]) -> Choice:
    """The primary key, a column declared unique, or one found unique on the whole table."""
    pk = list(tbl.primary_key.columns)
    if len(pk) == 1:
        return Choice(pk[0].name, None, "the primary key")
    declared = [list(c.columns) for c in tbl.constraints if isinstance(c, sa.UniqueConstraint)]
    declared += [list(ix.columns) for ix in tbl.indexes if ix.unique]
    unique = sorted((cols[0] for cols in declared if len(cols) == 1), key=lambda c: c.nullable)
    if unique:
        return Choice(unique[0].name, None, "declared unique" + (" (NULL keys are skipped)" if unique[0].nullable
                                                                 else ""))
    total = conn.execute(sa.select(sa.func.count()).select_from(tbl)).scalar()
    for p in sorted(profiles, key=lambda p: (not p.integer, not hinted(p.column.name, "id"))):
        if (p.integer or p.text and p.max_len <= 64) and p.distinct == p.filled == len(p.values) and total:
            c = p.column
            found = conn.execute(sa.select(sa.func.count(sa.distinct(c)), sa.func.count(c))).one()
            if tuple(found) == (total, total):
                return Choice(c.name, None, f"not declared unique, but its {total:,} values are all distinct; "
                                            "declare it UNIQUE so that it stays so (rows sharing a key are skipped)")
    why = "a composite primary key" if pk else "no primary key"
    raise ConfigError(f"table {tbl.name!r} has {why}, no column declared unique and no column whose values are all "
                      "distinct: dedup needs one key column (add one, e.g. an id column with a primary key); "
                      "nothing written")


def _dated(p: Profile, dialect: str) -> bool:
    """Whether a column holds dates or times (typed so, or text that all reads as one)."""
    return column_kind(p.column, dialect) in ("datetime", "timestamp", "date") or bool(
        p.text and p.filled and all(_ISO_TIME.match(v) for v in p.strings))


def _date_column(profiles: list[Profile], key: str, dialect: str, watermark: Choice | None) -> Choice | None:
    """The date/time that says when a row was filed, for reports: one whose name says rows are added
    (created_at, filed_on) before one that says they change, else the watermark when it is a date."""
    dated = [p.column.name for p in profiles
             if p.column.name != key and not hinted(p.column.name, "birth") and _dated(p, dialect)]
    added = [c for c in dated if re.search(_ADDED, c, re.I) and not re.search(_CHANGED, c, re.I)]
    if added:
        return Choice(added[0], None, "a date/time set when a row is added: reports show it and order each "
                                      "group's rows by it")
    if watermark is not None and watermark.column in dated:
        return Choice(watermark.column, None, "the watermark's date/time (no column says when a row was filed): "
                                              "reports show it and order each group's rows by it")
    return None


def _watermark(tbl: sa.Table, profiles: list[Profile], key: str, dialect: str) -> tuple[Choice | None, str]:
    """A column that says a row is new or changed, or None and why there is none."""
    best = None
    for p in profiles:
        c = p.column
        if c.name == key or hinted(c.name, "birth"):
            continue
        if not _dated(p, dialect):
            continue
        rank = 0 if re.search(_CHANGED, c.name, re.I) else 1 if re.search(_ADDED, c.name, re.I) else 2
        if best is None or rank < best[0]:
            best = (rank, c.name)
    if best is not None and best[0] < 2:
        rank, column = best
        why = ("a date/time that changes when a row is edited: incremental reads rows past it" if rank == 0 else
               "a date/time set when a row is added: incremental finds new rows, not edits to old ones")
        return Choice(column, None, why), ""
    col = tbl.c[key]
    if column_kind(col, dialect) == "number" and col.primary_key:
        return Choice(key, None, "no date/time column says a row changed; the integer primary key grows with "
                                 "new rows: incremental finds new rows, not edits to old ones"), ""
    return None, ("No column says a row is new or changed (a date/time such as updated_at, or an increasing "
                  "number): `dedup full` works, `dedup incremental` needs one")


def _public_url(url: str, config_dir: Path) -> tuple[str, bool]:
    """The URL as the config keeps it: its password a ${...} reference, a SQLite path relative to
    the config's folder (or absolute)."""
    u = sa.make_url(url)
    hidden = False
    if u.password:
        u, hidden = u.set(password=_MARK), True
    query = {k: (_MARK if _SECRET_QUERY.search(k) else v) for k, v in u.query.items()}
    hidden = hidden or _MARK in query.values()
    u = u.set(query=query)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:" \
            and not u.database.startswith("file:"):
        path = Path(u.database).resolve()
        rel = os.path.relpath(path, config_dir)
        u = u.set(database=rel if not rel.startswith("..") else str(path))
    text = u.render_as_string(hide_password=False)
    return text.replace(_MARK, "${" + PASSWORD_VAR + "}"), hidden


_MARK = "dedupinitpasswordmark"
