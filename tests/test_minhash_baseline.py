"""The MinHash LSH baseline (bench/quality/minhash_baseline.py)."""

from __future__ import annotations

from functools import partial

import pytest

from bench.datasets.labelled.persons import FIELDS, generate_persons, write_sqlite, write_truth_csv
from bench.quality.minhash_baseline import (
    char_ngrams, jieba_tokens, main, minhash_groups, pair_quality,
)

PERSON = {"name": "王伟", "gender": "男", "birth_date": "1985-03-07", "id_number": "330106198503071234",
          "phone": "13812345678", "address": "浙江省杭州市西湖区文新街道翠苑小区3幢2单元501室"}


def test_char_ngrams():
    grams = char_ngrams({"a": "ABCD", "b": "x", "c": None, "d": "  "}, ["a", "b", "c", "d"])
    assert grams == {"a:abc", "a:bcd", "b:x"}
    # full-width digits fold, punctuation and spaces go
    assert char_ngrams({"d": "１９８５-０３-０７"}, ["d"]) == char_ngrams({"d": "19850307"}, ["d"])
    # grams are tagged with the field, so equal values in different fields do not match
    assert not char_ngrams({"a": "123"}, ["a"]) & char_ngrams({"b": "123"}, ["b"])
    assert char_ngrams({"a": "abcd"}, ["a"], n=2) == {"a:ab", "a:bc", "a:cd"}


def test_jieba_tokens_drop_stopwords_and_punctuation():
    toks = jieba_tokens({"title": "小区的噪音问题", "content": "夜里施工，噪音很大！ＡＢＣ", "x": None}, ["title", "content", "x"])
    assert "噪音" in toks and "施工" in toks and "abc" in toks
    assert "的" not in toks and "，" not in toks and "," not in toks and "!" not in toks
    assert jieba_tokens({"title": None}, ["title"]) == set()


def test_identical_rows_grouped_different_rows_not():
    rows = [
        {"id": 1, **PERSON},
        {"id": 2, **PERSON},
        {"id": 3, **PERSON, "phone": "13812345687"},            # one swap: still very similar
        {"id": 4, "name": "李娜", "gender": "女", "birth_date": "1992/11/23", "id_number": "44010619921123208X",
         "phone": "18900001111", "address": "广东省广州市天河区朝阳街道紫荆苑12栋3单元1502室"},
        {"id": 5, **{f: None for f in FIELDS}},                  # no tokens
        {"id": 6, **{f: None for f in FIELDS}},
    ]
    tok = partial(char_ngrams, fields=list(FIELDS))
    res = minhash_groups(rows, "id", tok, threshold=0.5)
    assert res.groups == [[1, 2, 3]]
    assert res.pairs == 3 and res.rows_with_tokens == 4
    assert res.seconds >= res.tokenize_seconds >= 0


def test_no_rows_and_no_tokens():
    res = minhash_groups([], "id", lambda r: set(), threshold=0.5)
    assert res.groups == [] and res.pairs == 0
    res = minhash_groups([{"id": 1}, {"id": 2}], "id", lambda r: set(), threshold=0.5)
    assert res.groups == []


def test_jieba_petitions_grouped():
    text = "我家楼下的饭店每天晚上油烟很大，噪音扰民，多次反映没有解决，请有关部门尽快处理。"
    rows = [{"id": "a", "content": text}, {"id": "b", "content": text.replace("尽快", "")},
            {"id": "c", "content": "学校门口道路坑洼不平，雨天积水严重，学生上学很不安全。"}]
    res = minhash_groups(rows, "id", partial(jieba_tokens, fields=["content"]), threshold=0.7)
    assert res.groups == [["a", "b"]]


def test_deterministic_for_fixed_seed():
    d = generate_persons(300, seed=1)
    tok = partial(char_ngrams, fields=list(FIELDS))
    a = minhash_groups(d.rows, "id", tok, threshold=0.5, seed=1)
    b = minhash_groups(d.rows, "id", tok, threshold=0.5, seed=1)
    assert a.groups == b.groups and a.pairs == b.pairs and a.candidates == b.candidates
    assert a.groups and all(len(g) >= 2 and g == sorted(g) for g in a.groups)
    q = pair_quality(a.groups, d.truth)
    assert q["precision"] > 0.7 and q["recall"] > 0.6


def test_pair_quality_hand_made():
    truth = {1: "a", 2: "a", 3: "b", 4: "c", 5: "c", 6: "b", 7: "d"}
    q = pair_quality([[1, 2, 3], [4, 5]], truth)
    # predicted pairs 3 + 1, true pairs a:1 b:1 c:1, correct (1,2) and (4,5)
    assert (q["predicted_pairs"], q["true_pairs"], q["true_positive_pairs"], q["false_positive_pairs"]) == (4, 3, 2, 2)
    assert q["precision"] == pytest.approx(0.5)
    assert q["recall"] == pytest.approx(2 / 3)
    assert q["f1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    # keys compared as text; a key missing from the truth is its own singleton
    assert pair_quality([["1", "2"], ["8", "9"]], truth)["true_positive_pairs"] == 1
    assert pair_quality([], truth) == {**pair_quality([], truth), "precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert pair_quality([[1, 2]], {1: "a", 2: "a"})["f1"] == 1.0


def test_cli(tmp_path, capsys):
    d = generate_persons(200, seed=2)
    db, truth, out = tmp_path / "p.sqlite", tmp_path / "t.csv", tmp_path / "g.csv"
    write_sqlite(d, str(db))
    write_truth_csv(d, str(truth))
    assert main(["--db", str(db), "--table", "persons", "--truth", str(truth), "--fields", ",".join(FIELDS),
                 "--tokens", "char3", "--threshold", "0.5", "--show", "2", "--groups-out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "pairwise precision" in text and "seconds: total" in text and "group 1" in text
    assert out.read_text(encoding="utf-8").startswith("group,key,cluster")
