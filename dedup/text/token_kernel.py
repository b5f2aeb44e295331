"""A batch's tokens hashed and judged in one compiled pass, no Python object a token (issue 26).

dedup.text.token_table numbers each token through a dict of up to 2^20 tokens, one look-up a raw
token (some 175 ns with its cache misses, a seventh of a text worker's time on news rows). Here
the batch's strings come as one UTF-8 buffer, joined by NUL; each one's CityHash64 (v1.1, the
``cityhash`` package's, below) and its verdict are made by walking the buffer once.
``tests/test_token_kernel.py`` holds the hash to the package on every length 0..300 and on text.

One module: numba's cache (``cache=True``) is kept per file and does not notice a change in a
function another file holds, so a kernel and the functions it calls live together. Imported
only where numba is loaded already (dedup.text.token_hashes.compiled_hasher). Every value is
uint64 and every constant too: numba makes float64 of uint64 mixed with int64.
"""

from __future__ import annotations

import numba
import numpy as np

from ..index.kernels import jitted


def _jit(function):
    """Compiled as every kernel module of dedup's is (``kernels.jitted``: numba's cache where it can
    write one, else compiled in each process)."""
    return jitted(numba, [function])[0]


KEPT, DROPPED, ASK = 0, 1, 2  # verdicts: ASK where only characters beyond the BMP left it open
_TOP, _BIT = np.uint64(54), np.uint64(48)  # a hash's word and bit in the stopwords' 2^16-bit set
# CityHash64 v1.1 (Geoff Pike and Jyrki Alakuijala, Google; MIT licence), as the package computes it
_K0 = np.uint64(0xC3A5C85C97CB3127)
_K1 = np.uint64(0xB492B66FBE98F273)
_K2 = np.uint64(0x9AE16A3B2F90404F)
_KMUL = np.uint64(0x9DDFEA08EB382D69)
_U8, _U47 = np.uint64(8), np.uint64(47)
_SIXTY_FOUR = np.uint64(64)
_ONE, _TWO, _NINE = np.uint64(1), np.uint64(2), np.uint64(9)


@_jit
def fetch(s, at, size):
    """The little-endian unsigned integer of the ``size`` bytes (4 or 8) at byte ``at`` of ``s`` (uint8)."""
    out = np.uint64(0)
    for i in range(size - 1, -1, -1):
        out = (out << _U8) | np.uint64(s[at + i])
    return out


@_jit
def rotate(value, shift):
    """Right rotation by ``shift`` (1..63; CityHash never rotates by 0)."""
    return (value >> np.uint64(shift)) | (value << (_SIXTY_FOUR - np.uint64(shift)))


@_jit
def shift_mix(value):
    return value ^ (value >> _U47)


@_jit
def hash_len16(u, v, mul):
    a = (u ^ v) * mul
    a ^= a >> _U47
    b = (v ^ a) * mul
    b ^= b >> _U47
    return b * mul


@_jit
def _len0to16(s, at, n):
    if n >= 8:
        mul = _K2 + np.uint64(n) * _TWO
        a = fetch(s, at, 8) + _K2
        b = fetch(s, at + n - 8, 8)
        c = rotate(b, 37) * mul + a
        d = (rotate(a, 25) + b) * mul
        return hash_len16(c, d, mul)
    if n >= 4:
        mul = _K2 + np.uint64(n) * _TWO
        a = fetch(s, at, 4)
        return hash_len16(np.uint64(n) + (a << np.uint64(3)), fetch(s, at + n - 4, 4), mul)
    if n > 0:
        y = np.uint64(s[at]) + (np.uint64(s[at + (n >> 1)]) << _U8)
        z = np.uint64(n) + (np.uint64(s[at + n - 1]) << _TWO)
        return shift_mix((y * _K2) ^ (z * _K0)) * _K2
    return _K2


@_jit
def _len17to32(s, at, n):
    mul = _K2 + np.uint64(n) * _TWO
    a = fetch(s, at, 8) * _K1
    b = fetch(s, at + 8, 8)
    c = fetch(s, at + n - 8, 8) * mul
    d = fetch(s, at + n - 16, 8) * _K2
    return hash_len16(rotate(a + b, 43) + rotate(c, 30) + d, a + rotate(b + _K2, 18) + c, mul)


@_jit
def bswap(value):
    out = np.uint64(0)
    for _ in range(8):
        out = (out << _U8) | (value & np.uint64(0xFF))
        value >>= _U8
    return out


@_jit
def _len33to64(s, at, n):
    mul = _K2 + np.uint64(n) * _TWO
    a = fetch(s, at, 8) * _K2
    b = fetch(s, at + 8, 8)
    c = fetch(s, at + n - 24, 8)
    d = fetch(s, at + n - 32, 8)
    e = fetch(s, at + 16, 8) * _K2
    f = fetch(s, at + 24, 8) * _NINE
    g = fetch(s, at + n - 8, 8)
    h = fetch(s, at + n - 16, 8) * mul
    u = rotate(a + g, 43) + (rotate(b, 30) + c) * _NINE
    v = ((a + g) ^ d) + f + _ONE
    w = bswap((u + v) * mul) + h
    x = rotate(e + f, 42) + c
    y = (bswap((v + w) * mul) + g) * mul
    z = e + f + c
    a = bswap((x + z) * mul + y) + b
    b = shift_mix((z + a) * mul + d + h) * mul
    return b + x


