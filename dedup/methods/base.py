"""The one protocol every matching method follows, so a recipe, the scorer, `dedup eval` and Spark
ask the method instead of switching on ``match.method`` and ``fingerprint: fields``.

A method turns a row's hashed features into a sketch (word 0: the 64-bit fingerprint), names the
keys (blocks) a row is filed under, finds candidate pairs, verifies them and says which rule
fired, learns what it needs from a full run's rows, and stamps the settings that decide its
pairs. The defaults here are those of a method that learns nothing and whose sketches are all
SimHash words.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np

from ..config.model import FieldSpec
from ..index.blocks import BlockLayout
from ..index.fingerprint import HashedFeatures
from ..index.pairs import verified
from ..text.features import Featurizer
from ..text.rarity import ContentModel
from ..text.segment import Segmenter

Rule = tuple[str | None, float | None]  # the rule that accepted a pair and its bar; (None, None): none did


class Method(ABC):
    """A matching method (dedup.methods): the concrete types are frozen dataclasses."""

    fields: tuple[FieldSpec, ...]
    words: int  # 64-bit SimHash words of a sketch; word 0 is the fingerprint
    layout: BlockLayout  # the SimHash block layout (the keys of the simhash methods; eval sweeps)
    verifier: Any  # what verifies candidate pairs (None: every candidate is a pair)
    anchors: int | None = None  # a key's rows are compared with its first this many (None: all)
    # what it says of its verdicts (the scorer, `dedup explain`, `dedup eval`)
    measure: str = ""  # what ``scores`` measures, in words
    knob: str = ""  # the config key of ``threshold``
    rule: str = ""  # the rule that decides a pair (``deciding_rules``), for a method of one rule
    accepted: str = ""  # that rule's name when it accepts a pair (``accepting_rules``; dedup.runs.rules)
    scored: bool = True  # `dedup eval` sweeps ``threshold`` on ``scores`` (else its own distance sweep)
    sweep_label: str = ""
    sweep_measure: str = ""
    # what it learns
    learns: bool = False  # whether its keys depend on what a full run learns (``learn``)
    learns_content: bool = False  # whether it learns what the table's rows share (``learn_content``)
    # how its pairs become groups
    gathers: bool = False  # star clustering: a row joining a group brings its earlier partners left alone
    merges: bool = False  # star clustering: a row joining a group joins to it its partners' groups that match
    widens: bool = False  # star clustering: a row no head holds joins a group most of whose first rows it matches
    alone: float | None = None  # star clustering: a score at which a row left alone joins a head row's group
    near_bar: float | None = None  # star clustering: how far under the bar widening's rows may verify (``lowered``)
    learned: dict | None = None

    # featurise and sketch
    @abstractmethod
    def featurizer(self, segmenter: Segmenter, tf: str) -> Featurizer:
        """The featuriser of a table's rows for this method."""

    @abstractmethod
    def stamp(self) -> dict:
        """The settings that decide a sketch or a pair (the recipe adds hash, normalisation, fields)."""

    @abstractmethod
    def sketch(self, feats: HashedFeatures, weights: np.ndarray) -> np.ndarray:
        """Each row's sketch, (rows, width) uint64, from its features weighed by ``weights``."""

    @property
    def width(self) -> int:
        """Words of a sketch."""
        return self.words

    def signatures(self, sketches: np.ndarray) -> np.ndarray:
        """The words after the SimHash words (a keyed method's signature)."""
        return sketches[:, self.words:]

    # keys
    @abstractmethod
    def near(self, sk: np.ndarray, taken: dict[str, int] | None = None,
             verifying: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Candidate index pairs (i < j) among (rows, width) sketches in key order, with their
        fingerprints' distance (``taken``: the anchors each block already has in the store;
        ``verifying``: the pairs go to ``verify`` next, so a method may leave out those it would
        reject for certain)."""

    @abstractmethod
    def block_names(self, sk: np.ndarray) -> list[list[str]]:
        """Each row's block names."""

    @property
    @abstractmethod
    def reach(self) -> int:
        """The largest fingerprint distance a candidate pair may have."""

    @property
    def anchored(self) -> bool:
        return self.anchors is not None

    def swept_near(self, sk: np.ndarray, lowest: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The candidates `dedup eval` sweeps from threshold ``lowest`` up: ``near``'s (a method whose
        verifier refuses some at every such threshold may leave those out)."""
        return self.near(sk)

    def bucket_pairs(self, sk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The candidate pairs among one block's members (Spark): those ``near`` makes."""
        return self.near(sk)

    # verify and explain
    @property
    def verifies(self) -> bool:
        return self.verifier is not None

    def verify(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which candidate pairs (aligned sketches) are duplicates."""
        return np.ones(len(a), dtype=bool) if self.verifier is None else self.verifier(a, b)

    def lowered(self, under: float) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        """``verify`` with its bar lowered by ``under``, every other rule as it is (a method with a
        ``near_bar`` says how)."""
        raise NotImplementedError(f"{type(self).__name__} has no lowered bar")

    def verify_pairs(self, sk: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """``verify`` of the index pairs (sk[i], sk[j]), a chunk at a time (dedup.index.pairs.verified)."""
        return verified(self.verify, sk, i, j)

    @property
    def threshold(self) -> float | None:
        return None if self.verifier is None else float(self.verifier.threshold)

    @abstractmethod
    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """What the method compares with its threshold, for aligned sketches (NaN: nothing to compare)."""

    def field_names(self) -> list[str]:
        return []

    def field_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        """(pairs, fields): each field's score, None for a method that does not score fields."""
        return None

    def field_weights(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        """(pairs, fields): each field's weight in each pair's score, None for a method that does not weigh fields."""
        return None

    def deciding_rules(self, a: np.ndarray, b: np.ndarray) -> list[dict]:
        """The rule that decides each pair, accepted or not, with its bar and the config key that sets it."""
        words = self.rule.replace("_", " ")
        return [{"rule": self.rule, "name": words, "threshold": self.threshold, "knob": self.knob} for _ in range(len(a))]

    def accepting_rules(self, a: np.ndarray, b: np.ndarray, scores: np.ndarray) -> list[Rule]:
        """(rule, its threshold) that accepted each pair whose scores are ``scores``; (None, None)
        where none does (a pair a reviewer joined, or scored under other settings)."""
        if self.verifier is None or not len(a):
            return [(None, None)] * len(a)
        t = self.threshold
        s = np.nan_to_num(np.asarray(scores, dtype=float), nan=-1.0)
        return [(self.accepted, t) if x >= t else (None, None) for x in s]

    def sweep(self, a: np.ndarray, b: np.ndarray) -> Callable[[float], np.ndarray]:
        """For aligned candidate sketches: threshold -> which pairs the method keeps at it."""
        raise NotImplementedError(f"{type(self).__name__} sweeps its own knobs")

    # learn and stamp
    def learn(self, signatures: np.ndarray) -> Method:
        """This method with what it learns from a full run's signatures (itself if nothing)."""
        return self

    def using(self, learned: dict | None) -> Method:
        """This method with what a full run learned (from a stored version stamp)."""
        return self

    def learn_content(self, feats: HashedFeatures) -> Method:
        """This method with what a full run's rows share (text MinHash)."""
        return self

    def stored_content(self, documents: int | None, counts: Callable[[np.ndarray], dict[int, int]],
                       feats: HashedFeatures) -> Method:
        """This method with what the last full run found shared, for the rows of ``feats`` (text MinHash)."""
        return self

    def with_content(self, content: ContentModel | None, identity: ContentModel | None) -> Method:
        """This method with common content features and identity values learned elsewhere (text
        MinHash; a Spark run adds up their counts over key ranges)."""
        return self

    def learned_stamp(self) -> dict:
        """The part of the version stamp learned from the data."""
        return {}
