"""The measured run of bench_full_run.py, in a process of its own so that its CPU seconds and memory
are its own. Run by path, not as ``bench.perf``: it imports dedup only, so that a baseline checkout's
dedup (first on PYTHONPATH, bench.support.child_env) runs it even where that checkout has no bench/perf.

    python bench/perf/full_run_child.py SOURCE_URL STORE_URL    # prints one JSON line
"""

from __future__ import annotations

import hashlib
import json
import resource
import sys

import yaml

from dedup.config import Config, parse_config
from dedup.demo import DEMO_CONFIG
from dedup.runs.full import run_full


def demo_config(source_url: str, store_url: str) -> Config:
    raw = yaml.safe_load(DEMO_CONFIG)
    raw["source"]["url"], raw["store"]["url"] = source_url, store_url
    return parse_config(raw, origin="bench")


def digest(groups) -> str:
    """As tests/test_pinned_groups.py: sha256 of the groups' member keys."""
    return hashlib.sha256(json.dumps([g.keys for g in groups]).encode()).hexdigest()[:12]


def child(source_url: str, store_url: str) -> None:
    """The measured run (in its own process, so its CPU seconds and memory are its own)."""
    result = run_full(demo_config(source_url, store_url))
    print(json.dumps({"rows": result.rows_read, "groups": len(result.groups),
                      "stages": getattr(result, "stages", {}), "stages_cpu": getattr(result, "stages_cpu", {}),
                      "digest": digest(result.groups),
                      "max_rss_mb": max(resource.getrusage(who).ru_maxrss for who in
                                        (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024}))


if __name__ == "__main__":
    child(*sys.argv[1:3])
