"""dedup.text.memos: a text worker that goes on to sketch lets its featurising memos go (issue 26,
session 49); featurising again afterwards rebuilds them and gives the same features."""

from __future__ import annotations

from dedup.runs.parallel import featurize_rows
from dedup.text import batch, memos, normalize, numbers, segment, shingles
from dedup.text.features import Featurizer
from dedup.text.segment import Segmenter, load_stopwords
from dedup.text.signature import TextSignature
from tests.test_batch_terms import FIELDS, assert_same, awkward_rows


def _featurizer() -> Featurizer:
    sig = TextSignature(content=("title", "content"), identity=("name", "phone"), perms=64, numbers=16)
    return Featurizer(FIELDS, Segmenter(load_stopwords(None)), signature=sig)


def _held(fz: Featurizer) -> dict[str, int]:
    return {"nfkc": len(normalize._MEMO), "runs": len(normalize._RUNS), "hashes": len(batch._HASHES),
            "copies": len(shingles._COPIES), "numbers": len(numbers._NUMBER_HASH) + len(numbers._PLACE_HASH),
            "rjieba": segment._rjieba.cache_info().currsize, "tables": len(fz.segmenter._tables),
            "seen": len(fz.segmenter._seen)}


def test_forget_empties_every_memo_and_featurising_again_gives_the_same():
    rows = awkward_rows()
    fz = _featurizer()
    first = featurize_rows(fz, rows)
    fz.segmenter.terms("一个测试的句子")  # the per-row way's sets too
    batch._HASHES["x"]  # the plain batch's memo (explain's and the tests' way)
    before = _held(fz)
    assert all(before[k] > 0 for k in ("nfkc", "runs", "copies", "numbers", "rjieba", "tables", "seen", "hashes")), before
    memos.forget(fz.segmenter)
    assert set(_held(fz).values()) == {0}
    again = featurize_rows(fz, rows)
    assert_same(again, first, False)
    assert_same(again, featurize_rows(_featurizer(), rows), False)