@_jit
def weak32(s, at, a, b):
    """WeakHashLen32WithSeeds of the 32 bytes at ``at``: (first, second)."""
    w, x, y, z = fetch(s, at, 8), fetch(s, at + 8, 8), fetch(s, at + 16, 8), fetch(s, at + 24, 8)
    a += w
    b = rotate(b + a + z, 21)
    c = a
    a += x
    a += y
    b += rotate(a, 44)
    return a + z, b + c


@_jit
def city_hash64(s, at, n):
    """CityHash64 of the ``n`` bytes of ``s`` (uint8) from ``at``."""
    if n <= 16:
        return _len0to16(s, at, n)
    if n <= 32:
        return _len17to32(s, at, n)
    if n <= 64:
        return _len33to64(s, at, n)
    size = np.uint64(n)
    x = fetch(s, at + n - 40, 8)
    y = fetch(s, at + n - 16, 8) + fetch(s, at + n - 56, 8)
    z = hash_len16(fetch(s, at + n - 48, 8) + size, fetch(s, at + n - 24, 8), _KMUL)
    v0, v1 = weak32(s, at + n - 64, size, z)
    w0, w1 = weak32(s, at + n - 32, y + _K1, x)
    x = x * _K1 + fetch(s, at, 8)
    for p in range(at, at + ((n - 1) & ~63), 64):
        x = rotate(x + y + v0 + fetch(s, p + 8, 8), 37) * _K1
        y = rotate(y + v1 + fetch(s, p + 48, 8), 42) * _K1
        x ^= w1
        y += v0 + fetch(s, p + 40, 8)
        z = rotate(z + w0, 33) * _K1
        v0, v1 = weak32(s, p, v1 * _K1, x + w0)
        w0, w1 = weak32(s, p + 32, z + w1, y + fetch(s, p + 16, 8))
        z, x = x, z
    return hash_len16(hash_len16(v0, w0, _KMUL) + shift_mix(y) * _K1 + z, hash_len16(v1, w1, _KMUL) + x, _KMUL)


@_jit
def _walk(buf, pos, noise):  # pragma: no cover - run compiled
    """(end, quiet, astral) of the string at ``pos``, up to the next NUL or the buffer's end:
    whether each BMP character is noise, whether any lies beyond the BMP (only while all before
    were noise: the verdict is made by then)."""
    size = buf.shape[0]
    while pos < size and buf[pos] != 0:  # all noise so far
        lead = buf[pos]
        if lead < 0x80:
            quiet = noise[lead] != 0
            pos += 1
        elif lead < 0xE0:
            quiet = noise[((np.int64(lead) & 0x1F) << 6) | (np.int64(buf[pos + 1]) & 0x3F)] != 0
            pos += 2
        elif lead < 0xF0:
            quiet = noise[((np.int64(lead) & 0x0F) << 12) | ((np.int64(buf[pos + 1]) & 0x3F) << 6)
                          | (np.int64(buf[pos + 2]) & 0x3F)] != 0
            pos += 3
        else:
            return _end(buf, pos + 4), True, True
        if not quiet:
            return _end(buf, pos), False, False
    return pos, True, False


@_jit
def _end(buf, pos):  # pragma: no cover - run compiled
    """The place of the next NUL from ``pos``, or the buffer's end."""
    size = buf.shape[0]
    while pos < size and buf[pos] != 0:
        pos += 1
    return pos


@_jit
def _verdict(h, quiet, astral, stop_bits, stop_hashes):  # pragma: no cover - run compiled
    """DROPPED for a stopword's hash (``stop_bits`` by the hash's top 16 bits first: most tokens
    are no stopword, and a bit clear says so without the search) or all noise, ASK, or KEPT."""
    if (stop_bits[h >> _TOP] >> ((h >> _BIT) & np.uint64(63))) & np.uint64(1):
        at = np.searchsorted(stop_hashes, h)
        if at < stop_hashes.shape[0] and stop_hashes[at] == h:
            return DROPPED
    if not quiet:
        return KEPT
    return ASK if astral else DROPPED


@_jit
def hash_strings(buf, n, stop_bits, stop_hashes, noise):  # pragma: no cover - run compiled
    """(hashes, verdicts) of the ``n`` strings joined by NUL in ``buf`` (uint8 UTF-8): CityHash64
    of each one's UTF-8, and DROPPED where its hash is among the sorted ``stop_hashes``
    (``stop_bits``: their top 16 bits, a 2^16-bit set) or every character is noise by ``noise``
    (uint8 over the BMP), ASK where every BMP character is noise but some lie beyond the BMP,
    else KEPT."""
    hashes = np.empty(n, np.uint64)
    verdicts = np.empty(n, np.uint8)
    pos = 0
    for i in range(n):
        end, quiet, astral = _walk(buf, pos, noise)
        h = city_hash64(buf, pos, end - pos)
        hashes[i] = h
        verdicts[i] = _verdict(h, quiet, astral, stop_bits, stop_hashes)
        pos = end + 1
    return hashes, verdicts
