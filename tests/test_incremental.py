"""The incremental run: stable group ids, version stamp, locks, crashes (its equivalence with one full
run is test_incremental_property.py's)."""

import datetime as dt
import signal
import subprocess
import sys

import numpy as np
import pytest
import sqlalchemy as sa

from dedup.errors import ConfigError, LockedError
from dedup.runs.incremental import run_incremental
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.store import open_store
from helpers import Child, child_env, config_for
from mongo_fixtures import mongomock_url
from test_pipeline import BASE, OTHER

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock"])
def store_url(request, monkeypatch):
    """A store URL per backend; for mongomock, every MongoStore opened in the test shares one client."""
    if request.param != "mongomock":
        return request.getfixturevalue(f"{request.param}_url")
    return mongomock_url(monkeypatch)


def cfg_for(source_url, store_url, **kw):
    return config_for(source_url, store_url, fields=FIELDS, watermark="updated_at", batch_size=97, **kw)


def append(url, rows):
    engine = sa.create_engine(url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), rows)
    engine.dispose()


def update(url, key, **values):
    engine = sa.create_engine(url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.update().where(tbl.c.id == key).values(**values))
    engine.dispose()


def memberships(cfg, table="petitions", store=None):
    """The stored groups' keys, of ``store`` if given (else of cfg's store, opened and closed)."""
    if store is not None:
        return sorted(sorted(g.keys) for g in store.groups(table))
    with open_store(cfg.store_url) as opened:
        return memberships(cfg, table, opened)


def full_reference(source_url, tmp_path):
    ref = cfg_for(source_url, f"sqlite:///{tmp_path / 'reference-store.db'}")
    run_full(ref)
    return memberships(ref)


def test_incremental_with_idf_needs_a_full_run_first(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    sample = generate_petitions(30, seed=1)
    write_sample_db(src, sample)
    with pytest.raises(ConfigError, match="run `dedup full --table petitions` first"):
        run_incremental(cfg_for(src, f"sqlite:///{tmp_path / 'store.db'}", text={"idf": True}))


def test_rows_sharing_a_watermark_value_are_neither_skipped_nor_read_twice(tmp_path):
    same = dt.datetime(2024, 5, 1)
    rows = [{"id": i, "content": f"第{i}条 {OTHER}", "updated_at": same} for i in range(1, 8)]
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows[:3], {}))
    cfg = cfg_for(src, f"sqlite:///{tmp_path / 's.db'}")
    assert run_full(cfg).rows_read == 3
    append(src, rows[3:])  # same watermark value, higher keys
    assert run_incremental(cfg).rows_read == 4
    assert run_incremental(cfg).rows_read == 0


def rows_of(*texts, start=1):
    base = dt.datetime(2024, 1, 1)
    return [{"id": i, "name": None, "content": t, "updated_at": base + dt.timedelta(minutes=i)}
            for i, t in enumerate(texts, start)]


def test_group_ids_are_stable_and_merges_keep_the_oldest(store_url, tmp_path):
    # a and b are 5 bits apart; m is within 3 of both (found by search, checked below); the
    # simhash recipe at distance 3 on purpose: its pairs are known exactly from the fingerprints.
    # Groups as connected components: a bridge merges groups (star clustering, the default, does
    # not let one row join two groups: test_a_bridge_joins_one_group_when_groups_hold_together)
    a, b, m = BASE + "附近还有学校。", BASE + "附近还有银行。", BASE + "附近还有加油站。"
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(OTHER, a, OTHER, b), {}))
    cfg = cfg_for(src, store_url, match={"method": "simhash"}, max_distance=3, groups={"clustering": "components"})
    run_full(cfg)
    store = open_store(store_url)
    fp = store.fingerprints("petitions")
    assert (fp["2"] ^ fp["4"]).bit_count() == 5
    first = {tuple(g.keys): g.id for g in store.groups("petitions")}
    store.close()
    assert list(first) == [("1", "3")]

    append(src, rows_of(b, a, start=5))  # a copy of b (5), then of a (6): two new groups
    r = run_incremental(cfg)
    store = open_store(store_url)
    groups = {tuple(g.keys): g for g in store.groups("petitions")}
    store.close()
    assert set(groups) == {("1", "3"), ("2", "6"), ("4", "5")}
    assert groups[("1", "3")].id == first[("1", "3")]  # an untouched group keeps its id
    assert sorted(r.new_groups) == sorted([groups[("2", "6")].id, groups[("4", "5")].id])
    older, newer = sorted([groups[("2", "6")].id, groups[("4", "5")].id])

    append(src, rows_of(m, start=7))  # close to both: the two groups merge, the older id survives
    r = run_incremental(cfg)
    store = open_store(store_url)
    after = {tuple(g.keys): g for g in store.groups("petitions")}
    store.close()
    assert set(after) == {("1", "3"), ("2", "4", "5", "6", "7")}
    merged = after[("2", "4", "5", "6", "7")]
    assert merged.id == older and merged.merged_from == [newer]
    assert r.merges == {older: [newer]} and r.new_groups == [] and r.grown_groups == [older]
    assert merged.updated_run == r.run_id and after[("1", "3")].updated_run < r.run_id
    store = open_store(store_url)
    history = store.run_changes("petitions", r.run_id)
    store.close()
    assert [(c.group, c.kinds, c.added, c.merged_from, c.merged_into) for c in history] == [
        (older, ["grown", "merged"], ["7"], [newer], None), (newer, ["gone"], [], [], older)]
    assert r.summary()["rows_left_groups"] == 0 and r.summary()["split_groups"] == 0
    again = run_full(cfg)  # a full run finds the same groups: every id stays, nothing changes
    assert {tuple(g.keys): g.id for g in again.groups} == {k: g.id for k, g in after.items()}
    assert again.summary()["new_groups"] == again.summary()["merged_groups"] == 0


