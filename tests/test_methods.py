"""Matching methods as types (dedup.methods): each method's protocol agrees with the primitives it
composes, as the recipe composed them before the methods were types (issue 23).

Each case featurises a generated table (fixed seed) with the recipe of one method and checks the
method's sketch, keys, candidates, verdicts, scores and rules against those the primitives of
dedup.index and dedup.text give on the same rows (what ``Recipe`` computed when it switched on
``scheme is None`` and ``by_field``), then that a rule fires exactly where the method accepts a pair.
"""

from __future__ import annotations

import numpy as np
import pytest

from dedup.config.parse import parse_config
from dedup.index import fingerprint
from dedup.index.bands import TextVerifier
from dedup.index.blocks import BlockLayout
from dedup.index.candidates import near_pairs
from dedup.index.records import RecordScheme
from dedup.index.similarity import similarity, sketch_distance
from dedup.index.verify import FieldVerifier, SketchVerifier
from dedup.methods import (
    FieldSimHash,
    Method,
    Records,
    RowSimHash,
    TextMinHash,
    method_of,
)
from dedup.runs.recipe import Recipe
from dedup.text.rarity import IDENTITY_SALT, ContentModel

PETITION = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
PERSON = {"name": {"kind": "chars", "n": 1, "weight": 2}, "birth_date": {"kind": "chars", "weight": 2},
          "id_number": {"kind": "chars", "weight": 3}, "phone": {"kind": "chars", "weight": 1.5},
          "address": {"kind": "chars", "weight": 1.5}}
SIMHASH = {"match": {"method": "simhash"}, "text": {"idf": False, "workers": 1},
           "simhash": {"max_distance": 12, "sketch_bits": 256, "min_similarity": 0.84, "min_field_similarity": 0.75}}
MINHASH = {"match": {"method": "minhash", "common_share": 0.01, "common_rows": 5}, "text": {"idf": False, "workers": 1}}
CASES = {"row simhash": (RowSimHash, "petitions", SIMHASH), "field simhash": (FieldSimHash, "persons", SIMHASH),
         "text minhash": (TextMinHash, "petitions", MINHASH), "records": (Records, "persons", MINHASH)}


def _table(name: str, rows: int = 500, seed: int = 7) -> list[dict]:
    from bench.datasets.labelled import persons, petitions

    module = petitions if name == "petitions" else persons
    return getattr(module, f"generate_{name}")(rows, seed).rows


def _prepared(case: str):
    """The case's config, its recipe after a full run's learning, the rows' features and sketches."""
    kind, table, settings = CASES[case]
    fields = PETITION if table == "petitions" else PERSON
    config = parse_config({"source": {"url": "sqlite://"}, **settings,
                           "tables": {table: {"key": "id", "fields": fields}}})
    recipe = Recipe.of(config, table)
    assert type(recipe.method) is kind
    rows = [r for r in _table(table) if any(r.get(f) for f in fields)]
    feats = recipe.featurizer.hashed([recipe.featurizer.described(r) for r in rows], rows)
    recipe = recipe.learn_content(feats)
    sketches = recipe.sketch(feats)
    return config, recipe.learn(sketches), feats, sketches


@pytest.fixture(scope="module", params=list(CASES))
def prepared(request):
    return request.param, *_prepared(request.param)


