"""Fields fingerprints (tables of records without text): each field its own block, candidates share a
field, verification scores field by field with empty fields dropping out."""


import numpy as np
import pytest

from bench.datasets.labelled.persons import generate_persons, write_sqlite
from dedup.index.blocks import BITS, BlockLayout
from dedup.index.candidates import near_pairs
from dedup.config import parse_config
from dedup.errors import ConfigError
from dedup.eval.metrics import pair_quality
from dedup.text.features import Featurizer
from dedup.index.fingerprint import field_sketch, sketch
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe
from dedup.text.segment import Segmenter
from dedup.eval.sweep import run_eval
from dedup.index.verify import FieldVerifier, SketchVerifier

PERSON_FIELDS = {"name": {"kind": "chars", "n": 1, "weight": 2}, "birth_date": {"kind": "chars", "weight": 2},
                 "id_number": {"kind": "chars", "weight": 3}, "phone": {"kind": "chars", "weight": 1.5},
                 "address": {"kind": "chars", "weight": 1.5}}


def person_config(source_url, store_url, **table):
    return parse_config({"source": {"url": source_url, "batch_size": 97}, "store": {"url": store_url},
                         "tables": {"persons": {"key": "id", "fields": PERSON_FIELDS, **table}}})


def cfg_fields(fields, **table):
    return parse_config({"source": {"url": "sqlite://"},
                         "tables": {"t": {"key": "id", "fields": fields, **table}}}).table("t")


# --- config -----------------------------------------------------------------------------------

def test_auto_fingerprint_is_fields_for_records_and_row_for_text():
    assert cfg_fields({"name": "short", "phone": "chars"}).fingerprint == "fields"
    assert cfg_fields({"name": "short", "content": "text"}).fingerprint == "row"
    assert cfg_fields({"name": "short"}).fingerprint == "row"  # one field: nothing to compare apart
    assert cfg_fields({"name": "short", "phone": "chars"}, fingerprint="row").fingerprint == "row"
    assert cfg_fields({"name": "short", "content": "text"}, fingerprint="fields").fingerprint == "fields"


@pytest.mark.parametrize("table,simhash,where", [
    ({"fingerprint": "columns"}, {}, "tables.t.fingerprint"),
    ({"fingerprint": "fields", "fields": {f"c{i}": "short" for i in range(9)}}, {}, "tables.t.fingerprint"),
    ({}, {"min_field_similarity": 2}, "simhash.min_field_similarity"),
    ({}, {"min_field_similarity": True}, "simhash.min_field_similarity"),
])
def test_bad_fields_settings_name_their_key(table, simhash, where):
    raw = {"source": {"url": "sqlite://"}, "simhash": simhash, "match": {"method": "simhash"},
           "tables": {"t": {"key": "id", "fields": {"a": "short", "b": "short"}, **table}}}
    with pytest.raises(ConfigError, match=where.replace(".", r"\.")):
        parse_config(raw)


# --- layout and candidates --------------------------------------------------------------------

def test_fields_layout_cuts_64_bits_into_one_block_per_field():
    layout = BlockLayout.for_fields(5)
    assert layout.shared and sum(layout.widths) == BITS and len(layout.tables) == 5
    assert max(layout.widths) - min(layout.widths) <= 1
    assert sum(layout.block_masks) == (1 << BITS) - 1  # disjoint and complete
    fp = layout.block_masks[0] | layout.block_masks[3]  # fields 1, 2 and 4 empty
    assert [n.split(":")[0] for n in layout.names(fp)] == ["0", "3"]


def test_shared_layout_candidates_are_the_pairs_sharing_a_non_empty_block():
    rng = np.random.default_rng(3)
    layout = BlockLayout.for_fields(4)
    masks = [np.uint64(m) for m in layout.block_masks]
    fps = rng.integers(0, 2**63, size=400, dtype=np.uint64)
    fps[::7] &= ~masks[1]  # some rows have field 1 empty
    fps[1::5] = (fps[1::5] & ~masks[2]) | (fps[0] & masks[2])  # many share field 2's value
    i, j, _ = near_pairs(fps, layout)
    got = set(zip(i.tolist(), j.tolist()))
    want = {(a, b) for a in range(len(fps)) for b in range(a + 1, len(fps))
            if any((fps[a] & m) == (fps[b] & m) and (fps[a] & m) != 0 for m in masks)}
    assert got == want and len(want) > 1000


# --- sketch and verification ------------------------------------------------------------------

def featurize(rows, fields=PERSON_FIELDS):
    tcfg = cfg_fields(fields)
    f = Featurizer(tcfg.fields, Segmenter(frozenset()), by_field=True)
    return f.hashed([f.described(r) for r in rows]), tcfg


