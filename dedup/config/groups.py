"""The ``groups`` section: how verified pairs become groups, and when a group's size is a warning."""

from __future__ import annotations

from .checks import integer, unknown_keys
from .model import CLUSTERINGS, KEYS, GroupsConfig


def parse_groups(raw: dict, problems) -> GroupsConfig:
    """The section as a GroupsConfig; every problem goes to ``problems`` (``add(path, message)``)."""
    d = GroupsConfig()
    unknown_keys(raw, KEYS["groups"], "groups", problems)
    raw = raw if isinstance(raw, dict) else {}
    clustering = raw.get("clustering", d.clustering)
    if clustering not in CLUSTERINGS:
        problems.add("groups.clustering", f"must be one of {', '.join(CLUSTERINGS)}")
        clustering = d.clustering
    warn_size = integer(raw, "warn_size", "groups", problems, default=d.warn_size, minimum=2)
    growth = raw.get("warn_growth", d.warn_growth)
    if isinstance(growth, bool) or not isinstance(growth, (int, float)) or growth <= 1:
        problems.add("groups.warn_growth", "must be a number above 1")
        growth = d.warn_growth
    return GroupsConfig(clustering=clustering, warn_size=warn_size, warn_growth=float(growth))
