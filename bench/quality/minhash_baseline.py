"""The MinHash LSH baseline that dedup's SimHash groups are compared against.

    python -m bench.quality.minhash_baseline --db FILE.sqlite --table T --truth truth.csv \\
        --fields a,b --tokens jieba|char3 --threshold 0.7 [--num-perm 128] [--seed 1] [--show 10]

As the issue prescribes: datasketch MinHash with 128 permutations, LSH at the Jaccard threshold,
then each candidate pair kept only if its estimated Jaccard is >= the threshold; kept pairs are
joined transitively (union-find) into groups. Petitions use 0.7 on jieba tokens, person records
0.5 on character 3-grams.

Token sets (each row becomes a *set*; MinHash estimates the Jaccard similarity of two sets):

* ``jieba_tokens``: the text fields normalised as dedup normalises them (NFKC, case folded,
  whitespace collapsed, ``dedup.text.normalize.normalize_text``), segmented by dedup's own jieba
  ``Segmenter`` with dedup's bundled stopword list, so **stopwords are dropped**, as are tokens of
  only whitespace, punctuation or symbols. Why dropped: the baseline should see the same terms as
  dedup's SimHash so that the comparison is between the methods, not between token sets; and in a
  set Jaccard every stopword (的, 了, 在, ...) is an element that almost any two petitions share,
  which lifts the similarity of unrelated texts towards the threshold while adding almost nothing
  to true duplicates. Tokens are *not* tagged with their field: a petition's title and content
  describe the same thing, and a word moved from one to the other is still the same word.
* ``char_ngrams``: each field value normalised with ``dedup.text.normalize.normalize_short`` (NFKC,
  case folded, all whitespace removed), with punctuation and symbols removed too (so
  "1985-03-07" and "19850307" agree), then cut into overlapping character n-grams; a value shorter
  than n gives itself as one gram. None and empty values give nothing. Grams **are tagged with the
  field name** (``"phone:138"``): in a record, "198" in a phone number and "198" in a birth date are
  a coincidence, not evidence, and untagged digit grams of ids, phones and dates would collide
  across fields.

Rows with an empty token set are never grouped. ``BaselineResult.seconds`` is the whole of
``minhash_groups`` (tokenising, MinHash, LSH insert and query, Jaccard check, union-find);
``tokenize_seconds`` is the tokenising part of it. jieba loads its dictionary on first use (about
half a second); the CLI loads it before timing, as bench_full.py does for its jieba baseline.
"""

from __future__ import annotations

import argparse
import csv
import sqlite3
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from datasketch import MinHash, MinHashLSH

from dedup.eval.metrics import pair_quality as quality_of
from dedup.index.groups import UnionFind
from dedup.index.keys import key_sort
from dedup.text.normalize import normalize_short, normalize_text, value_to_text

__all__ = ["BaselineResult", "Signatures", "char_ngrams", "jieba_tokens", "lsh_groups", "minhash_groups",
           "pair_quality", "signatures"]


@dataclass
class BaselineResult:
    groups: list[list]         # row keys, each group sorted, size >= 2, groups ordered by first key
    pairs: int                 # candidate pairs kept (estimated Jaccard >= threshold)
    seconds: float             # total, tokenising included
    tokenize_seconds: float
    candidates: int = 0        # distinct candidate pairs the LSH returned
    rows_with_tokens: int = 0


# ---------------------------------------------------------------------------------------------
# Token sets


def _is_noise(ch: str) -> bool:
    """Whitespace, punctuation, symbols and control characters."""
    return unicodedata.category(ch)[0] in "PSZC"


_SEGMENTER = None


def _segmenter():
    global _SEGMENTER
    if _SEGMENTER is None:
        from dedup.text.segment import Segmenter, load_stopwords
        _SEGMENTER = Segmenter(load_stopwords())
    return _SEGMENTER


def jieba_tokens(row: Mapping, fields: list[str]) -> set[str]:
    """The set of jieba words of the row's ``fields`` (normalised; stopwords and punctuation dropped)."""
    seg = _segmenter()
    out: set[str] = set()
    for f in fields:
        text = value_to_text(row.get(f))
        if text:
            out.update(seg.terms(normalize_text(text)))
    return out


