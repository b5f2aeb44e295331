"""Issue 26 (session 49): a batch's content features made by the compiled kernels
(dedup.text.content_kernels) are exactly the plain path's, on varied text (Chinese, Latin words,
digits of several scripts, full-width forms, astral characters, empty cells, a lone surrogate), for
each n-gram size and digit setting; and the kernels are used only where the sketch kernels are
loaded already, so a small run never loads numba for them."""

from __future__ import annotations

import numpy as np
import pytest

from dedup.index import kernels as sketch_kernels
from dedup.text import content, content_kernels, shingles
from test_batch_scans import MORE, _rows

EDGES = [[], [""], MORE, ["１２３４５６"], ["ＡＢＣ　ａｂｃ"], ["\U00020000\U00020001\U00020002"], ["短"], ["12"],
         ["第３期，共１２０人。", "２０２６年1月"], ["٣٤5 ߁߂ ０"], ["\U0001d7ce\U0001d7cf 中文"], ["…——！"]]


@pytest.fixture
def made():
    """The content kernels (numba is a core dependency: a test fails where it cannot compile)."""
    assert sketch_kernels.compiled() is not None
    got = content_kernels.compiled()
    assert got is not None
    return got


def _plain(monkeypatch, rows, n, digits):
    with monkeypatch.context() as m:
        m.setattr(content_kernels, "compiled", lambda: None)
        return content.content_features(rows, n, 2, digits)


@pytest.mark.parametrize("digits", ["keep", "fold"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_kernels_give_the_plain_features(made, monkeypatch, seed, n, digits):
    for rows in (_rows(seed), EDGES, [[t] for t in MORE], [], EDGES + [["x\ud800y"]]):
        assert (content._compiled_features(made, rows, n, 2, digits) is None) == (rows[-1:] == [["x\ud800y"]])
        lengths, hashes, counts = content.content_features(rows, n, 2, digits)
        want = _plain(monkeypatch, rows, n, digits)
        assert list(lengths) == list(want[0])
        assert hashes.dtype == want[1].dtype and np.array_equal(hashes, want[1])
        assert counts.dtype == want[2].dtype and np.array_equal(counts, want[2])


def test_the_kernels_are_used_where_loaded(made, monkeypatch):
    called = []
    monkeypatch.setattr(content, "_compiled_features", lambda *a: called.append(a) or None)
    content.content_features([["中文"]])
    assert called


def test_not_loaded_without_the_sketch_kernels(monkeypatch):
    monkeypatch.setattr(sketch_kernels, "_state", [])
    monkeypatch.setattr(content_kernels, "_state", [])
    assert content_kernels.compiled() is None
    assert sketch_kernels._state == [] and content_kernels._state == []
    monkeypatch.setattr(sketch_kernels, "_state", [None])  # DEDUP_NUMBA=0, or numba missing
    assert content_kernels.compiled() is None


def test_classes_are_the_scripts_tables():
    table = content_kernels.classes()
    from dedup.text.scripts import LATIN_LETTER, marks
    assert np.array_equal((table & content_kernels.NOISE) > 0, marks(r"[\W_]"))
    assert np.array_equal((table & content_kernels.DIGIT) > 0, marks(r"\d"))
    assert np.array_equal((table & content_kernels.LATIN) > 0, marks(LATIN_LETTER))


@pytest.mark.parametrize("spread", [64, 40, 12])
def test_distinct_is_distinct_per_row(made, spread):
    """Hashes spread over 64 bits (about one a bucket), over the low 40 (every one in a row's first
    bucket: the crowded rows' sort) and over 12 (many repeats), rows of 0 to 3000."""
    rng = np.random.default_rng(spread)
    counts = rng.choice([0, 1, 2, 3, 17, 300, 3000], size=60).astype(np.int64)
    hashes = rng.integers(0, 2**63, size=int(counts.sum()), dtype=np.uint64) >> np.uint64(64 - spread)
    hashes |= rng.integers(0, 2, size=len(hashes), dtype=np.uint64) << np.uint64(spread - 1)
    got = made.distinct(hashes, counts)
    want = shingles.distinct_per_row(hashes, np.repeat(np.arange(len(counts)), counts), len(counts))
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
