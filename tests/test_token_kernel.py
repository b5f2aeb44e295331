"""Issue 26 session 49: a batch's tokens hashed and judged by a compiled kernel
(dedup.text.token_kernel, with its own CityHash64) give exactly what the token
table gives (``cityhash.CityHash64`` of the UTF-8, ``Segmenter.dropped``): on random bytes of every
length 0..300, on Chinese, ASCII, astral and noise tokens and the stopwords themselves, and whole
batches through ``featurize_rows``; and a process that has not loaded numba keeps the dict."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest
from cityhash import CityHash64

from dedup.index import kernels
from dedup.runs.parallel import featurize_rows
from dedup.text import batch_terms, token_hashes
from dedup.text.features import Featurizer
from dedup.text.segment import Segmenter, load_stopwords
from dedup.text.signature import TextSignature
from tests.test_batch_terms import FIELDS, assert_same, awkward_rows
from tests.test_fast_featurise import POOL, texts


@pytest.fixture(scope="module")
def kernel():
    """The compiled token kernel, loaded as a text worker of a large table has it: beside the index kernels."""
    assert kernels.compiled() is not None
    got = token_hashes.compiled_hasher()
    assert got is not None
    return got


def test_city_hash64_of_every_length_is_the_package_s(kernel):
    from dedup.text.token_kernel import city_hash64

    rng = random.Random(3)
    for n in range(301):
        for _ in range(4):
            data = bytes(rng.randrange(256) for _ in range(n))
            pad = rng.randrange(9)
            buf = np.frombuffer(bytes(pad) + data + b"tail", np.uint8)
            assert city_hash64(buf, pad, n) == CityHash64(data), n


def tokens_to_judge() -> list[str]:
    seg = Segmenter(load_stopwords(None))
    found = [t for text in texts(1500, seed=21, longest=120) for t in seg.tokens(text)]
    found += sorted(seg.stopwords) + list(POOL)
    found += ["", " ", "，。", "的", "噪音", "\U0001f600", "\U0001f600，", "\U0001f600a", "，\U0001d400", "\x00",
              "龍" * 40, "投诉小区噪音扰民" * 30, "a" * 65, "😀" * 17, "\u3000", "𝟎𝟏", "c.b", "3.5%"]
    rng = random.Random(8)
    found += ["".join(rng.choice(POOL) for _ in range(rng.randint(1, 90))) for _ in range(3000)]
    return found


def test_hashes_and_verdicts_are_cityhash_and_segmenter_dropped(kernel):
    seg = Segmenter(load_stopwords(None))
    strings = [s for s in tokens_to_judge() if "\x00" not in s]
    hashes, dropped = token_hashes.hash_strings(kernel, strings, seg.stopwords)
    assert hashes.tolist() == [CityHash64(s.encode("utf-8")) for s in strings]
    want = [seg.dropped(s) for s in strings]
    assert dropped.tolist() == want and 500 < sum(want) < len(want) - 500
    assert token_hashes.hash_strings(kernel, strings + ["a\x00b"], seg.stopwords) is None  # a NUL: the table judges
    assert token_hashes.hash_strings(kernel, [""], seg.stopwords)[1].tolist() == [True]
    empty = token_hashes.hash_strings(kernel, [], seg.stopwords)
    assert empty[0].tolist() == [] and empty[1].tolist() == []
    with pytest.raises(UnicodeEncodeError):
        token_hashes.hash_strings(kernel, ["a\ud800"], seg.stopwords)


def test_other_stopwords_are_judged_by_theirs(kernel):
    words = frozenset({"噪音", "the", "😀"})
    seg = Segmenter(words)
    strings = ["噪音", "的", "the", "The", "😀", "😀😀", "，"]
    assert token_hashes.hash_strings(kernel, strings, words)[1].tolist() == [seg.dropped(s) for s in strings]


@pytest.mark.parametrize("by_field", [False, True])
def test_featurize_rows_by_the_kernel_is_by_the_token_table(monkeypatch, kernel, by_field):
    """Batches judged by the kernel, and by the table where a token holds a NUL, as by the table alone."""
    sig = TextSignature(content=("title", "content"), identity=("name", "phone"), perms=32, numbers=16)
    rows = awkward_rows()
    nul = [(k, r) for k, r in rows if any("\x00" in str(v) for v in r.values())]
    rows = [row for row in rows if row not in nul] + nul  # the last batches alone hold a NUL
    judged = []

    def run():
        fz = Featurizer(FIELDS, Segmenter(load_stopwords(None)), by_field=by_field, signature=sig)
        return [featurize_rows(fz, rows[i:i + 200]) for i in range(0, len(rows), 200)]

    def spy(*args):
        judged.append(token_hashes.hash_strings(*args) is not None)
        return token_hashes.hash_strings(*args)

    monkeypatch.setattr(batch_terms, "hash_strings", spy)
    fast = run()
    assert judged.count(True) >= 4 and judged.count(False) >= 1 and len(nul) > 10
    monkeypatch.setattr(batch_terms, "compiled_hasher", lambda: None)
    for new, old in zip(fast, run(), strict=True):
        assert_same(new, old, by_field)


def test_a_process_without_numba_keeps_the_dict():
    """A small run never loads numba for the tokens: the kernel is used only where it is loaded."""
    code = ("import sys, json; from dedup.text.features import Featurizer; from dedup.config import FieldSpec;"
            "from dedup.text.segment import Segmenter, load_stopwords; from dedup.runs.parallel import featurize_rows;"
            "fz = Featurizer((FieldSpec('content', 'text', 1.0),), Segmenter(load_stopwords(None)));"
            "featurize_rows(fz, [('a', {'content': '投诉小区噪音扰民的问题'})]);"
            "print(json.dumps(['numba' in sys.modules, bool(fz.segmenter._tables)]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [False, True]
