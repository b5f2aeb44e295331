"""Issue 22's quality table: the held-out sets of bench/datasets/heldout22 scored at the shipped defaults, with peers.

    pip install -e '.[test,peers]'
    python -m bench.quality.quality22                         # every set at its default sizes, dedup + peers, seed 100
    python -m bench.quality.quality22 --no-peers              # dedup only (what to rerun after a matching change)
    python -m bench.quality.quality22 --sets form_letters --sizes 200000 --peers minhash_rensa
    python -m bench.quality.quality22 --sets persons --sizes 5000 --peers splink,recordlinkage_ecm

For each set and size the rows are generated (``--seed``, 100 and up: these sets are never used to
choose defaults), written to a SQLite file, given the config ``dedup init`` writes for the table
(through its library functions: guess_starter, render), then ``dedup full`` (run_full) and ``dedup
eval`` (run_eval, truth from the generator) run on it at the checkout's defaults. Printed and
written to ``--out`` (default bench/results): ``quality22-<tag>.json`` and ``.md`` (tag: the
checkout's short commit unless ``--tag``); a rerun with the same tag replaces the (set, rows,
method) lines it measured and keeps the rest. Each line: pairwise precision, recall, F1 (dedup: as ``dedup eval``
reports them), groups, largest group, largest *false* group (rows not all one truth entity),
false groups of more than 5 rows, seconds (dedup: the full run; peers: the peer's whole work
for that threshold). Peers are swept over their threshold, the best F1 of each marked ``*``;
above ``--peer-max-rows`` (TF-IDF: above 5,000, its all-pairs cosine being quadratic) only the
peers named in ``--peers`` run, the others are listed as skipped.
"""

from __future__ import annotations

import argparse
import csv
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.datasets.heldout.common import write_sqlite
from bench.datasets.heldout22 import form_letters, persons_copies, tickets, topic_place
from bench.quality import peers
from bench.support import ROOT, machine_facts
from dedup.eval.metrics import pair_quality

# name: (generate, columns the peers compare, default sizes, record set). Text sets: the text columns
# only (a refile by a neighbour or from a second address has another name, phone or email).
SETS = {
    "form_letters": (form_letters.generate_letters, ["title", "content"], (5000, 20000), False),
    "topic_place": (topic_place.generate_complaints, ["title", "content"], (3000, 5000, 20000), False),
    "tickets": (tickets.generate_tickets, ["subject", "body"], (2000, 5000, 20000), False),
    "persons": (persons_copies.generate_people, persons_copies.TEXT, (5000, 20000), True),
}
TEXT_PEERS = ("minhash_rensa", "minhash_datasketch", "tfidf")
RECORD_PEERS = TEXT_PEERS + ("splink", "recordlinkage_ecm")
PERSON_BLOCKS = [["soc_sec_id"], ["date_of_birth"], ["surname", "suburb"], ["given_name", "postcode"],
                 ["postcode", "street_number"]]
PERSON_EXACT = {"street_number", "postcode", "state", "date_of_birth", "soc_sec_id"}
# Peers that compare all pairs (quadratic): not run above these rows unless named in --peers. TF-IDF's
# exact cosine took about 10 minutes for 20,000 form letters on the 2 loaded cores of 2026-11-26.
PEER_ROW_LIMITS = {"tfidf": 5000}
COLUMNS = ("set", "rows", "method", "threshold", "precision", "recall", "f1", "groups", "largest",
           "largest_false", "false_over_5", "seconds")


def group_facts(groups: list[list], truth: dict[str, str], every_key: list[str]) -> dict:
    """Pairwise quality and the group sizes: largest group, largest false group, false groups > 5."""
    groups = [[str(k) for k in g] for g in groups if len(g) > 1]
    q = pair_quality(groups, truth, every_key)
    false = [len(g) for g in groups if len({truth.get(k, k) for k in g}) > 1]
    return {"precision": q.precision, "recall": q.recall, "f1": q.f1, "groups": q.groups,
            "rows_in_groups": sum(map(len, groups)), "largest": q.largest_group,
            "largest_false": max(false, default=0), "false_groups": len(false),
            "false_over_5": sum(1 for s in false if s > 5), "true_pairs": q.true_pairs,
            "predicted_pairs": q.predicted_pairs}


def starter_config(db: Path, table: str, path: Path) -> str:
    """The config `dedup init sqlite:///DB -t TABLE -o PATH` writes, written; returns its text."""
    from dedup.config.starter import render
    from dedup.db.guess import guess_starter

    text = render(guess_starter(f"sqlite:///{db}", table, path))
    path.write_text(text, encoding="utf-8")
    return text


