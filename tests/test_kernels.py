"""Issue 26: the weighted MinHash made by the compiled kernels (dedup.index.kernels) gives
exactly the numpy reference's values (the same stored sketches, no new full run), is compiled once
a process and cached, and where numba cannot be had the reference runs instead."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

from dedup.index import minhash as minhash_module
from dedup.index import kernels
from dedup.index.minhash import weighted_minhash
from dedup.text.rarity import ContentModel


@pytest.fixture
def compiled_kernels():
    """The compiled kernels (numba is a core dependency: a test fails where it cannot compile)."""
    got = kernels.compiled()
    assert got is not None
    return got


def _reference(monkeypatch, *args, **kwargs):
    """``weighted_minhash`` by the numpy code alone."""
    with monkeypatch.context() as m:
        m.setattr(kernels, "compiled", lambda features=0: None)
        return weighted_minhash(*args, **kwargs)


def _rows(seed: int, rows: int = 300, pool: int = 400, light_share: float = 0.5, none: bool = False):
    """Rows of 0-60 features drawn from a small pool (repeated within and across rows), some rows
    empty, some of one feature; weights from 0.05 to 1, a pool feature light or not by the pool."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 60, size=rows)
    counts[rng.random(rows) < 0.1] = 0
    counts[rng.random(rows) < 0.1] = 1
    vocab = rng.integers(0, 2**64 - 1, size=pool, dtype=np.uint64, endpoint=True)
    weigh = np.where(rng.random(pool) < light_share, rng.uniform(0.05, 0.999, pool), 1.0)
    pick = rng.integers(0, pool, size=int(counts.sum()))
    return vocab[pick], counts, None if none else weigh[pick]


@pytest.mark.parametrize("seed, light_share, none", [(1, 0.5, False), (2, 0.0, False), (3, 1.0, False),
                                                      (4, 0.5, True), (5, 0.05, False)])
def test_kernels_give_the_reference_values(monkeypatch, compiled_kernels, seed, light_share, none):
    hashes, counts, weights = _rows(seed, light_share=light_share, none=none)
    for k, s in ((64, 1), (7, 3)):
        want = _reference(monkeypatch, hashes, counts, weights, k, s)
        assert weighted_minhash(hashes, counts, weights, k, s).tobytes() == want.tobytes()


def test_kernels_across_chunk_boundaries_and_unequal_weights_of_one_feature(monkeypatch, compiled_kernels):
    """A feature light in some rows at different weights takes its first light place's weight in
    each chunk (the reference's rule); chunks of about 50 features make many boundaries."""
    hashes, counts, weights = _rows(6, rows=200, pool=30)
    assert weights is not None
    weights = weights * np.random.default_rng(9).uniform(0.5, 1.0, len(weights))  # one feature, many weights
    monkeypatch.setattr(minhash_module, "FEATURE_CHUNK", 50)
    want = _reference(monkeypatch, hashes, counts, weights, 64)
    assert weighted_minhash(hashes, counts, weights, 64).tobytes() == want.tobytes()


def test_kernels_on_empty_rows_alone_and_hashes_sharing_high_bits(monkeypatch, compiled_kernels):
    counts = np.array([0, 0, 3, 0, 1])
    base = np.uint64(0xABCD_0000_0000_0000)
    hashes = np.array([base, base + np.uint64(1), base + np.uint64(1), base], np.uint64)  # the reference's np.unique path
    for weights in (None, np.array([0.3, 1.0, 0.3, 0.7])):
        want = _reference(monkeypatch, hashes, counts, weights, 64)
        assert weighted_minhash(hashes, counts, weights, 64).tobytes() == want.tobytes()
    empty = weighted_minhash(np.empty(0, np.uint64), np.zeros(3, np.int64), None, 64)
    assert (empty == minhash_module.EMPTY).all()


def test_light_places_grow_the_table_and_keep_the_first_place(compiled_kernels):
    rng = np.random.default_rng(11)
    vocab = rng.integers(0, 2**63, size=5000, dtype=np.uint64)
    hashes = vocab[rng.integers(0, 5000, size=40000)]
    light = rng.random(40000) < 0.7
    at, firsts = compiled_kernels.light_places(hashes, light)
    assert (at[~light] == -1).all() and (hashes[firsts][at[light]] == hashes[light]).all()
    seen: dict[int, int] = {}
    for j in np.flatnonzero(light):
        seen.setdefault(int(hashes[j]), int(j))
    assert firsts.tolist() == list(seen.values())


def test_few_features_stay_in_numpy_until_the_kernels_are_there(monkeypatch):
    """A small call (an incremental run's rows) does not pay numba's import and cache load."""
    monkeypatch.setattr(kernels, "_state", [])
    assert kernels.compiled(10) is None and kernels._state == []
    assert kernels.compiled() is not None
    assert kernels.compiled(10) is not None


