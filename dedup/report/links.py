"""How strongly the rows of a group are linked: each pair's similarity, each row's closest link, the
group's weakest link, and the order a clerk reads a group's rows in."""

from __future__ import annotations

from ..index.keys import key_sort

FINGERPRINT_BITS = 64  # a pair without its own similarity gets 1 - distance / 64


def pair_similarity(pair: dict) -> float:
    """A pair's similarity: its own when the report carries one, else its fingerprints' 1 - distance/64."""
    if pair.get("similarity") is not None:
        return float(pair["similarity"])
    return 1 - pair["distance"] / FINGERPRINT_BITS


def closest_pairs(group: dict) -> dict[str, dict]:
    """Each row's strongest link in its group: the pair (the first of equals, in the report's order)."""
    best: dict[str, tuple[float, dict]] = {}
    for p in group.get("pairs", ()):
        sim = pair_similarity(p)
        for me in (p["a"], p["b"]):
            if me not in best or sim > best[me][0]:
                best[me] = (sim, p)
    return {k: p for k, (_, p) in best.items()}


def closest_links(group: dict) -> dict[str, tuple[str, float]]:
    """Each row's strongest link in its group: (the other key, the similarity)."""
    return {k: (p["b"] if p["a"] == k else p["a"], pair_similarity(p)) for k, p in closest_pairs(group).items()}


def weakest_pair(group: dict) -> dict | None:
    """The group's weakest link: the least similar of the pairs that join it (its spanning tree), the
    one a wrong group most likely hangs on; None for a group without pairs."""
    pairs = group.get("pairs") or []
    return min(pairs, key=pair_similarity) if pairs else None


def weakest_entry(group: dict) -> dict | None:
    """The report JSON's ``weakest`` of a group: {a, b, similarity, rule}."""
    p = weakest_pair(group)
    if p is None:
        return None
    return {"a": p["a"], "b": p["b"], "similarity": round(pair_similarity(p), 4), "rule": p.get("rule")}


def reading_order(rows: list[dict], date_column: str | None) -> list[dict]:
    """A group's rows for people: by ``date_column`` (earliest filed first, rows without a date
    last), ties and tables without one by key; the JSON keeps its own order (lowest key first)."""
    if not date_column:
        return list(rows)
    dated = [r for r in rows if r.get(date_column) not in (None, "")]
    undated = [r for r in rows if r.get(date_column) in (None, "")]
    return sorted(dated, key=lambda r: (_when(r[date_column]), key_sort(r["key"]))) + undated


def _when(value) -> tuple:
    """A date's sort key: ISO text sorts as text; a number (epoch seconds, a day count) as a number,
    before any text, so 9 comes before 10."""
    try:
        return (0, float(value), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(value))
