"""A batch's tokens judged and hashed at once (dedup.text.batch_terms, issue 26 session 48) give
what the per-row way gave: ``featurize_rows`` against the loop it replaced (``occurrences`` a row,
``Segmenter.terms`` judging the tokens, ``hashed_batch``) on varied text (Chinese, Latin, digits
of other scripts, full-width forms, astral characters, empty and unreadable cells, rows of
stopwords only), in both fingerprint layouts and TF modes, across a token table handed out anew."""

from __future__ import annotations

import re
import unicodedata

import numpy as np
import pytest

from dedup.config import FieldSpec
from dedup.runs import parallel
from dedup.runs.parallel import featurize_rows
from dedup.store import Skipped
from dedup.text import nfkc_batch, normalize, segment, token_table
from dedup.text.batch import hashed_batch
from dedup.text.features import Featurizer
from dedup.text.segment import Segmenter, load_stopwords
from dedup.text.signature import TextSignature
from tests.test_fast_featurise import texts, varied_rows

FIELDS = (FieldSpec("name", "short", 2.0), FieldSpec("phone", "short", 2.0), FieldSpec("title", "text", 1.0),
          FieldSpec("content", "text", 1.0), FieldSpec("address", "chars", 1.5, n=2))


def per_row(fz: Featurizer, rows):
    """featurize_rows as session 47 left it: one ``occurrences`` a row, then ``hashed_batch``."""
    found, keys, skipped, kept = [], [], [], []
    for key, row in rows:
        try:
            f = fz.occurrences(row)
        except (ValueError, TypeError, ArithmeticError) as e:
            skipped.append(Skipped(key, "unreadable", f"{type(e).__name__}: {e}"))
            continue
        if f:
            found.append(f)
            keys.append(key)
            kept.append(row)
        else:
            skipped.append(Skipped(key, "no_features", "every field is empty"))
    feats = hashed_batch(fz, found)
    feats.signatures, feats.content, feats.content_counts = fz.signature.parts(kept)
    feats.numbers = fz.signature.numbers_of(kept)
    return keys, feats, skipped


def awkward_rows():
    rows = varied_rows()
    odd = texts(300, seed=9, longest=60)
    more = [{"content": "的 了 ， 。", "title": "！！"}, {"content": b"\xff\xfe"}, {"title": "的"},
            {"content": "１２３ 𝟎𝟏 ٣٤ ०१ 龍門 ｶﾞ 😀 c.b a-b 33.6k 3.5 12%", "name": "ＡＢＣ"},
            {"content": "\U0002f800" * 5, "phone": "１３８ ０００"}, {"name": "", "content": "   "}]
    rows += [(f"m{i}", r) for i, r in enumerate(more)]
    rows += [(f"o{i}", {"title": t, "content": odd[-i - 1], "address": t[:9]}) for i, t in enumerate(odd)]
    rows += rows[:40]  # copies: segmented once
    return rows


def assert_same(new, old, by_field: bool) -> None:
    assert new[0] == old[0]
    assert [(s.key, s.reason, s.detail) for s in new[2]] == [(s.key, s.reason, s.detail) for s in old[2]]
    a, b = new[1], old[1]
    for name in ("hashes", "idf", "counts", "signatures", "content", "content_counts", "numbers") + (("field",) * by_field):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None and y is None) or x.tolist() == y.tolist(), name
    assert a.weights.tobytes() == b.weights.tobytes()


@pytest.mark.parametrize("tf", ["log", "raw"])
@pytest.mark.parametrize("by_field", [False, True])
def test_featurize_rows_is_the_per_row_way(by_field, tf):
    sig = TextSignature(content=("title", "content"), identity=("name", "phone"), perms=64, numbers=16)
    rows = awkward_rows()
    new = featurize_rows(Featurizer(FIELDS, Segmenter(load_stopwords(None)), by_field=by_field, tf=tf, signature=sig), rows)
    old = per_row(Featurizer(FIELDS, Segmenter(load_stopwords(None)), by_field=by_field, tf=tf, signature=sig), rows)
    assert_same(new, old, by_field)
    reasons = [s.reason for s in new[2]]
    assert "unreadable" in reasons and reasons.count("no_features") >= 3 and len(new[0]) > 700