def test_numba_missing_or_off_falls_back_to_numpy_with_one_warning(monkeypatch, caplog):
    hashes, counts, weights = _rows(7)
    want = _reference(monkeypatch, hashes, counts, weights, 64)
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    monkeypatch.setattr(kernels, "_state", [])
    with caplog.at_level(logging.WARNING, logger="dedup.index.kernels"):
        assert kernels.compiled() is None
        assert weighted_minhash(hashes, counts, weights, 64).tobytes() == want.tobytes()
    assert len(caplog.records) == 1 and "numba unavailable" in caplog.records[0].getMessage()
    monkeypatch.setattr(kernels, "_state", [])
    monkeypatch.setenv("DEDUP_NUMBA", "0")
    assert kernels.compiled() is None


def test_a_kernel_that_cannot_compile_falls_back_to_numpy(monkeypatch, caplog):
    def broken(*args):
        raise TypeError("no such loop")

    monkeypatch.setattr(kernels, "_state", [])
    monkeypatch.setattr(kernels, "_warm", broken)  # as a numba failing to type or compile a kernel would
    with caplog.at_level(logging.WARNING, logger="dedup.index.kernels"):
        assert kernels.compiled() is None
    assert "could not compile" in caplog.text


CHILD = """
import json
from dedup.index import kernels
k = kernels.compiled()
print(json.dumps({"hits": sum(len(f.stats.cache_hits) for f in k), "misses": sum(len(f.stats.cache_misses) for f in k)}))
"""


def test_compiled_once_then_loaded_from_the_cache(tmp_path):
    """A first process compiles into NUMBA_CACHE_DIR (as where the package directory is read-only);
    a second loads the kernels from there instead of compiling."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [json.loads(subprocess.run([sys.executable, "-c", CHILD], env=env, check=True, capture_output=True,
                                      text=True).stdout) for _ in range(2)]
    assert runs[0]["misses"] == 3 and runs[1] == {"hits": 3, "misses": 0}
    assert any(p.suffix == ".nbi" for p in tmp_path.rglob("*"))


def test_the_sketch_workers_load_the_kernels_and_the_runs_process_does_not(tmp_path, monkeypatch):
    """Each forked worker loads the kernels (numba's 130 MB would stay in the run's process to its
    end); the sketches are the numpy code's."""
    import yaml

    from dedup.config import parse_config
    from dedup.db.source import Source
    from dedup.demo import DEMO_CONFIG
    from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
    from dedup.runs import spill
    from dedup.runs.featurise import featurise_table
    from dedup.runs.recipe import Recipe

    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(generate_petitions(700, seed=26).rows, {}))
    raw = yaml.safe_load(DEMO_CONFIG)
    raw["source"]["url"], raw["store"]["url"] = src, f"sqlite:///{tmp_path / 'store.db'}"
    raw["source"]["batch_size"] = 200
    config = parse_config(raw, origin="test")
    recipe = Recipe.of(config)
    monkeypatch.setattr(spill, "SPILL_ROWS", 200)  # ranges in files, sketched by the workers
    loaded = tmp_path / "loaded"
    loaded.mkdir()
    real = kernels._compile
    monkeypatch.setattr(kernels, "_compile", lambda: ((loaded / str(os.getpid())).touch(), real())[1])
    monkeypatch.setattr(kernels, "_state", [])
    got = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2)
    assert kernels._state == [] and len(list(loaded.iterdir())) == 2  # in each worker, once
    monkeypatch.setattr(kernels, "_state", [None])  # the numpy code alone, in this process
    alone = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=1)
    assert got.sketches.tobytes() == alone.sketches.tobytes()



@pytest.mark.parametrize("common", [1, 700, 5000])
def test_the_weights_looked_up_in_a_table_are_the_binary_search_ones(monkeypatch, compiled_kernels, common):
    """A model of ``common`` features (more than the first table holds: it grows), queried with
    features in it, not in it, and 0."""
    rng = np.random.default_rng(common)
    keys = np.unique(rng.integers(1, 2**64 - 1, size=common, dtype=np.uint64))
    model = ContentModel(1000, 0.01, 5, 0.05, keys, rng.integers(6, 900, size=len(keys)))
    hashes = np.concatenate([keys[rng.integers(0, len(keys), 3000)], rng.integers(0, 2**63, 3000, dtype=np.uint64),
                             np.zeros(3, np.uint64)])
    rng.shuffle(hashes)
    with monkeypatch.context() as m:
        m.setattr(kernels, "compiled", lambda features=0: None)
        want = model.weights(hashes)
    assert want is not None and model.weights(hashes).tobytes() == want.tobytes()
    weights, hits = compiled_kernels.weigh(keys, np.arange(len(keys)) + 2.0, hashes)  # a key's place + 2
    among = np.isin(hashes, keys)
    assert hits == among.sum() and (weights[~among] == 1.0).all()
    assert (keys[(weights[among] - 2).astype(np.int64)] == hashes[among]).all()
    assert model.weights(np.array([5, 6], np.uint64)) is None  # none common: every feature weighs 1
