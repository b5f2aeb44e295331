"""Which rule of the recipe accepted a pair (dedup.runs.rules): what the report shows beside a
link's similarity, decided on the same bars as the verifier."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np

from dedup.config.parse import parse_config
from dedup.index.bands import TextVerifier
from dedup.runs.recipe import Recipe
from dedup.runs.rules import pair_rules

TEXT = {"name": "short", "content": "text"}
RECORD = {"name": "short", "phone": "chars", "address": "short"}


def _recipe(fields, **settings):
    return Recipe.of(parse_config({"source": {"url": "sqlite://"}, **settings,
                                   "tables": {"t": {"key": "id", "fields": fields}}}))


def _with_verifier(recipe, verifier):
    return SimpleNamespace(method=replace(recipe.method, verifier=verifier))


def _text_recipe():
    """A text recipe whose verifier has one identity field (signature words: length, identity, values)."""
    v = TextVerifier(identity=1, threshold=0.75, identity_threshold=0.45, short_threshold=0.95,
                     short_identity_threshold=0.20, short_chars=60)
    return _with_verifier(_recipe(TEXT), v)


def test_text_rules_follow_the_verifier_bars():
    """Word 0 of a signature is the content's length, word 1 its identity value: long and short
    contents, an identity value equal or not, scores above and below each bar."""
    r = _text_recipe()
    rows = [  # (length a, length b, identity a, identity b, score) -> rule
        ((200, 180, 5, 6, 0.80), ("content", 0.75)),
        ((200, 180, 5, 5, 0.80), ("content", 0.75)),  # the content alone is enough: that is the rule named
        ((200, 180, 5, 5, 0.50), ("content_identity", 0.45)),
        ((200, 180, 5, 6, 0.50), (None, None)),  # below the bar with no identity equal: no rule accepts it
        ((200, 180, 0, 0, 0.50), (None, None)),  # an absent identity value is never equal
        ((30, 200, 5, 6, 0.95), ("short", 0.95)),
        ((30, 200, 5, 5, 0.30), ("short_identity", 0.20)),
        ((30, 25, 5, 6, 0.80), (None, None)),
        ((200, 180, 5, 5, 0.0), (None, None)),  # nothing shared
    ]
    values = 20  # MinHash values a signature carries here (uint32, two a word): a score is equal values / 20
    a, b = [], []
    for (la, lb, ia, ib, score), _ in rows:
        same = round(score * values)
        va = np.arange(1, values + 1, dtype=np.uint32)
        vb = np.where(np.arange(values) < same, va, va + 1000).astype(np.uint32)
        a.append(np.concatenate([np.array([la, ia], np.uint64), va.view(np.uint64)]))
        b.append(np.concatenate([np.array([lb, ib], np.uint64), vb.view(np.uint64)]))
    a, b = np.array(a), np.array(b)
    v = r.method.verifier
    scores = v.scores(a, b)
    assert np.allclose(scores, [s for (*_, s), _ in rows])
    fp = np.zeros((len(a), 1), np.uint64)  # the sketches: the fingerprint word, then the signature
    got = pair_rules(r, np.hstack([fp, a]), np.hstack([fp, b]), scores)
    assert got == [want for _, want in rows]
    assert [rule is not None for rule, _ in got] == v(a, b).tolist()  # a rule exactly where it accepts


def test_record_and_simhash_rules_name_their_score():
    rec = _recipe(RECORD, match={"record_threshold": 0.675})
    assert pair_rules(rec, np.zeros((2, 1)), np.zeros((2, 1)), np.array([0.7, 0.6])) == [
        ("record", 0.675), (None, None)]
    sim = _recipe(TEXT, match={"method": "simhash"}, simhash={"min_similarity": 0.84})
    assert pair_rules(sim, np.zeros((1, 1)), np.zeros((1, 1)), np.array([0.9])) == [("simhash", 0.84)]
    fields = _recipe(RECORD, match={"method": "simhash"}, simhash={"min_field_similarity": 0.75})
    assert pair_rules(fields, np.zeros((1, 1)), np.zeros((1, 1)), np.array([0.8])) == [("fields", 0.75)]
    paper = _recipe(TEXT, match={"method": "simhash"}, simhash={"min_similarity": None})
    assert pair_rules(paper, np.zeros((1, 1)), np.zeros((1, 1)), np.array([1.0])) == [(None, None)]
