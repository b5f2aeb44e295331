"""Records: tables of persons or other records compared field by field (dedup.index.records). The
keys (exact fields, field pairs, bands over the key fields, with a floor so that every row keeps
some) and the field weights are learned from a full run's rows; pairs are verified on the
weighted field score (``match.record_threshold``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import ClassVar

import numpy as np

from ..config.model import Config, FieldSpec, TableConfig
from ..index.blocks import BlockLayout
from ..index.record_odd import asked
from ..index.records import RecordScheme
from ..text.records import RecordSignature
from .keyed import KeyedMethod


@dataclass(frozen=True)
class Records(KeyedMethod):
    fields: tuple[FieldSpec, ...]
    layout: BlockLayout  # only for `dedup eval` sweeps
    signature: RecordSignature
    scheme: RecordScheme  # its keys, and its verdicts
    learned: dict | None = None  # the field statistics learned from the whole table

    measure = "weighted field score"
    knob = "match.record_threshold"
    rule = "record_score"
    accepted = "record"
    learns = True
    gathers = True  # a corrupted copy matched only by later copies (dedup.index.clusters)
    merges = True  # two groups of one person, each started by its own copy (bench/results/recmerge-s37.md)
    alone = 0.8  # a sparse or corrupted copy matching one head row this well joins (bench/results/persons-s38.md)
    # the evidence against, initials and near names excused (RecordScheme.against*, initial*; signature v2):
    # chosen on the 16 tuning record sets by sweep_against (bench/results/persons2-s43.md)
    against: ClassVar[dict] = {"against": 1.25, "against_below": 0.3, "against_top": 4, "against_needs": 1,
                               "against_agree": 1, "initial": 1, "initial_score": 0.5, "against_near": 1}

    # s46: the group check (RecordScheme.odd*, dedup.index.cluster_odd), chosen on the 16
    # tuning record sets by sweep_against (bench/results/persons5-s46.md)
    # s47: and the stripped copy's lone link (RecordScheme.strip*, record_odd.stripped_pair), chosen by
    # the same sweep and rule (bench/results/persons7-s47.md)
    group_check: ClassVar[dict] = {"odd": 0.7, "odd_unlike": 2, "strip": 1, "strip_at": 0.7, "strip_unlike": 0.3,
                                   "strip_key": True}

    @classmethod
    def of(cls, config: Config, tcfg: TableConfig) -> Records:
        signature = RecordSignature(tcfg.fields)
        threshold = config.match.record_threshold
        scheme = RecordScheme(len(tcfg.fields), signature.k, field_weights=tuple(f.weight for f in tcfg.fields),
                              threshold=RecordScheme.threshold if threshold is None else threshold,
                              **{**cls.against, **cls.group_check})
        return cls(tcfg.fields, BlockLayout.for_distance(config.max_distance, config.blocks), signature, scheme)

    @property
    def verifier(self) -> RecordScheme:  # type: ignore[override]
        return self.scheme

    def stamp(self) -> dict:
        keys = {k: v for k, v in asdict(self.scheme).items() if k != "learned"}
        if keys["say"] == "distinct":  # s37: the say as before it was a setting, the stamp as before
            del keys["say"]
        if not keys["floor_share"]:  # s45: off, the stamp as before the setting
            del keys["floor_share"]
        if keys["odd"] < 0 or keys["strip"] <= 0:  # s47: off, the stamp as before the setting
            keys = {k: v for k, v in keys.items() if not k.startswith("strip")}
        else:
            keys = {k: v for k, v in keys.items() if k not in ("strip_held", "strip_unlike", "strip_key") or v not in (False, -1.0)}
        if keys["odd"] < 0:  # s46: off, the stamp as before the setting
            del keys["odd"], keys["odd_ways"], keys["odd_unlike"]
        for off_below_0 in ("guard", "floor_spread"):  # s46: off, the stamp as before the setting
            if keys[off_below_0] < 0:
                del keys[off_below_0]
        if not keys["floor_room"]:
            del keys["floor_room"]
        off = keys["against"] == 1.0 or not keys["against_below"]
        if off:  # s42: off, the stamp as before the setting
            keys = {k: v for k, v in keys.items() if not k.startswith("against")}
        if not keys["initial"] or (off and not keys["initial_score"]):  # s43: no initial rule, the stamp as before
            keys = {k: v for k, v in keys.items() if not k.startswith("initial")}
        return {"match": "minhash", "signature": self.signature.version(), "keys": keys}

    def learn(self, signatures: np.ndarray) -> Records:
        return self.using(self.scheme.learn(signatures))

    def using(self, learned: dict | None) -> Records:
        if learned is None:
            return self
        return replace(self, scheme=self.scheme.with_learned(learned), learned=learned)

    def learned_stamp(self) -> dict:
        return {"fields": self.learned} if self.learned is not None else {}

    def odd_out(self, x: np.ndarray, others: np.ndarray, way: int) -> bool:
        """Whether row ``x`` (a sketch) is unlike all ``others`` on a distinctive field where they
        agree, asked the clustering's ``way`` (dedup.index.cluster_odd; RecordScheme.odd < 0: never);
        asked STRIPPED, whether the lone link ``x``-``others[0]`` misses too much to be a way in (s47)."""
        return asked(self.scheme, self.signatures(x), self.signatures(others), way)

    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]

    def field_weights(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self.scheme.pair_weights(self.signatures(a), self.signatures(b))

    def describe(self) -> str:
        s = self.scheme
        hot = f", {len(s.hot())} hot values off" if s.hot() else ""
        return (f"records: exact keys on fields {s.key_fields()}, pair keys {s.pair_keys()}, "
                f"{len(s.band_keys())} of {s.bands} bands{hot}")
