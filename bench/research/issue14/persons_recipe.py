"""Record tables (persons): per-field exact keys + per-field verification, on 11-field tables.

    python persons_recipe.py 5000:0 20000:0 20000:1 [--sweep]

Table: bench/labelled/persons rows widened to 11 fields (training widening, mine): surname,
given_name (from name), gender, birth_date, id_number, phone, province, city, district, street
(from address) and status (10 values, kept by a copy with probability 0.9) -- so there are three
low-cardinality columns (gender, status, province).

Recipe:
  normalise : NFKC, casefold, noise removed; digits-only fields (birth_date, id_number, phone)
              keep only digits; a date is rewritten as YYYYMMDD.
  key fields: a field is a key field when its distinct values are >= 5 % of its non-empty values
              (measured by the full run and frozen; here: on the table). Low-cardinality fields
              (gender, status, province, city ...) are never keys.
  keys      : one exact-value key per key field (field index mixed in) + `bands` MinHash band keys
              (r values each) over the character 2-grams of all key fields (tagged) -- catches
              a row whose every key field has a typo. <= 16 keys per row.
  verify    : per field present in both rows: similarity = 1 if equal, else character-bigram
              Dice for key fields (0 for low-cardinality fields); weight = log2(distinct values)
              of the field; score = weighted mean over fields present in both; keep >= t.
  stored    : the normalised values themselves (~80-120 bytes a row here): exact, no sketch noise.
"""
from __future__ import annotations

import argparse
import itertools
import math
import random
import re
import sys
from pathlib import Path
import unicodedata
from collections import defaultdict

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository
sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipe as R  # noqa: E402
from bench.labelled.persons import generate_persons  # noqa: E402
from dedup.eval.metrics import pair_quality  # noqa: E402
from minhash_fallback import bench_minhash_persons  # noqa: E402

FIELDS = ("surname", "given_name", "gender", "birth_date", "id_number", "phone", "province", "city", "district",
          "street", "status")
_ADDR = re.compile(r"^(?P<province>[^省]+省)?(?P<city>[^市]+市)?(?P<district>[^区县]+[区县])?(?P<street>.*)$")
_DATE = re.compile(r"(\d{4})\D?(\d{1,2})\D?(\d{1,2})")
DIGITS = {"birth_date", "id_number", "phone"}


def widen(n: int, seed: int):
    data = generate_persons(n, seed)
    rng = random.Random(500 + seed)
    label_status: dict = {}
    rows = []
    for r in data.rows:
        lab = data.truth[r["id"]]
        name = r["name"] or ""
        m = _ADDR.match(r["address"] or "") if r["address"] else None
        st = label_status.setdefault(lab, f"状态{rng.randrange(10)}")
        if rng.random() < 0.1:
            st = f"状态{rng.randrange(10)}"
        row = {"id": r["id"], "surname": name[:1] or None, "given_name": name[1:] or None, "gender": r["gender"],
               "birth_date": r["birth_date"], "id_number": r["id_number"], "phone": r["phone"],
               "province": m and m["province"], "city": m and m["city"], "district": m and m["district"],
               "street": (m and m["street"]) or None, "status": st}
        rows.append(row)
    return rows, {str(k): str(v) for k, v in data.truth.items()}, data.kinds


def norm(field: str, v) -> str:
    if v is None:
        return ""
    s = unicodedata.normalize("NFKC", str(v)).casefold()
    s = "".join(ch for ch in s if unicodedata.category(ch)[0] not in "PSZC")
    if field in DIGITS:
        if field == "birth_date":
            m = _DATE.search(s.replace("年", "-").replace("月", "-").replace("日", ""))
            if m:
                return f"{m[1]}{int(m[2]):02d}{int(m[3]):02d}"
        s = "".join(ch for ch in s if ch.isdigit() or ch == "x")
    return s


def bigrams(s: str) -> set:
    return {s[i:i + 2] for i in range(len(s) - 1)} if len(s) > 1 else {s}


