"""Golden vectors, computed independently of dedup's implementation.

CityHash64 is checked against a plain-Python transcription of the algorithm
(reference_cityhash.py); SimHash against a bit-by-bit loop written here. Pinned literals then
freeze the whole chain (normalisation, jieba segmentation, stopwords, hashing, weighting): a change
that would silently alter fingerprints already in a store fails here and must come with a
fingerprint-version bump and a note to re-run `dedup full`.
"""

import random

import numpy as np
import pytest
from cityhash import CityHash64

from dedup.config import FieldSpec
from dedup.text.features import Featurizer
from dedup.index.fingerprint import feature_hash, simhash, simhash_batch
from dedup.text.segment import Segmenter, load_stopwords
from reference_cityhash import city_hash64


def reference_simhash(features: dict[str, float]) -> int:
    """SimHash the textbook way: a 64-slot vector, one bit at a time."""
    v = [0.0] * 64
    for feat, w in features.items():
        h = city_hash64(feat.encode("utf-8"))
        for i in range(64):
            v[i] += w if (h >> i) & 1 else -w
    return sum(1 << i for i in range(64) if v[i] > 0)


@pytest.mark.parametrize("length", list(range(0, 140)) + [255, 256, 1000, 4099])
def test_cityhash_matches_reference_at_every_length_branch(length):
    data = bytes(random.Random(length).randrange(256) for _ in range(length))
    assert CityHash64(data) == city_hash64(data)


@pytest.mark.parametrize("text", ["", "a", "信访", "name\x1f张三", "噪音扰民，严重影响休息" * 7])
def test_feature_hash_is_cityhash64_of_utf8(text):
    assert feature_hash(text) == city_hash64(text.encode("utf-8"))


def test_simhash_batch_equals_bitwise_reference():
    rng = random.Random(7)
    vocab = ["物业", "噪音", "工资", "拖欠", "道路", "name\x1f张三", "phone\x1f13800138000", "x", "处理", "部门"]
    rows = []
    for _ in range(300):
        rows.append({w: float(rng.choice([1, 2, 3, 0.5])) for w in rng.sample(vocab, rng.randint(1, len(vocab)))})
    got = simhash_batch(rows)
    assert got.dtype == np.uint64
    assert [int(x) for x in got] == [reference_simhash(r) for r in rows]


def test_simhash_batch_chunking_does_not_change_results(monkeypatch):
    import dedup.index.fingerprint as fp

    rows = [{f"t{i}-{j}": 1.0 + (j % 3) for j in range(1 + i % 17)} for i in range(200)]
    whole = simhash_batch(rows)
    monkeypatch.setattr(fp, "_CHUNK_ROWS", 3)
    assert np.array_equal(simhash_batch(rows), whole)


def test_sketch_words_are_simhashes_of_remixed_hashes():
    import dedup.index.fingerprint as fp

    rows = [{f"t{i}-{j}": 0.5 + (j % 4) for j in range(1 + i % 23)} for i in range(60)]
    feats = fp.HashedFeatures.of(rows)
    sk = fp.sketch(feats.hashes, feats.weights, feats.counts, words=4)
    assert np.array_equal(sk[:, 0], simhash_batch(rows))
    starts = np.concatenate(([0], np.cumsum(feats.counts)))
    for r in range(len(rows)):
        for word in range(4):
            hashes = fp.word_hashes(feats.hashes[starts[r]:starts[r + 1]], word)
            want = 0
            for bit in range(64):  # the textbook loop, bit by bit
                total = sum(w if int(h) >> bit & 1 else -w for h, w in zip(hashes, rows[r].values()))
                want |= (total > 0) << bit
            assert int(sk[r, word]) == want
    words = [set(sk[:, w].tolist()) for w in range(4)]
    assert all(len(words[0] & words[w]) == 0 for w in (1, 2, 3))  # remixed words are not copies


def test_ties_give_zero_bits():
    """A bit whose sum is exactly 0 is 0 (the rule is "> 0"), whatever the features' order."""
    a, b = "噪音", "扰民"
    ha, hb = city_hash64(a.encode()), city_hash64(b.encode())
    # equal weights: where the hashes disagree the sum is +w - w = 0, a tie; where both are 1 it is 2w
    assert simhash({a: 1.5, b: 1.5}) == ha & hb == simhash({b: 1.5, a: 1.5})
    assert ha & hb != ha | hb  # the hashes do disagree somewhere: there are ties to break
    # a single feature sets exactly its own 1-bits
    assert simhash({a: 3.0}) == ha


def test_row_without_features_is_refused():
    with pytest.raises(ValueError):
        simhash_batch([{"a": 1.0}, {}])


# Pinned: what dedup's default recipe gives for two petitions. Change only on purpose.
PETITION = {
    "name": "张三", "phone": "138 0013 8000", "address": "天河区　体育西路１２号",
    "title": "楼下餐馆噪音扰民",
    "content": "我家楼下的餐馆每天晚上十点以后还在营业，噪音很大，已经严重影响了我们的休息。希望有关部门尽快处理！",
}
FIELDS = (FieldSpec("name", "short", 2.0), FieldSpec("phone", "short", 2.0), FieldSpec("address", "short", 2.0),
          FieldSpec("title", "text", 1.0), FieldSpec("content", "text", 1.0))


PINNED_FEATURES = {
    "address\x1f天河区体育西路12号": 2.0, "name\x1f张三": 2.0, "phone\x1f13800138000": 2.0,
    "严重": 1.0, "休息": 1.0, "十点": 1.0, "噪音": 2.0, "处理": 1.0, "尽快": 1.0, "希望": 1.0, "影响": 1.0,
    "很大": 1.0, "我家": 1.0, "扰民": 1.0, "楼下": 2.0, "每天晚上": 1.0, "营业": 1.0, "部门": 1.0, "餐馆": 2.0,
}
PINNED_FINGERPRINT = 15547971279834775453


def test_pinned_features_of_a_petition():
    feats = Featurizer(FIELDS, Segmenter(load_stopwords())).features(PETITION)
    assert feats == PINNED_FEATURES


def test_pinned_fingerprint_of_a_petition():
    assert reference_simhash(PINNED_FEATURES) == PINNED_FINGERPRINT  # independent of dedup's code
    assert simhash(PINNED_FEATURES) == PINNED_FINGERPRINT