def test_a_group_that_only_loses_a_member_is_counted_as_shrunk_not_grown(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(OTHER, OTHER, OTHER), {}))
    cfg = cfg_for(src, f"sqlite:///{tmp_path / 's.db'}")
    run_full(cfg)
    store = open_store(cfg.store_url)
    (gid,) = [g.id for g in store.groups("petitions")]
    store.close()
    update(src, 3, content=BASE, updated_at=dt.datetime(2025, 1, 1))  # row 3 leaves the group
    r = run_incremental(cfg)
    assert memberships(cfg) == [["1", "2"]]
    assert r.shrunk_groups == [gid] and r.grown_groups == [] and r.summary()["shrunk_groups"] == 1


def test_changed_settings_refuse_incremental(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(BASE, OTHER), {}))
    store = f"sqlite:///{tmp_path / 's.db'}"
    run_full(cfg_for(src, store))
    changed = config_for(src, store, fields={**FIELDS, "name": {"kind": "short", "weight": 5}}, watermark="updated_at")
    with pytest.raises(ConfigError, match=r"run `dedup full --table petitions`"):
        run_incremental(changed)
    with pytest.raises(ConfigError, match="verify changed"):
        run_incremental(cfg_for(src, store, match={"threshold": 0.9}))


def test_a_store_built_by_the_papers_recipe_refuses_incremental_at_the_new_default(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(BASE, OTHER), {}))
    store = f"sqlite:///{tmp_path / 's.db'}"
    run_full(cfg_for(src, store, match={"method": "simhash"}, max_distance=3))
    with pytest.raises(ConfigError, match=r"match changed.*run `dedup full --table petitions`"):
        run_incremental(cfg_for(src, store))
    with pytest.raises(ConfigError, match="max_distance changed"):
        run_incremental(cfg_for(src, store, match={"method": "simhash"}, max_distance=4))


def test_incremental_needs_a_watermark_column(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(BASE), {}))
    with pytest.raises(ConfigError, match="tables.petitions.watermark: required"):
        run_incremental(config_for(src, f"sqlite:///{tmp_path / 's.db'}", fields=FIELDS))


def test_a_held_lock_stops_a_second_run_and_an_expired_one_does_not(store_url, tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(BASE, OTHER), {}))
    cfg = cfg_for(src, store_url)
    store = open_store(store_url)
    store.acquire_lock("petitions", "otherhost:1:x", ttl_seconds=600)
    with pytest.raises(LockedError, match="locked by another run"):
        run_incremental(cfg)
    with pytest.raises(LockedError):
        run_full(cfg)
    store.release_lock("petitions", "otherhost:1:x")
    store.acquire_lock("petitions", "otherhost:1:x", ttl_seconds=-1)  # already expired
    store.close()
    assert run_incremental(cfg).rows_read == 2


def test_a_lock_left_by_a_dead_process_on_this_machine_is_taken_over(tmp_path):
    from dedup.runs.lease import new_owner

    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(BASE, OTHER), {}))
    cfg = cfg_for(src, f"sqlite:///{tmp_path / 's.db'}")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    store = open_store(cfg.store_url)
    store.acquire_lock("petitions", new_owner(dead.pid), ttl_seconds=600)  # of this boot and pid namespace
    store.close()
    assert run_incremental(cfg).rows_read == 2


