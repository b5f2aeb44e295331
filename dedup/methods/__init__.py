"""Matching methods as types (dedup.methods.base.Method): row SimHash and field SimHash (the
papers' recipe, dedup.methods.simhash), text MinHash (the default for text tables) and records.
Each composes the primitives of dedup.text and dedup.index; ``method_of`` picks a table's from
the config, written once here.
"""

from __future__ import annotations

from ..config.model import Config, TableConfig
from .base import Method
from .records import Records
from .simhash import FieldSimHash, RowSimHash
from .text import TextMinHash

__all__ = ["FieldSimHash", "Method", "Records", "RowSimHash", "TextMinHash", "method_of"]


def method_of(config: Config, tcfg: TableConfig) -> Method:
    """The table's method: ``match.method`` and, for a table of records (``by_field``), its kind."""
    if config.match.method == "minhash":
        return Records.of(config, tcfg) if tcfg.by_field else TextMinHash.of(config, tcfg)
    return FieldSimHash.of(config, tcfg) if tcfg.by_field else RowSimHash.of(config, tcfg)
