"""Issue 26: the weighted MinHash made in chunks (``weighted_minhash``) and the sketch stage made by
worker processes (``dedup.runs.sketching``) give exactly what the one-process path gave: the same
values, so stored tables need no new full run."""

from __future__ import annotations

import multiprocessing
import os
import signal
import tempfile
from dataclasses import replace

import numpy as np
import pytest
import yaml

from dedup.config import parse_config
from dedup.db.source import Source
from dedup.demo import DEMO_CONFIG
from dedup.errors import DedupError
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.index import kernels, minhash as minhash_module
from dedup.index.minhash import EMPTY, U64, permutations, weighted_minhash
from dedup.runs import sketching, spill
from dedup.index.fingerprint import HashedFeatures
from dedup.runs.featurise import featurise_table
from dedup.runs.full import run_full
from dedup.runs.learning import learned_from_features
from dedup.runs.recipe import Recipe
from dedup.runs.stages import read_rows
from dedup.runs.workers import WorkerDied
from dedup.text import rarity
from dedup.store import open_store
from dedup.text.rarity import ContentModel

FORM = "尊敬的信访接待中心领导您好本人现就以下事项向贵单位提出信访请求恳请领导在百忙之中予以关注请贵单位依法依规受理并书面答复"


def _reference(hashes, counts, weights, k, seed=1):
    """weighted_minhash as it was before issue 26 (k passes over every feature at once)."""
    counts = np.asarray(counts, dtype=np.int64)
    hashes = np.asarray(hashes, dtype=U64)
    out = np.full((len(counts), k), EMPTY, np.uint32)
    has = counts > 0
    if not len(hashes):
        return out
    starts = (np.cumsum(counts) - counts)[has]
    a, b = permutations(k, seed)
    light = np.flatnonzero(np.asarray(weights) < 1.0) if weights is not None else np.zeros(0, np.int64)
    if len(light):
        lh, first, inv = np.unique(hashes[light], return_index=True, return_inverse=True)
        power = 1.0 / np.asarray(weights, dtype=np.float64)[light][first]
    with np.errstate(over="ignore"):
        for i in range(k):
            v = (hashes * a[i] + b[i]) >> U64(32)
            if len(light):
                u = ((lh * a[i] + b[i]) >> U64(32)).astype(np.float64)
                late = -np.expm1(np.log1p(-(u + 0.5) / 2.0 ** 32) * power)
                v[light] = np.minimum(np.floor(late * 2.0 ** 32), float(EMPTY - 1)).astype(U64)[inv]
            out[has, i] = np.minimum.reduceat(v.astype(np.uint32), starts)
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("chunk", [7, 300, 1 << 20])
def test_weighted_minhash_in_chunks_is_bit_identical_to_the_one_pass_kernel(monkeypatch, seed, chunk):
    """Random rows drawing from a small vocabulary (shared features), some empty, weights a function
    of the feature (some light, some tiny), in chunks smaller than one row up to all rows at once."""
    monkeypatch.setattr(minhash_module, "FEATURE_CHUNK", chunk)
    rng = np.random.default_rng(seed)
    vocab = rng.integers(0, 2**64 - 1, size=400, dtype=np.uint64)
    weight_of = np.where(rng.random(400) < 0.4, rng.choice([0.01, 0.2, 0.5, 0.999], size=400), 1.0)
    counts = rng.integers(0, 40, size=120)
    counts[rng.random(120) < 0.15] = 0
    picks = rng.integers(0, 400, size=int(counts.sum()))
    hashes, weights = vocab[picks], weight_of[picks]
    for w in (weights, None, np.ones(len(hashes)), np.full(len(hashes), 0.3)):
        for k in (64, 6):
            got = weighted_minhash(hashes, counts, w, k, seed=seed + 1)
            assert got.tobytes() == _reference(hashes, counts, w, k, seed=seed + 1).tobytes()
    assert (weighted_minhash(hashes, counts, weights, 8)[counts == 0] == EMPTY).all()


