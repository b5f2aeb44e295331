"""MinHash signatures, their band keys, and the rows that share a key, for whole batches at once.

A row's shingle set (64-bit hashes, dedup.text.shingles) gets K MinHash values: value k is the
smallest of the top 32 bits of ``a_k * h + b_k`` (mod 2**64) over the row's hashes, so two rows'
values agree with probability equal to their sets' Jaccard similarity. A *band* packs r values
into one 64-bit key; two rows with Jaccard J share a given band's key with probability J**r, and
at least one of b bands with 1 - (1 - J**r)**b (locality-sensitive hashing). The keys are the
``blockName`` of the store: a few per row, however large the table.

``key_pairs`` finds the rows sharing a key by sorting packed (key, row) words in cache-sized
partitions rather than one argsort (and gathers) over all n * m entries, which grew much faster
than n (bench/perf/bench_candidates.py); there is no loop over rows or buckets in Python.
"""

from __future__ import annotations

from typing import Callable, Iterator

import numpy as np

from . import kernels

U64 = np.uint64
EMPTY = 0xFFFFFFFF  # every MinHash value of a row without shingles
_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1
PART_ENTRIES = 1 << 16  # key_pairs sorts its keys in partitions of about this many (in cache)
ROW_CHUNK = 1 << 13  # key_pairs remixes and partitions the keys of this many rows together
SPLIT_CHUNK = 1 << 18  # candidate codes split into (i, j) at a time
PAIR_CHUNK = 1 << 15  # a bucket partition's pairs made and screened at a time (bands of 2: s47, bench/results/scale-s47.md)
FEATURE_CHUNK = 1 << 20  # weighted_minhash works on about this many features (whole rows) at a time


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser: a fast, well-mixed 64-bit to 64-bit bijection."""
    with np.errstate(over="ignore"):
        z = np.asarray(x, dtype=U64) + U64(_GOLDEN)
        z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
        return z ^ (z >> U64(31))


def permutations(k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The (a, b) of ``k`` hash permutations, fixed by ``seed`` (a is odd: a bijection mod 2**64)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(1, 2**63, size=k, dtype=np.uint64) | U64(1)
    b = rng.integers(0, 2**63, size=k, dtype=np.uint64)
    return a, b


def minhash(hashes: np.ndarray, counts: np.ndarray, k: int, seed: int = 1) -> np.ndarray:
    """(rows, k) uint32 MinHash values of each row's hashes (row r owns the next ``counts[r]``);
    a row without hashes gets EMPTY everywhere."""
    return weighted_minhash(hashes, counts, None, k, seed)


def weighted_minhash(hashes: np.ndarray, counts: np.ndarray, weights: np.ndarray | None, k: int,
                     seed: int = 1) -> np.ndarray:
    """``minhash`` of weighted features (``weights`` None: every feature weighs 1): two rows agree
    on a value with probability equal to the weighted Jaccard of their sets, sum(w of shared) / sum(w of either), when a feature weighs the
    same in every row (an exponential race: feature f at permutation i reaches -ln(1 - u_fi) / w_f,
    the earliest wins). A weight-1 feature keeps its plain value u (32 bits); one of weight w < 1
    gets 1 - (1 - u) ** (1 / w) on the same scale, later on average. Only the weights below 1
    are transformed, so a row with no discounted feature has exactly ``minhash``'s values.

    Worked out FEATURE_CHUNK features (whole rows) at a time, so the temporaries stay small
    whatever the table; in each, every distinct feature's k values are made once (rows share
    most of their n-grams) and each permutation gathers them, 4 bytes an occurrence."""
    counts = np.asarray(counts, dtype=np.int64)
    hashes = np.asarray(hashes, dtype=U64)
    out = np.full((len(counts), k), EMPTY, np.uint32)
    if not len(hashes):
        return out
    a, b = permutations(k, seed)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    for lo, hi, first, last in spans(counts, FEATURE_CHUNK):
        _weighted_chunk(hashes[first:last], counts[lo:hi], None if w is None else w[first:last], a, b, out[lo:hi])
    return out


def spans(counts: np.ndarray, size: int) -> Iterator[tuple[int, int, int, int]]:
    """(lo, hi, first, last): consecutive items [lo, hi) holding about ``size`` units together (at least
    one item each), units [first, last) of them, where item n holds ``counts[n]`` units in order."""
    ends = np.cumsum(counts)
    lo = 0
    while lo < len(counts):
        first = int(ends[lo] - counts[lo])
        hi = max(lo + 1, int(np.searchsorted(ends, first + size, side="right")))
        yield lo, hi, first, int(ends[hi - 1])
        lo = hi


def _weighted_chunk(hashes: np.ndarray, counts: np.ndarray, weights: np.ndarray | None, a: np.ndarray,
                    b: np.ndarray, out: np.ndarray) -> None:
    """``weighted_minhash`` of some consecutive rows into ``out``: each distinct feature's value
    at permutation i, the light features' (weight < 1) transformed, the same feature light in
    some rows taking the weight of its first light occurrence; then per permutation one gather
    and one minimum per row. The plain features' values are made one permutation at a time
    beside the gather (issue 26: a (k, distinct) uint64 table and its temporaries, made whole,
    cost as much as the gathers)."""
    if not len(hashes):
        return
    light = weights < 1.0 if weights is not None else None
    kernel = kernels.compiled(len(hashes))
    if kernel is not None:
        _compiled_chunk(kernel, hashes, counts, weights, light, a, b, out)
        return
    late = None
    if light is None or not light.any():
        distinct, _first, inv = distinct_inverse(hashes)
    else:
        distinct, _first, plain_inv = distinct_inverse(hashes[light == 0])
        lh, first, light_inv = distinct_inverse(hashes[light])
        late = _late_values(lh, weights[light][first], a, b)
        inv = np.empty(len(hashes), np.int64)
        inv[~light] = plain_inv
        inv[light] = light_inv + len(distinct)
    has = counts > 0
    starts = (np.cumsum(counts) - counts)[has]
    found = np.empty((int(has.sum()), len(a)), np.uint32)
    v = np.empty(len(hashes), np.uint32)
    row = np.empty(len(distinct) + (0 if late is None else late.shape[1]), np.uint32)
    plain = np.empty(len(distinct), U64)
    with np.errstate(over="ignore"):
        for i in range(len(a)):
            np.multiply(distinct, a[i], out=plain)
            plain += b[i]
            plain >>= U64(32)
            row[:len(distinct)] = plain
            if late is not None:
                row[len(distinct):] = late[i]
            np.take(row, inv, out=v)
            found[:, i] = np.minimum.reduceat(v, starts)
    out[has] = found


def _compiled_chunk(kernel: kernels.Kernels, hashes: np.ndarray, counts: np.ndarray, weights: np.ndarray | None,
                    light: np.ndarray | None, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """``_weighted_chunk`` by dedup.index.kernels: the light features' late values made as
    above (each distinct one at the weight of its first light place, found by a hash table, not a
    sort), the plain ones' in the kernel."""
    hashes, counts = np.ascontiguousarray(hashes), np.ascontiguousarray(counts)
    if light is None or not light.any():
        kernel.row_minima(hashes, counts, np.empty(0, np.int64), np.empty((0, len(a)), np.uint32), a, b, out)
        return
    assert weights is not None
    at, first = kernel.light_places(hashes, light)
    kernel.row_minima(hashes, counts, at, np.ascontiguousarray(_late_values(hashes[first], weights[first], a, b).T),
                      a, b, out)


