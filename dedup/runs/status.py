"""`dedup status`: where each table stands, for a DBA's monitoring.

Per table: its last full and last incremental run (outcome, start, age), the rows waiting past the
stored watermark (a COUNT on the source), the rows no run will read, the lock's holder, and the
sizes of its groups. A table needs attention when its last run failed (or died without saying),
when it never had a successful full run, when its source cannot be read, or when its last
successful run started longer ago than ``max_age``. Nothing is written: the store is opened
read-only and no lock is taken.
"""

from __future__ import annotations

import datetime as _dt
import math

from ..config.model import Config, TableConfig
from ..db.source import Source
from ..errors import DedupError
from ..store import RunRecord, Store, iso_utc, open_store
from ..store.model import naive_utc

KINDS = ("full", "incremental")
HISTORY = 1000  # runs looked through for the last of each kind (decide runs come between them)
PERCENTILES = (50, 90, 99)


def table_status(config: Config, tables: list[str], max_age: _dt.timedelta | None = None,
                 now: _dt.datetime | None = None) -> list[dict]:
    """One status dict per table (see the module's docstring); ``now`` naive UTC (default: now)."""
    now = now or _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)
    with open_store(config.store_url, read_only=True) as store:
        return [_one(config, config.table(name), store, max_age, now) for name in tables]


def _one(config: Config, tcfg: TableConfig, store: Store, max_age: _dt.timedelta | None, now: _dt.datetime) -> dict:
    name = tcfg.name
    held = store.lock_holder(name)
    lock = None if held is None else {"owner": held[0], "expires": iso_utc(held[1]),
                                      "expired": held[1] is not None and held[1] <= now}
    history = [r for r in store.runs(name, limit=HISTORY) if r.kind in KINDS]
    live = lock is not None and not lock["expired"]
    last = {kind: next((r for r in history if r.kind == kind), None) for kind in KINDS}
    out: dict[str, object] = {"table": name, "checked": iso_utc(now),
           **{f"last_{kind}": _run(r, now, live and r is history[0]) if r else None for kind, r in last.items()},
           "lock": lock}
    problems = _run_problems(history, live, now, max_age)
    out.update(_source_counts(config, tcfg, store, problems))
    out.update(group_sizes({g.id: g.size for g in store.groups(name)}))
    out["healthy"], out["problems"] = not problems, problems
    return out


def _run(r: RunRecord, now: _dt.datetime, in_progress: bool) -> dict:
    outcome = r.status if r.status != "running" else ("running" if in_progress else "crashed")
    out = {"id": r.id, "outcome": outcome, "started": iso_utc(r.started_at), "finished": iso_utc(r.finished_at),
           "age_seconds": round((now - naive_utc(r.started_at)).total_seconds())}
    if r.status == "failed" and (r.summary or {}).get("error"):
        out["error"] = r.summary["error"]
    return out


def _run_problems(history: list[RunRecord], live: bool, now: _dt.datetime, max_age: _dt.timedelta | None) -> list[str]:
    """What makes the table's runs need attention: the last finished run failed or crashed, no
    successful full run, the last successful run too old."""
    problems = []
    done = [r for r in history if not (r.status == "running" and live and r is history[0])]
    if done and done[0].status != "ok":
        why = (done[0].summary or {}).get("error") or "it ended without recording an outcome (killed?)"
        problems.append(f"last {done[0].kind} run {done[0].id} failed: {why}")
    if not any(r.kind == "full" and r.status == "ok" for r in history):
        problems.append("no successful full run yet (`dedup full`)")
    ok = next((r for r in history if r.status == "ok"), None)
    if max_age is not None and ok is not None and now - naive_utc(ok.started_at) > max_age:
        problems.append(f"last successful run ({ok.kind} run {ok.id}) started {age_text((now - naive_utc(ok.started_at)).total_seconds())} "
                        f"ago, more than --max-age {age_text(max_age.total_seconds())}")
    return problems


def _source_counts(config: Config, tcfg: TableConfig, store: Store, problems: list[str]) -> dict:
    """Rows past the stored watermark (None: no watermark, or no position stored yet) and rows
    the store lacks that no incremental run will read; a source that cannot be read is a problem."""
    state = store.state(tcfg.name)
    try:
        with Source(config.source_url, tcfg, config.batch_size) as source:
            since = source.watermark.checked(state.watermark, tcfg.name) \
                if source.watermark is not None and state is not None and state.watermark else None
            waiting = source.count(since) if since is not None else None
            unseen = max(0, source.count_keys() - store.count_keys(tcfg.name) - (waiting or 0)) \
                if state is not None else None
    except DedupError as e:
        problems.append(f"source: {e}")
        return {"waiting_rows": None, "unseen_rows": None}
    return {"waiting_rows": waiting, "unseen_rows": unseen}


def group_sizes(by_id: dict[int, int]) -> dict:
    """Groups (id -> size): how many, rows in them, nearest-rank size percentiles, the largest."""
    sizes = list(by_id.values())
    ordered = sorted(sizes)
    pct = {f"p{p}": ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] if ordered else None for p in PERCENTILES}
    largest = max(by_id.items(), key=lambda kv: (kv[1], -kv[0])) if by_id else None
    return {"groups": len(sizes), "rows_in_groups": sum(sizes), "group_sizes": pct,
            "largest_group": {"group": largest[0], "size": largest[1]} if largest else None}


def age_text(seconds: float) -> str:
    """``3d 4h``, ``2h 5m``, ``4m 10s``, ``12s``: an age to read at a glance."""
    s = max(0, int(seconds))
    for big, small, b, sm in ((86400, 3600, "d", "h"), (3600, 60, "h", "m"), (60, 1, "m", "s")):
        if s >= big:
            return f"{s // big}{b} {s % big // small}{sm}"
    return f"{s}s"
