"""Late rows, backdated edits and deletes (issue 13): two incremental runs end with one full run's groups.

Across the runs: new rows, a late row (inserted with a watermark older than the stored one, within
the lookback), an edit whose watermark goes back, a normal edit and a deleted row (reconciled).
Sources: SQLite, PostgreSQL, MariaDB; stores: SQLite, mongomock and a live MongoDB server
(DEDUP_TEST_MONGO_URI).
"""

import datetime as dt

import pytest

from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import open_store
from helpers import delete_rows
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (fixture)
from test_incremental import append, cfg_for, memberships, update

BASE = dt.datetime(2024, 3, 1)
UNRELATED = "完全不同的内容：本人反映单位食堂卫生问题，请予以调查，食堂餐具长期不消毒。"


def _reference(src, tmp_path):
    ref = cfg_for(src, f"sqlite:///{tmp_path / 'reference.db'}")
    run_full(ref)
    return memberships(ref)


@pytest.mark.parametrize("source_kind,store_kind", [
    ("sqlite", "sqlite"), ("sqlite", "mongomock"), ("sqlite", "mongo_live"),
    ("postgres", "sqlite"), ("mariadb", "sqlite")])
def test_late_rows_backdated_edits_and_deletes_end_with_one_full_runs_groups(
        source_kind, store_kind, request, tmp_path, monkeypatch):
    n = 90 if store_kind.startswith("mongo") else 160
    sample = generate_petitions(n + 20, seed=23, duplicate_share=0.4)
    rows = [{**r, "updated_at": BASE + dt.timedelta(minutes=r["id"])} for r in sample.rows]  # one a minute
    src = request.getfixturevalue("sqlite_url" if source_kind == "sqlite" else f"{source_kind}_url")
    write_sample_db(src, SampleTable(rows[:n], sample.truth))
    cfg = cfg_for(src, store_url_of(store_kind, request, tmp_path, monkeypatch))  # watermark_lookback: the default, 1d
    run_full(cfg)
    stored_wm = rows[n - 1]["updated_at"]
    groups = memberships(cfg)
    assert len(groups) >= 3

    # run 1: two new rows, a late row (a copy of a grouped row, filed an hour before the stored
    # watermark), a grouped row edited with its watermark moved back, and a normal edit
    append(src, [{**r, "updated_at": stored_wm + dt.timedelta(minutes=i + 1)} for i, r in enumerate(rows[n:n + 2])])
    donor = next(r for r in rows if str(r["id"]) == groups[0][0])
    append(src, [{**donor, "id": n + 50, "updated_at": stored_wm - dt.timedelta(hours=1)}])
    backdated = int(groups[1][-1])
    update(src, backdated, content=UNRELATED, title="食堂", updated_at=rows[backdated - 1]["updated_at"] - dt.timedelta(minutes=5))
    edited = int(groups[2][0])
    update(src, edited, content=donor["content"], title=donor["title"], name=donor["name"], phone=donor["phone"],
           address=donor["address"], updated_at=stored_wm + dt.timedelta(minutes=10))
    r1 = run_incremental(cfg)
    assert (r1.rows_read, r1.changed) == (5, 2)
    assert r1.unchanged > 0 and r1.lookback_from is not None and r1.deleted == 0 and not r1.reconciled
    assert str(n + 50) in {k for g in memberships(cfg) for k in g}  # the late row joined its donor's group
    assert memberships(cfg) == _reference(src, tmp_path)

    # run 2: a grouped row is deleted (its group shrinks, splits or dissolves) and reconciled; one more late row
    gone = int(max(memberships(cfg), key=len)[0])
    delete_rows(src, gone)
    append(src, [{**rows[n + 5], "id": n + 51, "updated_at": stored_wm - dt.timedelta(hours=2)}])
    r2 = run_incremental(cfg, reconcile=True)
    assert r2.reconciled and r2.deleted == 1 and r2.rows_read == 1 and r2.unseen_rows == 0
    assert str(gone) not in {k for g in memberships(cfg) for k in g}
    assert memberships(cfg) == _reference(src, tmp_path)
    summary = r2.summary()
    assert (summary["deleted"], summary["reconciled"], summary["unseen_rows"]) == (1, True, 0)

    # nothing is done twice: a third run reads the window again and processes nothing
    r3 = run_incremental(cfg, reconcile=True)
    assert (r3.rows_read, r3.changed, r3.deleted) == (0, 0, 0) and r3.unchanged > 0
    store = open_store(cfg.store_url)
    try:
        assert str(gone) not in store.keys("petitions")
        assert store.state("petitions").watermark["value"] == (stored_wm + dt.timedelta(minutes=10)).isoformat()
    finally:
        store.close()
