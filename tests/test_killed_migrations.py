"""Schema changes that are all-or-nothing or resumable (issue 27, item 2): `dedup migrate`, or a
new store's first use, killed (SIGKILL) after any of its writes or at a random statement, is
finished by running it again, giving a clean migration's schema with the store's data kept; two
first uses of a new store at once both succeed; a database with a table of a store's name that
dedup did not make is refused before anything is created in it."""

from __future__ import annotations

import os
import random
import signal
import sys

import pytest
import sqlalchemy as sa
from alembic import command
from click.testing import CliRunner

from dedup.cli import main
from dedup.errors import ConfigError
from dedup.store import migrate_store, open_store
from dedup.store.sql_migrate import _alembic_config, head_revision
from helpers import Child, make_table, petition, wait_until

class _Killer:
    """Counts the statements (all, and the writes) this process sends, and SIGKILLs it right after
    the one numbered ``kill_write`` among the writes, or ``kill_any`` among all."""

    WRITES = ("CREATE", "ALTER", "DROP", "INSERT", "UPDATE", "DELETE")

    def __init__(self, kill_write: int = 0, kill_any: int = 0):
        self.kill_write, self.kill_any, self.writes, self.statements = kill_write, kill_any, 0, 0

    def __call__(self, conn, cursor, statement: str, *rest) -> None:
        self.statements += 1
        write = statement.lstrip().upper().startswith(self.WRITES)
        self.writes += write
        if self.statements == self.kill_any or (write and self.writes == self.kill_write):
            os.kill(os.getpid(), signal.SIGKILL)


def _child(what: str, url: str, **kill) -> tuple[int, int, int]:
    """`dedup migrate` of the store (``what`` "migrate") or its first use ("open") in a forked child
    (a real process, killed for real; forked, it needs no second start of Python and dedup):
    (its wait status, writes, statements)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(read)
            killer = _Killer(**kill)
            sa.event.listen(sa.engine.Engine, "after_cursor_execute", killer)
            migrate_store(url) if what == "migrate" else open_store(url).close()
            os.write(write, f"{killer.writes} {killer.statements}".encode())
            os._exit(0)
        except BaseException as e:
            os.write(write, repr(e).encode())
            os._exit(1)
    os.close(write)
    with os.fdopen(read) as pipe:
        said = pipe.read()
    status = os.waitpid(pid, 0)[1]
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status), 0, 0
    assert os.WEXITSTATUS(status) == 0, said
    writes, statements = map(int, said.split())
    return 0, writes, statements


def _wipe(url: str) -> None:
    engine = sa.create_engine(url)
    try:
        md = sa.MetaData()
        md.reflect(engine)
        md.drop_all(engine)
    finally:
        engine.dispose()


def _start(url: str, revision: str | None) -> None:
    """An empty store, or one an older dedup made at ``revision``, with a table's rows and a group."""
    _wipe(url)
    if revision is None:
        return
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            command.upgrade(_alembic_config(conn), revision)
            conn.execute(sa.text("INSERT INTO dedup_fingerprints (table_name, row_key, fingerprint) "
                                 "VALUES ('t', '1', -5), ('t', '2', 7)"))
            conn.execute(sa.text("INSERT INTO dedup_blocks (table_name, block_name, textname, hashcode) "
                                 "VALUES ('t', 'b0:00ff', '1', -5), ('t', 'b0:00ff', '2', 7)"))
            conn.execute(sa.text("INSERT INTO dedup_groups (table_name, group_id, size, created_run, updated_run) "
                                 "VALUES ('t', 3, 2, 1, 1)"))
            conn.execute(sa.text("INSERT INTO dedup_group_members (table_name, row_key, group_id, distance) "
                                 "VALUES ('t', '1', 3, 0), ('t', '2', 3, 2)"))
            conn.execute(sa.text("INSERT INTO dedup_tables (table_name, version, max_group_id) "
                                 "VALUES ('t', '{\"max_distance\": 3}', 3)"))
    finally:
        engine.dispose()


def _schema(url: str) -> dict:
    """Every table's columns (type, nullability, default), primary key and indexes; on SQLite the
    rowid layout too; and the recorded revision."""
    engine = sa.create_engine(url)
    try:
        insp = sa.inspect(engine)
        out = {}
        for name in sorted(insp.get_table_names()):
            out[name] = (
                [(c["name"], str(c["type"]), c["nullable"], str(c.get("default"))) for c in insp.get_columns(name)],
                insp.get_pk_constraint(name)["constrained_columns"],
                sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in insp.get_indexes(name)))
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                out["rowid"] = conn.exec_driver_sql(
                    "SELECT name FROM sqlite_master WHERE sql LIKE '%WITHOUT ROWID%'").scalars().all()
            out["revision"] = conn.exec_driver_sql("SELECT version_num FROM dedup_alembic_version").scalars().all()
        return out
    finally:
        engine.dispose()


