"""The MongoDB store on a cluster sharded on ``blockName``: every command it sends to a block
collection is targeted by that key (migrations/mongo/SHARDING.md).

A pymongo CommandListener on the live server records each command of a full run and of
incremental runs that add rows, change rows (their old entries pulled) and delete them; every
read, update and delete of ``blocks.<table>`` must name ``blockName`` (as ``$in`` batches or one
value) and every inserted block document must carry it, so a mongos routes it to the shards of
those blocks instead of broadcasting it to all.
"""

from __future__ import annotations

from dataclasses import replace

import pymongo
import pytest
import sqlalchemy as sa
from pymongo import monitoring

from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.demo.generator import generate_petitions, write_sample_db
from helpers import config_for
from mongo_fixtures import mongo_live_url  # noqa: F401  (fixture)

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
# commands on a whole collection, not on its documents: no shard key to name
COLLECTION_COMMANDS = {"createIndexes", "drop", "renameCollection", "listIndexes", "create"}


class Recorder(monitoring.CommandListener):
    def __init__(self) -> None:
        self.commands: list[dict] = []

    def started(self, event) -> None:
        self.commands.append({"name": event.command_name, "command": dict(event.command)})

    def succeeded(self, event) -> None:
        pass

    def failed(self, event) -> None:
        pass


def _names_blocks(flt: dict) -> bool:
    """Whether a query filter pins blockName to given values (one, or an $in list)."""
    value = flt.get("blockName")
    if isinstance(value, str):
        return True
    return isinstance(value, dict) and set(value) == {"$in"} and all(isinstance(v, str) for v in value["$in"])


def untargeted(commands: list[dict]) -> list[str]:
    """The commands on block collections that a mongos could not route by blockName."""
    bad = []
    for c in commands:
        name, cmd = c["name"], c["command"]
        coll = cmd.get(name)
        if name in COLLECTION_COMMANDS or not isinstance(coll, str) or not coll.startswith(("blocks.", "tmp.")):
            continue
        if name == "find" and _names_blocks(cmd.get("filter", {})):
            continue
        if name == "insert" and all("blockName" in d for d in cmd.get("documents", [])):
            continue
        if name == "update" and all(_names_blocks(u["q"]) for u in cmd.get("updates", [])):
            continue
        if name == "delete" and all(_names_blocks(d["q"]) for d in cmd.get("deletes", [])):
            continue
        if name in ("getMore", "killCursors"):
            continue  # continue a targeted find's cursor
        bad.append(f"{name} {coll}: {cmd}")
    return bad


def test_every_block_collection_command_is_targeted_by_block_name(mongo_live_url, tmp_path, monkeypatch):  # noqa: F811
    recorder = Recorder()
    real_client = pymongo.MongoClient
    monkeypatch.setattr("dedup.store.mongo.MongoClient",
                        lambda *a, **kw: real_client(*a, **{**kw, "event_listeners": [recorder]}))
    source_url = f"sqlite:///{tmp_path / 'src.db'}"
    sample = generate_petitions(700, seed=3)
    write_sample_db(source_url, sample)
    engine = sa.create_engine(source_url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.delete().where(tbl.c.id > 500))
    cfg = replace(config_for(source_url, mongo_live_url, fields=FIELDS, watermark="updated_at"),
                  bucket_size=4)  # overflow documents (seq 1, 2, ...) in every busy block
    full = run_full(cfg, "petitions")
    later = max(r["updated_at"] for r in sample.rows)
    with engine.begin() as conn:  # new rows; a changed row (its old entries are pulled); a deleted one
        conn.execute(tbl.insert(), sample.rows[500:])
        conn.execute(tbl.update().where(tbl.c.id == full.groups[0].keys[0])
                     .values(content="完全不同的内容，关于另一件事情的投诉", updated_at=later))
    inc = run_incremental(cfg, "petitions")
    engine.dispose()
    assert inc.summary()["rows"] > 0
    on_blocks = [c for c in recorder.commands
                 if isinstance(c["command"].get(c["name"]), str) and c["command"][c["name"]].startswith("blocks.")]
    kinds = {c["name"] for c in on_blocks}
    assert {"find", "insert", "update"} <= kinds, kinds  # the reads and writes the check is about were made
    assert any(len(c["command"]["filter"]["blockName"].get("$in", [])) > 1
               for c in on_blocks if c["name"] == "find")  # in batches, not one query a block
    assert untargeted(recorder.commands) == []


def test_the_check_sees_an_untargeted_command():
    """The check itself: a find by row key alone, or an update by _id alone, is reported."""
    commands = [{"name": "find", "command": {"find": "blocks.t", "filter": {"info.textname": "1"}}},
                {"name": "update", "command": {"update": "blocks.t", "updates": [{"q": {"_id": 1}, "u": {}}]}},
                {"name": "find", "command": {"find": "blocks.t", "filter": {"blockName": {"$in": ["b0:1"]}}}}]
    assert len(untargeted(commands)) == 2


@pytest.mark.parametrize("flt,ok", [({"blockName": "b0:1"}, True), ({"blockName": {"$in": ["a", "b"]}}, True),
                                    ({"blockName": {"$gt": "a"}}, False), ({}, False)])
def test_names_blocks(flt, ok):
    assert _names_blocks(flt) is ok
