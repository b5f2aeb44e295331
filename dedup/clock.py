"""The package's one clock: when a run, a decision, an action or a lock happened.

Times are naive UTC (what the stores keep) cut to whole seconds: every store keeps those exactly
(MySQL's DATETIME holds no fraction, BSON milliseconds), so a time read back equals the time
written, and two stores given one run record the same instant.
"""

from __future__ import annotations

import datetime as _dt


def now() -> _dt.datetime:
    """The current instant, naive UTC, to the second."""
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None, microsecond=0)
