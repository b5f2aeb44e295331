"""How long the workbench's pages take on a larger demo: the group list the first time (every
group summarised: its rows read from the source, its links scored) and again (cached until a run
or a decision), a filtered list, a group page, and one action (take a row out) with the page after.

    python -m bench.perf.bench_serve [--rows 20000] [--seed 42]

In-process through Starlette's test client (no network), SQLite source and store.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner
from starlette.testclient import TestClient

from dedup.cli import main as cli
from dedup.config import load_config
from dedup.demo import prepare_demo
from dedup.web import create_app


def timed(what: str, fn):
    t0 = time.perf_counter()
    out = fn()
    print(f"{what:<44} {time.perf_counter() - t0:8.3f} s")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cfg = prepare_demo(Path(tmp) / "demo", rows=args.rows, seed=args.seed)
        timed(f"dedup full ({args.rows} rows)", lambda: CliRunner().invoke(cli, ["-c", str(cfg), "full", "-q"]))
        with TestClient(create_app(load_config(str(cfg))), base_url="http://127.0.0.1") as c:
            first = timed("group list, first (summaries built)", lambda: c.get("/"))
            groups = re.search(r'<b id="shown">(\d+)</b>', first.text).group(1)
            print(f"{'groups':<44} {groups:>8}")
            timed("group list, again (cached)", lambda: c.get("/"))
            timed("group list, search + weak + weakest sort", lambda: c.get("/?q=物业&weak=1&sort=weakest"))
            gid = re.search(r'<tr data-group="(\d+)"', first.text).group(1)
            page = timed("a group page (largest group)", lambda: c.get(f"/group/{gid}"))
            key = re.findall(r'class="take-out" data-key="([^"]+)"', page.text)[-1]
            token = re.search(r'name="csrf" value="([^"]+)"', c.get("/name").text).group(1)
            c.post("/name", data={"csrf": token, "name": "bench", "next": "/"})
            timed("take a row out (decide under the lock)",
                  lambda: c.post(f"/group/{gid}/take-out", data={"csrf": token, "key": key}, follow_redirects=False))
            timed("group list after it (summaries rebuilt)", lambda: c.get("/"))
            timed("review queue (weakest undecided link)", lambda: c.get("/queue"))


if __name__ == "__main__":
    main()