def _reference_sketch(case, config, recipe, feats) -> np.ndarray:
    """The sketch as the recipe made it before methods were types."""
    m = recipe.method
    if case == "field simhash":
        return fingerprint.field_sketch(feats, feats.weights, BlockLayout.for_fields(len(m.fields)).block_masks,
                                        config.sketch_bits // 64)
    if case == "row simhash":
        return fingerprint.sketch(feats.hashes, feats.weights, feats.counts, words=config.sketch_bits // 64)
    words = fingerprint.sketch(feats.hashes, feats.weights, feats.counts, words=1)
    sigs = feats.signatures
    if case == "text minhash":  # the content models learned as Recipe.learn_content learned them
        rows, c = len(feats.content_counts), config.match
        common = (c.common_share, c.common_rows, c.common_floor)
        content = ContentModel.learn(feats.content, rows, *common)
        rare = c.identity_rare_rows if c.identity_rare_threshold < c.identity_threshold else 0  # rule content_rare_identity (s39)
        identity = ContentModel.learn(feats.signatures[:, 1:].ravel(), rows, *common, salt=IDENTITY_SALT, keep_rows=rare)
        sigs = m.signature.finish(sigs, feats.content, feats.content_counts, content, identity, feats.numbers)
    return np.hstack([words, sigs])


def _reference_keys(case, config, recipe, sk):
    """(keys object, its near pairs, each row's block names, the verifier) as the recipe built them."""
    tcfg, c = recipe.table, config.match
    if case in ("row simhash", "field simhash"):
        by_field = case == "field simhash"
        layout = BlockLayout.for_fields(len(tcfg.fields)) if by_field else BlockLayout.for_distance(config.max_distance)
        verifier = FieldVerifier(layout.block_masks, tuple(f.weight for f in tcfg.fields), config.min_field_similarity) \
            if by_field else SketchVerifier(config.min_similarity, config.sketch_bits)
        i, j, _ = near_pairs(np.ascontiguousarray(sk[:, 0]), layout)
        return (i, j), layout.names_of(sk[:, 0]), verifier, verifier(sk[i], sk[j])
    sig = sk[:, 1:]
    if case == "records":
        scheme = RecordScheme(len(tcfg.fields), recipe.method.signature.k,
                              field_weights=tuple(f.weight for f in tcfg.fields), **Records.against)  # s43: shipped on
        scheme = scheme.with_learned(scheme.learn(sig))
        verifier = scheme
    else:
        identity = sum(f.role == "identity" for f in tcfg.fields)
        scheme = recipe.method.scheme
        verifier = TextVerifier(identity, c.threshold, c.identity_threshold, c.short_threshold,
                                c.short_identity_threshold, c.short_chars, numbers_floor=c.numbers_floor,
                                numbers_least=c.numbers_least, numbers_share=c.numbers_share,
                                numbers_against=c.numbers_against, numbers_sure=c.numbers_sure,
                                numbers_brief_chars=c.numbers_brief_chars, numbers_brief_against=c.numbers_brief_against,
                                numbers_at=recipe.method.signature.numbers_at,  # rule numbers (issue 22), on
                                identity_rare_threshold=c.identity_rare_threshold,  # rule content_rare_identity (s39), on
                                confirm=c.confirm_values, confirm_margin=c.confirm_margin,  # s47, on
                                confirm_at=recipe.method.signature.confirm_at)
    i, j = scheme.near(sig)
    return (i, j), scheme.names_of(sig), verifier, verifier(sig[i], sig[j])


def test_method_of_picks_one_type_per_method(prepared):
    case, config, recipe, _feats, _sk = prepared
    assert isinstance(recipe.method, Method) and type(method_of(config, recipe.table)) is CASES[case][0]


def test_sketch_keys_and_verdicts_agree_with_the_primitives(prepared):
    case, config, recipe, feats, sk = prepared
    assert np.array_equal(sk, _reference_sketch(case, config, recipe, feats))
    (ri, rj), names, _verifier, verdicts = _reference_keys(case, config, recipe, sk)
    i, j, d = recipe.method.near(sk)
    assert np.array_equal(i, ri) and np.array_equal(j, rj) and len(i) > 50
    assert np.array_equal(d, np.bitwise_count(sk[i, 0] ^ sk[j, 0]))
    assert recipe.method.block_names(sk) == names
    accepted = recipe.method.verify(sk[i], sk[j])
    assert np.array_equal(accepted, verdicts) and 0 < accepted.sum() < len(i)
    if case == "records":  # what it learned, and its stamp, are those of the learned scheme
        assert recipe.method.scheme == recipe.method.verifier and recipe.method.learned is not None
        assert recipe.version()["learned"] == {"fields": recipe.method.learned}


def test_scores_and_rules_agree_with_the_verdicts(prepared):
    case, config, recipe, _feats, sk = prepared
    m = recipe.method
    i, j, _ = m.near(sk)
    a, b = sk[i], sk[j]
    scores = m.scores(a, b)
    if case == "row simhash":
        assert np.allclose(scores, similarity(sketch_distance(a, b), config.sketch_bits))
    else:
        assert np.allclose(scores, m.verifier.scores(*((a, b) if m.words == m.width else (a[:, 1:], b[:, 1:]))),
                           equal_nan=True)
    fired = [rule is not None for rule, _ in m.accepting_rules(a, b, scores)]
    assert fired == m.verify(a, b).tolist()  # a rule exactly where the method accepts
    decided = m.deciding_rules(a, b)
    assert len(decided) == len(i) and all(r["knob"].startswith(("match.", "simhash.")) for r in decided)
    if case == "text minhash":
        assert [r["rule"] for r in decided] == m.verifier.rules(a[:, 1:], b[:, 1:])
    kept = m.sweep(a, b)(m.threshold) if m.scored else None
    assert kept is None or np.array_equal(kept, m.verify(a, b))  # the sweep at the current bar keeps its pairs


def test_stamp_names_the_method_and_learning_is_stamped(prepared):
    case, config, recipe, _feats, _sk = prepared
    stamp = recipe.method.stamp()
    assert stamp.get("match", "simhash") == ("minhash" if CASES[case][2] is MINHASH else "simhash")
    assert set(stamp) <= set(recipe.stamp)
    fresh = Recipe.of(config, recipe.table)
    assert fresh.stamp == recipe.stamp  # learning changes the learned part only
    assert recipe.method.learns == (case == "records") and recipe.method.learns_content == (case == "text minhash")
    if recipe.learned is not None:
        assert fresh.using(recipe.learned).version() == recipe.version()


def test_the_threshold_knob_is_the_methods():
    """match.record_threshold for records, match.threshold for text: written once, in the method."""
    knobs = {case: _prepared(case)[1].method.knob for case in CASES}
    assert knobs == {"row simhash": "simhash.min_similarity", "field simhash": "simhash.min_field_similarity",
                     "text minhash": "match.threshold", "records": "match.record_threshold"}
