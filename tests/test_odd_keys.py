"""Keys a store must keep apart or cannot keep at all (issue 13).

Keys that differ only in case, accents or trailing spaces ('a' and 'A', 'e' and 'é', 'x' and
'x ') are different rows: the store keeps them apart on every database, MariaDB included
(revision 0008 gives its key columns a binary no-pad collation; before it the unique index took
'a' and 'A' for one key and the run stopped with "Duplicate entry"). Keys longer than 255
characters or holding a NUL are skipped as ``bad_key`` and reported under a shortened key.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.stages import MAX_KEY_CHARS, recorded_key
from dedup.store import open_store
from helpers import config_for, make_table, petition
from mongo_fixtures import store_url_of

ALIKE = ["a", "A", "e", "é", "x", "x ", "ß", "ss"]
FIELDS = {"name": "short", "content": "text"}


def keyed(keys, start: int = 1) -> list[dict]:
    return [dict(petition(i, f"第{i}号 投诉 内容 {i} 停车 噪音", name=f"name {i}"), id=k)
            for i, k in enumerate(keys, start)]


@pytest.fixture(params=["store_sqlite", "store_postgres", "store_mariadb", "store_mongomock"])
def any_store(request, tmp_path, monkeypatch):
    return store_url_of(request.param.removeprefix("store_"), request, tmp_path, monkeypatch)


def test_keys_that_differ_in_case_accent_or_trailing_space_stay_apart(tmp_path, any_store):
    src = f"sqlite:///{tmp_path / 'src.db'}"  # SQLite compares keys byte for byte
    make_table(src, keyed(ALIKE), key_type=sa.String(20))
    config = config_for(src, any_store, fields=FIELDS, watermark="updated_at", text={"workers": 1})
    result = run_full(config)
    assert sorted(result.keys) == sorted(ALIKE) and not result.skipped
    engine = sa.create_engine(src)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:  # a copy of row 'a' under the key 'A ': one group of the two
        conn.execute(tbl.insert(), [dict(keyed(["A "], 20)[0], content=keyed(ALIKE)[0]["content"],
                                         name=keyed(ALIKE)[0]["name"])])
    engine.dispose()
    inc = run_incremental(config)
    assert inc.fingerprinted == 1
    store = open_store(config.store_url)
    try:
        assert set(store.fingerprints("petitions", ALIKE + ["A "])) == set(ALIKE + ["A "])
        assert [g.keys for g in store.groups("petitions")] == [["A ", "a"]]
    finally:
        store.close()


def test_keys_a_store_cannot_keep_are_skipped_as_bad_key(tmp_path, any_store):
    src = f"sqlite:///{tmp_path / 'src.db'}"  # SQLite keeps any text in a key, NULs included
    long_a, long_b = "k" * 300 + "a", "k" * 300 + "b"
    make_table(src, keyed(["ok1", long_a, "nul\x00key", long_b, "ok2"]), key_type=sa.Text)
    config = config_for(src, any_store, fields=FIELDS, text={"workers": 1}, batch_size=2)
    result = run_full(config)
    assert sorted(result.keys) == ["ok1", "ok2"]
    assert result.summary()["bad_keys"] == 3
    store = open_store(config.store_url)
    try:
        skipped = {s.key: (s.reason, s.detail) for s in store.skipped("petitions")}
    finally:
        store.close()
    assert set(skipped) == {recorded_key(long_a), recorded_key(long_b), recorded_key("nul\x00key")}
    assert len(recorded_key(long_a)) <= MAX_KEY_CHARS and recorded_key(long_a) != recorded_key(long_b)
    assert recorded_key("nul\x00key").startswith("nul\\x00key#")
    assert skipped[recorded_key(long_a)] == ("bad_key", "the key has 301 characters; a store keeps keys of at most 255")
    assert "NUL" in skipped[recorded_key("nul\x00key")][1]


def test_a_key_of_exactly_255_characters_is_kept(tmp_path, any_store):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    key = "長" * MAX_KEY_CHARS  # 765 bytes of UTF-8: the limit is in characters
    make_table(src, keyed([key, "b"]), key_type=sa.Text)
    result = run_full(config_for(src, any_store, fields=FIELDS, text={"workers": 1}))
    assert sorted(result.keys) == sorted([key, "b"])
