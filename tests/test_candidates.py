"""The block search is exact: it finds precisely the pairs a brute-force comparison finds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dedup.index.blocks import BlockLayout
from dedup.index.candidates import brute_force_pairs, near_pairs


def planted(seed: int, n: int, k: int, skew: bool) -> np.ndarray:
    """Random fingerprints, a share of them copies of others with 0..k+1 bits flipped."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    for _ in range(n // 3):
        src, dst = rng.integers(0, n, 2)
        x = int(fps[src])
        for b in rng.choice(64, int(rng.integers(0, k + 2)), replace=False):
            x ^= 1 << int(b)
        fps[dst] = x
    if skew:  # a third of the rows share the top block: one bucket far larger than the rest
        part = slice(0, n // 3)
        fps[part] = (fps[part] & np.uint64((1 << 48) - 1)) | np.uint64(0xABCD << 48)
    return fps


def as_set(i, j):
    return set(zip(i.tolist(), j.tolist()))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 700), k=st.integers(0, 12),
       extra_blocks=st.sampled_from([None, 0, 1, 2]), skew=st.booleans(), split_at=st.sampled_from([2, 7, 64, 512]))
def test_pairs_equal_brute_force(seed, n, k, extra_blocks, skew, split_at):
    fps = planted(seed, n, k, skew)
    try:
        layout = BlockLayout.for_distance(k, None if extra_blocks is None else k + 1 + extra_blocks)
    except ValueError:  # keys too narrow for this k and block count
        return
    i, j, d = near_pairs(fps, layout, split_at=split_at)
    bi, bj = brute_force_pairs(fps, k)
    assert as_set(i, j) == as_set(bi, bj)
    assert len(i) == len(as_set(i, j))  # each pair once
    assert np.all(i < j)
    assert np.array_equal(d, np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64))
    assert np.all(d <= k)


def test_pairs_found_across_the_top_bit():
    # fingerprints >= 2**63 behave like any other
    a = (1 << 63) | 0x1234
    fps = np.array([a, a ^ 0b111, a ^ 0b1111, 5], dtype=np.uint64)
    i, j, d = near_pairs(fps, BlockLayout.for_distance(3))
    assert as_set(i, j) == {(0, 1), (1, 2)}  # 0 and 2 differ in 4 bits
    assert d.tolist() == [3, 1]


def test_layout_widths_and_names():
    assert BlockLayout.for_distance(3).widths == (16, 16, 16, 16)
    assert BlockLayout.for_distance(4).widths == (13, 13, 13, 13, 12)
    assert sum(BlockLayout.for_distance(6).widths) == 64
    names = BlockLayout.for_distance(3).names(0x3FA2_0000_0000_3FA2)
    assert names == ["0:3fa2", "1:0000", "2:0000", "3:3fa2"]  # same value, different positions


def test_wider_distances_use_tables_of_several_blocks():
    layout = BlockLayout.for_distance(9)  # single blocks would be 6 bits: 11 blocks, pairs of them
    assert len(layout.widths) == 11 and len(layout.tables) == 55 and layout.key_bits >= 10
    assert all(len(t) == 2 for t in layout.tables)
    fp = 0xFFFF_0000_FFFF_0000
    names = layout.names(fp)
    assert len(names) == 55 and len(set(names)) == 55
    values = layout.values(np.array([fp], dtype=np.uint64))[0]
    assert names == [layout.table_name(t, int(v)) for t, v in enumerate(values)]
    assert names[0].startswith("0+1:")
    # each table's key is its blocks' bits: equal keys <=> equal fingerprint bits under the mask
    for t, mask in enumerate(layout.masks):
        other = fp ^ (~mask & (2**64 - 1))  # flip every bit outside the table
        assert layout.names(other)[t] == names[t]


@pytest.mark.parametrize("k,blocks", [(-1, None), (32, None), (64, None), (8, 9), (3, 3), (3, 65)])
def test_layout_refuses_distances_it_cannot_search_usefully(k, blocks):
    with pytest.raises(ValueError):
        BlockLayout.for_distance(k, blocks)
