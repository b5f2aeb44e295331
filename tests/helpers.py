"""Small builders shared by tests: tables in any database, configs for them."""

from __future__ import annotations

import datetime as dt

import numpy as np
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

from dedup.config import parse_config

FIELDS = {"name": "short", "phone": "short", "title": "text", "content": "text"}


def make_table(url: str, rows: list[dict], name: str = "petitions", key_type=sa.Integer) -> None:
    """(Re)create a petitions-like table and insert rows (missing columns are NULL)."""
    engine = sa.create_engine(url)
    md = sa.MetaData()
    tbl = sa.Table(
        name, md,
        sa.Column("id", key_type, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(50)), sa.Column("phone", sa.String(30)),
        sa.Column("title", sa.String(200)), sa.Column("content", sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")),
        sa.Column("amount", sa.Numeric(10, 2)), sa.Column("filed_on", sa.Date),
        sa.Column("updated_at", sa.DateTime),
    )
    md.drop_all(engine, tables=[tbl], checkfirst=True)
    md.create_all(engine)
    cols = [c.name for c in tbl.columns]
    if rows:
        with engine.begin() as conn:
            conn.execute(tbl.insert(), [{c: r.get(c) for c in cols} for r in rows])
    engine.dispose()


def config_for(source_url: str, store_url: str, fields=None, max_distance=3, batch_size=1000, simhash=None,
               text=None, **table):
    return parse_config({
        "source": {"url": source_url, "batch_size": batch_size},
        "store": {"url": store_url},
        "simhash": {"max_distance": max_distance, **(simhash or {})},
        "text": text or {},
        "tables": {"petitions": {"key": "id", "fields": fields or FIELDS, **table}},
    })


def petition(i: int, content: str, name: str | None = None, phone: str | None = None, title: str | None = None):
    return {"id": i, "name": name, "phone": phone, "title": title, "content": content,
            "updated_at": dt.datetime(2024, 1, 1) + dt.timedelta(minutes=i)}


def block_entries(layout, keys, fps):
    """The block entries of these rows under ``layout``, as the pipeline hands them to a store."""
    from dedup.store import BlockEntries

    names, owners, values = [], [], []
    for key, fp in zip(keys, fps):
        for name in layout.names(int(fp)):
            names.append(name)
            owners.append(key)
            values.append(int(fp))
    return BlockEntries(names, owners, np.array(values, dtype=np.uint64))
