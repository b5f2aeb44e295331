"""The README's and the workbench guide's screenshots of `dedup serve`, in Chinese:
docs/images/serve-groups.png (the list of groups) and docs/images/serve-group.png (a group).

    python docs/serve_screenshots.py [--rows 300] [--seed 42]

Makes `dedup demo`'s sample in a temporary directory (its config has Chinese column labels and
the date column: `labels`, `date_column`), runs `dedup full`, serves it on a free port and takes
the two pictures with Playwright and Debian's chromium (/usr/bin/chromium; a CJK font such as
fonts-wqy-zenhei must be installed for the Chinese to show).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from dedup.cli import main
from dedup.demo import prepare_demo

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
VIEW = {"width": 1200, "height": 660}


def run(cfg: Path, *args: str) -> str:
    out = CliRunner().invoke(main, ["-c", str(cfg), *args])
    if out.exit_code:
        raise SystemExit(out.output)
    return out.output


def shoot(rows: int, seed: int) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        cfg = prepare_demo(Path(tmp) / "demo", rows=rows, seed=seed)
        run(cfg, "full", "-q")
        groups = json.loads(run(cfg, "report", "-f", "json"))["groups"]
        pick = next((g for g in groups if g["size"] == 4), max(groups, key=lambda g: g["size"]))
        child = subprocess.Popen([sys.executable, "-m", "dedup", "-c", str(cfg), "serve", "--port", "0"],
                                 stderr=subprocess.PIPE, text=True)
        try:
            line = child.stderr.readline()  # printed once the port answers
            base = re.search(r"(http://\S+?)/? ", line).group(1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page(viewport=VIEW, locale="zh-CN")
                page.goto(f"{base}/name?next=/")
                page.fill("#name", "王审核")
                page.click("button[type=submit]")
                page.wait_for_selector("#groups")
                page.screenshot(path=str(IMAGES / "serve-groups.png"))
                page.set_viewport_size({**VIEW, "height": 940})  # down to the marked differences
                page.goto(f"{base}/group/{pick['group']}")
                page.wait_for_selector("#rows")
                page.screenshot(path=str(IMAGES / "serve-group.png"))
                browser.close()
        finally:
            child.terminate()
            child.wait(timeout=60)
    for name in ("serve-groups.png", "serve-group.png"):
        print(f"wrote docs/images/{name} ({(IMAGES / name).stat().st_size} bytes)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=300)
    ap.add_argument("--seed", type=int, default=42)
    a = ap.parse_args()
    shoot(a.rows, a.seed)
