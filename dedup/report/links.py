"""How strongly the rows of a group are linked: each pair's similarity, each row's closest link."""

from __future__ import annotations

FINGERPRINT_BITS = 64  # a pair without its own similarity gets 1 - distance / 64


def pair_similarity(pair: dict) -> float:
    """A pair's similarity: its own when the report carries one, else its fingerprints' 1 - distance/64."""
    if pair.get("similarity") is not None:
        return float(pair["similarity"])
    return 1 - pair["distance"] / FINGERPRINT_BITS


def closest_links(group: dict) -> dict[str, tuple[str, float]]:
    """Each row's strongest link in its group: (the other key, the similarity)."""
    best: dict[str, tuple[str, float]] = {}
    for p in group.get("pairs", ()):
        sim = pair_similarity(p)
        for me, other in ((p["a"], p["b"]), (p["b"], p["a"])):
            if me not in best or sim > best[me][1]:
                best[me] = (other, sim)
    return best
