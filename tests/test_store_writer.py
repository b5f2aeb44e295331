"""A full run's store write in a child process (dedup.runs.store_writer): the store holds what the
one-process write holds, on every SQL database; a run that fails in either process commits
nothing and leaves the previous results; no child outlives the run."""

from __future__ import annotations

import multiprocessing
import threading

import numpy as np
import pytest
import sqlalchemy as sa

import dedup.runs.store_writer as store_writer
import dedup.store.entries as store_entries
from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.errors import StoreError
from dedup.runs.full import run_full
from dedup.store import open_store
from dedup.store import sql as sql_store, sql_write
from dedup.config import parse_config
from helpers import wait_until

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}


def config(source_url: str, store_url: str, workers: int = 2):
    return parse_config({"source": {"url": source_url, "batch_size": 100}, "store": {"url": store_url},
                         "text": {"workers": workers},
                         "tables": {"petitions": {"key": "id", "watermark": "updated_at", "fields": FIELDS}}})


def contents(store_url: str) -> dict:
    """Every dedup_* table's rows (the run history's times and ids aside), sorted."""
    engine = sa.create_engine(store_url)
    out = {}
    with engine.connect() as conn:
        for name in ("dedup_fingerprints", "dedup_blocks", "dedup_groups", "dedup_group_members", "dedup_pairs",
                     "dedup_skipped", "dedup_term_counts", "dedup_run_changes"):
            rows = conn.execute(sa.text(f"SELECT * FROM {name}")).mappings().all()
            out[name] = sorted(tuple(sorted((k, v) for k, v in r.items() if k != "run_id")) for r in rows)
        out["state"] = conn.execute(sa.text("SELECT version, watermark, max_group_id FROM dedup_tables")).all()
    engine.dispose()
    return out


@pytest.fixture
def source(tmp_path):
    url = f"sqlite:///{tmp_path / 'source.db'}"
    write_sample_db(url, generate_petitions(600, seed=3))
    return url


@pytest.fixture
def beside(monkeypatch):
    """Small tables written beside too (the run counts the children it starts)."""
    monkeypatch.setattr(store_writer, "MIN_ROWS", 0)
    started = []
    real = store_writer.StoreWriter.__init__

    def init(self, *a, **k):
        real(self, *a, **k)
        started.append(self)
    monkeypatch.setattr(store_writer.StoreWriter, "__init__", init)
    return started


@pytest.mark.parametrize("backend", ["sqlite", "postgres", "mariadb"])
def test_the_child_writes_what_one_process_writes(request, source, tmp_path, backend, beside, monkeypatch):
    """And block entries written 97 at a time (dedup.store.entries) store what one slice stores."""
    urls = {"sqlite": lambda n: f"sqlite:///{tmp_path / n}"}
    if backend != "sqlite":
        url = request.getfixturevalue(f"{backend}_url")
        other = request.getfixturevalue("sqlite_url")  # the one-process run's store, for comparison
        urls = {"one": other, "two": url}
    else:
        urls = {"one": urls["sqlite"]("one.db"), "two": urls["sqlite"]("two.db")}
    one = run_full(config(source, urls["one"], workers=1))
    assert not beside
    monkeypatch.setattr(store_entries, "SLICE", 97)
    two = run_full(config(source, urls["two"], workers=2))
    assert len(beside) == 1 and list(beside[0].seconds.values())[0] > 0
    assert "store (child process: block names and write)" in two.stages
    assert [g.keys for g in one.groups] == [g.keys for g in two.groups] and len(one.groups) > 10
    a, b = contents(urls["one"]), contents(urls["two"])
    if backend != "sqlite":  # types come back as each database keeps them: compare as text
        a, b = ({k: [tuple((c, str(v)) for c, v in row) for row in rows] for k, rows in d.items() if k != "state"}
                for d in (a, b))
    assert a == b
    assert len(a["dedup_blocks"]) > 5000


def test_a_second_run_on_a_stored_table_keeps_the_group_ids(source, tmp_path, beside):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    first = run_full(config(source, url))
    second = run_full(config(source, url))
    assert len(beside) == 2
    assert [(g.id, g.keys) for g in first.groups] == [(g.id, g.keys) for g in second.groups]
    assert second.changes["new_groups"] == 0 and second.changes["grown_groups"] == 0


def test_the_parent_failing_commits_nothing(source, tmp_path, beside, monkeypatch):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    run_full(config(source, url))
    before = contents(url)
    import dedup.runs.full as full

    def boom(*a, **k):
        raise RuntimeError("the groups failed")
    monkeypatch.setattr(full, "settle_groups", boom)
    with pytest.raises(RuntimeError, match="the groups failed"):
        run_full(config(source, url))
    assert len(beside) == 2 and not beside[1]._proc.is_alive()
    assert contents(url) == before
    assert not [p for p in multiprocessing.active_children() if p.name == "dedup-store-writer"]


def test_the_child_failing_is_raised_in_the_parent_and_commits_nothing(source, tmp_path, beside, monkeypatch):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    run_full(config(source, url))
    before = contents(url)

    def boom(*a, **k):  # patched before the fork: the child runs it
        raise StoreError("disk full while writing blocks")
    monkeypatch.setattr(sql_write, "add_blocks", boom)
    with pytest.raises(StoreError, match="disk full while writing blocks"):
        run_full(config(source, url))
    assert len(beside) == 2 and contents(url) == before
    s = open_store(url)
    try:
        assert [r.status for r in s.runs("petitions")] == ["failed", "ok"]  # newest first
    finally:
        s.close()