def char_ngrams(row: Mapping, fields: list[str], n: int = 3) -> set[str]:
    """The set of character n-grams of each field value, tagged ``field:gram`` (None fields skipped)."""
    out: set[str] = set()
    for f in fields:
        text = value_to_text(row.get(f))
        if text is None:
            continue
        s = "".join(ch for ch in normalize_short(text) if not _is_noise(ch))
        if not s:
            continue
        if len(s) <= n:
            out.add(f"{f}:{s}")
        else:
            out.update(f"{f}:{s[i:i + n]}" for i in range(len(s) - n + 1))
    return out


# ---------------------------------------------------------------------------------------------
# MinHash LSH


@dataclass
class Signatures:
    """The MinHash of every row with tokens, made once and reused by ``lsh_groups`` at any threshold."""
    keys: list                 # row keys of the rows with tokens, in row order
    minhashes: list            # datasketch MinHash, aligned with keys
    seconds: float             # tokenising and MinHash
    tokenize_seconds: float


def signatures(rows: list[dict], key: str, tokens: Callable[[dict], set[str]], num_perm: int = 128,
               seed: int = 1) -> Signatures:
    """Tokenise every row and MinHash its token set (rows with no tokens are left out)."""
    start = time.perf_counter()
    keys: list = []
    sets: list[list[bytes]] = []
    for r in rows:
        toks = tokens(r)
        if toks:
            keys.append(r[key])
            sets.append([t.encode("utf-8") for t in toks])
    tokenize_seconds = time.perf_counter() - start
    minhashes = MinHash.bulk(sets, num_perm=num_perm, seed=seed)
    return Signatures(keys, minhashes, time.perf_counter() - start, tokenize_seconds)


def lsh_groups(sigs: Signatures, threshold: float) -> BaselineResult:
    """LSH at ``threshold`` over ``sigs``, each candidate pair kept if its estimated Jaccard is at
    least the threshold, kept pairs joined by union-find. ``seconds`` counts ``sigs.seconds`` too."""
    start = time.perf_counter()
    minhashes, keys = sigs.minhashes, sigs.keys
    num_perm = len(minhashes[0].hashvalues) if minhashes else 128
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    with lsh.insertion_session() as session:
        for i, m in enumerate(minhashes):
            session.insert(i, m)

    uf = UnionFind()
    candidates = kept = 0
    for i, m in enumerate(minhashes):
        for j in lsh.query(m):
            if j <= i:
                continue
            candidates += 1
            if m.jaccard(minhashes[j]) >= threshold:
                kept += 1
                uf.union(i, j)

    groups = [sorted((keys[i] for i in c), key=_key_order) for c in uf.components()]
    groups.sort(key=lambda g: _key_order(g[0]))
    return BaselineResult(groups=groups, pairs=kept, seconds=sigs.seconds + time.perf_counter() - start,
                          tokenize_seconds=sigs.tokenize_seconds, candidates=candidates,
                          rows_with_tokens=len(keys))


def minhash_groups(rows: list[dict], key: str, tokens: Callable[[dict], set[str]], threshold: float,
                   num_perm: int = 128, seed: int = 1) -> BaselineResult:
    """Groups of rows whose token sets have estimated Jaccard >= ``threshold``, joined transitively."""
    return lsh_groups(signatures(rows, key, tokens, num_perm, seed), threshold)


def _key_order(k) -> tuple:
    """Keys in dedup's order: integers by value before anything else by its text."""
    return key_sort(str(k))


# ---------------------------------------------------------------------------------------------
# Quality


def pair_quality(groups: Iterable[Iterable], truth: Mapping) -> dict:
    """Pairwise precision/recall/F1 of predicted groups against the truth clusters, counted by
    ``dedup.eval.metrics.pair_quality``; keys are compared as text, a grouped key missing from ``truth``
    is a singleton of its own, and with nothing predicted precision is 0 (not dedup's 1)."""
    q = quality_of([[str(k) for k in g] for g in groups], {str(k): c for k, c in truth.items()})
    return {"precision": q.precision if q.predicted_pairs else 0.0,
            "recall": q.recall if q.true_pairs else 0.0, "f1": q.f1 if q.predicted_pairs and q.true_pairs else 0.0,
            "true_pairs": q.true_pairs, "predicted_pairs": q.predicted_pairs,
            "true_positive_pairs": q.correct_pairs, "false_positive_pairs": q.predicted_pairs - q.correct_pairs}