def test_a_failure_at_any_statement_of_the_write_leaves_the_store_as_it_was(tmp_path):
    """Fault injection: the store's write is cut at each statement in turn, then run again."""
    sample = generate_petitions(300, seed=5)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(sample.rows[:150], sample.truth))
    store_url = f"sqlite:///{tmp_path / 's.db'}"
    cfg = cfg_for(src, store_url)
    run_full(cfg)
    append(src, sample.rows[150:])
    expected = full_reference(src, tmp_path)

    from dedup.store.sql import SqlStore

    real = SqlStore.apply_changes
    cut = {"at": 1, "hit": False}

    def failing(self, changes):
        count = {"n": 0}

        def boom(*_a):
            count["n"] += 1
            if count["n"] == cut["at"]:
                cut["hit"] = True
                raise RuntimeError("injected fault")
        sa.event.listen(self.engine, "before_cursor_execute", boom)
        try:
            return real(self, changes)
        finally:
            sa.event.remove(self.engine, "before_cursor_execute", boom)

    cuts = 0
    for at in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89):  # until the cut falls past the write's last statement
        cut.update(at=at, hit=False)
        SqlStore.apply_changes = failing
        try:
            run_incremental(cfg)
        except Exception:
            assert cut["hit"]
            cuts += 1
            store = open_store(store_url)
            assert len(store.fingerprints("petitions")) <= 150  # nothing of the failed run is kept
            assert store.runs("petitions")[0].status == "failed"
            store.close()
            continue
        finally:
            SqlStore.apply_changes = real
        break
    else:
        run_incremental(cfg)
    assert cuts >= 5
    assert memberships(cfg) == expected


def test_killed_runs_then_a_clean_run_give_the_same_groups(tmp_path):
    """Kill `dedup incremental` (SIGKILL) at each moment in turn, run it again, compare with a clean run.
    The moments are events, not delays: the lock taken (a debug line), the run recorded (its row in
    the store), the changes about to be written (a debug line); each next run takes the lock over."""
    sample = generate_petitions(1200, seed=8)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(sample.rows[:400], sample.truth))
    store_path = tmp_path / "s.db"
    (tmp_path / "dedup.yaml").write_text(
        f'source: {{url: "{src}", batch_size: 50}}\nstore: {{url: "sqlite:///{store_path}"}}\n'
        "simhash: {max_distance: 3}\ntables:\n  petitions:\n    key: id\n    watermark: updated_at\n"
        "    fields: {name: short, phone: short, address: short, title: text, content: text}\n", encoding="utf-8")
    cfg = cfg_for(src, f"sqlite:///{store_path}")
    run_full(cfg)
    append(src, sample.rows[400:])
    expected = full_reference(src, tmp_path)
    store = open_store(cfg.store_url)

    def recorded():  # the newest run row, once it is the child's
        return next((r for r in store.runs("petitions", limit=1) if r.kind == "incremental" and r.id > last), None)

    moments = [lambda child: child.wait_for_line("petitions: lock taken by "),
               lambda child: child.wait_for(recorded, "its run row in the store"),
               lambda child: child.wait_for_line("petitions: writing the changes of run")]
    try:
        for moment in moments:
            last = store.runs("petitions", limit=1)[0].id
            with Child([sys.executable, "-m", "dedup", "-v", "-c", str(tmp_path / "dedup.yaml"), "incremental",
                        "--quiet"]) as child:
                moment(child)
                assert child.stop(signal.SIGKILL) == -signal.SIGKILL
        killed = [r for r in store.runs("petitions") if r.kind == "incremental" and r.status == "running"]
    finally:
        store.close()
    assert killed, "no kill landed inside a run"
    done = subprocess.run([sys.executable, "-m", "dedup", "-c", str(tmp_path / "dedup.yaml"), "incremental"],
                          env=child_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert memberships(cfg) == expected
    store = open_store(cfg.store_url)
    entries = store.block_entries("petitions", [f"{p}:{v:04x}" for p in range(4) for v in range(65536)])
    store.close()
    flat = [(name, key) for name, es in entries.items() for _, key in es]
    assert len(flat) == len(set(flat))  # no entry twice in a block


def test_mongo_changes_cut_at_each_write_are_repaired_by_running_again(monkeypatch, tmp_path):
    """No transactions on MongoDB: cut the incremental write at its 1st, 2nd, ... write operation,
    re-run each time, and end with the groups of one full run and no block entry twice."""
    import mongomock
    from mongomock.collection import Collection
    from pymongo.errors import AutoReconnect

    from dedup.store.mongo import MongoStore
    from mongo_fixtures import MOCK_URL, mongomock_store

    client = mongomock.MongoClient()

    def run(how):  # each run with a store of its own on the one server, as each process has
        with mongomock_store(client) as store:
            return how(cfg, store=store)

    sample = generate_petitions(140, seed=21, duplicate_share=0.3)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(sample.rows[:70], sample.truth))
    cfg = cfg_for(src, MOCK_URL)
    run(run_full)
    append(src, sample.rows[70:])
    expected = full_reference(src, tmp_path)

    state = {"armed": False, "calls": 0, "cut_at": 0}
    writes = ["bulk_write", "insert_one", "insert_many", "update_one", "update_many", "replace_one",
              "delete_one", "delete_many", "find_one_and_update", "drop", "rename"]
    for name in writes:
        real_method = getattr(Collection, name)

        def cut(self, *args, _real=real_method, **kwargs):
            if state["armed"]:
                state["calls"] += 1
                if state["calls"] == state["cut_at"]:
                    raise AutoReconnect("injected: connection lost")
            return _real(self, *args, **kwargs)
        monkeypatch.setattr(Collection, name, cut)
    def armed(real):  # the changes, and the next run's roll-forward of a cut one (dedup.store.mongo_journal)
        def run(self, *args):
            if state["armed"]:  # apply_changes' own check for a cut-short run: one count for both
                return real(self, *args)
            state.update(armed=True, calls=0)
            try:
                return real(self, *args)
            finally:
                state["armed"] = False
        return run
    monkeypatch.setattr(MongoStore, "apply_changes", armed(MongoStore.apply_changes))
    monkeypatch.setattr(MongoStore, "_roll_forward", armed(MongoStore._roll_forward))

    cuts = 0
    # mongomock runs a bulk_write through its single-document methods, so cuts also fall inside a bulk
    for at in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584):
        state["cut_at"] = at
        try:
            run(run_incremental)
        except Exception as e:
            assert "injected" in str(e)
            cuts += 1
            continue
        break
    else:
        state["cut_at"] = 0
        run(run_incremental)
    assert cuts >= 5  # the write was cut at several points before one got through
    assert run(lambda cfg, store: memberships(cfg, store=store)) == expected
    blocks = client["dedup_test"]["blocks.petitions"]
    entries = [(d["blockName"], e["textname"]) for d in blocks.find() for e in d["info"]]
    assert len(entries) == len(set(entries))
    store = mongomock_store(client)
    fps = store.fingerprints("petitions")
    keys = sorted(fps)
    stored = store.sketches("petitions", keys)  # the words after the fingerprint
    recipe = Recipe.of(cfg)
    sketches = np.array([[fps[k], *stored[k]] for k in keys], dtype=np.uint64)
    filed = recipe.block_entries(keys, sketches)  # a full run's entries: anchors under their keys' names
    expected = set(zip(filed.names, filed.keys))
    assert set(entries) == expected  # every stored row's keys, and nothing else


