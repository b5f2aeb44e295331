"""Text MinHash, the default for text tables: a weighted MinHash of the contents' character
3-grams (what many rows share weighs less: dedup.text.rarity), LSH bands plus identity-pair keys
in anchored buckets (dedup.index.bands), pairs verified on estimated Jaccard with lower bars when
an identity field is equal or the contents are short (dedup.index.bands.TextVerifier).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..config.model import Config, FieldSpec, TableConfig
from ..index.band_columns import value_words
from ..index.bands import BandScheme, TextVerifier
from ..index.blocks import BlockLayout
from ..index.fingerprint import HashedFeatures
from ..index.minhash import distances
from ..index.triples import MayVerify
from ..index.unkeyed import SweepKeep
from ..text.rarity import IDENTITY_SALT, ContentModel
from ..text.numbers import KEEP as NUMBERS_KEPT
from ..text.signature import DISTINCT_PERMS, TextSignature
from .base import Rule
from .keyed import KeyedMethod

BAND_VALUES = 2  # MinHash values a band (BandScheme.r; 4 before s47: bench/results/topic5-s47.md)
WIDE_KEYS = 4  # TextVerifier.wide_keys: a pair sharing no band of this many values nor an identity key (0: off; s47)


@dataclass(frozen=True)
class TextMinHash(KeyedMethod):
    fields: tuple[FieldSpec, ...]
    layout: BlockLayout  # only for `dedup eval` sweeps
    signature: TextSignature
    scheme: BandScheme
    verifier: TextVerifier
    common: tuple[float, int, float]  # match.common_share, common_rows, common_floor
    content_model: ContentModel | None = None  # the content features the table shares
    identity_model: ContentModel | None = None  # the identity values many rows carry
    rare_rows: int = 0  # rule content_rare_identity: a value in more rows is generic (0: off)

    measure = "estimated Jaccard similarity of the contents"
    knob = "match.threshold"
    gathers = True  # a collective copy whose partners all came later (bench/results/recall-s35.md)
    merges = True  # one petition's copies in two groups, each started by its own copy (bench/results/recall-s37.md)
    widens = True  # a copy matching 1 of a group's 3 head rows but most of its others (bench/results/petrecall-s38.md)
    near_bar = 0.05  # a copy matching 1 of a group's first 9 rows at the bar and most just under it (textjoin-s40.md)

    @classmethod
    def of(cls, config: Config, tcfg: TableConfig) -> TextMinHash:
        m = config.match
        content = tuple(f.name for f in tcfg.fields if f.role == "content")
        identity = tuple(f.name for f in tcfg.fields if f.role == "identity")
        # the distinctive sketch only when rule distinct is on: off, the signature is the recipe's before it
        distinct = DISTINCT_PERMS if m.distinct_floor < m.threshold else 0
        numbers = NUMBERS_KEPT if m.numbers_floor < m.threshold else 0  # rule numbers: their words only when on
        rare = m.identity_rare_threshold < m.identity_threshold  # rule content_rare_identity (s39)
        confirm = m.confirm_values if m.confirm_margin > 0 else 0  # off: no confirming values stored (dedup.index.confirm)
        signature = TextSignature(content, identity, digits=m.digits, distinct_perms=distinct, numbers=numbers, confirm=confirm)
        scheme = BandScheme(len(identity), signature.perms, r=BAND_VALUES, short_chars=m.short_chars, anchors=m.anchors)
        verifier = TextVerifier(len(identity), m.threshold, m.identity_threshold, m.short_threshold,
                                m.short_identity_threshold, m.short_chars, m.distinct_threshold, m.distinct_floor,
                                m.distinct_shared, m.distinct_share, signature.perms, numbers_floor=m.numbers_floor,
                                numbers_least=m.numbers_least, numbers_share=m.numbers_share,
                                numbers_against=m.numbers_against, numbers_sure=m.numbers_sure,
                                numbers_brief_chars=m.numbers_brief_chars, numbers_brief_against=m.numbers_brief_against,
                                places_against_chars=m.places_against_chars,
                                numbers_at=signature.numbers_at if numbers else 0,
                                identity_rare_threshold=m.identity_rare_threshold if rare else 1.0, wide_keys=WIDE_KEYS,
                                confirm=confirm, confirm_margin=m.confirm_margin if confirm else 0.0,
                                confirm_at=signature.confirm_at if confirm else 0)
        return cls(tcfg.fields, BlockLayout.for_distance(config.max_distance, config.blocks), signature, scheme,
                   verifier, (m.common_share, m.common_rows, m.common_floor), rare_rows=m.identity_rare_rows if rare else 0)

    def lowered(self, under: float) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        """The verifier with its content bar (``match.threshold``) lowered by ``under``, its other rules as they are."""
        lowered = replace(self.verifier, threshold=self.verifier.threshold - under)
        return lambda a, b: lowered(self.signatures(a), self.signatures(b))

    @property
    def learns_content(self) -> bool:  # type: ignore[override]
        # common_share 1.0: no feature can be carried by more than every row, so nothing is learned
        return self.common[0] < 1.0

    def stamp(self) -> dict:
        v, s = self.verifier, self.scheme
        rare = {"identity_rare_threshold": v.identity_rare_threshold} if self.rare_rows else {}  # off: the stamp before s39's rule
        rare |= {"wide_keys": v.wide_keys} if v.wide_keys else {}  # off: the stamp before s47's guard
        return {"match": "minhash", "signature": self.signature.version(),
                "keys": {"bands": s.bands, "r": s.r, "short_chars": s.short_chars, "anchors": s.anchors,
                         "identity_keys": [list(c) for c in s.pairs_of_identity],
                         "identity_keys_for": "all" if s.long_identity else "short"},
                "verify": {**{k: getattr(v, k) for k in ("threshold", "identity_threshold", "short_threshold",
                                                         "short_identity_threshold", *self._distinct_keys(),
                                                         *self._numbers_keys())}, **rare,
                           **({"confirm": v.confirm, "confirm_margin": v.confirm_margin} if v.confirm else {})},
                "common": {"share": self.common[0], "rows": self.common[1], "floor": self.common[2],
                           **({"identity_rare_rows": self.rare_rows} if self.rare_rows else {})}}

    def _distinct_keys(self) -> tuple[str, ...]:
        """Rule distinct's settings in the stamp, only when it is on (off: the stamp before it)."""
        return ("distinct_threshold", "distinct_floor", "distinct_shared", "distinct_share") \
            if self.signature.distinct_perms else ()

    def _numbers_keys(self) -> tuple[str, ...]:
        """Rule numbers' settings in the stamp, only when it is on (off: the stamp before it); its bar
        for brief contents only when that is on."""
        brief: tuple[str, ...] = ("numbers_brief_chars", "numbers_brief_against") if self.verifier.brief_on else ()
        brief += ("places_against_chars", "places_need_numbers") if self.verifier.places_against_chars else ()
        brief += tuple(k for k in ("places_numberless", "places_sure") if self.verifier.places_against_chars and getattr(self.verifier, k))
        brief += ("numbers_places",) if self.verifier.numbers_places else ()
        return ("numbers_floor", "numbers_least", "numbers_share", "numbers_against", "numbers_sure", *brief) \
            if self.signature.numbers else ()

    def may_verify(self, sig: np.ndarray) -> MayVerify:
        """Issue 26: a band's bucket pairs only rows whose triples of MinHash values, identity or
        numbers could pass the verifier (dedup.index.triples; exact, so the kept pairs are the same)."""
        return MayVerify(self.verifier, value_words(self.scheme, sig), sig, paired=True)

    def swept_near(self, sk: np.ndarray, lowest: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``near``'s candidates less those the s47 guard refuses at every threshold from ``lowest`` up
        (dedup.index.unkeyed.SweepKeep): what `dedup eval` sweeps, at about the cost bands of 4 had."""
        if not self.verifier.wide_keys:
            return self.near(sk)
        sig = self.signatures(sk)
        keep = SweepKeep(replace(self.verifier, threshold=min(lowest, self.verifier.threshold)), sig)
        i, j = self.scheme.near(sig, None, keep)
        return i, j, distances(np.ascontiguousarray(sk[:, 0]), i, j)

    def finished(self, feats: HashedFeatures) -> np.ndarray | None:
        if feats.content is None:
            return feats.signatures
        return self.signature.finish(feats.signatures, feats.content, feats.content_counts, self.content_model,
                                     self.identity_model, feats.numbers)

    def learn_content(self, feats: HashedFeatures) -> TextMinHash:
        """This method with the content features and identity values a full run's rows share."""
        if not self.learns_content or feats.content is None:
            return self
        rows = len(feats.content_counts)
        return replace(self, content_model=ContentModel.learn(feats.content, rows, *self.common),
                       identity_model=ContentModel.learn(feats.signatures[:, 1:].ravel(), rows, *self.common,
                                                         salt=IDENTITY_SALT, keep_rows=self.rare_rows))

    def with_content(self, content: ContentModel | None, identity: ContentModel | None) -> TextMinHash:
        return replace(self, content_model=content, identity_model=identity) if self.learns_content else self

    def stored_content(self, documents: int | None, counts: Callable[[np.ndarray], dict[int, int]],
                       feats: HashedFeatures) -> TextMinHash:
        """This method with the common content features and identity values the last full run of
        ``documents`` rows stored, for those in ``feats`` (``counts``: the store's term counts of some keys)."""
        if not self.learns_content or feats.content is None or documents is None:
            return self
        content = counts(ContentModel.stored_keys(feats.content))
        identity = counts(ContentModel.stored_keys(feats.signatures[:, 1:], IDENTITY_SALT))
        return replace(self, content_model=ContentModel.stored(documents, *self.common, content),
                       identity_model=ContentModel.stored(documents, *self.common, identity, IDENTITY_SALT,
                                                          self.rare_rows))

    def learned_stamp(self) -> dict:
        return self.content_model.stamp() if self.content_model is not None else {}

    def field_names(self) -> list[str]:
        content = [f.name for f in self.fields if f.role == "content"]
        return ["+".join(content) or "content", *(f.name for f in self.fields if f.role == "identity")]

    def deciding_rules(self, a: np.ndarray, b: np.ndarray) -> list[dict]:
        """The rule of TextVerifier.RULES that decides each pair, with its bar and config key."""
        v, out = self.verifier, []
        sa, sb = self.signatures(a), self.signatures(b)
        details, shared = v.distinct_scores(sa, sb)
        alike, least = v.numbers_alike(sa, sb)
        for n, rule in enumerate(v.rules(sa, sb)):
            words, knob = TextVerifier.RULES[rule]
            out.append({"rule": rule, "name": words, "threshold": float(getattr(v, knob)), "knob": f"match.{knob}"})
            if rule == "distinct":  # the second measure: what its threshold is compared with
                out[-1].update(details=round(float(details[n]), 4), shared=int(round(float(shared[n]))))
            if rule in ("numbers", "numbers_against", "numbers_brief_against"):  # the share of the numbers in common, how many the fewer are
                out[-1].update(numbers=round(float(alike[n]), 4), least=int(least[n]))
        return out

    def accepting_rules(self, a: np.ndarray, b: np.ndarray, scores: np.ndarray) -> list[Rule]:
        """The rule that decides each pair (TextVerifier.rules) where the verifier accepts it: on the
        contents alone (``content``), on a lower bar because an identity field is equal
        (``content_identity``, ``content_rare_identity``), by its distinctive details (``distinct``)
        or numbers (``numbers``), or for short contents on the short bars (``short``,
        ``short_identity``). One account of the rules' order, the verifier's; ``scores`` are its own."""
        if not len(a):
            return []
        v = self.verifier
        sa, sb = self.signatures(a), self.signatures(b)
        return [(rule, float(getattr(v, TextVerifier.RULES[rule][1]))) if ok else (None, None)
                for rule, ok in zip(v.rules(sa, sb), v(sa, sb).tolist())]