def run_dedup(name: str, data, folder: Path, evaluate: bool = True) -> dict:
    """`dedup init`, `dedup full` and `dedup eval` on the set in ``folder``; one result line. Without
    ``evaluate`` the quality is counted on the full run's groups (what eval reports, checked below)."""
    from dedup.config import load_config
    from dedup.eval.sweep import run_eval
    from dedup.runs.full import run_full

    db = folder / f"{data.table}.db"
    write_sqlite(data, str(db))
    with open(folder / "truth.csv", "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([("key", "cluster"), *data.truth.items()])
    truth = {str(k): v for k, v in data.truth.items()}
    config_text = starter_config(db, data.table, folder / "dedup.yaml")
    config = load_config(folder / "dedup.yaml")
    t0 = time.perf_counter()
    full = run_full(config, data.table)
    seconds = time.perf_counter() - t0
    every_key = [str(r["id"]) for r in data.rows]
    facts = group_facts([g.keys for g in full.groups], truth, every_key)
    t0 = time.perf_counter()
    evaluated = run_eval(config, data.table, truth=truth) if evaluate else {
        "current": {k: facts[k] for k in ("precision", "recall", "f1")} | {"label": "eval not run (--no-eval)"}}
    eval_seconds = time.perf_counter() - t0
    current = evaluated["current"]
    if abs(current["precision"] - facts["precision"]) > 1e-5 or abs(current["recall"] - facts["recall"]) > 1e-5:
        print(f"  note: eval and full disagree: eval P {current['precision']} R {current['recall']}, "
              f"full's groups P {facts['precision']} R {facts['recall']}")
    return {"set": name, "rows": len(data.rows), "method": "dedup (shipped defaults)", "threshold": None,
            **facts, "precision": current["precision"], "recall": current["recall"], "f1": current["f1"],
            "seconds": round(seconds, 2), "eval_seconds": round(eval_seconds, 2),
            "settings": current.get("label", ""), "config": config_text}


def run_peer(peer: str, rows: list[dict], columns: list[str]) -> list[peers.Sweep]:
    # Above 5,000 rows MinHash from 0.5 up: at 0.3 a shared form or stock sentences make thousands
    # of rows candidates of each other (200,000 letters: 20 minutes for 3 % of the rows).
    low = [t for t in peers.MINHASH_THRESHOLDS if len(rows) <= 5000 or t >= 0.5]
    if peer == "minhash_rensa":
        return peers.minhash_rensa(rows, columns, low)
    if peer == "minhash_datasketch":
        return peers.minhash_datasketch(rows, columns, low)
    if peer == "tfidf":
        return peers.tfidf_cosine(rows, columns)
    if peer == "splink":
        return peers.splink_em(rows, columns, PERSON_BLOCKS)
    if peer == "recordlinkage_ecm":
        return peers.recordlinkage_ecm(rows, columns, PERSON_BLOCKS, PERSON_EXACT)
    raise ValueError(f"unknown peer {peer!r}")


def measure(name: str, rows: int, seed: int, chosen: list[str] | None, peer_max_rows: int,
            with_dedup: bool, evaluate: bool = True) -> list[dict]:
    """Every line of one set at one size."""
    generate, columns, _, records = SETS[name]
    t0 = time.perf_counter()
    data = generate(rows, seed)
    print(f"\n## {name}: {len(data.rows):,} rows, seed {seed}, {data.true_pairs():,} true pairs "
          f"(generated in {time.perf_counter() - t0:.1f} s; load {os.getloadavg()[0]:.1f})", flush=True)
    truth = {str(k): v for k, v in data.truth.items()}
    every_key = list(truth)
    lines = []
    if with_dedup:
        with tempfile.TemporaryDirectory(prefix=f"quality22-{name}-") as tmp:
            lines.append(run_dedup(name, data, Path(tmp), evaluate))
        _print(lines[-1])
    available = RECORD_PEERS if records else TEXT_PEERS
    wanted = [p for p in (available if chosen is None else chosen) if p in available]
    for peer in wanted:
        limit = min(peer_max_rows, PEER_ROW_LIMITS.get(peer, peer_max_rows))
        if chosen is None and rows > limit:
            lines.append({"set": name, "rows": len(data.rows), "method": peer, "skipped":
                          f"not run above {limit:,} rows (name it in --peers to run it)"})
            print(f"  {peer}: skipped ({lines[-1]['skipped']})")
            continue
        sweep = run_peer(peer, data.rows, columns)
        found = [{"set": name, "rows": len(data.rows), "method": s.method, "peer": peer, "threshold": s.threshold,
                  **group_facts(s.groups, truth, every_key), "seconds": round(s.seconds, 2),
                  "settings": f"{s.settings}; columns {', '.join(columns)}"}
                 for s in sweep]
        max(found, key=lambda r: r["f1"])["best"] = True
        for line in found:
            _print(line)
        lines += found
    return lines


def _cell(line: dict, column: str) -> str:
    v = line.get(column)
    if column == "f1" and v is not None and line.get("best"):
        return f"**{v:.3f}** *"
    if isinstance(v, float):
        return f"{v:.3f}" if column in ("precision", "recall", "f1", "threshold") else f"{v:,.1f}"
    if isinstance(v, int):
        return f"{v:,}"
    return "" if v is None else str(v)


def _print(line: dict) -> None:
    print("  " + "  ".join(f"{c} {_cell(line, c)}" for c in COLUMNS[2:] if c != "threshold" or line.get(c)),
          flush=True)


def markdown(lines: list[dict], meta: dict) -> str:
    out = [f"# Issue 22 held-out quality: {meta['tag']}", "",
           f"At {meta['commit']}, seed {meta['seed']} ({meta['date']}; {meta['machine']}), by:", "",
           *[f"    {c}" for c in meta.get("commands", [meta["command"]])], "",
           "Pairwise precision / recall / F1 against the generator's truth; *largest false*: the largest "
           "group whose rows are not all one truth entity; *false > 5*: false groups of more than 5 rows; "
           "seconds: dedup's full run (eval apart), a peer's whole work at that threshold. `*`: a peer's best F1.",
           ""]
    head = ["| " + " | ".join(c.replace("_", " ") for c in COLUMNS) + " |",
            "|" + "---|" * 3 + "--:|" * (len(COLUMNS) - 3)]
    best = [ln for ln in lines if "skipped" not in ln and (ln.get("best") or ln["method"].startswith("dedup"))]
    out += ["## Summary: dedup and each peer at its best threshold", "", *head]
    out += ["| " + " | ".join(_cell(ln, c) for c in COLUMNS) + " |" for ln in best]
    out += ["", "## Every threshold", "", *head]
    for line in lines:
        if "skipped" in line:
            out.append(f"| {line['set']} | {line['rows']:,} | {line['method']} | skipped: {line['skipped']} |"
                       + " |" * (len(COLUMNS) - 4))
        else:
            out.append("| " + " | ".join(_cell(line, c) for c in COLUMNS) + " |")
    settings = {(ln["method"], ln.get("settings", "")) for ln in lines if "skipped" not in ln}
    out += ["", "Settings:", ""] + [f"- {m}: {s}" for m, s in sorted(settings) if s]
    return "\n".join(out) + "\n"


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def save(lines: list[dict], out: Path, tag: str, meta: dict) -> tuple[Path, Path]:
    """Merge into ``out``/quality22-<tag>.json (the measured (set, rows, method) replaced), write the .md."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"quality22-{tag}.json"
    measured = {(ln["set"], ln["rows"], ln["method"]) for ln in lines}
    with open(out / f".quality22-{tag}.lock", "w") as lock:  # two runs of one tag (200k beside the rest)
        fcntl.flock(lock, fcntl.LOCK_EX)
        old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"lines": []}
        merged = [ln for ln in old["lines"] if (ln["set"], ln["rows"], ln["method"]) not in measured] + lines
        ran = {(ln["set"], ln["rows"], ln["peer"]) for ln in merged if "peer" in ln}  # a peer measured at that size
        merged = [ln for ln in merged if "skipped" not in ln or (ln["set"], ln["rows"], ln["method"]) not in ran]
        order = list(SETS)
        merged.sort(key=lambda ln: (order.index(ln["set"]), ln["rows"], not ln["method"].startswith("dedup")))
        commands = list(dict.fromkeys(old.get("meta", {}).get("commands", []) + [meta["command"]]))
        meta = dict(meta, commands=commands)
        path.write_text(json.dumps({"meta": meta, "lines": merged}, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        md = path.with_suffix(".md")
        md.write_text(markdown(merged, meta), encoding="utf-8")
    return path, md


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    ap.add_argument("--sizes", help="comma-separated row counts for every set named (default: each set's own)")
    ap.add_argument("--seed", type=int, default=100, help="generator seed (100 and up: reporting only)")
    ap.add_argument("--peers", help=f"comma-separated peers to run (of {', '.join(RECORD_PEERS)}; text sets "
                    "take the first three); default all, within --peer-max-rows")
    ap.add_argument("--no-peers", action="store_true", help="dedup only")
    ap.add_argument("--no-dedup", action="store_true", help="peers only")
    ap.add_argument("--no-eval", action="store_true",
                    help="skip `dedup eval` (its cost doubles dedup's): quality from the full run's groups")
    ap.add_argument("--peer-max-rows", type=int, default=20000)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    ap.add_argument("--tag", help="names the result files (default: the checkout's short commit)")
    args = ap.parse_args(argv)
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in names if s not in SETS]
    if unknown:
        ap.error(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(SETS)}")
    chosen = [] if args.no_peers else None if args.peers is None else [p.strip() for p in args.peers.split(",")]
    if chosen and set(chosen) - set(RECORD_PEERS):
        ap.error(f"unknown peer(s) {', '.join(sorted(set(chosen) - set(RECORD_PEERS)))}")
    commit = _commit()
    m = machine_facts()
    meta = {"tag": args.tag or commit, "commit": commit, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "command": "python -m bench.quality.quality22 " + " ".join(argv if argv is not None else sys.argv[1:]),
            "machine": f"{m['cpu_count']} CPUs, python {m['python']}, load at start {m['load_average_1min']:.1f}",
            "seed": args.seed}
    lines = []
    for name in names:
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else SETS[name][2]
        for rows in sizes:
            lines += measure(name, rows, args.seed, chosen, args.peer_max_rows, not args.no_dedup, not args.no_eval)
            save(lines, Path(args.out), meta["tag"], meta)  # after every size: a long run keeps what it did
    json_path, md_path = save(lines, Path(args.out), meta["tag"], meta)
    print(f"\nwrote {json_path} and {md_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