@pytest.mark.parametrize("seed", range(4))
def test_distinct_inverse_gives_what_unique_gives(seed):
    """Its three answers are np.unique's, the distinct hashes in another order: repeats, and
    hashes that share their high bits and not the rest (the sort's key holds only the high bits:
    those are answered by np.unique itself) or differ only in their low bits."""
    rng = np.random.default_rng(seed)
    vocab = rng.integers(0, 2**64 - 1, size=300, dtype=np.uint64)
    if seed % 2:  # pairs equal but for their lowest bits, in the part the key replaces by the place
        vocab[150:] = vocab[:150] ^ rng.integers(1, 64, size=150, dtype=np.uint64)
    hashes = vocab[rng.integers(0, 300, size=int(rng.integers(1, 5000)))]
    distinct, first, inv = minhash_module.distinct_inverse(hashes)
    u, u_first, u_inv = np.unique(hashes, return_index=True, return_inverse=True)
    assert sorted(distinct.tolist()) == u.tolist() and len(set(distinct.tolist())) == len(distinct)
    assert (distinct[inv] == hashes).all()
    assert sorted(first.tolist()) == sorted(u_first.tolist()) and (hashes[first] == distinct).all()
    assert minhash_module.distinct_inverse(hashes[:1])[2].tolist() == [0]


def test_weighted_minhash_of_no_features_is_empty_everywhere():
    out = weighted_minhash(np.empty(0, np.uint64), np.zeros(3, np.int64), np.empty(0), 8)
    assert out.shape == (3, 8) and (out == EMPTY).all()
    assert weighted_minhash(np.empty(0, np.uint64), np.empty(0, np.int64), None, 8).shape == (0, 8)


def _table(tmp_path) -> tuple[object, str]:
    """A demo table with a form many rows share, a common name, rows without content, and copies."""
    rows = generate_petitions(900, seed=26).rows
    for i, r in enumerate(rows):
        if i % 3 == 0:
            r["content"] = FORM + str(r["content"])
        if i % 5 == 0:
            r["name"] = "王芳"
        if i % 41 == 0:
            r["content"], r["title"] = None, None
    for r in rows[100:160]:  # a mass petition: copies of one row
        r["content"], r["title"], r["name"] = rows[99]["content"], rows[99]["title"], rows[99]["name"]
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows, {}))
    raw = yaml.safe_load(DEMO_CONFIG)
    raw["source"]["url"], raw["store"]["url"] = src, f"sqlite:///{tmp_path / 'store.db'}"
    raw["source"]["batch_size"] = 200
    config = parse_config(raw, origin="test")
    return config, src


@pytest.mark.parametrize("workers, spill_rows, sketch_rows", [(1, 128, 4096), (2, 128, 4096), (3, 128, 4096), (1, 450, 4096),
                                                              (2, 450, 4096), (2, 1 << 14, 4096), (2, 450, 37), (1, 1 << 14, 37)])
def test_the_sketch_stage_in_workers_gives_the_one_process_sketches_and_model(tmp_path, monkeypatch, workers,
                                                                             spill_rows, sketch_rows):
    config, src = _table(tmp_path)
    recipe = Recipe.of(config)
    monkeypatch.setattr(spill, "SPILL_ROWS", spill_rows)  # several ranges of one batch or more: files
    monkeypatch.setattr(sketching, "SKETCH_ROWS", sketch_rows)  # 37: each range sketched in pieces
    got = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=workers)
    # the one-process path: every row featurised, learned from and sketched here
    rows = read_rows(Source(src, recipe.table, config.batch_size), recipe, workers=1)
    learned = recipe.learn_content(rows.features)
    method = learned.method
    assert len(method.content_model.hashes) and len(method.identity_model.hashes)  # the weights are on
    assert got.rows.keys == rows.keys
    assert got.recipe.method.content_model.hashes.tobytes() == method.content_model.hashes.tobytes()
    assert got.recipe.method.content_model.counts.tobytes() == method.content_model.counts.tobytes()
    assert got.recipe.method.identity_model.hashes.tobytes() == method.identity_model.hashes.tobytes()
    assert got.sketches.tobytes() == learned.sketch(rows.features).tobytes()
    # and the signature words are TextSignature.finish's over the whole table at once
    f = rows.features
    words = method.signature.finish(f.signatures, f.content, f.content_counts, method.content_model, method.identity_model,
                                    f.numbers)
    assert got.sketches[:, learned.method.words:].tobytes() == words.tobytes()
    sig = got.sketches[:, learned.method.words:]
    values = sig[:, 1 + len(method.signature.identity):method.signature.distinct_at]  # the contents' MinHash values
    assert len({values[i].tobytes() for i in range(100, 160)}) == 1  # the copies' contents sketch alike
    empty = [i for i, k in enumerate(got.rows.keys) if int(k) % 41 == 1 and not 100 < int(k) <= 160]  # rows[i % 41 == 0]
    assert empty and (values[empty] == np.uint64(0xFFFFFFFF_FFFFFFFF)).all()  # no content: EMPTY values


