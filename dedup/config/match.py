"""The ``match`` section: which recipe finds and confirms duplicates, and its thresholds."""

from __future__ import annotations

from .model import KEYS, MATCH_METHODS, MatchConfig


def parse_match(raw: dict, problems) -> MatchConfig:
    """The section as a MatchConfig; every problem goes to ``problems`` (``add(path, message)``)."""
    d = MatchConfig()
    for k in raw:
        if k not in KEYS["match"]:
            problems.add(f"match.{k}", f"unknown key (allowed: {', '.join(sorted(KEYS['match']))})")
    method = raw.get("method", d.method)
    if method not in MATCH_METHODS:
        problems.add("match.method", f"must be one of {', '.join(MATCH_METHODS)}")
        method = d.method
    values = {k: _fraction(raw, k, problems, getattr(d, k))
              for k in ("threshold", "identity_threshold", "short_threshold", "short_identity_threshold")}
    record = raw.get("record_threshold")
    record = None if record is None else _fraction(raw, "record_threshold", problems, None)
    short_chars = raw.get("short_chars", d.short_chars)
    if isinstance(short_chars, bool) or not isinstance(short_chars, int) or short_chars < 0:
        problems.add("match.short_chars", "must be a whole number from 0 upwards")
        short_chars = d.short_chars
    return MatchConfig(method=method, short_chars=short_chars, record_threshold=record, **values)


def _fraction(raw: dict, key: str, problems, default):
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        problems.add(f"match.{key}", "must be a number from 0 to 1")
        return default
    return float(value)