def test_a_fields_bits_depend_on_that_field_alone_and_an_empty_field_is_zero():
    a = {"name": "张伟", "birth_date": "1980-01-02", "id_number": "110101198001020011", "phone": "13800000000",
         "address": "北京市东城区东华门街道1号"}
    b = dict(a, phone="13999999999")
    c = dict(a, address=None)
    feats, _ = featurize([a, b, c])
    masks = BlockLayout.for_fields(5).block_masks
    sk = field_sketch(feats, feats.weights, masks, 4)
    phone, address = np.uint64(masks[3]), np.uint64(masks[4])
    rest = np.uint64(((1 << 64) - 1) ^ masks[3])
    assert ((sk[0] ^ sk[1]) & rest == 0).all() and ((sk[0] ^ sk[1]) & phone != 0).any()
    assert (sk[2] & address == 0).all() and ((sk[0] ^ sk[2]) & ~address == 0).all()


def test_field_sketch_of_one_field_is_that_fields_simhash():
    feats, _ = featurize([{"name": "王芳", "phone": "139"}, {"name": "李娜"}])
    masks = BlockLayout.for_fields(5).block_masks
    got = field_sketch(feats, feats.weights, masks, 2)
    name_only, _ = featurize([{"name": "王芳"}, {"name": "李娜"}])
    want = sketch(name_only.hashes, name_only.weights, name_only.counts, 2)
    assert ((got & np.uint64(masks[0])) == (want & np.uint64(masks[0]))).all()


def test_field_verifier_drops_empty_fields_and_weighs_the_rest():
    masks = BlockLayout.for_fields(2).block_masks  # 32 + 32 bits
    v = FieldVerifier(masks, (3.0, 1.0), threshold=0.75)
    lo = np.uint64(masks[1])
    a = np.array([[0x1234_5678_0000_FFFF]], dtype=np.uint64)
    same_first_other_second = np.array([[0x1234_5678_FFFF_0000]], dtype=np.uint64)  # 32 of 32 bits apart
    # field 1 opposite (cos -1): (3 * 1 + 1 * -1) / 4 = 0.5
    assert v.scores(a, same_first_other_second)[0] == pytest.approx(0.5)
    assert not v(a, same_first_other_second)[0]
    second_empty = a & ~lo  # an empty field is not a difference: only field 0 counts
    assert v.scores(a, second_empty)[0] == pytest.approx(1.0) and v(a, second_empty)[0]
    nothing_shared = np.array([[0]], dtype=np.uint64)
    assert v.scores(a, nothing_shared)[0] == 0.0


def test_the_verifier_follows_the_table_fingerprint():
    cfg = parse_config({"source": {"url": "sqlite://"}, "simhash": {"min_field_similarity": 0.6},
                        "match": {"method": "simhash"},
                        "tables": {"p": {"key": "id", "fields": PERSON_FIELDS},
                                   "t": {"key": "id", "fields": {"content": "text"}}}})
    p, t = Recipe.of(cfg, "p"), Recipe.of(cfg, "t")
    fv = p.verifier
    assert isinstance(fv, FieldVerifier) and fv.threshold == 0.6 and fv.weights == (2, 2, 3, 1.5, 1.5)
    assert isinstance(t.verifier, SketchVerifier)
    assert p.stamp["fingerprint"] == "fields" and p.stamp["min_field_similarity"] == 0.6
    assert "fingerprint" not in t.stamp


# --- whole runs ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def persons():
    return generate_persons(900, seed=4)


def test_full_run_on_person_records_finds_typoed_copies_and_keeps_lookalikes_apart(persons, tmp_path):
    db = tmp_path / "p.db"
    write_sqlite(persons, str(db))
    cfg = person_config(f"sqlite:///{db}", f"sqlite:///{tmp_path / 's.db'}")
    groups = run_full(cfg, "persons").groups
    truth = {str(k): str(v) for k, v in persons.truth.items()}
    q = pair_quality([g.keys for g in groups], truth)
    assert q.precision >= 0.97 and q.recall >= 0.95, q
    paper = person_config(f"sqlite:///{db}", f"sqlite:///{tmp_path / 's2.db'}", fingerprint="row")
    assert pair_quality([g.keys for g in run_full(paper, "persons").groups], truth).recall < q.recall


def test_eval_sweeps_the_record_threshold(persons, tmp_path):
    db = tmp_path / "p.db"
    write_sqlite(persons, str(db))
    cfg = person_config(f"sqlite:///{db}", f"sqlite:///{tmp_path / 's.db'}")
    out = run_eval(cfg, "persons", truth={str(k): str(v) for k, v in persons.truth.items()})
    assert [s["knob"] for s in out["sweeps"]] == ["match.record_threshold"]
    points = out["sweeps"][0]["points"]
    assert points[0]["recall"] >= points[-1]["recall"] and points[0]["precision"] <= points[-1]["precision"]
    hist = out["histograms"][0]
    assert sum(hist["true"]) > 0 and sum(hist["false"]) > 0
    assert out["current"]["precision"] >= 0.97
