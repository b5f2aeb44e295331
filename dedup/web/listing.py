"""The list of groups: one summary per group (its dates, weakest link, open links, the words to
search), the filters a clerk sets, and the sorts."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ConfigError
from ..report.runs import run_scope
from .workbench import Workbench, date_column

WEAK_MARGIN = 0.10  # a link scored under the threshold plus this is weak (worth a look)
SORTS = ("size", "newest", "weakest")
PAGE = 50


@dataclass
class Summary:
    id: int
    size: int
    keys: list[str]
    first: dict  # the first row's values (column -> text)
    dates: list[str]
    weakest: float | None
    undecided: int  # links no one has decided yet
    updated_run: int | None
    text: str = field(repr=False, default="")  # every key and value, lower case, for the search

    @property
    def newest(self) -> str:
        return max(self.dates, default="")

    @property
    def date_range(self) -> str:
        days = sorted({d[:10] for d in self.dates})
        return "" if not days else days[0] if len(days) == 1 else f"{days[0]} – {days[-1]}"


@dataclass
class Filters:
    q: str = ""
    min_size: int = 2
    run: int | None = None
    since_run: int | None = None
    undecided: bool = False
    weak: bool = False
    date_from: str = ""
    date_to: str = ""
    sort: str = "size"
    page: int = 1

    @classmethod
    def parse(cls, params) -> "Filters":
        """From a page's query parameters; a value that is not a number is a bad request."""
        def num(name, default=None, least=None):
            raw = (params.get(name) or "").strip()
            if not raw:
                return default
            try:
                v = int(raw)
            except ValueError:
                raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
            return max(v, least) if least is not None else v

        sort = params.get("sort") or "size"
        return cls(q=(params.get("q") or "").strip(), min_size=num("min_size", 2, 2), run=num("run"),
                   since_run=num("since_run"), undecided=bool(params.get("undecided")), weak=bool(params.get("weak")),
                   date_from=(params.get("date_from") or "").strip(), date_to=(params.get("date_to") or "").strip(),
                   sort=sort if sort in SORTS else "size", page=num("page", 1, 1))


def summaries(bench: Workbench, store, source, scorer) -> list[Summary]:
    """A summary of every stored group."""
    groups = store.groups(bench.table)
    keys = [k for g in groups for k in g.keys]
    values = bench.values(source, keys)
    pairs = [(p.a, p.b) for g in groups for p in g.pairs]
    scored = scorer.pairs(pairs) if scorer is not None and pairs else {}
    decided = {d.pair for d in store.decisions(bench.table)}
    dc = date_column(bench.tcfg)
    out = []
    for g in groups:
        sims = [s for s in (scored.get((p.a, p.b), {}).get("similarity") for p in g.pairs) if s is not None]
        rows = [values.get(k) or {} for k in g.keys]
        words = " ".join([*g.keys, *(v or "" for r in rows for v in r.values())]).lower()
        out.append(Summary(g.id, g.size, list(g.keys), rows[0] if rows else {},
                           [r[dc] for r in rows if dc and r.get(dc)], min(sims, default=None),
                           sum((p.a, p.b) not in decided for p in g.pairs), g.updated_run, words))
    return out


def select(bench: Workbench, store, found: list[Summary], f: Filters, threshold: float | None) -> list[Summary]:
    """The summaries the filters keep, sorted."""
    out = [s for s in found if s.size >= f.min_size]
    if f.run is not None or f.since_run is not None:
        groups = store.groups(bench.table, [s.id for s in out])
        scope = run_scope(store, bench.table, f.run if f.since_run is None else f.since_run, groups,
                          f.since_run is not None)
        ids = {g.id for g in scope.groups}
        out = [s for s in out if s.id in ids]
    if f.q:
        words = f.q.lower().split()
        out = [s for s in out if all(w in s.text for w in words)]
    if f.undecided:
        out = [s for s in out if s.undecided]
    if f.weak:
        out = [s for s in out if is_weak(s.weakest, threshold)]
    if f.date_from or f.date_to:
        out = [s for s in out if any(_within(d, f.date_from, f.date_to) for d in s.dates)]
    if f.sort == "newest":
        return sorted(out, key=lambda s: (s.newest, s.updated_run or 0, s.id), reverse=True)
    if f.sort == "weakest":
        return sorted(out, key=lambda s: (2.0 if s.weakest is None else s.weakest, s.id))
    return sorted(out, key=lambda s: (-s.size, s.id))


def _within(day: str, lo: str, hi: str) -> bool:
    """Whether a date text is in [lo, hi], each bound compared at its own length (2024 or 2024-03-05)."""
    return (not lo or day[:len(lo)] >= lo) and (not hi or day[:len(hi)] <= hi)


def is_weak(similarity: float | None, threshold: float | None) -> bool:
    return similarity is not None and similarity < (threshold if threshold is not None else 0.75) + WEAK_MARGIN


def counts(found: list[Summary], shown: list[Summary], threshold: float | None) -> dict:
    return {"groups": len(found), "rows": sum(s.size for s in found), "shown": len(shown),
            "undecided": sum(1 for s in found if s.undecided),
            "weak": sum(1 for s in found if is_weak(s.weakest, threshold))}