def _spilling_table(tmp_path, monkeypatch):
    """The test table, its recipe, and spill files of 300 rows in a temp directory of the test's own."""
    config, src = _table(tmp_path)
    monkeypatch.setattr(spill, "SPILL_ROWS", 300)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    return config, src, Recipe.of(config)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_spilled_ranges_are_files_removed_after_the_stage(tmp_path, monkeypatch, workers):
    """A table of more than SPILL_ROWS rows goes through files (one part per batch when the text
    workers write them, one per range when the run's process does); none is left after."""
    config, src, recipe = _spilling_table(tmp_path, monkeypatch)
    ranges = []
    close = spill.FeatureSpill._close
    monkeypatch.setattr(spill.FeatureSpill, "_close", lambda self: (close(self), ranges.append(list(self.files)))[0])
    got = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=workers)
    assert len(got.sketches) == len(got.rows.keys) > 800
    # 900 rows (some without features) in batches of 200: 400, 400, the rest
    assert [len(parts) for parts in ranges[-1]] == ([2, 2, 1] if workers > 1 else [1, 1, 1])
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.parametrize("spill_rows", [300, 1 << 14])
def test_the_text_workers_write_the_features_of_a_table_of_several_ranges(tmp_path, monkeypatch, spill_rows):
    """Session 49: where the sketch workers take several ranges, the text workers write each batch's
    features to the spill themselves and send back only where they are; the run's process never
    holds them (a table of one range: they come back, and nothing is written)."""
    config, src, recipe = _spilling_table(tmp_path, monkeypatch)
    monkeypatch.setattr(spill, "SPILL_ROWS", spill_rows)
    added: list = []
    add = spill.FeatureSpill.add
    monkeypatch.setattr(spill.FeatureSpill, "add", lambda self, feats: (added.append(type(feats).__name__), add(self, feats))[1])
    got = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2)
    several = spill_rows < 900
    assert added == (["Written"] if several else ["HashedFeatures"]) * 5  # batches of 200
    alone = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=1)
    assert got.sketches.tobytes() == alone.sketches.tobytes() and got.rows.keys == alone.rows.keys


def test_a_stored_run_with_idf_learns_from_the_spill_what_it_learns_from_all_rows(tmp_path, monkeypatch):
    """IDF on, and the term counts and common features read back from the store (``keep_terms``):
    the spilled path looks up the same values and sketches alike."""
    config, src = _table(tmp_path)
    config = replace(config, text=replace(config.text, idf=True))
    recipe = Recipe.of(config)
    run_full(config)
    monkeypatch.setattr(spill, "SPILL_ROWS", 128)
    with open_store(config.store_url) as store:
        for stored in (None, store):
            got = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2, stored=stored)
            rows = read_rows(Source(src, recipe.table, config.batch_size), recipe, workers=1)
            learned, terms = learned_from_features(recipe, rows.features, stored)
            assert terms is not None and got.terms is not None and len(terms.hashes) > 1000
            assert (got.terms.documents, got.terms.hashes.tobytes(), got.terms.counts.tobytes()) == \
                (terms.documents, terms.hashes.tobytes(), terms.counts.tobytes())
            for model in ("content_model", "identity_model"):
                a, b = getattr(got.recipe.method, model), getattr(learned.method, model)
                assert len(b.hashes) and (a.documents, a.hashes.tobytes(), a.counts.tobytes()) == \
                    (b.documents, b.hashes.tobytes(), b.counts.tobytes())
            assert got.sketches.tobytes() == learned.sketch(rows.features, terms).tobytes()


