"""Issue 26 (bench/results/mem200k-s44.md): a full run's processes carry only what they use, and
the pieces made a slice at a time are what the whole-array code made.

The run's process and the children it forks never segment, so neither jieba (and pkg_resources,
which its import takes along) nor rjieba's dictionary is loaded there; a text worker loads one
rjieba dictionary, not the package's shared one beside its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import dedup.index.bands as bands
from dedup.index.bands import TextVerifier
from dedup.text import segment

ROOT = Path(__file__).resolve().parents[1]
IDENTITY = 3


def _python(code: str) -> str:
    """``code`` run by a fresh interpreter from the repository; its output."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_a_recipe_loads_no_segmenter():
    out = _python(
        "import sys, yaml\n"
        "from dedup.config import parse_config\n"
        "from dedup.demo import DEMO_CONFIG\n"
        "from dedup.runs.full import run_full\n"
        "from dedup.runs.recipe import Recipe\n"
        "recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin='test'))\n"
        "print(recipe.stamp['segmenter'], sorted(m for m in ('jieba', 'rjieba', 'pkg_resources') if m in sys.modules))\n")
    assert out.split("[")[1].strip() == "]"  # none of them imported
    assert " + jieba " in out  # the stamp still names both engines' versions


@pytest.mark.skipif(not segment.rjieba_installed(), reason="rjieba is not installed here")
def test_rjieba_cuts_without_the_packages_shared_dictionary():
    out = _python(
        "import sys\n"
        "from dedup.text import segment\n"
        "words = segment.cutter('rjieba', True)('我们是中国人，住在北京')\n"
        "alone = 'rjieba' not in sys.modules\n"
        "import rjieba\n"
        "print(words == rjieba.cut('我们是中国人，住在北京', True), alone, type(segment._rjieba()) is rjieba.Jieba)\n")
    assert out.split() == ["True", "True", "True"]


def _signatures(seed: int, rows: int, perms: int = 64) -> np.ndarray:
    rng = np.random.default_rng(seed)
    head = np.column_stack([rng.integers(0, 400, rows).astype(np.uint64),
                            rng.integers(0, 3, size=(rows, IDENTITY)).astype(np.uint64) * np.uint64(0x10001_0000)])
    values = rng.integers(0, 1 << 32, size=(rows, perms), dtype=np.uint64).astype(np.uint32).view(np.uint64)
    return np.hstack([head, values])


@pytest.mark.parametrize("rows", [0, 1, 7, 50])
def test_compact_rows_a_slice_at_a_time_are_the_whole_arrays(monkeypatch, rows):
    v = TextVerifier(IDENTITY)
    sig = _signatures(rows, rows)
    whole = v.compact(sig)
    monkeypatch.setattr(bands, "COMPACT_ROWS", 3)
    assert whole is not None and np.array_equal(v.compact(sig), whole) and len(whole) == rows
    assert np.array_equal(v.compact(sig[:, :]), v.compact(np.asfortranarray(sig)))
