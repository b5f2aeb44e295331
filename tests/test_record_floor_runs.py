"""Full and incremental runs on a table the record floor keys (issue 22): every person entered
several times (bench/datasets/records/copies.py), so the learned keys alone would be empty.

An incremental run keys and scores with what the first full run learned; a full run over all
rows learns again. On a table this small the statistics of a part already pick other pair keys
and move scores by about 0.02 (with or without the floor), so a row near the threshold can fall
on the other side: full-then-incremental is held to one full run's quality here, and to the
first run's learned floor, not to its exact groups.
"""

from __future__ import annotations

import datetime as dt
import sqlite3

import pytest

from bench.datasets.records.copies import FIELDS, generate
from dedup.config import parse_config
from dedup.config.model import FieldSpec
from dedup.eval.metrics import pair_quality
from dedup.index.records import RecordScheme
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.recipe import LEARNED
from dedup.store import open_store
from dedup.text.records import RecordSignature
from mongo_fixtures import mongo_live_url  # noqa: F401  (a live server when DEDUP_TEST_MONGO_URI is set)
from test_incremental import memberships, store_url  # noqa: F401  (store_url: the four-backend fixture)


def write(path, rows, fields=FIELDS) -> None:
    """Rows into table ``persons`` (created if missing), ``updated_at`` a minute an id."""
    con = sqlite3.connect(str(path))
    with con:
        con.execute(f"CREATE TABLE IF NOT EXISTS persons (id INTEGER PRIMARY KEY, "
                    f"{', '.join(f + ' TEXT' for f in fields)}, updated_at TEXT)")
        con.executemany(f"INSERT INTO persons VALUES ({', '.join('?' * (len(fields) + 2))})",
                        ([r["id"], *[r[f] for f in fields],
                          str(dt.datetime(2026, 1, 1) + dt.timedelta(minutes=r["id"]))] for r in rows))
    con.close()


def config(source_url, store_url):
    return parse_config({"source": {"url": source_url, "batch_size": 97}, "store": {"url": store_url},
                         "tables": {"persons": {"key": "id", "watermark": "updated_at",
                                                "fields": {f: "short" for f in FIELDS}}}})


def split_runs_grouped(url, tmp_path, rows) -> set:
    """Rows 1..2n/3 full, the rest incremental, then `full --keep-terms` on the same store: the same
    groups (returned) as the two runs left (the record rules' exactness tests share it)."""
    n, src = len(rows), tmp_path / "src.db"
    write(src, rows[:n * 2 // 3])
    cfg = config(f"sqlite:///{src}", url)
    run_full(cfg, "persons")
    write(src, rows[n * 2 // 3:])
    assert run_incremental(cfg, "persons").rows_read == n - n * 2 // 3
    grouped = memberships(cfg, "persons")
    run_full(cfg, "persons", keep_terms=True)
    assert memberships(cfg, "persons") == grouped
    return grouped


def floored(rows) -> bool:
    sig = RecordSignature(tuple(FieldSpec(name=f, kind="short", weight=1.0) for f in FIELDS)).of_rows(rows)
    scheme = RecordScheme(len(FIELDS))
    return scheme.with_learned(scheme.learn(sig)).floored()


def test_full_then_incremental_on_a_floored_table_equals_one_full_run(store_url, tmp_path):  # noqa: F811
    check_floored_runs(store_url, tmp_path)


def test_full_then_incremental_on_a_floored_table_on_a_live_server(mongo_live_url, tmp_path):  # noqa: F811
    check_floored_runs(mongo_live_url, tmp_path)


def test_full_then_incremental_on_a_table_keyed_by_the_light_floor(store_url, tmp_path):  # noqa: F811
    """20 % of people copied: the learning finds its key fields, the light floor adds its keys."""
    check_floored_runs(store_url, tmp_path, copied=0.2)


def check_floored_runs(store_url, tmp_path, copied: float = 1.0) -> None:
    n = 240 if store_url.startswith("mongodb") else 900
    rows, labels = generate(n, seed=5, copied=copied)
    # people arrive whole (a person and their copies in one run): ids in order of the people
    order = sorted(rows, key=lambda r: (int(labels[str(r["id"])][1:]), r["id"]))
    truth = {str(i + 1): labels[str(r["id"])] for i, r in enumerate(order)}
    rows = [dict(r, id=i + 1) for i, r in enumerate(order)]
    cut = n * 2 // 3
    first = [r for r in rows if r["id"] <= cut]
    assert floored(first) == floored(rows) == (copied == 1.0)
    src = tmp_path / "src.db"
    write(src, first)
    cfg = config(f"sqlite:///{src}", store_url)
    run_full(cfg, "persons")
    write(src, [r for r in rows if r["id"] > cut])
    assert run_incremental(cfg, "persons").rows_read == n - cut
    ref = config(f"sqlite:///{src}", f"sqlite:///{tmp_path / 'ref.db'}")
    full = pair_quality([g.keys for g in run_full(ref, "persons").groups], truth)
    got = memberships(cfg, "persons")
    after = pair_quality(got, truth)
    assert len(got) > n // (10 if copied == 1.0 else 40) and after.recall >= 0.9 and after.precision >= 0.9, after  # without the floor: recall ~0.65
    assert abs(after.f1 - full.f1) <= 0.02, (after, full)


@pytest.mark.parametrize("seed", [6, 8])
def test_a_full_run_keeping_terms_groups_a_record_table_as_its_incremental_runs_did(tmp_path, seed):
    """``dedup full --keep-terms`` keeps the field statistics the last full run learned, as the
    incremental runs since then used them: the same groups (s41: it learned them again from all the
    rows, and on these two tables grouped some copies otherwise)."""
    rows = generate(900, seed=seed)[0]
    src = tmp_path / "src.db"
    write(src, rows[:600])
    cfg = config(f"sqlite:///{src}", f"sqlite:///{tmp_path / 'store.db'}")
    run_full(cfg, "persons")
    learned = stored_learned(cfg)
    write(src, rows[600:])
    assert run_incremental(cfg, "persons").rows_read == 300
    grouped = memberships(cfg, "persons")
    run_full(cfg, "persons", keep_terms=True)
    assert stored_learned(cfg) == learned and memberships(cfg, "persons") == grouped


def stored_learned(cfg) -> dict:
    with open_store(cfg.store_url) as store:
        return store.state("persons").version[LEARNED]
