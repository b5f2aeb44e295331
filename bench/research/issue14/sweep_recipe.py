"""The sweep that chose the petitions recipe: candidate keys x verification rule, on cached labelled sets.

    python sweep_recipe.py --sets petitions-5000-0,petitions-20000-0 [--grid small|full] [--baselines]

For each set (cache.py), the per-row data is computed once (cleaned content, char n-gram MinHash,
identity-field hashes); each grid point then builds keys, searches candidates (sort-based
group-by), verifies, forms connected components and scores them (pairwise P/R/F1, recall per
duplicate kind, predicted/true pairs, largest group, keys/row, candidates/row, largest bucket).

The recipe (see REPORT.md):
  keys    : `bands` MinHash band keys of `r` values over the content's character n-grams
            (+ for short contents: exact identity keys phone and name+address)
  verify  : Jaccard estimated from the stored K-value MinHash of the content
            long contents : J >= t_long, or J >= t_long_id and an identity field equal
            short contents: J >= t_short_id and an identity field equal, or J >= t_short
  groups  : connected components of verified pairs
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path
import time
from collections import defaultdict
from dataclasses import dataclass, replace

import numpy as np

os.environ.setdefault("DEDUP_CACHE_DIR", "/tmp/dedup-cache-recipe")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository

import cache  # noqa: E402
import recipe as R  # noqa: E402
from dedup.eval.metrics import pair_quality  # noqa: E402
from dedup.text.normalize import normalize_short  # noqa: E402

IDENTITY = ("name", "phone", "address")


@dataclass(frozen=True)
class Recipe:
    n: int = 3               # characters per shingle
    mask_digits: bool = True
    num_feats: int = 2       # with mask_digits: each digit run (>= 2 digits) also a feature, this many copies
    K: int = 64              # MinHash values stored per row (verification)
    bands: int = 14          # band keys per row
    r: int = 4               # MinHash values per band
    short_len: int = 60      # a cleaned content shorter than this is "short"
    id_keys: bool = True     # short rows also get exact identity keys (phone, name+address)
    t_long: float = 0.75
    t_long_id: float = 0.45
    t_short: float = 0.95
    t_short_id: float = 0.2
    cap: int | None = None   # hot-bucket cap (None: no cap)
    stop_df: float = 0.0     # >0: shingles in more than this share of rows are dropped (frozen at the full run)

    def label(self) -> str:
        return (f"{'stop%g ' % self.stop_df if self.stop_df else ''}n{self.n}{'m' if self.mask_digits else ''}{'#' * self.num_feats} K{self.K} b{self.bands}r{self.r}"
                f"{' id' if self.id_keys else ''} L{self.short_len} tl{self.t_long}/{self.t_long_id}"
                f" ts{self.t_short}/{self.t_short_id}")


class Table:
    """Per-row data of one cached set, computed once per (n, mask_digits, K)."""

    def __init__(self, name: str):
        kind, n, seed = name.split("-")[:3]
        self.name = name
        self.recs = cache.load(kind, int(n), int(seed), jieba=False)
        self.N = len(self.recs)
        self.ids = [str(r["id"]) for r in self.recs]
        self.truth = {str(r["id"]): r["truth"] for r in self.recs}
        self.kinds = [r["kind"] for r in self.recs]
        self._sig = {}
        # identity: 32-bit hashes of the normalised values, 0 = missing
        self.ident = np.zeros((self.N, len(IDENTITY)), np.uint64)
        for f, col in enumerate(IDENTITY):
            vals = [normalize_short(r[col]) if r[col] else "" for r in self.recs]
            self.ident[:, f] = [R.CityHash64(f"{col}\x1f{v}".encode()) if v else 0 for v in vals]
        self.name_addr = np.where((self.ident[:, 0] != 0) & (self.ident[:, 2] != 0),
                                  R.splitmix(self.ident[:, 0] ^ R.splitmix(self.ident[:, 2])), 0).astype(np.uint64)
        self._true_pairs()

    def _true_pairs(self):
        by = defaultdict(list)
        for x, r in enumerate(self.recs):
            by[r["truth"]].append(x)
        a, b, k = [], [], []
        for m in by.values():
            for p, q in itertools.combinations(m, 2):
                ks = (self.kinds[p], self.kinds[q])
                kind = ("collective_mix" if "collective_mix" in ks else "short_mix" if "short_mix" in ks else
                        "collective" if "collective" in ks else
                        "short" if any(x.startswith("short") for x in ks) else "refiled")
                a.append(p), b.append(q), k.append(kind)
        self.ta, self.tb, self.tkind = np.array(a), np.array(b), np.array(k)

    def sig(self, rc: Recipe):
        key = (rc.n, rc.mask_digits, rc.num_feats, rc.stop_df, max(rc.K, rc.bands * rc.r))
        if key not in self._sig:
            clean = [R.clean(r["content"], rc.mask_digits) for r in self.recs]
            h, c = R.char_gram_hashes(clean, rc.n)
            if rc.num_feats:
                h, c = R.add_numbers(h, c, [r["content"] for r in self.recs], rc.num_feats)
            if rc.stop_df:
                u, inv, df = np.unique(h, return_inverse=True, return_counts=True)
                keep = df[inv] <= rc.stop_df * self.N
                owner = np.repeat(np.arange(self.N), c)
                h, c = h[keep], np.bincount(owner[keep], minlength=self.N).astype(np.int64)
            lens = np.array([len(t) for t in clean])
            self._sig[key] = (R.minhash(h, c, key[-1]), c, lens)
        return self._sig[key]


def keys_of(t: Table, rc: Recipe) -> np.ndarray:
    sig, counts, lens = t.sig(rc)
    keys = R.band_keys(sig, rc.bands, rc.r, counts > 0)
    if rc.id_keys:
        short = lens < rc.short_len
        idk = np.stack([np.where(short, t.ident[:, 1], 0), np.where(short, t.name_addr, 0)], axis=1).astype(np.uint64)
        keys = np.concatenate([keys, idk], axis=1)
    return keys


def verify(t: Table, rc: Recipe, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    sig, counts, lens = t.sig(rc)
    jac = (sig[i, :rc.K] == sig[j, :rc.K]).mean(axis=1)
    same_id = ((t.ident[i] == t.ident[j]) & (t.ident[i] != 0)).any(axis=1)
    short = np.minimum(lens[i], lens[j]) < rc.short_len
    long_ok = (jac >= rc.t_long) | ((jac >= rc.t_long_id) & same_id)
    short_ok = (jac >= rc.t_short) | ((jac >= rc.t_short_id) & same_id)
    return np.where(short, short_ok, long_ok) & (counts[i] > 0) & (counts[j] > 0)


def evaluate(t: Table, rc: Recipe) -> dict:
    keys = keys_of(t, rc)
    t0 = time.perf_counter()
    (i, j), st = R.candidate_pairs(keys, cap=rc.cap, return_stats=True)
    t_cand = time.perf_counter() - t0
    keep = verify(t, rc, i, j)
    lab = R.components(t.N, i[keep], j[keep])
    q = pair_quality(R.groups_of(lab, t.ids), t.truth)
    found = lab[t.ta] == lab[t.tb]
    by_kind = {k: float(found[t.tkind == k].mean()) if (t.tkind == k).any() else float("nan")
               for k in ("refiled", "short", "collective", "short_mix", "collective_mix")}
    return {"set": t.name, "recipe": rc.label(), **q.as_dict(), **{f"R_{k}": v for k, v in by_kind.items()},
            "keys_per_row": st["keys"] / t.N, "cand_per_row": st["pairs"] / t.N, "largest_bucket": st["largest_bucket"],
            "verified": int(keep.sum()), "cand_s": t_cand}


def fmt(r: dict) -> str:
    return (f"{r['set']:<18} {r['recipe']:<52} P {r['precision']:.4f} R {r['recall']:.4f} F1 {r['f1']:.4f} "
            f"| refiled {r['R_refiled']:.3f} short {r['R_short']:.3f} coll {r['R_collective']:.3f} "
            f"smix {r['R_short_mix']:.3f} cmix {r['R_collective_mix']:.3f} "
            f"| pred {r['predicted_pairs']} true {r['true_pairs']} big {r['largest_group']} "
            f"| keys/row {r['keys_per_row']:.1f} cand/row {r['cand_per_row']:.2f} bucket {r['largest_bucket']}")


def grid(kind: str):
    base = Recipe()
    if kind == "small":
        yield base
        return
    for n, mask in ((3, True), (3, False), (2, True), (4, True)):
        yield replace(base, n=n, mask_digits=mask)
    for b, r in ((14, 3), (14, 4), (14, 5), (10, 3), (16, 4), (12, 4)):
        yield replace(base, bands=b, r=r)
    for K in (32, 64, 128):
        yield replace(base, K=K)
    for tl in (0.5, 0.55, 0.6, 0.65, 0.7):
        for tli in (0.4, 0.45, 0.5):
            yield replace(base, t_long=tl, t_long_id=tli)
    for ts in (0.8, 0.85, 0.9, 0.95):
        for tsi in (0.3, 0.4, 0.45, 0.5):
            yield replace(base, t_short=ts, t_short_id=tsi)
    for L in (40, 60, 80):
        yield replace(base, short_len=L)
    yield replace(base, id_keys=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="petitions-5000-0,petitions-5000-1,petitions-5000-2,petitions-20000-0")
    ap.add_argument("--grid", default="full")
    args = ap.parse_args()
    for name in args.sets.split(","):
        t = Table(name)
        for rc in grid(args.grid):
            print(fmt(evaluate(t, rc)), flush=True)


if __name__ == "__main__":
    main()
