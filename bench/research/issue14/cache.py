"""Featurise a labelled petitions table ONCE (jieba is the cost) and cache it.

    python cache.py petitions 20000 0          -> cache/petitions-20000-0.pkl
    python cache.py train 20000 0              -> petitions + the training edit mix (train_mix.py)

Per row: id, truth label, kind, the raw fields, and the jieba terms of title and content
(dedup's own Segmenter: normalised, stopwords and punctuation dropped)."""
from __future__ import annotations

import os
import pickle
import sys
import time
from pathlib import Path

os.environ.setdefault("DEDUP_CACHE_DIR", "/tmp/dedup-cache-recipe")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository

from dedup.text.normalize import normalize_text, value_to_text  # noqa: E402
from dedup.text.segment import Segmenter, load_stopwords  # noqa: E402

FIELDS = ("name", "phone", "address", "title", "content")


def build(kind: str, n: int, seed: int, jieba: bool = True) -> Path:
    out = HERE / "cache" / f"{kind}-{n}-{seed}{'' if jieba else '-raw'}.pkl"
    if out.exists():
        return out
    t0 = time.time()
    if kind == "petitions":
        from bench.labelled.petitions import generate_petitions
        data = generate_petitions(n, seed)
        rows, truth, kinds = data.rows, data.truth, data.kinds
    elif kind == "train":
        import train_mix
        rows, truth, kinds = train_mix.generate(n, seed)
    else:
        raise SystemExit(kind)
    t1 = time.time()
    seg = Segmenter(load_stopwords())
    recs = []
    for r in rows:
        rec = {"id": r["id"], "truth": str(truth[r["id"]]), "kind": kinds[r["id"]]}
        for f in FIELDS:
            rec[f] = value_to_text(r.get(f))
        for f in ("title", "content"):
            rec["t_" + f] = (seg.terms(normalize_text(rec[f])) if rec[f] else []) if jieba else None
        recs.append(rec)
    t2 = time.time()
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(recs, protocol=5))
    tmp.rename(out)
    print(f"{out.name}: {len(recs)} rows, generate {t1 - t0:.1f} s, jieba {t2 - t1:.1f} s", flush=True)
    return out


def load(kind: str, n: int, seed: int, jieba: bool = True) -> list[dict]:
    """The jieba cache when it exists (or jieba=True), else the raw one (no terms)."""
    full = HERE / "cache" / f"{kind}-{n}-{seed}.pkl"
    if jieba or full.exists():
        return pickle.loads(build(kind, n, seed).read_bytes())
    return pickle.loads(build(kind, n, seed, jieba=False).read_bytes())


if __name__ == "__main__":
    for spec in sys.argv[1:] if len(sys.argv) > 4 else [",".join(sys.argv[1:4])]:
        k, n, s, *raw = spec.split(",")
        build(k, int(n), int(s), jieba=not raw)
