"""The demo's word lists, sentence templates and topics, kept as UTF-8 JSON under ``data/``.

Data files rather than Python literals so the vocabulary reads as text and the labelled benchmark
sets (bench/datasets/labelled) can build on the same lists through ``words`` instead of private names.
Lists come back as tuples: the generators index and concatenate them, and must not change them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["data_file", "sentences", "topics", "words"]


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


@cache
def data_file(package: str, name: str) -> Any:
    """``data/<name>.json`` of ``package``, read once, with its lists as tuples."""
    text = resources.files(package).joinpath("data").joinpath(f"{name}.json").read_text(encoding="utf-8")
    return _frozen(json.loads(text))


def words(name: str) -> tuple[str, ...] | str:
    """A word list: surnames and given-name characters (one string), districts, streets,
    communities, roads, brands, rivers, media, shop_kinds, school_kinds, compound_surnames."""
    return data_file(__package__, "words")[name]


def sentences(name: str) -> tuple:
    """Sentence templates shared by all topics (openings, impacts, actions, demands, closings) and
    the material of copy edits (follow_ups, greetings, homophones, fullwidth_sentences)."""
    return data_file(__package__, "sentences")[name]


def topics() -> tuple[dict, ...]:
    """The petition topics: name, subject, weight and their own titles, problems, demands, shorts."""
    return data_file(__package__, "topics")
