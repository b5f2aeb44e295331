"""The sketch stage's kernels in compiled code (numba), the same answers as the numpy reference:
the weighted MinHash's row minima and its light features' places (dedup.index.minhash; issue 26:
the sketch workers spent 77 % of their time in that reference's gathers, reductions and sorts,
bench/results/sketch-s48.md), and the features' weights, looked up among the common features
(dedup.text.rarity, the workers' next 14 %).

One pass over each row's features and the K permutations: a plain feature's value
``(a_k * h + b_k) >> 32`` is made where it is used, a light one's (weight < 1) read from the
table of late values the reference makes too, so no (K, distinct) table and no gathers.

Compiled once per process, on first use (``compiled``), and kept in numba's cache (``cache=True``:
``__pycache__`` beside this file, or a user cache directory where the package is read-only, or
``NUMBA_CACHE_DIR``), so a later process loads it instead of compiling (about 5 s; loading, with numba's import: 1.3 s and
about 130 MB of RSS, so a call with fewer than MIN_FEATURES features runs the reference until the
kernels are there). The text workers of a large table load them as their first task and sketch with them
(dedup.runs.parallel, dedup.runs.sketching), not the run's process, which would keep numba's memory to the
run's end; dedup.text.token_hashes and dedup.text.content_kernels then load theirs beside them. Where numba is missing
or cannot compile, ``compiled`` says None (logged once) and the numpy reference runs: the same
values, slower. ``DEDUP_NUMBA=0`` asks for the reference.
"""

from __future__ import annotations

import logging
import os
from typing import Callable, NamedTuple

import numpy as np

log = logging.getLogger(__name__)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIN_FEATURES = 1 << 20  # fewer features than this: numpy, unless compiled already (importing numba and loading the cache: about 1.3 s)
_state: list = []  # [the compiled kernels, or None where they cannot be had], once tried


class Kernels(NamedTuple):
    row_minima: Callable
    light_places: Callable
    weigh: Callable


FUNCTIONS = ("row_minima", "light_places", "weigh")


def compiled(features: int = MIN_FEATURES) -> Kernels | None:
    """The compiled kernels, or None (numba missing, failing, or turned off): tried once a process,
    and not for fewer than MIN_FEATURES ``features`` (the numpy code's few milliseconds) until then."""
    if not _state:
        if features < MIN_FEATURES:
            return None
        _state.append(_compile())
    return _state[0]


def _compile() -> Kernels | None:
    if os.environ.get("DEDUP_NUMBA", "1") == "0":
        return None
    try:
        import numba
    except Exception as exc:  # not installed, or built for another numpy
        log.warning("numba unavailable (%s): the sketches are made by the slower numpy code", exc)
        return None
    try:
        kernels = Kernels(*jitted(numba, [globals()[f] for f in FUNCTIONS]))
        _warm(kernels)
    except Exception as exc:  # a numba that cannot compile here: the reference gives the same values
        log.warning("numba could not compile the MinHash kernels (%s): using the numpy code", exc)
        return None
    return kernels


def jitted(numba, functions: list[Callable]) -> list[Callable]:
    """The functions compiled by ``numba``, kept in its cache where it can write one (else compiled
    again by each process): every kernel module of dedup's compiles its kernels so."""
    try:
        return [numba.njit(cache=True, nogil=True)(f) for f in functions]
    except RuntimeError:  # no cache directory numba can write (read-only package, no user cache)
        return [numba.njit(nogil=True)(f) for f in functions]


def _warm(kernels: Kernels) -> None:
    """Compile (or load from the cache) the one signature of each kernel the sketches use, now."""
    a = np.ones(1, np.uint64)
    out = np.empty((1, 1), np.uint32)
    kernels.row_minima(a, np.ones(1, np.int64), np.zeros(1, np.int64), np.zeros((1, 1), np.uint32), a, a, out)
    kernels.light_places(a, np.ones(1, np.bool_))
    kernels.weigh(a, np.ones(1), a)