@pytest.mark.parametrize("written", [False, True])  # True: each batch written to files first, as a text worker does
@pytest.mark.parametrize("per_file", [1, 7, 40, 1000])
def test_a_spill_gives_back_the_rows_kept_of_every_batch(per_file, written):
    rng = np.random.default_rng(per_file)
    batches = []
    for n in (5, 0, 13, 8, 1):
        counts = rng.integers(0, 6, n)
        total = int(counts.sum())
        content_counts = rng.integers(0, 4, n)
        batches.append(HashedFeatures(rng.integers(0, 2**63, total, dtype=np.uint64), rng.random(total),
                                      rng.random(total) < 0.5, counts, None, rng.integers(0, 9, (n, 3), dtype=np.uint64),
                                      rng.integers(0, 2**63, int(content_counts.sum()), dtype=np.uint64), content_counts))
    whole = HashedFeatures.concat(batches)
    keep = rng.random(len(whole.counts)) < 0.7
    with spill.FeatureSpill(per_file) as s:
        for b in batches:
            s.add(spill.write_features(b, s.stem()) if written else b)
        s.finish(keep)
        back = HashedFeatures.concat([s.load(i) for i in range(len(s))])
        pieces = [list(s.pieces(i)) for i in range(len(s))]
        by_piece = HashedFeatures.concat([p for ps in pieces for p in ps])  # the parts never joined: the same rows
        assert s.rows == int(keep.sum()) and (len(s) == 1) == (per_file >= len(whole.counts))
        assert not written or sum(map(len, pieces)) == len(batches)  # a part a batch written
        assert s.memory is None if written else (s.memory is not None) == (per_file >= len(whole.counts))
        directory = s.directory
    want = whole.rows(keep)
    for name in ("hashes", "weights", "idf", "counts", "signatures", "content", "content_counts"):
        assert getattr(back, name).tobytes() == getattr(want, name).tobytes(), name
        assert getattr(by_piece, name).tobytes() == getattr(want, name).tobytes(), name
    assert back.field is None and (directory is None or not directory.exists())


@pytest.mark.parametrize("workers", [1, 2])
def test_a_spill_that_cannot_be_written_is_one_line_and_leaves_no_file(tmp_path, monkeypatch, workers):
    """The disk fills while the run's process writes a range, or a text worker a batch."""
    config, src, recipe = _spilling_table(tmp_path, monkeypatch)
    writes = []

    def full(*_args, **_kwargs):
        writes.append(1)
        if len(writes) == 2:
            raise OSError(28, "No space left on device")
        return save(*_args, **_kwargs)
    save = np.save
    monkeypatch.setattr(spill.np, "save", full)
    with pytest.raises(DedupError, match="No space left on device.*TMPDIR"):
        featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=workers)
    assert len(writes) == (2 if workers == 1 else 0) and list((tmp_path / "tmp").iterdir()) == []


def test_a_failing_sketch_worker_fails_the_run(tmp_path, monkeypatch):
    config, src = _table(tmp_path)
    recipe = Recipe.of(config)
    monkeypatch.setattr(spill, "SPILL_ROWS", 128)

    def broken(*_args):
        raise RuntimeError("sketch worker broke")
    monkeypatch.setattr(sketching, "_sketch_range", broken)
    with pytest.raises(RuntimeError, match="sketch worker broke"):
        featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2)


def _workers_at_the_read(monkeypatch, then=None) -> list:
    """The names of the worker processes alive when the read starts (``then`` called on them)."""
    from dedup.runs import featurise

    seen: list = []
    real = featurise.read_rows

    def read(*args, **kwargs):
        procs = [p for p in multiprocessing.active_children() if p.name.startswith("dedup-")]
        seen.extend(p.name for p in procs)
        if then is not None:
            then(procs)
        return real(*args, **kwargs)
    monkeypatch.setattr(featurise, "read_rows", read)
    return seen


def _loads_counted(monkeypatch, tmp_path):
    """A file per process that loads the compiled kernels (``kernels.compiled`` without a feature
    count, as a worker's first task does): the list of their names."""
    real = kernels.compiled
    marks = tmp_path / "loads"
    marks.mkdir()

    def compiled(*args):
        if not args:
            (marks / str(os.getpid())).touch()
        return real(*args)
    monkeypatch.setattr(kernels, "compiled", compiled)
    return lambda: sorted(p.name for p in marks.iterdir())


def _alive() -> list:
    return [p for p in multiprocessing.active_children() if p.name.startswith("dedup-")]


def test_the_text_workers_forked_before_the_read_sketch_the_ranges(tmp_path, monkeypatch):
    """Session 49: one pool. Forked after the read, a sketching worker started with the run's
    process's RSS (275 MB at 200k demo rows) and added numba's (sketch-s48.md, round two); a second
    pool forked before the read loaded numba beside the text workers. Now the text workers are
    forked before the read, each loads the kernels once, and no sketch worker is started; the
    sketches are the one-process ones."""
    config, src, recipe = _spilling_table(tmp_path, monkeypatch)
    seen = _workers_at_the_read(monkeypatch)
    loads = _loads_counted(monkeypatch, tmp_path)
    got = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2)
    assert sorted(seen) == ["dedup-text worker-0", "dedup-text worker-1"]
    assert len(loads()) == 2 and str(os.getpid()) not in loads()
    alone = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=1)
    assert got.sketches.tobytes() == alone.sketches.tobytes()
    assert not _alive()


