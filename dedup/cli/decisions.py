"""`dedup decisions export|import`: a table's decisions as CSV (dedup.review.decisions_csv)."""

from __future__ import annotations

import click

from .base import Context, handle_errors
from .decide import regrouped
from .options import output_option, table_option
from .output import check_output, emit


@click.group()
def decisions() -> None:
    """Export or import a table's decisions as CSV (a,b,verdict,decided_at,source,similarity,reviewer,note,action)."""


@decisions.command("export")
@table_option
@output_option("Write to FILE instead of stdout.")
@click.pass_obj
@handle_errors
def export_decisions(obj: Context, table: str | None, output: str | None) -> None:
    """Write the table's decisions as CSV, oldest first."""
    from ..review.decisions_csv import export_decisions as export

    check_output(output)
    text, n = export(obj.config(), table)
    emit(text, output, f"wrote {n} decisions to {output}")


@decisions.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False), help="The CSV to read.")
@table_option
@click.pass_obj
@handle_errors
def import_decisions(obj: Context, file: str, table: str | None) -> None:
    """Read decisions from a CSV (as `decisions export` writes; a,b,verdict is enough; UTF-8, or
    UTF-16 with its byte order mark; files without the reviewer, note and action columns too), replacing earlier decisions on the same pairs, and regroup.
    A key that names no row of the table's last run is refused (exit 2), nothing imported."""
    from ..review.decisions_csv import import_decisions as record

    n, result = record(obj.config(), table, file)
    click.echo(f"imported {n} decisions; {regrouped(result)}")
