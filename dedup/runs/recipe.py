"""A table's recipe: everything that turns its rows into fingerprints, block entries and pairs.

Derived once from the config (``Recipe.of``) and handed to every stage, so a full run, an
incremental run and `dedup eval` fingerprint, index and verify rows the same way. The version
stamp records what decides a fingerprint or a pair: rows fingerprinted under another stamp are
not comparable, and an incremental run refuses to mix them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Callable
from importlib.metadata import PackageNotFoundError, version as dist_version

import numpy as np

from ..config.model import Config, TableConfig
from ..index import fingerprint
from ..index.bands import BandScheme, TextVerifier
from ..index.records import RecordScheme
from ..index.blocks import BITS, BlockLayout
from ..index.candidates import near_pairs
from ..index.fingerprint import HashedFeatures
from ..index.clusters import Check, cluster
from ..index.groups import Group, Pair
from ..index.keys import picked
from ..index.names import as_str, suffixed
from ..index.anchors import ANCHORLESS
from ..index.pairs import distinct_rows, row_pairs
from ..index.verify import FieldVerifier, SketchVerifier
from ..store.model import BlockEntries
from ..text.features import Featurizer
from ..text.normalize import NORMALIZATION_VERSION
from ..text.segment import Segmenter
from ..text.records import RecordSignature
from ..text.signature import TextSignature
from ..text.rarity import IDENTITY_SALT, ContentModel
from ..text.terms import TermModel
from .clock import StageClock

LEARNED = "learned"  # the part of a version stamp a full run learns from the data (IDF documents, field statistics)


@dataclass(frozen=True)
class Recipe:
    table: TableConfig
    featurizer: Featurizer
    words: int  # 64-bit sketch words per row; word 0 is the fingerprint
    layout: BlockLayout
    verifier: object  # SketchVerifier, FieldVerifier, TextVerifier or a record verifier; None: no verification
    idf: bool
    max_distance: int
    stamp: dict  # the version stamp, without what a full run learns
    scheme: object = None  # minhash recipe: the keys over the signature words (BandScheme or RecordScheme)
    learned: dict | None = None  # what the scheme learned from the whole table (record tables)
    clustering: str = "star"  # how pairs become groups (dedup.index.clusters; config groups.clustering)
    rarity: tuple[float, int, float] | None = None  # text tables: match.common_share, common_rows, common_floor
    content_model: ContentModel | None = None  # the content features the table shares (dedup.text.rarity)
    identity_model: ContentModel | None = None  # the identity values many rows carry (dedup.text.rarity)

    @classmethod
    def of(cls, config: Config, table: TableConfig | str | None = None) -> "Recipe":
        recipe = cls._of(config, table)
        clustering = config.groups.clustering if recipe.verifier is not None else "components"
        return replace(recipe, clustering=clustering, stamp={**recipe.stamp, "clustering": clustering})

    @classmethod
    def _of(cls, config: Config, table: TableConfig | str | None = None) -> "Recipe":
        tcfg = table if isinstance(table, TableConfig) else config.table(table)
        if config.match.method == "minhash":
            return _minhash_recipe(config, tcfg)
        segmenter = Segmenter.of(config.text)
        featurizer = Featurizer(tcfg.fields, segmenter, by_field=tcfg.by_field, tf=config.text.tf)
        row_layout = BlockLayout.for_distance(config.max_distance, config.blocks)
        layout = BlockLayout.for_fields(len(tcfg.fields)) if tcfg.by_field else row_layout
        if tcfg.by_field:
            verifier = FieldVerifier(layout.block_masks, tuple(f.weight for f in tcfg.fields),
                                     config.min_field_similarity)
        elif config.min_similarity is None:
            verifier = None
        else:
            verifier = SketchVerifier(config.min_similarity, config.sketch_bits)
        stamp = {
            "max_distance": config.max_distance,
            "blocks": len(row_layout.widths),
            "sketch_bits": config.sketch_bits,
            "min_similarity": config.min_similarity,
            **({"min_field_similarity": config.min_field_similarity} if tcfg.by_field else {}),
            "idf": config.text.idf,
            "hash": f"{fingerprint.HASH_NAME} (cityhash {_version('cityhash')})",
            "normalization": NORMALIZATION_VERSION,
            "max_cell_chars": tcfg.max_cell_chars,  # a longer value is cut before it is featurised
            **featurizer.version(),
        }
        stamp = json.loads(json.dumps(stamp, sort_keys=True))  # the form a store gives back
        return cls(tcfg, featurizer, config.sketch_bits // 64, layout, verifier, config.text.idf,
                   config.max_distance, stamp)

    def version(self, terms: TermModel | None = None) -> dict:
        """The stamp stored with the fingerprints, with what was learned from the whole table: the
        IDF documents, the record scheme's field statistics, the rows the common content features
        were counted in."""
        learned = {**({"documents": terms.documents} if terms is not None else {}),
                   **({"fields": self.learned} if self.learned is not None else {}),
                   **(self.content_model.stamp() if self.content_model is not None else {})}
        return {**self.stamp, LEARNED: learned} if learned else dict(self.stamp)

    @property
    def learns(self) -> bool:
        """Whether the recipe's keys depend on what a full run learns from the whole table."""
        return self.scheme is not None and hasattr(self.scheme, "learn")

    def learn_content(self, feats: HashedFeatures) -> "Recipe":
        """This recipe with the content features and identity values a full run's rows share (text tables)."""
        if self.rarity is None or feats.content is None:
            return self
        rows = len(feats.content_counts)
        return replace(self, content_model=ContentModel.learn(feats.content, rows, *self.rarity),
                       identity_model=ContentModel.learn(feats.signatures[:, 1:].ravel(), rows, *self.rarity,
                                                         salt=IDENTITY_SALT))

    def stored_content(self, documents: int | None, counts: Callable[[np.ndarray], dict[int, int]],
                       feats: HashedFeatures) -> "Recipe":
        """This recipe with the common content features and identity values the last full run of
        ``documents`` rows stored, for those in ``feats`` (``counts``: the store's term counts of some keys)."""
        if self.rarity is None or feats.content is None or documents is None:
            return self
        content = counts(ContentModel.stored_keys(feats.content))
        identity = counts(ContentModel.stored_keys(feats.signatures[:, 1:], IDENTITY_SALT))
        return replace(self, content_model=ContentModel.stored(documents, *self.rarity, content),
                       identity_model=ContentModel.stored(documents, *self.rarity, identity, IDENTITY_SALT))

    def learn(self, sketches: np.ndarray) -> "Recipe":
        """This recipe with what its scheme learns from a full run's rows (itself if nothing)."""
        return self.using(self.scheme.learn(self.signatures(sketches))) if self.learns else self

    def using(self, learned: dict | None) -> "Recipe":
        """This recipe with the field statistics a full run learned (from a stored version stamp)."""
        if learned is None or self.scheme is None or not hasattr(self.scheme, "with_learned"):
            return self
        scheme = self.scheme.with_learned(learned)
        verifier = self.verifier.with_learned(learned) if hasattr(self.verifier, "with_learned") else self.verifier
        return replace(self, scheme=scheme, verifier=verifier, learned=learned)

    def sketch(self, feats: HashedFeatures, terms: TermModel | None = None) -> np.ndarray:
        """Each row's sketch, (rows, words) uint64 with the fingerprint as word 0: the SimHash words
        (features weighed by IDF when ``terms``; a fields fingerprint: each field into its own
        bits), then the row's signature words if the recipe keeps them."""
        weights = terms.weigh(feats) if terms is not None else feats.weights
        if self.table.by_field and self.scheme is None:
            return fingerprint.field_sketch(feats, weights, self.layout.block_masks, self.words)
        words = fingerprint.sketch(feats.hashes, weights, feats.counts, words=self.words)
        if self.scheme is None:
            return words
        sigs = feats.signatures
        if feats.content is not None:
            sigs = self.featurizer.signature.finish(sigs, feats.content, feats.content_counts, self.content_model,
                                                    self.identity_model)
        if sigs is None:
            sigs = np.zeros((len(feats.counts), self.featurizer.signature.words), np.uint64)
        return np.hstack([words, sigs])

    def signatures(self, sketches: np.ndarray) -> np.ndarray:
        """The signature words of sketches (after the SimHash words)."""
        return self.matrix(sketches)[:, self.words:]

    @property
    def width(self) -> int:
        """Words of a sketch: the SimHash words and the signature's."""
        sig = self.featurizer.signature
        return self.words + (sig.words if self.scheme is not None and sig is not None else 0)

    def matrix(self, sketches) -> np.ndarray:
        """Sketches as a (rows, width) uint64 array (a plain fingerprint array too; empty ones included)."""
        sk = np.asarray(sketches, dtype=np.uint64)
        if sk.size == 0:
            return np.empty((0, self.width), np.uint64)
        return sk.reshape(len(sk), -1)

    @property
    def anchored(self) -> bool:
        """Whether a key's rows are compared only with its anchors (dedup.index.anchors)."""
        return getattr(self.scheme, "anchors", None) is not None

    def near(self, sketches: np.ndarray, taken: dict[str, int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Candidate index pairs (i < j) among these sketches (rows in key order), with their
        fingerprints' distance; ``taken``: the anchors each block already has in the store."""
        sk = self.matrix(sketches)
        if self.scheme is None:
            return near_pairs(np.ascontiguousarray(sk[:, 0]), self.layout)
        i, j = self.scheme.near(self.signatures(sk), taken) if self.anchored else self.scheme.near(self.signatures(sk))
        return i, j, np.bitwise_count(sk[i, 0] ^ sk[j, 0]).astype(np.int64)

    def verify(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which candidate pairs (aligned sketches) are duplicates."""
        if self.verifier is None:
            return np.ones(len(a), dtype=bool)
        if self.scheme is None:
            return self.verifier(a, b)
        return self.verifier(self.signatures(a), self.signatures(b))

    @property
    def reach(self) -> int:
        """The largest fingerprint distance a candidate pair may have."""
        return BITS if self.scheme is not None else self.layout.reach

    def candidates(self, keys: list[str], sketches: np.ndarray, layout: BlockLayout | None = None) -> list[Pair]:
        """Unverified pairs: rows sharing a block (of ``layout``, a SimHash block layout to try, or
        the recipe's own keys)."""
        if layout is not None:
            return row_pairs(keys, sketches, lambda sk: near_pairs(np.ascontiguousarray(sk[:, 0]), layout))
        return row_pairs(keys, sketches, self.near)

    def pairs(self, keys: list[str], sketches: np.ndarray, taken: dict[str, int] | None = None,
              clock: StageClock | None = None, distinct=None) -> list[Pair]:
        """The duplicate pairs among these rows: candidates, verified (``taken``: as for ``near``;
        ``clock``: charges the search to stage ``candidates`` and the verification to ``verify``;
        ``distinct``: the rows' ``distinct_rows`` if known)."""
        near = lambda sk: self.near(sk, taken)  # noqa: E731
        verify = self.verify if self.verifier is not None else None
        if clock is not None:
            near, verify = clock.wrap("candidates", near), verify and clock.wrap("verify", verify)
        return row_pairs(keys, sketches, near, verify, distinct)

    def groups(self, keys: list[str], sketches: np.ndarray, decisions=(), clock: StageClock | None = None,
               distinct=None) -> list[Group]:
        """The rows' duplicate groups, numbered 1.. from their lowest key; ``decisions``
        (dedup.index.decisions) cut the pairs decided different and join those decided same."""
        sk = self.matrix(sketches)
        pairs = self.pairs(keys, sk, clock=clock, distinct=distinct)
        at = {k: i for i, k in enumerate(keys)}
        check = self.centre_check(lambda ks: sk[np.fromiter((at[k] for k in ks), np.int64, len(ks))])
        return self.grouped(keys, fingerprints_of(sk, len(keys)), pairs, decisions, check)

    def grouped(self, keys: list[str], fps: np.ndarray, pairs: list, decisions=(), check: Check | None = None
                ) -> list[Group]:
        """Groups of verified ``pairs`` after the ``decisions``, numbered 1.. from their lowest key
        (the local run's and Spark's alike); ``check``: this recipe's ``centre_check`` (None:
        connected components)."""
        groups = cluster(pairs, dict(zip(keys, (int(v) for v in fps))), check, decisions)
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

    def block_names(self, sketches: np.ndarray) -> list[list[str]]:
        """Each row's block names (from its sketch; the simhash recipe needs only the fingerprints)."""
        sk = self.matrix(sketches)
        if self.scheme is None:
            return self.layout.names_of(sk[:, 0])
        return self.scheme.names_of(self.signatures(sk))

    def block_entries(self, keys: list[str], sketches, taken: dict[str, int] | None = None,
                      copies: set[str] = frozenset(), every_name: bool = False, distinct=None) -> BlockEntries:
        """The block entries of these rows, for the store to add (a key's anchors under its block
        name, after the ``taken`` ones a block already has, the other rows and the ``copies`` of
        stored rows under the ANCHORLESS name), or with ``every_name`` to remove wherever they were filed
        (``distinct``: the rows' ``distinct_rows`` if known)."""
        sk = self.matrix(sketches)
        if not self.anchored or not len(keys):
            return BlockEntries.of_rows(keys, sk[:, 0], self.block_names(sk))
        if every_name:
            names = [[*row, *(n + ANCHORLESS for n in row)] for row in self.scheme.names_of(self.signatures(sk))]
            return BlockEntries.of_rows(keys, sk[:, 0], names)
        _, uniq, rep, of_row = distinct or distinct_rows(keys, sk)
        first = (rep[of_row] == np.arange(len(keys))) & np.array([k not in copies for k in keys])
        # a copy of an earlier row is never an anchor; the names are made once a distinct sketch
        # and shared by its rows (all anchorless for a copy), so 300,000 identical rows cost one
        # row's names; made flat by numpy (dedup.index.names), each row's entries are picked from them
        ukeys = self.scheme.keys(self.signatures(uniq))
        own, counts = self.scheme.flat_names(ukeys, self.scheme.anchored_keys(ukeys, taken))
        per_row = counts[of_row]
        row_of = np.repeat(np.arange(len(keys)), per_row)
        at = np.repeat((np.cumsum(counts) - counts)[of_row] - (np.cumsum(per_row) - per_row), per_row) \
            + np.arange(len(row_of))  # each entry's place in ``own``
        pool, copy = as_str(own), ~first[row_of]
        if copy.any():  # the copies' names, anchorless, once each, after the others
            need = np.unique(at[copy])
            at[copy] = len(pool) + np.searchsorted(need, at[copy])
            pool += as_str(suffixed(own[need], ANCHORLESS))
        return BlockEntries(picked(pool, at), picked(keys, row_of), sk[row_of, 0])


def _minhash_recipe(config: Config, tcfg: TableConfig) -> Recipe:
    """The default recipe: a 64-bit SimHash fingerprint for identity and reports, and a signature
    whose keys find candidates and whose fields verify them (dedup.index.bands / records)."""
    segmenter = Segmenter.of(config.text)
    m = config.match
    if tcfg.by_field:  # records: field by field (dedup.index.records)
        signature = RecordSignature(tcfg.fields)
        scheme = RecordScheme(len(tcfg.fields), signature.k, field_weights=tuple(f.weight for f in tcfg.fields), **(
            {"threshold": m.record_threshold} if m.record_threshold is not None else {}))
        verifier = scheme
        settings = {"keys": {k: v for k, v in asdict(scheme).items() if k != "learned"}}
    else:
        content = tuple(f.name for f in tcfg.fields if f.role == "content")
        identity = tuple(f.name for f in tcfg.fields if f.role == "identity")
        signature = TextSignature(content, identity, digits=m.digits)
        scheme = BandScheme(len(identity), signature.perms, short_chars=m.short_chars, anchors=m.anchors)
        verifier = TextVerifier(len(identity), m.threshold, m.identity_threshold, m.short_threshold,
                                m.short_identity_threshold, m.short_chars)
        settings = {
            "keys": {"bands": scheme.bands, "r": scheme.r, "short_chars": m.short_chars, "anchors": m.anchors,
                     "identity_keys": [list(c) for c in scheme.pairs_of_identity]},
            "verify": {k: getattr(verifier, k) for k in ("threshold", "identity_threshold", "short_threshold",
                                                         "short_identity_threshold")},
            "common": {"share": m.common_share, "rows": m.common_rows, "floor": m.common_floor}}
    featurizer = Featurizer(tcfg.fields, segmenter, tf=config.text.tf, signature=signature)
    stamp = {
        "match": "minhash",
        "signature": signature.version(),
        **settings,
        "idf": config.text.idf,
        "hash": f"{fingerprint.HASH_NAME} (cityhash {_version('cityhash')})",
        "normalization": NORMALIZATION_VERSION,
        "max_cell_chars": tcfg.max_cell_chars,
        **featurizer.version(),
    }
    stamp = json.loads(json.dumps(stamp, sort_keys=True))
    layout = BlockLayout.for_distance(config.max_distance, config.blocks)  # only for `dedup eval` sweeps
    # common_share 1.0: no feature can be carried by more than every row, so nothing is learned
    rarity = None if tcfg.by_field or m.common_share >= 1.0 else (m.common_share, m.common_rows, m.common_floor)
    return Recipe(tcfg, featurizer, 1, layout, verifier, config.text.idf, config.max_distance, stamp, scheme,
                  rarity=rarity)


def fingerprints_of(sketches: np.ndarray, rows: int) -> np.ndarray:
    """Word 0 of each sketch: the rows' 64-bit fingerprints."""
    if not rows:
        return np.empty(0, np.uint64)
    return np.ascontiguousarray(np.asarray(sketches, dtype=np.uint64).reshape(rows, -1)[:, 0])


def extra_words(sketches: np.ndarray) -> np.ndarray | None:
    """Sketch words after the fingerprint, for the store (None: fingerprint only)."""
    if sketches.shape[1] <= 1:
        return None
    return np.ascontiguousarray(sketches[:, 1:])


def _version(dist: str) -> str:
    try:
        return dist_version(dist)
    except PackageNotFoundError:
        return "unknown"
