"""Tuning sets for clustering (issue 22), made for it and used to choose it: planted chains and
shared forms. Standard library only; deterministic given (groups, seed).

- ``chains``: true groups (an original and 1-3 light edits of it) strung into chains: each chain's
  next original is the previous one with one of ten segments rewritten (Jaccard of 3-grams about
  0.8, so the originals link across groups and connected components join a whole chain), while
  the first and the last original of a chain share little.
- ``forms``: letters wrapped in one of a few long forms (an opening and a closing of some 150
  characters) around a body of 40-160 characters about something else; the true duplicates are a
  letter and its refiles (the same body, a few characters changed).

Texts are random strings over common Chinese characters: the sets test how groups are formed
from pairs, not the segmentation of real prose.
"""

from __future__ import annotations

import datetime as dt
import random

POOL = ("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种"
        "面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把"
        "性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气"
        "第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管"
        "特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处")
SEGMENTS, SEGMENT_CHARS = 10, 12


def _text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(POOL) for _ in range(n))


def _edit(rng: random.Random, text: str, changes: int) -> str:
    chars = list(text)
    for _ in range(changes):
        chars[rng.randrange(len(chars))] = rng.choice(POOL)
    return "".join(chars)


def _rows(texts: list[tuple[str, str]]) -> tuple[list[dict], dict[int, str]]:
    """(text, true cluster) -> rows with ids 1.. in order, and the truth."""
    base = dt.datetime(2025, 1, 1)
    rows = [{"id": i, "content": t, "updated_at": base + dt.timedelta(minutes=i)} for i, (t, _) in enumerate(texts, 1)]
    return rows, {i: c for i, (_, c) in enumerate(texts, 1)}


def chains(n_chains: int, length: int = 5, seed: int = 0) -> tuple[list[dict], dict[int, str]]:
    """Rows and truth: ``n_chains`` chains of ``length`` true groups each."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for c in range(n_chains):
        segs = [_text(rng, SEGMENT_CHARS) for _ in range(SEGMENTS)]
        for g in range(length):
            if g:
                segs = list(segs)
                segs[(g - 1) % SEGMENTS] = _text(rng, SEGMENT_CHARS)
            original = "".join(segs)
            label = f"c{c}g{g}"
            out.append((original, label))
            out += [(_edit(rng, original, rng.randint(1, 3)), label) for _ in range(rng.randint(1, 3))]
    rng.shuffle(out)  # groups interleave in key order, as filings do
    return _rows(out)


def forms(n_letters: int, n_forms: int = 6, refiled: float = 0.3, seed: int = 0) -> tuple[list[dict], dict[int, str]]:
    """Rows and truth: ``n_letters`` letters (plus their refiles) in ``n_forms`` forms."""
    rng = random.Random(seed)
    shells = [(_text(rng, rng.randint(60, 90)), _text(rng, rng.randint(50, 70))) for _ in range(n_forms)]
    out: list[tuple[str, str]] = []
    for n in range(n_letters):
        head, tail = rng.choice(shells)
        body = _text(rng, rng.randint(40, 160))
        out.append((head + body + tail, f"l{n}"))
        if rng.random() < refiled:
            out += [(head + _edit(rng, body, rng.randint(1, 3)) + tail, f"l{n}") for _ in range(rng.randint(1, 2))]
    rng.shuffle(out)
    return _rows(out)
