"""Files written for the user (reports, exports, eval pages, the demo's config) arrive whole or not at all.

The text goes to a temporary file beside the target, is flushed to disk, and only then renamed over
the target: a full disk, a kill or an error part way leaves the old file as it was and no temporary
file behind. Through a symbolic link, the file it points at is replaced and the link is kept. Only
a writable file in a directory that is not writable is written in place (no file can be made beside it).
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Iterator


@contextmanager
def replacing(path: str | os.PathLike, newline: str | None = None) -> Iterator[IO[str]]:
    """A text file to write; on leaving the block without an error it becomes ``path``, atomically."""
    target = Path(os.path.realpath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except PermissionError:
        if not (target.is_file() and os.access(target, os.W_OK)):
            raise
        with open(target, "w", encoding="utf-8", newline=newline) as fh:  # a writable file in a directory
            yield fh  # that is not: in place, as before (the only way it can be written at all)
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode(target))
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_directory(target.parent)


def write_whole(path: str | os.PathLike, text: str) -> None:
    """``path`` holds ``text``, or (on any error) what it held before."""
    with replacing(path) as fh:
        fh.write(text)


def _mode(target: Path) -> int:
    """The permissions the file keeps, or, for a new one, those a plain open() would give it."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_directory(directory: Path) -> None:
    """The rename itself on disk (where the system allows a directory to be synced)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
