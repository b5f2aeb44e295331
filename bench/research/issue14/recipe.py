"""Vectorised prototype of the candidate-search + verification recipe (issue 14).

Everything works on whole tables as numpy arrays; no Python loop over rows except building
the per-row strings/term lists (and jieba, done once in cache.py).

Pieces (each independent, so the sweep can combine them):

* text shingles  ``char_gram_hashes``: a field's text normalised (NFKC, casefold), noise
  (whitespace, punctuation, symbols) removed, digit runs folded to one '0' (a changed phone or
  number is then no difference), cut into character n-grams; each n-gram is its code points
  packed into one uint64 (exact for n <= 3) and remixed by splitmix64.
* ``term_hashes``: jieba terms hashed with CityHash64 (for comparison with char n-grams).
* ``minhash``: K-permutation MinHash (32-bit values) of each row's shingle set.
* ``add_numbers``: each digit run as an extra feature (the cleaned text folds digits to '0').
* ``band_keys``: b bands of r MinHash values -> one 64-bit key per band (band index mixed in),
  the ``blockName`` of the store. Rows without shingles get no keys.
* ``candidate_pairs``: group-by on keys by sorting; all pairs inside each run of equal keys,
  deduplicated. Hot buckets (> cap rows) are reported.
* ``simhash_words``: SimHash of the shingles over 64*words bits (dedup.index.fingerprint.sketch).
* ``components``: connected components of the kept pairs (min-label propagation, order-free).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
import unicodedata

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository
from cityhash import CityHash64  # noqa: E402

from dedup.index.fingerprint import sketch as simhash_sketch  # noqa: E402

U64 = np.uint64
_DIGITS = re.compile(r"[0-9]+")


_NOISE_CACHE: dict = {}  # char -> kept? (each character judged once)


def clean(text: str | None, mask_digits: bool = True) -> str:
    """NFKC + casefold, drop whitespace/punctuation/symbols, digit runs -> '0'."""
    if not text:
        return ""
    s = unicodedata.normalize("NFKC", text).casefold()
    out = []
    for ch in s:
        keep = _NOISE_CACHE.get(ch)
        if keep is None:
            keep = _NOISE_CACHE[ch] = unicodedata.category(ch)[0] not in "PSZC"
        if keep:
            out.append(ch)
    s = "".join(out)
    return _DIGITS.sub("0", s) if mask_digits else s


def splitmix(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = x + U64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
        return z ^ (z >> U64(31))


def char_gram_hashes(strings: list[str], n: int, salt: int = 0, unique: bool = True):
    """Hashes of the character n-grams of each string -> (hashes uint64, counts int64).
    A string shorter than n gives itself as one gram. With ``unique``, each row's grams are a set."""
    lens = np.fromiter((len(s) for s in strings), np.int64, len(strings))
    total = int(lens.sum())
    cps = np.frombuffer("".join(strings).encode("utf-32-le"), dtype=np.uint32).astype(U64) if total else np.zeros(0, U64)
    starts = np.concatenate(([0], np.cumsum(lens)))[:-1]
    ngr = np.where(lens >= n, lens - n + 1, np.minimum(lens, 1))
    # gram g of row r starts at starts[r] + g
    owner = np.repeat(np.arange(len(strings)), ngr)
    first = np.repeat(starts, ngr) + (np.arange(int(ngr.sum())) - np.repeat(np.cumsum(ngr) - ngr, ngr))
    code = np.zeros(len(first), U64)
    glen = np.minimum(np.repeat(lens, ngr), n)
    for k in range(n):
        ok = k < glen
        pos = np.where(ok, first + k, 0)
        code = (code << U64(21)) | np.where(ok, cps[pos] if total else 0, 0).astype(U64)
    h = splitmix(code ^ U64((salt * 0x9E3779B97F4A7C15 + n) & 0xFFFFFFFFFFFFFFFF))
    if unique:
        return dedupe_per_row(h, owner, len(strings))
    return h, ngr.astype(np.int64)


def dedupe_per_row(h: np.ndarray, owner: np.ndarray, rows: int):
    order = np.lexsort((h, owner))
    h, owner = h[order], owner[order]
    keep = np.ones(len(h), bool)
    keep[1:] = (h[1:] != h[:-1]) | (owner[1:] != owner[:-1])
    h, owner = h[keep], owner[keep]
    return h, np.bincount(owner, minlength=rows).astype(np.int64)


def term_hashes(term_lists: list[list[str]], unique: bool = True):
    counts = np.fromiter((len(t) for t in term_lists), np.int64, len(term_lists))
    h = np.fromiter((CityHash64(t.encode()) for ts in term_lists for t in ts), U64, int(counts.sum()))
    if unique:
        return dedupe_per_row(h, np.repeat(np.arange(len(term_lists)), counts), len(term_lists))
    return h, counts


def _perm_params(K: int, seed: int):
    rng = np.random.default_rng(seed)
    a = rng.integers(1, 2**63, size=K, dtype=np.uint64) | U64(1)
    b = rng.integers(0, 2**63, size=K, dtype=np.uint64)
    return a, b