def weigh(keys, key_weights, hashes):  # pragma: no cover - run compiled
    """(each hash's weight: ``key_weights`` at its place among ``keys``, the first where one
    repeats, else 1.0; how many were among ``keys``): the weights' lookup (dedup.text.rarity) in a
    table of the few thousand common features, made anew each call (a fraction of a millisecond),
    in place of a binary search and gathers."""
    bits = 10
    while (1 << bits) < 2 * keys.shape[0]:
        bits += 1
    table = np.empty(1 << bits, np.uint64)
    at = np.full(1 << bits, -1, np.int64)
    for p in range(keys.shape[0]):
        s = np.int64((keys[p] * _GOLDEN) >> np.uint64(64 - bits))
        while at[s] >= 0 and table[s] != keys[p]:
            s = (s + 1) & ((1 << bits) - 1)
        if at[s] < 0:
            table[s], at[s] = keys[p], p
    out = np.ones(hashes.shape[0], np.float64)
    hits = 0
    for j in range(hashes.shape[0]):
        h = hashes[j]
        s = np.int64((h * _GOLDEN) >> np.uint64(64 - bits))
        while at[s] >= 0 and table[s] != h:
            s = (s + 1) & ((1 << bits) - 1)
        if at[s] >= 0:
            out[j] = key_weights[at[s]]
            hits += 1
    return out, hits


def light_places(hashes, light):  # pragma: no cover - run compiled
    """(at, firsts): feature j's place among the distinct light hashes (-1 where not ``light[j]``),
    in order of first light place, and that first place of each. An open-addressed table kept at
    most half full, in place of the reference's sort of every light feature (distinct_inverse)."""
    n = hashes.shape[0]
    at = np.full(n, -1, np.int64)
    firsts = np.empty(n, np.int64)
    bits = 10
    keys = np.empty(1 << bits, np.uint64)
    slots = np.full(1 << bits, -1, np.int64)
    d = 0
    for j in range(n):
        if not light[j]:
            continue
        h = hashes[j]
        s = np.int64((h * _GOLDEN) >> np.uint64(64 - bits))
        while slots[s] >= 0 and keys[s] != h:
            s = (s + 1) & ((1 << bits) - 1)
        if slots[s] >= 0:
            at[j] = slots[s]
            continue
        slots[s], keys[s], firsts[d], at[j] = d, h, j, d
        d += 1
        if 2 * d > (1 << bits):  # grown: every distinct hash placed again in a table twice the size
            bits += 1
            keys = np.empty(1 << bits, np.uint64)
            slots = np.full(1 << bits, -1, np.int64)
            for f in range(d):
                g = hashes[firsts[f]]
                s = np.int64((g * _GOLDEN) >> np.uint64(64 - bits))
                while slots[s] >= 0:
                    s = (s + 1) & ((1 << bits) - 1)
                slots[s], keys[s] = f, g
    return at, firsts[:d]


def row_minima(hashes, counts, light_at, late, a, b, out):  # pragma: no cover - run compiled
    """Each row's K minima into ``out`` (rows, K) uint32, rows without features left as they are.
    Feature j is plain where ``light_at[j] < 0`` (or ``light_at`` is empty: every feature plain),
    else it takes row ``light_at[j]`` of ``late`` (light features, K) uint32."""
    k = a.shape[0]
    some_light = light_at.shape[0] > 0
    acc = np.empty(k, np.uint32)
    shift = np.uint64(32)
    at = 0
    for r in range(counts.shape[0]):
        n = counts[r]
        if n <= 0:
            continue
        acc[:] = np.uint32(0xFFFFFFFF)
        for j in range(at, at + n):
            f = light_at[j] if some_light else -1
            if f < 0:
                h = hashes[j]
                for i in range(k):
                    acc[i] = min(acc[i], np.uint32((h * a[i] + b[i]) >> shift))
            else:
                for i in range(k):
                    acc[i] = min(acc[i], late[f, i])
        out[r, :] = acc
        at += n
