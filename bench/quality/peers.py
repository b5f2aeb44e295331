"""The peers bench/quality/quality22.py scores beside dedup, each swept over its threshold.

Every peer takes the rows (dicts with ``id``) and the columns to compare, and returns one
``Sweep`` per threshold: the groups (connected components of the pairs kept at that threshold)
and the seconds the peer took (the shared work, tokenising, signatures, the model, counted in
every threshold's time, the per-threshold clustering added). Needs the ``peers`` extra.

* ``minhash_datasketch`` / ``minhash_rensa``: MinHash LSH (128 permutations) on character
  3-grams of each column tagged with the column's name (bench/quality/minhash_baseline.char_ngrams); each
  LSH candidate kept when its estimated Jaccard reaches the threshold.
* ``tfidf_cosine``: scikit-learn's TfidfVectorizer on character 2-3-grams of the columns joined
  (normalised as minhash_baseline does), all pairs with cosine >= threshold, chunked exactly.
* ``splink_em`` (records): splink 5, DuckDB, Fellegi-Sunter: u by random sampling, the prior
  from deterministic rules, m by EM on two blocking rules; pairs from five blocking rules; the
  threshold is on the match weight (log2 Bayes factor), the probabilities being 0 or 1 to 3 places.
* ``recordlinkage_ecm`` (records): recordlinkage's unsupervised ECM classifier on binary
  comparisons (Jaro-Winkler >= 0.85 for text, exact for codes) of the pairs of five blocks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from bench.quality.minhash_baseline import char_ngrams, lsh_groups, signatures
from dedup.text.normalize import normalize_short

MINHASH_THRESHOLDS = (0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9)
COSINE_THRESHOLDS = (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
PROBABILITY_THRESHOLDS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)
# splink's match weight (log2 Bayes factor): its probabilities saturate at 1.
MATCH_WEIGHT_THRESHOLDS = (0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0)


@dataclass
class Sweep:
    """One threshold of one peer: its groups of row ids (size >= 2) and its seconds."""

    method: str
    threshold: float
    groups: list[list]
    seconds: float
    settings: str
    shared: float = 0.0  # of ``seconds``: the part every threshold shares (tokens and sketches)
    cpu: float | None = None  # CPU seconds of the same (where measured)


def components(ids: list, i: np.ndarray, j: np.ndarray) -> list[list]:
    """Connected components (size >= 2) of the pairs (ids[i], ids[j])."""
    n = len(ids)
    if not len(i):
        return []
    graph = coo_matrix((np.ones(len(i), dtype=np.int8), (i, j)), shape=(n, n))
    count, labels = connected_components(graph, directed=False)
    members: dict[int, list] = {}
    for index in np.unique(np.concatenate([i, j])):
        members.setdefault(int(labels[index]), []).append(ids[index])
    return [sorted(g) for g in members.values() if len(g) > 1]


def _swept(method: str, ids: list, pairs: tuple[np.ndarray, np.ndarray, np.ndarray], thresholds, shared: float,
           settings: str) -> list[Sweep]:
    """Components of the pairs whose score reaches each threshold."""
    i, j, score = pairs
    out = []
    for t in thresholds:
        t0 = time.perf_counter()
        keep = score >= t
        groups = components(ids, i[keep], j[keep])
        out.append(Sweep(method, t, groups, shared + time.perf_counter() - t0, settings))
    return out


def minhash_datasketch(rows: list[dict], fields: list[str], thresholds=MINHASH_THRESHOLDS) -> list[Sweep]:
    sigs = signatures(rows, "id", partial(char_ngrams, fields=fields, n=3), num_perm=128, seed=1)
    return [Sweep("MinHash LSH (datasketch)", t, (res := lsh_groups(sigs, t)).groups, res.seconds,
                  "128 permutations, character 3-grams tagged by column, estimated Jaccard >= threshold")
            for t in thresholds]


def _bands(threshold: float, num_perm: int = 128) -> int:
    """The band count whose LSH S-curve midpoint (1/b)^(1/r) is just under ``threshold``."""
    options = [b for b in range(1, num_perm + 1) if num_perm % b == 0]
    return min(options, key=lambda b: abs((1 / b) ** (b / num_perm) - (threshold - 0.05)))


def minhash_rensa(rows: list[dict], fields: list[str], thresholds=MINHASH_THRESHOLDS) -> list[Sweep]:
    from rensa import RMinHash, RMinHashLSH

    t0, c0 = time.perf_counter(), time.process_time()
    ids, hashes = [], []
    for r in rows:
        grams = char_ngrams(r, fields, 3)
        if grams:
            m = RMinHash(num_perm=128, seed=1)
            m.update(sorted(grams))
            ids.append(r["id"])
            hashes.append(m)
    shared, shared_cpu = time.perf_counter() - t0, time.process_time() - c0
    out = []
    for t in thresholds:
        t1, c1 = time.perf_counter(), time.process_time()
        lsh = RMinHashLSH(threshold=t, num_perm=128, num_bands=_bands(t))
        for n, m in enumerate(hashes):
            lsh.insert(n, m)
        i, j = [], []
        for n, m in enumerate(hashes):
            for k in lsh.query(m):
                if k > n and m.jaccard(hashes[k]) >= t:
                    i.append(n)
                    j.append(k)
        groups = components(ids, np.array(i, dtype=np.int64), np.array(j, dtype=np.int64))
        out.append(Sweep("MinHash LSH (rensa)", t, groups, shared + time.perf_counter() - t1,
                         f"rensa RMinHash, 128 permutations, character 3-grams tagged by column, {_bands(t)} bands",
                         shared, shared_cpu + time.process_time() - c1))
    return out


def joined_text(row: dict, fields: list[str]) -> str:
    return " | ".join(normalize_short(str(row[f])) for f in fields if row.get(f) not in (None, ""))


def tfidf_cosine(rows: list[dict], fields: list[str], thresholds=COSINE_THRESHOLDS,
                 cells: int = 4_000_000) -> list[Sweep]:
    """TF-IDF on character 2-3-grams, exact cosine of all pairs by chunks of rows, components."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    t0 = time.perf_counter()
    ids = [r["id"] for r in rows]
    x = TfidfVectorizer(analyzer="char", ngram_range=(2, 3), dtype=np.float32).fit_transform(
        [joined_text(r, fields) for r in rows]).tocsr()
    xt = x.T.tocsc()
    low = min(thresholds)
    step = max(1, cells // max(len(rows), 1))
    parts_i, parts_j, parts_s = [], [], []
    for start in range(0, len(rows), step):
        block = (x[start:start + step] @ xt).tocoo()
        keep = (block.data >= low) & (block.row + start < block.col)
        parts_i.append(block.row[keep] + start)
        parts_j.append(block.col[keep])
        parts_s.append(block.data[keep])
    pairs = tuple(np.concatenate(p) if p else np.array([]) for p in (parts_i, parts_j, parts_s))
    return _swept("TF-IDF cosine", ids, pairs, thresholds, time.perf_counter() - t0,
                  "scikit-learn TfidfVectorizer, character 2-3-grams of the columns joined, exact cosine, components")


def _frame(rows: list[dict], fields: list[str]):
    import pandas as pd

    return pd.DataFrame([{"unique_id": r["id"], **{f: r.get(f) for f in fields}} for r in rows])


def splink_em(rows: list[dict], fields: list[str], blocks: list[list[str]],
              thresholds=MATCH_WEIGHT_THRESHOLDS) -> list[Sweep]:
    """splink 5 on DuckDB: Jaro-Winkler comparisons for every column, EM-trained, pairs from ``blocks``."""
    import logging

    import splink.comparison_library as cl
    from splink import DuckDBAPI, Linker, SettingsCreator, block_on

    t0 = time.perf_counter()
    db = DuckDBAPI()
    df = db.register(_frame(rows, fields))
    settings = SettingsCreator(
        link_type="dedupe_only",
        comparisons=[cl.JaroWinklerAtThresholds(f, [0.92, 0.8]) for f in fields],
        blocking_rules_to_generate_predictions=[block_on(*b) for b in blocks])
    linker = Linker(df, settings, log_level=logging.WARNING)
    linker.training.estimate_probability_two_random_records_match([block_on(*b) for b in blocks[:2]], recall=0.7)
    linker.training.estimate_u_using_random_sampling(max_pairs=2e6, seed=1)
    for b in blocks[:2]:
        linker.training.estimate_parameters_using_expectation_maximisation(block_on(*b))
    pred = linker.inference.predict(threshold_match_weight=min(thresholds)).as_pandas_dataframe()
    index = {r["id"]: n for n, r in enumerate(rows)}
    i = np.array([index[k] for k in pred["unique_id_l"]], dtype=np.int64)
    j = np.array([index[k] for k in pred["unique_id_r"]], dtype=np.int64)
    score = pred["match_weight"].to_numpy()
    return _swept("splink 5 (EM, DuckDB)", [r["id"] for r in rows], (i, j, score), thresholds,
                  time.perf_counter() - t0, "threshold on match weight, Jaro-Winkler 0.92/0.8 per column, "
                  "EM on the first two blocks, "
                  "blocks " + "; ".join("+".join(b) for b in blocks))


def recordlinkage_ecm(rows: list[dict], fields: list[str], blocks: list[list[str]], exact: set[str],
                      thresholds=PROBABILITY_THRESHOLDS) -> list[Sweep]:
    """recordlinkage's ECM on binary comparisons of the pairs of ``blocks``."""
    import pandas as pd
    import recordlinkage

    t0 = time.perf_counter()
    frame = _frame(rows, fields).set_index("unique_id")
    candidates = None
    for b in blocks:
        found = recordlinkage.Index()
        found.block(b)
        got = found.index(frame)
        candidates = got if candidates is None else candidates.union(got)
    compare = recordlinkage.Compare()
    for f in fields:
        if f in exact:
            compare.exact(f, f, label=f)
        else:
            compare.string(f, f, method="jarowinkler", threshold=0.85, label=f)
    features = compare.compute(candidates, frame)
    ecm = recordlinkage.ECMClassifier(binarize=None)
    ecm.fit(features)
    prob = pd.Series(ecm.prob(features), index=features.index)
    index = {r["id"]: n for n, r in enumerate(rows)}
    i = np.array([index[a] for a, _ in prob.index], dtype=np.int64)
    j = np.array([index[b] for _, b in prob.index], dtype=np.int64)
    return _swept("recordlinkage ECM", [r["id"] for r in rows], (i, j, prob.to_numpy()), thresholds,
                  time.perf_counter() - t0, "ECMClassifier, Jaro-Winkler >= 0.85 (exact for codes), blocks "
                  + "; ".join("+".join(b) for b in blocks))
