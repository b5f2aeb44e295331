"""A batch's tokens' hashes and verdicts by the compiled kernel (dedup.text.token_kernel), where a
process has numba loaded already; elsewhere dedup.text.token_table's dict, the reference.

A text worker of a large table loads the index kernels (dedup.index.kernels) at its start; the
token kernel is loaded beside them on its first batch (from numba's cache, with its tables:
about 0.1 s of CPU and 2 MB, bench/results/tokens-s49.md).
A small run, which never loads numba, keeps the dict: importing numba would cost it about a second.
The kernel's verdict is ``Segmenter.dropped``'s: a stopword by its CityHash64 among the
stopwords' (a token whose 64-bit hash equals a stopword's is taken for it, as its feature would
be), noise by ``_is_noise`` of each BMP character, tabled once, and asked of ``_is_noise`` itself
for a token whose other characters lie beyond the BMP.
"""

from __future__ import annotations

import functools
import logging
from typing import Callable

import numpy as np
from cityhash import CityHash64

from ..index import kernels
from .segment import _is_noise

log = logging.getLogger(__name__)
_hasher: list = []  # [token_kernel.hash_strings, or None where it cannot be had], once tried
Hasher = Callable[..., tuple[np.ndarray, np.ndarray]]  # token_kernel.hash_strings


def compiled_hasher() -> Hasher | None:
    """The compiled ``hash_strings`` where this process has loaded the index kernels (a text
    worker of a large table), else None: the dict is used, numba never loaded."""
    if kernels.compiled(0) is None:  # asked for no features: the kernels only if loaded already
        return None
    if not _hasher:
        _hasher.append(_load())
    return _hasher[0]


def _load() -> Hasher | None:
    try:
        from . import token_kernel

        hash_strings(token_kernel.hash_strings, ["a"], frozenset())  # load (or compile) the one signature now
        return token_kernel.hash_strings
    except Exception as exc:  # a numba that cannot compile or cache here: the dict gives the same values
        log.warning("numba could not load the token kernel (%s): tokens are hashed through a dict", exc)
        return None


@functools.lru_cache(maxsize=4)
def stop_table(stopwords: frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
    """(a 2^16-bit set of their top 16 bits, the stopwords' CityHash64s sorted): made once a process."""
    hashes = np.unique(np.fromiter((CityHash64(w.encode("utf-8")) for w in stopwords), np.uint64, len(stopwords)))
    top = (hashes >> np.uint64(48)).astype(np.int64)
    bits = np.zeros(1 << 10, np.uint64)
    np.bitwise_or.at(bits, top >> 6, np.left_shift(np.uint64(1), (top & 63).astype(np.uint64)))
    return bits, hashes


@functools.cache
def noise_table() -> np.ndarray:
    """uint8, by code point over the BMP: 1 where ``_is_noise`` of that character (some 15 ms once)."""
    return np.fromiter((_is_noise(chr(c)) for c in range(0x10000)), np.uint8, 0x10000)


def hash_strings(kernel: Hasher, strings: list[str], stopwords: frozenset[str]) -> tuple[np.ndarray, np.ndarray] | None:
    """(uint64 CityHash64 of each string's UTF-8, bool whether ``Segmenter.dropped`` of it) by
    ``kernel``, the strings joined by NUL; None where one holds a NUL itself (a NUL more in the
    count: the token table judges that batch). A string UTF-8 cannot hold (a lone surrogate)
    raises, as ``CityHash64(s.encode())`` does."""
    text = "\x00".join(strings)
    if text.count("\x00") != len(strings) - 1 and strings:
        return None
    buf = np.frombuffer(text.encode("utf-8"), np.uint8)
    hashes, verdicts = kernel(buf, len(strings), *stop_table(stopwords), noise_table())
    for i in np.flatnonzero(verdicts == 2).tolist():  # token_kernel.ASK: characters beyond the BMP
        verdicts[i] = _is_noise(strings[i])
    return hashes, verdicts.view(bool)
