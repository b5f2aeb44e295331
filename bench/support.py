"""Helpers the benchmarks share: timing, rates, subsamples, machine facts, scratch databases."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import platform
import random
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import quote

import numpy as np
import sqlalchemy as sa

POSTGRES_URL = os.environ.get("DEDUP_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
ROOT = Path(__file__).resolve().parents[1]  # the repository, from which bench/ imports as a package
OUT = ROOT / "bench" / "out"  # scratch output of the benchmarks (ignored by git)


def child_env(code: Path | None = None) -> dict[str, str]:
    """The environment of a measured child process (``python -m bench.…``): a fresh interpreter finds
    bench and dedup only through PYTHONPATH. ``code``: a checkout whose dedup comes first (a baseline);
    bench stays this repository's."""
    paths = [str(p) for p in (code and dedup_only(code), ROOT) if p is not None] + \
        [p for p in [os.environ.get("PYTHONPATH")] if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    if code is not None:
        # ``python -c``/``-m`` put the working directory (the repository: this checkout's dedup) before
        # PYTHONPATH, so a "baseline" ran this checkout's code; PYTHONSAFEPATH (3.11+) leaves it out
        if sys.version_info < (3, 11):
            raise SystemExit("a baseline checkout needs Python 3.11 or later (PYTHONSAFEPATH)")
        env["PYTHONSAFEPATH"] = "1"
    return env


def dedup_only(code: Path) -> Path:
    """A folder under OUT holding only a link to ``code``'s dedup package: first on the path, it
    gives the baseline's dedup without the baseline's bench."""
    folder = OUT / "baseline-code" / hashlib.sha1(str(code.resolve()).encode()).hexdigest()[:12]
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / "dedup"
    if not link.is_symlink():
        link.symlink_to(code.resolve() / "dedup", target_is_directory=True)
    return folder


def timed(fn: Callable, *args, **kwargs) -> tuple[object, float]:
    """Result and wall-clock seconds of one call (perf_counter: monotonic, highest resolution)."""
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def rate(rows: int, seconds: float) -> float:
    return rows / seconds if seconds > 0 else float("inf")


def pairs2(n: int) -> int:
    """Number of unordered pairs among n items."""
    return n * (n - 1) // 2


def subsample(n: int, limit: int, seed: int) -> list[int]:
    """Sorted random indices (all of them when n <= limit), reproducible from the seed."""
    if n <= limit:
        return list(range(n))
    return sorted(random.Random(seed).sample(range(n), limit))


def machine_facts() -> dict:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "processes": "1 (text.workers: 1), except the run_full labelled '(auto)'",
        "numpy": np.__version__,
        "date": dt.date.today().isoformat(),
        "load_average_1min": os.getloadavg()[0],  # other work on the machine skews every number
    }


def sqlite_url(directory: Path, name: str) -> str:
    return f"sqlite:///{(directory / name).resolve()}"


def postgres_reachable() -> str | None:
    """None when the server answers, else why not."""
    try:
        engine = sa.create_engine(POSTGRES_URL)
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        engine.dispose()
        return None
    except Exception as e:  # any driver error means unreachable
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh schema (as tests/conftest.py makes them), dropped afterwards; yields a URL that uses it."""
    schema = "bench_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


