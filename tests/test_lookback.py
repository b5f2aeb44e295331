"""watermark_lookback, reconcile_every and the unseen-rows check (issue 13), on a SQLite source;
the row watermarks of a 0004 store after its migration."""

import datetime as dt
import json
import logging

import pytest
import sqlalchemy as sa
from alembic import command

from dedup.config.lookback import window_start
from dedup.errors import ConfigError
from dedup.store.sql_migrate import head_revision
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import migrate_store, open_store
from dedup.store.sql_migrate import _alembic_config
from helpers import config_for, make_table, petition
from mongo_fixtures import store_url_of
from test_incremental import append, memberships, update
from test_pipeline import BASE, OTHER

FIELDS = {"name": "short", "phone": "short", "title": "text", "content": "text"}


def _cfg(src, tmp_path, **table):
    return config_for(src, f"sqlite:///{tmp_path / 'store.db'}", fields=FIELDS, watermark="updated_at", **table)


def _table(tmp_path, n=6):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, [petition(i, f"第{i}号 {OTHER if i % 2 else BASE}") for i in range(1, n + 1)])
    return src


def test_without_a_lookback_a_late_row_is_missed_and_reported_as_unseen(tmp_path, caplog):
    src = _table(tmp_path)
    cfg = _cfg(src, tmp_path, watermark_lookback=0)
    run_full(cfg)
    late = {**petition(50, BASE), "updated_at": dt.datetime(2024, 1, 1, 0, 3)}  # before the stored watermark (00:06)
    append(src, [late])
    with caplog.at_level(logging.WARNING):
        r = run_incremental(cfg)
    assert (r.rows_read, r.unseen_rows, r.lookback_from) == (0, 1, None)
    assert "at least 1 source rows are not in the store" in caplog.text
    assert "50" not in {k for g in memberships(cfg) for k in g}
    lookback = _cfg(src, tmp_path, watermark_lookback="1h")  # the same store, now looking back an hour
    r = run_incremental(lookback)
    assert (r.rows_read, r.unseen_rows) == (1, 0) and r.lookback_from == "2023-12-31 23:06:00"
    assert "50" in {k for g in memberships(cfg) for k in g}


def test_a_row_older_than_the_lookback_and_null_watermarks_are_counted(tmp_path, caplog):
    src = _table(tmp_path)
    cfg = _cfg(src, tmp_path, watermark_lookback="2m")
    run_full(cfg)
    old = {**petition(60, OTHER), "updated_at": dt.datetime(2023, 6, 1)}
    append(src, [old, {**petition(61, "无水印的一行"), "updated_at": None}])
    with caplog.at_level(logging.WARNING):
        r = run_incremental(cfg)
    assert (r.rows_read, r.null_watermark, r.unseen_rows) == (0, 1, 2)
    summary = r.summary()
    assert (summary["null_watermark"], summary["unseen_rows"]) == (1, 2)
    assert "NULL updated_at" in caplog.text and "at least 2 source rows" in caplog.text
    run_full(cfg)
    assert run_incremental(cfg).unseen_rows == 0  # the full run read both


def test_a_backdated_edit_within_the_lookback_is_refingerprinted_once(tmp_path):
    src = _table(tmp_path)
    cfg = _cfg(src, tmp_path)  # default lookback: 1 day
    run_full(cfg)
    assert ["1", "3", "5"] in memberships(cfg)
    update(src, 3, content="完全不同：反映小区电梯长期故障无人维修。", updated_at=dt.datetime(2023, 12, 31, 12))
    r = run_incremental(cfg)
    assert (r.rows_read, r.changed, r.unchanged) == (1, 1, 5)
    assert ["1", "5"] in memberships(cfg) and "3" not in {k for g in memberships(cfg) for k in g}
    r = run_incremental(cfg)
    assert (r.rows_read, r.changed) == (0, 0)


def test_reconcile_every_n_runs(tmp_path):
    src = _table(tmp_path)
    cfg = _cfg(src, tmp_path, reconcile_every=2)
    run_full(cfg)
    engine = sa.create_engine(src)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM petitions WHERE id = 5"))
    engine.dispose()
    first = run_incremental(cfg)  # the first since the full run: not yet
    assert (first.reconciled, first.deleted) == (False, 0)
    second = run_incremental(cfg)
    assert (second.reconciled, second.deleted) == (True, 1)
    assert ["1", "3"] in memberships(cfg)
    assert run_incremental(cfg).reconciled is False


@pytest.mark.parametrize("value,problem", [("2x", "not a duration"), (-1, "negative"), (True, "duration")])
def test_bad_lookbacks_are_refused(tmp_path, value, problem):
    with pytest.raises(ConfigError, match=problem):
        _cfg("sqlite://", tmp_path, watermark_lookback=value)
    with pytest.raises(ConfigError, match="reconcile_every"):
        _cfg("sqlite://", tmp_path, reconcile_every=-2)


