"""The ``match`` section: which recipe finds and confirms duplicates, and its thresholds."""

from __future__ import annotations

from .checks import integer, unknown_keys
from .model import DIGIT_MODES, KEYS, MATCH_METHODS, MatchConfig


def parse_match(raw: dict, problems) -> MatchConfig:
    """The section as a MatchConfig; every problem goes to ``problems`` (``add(path, message)``)."""
    d = MatchConfig()
    unknown_keys(raw, KEYS["match"], "match", problems)
    method = raw.get("method", d.method)
    if method not in MATCH_METHODS:
        problems.add("match.method", f"must be one of {', '.join(MATCH_METHODS)}")
        method = d.method
    values = {k: _fraction(raw, k, problems, getattr(d, k))
              for k in ("threshold", "identity_threshold", "identity_rare_threshold", "short_threshold", "short_identity_threshold",
                        "common_share", "common_floor", "distinct_threshold", "distinct_floor", "distinct_share",
                        "numbers_floor", "numbers_share", "numbers_against", "numbers_sure", "numbers_brief_against",
                        "confirm_margin")}
    values["identity_rare_rows"] = integer(raw, "identity_rare_rows", "match", problems,
                                           default=d.identity_rare_rows, minimum=1)
    values["common_rows"] = integer(raw, "common_rows", "match", problems, default=d.common_rows, minimum=1)
    values["distinct_shared"] = integer(raw, "distinct_shared", "match", problems, default=d.distinct_shared, minimum=0)
    values["numbers_least"] = integer(raw, "numbers_least", "match", problems, default=d.numbers_least, minimum=1)
    values["numbers_brief_chars"] = integer(raw, "numbers_brief_chars", "match", problems,
                                            default=d.numbers_brief_chars, minimum=0)
    values["places_against_chars"] = integer(raw, "places_against_chars", "match", problems,
                                             default=d.places_against_chars, minimum=0)
    values["confirm_values"] = integer(raw, "confirm_values", "match", problems, default=d.confirm_values, minimum=16)
    values["confirm_values"] += -values["confirm_values"] % 16  # sixteen 4-bit codes a signature word
    values["digits"] = raw.get("digits", d.digits)
    if values["digits"] not in DIGIT_MODES:
        problems.add("match.digits", f"must be one of {', '.join(DIGIT_MODES)}")
        values["digits"] = d.digits
    record = raw.get("record_threshold")
    record = None if record is None else _fraction(raw, "record_threshold", problems, None)
    short_chars = integer(raw, "short_chars", "match", problems, default=d.short_chars, minimum=0)
    anchors = raw.get("anchors", d.anchors) if isinstance(raw, dict) else d.anchors
    if anchors is not None:
        anchors = integer(raw, "anchors", "match", problems, default=d.anchors, minimum=1)
    return MatchConfig(method=method, short_chars=short_chars, record_threshold=record, anchors=anchors, **values)


def _fraction(raw: dict, key: str, problems, default):
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        problems.add(f"match.{key}", "must be a number from 0 to 1")
        return default
    return float(value)