def _late_values(hashes: np.ndarray, weights: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(k, features) uint32: each light feature's value, 1 - (1 - u) ** (1 / w) on u's scale."""
    with np.errstate(over="ignore"):
        u = ((hashes * a[:, None] + b[:, None]) >> U64(32)).astype(np.float64)
    late = -np.expm1(np.log1p(-(u + 0.5) / 2.0 ** 32) * (1.0 / weights))
    return np.minimum(np.floor(late * 2.0 ** 32), float(EMPTY - 1)).astype(U64).astype(np.uint32)


def distinct_inverse(hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distinct hashes, the first place of each, each hash's place among them): ``np.unique``'s
    three answers, the distinct ones in another order. One ``np.sort`` of words holding a hash's
    high bits over its place (a radix sort, a fifth of unique's argsort); where two hashes share
    those bits and not the rest (rare), ``np.unique`` itself."""
    n = len(hashes)
    low = U64((1 << max(1, (n - 1).bit_length())) - 1)
    key = (hashes & ~low) | np.arange(n, dtype=U64)
    key.sort()
    order = (key & low).astype(np.int64)
    ordered = hashes[order]
    new = np.empty(n, bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    if (new[1:] & ((key[1:] & ~low) == (key[:-1] & ~low))).any():
        distinct, first, inv = np.unique(hashes, return_index=True, return_inverse=True)
        return distinct, first, inv.reshape(-1)
    inv = np.empty(n, np.int64)
    inv[order] = np.cumsum(new) - 1
    return ordered[new], order[new], inv


def band_keys(values: np.ndarray, bands: int, r: int, valid: np.ndarray | None = None, first: int = 0) -> np.ndarray:
    """(rows, bands) uint64 keys: band i packs the low 64/r bits of values [i*r, (i+1)*r) side by
    side and mixes in the band's number, so equal values in two bands make two keys. Rows not
    ``valid`` (no shingles) get 0, which names no block. ``first``: the number of ``values``' first
    band (one band's values alone give the keys of that band)."""
    values = np.asarray(values)
    rows = values.shape[0]
    width = U64(64 // r)
    v = values[:, :bands * r].astype(U64).reshape(rows, bands, r) & U64((1 << (64 // r)) - 1)
    z = v[:, :, 0]
    for j in range(1, r):
        z = (z << width) | v[:, :, j]
    salts = np.array([((i + 1) * _GOLDEN) & _MASK64 for i in range(first, first + bands)], U64)
    keys = splitmix64(z ^ salts) | U64(1)
    if valid is not None:
        keys[~np.asarray(valid, dtype=bool)] = 0
    return keys


def band_column(words: np.ndarray, band: int, r: int, valid: np.ndarray | None = None) -> np.ndarray:
    """``band_keys(values)[:, band]`` from ``words``, the (rows, n) uint64 words holding the values
    two a word (value 2w in word w's low half), reading the band's words alone."""
    first = band * r
    word = first // 2
    values = np.ascontiguousarray(words[:, word:(first + r + 1) // 2]).view(np.uint32)
    return band_keys(values[:, first - 2 * word:first - 2 * word + r], 1, r, valid, first=band)[:, 0]


def combine(a: np.ndarray, b: np.ndarray, salt: int) -> np.ndarray:
    """One 64-bit key of two (an identity key of two fields), never 0; 0 where either is 0."""
    z = splitmix64(splitmix64(np.asarray(a, dtype=U64) ^ U64(salt & _MASK64)) ^ np.asarray(b, dtype=U64)) | U64(1)
    return np.where((np.asarray(a) != 0) & (np.asarray(b) != 0), z, U64(0))


def key_pairs(keys: np.ndarray, anchors: int | None = None,
              offsets: np.ndarray | None = None, keep=None) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i < j), sorted and each once, of the rows sharing a non-zero key in one column
    of ``keys`` (rows, m). A key counts in its column only, as in the store, whose block names
    carry the column (``b3:…``, ``r2:…``); the schemes salt each column's keys, so equal keys in
    two columns would be a 64-bit accident anyway.

    With ``anchors`` A, a pair is kept only when its lower row is among the first A rows holding
    the key (dedup.index.anchors), so a bucket of s rows makes at most A * s pairs, not s**2 / 2;
    ``offsets`` (rows, m) says how many anchors a key already has elsewhere (in the store).

    Each key is remixed (splitmix64, a bijection: equal stays equal, and any keys spread evenly),
    and its remix keeps the row number in its low bits. The top bits of the remix and the column
    choose a partition of about PART_ENTRIES words, so equal keys meet in one partition; one
    ``np.sort`` of each partition, small enough to stay in cache, puts each bucket's rows together
    in row order. Runs of equal high bits are the buckets (the rare run that only the truncation
    made equal is dropped by comparing the full keys of each pair); every pair inside each bucket,
    as codes ``i * rows + j``, made unique over all partitions. Everything is done ROW_CHUNK rows
    or one partition at a time, so the time grows with the rows, not faster. ``keep`` ((i, j) ->
    bool mask, e.g. dedup.index.triples.MayVerify): drops pairs in each partition, before the sort."""
    keys = np.asarray(keys, dtype=U64)
    keys = keys.reshape(len(keys), -1) if keys.ndim != 2 else keys
    return column_pairs(lambda c: keys[:, c], keys.shape[0], keys.shape[1], anchors, offsets, keep)


def column_pairs(column: Callable[[int], np.ndarray], rows: int, m: int, anchors: int | None = None,
                 offsets: np.ndarray | None = None, keep=None) -> tuple[np.ndarray, np.ndarray]:
    """``key_pairs`` of the (rows, m) keys whose column c is ``column(c)``, asked once a column:
    a caller that makes each column when asked never holds all of them (a 200k run's band keys,
    24 MB at 16 keys a row, beside the candidates' search: issue 26)."""
    none = np.empty(0, np.int64), np.empty(0, np.int64)
    if rows < 2 or not m:
        return none
    bits = (rows - 1).bit_length()
    low = U64((1 << bits) - 1)
    spread = max(0, (rows // PART_ENTRIES).bit_length() - 1)  # 2**spread partitions a column
    codes = []
    for c in range(m):  # a column's partitions at a time, each freed once its codes are made (all columns' at once: issue 26)
        col = np.asarray(column(c), dtype=U64)
        parts = _partitions(col[:, None], low, spread)
        for part in range(len(parts)):
            words, parts[part] = parts[part], np.empty(0, U64)
            codes.append(_bucket_pairs(words, col, low, bits, anchors, None if offsets is None else offsets[:, c], keep))
            del words
        del col, parts
    code = _joined_once(codes)
    if not len(code):
        return none
    return _split_codes(code, rows)


def _joined_once(codes: list[np.ndarray]) -> np.ndarray:
    """The codes of all partitions, sorted, each once; ``codes`` emptied. Each partition's codes
    are freed once copied in (the joined array's pages are taken as they are written), and the
    repeats are dropped in the joined array's own place, SPLIT_CHUNK at a time, which is then cut
    to its length: the stage held the partitions' codes and the joined ones, then the joined and
    the kept ones, each pair at once (issue 26)."""
    code = np.empty(sum(len(c) for c in codes), np.int64)
    at = 0
    while codes:
        part = codes.pop(0)
        code[at:at + len(part)] = part
        at += len(part)
        del part
    code.sort()
    kept, last = 0, None
    for lo in range(0, len(code), SPLIT_CHUNK):  # a chunk's kept codes are at or before its own place
        part = code[lo:lo + SPLIT_CHUNK]
        new = np.concatenate(([last is None or part[0] != last], part[1:] != part[:-1]))
        last, part = part[-1], part[new]
        code[kept:kept + len(part)] = part
        kept += len(part)
    try:
        code.resize(kept, refcheck=True)  # the tail given back where the array is its own (it is, here)
    except ValueError:
        code = code[:kept].copy()
    return code


def distances(fps: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The Hamming distance (int64) of fingerprints ``fps[i]`` and ``fps[j]`` of each candidate
    pair, SPLIT_CHUNK pairs at a time: gathered for all pairs at once, the two gathers and their
    xor were three arrays the candidates' size (issue 26)."""
    out = np.empty(len(i), dtype=np.int64)
    for lo in range(0, len(i), SPLIT_CHUNK):
        a, b = i[lo:lo + SPLIT_CHUNK], j[lo:lo + SPLIT_CHUNK]
        out[lo:lo + len(a)] = np.bitwise_count(np.take(fps, a) ^ np.take(fps, b))
    return out


def _split_codes(code: np.ndarray, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """(code // rows, code % rows), the second in ``code``'s own place, a chunk at a time: the
    candidates' i and j without two more arrays of their size beside the codes."""
    i = np.empty_like(code)
    for lo in range(0, len(code), SPLIT_CHUNK):
        part, out = code[lo:lo + SPLIT_CHUNK], i[lo:lo + SPLIT_CHUNK]
        np.floor_divide(part, rows, out=out)
        part -= out * rows
    return i, code


def _partitions(keys: np.ndarray, low: np.uint64, spread: int) -> list[np.ndarray]:
    """The non-zero keys as words ``remix high bits | row``, in ``m << spread`` partitions: column
    c's keys go to partitions ``c << spread`` on, by the top ``spread`` bits of their remix."""
    rows, m = keys.shape
    parts = m << spread
    kind = np.uint16 if parts <= 1 << 16 else np.uint32
    first = np.arange(m, dtype=kind) << kind(spread)
    pieces: list[list[np.ndarray]] = [[] for _ in range(parts)]
    for lo in range(0, rows, ROW_CHUNK):
        block = keys[lo:lo + ROW_CHUNK]
        live = block != 0
        mixed = splitmix64(block)
        words = ((mixed & ~low) | np.arange(lo, lo + len(block), dtype=U64)[:, None])[live]
        top = (mixed >> U64(64 - spread)).astype(kind) if spread else np.zeros(block.shape, kind)
        part = (top + first)[live]
        order = np.argsort(part, kind="stable")  # a radix sort of 16-bit values
        bounds = np.searchsorted(part[order], np.arange(1, parts, dtype=kind))
        for piece, words_of_part in zip(pieces, np.split(words[order], bounds)):
            piece.append(words_of_part)
    out = []
    for n, piece in enumerate(pieces):  # each partition's pieces freed once joined
        out.append(np.concatenate(piece))
        pieces[n] = []
    return out


def _bucket_pairs(words: np.ndarray, col: np.ndarray, low: np.uint64, bits: int, anchors: int | None = None,
                  offsets: np.ndarray | None = None, keep=None) -> np.ndarray:
    """Codes ``i * rows + j`` (i < j), each once, of the rows of ``words`` (one partition of one
    column) whose keys in ``col`` (that column, all rows) are equal; with ``anchors``, only those
    whose row i is among the first ``anchors`` of its bucket, after ``offsets`` (that column) earlier ones."""
    words.sort()
    high = words >> U64(bits)
    twin = np.flatnonzero(high[1:] == high[:-1])  # words p and p + 1 are in one bucket
    if not len(twin):
        return np.empty(0, np.int64)
    first_twin = np.flatnonzero(np.concatenate(([True], twin[1:] != twin[:-1] + 1)))
    start = twin[first_twin]
    size = np.diff(np.append(first_twin, len(twin))) + 1
    # member p of a bucket of s pairs with the s-1-p members after it
    place = _ranges(size)
    member = np.repeat(start, size) + place
    partners = np.repeat(size, size) - 1 - place
    if anchors is not None:  # only the bucket's first rows (by row number) pair with the rest
        if offsets is not None:
            place = place + np.repeat(offsets[(words[start] & low).astype(np.int64)], size)
        partners = np.where(place < anchors, partners, 0)
    codes = [_member_pairs(words, col, low, member[lo:hi], partners[lo:hi], keep)  # bands of 2 values make many
             for lo, hi, _, _ in spans(partners, PAIR_CHUNK)]
    return np.concatenate(codes) if codes else np.empty(0, np.int64)


def _member_pairs(words: np.ndarray, col: np.ndarray, low: np.uint64, member: np.ndarray, partners: np.ndarray,
                  keep=None) -> np.ndarray:
    """``_bucket_pairs``' codes of some members (sorted words' places), each with the ``partners`` words after it."""
    first = np.repeat(member, partners)
    second = first + 1 + _ranges(partners)
    i = (words[first] & low).astype(np.int64)
    j = (words[second] & low).astype(np.int64)
    same = col[i] == col[j]  # not just equal high bits
    i, j = i[same], j[same]
    if keep is not None:
        may = keep(i, j)
        i, j = i[may], j[may]
    return i * len(col) + j


def bucket_sizes(keys: np.ndarray) -> np.ndarray:
    """How many rows hold each distinct non-zero key of each column, the buckets of ``key_pairs``
    (for reports of hot buckets)."""
    keys = np.asarray(keys, dtype=U64)
    keys = keys.reshape(len(keys), -1) if keys.ndim != 2 else keys
    counts = [np.unique(col[col != 0], return_counts=True)[1] for col in keys.T]
    return np.concatenate(counts) if counts else np.empty(0, np.int64)


def _ranges(lengths: np.ndarray) -> np.ndarray:
    """0..n-1 for each n of ``lengths``, concatenated."""
    lengths = np.asarray(lengths, dtype=np.int64)
    return np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