def test_full_run_writes_the_same_groups_on_every_store(store_url, tmp_path):
    sample = generate_petitions(150, seed=2, duplicate_share=0.3)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, sample)
    cfg = cfg_for(src, store_url)
    run_full(cfg)
    ref = cfg_for(src, f"sqlite:///{tmp_path / 'ref.db'}")
    run_full(ref)

    def everything(c):
        store = open_store(c.store_url)
        try:
            groups = [(g.id, g.keys, g.distances, g.pairs) for g in store.groups("petitions")]
            return groups, store.fingerprints("petitions"), store.skipped("petitions")
        finally:
            store.close()
    got, want = everything(cfg), everything(ref)
    assert got == want and len(got[0]) >= 5


def test_a_full_run_that_merges_two_groups_keeps_the_lower_id_and_records_the_merge(tmp_path):
    a, b, m = BASE + "附近还有学校。", BASE + "附近还有银行。", BASE + "附近还有加油站。"  # as above
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows_of(OTHER, a, OTHER, b, b, a), {}))
    cfg = cfg_for(src, f"sqlite:///{tmp_path / 'store.db'}", match={"method": "simhash"}, max_distance=3,
                  groups={"clustering": "components"})  # a bridge merges components (star clustering: no merge)
    first = run_full(cfg)
    ids = {tuple(g.keys): g.id for g in first.groups}
    assert set(ids) == {("1", "3"), ("2", "6"), ("4", "5")}
    append(src, rows_of(m, start=7))
    second = run_full(cfg)
    assert {tuple(g.keys): g.id for g in second.groups} == {("1", "3"): ids[("1", "3")],
                                                             ("2", "4", "5", "6", "7"): ids[("2", "6")]}
    assert second.groups[-1].merged_from == [ids[("4", "5")]]
    store = open_store(cfg.store_url)
    history = store.run_changes("petitions", second.run_id)
    store.close()
    assert [(c.group, c.kinds, c.added, c.merged_into) for c in history] == [
        (ids[("2", "6")], ["grown", "merged"], ["7"], None), (ids[("4", "5")], ["gone"], [], ids[("2", "6")])]