def test_lookback_kinds():
    day = dt.datetime(2024, 5, 2, 12)
    assert window_start(day, None) == dt.datetime(2024, 5, 1, 12)
    assert window_start(dt.date(2024, 5, 2), dt.timedelta(hours=36)) == dt.date(2024, 4, 30)
    assert window_start(100, None) is None and window_start(100, 30) == 70
    assert window_start("garbage", None) is None
    with pytest.raises(ValueError, match="needs a whole number"):
        window_start(100, dt.timedelta(days=1))
    with pytest.raises(ValueError, match="needs a duration"):
        window_start(day, 5)


def test_a_0004_store_migrates_and_its_rows_are_processed_once_in_the_window(tmp_path):
    src = _table(tmp_path)
    store_url = f"sqlite:///{tmp_path / 'store.db'}"
    cfg = _cfg(src, tmp_path)
    run_full(cfg)
    engine = sa.create_engine(store_url)  # as a dedup before 0007 left it: no row watermarks
    with engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0004")
    engine.dispose()
    assert migrate_store(store_url).endswith(f"to revision {head_revision()}")
    groups = memberships(cfg)
    assert run_incremental(cfg).rows_read == 6  # once: their watermarks were not known
    assert memberships(cfg) == groups and run_incremental(cfg).rows_read == 0
    store = open_store(store_url)
    try:
        assert store.row_watermarks("petitions", ["1"]) == {"1": "datetime:2024-01-01T00:01:00"}
    finally:
        store.close()


@pytest.fixture(params=["sqlite", "mongomock"])
def a_store(request, tmp_path):
    if request.param == "sqlite":
        store = open_store(f"sqlite:///{tmp_path / 'contract.db'}")
    else:
        import mongomock

        from dedup.store.mongo import MongoStore
        from mongo_fixtures import MOCK_URL

        store = MongoStore(MOCK_URL, client=mongomock.MongoClient())
    yield store
    store.close()


def _changes(store, add, wms, skipped=()):
    import numpy as np

    from dedup.store import BlockEntries, RunRecord, TableChanges

    run_id = store.start_run(RunRecord("t", "incremental", dt.datetime(2026, 1, 1)))
    return TableChanges("t", run_id, [], BlockEntries(), list(add), np.arange(1, len(add) + 1, dtype=np.uint64),
                        list(skipped), [], [], {"v": 1}, None, add_row_watermarks=wms)


def test_stores_keep_row_watermarks_and_list_their_keys(a_store):
    from dedup.store import Skipped

    skipped = [Skipped("s", "no_features", watermark="int:4"), Skipped("u", "unreadable")]
    a_store.apply_changes(_changes(a_store, ["a", "b", "c"], ["int:1", None, "int:3"], skipped))
    assert a_store.row_watermarks("t", ["a", "b", "c", "s", "u", "zz"]) == {
        "a": "int:1", "b": None, "c": "int:3", "s": "int:4", "u": None}
    assert a_store.keys("t") == {"a", "b", "c", "s", "u"} and a_store.count_keys("t") == 5
    assert a_store.keys("other") == set() and a_store.count_keys("other") == 0


def test_mongo_writes_row_watermarks_after_the_groups(monkeypatch):
    """Cut before the row watermarks are written, the rows look changed to the next lookback: the
    MongoDB store writes the added rows' documents, with their watermarks, after the groups."""
    import mongomock
    from pymongo.errors import OperationFailure

    from dedup.index.groups import Group, Pair
    from dedup.store.mongo import MongoStore
    from mongo_fixtures import MOCK_URL

    store = MongoStore(MOCK_URL, client=mongomock.MongoClient())
    ch = _changes(store, ["a", "b"], ["int:1", "int:2"])
    ch.upsert_groups = [Group(1, ["a", "b"], [0, 1], [Pair("a", "b", 1)], ch.run_id, ch.run_id)]
    real = MongoStore._bulk
    written = []

    def cut(self, coll, ops, **kw):
        written.append(coll.name)
        if coll.name == "fingerprints":
            raise OperationFailure("connection lost")
        return real(self, coll, ops, **kw)

    monkeypatch.setattr(MongoStore, "_bulk", cut)
    with pytest.raises(Exception, match="connection lost"):
        store.apply_changes(ch)
    assert written.index("groups") < written.index("fingerprints")
    assert [g.keys for g in store.groups("t")] == [["a", "b"]]
    assert store.row_watermarks("t", ["a", "b"]) == {}  # no document: new to the next run
    monkeypatch.setattr(MongoStore, "_bulk", real)
    store.apply_changes(ch)
    assert store.row_watermarks("t", ["a", "b"]) == {"a": "int:1", "b": "int:2"}
    assert store.fingerprints("t") == {"a": 1, "b": 2}
    store.close()