def minhash(h: np.ndarray, counts: np.ndarray, K: int, seed: int = 1) -> np.ndarray:
    """(rows, K) uint32 MinHash; permutation k: the top 32 bits of a_k*h + b_k (mod 2^64).
    Rows without shingles get all 0xFFFFFFFF."""
    rows = len(counts)
    a, b = _perm_params(K, seed)
    out = np.full((rows, K), 0xFFFFFFFF, np.uint32)
    nz = counts > 0
    if not len(h):
        return out
    starts = np.concatenate(([0], np.cumsum(counts)))[:-1][nz]
    with np.errstate(over="ignore"):
        for k in range(K):
            v = ((h * a[k] + b[k]) >> U64(32)).astype(np.uint32)
            out[nz, k] = np.minimum.reduceat(v, starts)
    return out


def band_keys(sig: np.ndarray, bands: int, r: int, valid: np.ndarray | None = None) -> np.ndarray:
    """(rows, bands) uint64 keys; band i packs the low 64/r bits of sig[:, i*r:(i+1)*r] side by side
    (r <= 4: 16 bits or more of each MinHash value) and mixes in the band index. 0 = no key."""
    rows = sig.shape[0]
    width = 64 // r
    mask = U64((1 << width) - 1)
    keys = np.empty((rows, bands), U64)
    for i in range(bands):
        z = np.zeros(rows, U64)
        for j in range(r):
            z = (z << U64(width)) | (sig[:, i * r + j].astype(U64) & mask)
        keys[:, i] = splitmix(z ^ U64(((i + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)) | U64(1)
    if valid is not None:
        keys[~valid] = 0
    return keys


def candidate_pairs(keys: np.ndarray, cap: int | None = None, return_stats: bool = False):
    """Pairs (i < j) of rows sharing a nonzero key in the same column position (keys (rows, m)).
    Buckets larger than ``cap`` are skipped (and counted). Sort-based, no Python loop over buckets."""
    rows, m = keys.shape
    flat = keys.reshape(-1)
    row = np.repeat(np.arange(rows, dtype=np.int64), m)
    sel = flat != 0
    flat, row = flat[sel], row[sel]
    order = np.argsort(flat)  # any order inside a run of equal keys will do
    flat, row = flat[order], row[order]
    brk = np.flatnonzero(np.concatenate(([True], flat[1:] != flat[:-1], [True])))
    size = np.diff(brk)
    start = brk[:-1]
    stats = {"keys": len(flat), "buckets": len(size), "largest_bucket": int(size.max()) if len(size) else 0}
    ok = size >= 2
    if cap is not None:
        hot = size > cap
        stats["hot_buckets"] = int(hot.sum())
        stats["rows_in_hot"] = int(size[hot].sum())
        ok &= ~hot
    start, size = start[ok], size[ok]
    npairs = size * (size - 1) // 2
    stats["raw_pairs"] = int(npairs.sum())
    # enumerate pairs inside each bucket: for bucket of size s, pairs (p, q) with p < q
    # expand: each element at offset p gets (s - 1 - p) partners
    elem_bucket_start = np.repeat(start, size)
    elem_size = np.repeat(size, size)
    offs = np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
    partners = elem_size - 1 - offs
    a_pos = np.repeat(elem_bucket_start + offs, partners)
    step = np.arange(int(partners.sum())) - np.repeat(np.cumsum(partners) - partners, partners)
    b_pos = a_pos + 1 + step
    i, j = row[a_pos], row[b_pos]
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    code = np.unique(lo * rows + hi)
    out = (code // rows, code % rows)
    stats["pairs"] = len(code)
    return (out, stats) if return_stats else out


def simhash_words(h: np.ndarray, counts: np.ndarray, words: int, weights: np.ndarray | None = None) -> np.ndarray:
    if weights is None:
        weights = np.ones(len(h))
    return simhash_sketch(h, weights, counts, words)


def sketch_cos(sk: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    bits = sk.shape[1] * 64
    d = np.bitwise_count(sk[i] ^ sk[j]).sum(axis=1)
    return np.cos(np.pi * d / bits)


def minhash_jaccard(sig: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    return (sig[i] == sig[j]).mean(axis=1)


def components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Label of each row's connected component (the smallest row index in it)."""
    lab = np.arange(n)
    if not len(i):
        return lab
    while True:
        m = np.minimum(lab[i], lab[j])
        new = lab.copy()
        np.minimum.at(new, i, m)
        np.minimum.at(new, j, m)
        while True:  # pointer jumping
            nn = new[new]
            if np.array_equal(nn, new):
                break
            new = nn
        if np.array_equal(new, lab):
            return lab
        lab = new


def groups_of(labels: np.ndarray, ids: list) -> list[list[str]]:
    order = np.argsort(labels, kind="stable")
    lab = labels[order]
    brk = np.flatnonzero(np.concatenate(([True], lab[1:] != lab[:-1], [True])))
    out = []
    for s, e in zip(brk[:-1], brk[1:]):
        if e - s >= 2:
            out.append([str(ids[k]) for k in order[s:e]])
    return out


_NUM = re.compile(r"[0-9]+")


def add_numbers(h: np.ndarray, counts: np.ndarray, texts: list, copies: int = 1):
    """Append each row's digit runs (>= 2 digits, after NFKC) as features, ``copies`` salted hashes each."""
    nums = [[f"#{k}:{m}" for m in _NUM.findall(unicodedata.normalize("NFKC", t or "")) for k in range(copies)]
            for t in texts]
    h2, c2 = term_hashes(nums, unique=False)
    owner = np.concatenate([np.repeat(np.arange(len(counts)), counts), np.repeat(np.arange(len(c2)), c2)])
    return dedupe_per_row(np.concatenate([h, h2]), owner, len(counts))
