"""How alike two stored rows are, by the recipe that grouped them: the number it compares with its
threshold, each field's share, and the blocks (candidate keys) the rows share.

Works from the store alone (fingerprints and sketch words), so the report, `dedup explain`,
`dedup review` and calibration all say the same thing the run decided on:

- the minhash recipe, text tables: the estimated Jaccard similarity of the contents, and which
  identity columns are equal;
- the minhash recipe, record tables: the weighted field score, and each field's score;
- the simhash recipe: the cosine similarity estimated from the Hamming distance of the sketches
  (cos(pi * d / bits)); a fields fingerprint: the weighted field similarity and each field's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..config.model import Config, TableConfig
from ..errors import ConfigError
from ..index.keys import key_sort
from ..store import Store
from .stored import stored_recipe, stored_sketches
from .recipe import Recipe
from .rules import pair_rules


@dataclass
class Scorer:
    recipe: Recipe
    store: Store

    @classmethod
    def of(cls, config: Config, table: TableConfig | str | None, store: Store) -> Scorer | None:
        """The scorer of the stored rows, None when there are none or they were made with other settings."""
        recipe = Recipe.of(config, table)
        state = store.state(recipe.table.name)
        if state is None:
            return None
        try:
            recipe, _ = stored_recipe(recipe, state)
        except ConfigError:
            return None
        return cls(recipe, store)

    @property
    def table(self) -> str:
        return self.recipe.table.name

    # what the recipe's method (dedup.methods) scores, and by what rule, asked of it
    @property
    def measure(self) -> str:
        return self.recipe.method.measure

    @property
    def threshold(self) -> float | None:
        return self.recipe.method.threshold

    @property
    def knob(self) -> str:
        return self.recipe.method.knob

    def field_names(self) -> list[str]:
        return self.recipe.method.field_names()

    def field_weights(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        """(pairs, fields): each field's weight in each pair's score (0 where a row lacks it), for
        the methods that weigh fields (records, a fields fingerprint); None for the others."""
        return self.recipe.method.field_weights(a, b)

    def sketches(self, keys: list[str]) -> tuple[list[str], np.ndarray]:
        """The keys that have a stored fingerprint, and their sketches (rows, width)."""
        fp = self.store.fingerprints(self.table, keys)
        have = [k for k in keys if k in fp]
        return have, stored_sketches(self.store, self.table, have, fp, self.recipe.width)

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """What the method compares with its threshold, for aligned sketches (NaN: nothing to compare)."""
        return self.recipe.method.scores(a, b) if len(a) else np.empty(0)

    def field_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        return self.recipe.method.field_scores(a, b)

    def rules(self, a: np.ndarray, b: np.ndarray) -> list[dict]:
        """For aligned sketches: the rule that accepted each pair (or whose bar it missed), with its
        threshold and the config key that sets it (text tables: dedup.index.bands.TextVerifier.RULES)."""
        return self.recipe.method.deciding_rules(a, b)

    def pairs(self, pairs: list[tuple[str, str]], with_weights: bool = False,
              deciding: bool = False) -> dict[tuple[str, str], dict]:
        """(a, b) -> {"similarity": x, "rule": name, "threshold": bar, "decided_by": {...}, "fields": {name: x}}
        for the pairs whose rows are both stored (rule: dedup.runs.rules, None when no rule accepts the
        pair; with ``deciding``, decided_by: the rule that decides it, accepted or not, with its words
        and config key: explain);
        ``with_weights``: also "weights", each field's weight in the score (records, fields fingerprint)."""
        keys = sorted({k for p in pairs for k in p}, key=key_sort)
        have, sk = self.sketches(keys)
        at = {k: i for i, k in enumerate(have)}
        known = [p for p in pairs if p[0] in at and p[1] in at]
        if not known:
            return {}
        ia = np.array([at[a] for a, _ in known])
        ib = np.array([at[b] for _, b in known])
        score = self.scores(sk[ia], sk[ib])
        fields = self.field_scores(sk[ia], sk[ib])
        weights = self.field_weights(sk[ia], sk[ib]) if with_weights else None
        rules = pair_rules(self.recipe, sk[ia], sk[ib], score)
        decided = self.rules(sk[ia], sk[ib]) if deciding else None
        names = self.field_names()
        out = {}
        for n, p in enumerate(known):
            entry = {"similarity": _num(score[n]), "rule": rules[n][0], "threshold": rules[n][1]}
            if decided is not None:
                entry["decided_by"] = decided[n]
            if fields is not None:
                entry["fields"] = {name: _num(x) for name, x in zip(names, fields[n].tolist())}
            if weights is not None:
                entry["weights"] = {name: round(float(x), 4) for name, x in zip(names, weights[n].tolist())}
            out[p] = entry
        return out

    def shared_blocks(self, a: str, b: str) -> list[str]:
        """The block names (candidate keys) the two rows share, as the store files them."""
        have, sk = self.sketches([a, b])
        if len(have) < 2:
            return []
        names = self.recipe.block_names(sk)
        return sorted(set(names[0]) & set(names[1]))


def _num(x) -> float | None:
    x = float(x)
    return None if math.isnan(x) else round(x, 4)