def test_a_numeric_watermark_looks_back_by_count(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    engine = sa.create_engine(src)
    md = sa.MetaData()
    tbl = sa.Table("petitions", md, sa.Column("id", sa.Integer, primary_key=True), sa.Column("content", sa.Text),
                   sa.Column("seq", sa.Integer))
    md.create_all(engine)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), [{"id": i, "content": f"第{i}号 {BASE if i < 3 else OTHER}", "seq": 10 * i}
                                    for i in range(1, 7)])
    cfg = config_for(src, f"sqlite:///{tmp_path / 'store.db'}", fields={"content": "text"}, watermark="seq",
                     watermark_lookback=25)
    run_full(cfg)
    with engine.begin() as conn:  # late (seq 45, within 60 - 25) and too late (seq 5)
        conn.execute(tbl.insert(), [{"id": 7, "content": f"第7号 {OTHER}", "seq": 45},
                                    {"id": 8, "content": f"第8号 {BASE}", "seq": 5}])
    engine.dispose()
    r = run_incremental(cfg)
    assert (r.rows_read, r.unchanged, r.unseen_rows, r.lookback_from) == (1, 3, 1, "35")
    assert ["3", "4", "5", "6", "7"] in memberships(cfg)
    with pytest.raises(ConfigError, match="watermark_lookback: a numeric watermark needs a whole number"):
        run_incremental(config_for(src, cfg.store_url, fields={"content": "text"}, watermark="seq",
                                   watermark_lookback="2d"))


def test_the_command_line_reconciles_and_says_so(tmp_path):
    from click.testing import CliRunner

    from dedup.cli import main

    src = _table(tmp_path)
    (tmp_path / "dedup.yaml").write_text(
        f'source: {{url: "{src}"}}\nstore: {{url: "sqlite:///{tmp_path / "store.db"}"}}\n'
        "tables:\n  petitions:\n    key: id\n    watermark: updated_at\n    watermark_lookback: 36h\n"
        "    fields: {name: short, content: text}\n", encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["-c", str(tmp_path / "dedup.yaml"), "full", "-q"]).exit_code == 0
    engine = sa.create_engine(src)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM petitions WHERE id IN (2, 4)"))
    engine.dispose()
    out = runner.invoke(main, ["-c", str(tmp_path / "dedup.yaml"), "incremental", "-q", "--reconcile"])
    assert out.exit_code == 0 and "2 deleted rows removed" in out.output
    out = runner.invoke(main, ["-c", str(tmp_path / "dedup.yaml"), "incremental", "--json"])
    summary = json.loads(out.output)
    assert (summary["reconciled"], summary["deleted"], summary["unchanged"], summary["rows"]) == (False, 0, 4, 0)


CHAIN_CHARS = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"


@pytest.mark.parametrize("store_kind", ["sqlite", "mongomock"])
def test_deleting_the_row_that_links_a_group_splits_it(tmp_path, monkeypatch, store_kind):
    """1 ~ 2 ~ 3, but 1 and 3 are too far apart: reconciling the deletion of 2 leaves no group,
    as a full run over rows 1 and 3 finds."""
    import random

    rng = random.Random(3)
    text = "".join(rng.choice(CHAIN_CHARS) for _ in range(200))
    head = "".join(rng.choice(CHAIN_CHARS) for _ in range(20)) + text[20:]
    tail = text[:180] + "".join(rng.choice(CHAIN_CHARS) for _ in range(20))
    src = f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, [petition(1, head), petition(2, text), petition(3, tail), petition(4, OTHER), petition(5, OTHER)])
    store_url = store_url_of(store_kind, None, tmp_path, monkeypatch)
    cfg = config_for(src, store_url, fields={"content": "text"}, watermark="updated_at")
    run_full(cfg)
    store = open_store(store_url)
    chain = store.groups("petitions")[0]
    store.close()
    assert chain.keys == ["1", "2", "3"] and ("1", "3") not in [(p.a, p.b) for p in chain.pairs]
    engine = sa.create_engine(src)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM petitions WHERE id = 2"))
    engine.dispose()
    r = run_incremental(cfg, reconcile=True)
    assert r.deleted == 1 and r.dissolved == [chain.id]
    reference = config_for(src, f"sqlite:///{tmp_path / 'reference.db'}", fields={"content": "text"})
    run_full(reference)
    assert memberships(cfg) == memberships(reference) == [["4", "5"]]