def test_the_child_failing_before_the_groups_are_sent_is_its_own_error(source, tmp_path, beside, monkeypatch):
    """The child fails at once and has exited before the parent sends the groups: the parent
    reports the child's error, not a broken pipe."""
    import dedup.runs.full as full
    url = f"sqlite:///{tmp_path / 'store.db'}"
    run_full(config(source, url))
    before = contents(url)

    def boom(*a, **k):  # the child's first step
        raise ValueError("no block entries today")
    real_settle = full.settle_groups

    def settle_after_the_child_ended(*a, **k):
        wait_until(lambda: beside and not beside[-1]._proc.is_alive(), what="the writer to end")
        return real_settle(*a, **k)
    monkeypatch.setattr(full, "rows_snapshot", boom)
    monkeypatch.setattr(full, "settle_groups", settle_after_the_child_ended)
    with pytest.raises(ValueError, match="no block entries today"):
        run_full(config(source, url))
    assert len(beside) == 2 and contents(url) == before


def test_the_child_killed_is_an_error_in_the_parent(source, tmp_path, beside, monkeypatch):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    run_full(config(source, url))
    before = contents(url)
    import os

    def die(*a, **k):
        os._exit(9)
    monkeypatch.setattr(sql_write, "add_groups", die)  # in the child, after the rows are written
    with pytest.raises(StoreError, match="ended without committing"):
        run_full(config(source, url))
    assert contents(url) == before


def test_in_memory_or_one_worker_or_a_small_table_or_no_wal_writes_in_one_process(tmp_path, monkeypatch):
    with open_store(f"sqlite:///{tmp_path / 's.db'}") as store, open_store("sqlite://") as memory:
        assert store_writer.can_write_beside(store, 10 ** 6, 2)
        assert not store_writer.can_write_beside(store, 10 ** 6, 1)
        assert not store_writer.can_write_beside(store, store_writer.MIN_ROWS - 1, 2)
        assert not store_writer.can_write_beside(memory, 10 ** 6, 2)
    # a SQLite file left in rollback-journal mode (WAL impossible on its file system): the child's
    # write would lock the parent's reads out
    monkeypatch.setattr(sql_store, "_sqlite_pragmas", sql_store._sqlite_busy)
    with open_store(f"sqlite:///{tmp_path / 'plain.db'}") as plain:
        assert not store_writer.can_write_beside(plain, 10 ** 6, 2)


def test_the_child_s_store_is_the_sql_store_opened_anew_and_no_other_store_offers_one(tmp_path):
    """The writer asks the store (concurrent_writer), not its type: a MongoDB store offers none."""
    import mongomock

    from dedup.store.mongo import MongoStore
    from mongo_fixtures import MOCK_URL

    url = f"sqlite:///{tmp_path / 's.db'}"
    with open_store(url) as store:
        reopen = store.concurrent_writer()
        with reopen() as again:
            assert again is not store and again.url == url
            assert str(again.engine.url) == str(store.engine.url)
    with MongoStore(MOCK_URL, client=mongomock.MongoClient()) as mongo:
        assert mongo.concurrent_writer() is None
        assert not store_writer.can_write_beside(mongo, 10 ** 6, 2)


def test_arrays_cross_the_pipe_whole_writable_and_out_of_band(monkeypatch):
    """send_arrays: an array over many chunks, a non-contiguous one, an empty one and plain objects
    come back equal; the arrays arrive writable, and the pickled head holds none of their bytes."""
    monkeypatch.setattr(store_writer, "CHUNK", 1000)
    big = np.arange(12_345, dtype=np.uint64).reshape(-1, 5) * 7919
    obj = {"big": big, "strided": big[:, 1:3], "empty": np.empty((0, 4), np.int32), "keys": ["a", "b"], "n": 3}
    heads = []
    real_send_bytes = multiprocessing.connection.Connection.send_bytes

    def send_bytes(self, buf, *a):
        heads.append(len(bytes(buf)))
        return real_send_bytes(self, buf, *a)
    monkeypatch.setattr(multiprocessing.connection.Connection, "send_bytes", send_bytes)
    a, b = multiprocessing.Pipe()
    sender = threading.Thread(target=store_writer.send_arrays, args=(a, obj))
    sender.start()  # the pipe holds less than the array: the receiver reads as it is sent
    got = store_writer.receive_arrays(b)
    sender.join()
    assert set(got) == set(obj) and got["keys"] == ["a", "b"] and got["n"] == 3
    for name in ("big", "strided", "empty"):
        assert got[name].dtype == obj[name].dtype and np.array_equal(got[name], obj[name])
    got["big"][0, 0] = 1  # writable: the child's own buffer
    assert heads[0] < 1000 + big[:, 1:3].nbytes  # the head: the strided copy in band, not the big array
    assert len(heads) == 1 + -(-big.nbytes // 1000)  # the big array in CHUNK-byte messages


def test_the_writer_is_forked_before_the_table_is_read(source, tmp_path, beside, monkeypatch):
    """The child inherits the interpreter, not the read's heap: it exists before the first row
    is read, and the inputs it writes come after the rows' distinct sketches."""
    import dedup.runs.full as full
    seen = []
    real = full.featurise_table

    def featurise(*a, **k):
        seen.append(len(beside))
        return real(*a, **k)
    monkeypatch.setattr(full, "featurise_table", featurise)
    url = f"sqlite:///{tmp_path / 'store.db'}"
    result = run_full(config(source, url))
    assert seen == [1] and len(beside) == 1 and len(result.groups) > 10
    assert contents(url)["dedup_fingerprints"]
