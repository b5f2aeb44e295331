"""Where a command's data goes: stdout, or a file written whole (dedup.output_file)."""

from __future__ import annotations

import click

from ..errors import DedupError
from ..output_file import write_whole
from ..report.render import check_output

__all__ = ["check_output", "emit", "write_output"]  # check_output: an --output refused before any work


def write_output(output: str, text: str) -> None:
    """Write ``text`` whole to the file ``output``; a failure leaves the file as it was and says so."""
    try:
        write_whole(output, text)
    except OSError as e:
        raise DedupError(f"cannot write {output}: {e.strerror or e} ({output} is as it was)") from None


def emit(text: str, output: str | None, done: str | None = None) -> None:
    """Print ``text``, or write it whole to ``output`` and say ``done`` (default: wrote FILE) on stderr."""
    if output:
        write_output(output, text)
        click.echo(done or f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)
