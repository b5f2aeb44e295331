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
from click.testing import CliRunner

from dedup.cli import main
from dedup.errors import ConfigError
from dedup.store import migrate_store, open_store
from dedup.store.sql_migrate import head_revision
from helpers import Child, make_table, petition, wait_until
from mongo_fixtures import mongo_live_url  # noqa: F401 (a fixture)
from test_sql_migrations import _store_at

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
    """An empty store, or one an older dedup made at ``revision``, with a table's rows, block entries
    and a group."""
    _wipe(url)
    if revision is None:
        return
    engine = _store_at(url, revision)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO dedup_blocks (table_name, block_name, textname, hashcode) "
                                 "VALUES ('t', 'b0:00ff', '1', -5), ('t', 'b0:00ff', '2', 7)"))
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
        # a kill after the migration's last commit (a random kill at its last statements) leaves
        # it done: the run again says "up to date"; the schema check below is what must hold
        said = migrate_store(url)
        assert said.endswith((f"to revision {head_revision()}", f"up to date (revision {head_revision()})")), point
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


def _two_first_uses(url: str, go, wipe) -> list[int]:
    """Two children start a run each (tables a and b) on the new store at ``url`` at once: their run ids."""
    wipe()
    children = [Child([sys.executable, "-c", FIRST_USE, url, table, str(go)]) for table in ("a", "b")]
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
    store = open_store(url)
    try:
        return sorted(r.id for t in ("a", "b") for r in store.runs(t))
    finally:
        store.close()


def test_two_first_uses_of_a_new_store_at_once_both_succeed(db_url, tmp_path):
    _start(db_url, None)
    open_store(db_url).close()
    expected = _schema(db_url)
    for attempt in range(3):
        assert _two_first_uses(db_url, tmp_path / f"go{attempt}", lambda: _start(db_url, None)) == [1, 2]
        assert _schema(db_url) == expected


def test_two_first_uses_of_a_new_mongo_store_at_once_both_succeed(mongo_live_url, tmp_path):
    """On a live server: the second first use once read an early version and was refused, and the
    run-id counter's concurrent upsert gave SecantusDB's loser no document."""
    import pymongo

    client = pymongo.MongoClient(mongo_live_url)
    try:
        db = client.get_default_database()
        for attempt in range(10):
            ids = _two_first_uses(mongo_live_url, tmp_path / f"go{attempt}", lambda: client.drop_database(db.name))
            assert len(set(ids)) == 2  # (SecantusDB's loser may have counted before it got no document)
    finally:
        client.close()


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
    url = f"sqlite:///{tmp_path / 'store.db'}"
    with pytest.raises(StoreError, match=r"store\.db is a directory, not a SQLite file$"):
        open_store(url)
    with pytest.raises(StoreError, match=r"^migrating .* failed: .*store\.db is a directory, not a SQLite file$"):
        migrate_store(url)


def test_a_second_first_use_of_a_mongo_store_never_lowers_its_version(monkeypatch):
    """Two first uses of a new MongoDB store at once: the one that read the database empty while the
    other was finishing records each step it applies again, and the version never goes back (on
    the way the store was refused as "at version 1 ... run `dedup migrate`", and so it stayed when
    that run was killed there)."""
    import mongomock

    from dedup.store import mongo_migrate

    db = mongomock.MongoClient().db
    mongo_migrate.upgrade(db)  # the first one, done
    head = mongo_migrate.head_version()
    steps = mongo_migrate.steps()

    def checked(step):
        def run(d):
            assert d[mongo_migrate.META].find_one({"_id": "schema"})["version"] == head
            step(d)
        return run

    monkeypatch.setattr(mongo_migrate, "steps", lambda: [(v, w, checked(f)) for v, w, f in steps])
    monkeypatch.setattr(mongo_migrate, "current_version", lambda d: None)  # what the second one read
    mongo_migrate.upgrade(db)
    monkeypatch.undo()
    assert mongo_migrate.current_version(db) == head


def test_a_mongo_store_part_way_through_its_first_use_is_finished_by_the_next():
    """Another first use still under way (or killed) has recorded version 3 of the steps: a first use
    now finishes the store instead of refusing it ("at version 3 ... run `dedup migrate`"), once
    it holds nothing; a store that holds anything is still refused."""
    import mongomock

    from dedup.errors import StoreError
    from dedup.store import mongo_migrate

    db = mongomock.MongoClient().db
    db[mongo_migrate.META].insert_one({"_id": "schema", "version": 3})
    mongo_migrate.ensure_schema(db)
    assert mongo_migrate.current_version(db) == mongo_migrate.head_version()
    db[mongo_migrate.META].update_one({"_id": "schema"}, {"$set": {"version": 3}})
    db.fingerprints.insert_one({"table": "t", "key": "1"})
    with pytest.raises(StoreError, match="at version 3, .*run `dedup migrate`"):
        mongo_migrate.ensure_schema(db)