def test_only_as_many_workers_as_ranges_load_the_kernels_and_sketch(tmp_path, monkeypatch):
    """Three text workers, two ranges (SPILL_ROWS 600 of 900 rows): two load numba; the ranges
    go to those two only."""
    config, src = _table(tmp_path)
    recipe = Recipe.of(config)
    monkeypatch.setattr(spill, "SPILL_ROWS", 600)
    loads = _loads_counted(monkeypatch, tmp_path)
    (tmp_path / "ranges").mkdir()
    real = sketching._sketch_range

    def sketched(*args):
        (tmp_path / "ranges" / f"{os.getpid()}-{args[-1]}").touch()
        return real(*args)
    monkeypatch.setattr(sketching, "_sketch_range", sketched)
    got = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=3)
    by = sorted({p.name.split("-")[0] for p in (tmp_path / "ranges").iterdir()})
    assert len(list((tmp_path / "ranges").iterdir())) == 2 and len(loads()) == 2 and set(by) <= set(loads())
    alone = featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=1)
    assert got.sketches.tobytes() == alone.sketches.tobytes()


def test_a_table_of_one_range_loads_no_kernels_in_any_process(tmp_path, monkeypatch):
    """Small tables (one range) and the reads of incremental runs and eval: the text pool starts
    at the second batch, as before, and nobody loads numba."""
    config, src = _table(tmp_path)
    recipe = Recipe.of(config)
    seen = _workers_at_the_read(monkeypatch)
    loads = _loads_counted(monkeypatch, tmp_path)
    featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2)
    monkeypatch.setattr(spill, "SPILL_ROWS", 128)
    read_rows(Source(src, recipe.table, config.batch_size), recipe, workers=2)  # as eval and incremental runs
    assert seen == [] and loads() == [] and not _alive()


def test_a_text_worker_killed_during_the_read_fails_the_run(tmp_path, monkeypatch):
    """A worker killed (the OOM killer) while the table is read: the run says so, none is left."""
    config, src, recipe = _spilling_table(tmp_path, monkeypatch)

    def kill(procs):
        procs[0].kill()
        procs[0].join()
    _workers_at_the_read(monkeypatch, kill)
    with pytest.raises(WorkerDied, match="a text worker process was killed by SIGKILL"):
        featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2)
    assert not _alive()


def test_a_text_worker_killed_while_sketching_fails_the_run(tmp_path, monkeypatch):
    config, src, recipe = _spilling_table(tmp_path, monkeypatch)
    monkeypatch.setattr(sketching, "_sketch_range", lambda *a: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(WorkerDied, match="a text worker process was killed by SIGKILL"):
        featurise_table(Source(src, recipe.table, config.batch_size), recipe, workers=2)
    assert not _alive() and list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.parametrize("chunk", [5, 64, 1 << 22])
def test_the_common_features_counted_in_chunks_are_the_ones_counted_at_once(monkeypatch, chunk):
    monkeypatch.setattr(rarity, "COUNT_CHUNK", chunk)
    rng = np.random.default_rng(chunk)
    hashes = rng.choice(np.array([0, 3, 5, 2**63 + 7, 2**64 - 1], np.uint64), size=1000)
    model = ContentModel.learn(hashes, 1000, 0.1, 20, 0.05)
    uniq, counts = np.unique(hashes[hashes != 0], return_counts=True)
    assert model.hashes.tobytes() == uniq.tobytes() and model.counts.tolist() == counts.tolist()
    assert len(ContentModel.learn(np.zeros(9, np.uint64), 9, 0.1, 20, 0.05).hashes) == 0
    assert len(ContentModel.learn(np.empty(0, np.uint64), 0, 0.1, 20, 0.05).hashes) == 0


def test_the_keys_read_by_text_workers_are_the_row_watermarks_own_objects(tmp_path):
    """The keys come back from the text workers as copies of the ones the read keyed the row
    watermarks by; the watermarks are now keyed by the kept keys, so a key is held once, not twice
    (54 bytes a demo row; issue 26, bench/results/memory-s40.md). The watermarks are the same."""
    config, src = _table(tmp_path)
    recipe = Recipe.of(config)
    rows = read_rows(Source(src, recipe.table, config.batch_size), recipe, workers=2)
    alone = read_rows(Source(src, recipe.table, config.batch_size), recipe, workers=1)
    assert len(rows.keys) > 400 and rows.keys == alone.keys and rows.row_watermarks == alone.row_watermarks
    held = {id(k) for k in rows.row_watermarks}
    assert all(id(k) in held for k in rows.keys)
