"""The small family of errors the CLI turns into one line and an exit code.

The library raises these (never click errors) so that Python callers get the same
distinctions the command line does: bad configuration (exit 2) versus failures
while working (exit 1).
"""


class DedupError(Exception):
    """Base class; ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class ConfigError(DedupError):
    """The configuration (or the table it points at) cannot be used as written."""

    exit_code = 2


class SourceError(DedupError):
    """The source database could not be reached or read."""


class StoreError(DedupError):
    """The fingerprint store could not be reached, read or written."""


class LockedError(DedupError):
    """Another run holds the table's lock; ``owner`` is who ("host:pid:token")."""

    exit_code = 3

    def __init__(self, message: str, owner: str | None = None):
        super().__init__(message)
        self.owner = owner
