"""A table's recipe: everything that turns its rows into fingerprints, block entries and pairs.

Derived once from the config (``Recipe.of``) and handed to every stage, so a full run, an
incremental run and `dedup eval` fingerprint, index and verify rows the same way. The version
stamp records what decides a fingerprint or a pair: rows fingerprinted under another stamp are
not comparable, and an incremental run refuses to mix them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from typing import cast

import numpy as np

from ..config.model import Config, TableConfig
from ..index import fingerprint
from ..index.blocks import BlockLayout
from ..index.candidates import near_pairs
from ..index.cluster_odd import Odd
from ..index.clusters import WIDE, Check, cluster
from ..index.fingerprint import HashedFeatures
from ..index.groups import Group, Pair
from ..index.pairs import row_pairs
from ..methods import Method, method_of
from ..store.entries import PackedEntries
from ..store.gathered import GatheredRows
from ..store.model import BlockEntries
from ..text.features import Featurizer
from ..text.rarity import ContentModel
from ..text.normalize import NORMALIZATION_VERSION
from ..text.segment import Segmenter
from ..text.terms import TermModel
from .clock import StageClock

NAMES_ROWS = 1 << 16  # rows whose block names (methods without anchors) are made as str at a time
LEARNED = "learned"  # the part of a version stamp a full run learns from the data (IDF documents, field statistics)


@dataclass(frozen=True)
class Recipe:
    """A table, its featuriser, its matching method (dedup.methods) and the version stamp."""

    table: TableConfig
    featurizer: Featurizer
    method: Method
    idf: bool
    max_distance: int
    stamp: dict  # the version stamp, without what a full run learns
    clustering: str = "star"  # how pairs become groups (dedup.index.clusters; config groups.clustering)
    gather: bool = False  # star clustering with the method's gathering of rows left alone (record and text tables)
    merge: bool = False  # star clustering merging, as a row is placed, its partners' groups that match (text and record tables)
    widen: bool = False  # star clustering: a row no head holds joins a group most of whose first WIDE rows it matches (text)
    alone: float | None = None  # star clustering: the score of a pair to one head row that places a row left alone
    near_bar: float | None = None  # star clustering: how far under the bar widening's rows may verify, one at the bar (text)

    @classmethod
    def of(cls, config: Config, table: TableConfig | str | None = None) -> Recipe:
        tcfg = table if isinstance(table, TableConfig) else config.table(table)
        method = method_of(config, tcfg)
        featurizer = method.featurizer(Segmenter.of(config.text), config.text.tf)
        stamp = {
            **method.stamp(),
            "idf": config.text.idf,
            "hash": f"{fingerprint.HASH_NAME} (cityhash {_version('cityhash')})",
            "simhash": fingerprint.SIMHASH_VERSION,
            "normalization": NORMALIZATION_VERSION,
            "max_cell_chars": tcfg.max_cell_chars,  # a longer value is cut before it is featurised
            **featurizer.version(),
        }
        stamp = json.loads(json.dumps(stamp, sort_keys=True))  # the form a store gives back
        clustering = config.groups.clustering if method.verifies else "components"
        gather = clustering == "star" and method.gathers
        merge = clustering == "star" and method.merges
        widen = clustering == "star" and method.widens
        alone = method.alone if clustering == "star" else None
        near_bar = method.near_bar if clustering == "star" else None
        return cls(tcfg, featurizer, method, config.text.idf, config.max_distance,
                   {**stamp, "clustering": clustering, **({"gather": True} if gather else {}),
                    **({"merge": True} if merge else {}), **({"widen": WIDE} if widen else {}),
                    **({"alone": alone} if alone is not None else {}), **({"near": near_bar} if near_bar is not None else {})},
                   clustering, gather, merge, widen, alone, near_bar)

    def version(self, terms: TermModel | None = None) -> dict:
        """The stamp stored with the fingerprints, with what was learned from the whole table: the
        IDF documents, the record method's field statistics, the rows the common content features
        were counted in."""
        learned = {**({"documents": terms.documents} if terms is not None else {}), **self.method.learned_stamp()}
        return {**self.stamp, LEARNED: learned} if learned else dict(self.stamp)

    # what the method holds, for the stages that read it
    words = property(lambda self: self.method.words, doc="64-bit SimHash words per row; word 0 is the fingerprint")
    layout = property(lambda self: self.method.layout, doc="the SimHash block layout (keys of the simhash methods)")
    verifier = property(lambda self: self.method.verifier, doc="what verifies pairs (None: every candidate)")
    scheme = property(lambda self: getattr(self.method, "scheme", None), doc="a keyed method's keys (None: SimHash)")
    learned = property(lambda self: self.method.learned, doc="what the method learned from the whole table")
    content_model = property(lambda self: getattr(self.method, "content_model", None))
    identity_model = property(lambda self: getattr(self.method, "identity_model", None))
    learns = property(lambda self: self.method.learns, doc="whether its keys depend on what a full run learns")
    anchored = property(lambda self: self.method.anchored, doc="whether a key's rows meet only its anchors")
    width = property(lambda self: self.method.width, doc="words of a sketch: the SimHash words and the signature's")
    reach = property(lambda self: self.method.reach, doc="the largest fingerprint distance of a candidate pair")

    def learn_content(self, feats: HashedFeatures) -> Recipe:
        """This recipe with the content features and identity values a full run's rows share (text tables)."""
        return replace(self, method=self.method.learn_content(feats))

    def with_content(self, content: ContentModel | None, identity: ContentModel | None) -> Recipe:
        """This recipe with common content features and identity values learned elsewhere (Spark)."""
        return replace(self, method=self.method.with_content(content, identity))

    def stored_content(self, documents: int | None, counts: Callable[[np.ndarray], dict[int, int]],
                       feats: HashedFeatures) -> Recipe:
        """This recipe with the common content features and identity values the last full run of
        ``documents`` rows stored, for those in ``feats`` (``counts``: the store's term counts of some keys)."""
        return replace(self, method=self.method.stored_content(documents, counts, feats))

    def learn(self, sketches: np.ndarray) -> Recipe:
        """This recipe with what its method learns from a full run's rows (itself if nothing)."""
        return replace(self, method=self.method.learn(self.signatures(sketches))) if self.learns else self

    def using(self, learned: dict | None) -> Recipe:
        """This recipe with the field statistics a full run learned (from a stored version stamp)."""
        return replace(self, method=self.method.using(learned)) if learned is not None else self

    def sketch(self, feats: HashedFeatures, terms: TermModel | None = None) -> np.ndarray:
        """Each row's sketch, (rows, width) uint64 with the fingerprint as word 0 (features weighed
        by IDF when ``terms``): the method's."""
        return self.method.sketch(feats, terms.weigh(feats) if terms is not None else feats.weights)

    def signatures(self, sketches: np.ndarray) -> np.ndarray:
        """The signature words of sketches (after the SimHash words)."""
        return self.method.signatures(self.matrix(sketches))

    def matrix(self, sketches) -> np.ndarray:
        """Sketches as a (rows, width) uint64 array (a plain fingerprint array too; empty ones included)."""
        if isinstance(sketches, GatheredRows):  # rows gathered when read (a full run's, dedup.store.gathered)
            return cast(np.ndarray, sketches)
        sk = np.asarray(sketches, dtype=np.uint64)
        if sk.size == 0:
            return np.empty((0, self.width), np.uint64)
        return sk.reshape(len(sk), -1)

    def near(self, sketches: np.ndarray, taken: dict[str, int] | None = None,
             verifying: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Candidate index pairs (i < j) among these sketches (rows in key order), with their
        fingerprints' distance; ``taken``: the anchors each block already has in the store;
        ``verifying``: only those the verification could keep (Method.near)."""
        return self.method.near(self.matrix(sketches), taken, verifying)

    def verify(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which candidate pairs (aligned sketches) are duplicates."""
        return self.method.verify(a, b)

    def candidates(self, keys: list[str], sketches: np.ndarray, layout: BlockLayout | None = None,
                   lowest: float | None = None) -> list[Pair]:
        """Unverified pairs: rows sharing a block (of ``layout``, a SimHash block layout to try, or
        the recipe's own keys; ``lowest``: those a threshold from it up could keep, Method.swept_near)."""
        if layout is not None:
            return row_pairs(keys, sketches, lambda sk: near_pairs(np.ascontiguousarray(sk[:, 0]), layout))
        if lowest is not None:
            return row_pairs(keys, sketches, lambda sk: self.method.swept_near(self.matrix(sk), lowest))
        return row_pairs(keys, sketches, self.near)

    def pairs(self, keys: list[str], sketches: np.ndarray, taken: dict[str, int] | None = None,
              clock: StageClock | None = None, distinct=None) -> list[Pair]:
        """The duplicate pairs among these rows: candidates, verified (``taken``: as for ``near``;
        ``clock``: charges the search to stage ``candidates`` and the verification to ``verify``;
        ``distinct``: the rows' ``distinct_rows`` if known)."""
        check = self.method.verify_pairs if self.method.verifies else None

        def near(sk):
            return self.near(sk, taken, verifying=check is not None)

        if clock is not None:
            near, check = clock.wrap("candidates", near), check and clock.wrap("verify", check)
        return row_pairs(keys, sketches, near, distinct=distinct, verify_pairs=check)

    def groups(self, keys: list[str], sketches: np.ndarray | GatheredRows, decisions=(), clock: StageClock | None = None,
               distinct=None) -> list[Group]:
        """The rows' duplicate groups, numbered 1.. from their lowest key; ``decisions``
        (dedup.index.decisions) cut the pairs decided different and join those decided same."""
        sk = self.matrix(sketches)
        pairs = self.pairs(keys, sk, clock=clock, distinct=distinct)
        at = {k: i for i, k in enumerate(keys)}
        def rows(ks):
            return sk[np.fromiter((at[k] for k in ks), np.int64, len(ks))]
        return self.grouped(keys, fingerprints_of(sk, len(keys)), pairs, decisions, self.centre_check(rows),
                            self.alone_check(rows), self.near_check(rows), self.odd_check(rows))

    def grouped(self, keys: list[str], fps: np.ndarray, pairs: list, decisions=(), check: Check | None = None,
                alone: Check | None = None, near: Check | None = None, odd: Odd | None = None) -> list[Group]:
        """Groups of verified ``pairs`` after the ``decisions``, numbered 1.. from their lowest key
        (the local run's and Spark's alike); ``check``: this recipe's ``centre_check`` (None:
        connected components); ``alone``: its ``alone_check``; ``near``: its ``near_check``."""
        groups = cluster(pairs, dict(zip(keys, (int(v) for v in fps))), check, decisions, gather=self.gather,
                         merge=self.merge, widen=self.widen, alone=alone, near=near, odd=odd)
        for n, g in enumerate(groups, 1):
            g.id = n
        return groups

    def centre_check(self, rows) -> Check | None:
        """What star clustering (dedup.index.clusters) verifies a (centre, row) pair with: this
        recipe's verifier on the rows' sketches (``rows``: keys -> (len, width) sketches); None when
        the recipe groups connected components. A row identical to one checked against the same
        centre is answered from the first (50,000 copies of a petition: one verification)."""
        if self.clustering != "star":
            return None
        seen: dict[tuple[str, bytes], bool] = {}

        def check(pairs: list[tuple[str, str]]) -> list[bool]:
            b = rows([u for _, u in pairs])
            ids = [(c, b[n].tobytes()) for n, (c, _) in enumerate(pairs)]
            todo = [n for n, i in enumerate(ids) if i not in seen]
            if todo:
                a = rows([pairs[n][0] for n in todo])
                for n, ok in zip(todo, self.verify(a, b[todo]).tolist()):
                    seen[ids[n]] = bool(ok)
            return [seen[i] for i in ids]
        return check

    def alone_check(self, rows) -> Check | None:
        """Whether (head row, row) pairs score ``alone`` or more: a row that matches fewer than half of
        a group's head still joins it through such a pair (dedup.index.clusters; bench/results/persons-s38.md);
        None when the recipe has no such rule."""
        if self.clustering != "star" or self.alone is None:
            return None
        bar = self.alone

        def strong(pairs: list[tuple[str, str]]) -> list[bool]:
            s = self.method.scores(rows([c for c, _ in pairs]), rows([u for _, u in pairs]))
            return (np.nan_to_num(s, nan=-1.0) >= bar).tolist()
        return strong

    def odd_check(self, rows) -> Odd | None:
        """Whether a row is unlike all of some rows where they agree (dedup.index.cluster_odd, record
        tables with ``RecordScheme.odd`` on; bench/results/persons5-s46.md); None when the recipe has no such rule."""
        out = getattr(self.method, "odd_out", None)
        if self.clustering != "star" or out is None or self.method.scheme.odd < 0:  # type: ignore[attr-defined]
            return None

        def odd(x: str, others: list[str], way: int) -> bool:
            return out(rows([x]), rows(others), way)
        return odd

    def near_check(self, rows) -> Check | None:
        """Whether (member, row) pairs verify with the bar lowered by ``near_bar``: a row matching one of
        a group's first WIDE rows at the bar joins it when with these it matches most of them
        (dedup.index.clusters ``_wide``; bench/results/textjoin-s40.md); None when the recipe has no such rule."""
        if self.clustering != "star" or self.near_bar is None:
            return None
        lowered = self.method.lowered(self.near_bar)

        def nearly(pairs: list[tuple[str, str]]) -> list[bool]:
            return lowered(rows([c for c, _ in pairs]), rows([u for _, u in pairs])).tolist()
        return nearly

    def block_names(self, sketches: np.ndarray) -> list[list[str]]:
        """Each row's block names (from its sketch; the simhash methods need only the fingerprints)."""
        return self.method.block_names(self.matrix(sketches))

    def block_entries(self, keys: list[str], sketches, taken: dict[str, int] | None = None,
                      copies: set[str] = frozenset(), every_name: bool = False, distinct=None) -> BlockEntries:
        """The block entries of these rows, for the store to add (anchored keys: a key's anchors under
        its block name, after the ``taken`` ones a block already has, the other rows and the
        ``copies`` of stored rows under the ANCHORLESS name; dedup.methods.keyed), or with
        ``every_name`` to remove wherever they were filed (``distinct``: the rows' ``distinct_rows`` if known)."""
        if every_name and self.anchored and len(keys):
            return BlockEntries(*self.method.every_entry(keys, self.matrix(sketches)))
        return self.packed_entries(keys, sketches, taken, copies, distinct).whole()

    def packed_entries(self, keys: list[str], sketches, taken: dict[str, int] | None = None,
                       copies: set[str] = frozenset(), distinct=None) -> PackedEntries:
        """block_entries packed (dedup.store.entries): what a full run's snapshot holds; names of
        methods without anchors are made NAMES_ROWS rows at a time."""
        sk = self.matrix(sketches)
        fps = sk[:, 0] if len(keys) else np.empty(0, np.uint64)
        if self.anchored and len(keys):
            pool, name_at, row_at = self.method.anchored_entries(keys, sk, taken, copies, distinct)
            return PackedEntries(pool, name_at, row_at, keys, fps)
        names: list[np.ndarray] = []
        counts: list[int] = []
        for lo in range(0, len(keys), NAMES_ROWS):
            part = self.block_names(sk[lo:lo + NAMES_ROWS])
            counts.extend(len(n) for n in part)
            names.append(np.array([n.encode("utf-8") for row in part for n in row], dtype="S"))
        flat = np.concatenate(names) if names else np.empty(0, "S1")
        at = np.arange(len(flat))
        return PackedEntries(flat, at, np.repeat(np.arange(len(keys)), counts), keys, fps)


def fingerprints_of(sketches: np.ndarray | GatheredRows, rows: int) -> np.ndarray:
    """Word 0 of each sketch: the rows' 64-bit fingerprints."""
    if not rows:
        return np.empty(0, np.uint64)
    if isinstance(sketches, GatheredRows):
        return sketches[:, 0]
    return np.ascontiguousarray(np.asarray(sketches, dtype=np.uint64).reshape(rows, -1)[:, 0])


def extra_words(sketches: np.ndarray | GatheredRows, copy: bool = True) -> np.ndarray | None:
    """Sketch words after the fingerprint, for the store (None: fingerprint only); ``copy``
    False: a view of ``sketches`` (a full run's snapshot: the store writes them BLOB_ROWS rows at
    a time, and a copy of them all was 0.3 KB a row more, issue 26)."""
    if sketches.shape[1] <= 1:
        return None
    if isinstance(sketches, GatheredRows) and not copy:
        return cast(np.ndarray, sketches.columns(slice(1, None)))
    return np.ascontiguousarray(sketches[:, 1:]) if copy else sketches[:, 1:]


def _version(dist: str) -> str:
    try:
        return dist_version(dist)
    except PackageNotFoundError:
        return "unknown"
