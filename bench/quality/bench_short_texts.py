"""Do very short texts make false duplicates?  The sample's petitions cut to their first sentence.

    python -m bench.quality.bench_short_texts [--rows 10000] [--seed 42]

Fingerprints the sample petitions (dedup.demo) twice — whole, and with the content cut to its
first sentence (median about 30 characters) — with the content field alone and with the demo's
fields (name, phone, address short; title, content text), and counts the pairs within k = 3 that
join two different planted clusters (false) or the same one (true).
"""

from __future__ import annotations

import argparse
import re

from dedup.index.blocks import BlockLayout
from dedup.index.candidates import near_pairs
from dedup.config import FieldSpec
from dedup.text.features import Featurizer
from dedup.index.fingerprint import simhash_batch
from dedup.demo.generator import generate_petitions
from dedup.text.segment import Segmenter, load_stopwords

CONTENT_ONLY = (FieldSpec("content", "text", 1.0),)
DEMO_FIELDS = (FieldSpec("name", "short", 2.0), FieldSpec("phone", "short", 2.0), FieldSpec("address", "short", 2.0),
               FieldSpec("title", "text", 1.0), FieldSpec("content", "text", 1.0))


def first_sentence(text: str | None) -> str | None:
    return re.split(r"[。！？]", text)[0] + "。" if text else text


def pairs(rows: list[dict], fields, truth: dict[int, int], segmenter: Segmenter) -> tuple[int, int, int]:
    """(rows fingerprinted, false pairs, true pairs) within distance 3."""
    featurizer = Featurizer(fields, segmenter)
    feats, ids = [], []
    for r in rows:
        f = featurizer.features(r)
        if f:
            feats.append(f)
            ids.append(r["id"])
    i, j, _ = near_pairs(simhash_batch(feats), BlockLayout.for_distance(3))
    false = sum(1 for a, b in zip(i, j) if truth[ids[a]] != truth[ids[b]])
    return len(ids), false, len(i) - false


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    sample = generate_petitions(args.rows, seed=args.seed)
    short = [{**r, "content": first_sentence(r["content"])} for r in sample.rows]
    lengths = sorted(len(r["content"] or "") for r in short)
    print(f"{args.rows} sample rows (seed {args.seed}); first sentences: median {lengths[len(lengths) // 2]} characters")
    print(f"{'content':<16} {'fields':<22} {'rows':>6} {'false pairs':>11} {'true pairs':>10}")
    segmenter = Segmenter(load_stopwords())
    for label, rows in (("whole", sample.rows), ("first sentence", short)):
        for fname, fields in (("content only", CONTENT_ONLY), ("name/phone/address+text", DEMO_FIELDS)):
            n, false, true = pairs(rows, fields, sample.truth, segmenter)
            print(f"{label:<16} {fname:<22} {n:>6} {false:>11} {true:>10}")


if __name__ == "__main__":
    main()