# ---------------------------------------------------------------------------------------------
# CLI


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def read_rows(db: str, table: str, key: str, fields: list[str]) -> list[dict]:
    """``key`` and ``fields`` of every row of ``table`` in the SQLite file ``db``, in key order."""
    if not Path(db).is_file():
        raise FileNotFoundError(db)
    con = sqlite3.connect(f"file:{Path(db).resolve().as_posix()}?mode=ro", uri=True)
    try:
        cols = [key] + [f for f in fields if f != key]
        cur = con.execute(f"SELECT {', '.join(map(_quote, cols))} FROM {_quote(table)} ORDER BY {_quote(key)}")
        return [dict(zip(cols, r)) for r in cur]
    finally:
        con.close()


def read_truth(path: str) -> dict[str, str]:
    """``key,cluster`` CSV (header required) -> {key: cluster}."""
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        if not reader.fieldnames or not {"key", "cluster"} <= set(reader.fieldnames):
            raise ValueError(f"{path}: expected a header with key,cluster")
        return {r["key"]: r["cluster"] for r in reader}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="MinHash LSH baseline (datasketch) on a SQLite table, scored against truth.")
    ap.add_argument("--db", required=True, help="SQLite file")
    ap.add_argument("--table", required=True)
    ap.add_argument("--truth", required=True, help="CSV with header key,cluster")
    ap.add_argument("--fields", required=True, help="comma-separated columns to tokenise")
    ap.add_argument("--tokens", choices=("jieba", "char3"), required=True)
    ap.add_argument("--threshold", type=float, required=True, help="Jaccard threshold, e.g. 0.7 (jieba) or 0.5 (char3)")
    ap.add_argument("--key", default="id", help="key column (default id)")
    ap.add_argument("--num-perm", type=int, default=128)
    ap.add_argument("--seed", type=int, default=1, help="MinHash permutation seed")
    ap.add_argument("--show", type=int, default=10, help="groups to print with their rows (-1 = all)")
    ap.add_argument("--groups-out", help="write every group to this CSV (group,key,cluster)")
    args = ap.parse_args(argv)

    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    t = time.perf_counter()
    rows = read_rows(args.db, args.table, args.key, fields)
    read_seconds = time.perf_counter() - t
    truth = read_truth(args.truth)
    if args.tokens == "jieba":
        from dedup.text.segment import tokenizer
        tokenizer()     # load jieba's dictionary outside the timing
        _segmenter()
        tok = partial(jieba_tokens, fields=fields)
    else:
        tok = partial(char_ngrams, fields=fields, n=3)

    res = minhash_groups(rows, args.key, tok, args.threshold, num_perm=args.num_perm, seed=args.seed)
    q = pair_quality(res.groups, truth)

    by_key = {str(r[args.key]): r for r in rows}
    shown = res.groups if args.show < 0 else res.groups[:args.show]
    print(f"MinHash LSH baseline: {args.db}:{args.table} fields={','.join(fields)} tokens={args.tokens} "
          f"threshold={args.threshold} num_perm={args.num_perm} seed={args.seed}")
    print(f"rows {len(rows)}, with tokens {res.rows_with_tokens}; candidate pairs {res.candidates}, "
          f"kept {res.pairs}; groups {len(res.groups)}, in groups {sum(map(len, res.groups))}, "
          f"largest {max(map(len, res.groups), default=0)}")
    print(f"groups ({len(shown)} of {len(res.groups)} shown):")
    for n, g in enumerate(shown, 1):
        print(f"  group {n} ({len(g)} rows)")
        for k in g:
            r = by_key[str(k)]
            values = " | ".join("∅" if r.get(f) is None else str(r[f]) for f in fields)
            print(f"    {k} [{truth.get(str(k), '?')}] {values}")
    print(f"pairwise precision {q['precision']:.4f}  recall {q['recall']:.4f}  F1 {q['f1']:.4f}  "
          f"(true pairs {q['true_pairs']}, predicted {q['predicted_pairs']}, "
          f"true positive {q['true_positive_pairs']}, false positive {q['false_positive_pairs']})")
    print(f"seconds: total {res.seconds:.2f} (tokenise {res.tokenize_seconds:.2f}, "
          f"MinHash+LSH+check {res.seconds - res.tokenize_seconds:.2f}); reading the table {read_seconds:.2f}")
    if args.groups_out:
        with open(args.groups_out, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["group", "key", "cluster"])
            for n, g in enumerate(res.groups, 1):
                for k in g:
                    w.writerow([n, k, truth.get(str(k), "")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
