"""The quality pieces: n-gram fields, IDF counts, sketch verification, pairwise metrics, `dedup eval`."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.config import FieldSpec
from dedup.eval.metrics import pair_quality
from dedup.index.verify import SketchVerifier
from dedup.text.features import Featurizer
from dedup.index.fingerprint import HashedFeatures
from dedup.index.pairs import row_pairs
from dedup.demo.generator import generate_petitions, write_sample_db, write_truth_csv
from dedup.text.segment import Segmenter
from dedup.text.terms import TermModel


def test_chars_fields_turn_one_typo_into_a_few_changed_features():
    f = Featurizer((FieldSpec("name", "chars", 1.0, 2), FieldSpec("id", "chars", 1.0, 2)), Segmenter(frozenset()))
    a = f.features({"name": "王小明", "id": "110101199003071234"})
    b = f.features({"name": "王晓明", "id": "110101199003071234"})
    assert set(a) - set(b) == {"name\x1e王小", "name\x1e小明"}
    assert a["id\x1e11"] == pytest.approx(1 + math.log(2)) and a["id\x1e99"] == 1  # repeats: 1 + ln n
    raw = Featurizer(f.fields, f.segmenter, tf="raw")
    assert sum(raw.features({"name": "王小明", "id": "110101199003071234"}).values()) == 2 + 17  # repeats add up
    assert f.features({"name": None, "id": ""}) == {}


def test_term_counts_are_document_frequencies_and_unseen_terms_weigh_as_rare():
    rows = [{"a": 1.0, "b": 2.0}, {"a": 3.0}, {"a": 1.0, "c": 1.0, "x\x1fwhole": 2.0}]
    feats = HashedFeatures.of(rows, terms=[[True, True], [True], [True, True, False]])
    model = TermModel.learn(feats)
    assert model.documents == 3
    h = HashedFeatures.of([{"a": 1, "b": 1, "c": 1, "never": 1}]).hashes
    idf = model.idf(h)
    assert idf[0] < idf[1] == idf[2] == idf[3]  # a in 3 rows; b, c in one; unseen counts as one
    hashes, counts = model.kept()
    assert hashes.tolist() == [h[0]] and counts.tolist() == [3]  # only terms in 2+ rows
    weights = model.weigh(feats)
    assert weights[-1] == 2.0  # a whole value is never IDF-weighted


def test_verification_drops_candidates_whose_sketches_differ():
    fp = np.uint64(0xF0F0_F0F0_0000_FFFF)
    sketches = np.array([[fp, 0, 0, 0], [fp ^ np.uint64(1), 0, 0, 0], [fp ^ np.uint64(2), 2**64 - 1, 0, 0]],
                        dtype=np.uint64)
    near = lambda fps: (np.array([0, 0, 1]), np.array([1, 2, 2]), np.array([1, 1, 2]))  # noqa: E731
    assert {(p.a, p.b) for p in row_pairs(["1", "2", "3"], sketches, near)} == {("1", "2"), ("1", "3"), ("2", "3")}
    kept = row_pairs(["1", "2", "3"], sketches, near, verify=SketchVerifier(0.85, 256))  # 0.85 over 256 bits: at most 44 bits apart
    assert {(p.a, p.b) for p in kept} == {("1", "2")}


def test_pair_quality_counts_pairs_inside_groups_and_clusters():
    truth = {"1": "a", "2": "a", "3": "a", "4": "b", "5": "b", "6": "c"}
    q = pair_quality([["1", "2", "4"], ["5", "6"]], truth)
    assert (q.predicted_pairs, q.correct_pairs, q.true_pairs) == (4, 1, 4)
    assert q.precision == 0.25 and q.recall == 0.25 and q.groups == 2


def test_eval_command_measures_against_truth(tmp_path):
    sample = generate_petitions(300, seed=3, duplicate_share=0.4)
    write_sample_db(f"sqlite:///{tmp_path / 'p.db'}", sample)
    write_truth_csv(tmp_path / "truth.csv", sample)
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(
        "source: {url: 'sqlite:///p.db'}\nstore: {url: 'sqlite:///s.db'}\ntext: {workers: 1}\n"
        "tables:\n  petitions:\n    key: id\n    fields: {name: short, phone: short, title: text, content: text}\n",
        encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(main, ["-c", str(cfg), "eval", "--truth", str(tmp_path / "truth.csv"), "-f", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    cur = data["current"]
    assert cur["true_pairs"] > 0 and cur["recall"] >= 0.9 and cur["precision"] >= 0.9
    sweep = data["sweeps"][0]
    assert sweep["knob"] == "match.threshold" and sweep["current"] == 0.75
    points = sorted(sweep["points"], key=lambda p: p["value"])
    assert [p["value"] for p in points if p["value"] == 0.75] == [0.75]
    assert all(a["recall"] >= b["recall"] for a, b in zip(points, points[1:]))  # a lower bar finds more
    paper = tmp_path / "paper.yaml"
    paper.write_text(cfg.read_text(encoding="utf-8") + "match: {method: simhash}\n", encoding="utf-8")
    out = runner.invoke(main, ["-c", str(paper), "eval", "--truth", str(tmp_path / "truth.csv"), "-f", "json",
                               "--distances", "3,11"])
    assert out.exit_code == 0, out.output
    by_k = {p["value"]: p for p in json.loads(out.output)["sweeps"][0]["points"]}
    assert by_k[3]["recall"] <= by_k[11]["recall"]  # a wider net never finds fewer pairs
    assert not (tmp_path / "s.db").exists()  # eval writes nothing to the store
    html = runner.invoke(main, ["-c", str(cfg), "eval", "--truth", str(tmp_path / "truth.csv"), "-f", "html",
                                "-o", str(tmp_path / "e.html")])
    assert html.exit_code == 0 and "<svg" in (tmp_path / "e.html").read_text(encoding="utf-8")
    bad = runner.invoke(main, ["-c", str(cfg), "eval"])
    assert bad.exit_code == 2 and "--truth" in bad.output