def test_batches_across_new_token_tables_and_rows_in_any_order(monkeypatch):
    monkeypatch.setattr(token_table.TokenTable, "LIMIT", 500)  # a new table every batch or two
    sig = TextSignature(content=("title", "content"), identity=("name",), perms=32)
    rows = awkward_rows()
    rows = rows[::2] + rows[1::2]
    fz = Featurizer(FIELDS, Segmenter(load_stopwords(None)), signature=sig)
    ref = Featurizer(FIELDS, Segmenter(load_stopwords(None)), signature=sig)
    tables = set()
    for start in range(0, len(rows), 150):
        batch = rows[start:start + 150]
        assert_same(featurize_rows(fz, batch), per_row(ref, batch), False)
        tables.add(id(fz.segmenter.numbered()))
    assert len(tables) > 3


def test_an_empty_batch_and_one_of_empty_rows():
    fz = Featurizer(FIELDS, Segmenter(load_stopwords(None)), signature=TextSignature(("content",), ("name",)))
    keys, feats, skipped = parallel.featurize_rows(fz, [])
    assert keys == [] and skipped == [] and feats.counts.tolist() == []
    keys, feats, skipped = parallel.featurize_rows(fz, [("a", {"content": "。"}), ("b", {"name": None})])
    assert keys == [] and [s.key for s in skipped] == ["a", "b"] and feats.hashes.tolist() == []


def test_tokens_less_the_dropped_are_the_terms():
    seg = Segmenter(load_stopwords(None))
    for t in texts(3000, seed=4, longest=80) + ["投诉 小区 的 噪音， 3.5% c.b"]:
        tokens = seg.tokens(t)
        assert [w for w in tokens if not seg.dropped(w)] == seg.terms(t)
    table = seg.numbered()
    numbers = table.numbers(["的", "噪音", "，", "的"])
    assert numbers[0] == numbers[3] and table.dropped(numbers).tolist() == [True, False, True, True]
    assert table.hashes(np.empty(0, np.int64)).tolist() == [] and table.dropped(np.empty(0, np.int64)).tolist() == []


_JOIN = re.compile(r"[a-zA-Z0-9][+#&._%\-]|[+#&._%\-][a-zA-Z0-9]")


def test_may_differ_is_the_two_way_search():
    """The one-class scan first changes no verdict (session 47's expression as the reference)."""
    def old(text: str) -> bool:
        return _JOIN.search(text) is not None and any(
            _JOIN.search(run) and not segment._NUMBER.fullmatch(run) for run in segment._ASCII_RUN.findall(text))
    pool = texts(20_000, seed=6, longest=60) + ["c.b", "3.5", "12%", "a-b", "33.6k", "-", "x+", "投诉3.5%的c_d"]
    verdicts = [segment._may_differ(t) for t in pool]
    assert verdicts == [old(t) for t in pool] and sum(verdicts) > 100


def test_a_batch_s_nfkc_remembered_is_unicodedata_s():
    """nfkc_batch fills the memo with exactly NFKC (full-width forms, compatibility characters of
    several code points, astral ones, every BMP character); a lone surrogate leaves it to nfkc_of."""
    pad = "投诉小区噪音扰民" * 3
    pool = texts(5000, seed=11, longest=90) + [pad + chr(c) + "，" for c in range(0x10000) if not 0xD800 <= c < 0xE000]
    normalize._MEMO.clear()
    nfkc_batch.remember(pool + [None, 7, b"x"])
    long = [t for t in pool if len(t) >= nfkc_batch.LONG and not t.isascii()]
    assert len(long) > 60_000 and all(t in normalize._MEMO for t in long[-1000:])
    assert all(normalize._MEMO[t] == unicodedata.normalize("NFKC", t) for t in pool if t in normalize._MEMO)
    normalize._MEMO.clear()
    nfkc_batch.remember([pad + "\ud800", pad + "，"])
    assert normalize._MEMO == {}
