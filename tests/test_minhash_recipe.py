"""The minhash recipe's pieces: shingles, MinHash, band keys, key pairs and the text verifier."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from dedup.config.parse import parse_config
from dedup.index.band_columns import MAX_KEYS
from dedup.index.bands import BandScheme, TextVerifier
from dedup.index.minhash import key_pairs, minhash, splitmix64
from dedup.runs.recipe import Recipe
from dedup.text import shingles
from dedup.text.signature import TextSignature

LONG = ("本人住在幸福小区三号楼，小区东门外的路灯已经坏了两个多月，晚上出行非常不便，老人摔倒过好几次，"
        "多次向物业反映都没有人来修，请有关部门尽快派人维修，保障居民夜间出行安全。")
OTHER = ("我单位拖欠职工工资已有半年，涉及三十多名农民工，多次讨要无果，老板避而不见，"
         "恳请劳动监察部门介入调查，督促企业依法支付拖欠的劳动报酬，维护我们的合法权益。")
SHORT = "幸福小区3号楼电梯坏了17天没人修，请尽快处理"


def _sig(rows, identity=("name", "phone", "address")):
    return TextSignature(("content",), identity).of_rows(rows)


def _row(content, name="张伟", phone="13800001111", address="幸福小区3号楼"):
    return {"content": content, "name": name, "phone": phone, "address": address}


def test_clean_folds_width_punctuation_and_digit_runs():
    assert shingles.clean("电梯坏了１７天，没人修！") == shingles.clean("电梯坏了 5 天,没人修!") == "电梯坏了0天没人修"
    assert shingles.numbers("坏了１７天，电话13800001111") == ["17", "13800001111"]


def test_minhash_estimates_jaccard():
    rng = np.random.default_rng(0)
    base = rng.integers(0, 2**63, 400, dtype=np.uint64)
    a, b = base[:300], base[100:]  # 200 shared of 400: Jaccard 0.5
    values = minhash(np.concatenate([a, b]), np.array([300, 300]), 256)
    assert abs((values[0] == values[1]).mean() - 0.5) < 0.1
    empty = minhash(np.empty(0, np.uint64), np.array([0]), 8)
    assert (empty == 0xFFFFFFFF).all()


def _pairs_sharing_a_key(keys: np.ndarray) -> set[tuple[int, int]]:
    """Brute force: every pair of rows with an equal non-zero key in one column."""
    return {(a, b) for a, b in itertools.combinations(range(len(keys)), 2)
            if ((keys[a] == keys[b]) & (keys[a] != 0)).any()}


@pytest.mark.parametrize("seed, rows, m, values", [
    (1, 60, 3, 6),  # few values: big buckets, every row in many
    (2, 200, 16, 40),
    (3, 500, 5, 2),  # two values a column: buckets of half the rows
    (4, 300, 4, 2**64),  # random 64-bit keys (hardly a collision) ...
    (5, 2, 1, 1),  # only zeros: no pairs
])
def test_key_pairs_is_every_pair_sharing_a_key_in_a_column(seed, rows, m, values):
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, values, size=(rows, m), dtype=np.uint64)  # 0 names no block
    if values == 2**64:  # ... plus planted copies of some rows' keys in some columns
        copy = rng.integers(0, rows, size=(rows // 5, 2))
        keys[copy[:, 0], 1:3] = keys[copy[:, 1], 1:3]
    i, j = key_pairs(keys)
    got = list(zip(i.tolist(), j.tolist()))
    assert got == sorted(set(got))  # sorted, each once, i < j
    assert set(got) == _pairs_sharing_a_key(keys) and all(a < b for a, b in got)


@pytest.mark.parametrize("part_entries, row_chunk", [(8, 7), (64, 1), (1, 1000)])
def test_key_pairs_in_many_partitions_and_row_chunks(monkeypatch, part_entries, row_chunk):
    # tables of a million rows are cut into partitions and row chunks; small ones cut just as finely
    from dedup.index import minhash as module
    monkeypatch.setattr(module, "PART_ENTRIES", part_entries)
    monkeypatch.setattr(module, "ROW_CHUNK", row_chunk)
    rng = np.random.default_rng(part_entries)
    keys = rng.integers(0, 30, size=(300, 4), dtype=np.uint64)
    i, j = key_pairs(keys)
    got = list(zip(i.tolist(), j.tolist()))
    assert got == sorted(set(got)) and set(got) == _pairs_sharing_a_key(keys)


def _unmix(z: int) -> int:
    """The key whose splitmix64 is ``z`` (each step of splitmix64 inverted)."""
    m = (1 << 64) - 1
    z ^= z >> 31 ^ z >> 62
    z = z * pow(0x94D049BB133111EB, -1, 1 << 64) & m
    z ^= z >> 27 ^ z >> 54
    z = z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & m
    z ^= z >> 30 ^ z >> 60
    return (z - 0x9E3779B97F4A7C15) & m


def test_key_pairs_keeps_keys_apart_that_agree_only_in_their_high_bits():
    # 16 rows keep the row number in the low 4 bits of each remixed key: these two keys' remixes
    # differ only there, so they sort into one run, but they are not equal
    twin = [_unmix(0xDEADBEEF << 4 | low) for low in (1, 2)]
    assert splitmix64(np.array(twin, np.uint64)).tolist() == [0xDEADBEEF << 4 | 1, 0xDEADBEEF << 4 | 2]
    keys = np.zeros((16, 1), np.uint64)
    keys[[0, 5, 9], 0] = [twin[0], twin[1], twin[0]]
    i, j = key_pairs(keys)
    assert list(zip(i.tolist(), j.tolist())) == [(0, 9)]


def test_key_pairs_of_keys_in_different_columns_is_nothing():
    keys = np.array([[7, 0], [0, 7], [7, 0]], np.uint64)  # the store names them b0:7 and b1:7
    i, j = key_pairs(keys)
    assert list(zip(i.tolist(), j.tolist())) == [(0, 2)]


def test_a_typo_and_a_width_change_are_found_and_kept():
    copy = LONG.replace("维修", "维休").replace("，", ",")
    sig = _sig([_row(LONG), _row(copy, name="李娜", phone="13900002222", address="别处"), _row(OTHER)])
    scheme = BandScheme(3)
    i, j = scheme.near(sig)
    verify = TextVerifier(3)
    kept = {(a, b) for a, b, ok in zip(i, j, verify(sig[i], sig[j])) if ok}
    assert kept == {(0, 1)}  # the same text by another person (a collective complaint) too
    assert verify.scores(sig[[0]], sig[[2]])[0] < 0.2


def test_short_refile_with_a_new_phone_is_found_by_the_identity_keys():
    refile = SHORT.replace("17", "20")
    sig = _sig([_row(SHORT), _row("（第二次）" + refile, phone="13700003333"),
                _row(SHORT.replace("幸福", "和平"), name="王芳", phone="13600004444", address="和平小区")])
    i, j = BandScheme(3).near(sig)
    pairs = set(zip(i.tolist(), j.tolist()))
    assert (0, 1) in pairs
    keep = TextVerifier(3)(sig[i], sig[j])
    kept = {p for p, ok in zip(zip(i.tolist(), j.tolist()), keep) if ok}
    assert (0, 1) in kept and (0, 2) not in kept  # another place, another person: not the same matter


@pytest.mark.parametrize("identity", [0, 1, 2, 3, 8])
def test_at_most_sixteen_keys_a_row(identity):
    cols = tuple(f"f{c}" for c in range(identity))
    rows = [{"content": SHORT, **{c: f"v{c}" for c in cols}}, {"content": LONG, **{c: f"w{c}" for c in cols}}]
    sig = TextSignature(("content",), cols).of_rows(rows)
    names = BandScheme(identity).names_of(sig)
    assert all(len(n) <= MAX_KEYS for n in names)
    assert len(names[0]) == len(names[1])  # every content has its identity keys
    before = BandScheme(identity, long_identity=False).names_of(sig)  # the recipe before issue 22's recall work
    assert len(before[0]) > len(before[1]) or identity == 0  # a short content only
    assert all(len(name) <= 32 for row in names for name in row)


# the same person's refile of LONG: its edits leave it in no band of LONG's (estimated Jaccard 0.64)
LONG_REFILE = ("本人住在幸福小区三号楼，小区东门外的路灯已经坏了快三个月，晚上出行非常不便，老人摔倒过好几次，"
               "多次向物业反映都没有人来修，请有关部门马上派人维修，保障居民夜间出行安全。我已经是第三次来信了。社区也说管不了。")


def test_a_long_refile_out_of_every_band_is_found_by_the_identity_keys():
    sig = _sig([_row(LONG), _row(LONG_REFILE, phone="13911112222"), _row(OTHER, phone="13911112222"),
                _row(LONG_REFILE, name="李娜", phone="13700003333", address="别处")])
    before = BandScheme(3, long_identity=False).near(sig)
    assert (0, 1) not in set(zip(*(x.tolist() for x in before)))  # bands alone never compare the two
    i, j = BandScheme(3).near(sig)
    pairs = list(zip(i.tolist(), j.tolist()))
    assert (0, 1) in pairs and (0, 2) in pairs  # name+address shared with both of the person's letters
    kept = {p for p, ok in zip(pairs, TextVerifier(3)(sig[i], sig[j])) if ok}
    assert (0, 1) in kept  # the identity bar (0.45) takes the refile
    assert (0, 2) not in kept and (0, 3) not in kept  # another matter by the same person; another person's copy under 0.75


def test_an_empty_content_has_no_keys_and_matches_nothing():
    sig = _sig([_row(""), _row("")])
    assert BandScheme(3).names_of(sig) == [[], []]
    assert not TextVerifier(3)(sig[[0]], sig[[1]])[0]


def _config(**match):
    return parse_config({"source": {"url": "sqlite://"}, **({"match": match} if match else {}),
                         "tables": {"t": {"key": "id", "fields": {"name": "short", "content": "text"}}}})


def test_the_recipe_is_the_default_and_its_stamp_names_it():
    recipe = Recipe.of(_config())
    assert recipe.stamp["match"] == "minhash" and recipe.scheme is not None
    assert recipe.stamp != Recipe.of(_config(method="simhash")).stamp
    assert Recipe.of(_config(threshold=0.8)).stamp != recipe.stamp  # a threshold changes pairs: a new stamp


def test_recipe_groups_find_the_copies():
    recipe = Recipe.of(_config())
    rows = [{"id": 1, "name": "a", "content": LONG}, {"id": 2, "name": "b", "content": OTHER},
            {"id": 3, "name": "c", "content": LONG.replace("物业", "物叶")}]
    feats = recipe.featurizer.hashed([recipe.featurizer.described(r) for r in rows], rows)
    sketches = recipe.sketch(feats)
    assert sketches.shape == (3, 1 + recipe.featurizer.signature.words)
    assert [g.keys for g in recipe.groups(["1", "2", "3"], sketches)] == [["1", "3"]]


@pytest.mark.parametrize("identity", [0, 1, 3])
def test_verifier_scores_equal_the_plain_formulas_on_column_slices(identity):
    """scores/persons compare in place (uint32 views of the words, a column at a time); on the
    sketch rows as the recipe passes them (a column slice after the fingerprint) they equal the
    plain formulas: the share of equal values, any identity column equal and present."""
    rng = np.random.default_rng(identity)
    rows = rng.integers(0, 4, size=(500, 1 + 1 + identity + 8), dtype=np.uint64)  # few values: many equal
    rows[:, 1] = rng.integers(0, 100, size=500, dtype=np.uint64)  # content length, some 0
    a, b = rows[:250, 1:], rows[250:, 1:]  # what Recipe.verify passes: not contiguous
    assert not a.flags.c_contiguous
    v = TextVerifier(identity)
    va = np.ascontiguousarray(a[:, 1 + identity:]).view(np.uint32)
    vb = np.ascontiguousarray(b[:, 1 + identity:]).view(np.uint32)
    plain = np.where((a[:, 0] > 0) & (b[:, 0] > 0), (va == vb).mean(axis=1), 0.0)
    assert v.scores(a, b).tobytes() == plain.tobytes()
    ia, ib = a[:, 1:1 + identity], b[:, 1:1 + identity]
    assert v.persons(a, b)[0].tolist() == ((ia == ib) & (ia != 0)).any(axis=1).tolist()


def test_describe_says_which_contents_get_identity_keys():
    """`dedup eval` and the report print this line: it must say what the keys are made for."""
    assert "identity keys for every content" in BandScheme(3).describe()
    assert "identity keys for contents under 60 characters" in BandScheme(3, long_identity=False).describe()
    assert "identity keys" not in BandScheme(0).describe()