def _data_kept(url: str) -> None:
    store = open_store(url)
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5, "2": 7}
        assert [(g.id, g.keys) for g in store.groups("t")] == [(3, ["1", "2"])] and store.max_group_id("t") == 3
        assert sorted(store.block_entries("t", ["b0:00ff"])["b0:00ff"]) == [(7, "2"), (2**64 - 5, "1")]
    finally:
        store.close()


def _full_works(tmp_path, store_url: str) -> None:
    src = f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, [petition(i, f"小区门口的路灯坏了{i % 3}个月没人修") for i in range(1, 13)])
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(f'source: {{url: "{src}"}}\nstore: {{url: "{store_url}"}}\ntables:\n  petitions:\n'
                   "    key: id\n    fields: {name: short, content: text}\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["-c", str(cfg), "full", "-q"])
    assert out.exit_code == 0, out.output
    assert CliRunner().invoke(main, ["-c", str(cfg), "report", "-f", "json"]).exit_code == 0


def _finish_and_check(what: str, url: str, start: str | None, expected: dict, point: str) -> None:
    """Run the killed command again (in this process) and compare with a clean one's store."""
    if what == "migrate":
        assert migrate_store(url).endswith(f"to revision {head_revision()}"), point
    else:
        open_store(url).close()
    assert _schema(url) == expected, point
    if start is not None:
        _data_kept(url)


@pytest.mark.faults
@pytest.mark.parametrize("start", [None, "0002"])
def test_a_migration_killed_after_any_write_or_at_random_is_finished_by_running_it_again(db_url, start, tmp_path):
    """``start`` None: a new store's first use (`full` opening it); else `dedup migrate` of a store
    an older dedup made at that revision. Killed after each write in turn, then at random statements
    (the seed is printed), run again: the schema of a clean run, the rows kept, and `full` works."""
    what = "open" if start is None else "migrate"
    _start(db_url, start)
    _, writes, statements = _child(what, db_url)
    expected = _schema(db_url)
    seed = random.randrange(2**32)
    print(f"{what} from {start or 'empty'}: {writes} writes, {statements} statements; random kills: seed {seed}")
    rng = random.Random(seed)
    points = [("kill_write", n) for n in range(1, writes + 1)]
    points += [("kill_any", rng.randint(1, statements)) for _ in range(5)]
    for kind, n in points:
        _start(db_url, start)
        assert _child(what, db_url, **{kind: n})[0] == -signal.SIGKILL, (kind, n)
        _finish_and_check(what, db_url, start, expected, f"{kind}={n} (seed {seed})")
    _full_works(tmp_path, db_url)


# Two children wait for a file to appear, then open the same new store and start a run of their
# own table: the first use of the store by two runs at once.
FIRST_USE = r"""
import datetime as dt, os, sys, time
from dedup.store import RunRecord, open_store
url, table, go = sys.argv[1:]
print("ready", file=sys.stderr, flush=True)
deadline = time.monotonic() + 120
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.001)
store = open_store(url)
store.start_run(RunRecord(table, "full", dt.datetime(2026, 1, 1)))
store.close()
"""


def test_two_first_uses_of_a_new_store_at_once_both_succeed(db_url, tmp_path):
    _start(db_url, None)
    open_store(db_url).close()
    expected = _schema(db_url)
    for attempt in range(3):
        _start(db_url, None)
        go = tmp_path / f"go{attempt}"
        children = [Child([sys.executable, "-c", FIRST_USE, db_url, table, str(go)]) for table in ("a", "b")]
        try:
            for child in children:
                child.wait_for(lambda c=child: "ready" in c.lines, "the child's imports")
            go.touch()
            for child in children:
                wait_until(lambda c=child: c.proc.poll() is not None, what="the child's end")
                child._reader.join(60)
                assert child.proc.returncode == 0, "\n".join(child.lines[-5:])
        finally:
            for child in children:
                child.__exit__(None, None, None)
        assert _schema(db_url) == expected
        store = open_store(db_url)
        try:
            assert {r.table for t in ("a", "b") for r in store.runs(t)} == {"a", "b"}
        finally:
            store.close()


def test_a_database_with_a_table_of_a_stores_name_is_refused_before_anything_is_made(db_url, tmp_path):
    """The store pointed at the source's database, which has a user table named like one of dedup's:
    refused with one line (exit 2), and not one table of dedup's is left there."""
    _wipe(db_url)
    make_table(db_url, [petition(1, "路灯坏了")], name="dedup_runs")
    with pytest.raises(ConfigError, match="already has a table dedup_runs that dedup did not make"):
        open_store(db_url)
    with pytest.raises(ConfigError, match="already has a table dedup_runs"):
        migrate_store(db_url)
    engine = sa.create_engine(db_url)
    try:
        assert sa.inspect(engine).get_table_names() == ["dedup_runs"]
    finally:
        engine.dispose()


def test_a_store_url_that_is_a_directory_says_so(tmp_path):
    from dedup.errors import StoreError

    (tmp_path / "store.db").mkdir()
    with pytest.raises(StoreError, match=r"store\.db is a directory, not a SQLite file$"):
        open_store(f"sqlite:///{tmp_path / 'store.db'}")
