"""Driver log lines that repeat, less clearly, the error the run stops with.

When a PostgreSQL connection is killed mid-run (pg_terminate_backend, a server restart), psycopg
logs ``WARNING psycopg: error ignored terminating <psycopg.Pipeline [BAD]>: the connection is
lost`` as it cleans up, and then the run fails with its own one-line error: the warning printed
before it is noise. These "error ignored" lines are kept for debug logging (``-v``) only.
"""

from __future__ import annotations

import logging

NOISY_LOGGERS = ("psycopg",)


class IgnoredCleanupErrors(logging.Filter):
    """Let a driver's "error ignored ..." warning through only where debug logging is on."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING or not str(record.msg).startswith("error ignored"):
            return True
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


_FILTER = IgnoredCleanupErrors()


def quiet_driver_cleanup() -> None:
    """Install the filter on the drivers' loggers (once; repeated calls change nothing)."""
    for name in NOISY_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