def run(rows, truth, bands=4, r=4, t=0.7, key_ratio=0.5, K=None, verbose=True):
    N = len(rows)
    vals = [[norm(f, row[f]) for f in FIELDS] for row in rows]
    distinct = [len({v[k] for v in vals if v[k]}) for k in range(len(FIELDS))]
    filled = [sum(1 for v in vals if v[k]) for k in range(len(FIELDS))]
    keyf = [k for k in range(len(FIELDS)) if filled[k] and distinct[k] / filled[k] >= key_ratio]
    weight = [math.log2(max(2, d)) for d in distinct]
    # exact keys
    cols = []
    for k in keyf:
        cols.append(np.array([R.CityHash64(f"{k}\x1f{v[k]}".encode()) if v[k] else 0 for v in vals], np.uint64))
    # composite keys: the two name fields together with each other field that is not a key field by itself
    # but has many values (ratio >= key_ratio / 10): e.g. name+birth_date, name+street
    name = [v[0] + "\x1f" + v[1] if v[0] and v[1] else "" for v in vals]
    for k in range(2, len(FIELDS)):
        if k not in keyf and filled[k] and distinct[k] / filled[k] >= key_ratio / 10:
            cols.append(np.array([R.CityHash64(f"n{k}\x1f{nm}\x1f{v[k]}".encode()) if nm and v[k] else 0
                                  for nm, v in zip(name, vals)], np.uint64))
    keys = np.stack(cols, axis=1)
    if bands:
        strings = ["\x1e".join(f"{k}{v[k]}" for k in keyf if v[k]) for v in vals]
        h, c = R.char_gram_hashes(strings, 3)
        sig = R.minhash(h, c, bands * r)
        keys = np.concatenate([keys, R.band_keys(sig, bands, r, c > 0)], axis=1)
    (i, j), st = R.candidate_pairs(keys, return_stats=True)
    grams = [[bigrams(x) if x else None for x in v] for v in vals]
    keep = np.zeros(len(i), bool)
    for p, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
        num = den = 0.0
        for k in range(len(FIELDS)):
            x, y = vals[a][k], vals[b][k]
            if not x or not y:
                continue
            if x == y:
                s = 1.0
            elif k in keyf:
                ga, gb = grams[a][k], grams[b][k]
                s = 2 * len(ga & gb) / (len(ga) + len(gb))
            else:
                s = 0.0
            num += weight[k] * s
            den += weight[k]
        keep[p] = den > 0 and num / den >= t
    lab = R.components(N, i[keep], j[keep])
    ids = [str(row["id"]) for row in rows]
    q = pair_quality(R.groups_of(lab, ids), truth)
    info = {"key_fields": [FIELDS[k] for k in keyf], "keys_per_row": st["keys"] / N, "cand_per_row": st["pairs"] / N,
            "largest_bucket": st["largest_bucket"]}
    return q, info


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--minhash", action="store_true")
    a = ap.parse_args()
    for spec in a.sets:
        n, seed = map(int, spec.split(":"))
        rows, truth, kinds = widen(n, seed)
        grid = [(4, 4, t) for t in (0.6, 0.65, 0.7, 0.75, 0.8)] + [(0, 4, 0.7), (6, 4, 0.7), (4, 3, 0.7)] if a.sweep else [(4, 4, 0.7)]
        for bands, r, t in grid:
            q, info = run(rows, truth, bands, r, t)
            print(f"| persons11 {n}:{seed} | new recipe b{bands}r{r} t{t} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | "
                  f"{q.predicted_pairs} | {q.true_pairs} | {q.largest_group} | keys/row {info['keys_per_row']:.1f}, "
                  f"cand/row {info['cand_per_row']:.2f}, bucket {info['largest_bucket']}, key fields {info['key_fields']} |", flush=True)
        if a.minhash:
            for line in bench_minhash_persons(rows, truth, FIELDS):
                print(line, flush=True)
