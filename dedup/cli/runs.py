"""`dedup full`, `dedup incremental` and `dedup runs`: a table's runs, and the list of them."""

from __future__ import annotations

import json

import click

from ..config import Config
from ..errors import DedupError
from .base import Context, handle_errors
from .options import format_option, output_option, quiet_option, table_option, tables_option
from .output import check_output, emit
from .terminal import Progress, full_summary_line, incremental_summary_line, one_line

SUMMARY_FORMATS = ("text", "json")


def summary_text(summary: dict, fmt: str, line) -> str:
    """A run's summary as printed: ``line(summary)`` for people, one JSON object for machines."""
    return (json.dumps(summary, ensure_ascii=False) if fmt == "json" else line(summary)) + "\n"


def run_full_with_progress(config: Config, table: str, quiet: bool):
    """run_full with a progress bar on a terminal (also the demo's run)."""
    from ..runs.full import run_full

    with Progress(table, quiet) as progress:
        return run_full(config, table, progress=progress, on_total=progress.total)


@click.command()
@click.option("-t", "--table", help="Configured table to process (optional when the config has one table).")
@quiet_option
@click.option("--engine", type=click.Choice(["local", "spark"]), default="local", show_default=True,
              help="Where the work runs: this machine, or Apache Spark (pip install 'dedup[spark]'; the master "
                   "from spark-submit or $DEDUP_SPARK_MASTER, default local[*]).")
@click.option("--partitions", type=click.IntRange(min=1), default=None,
              help="With --engine spark: key ranges the table is read in (default: two a core).")
@format_option(SUMMARY_FORMATS, "text: one summary line; json: the run's summary as one JSON object (with its size "
               "warnings), for machines.", json_alias="As `--format json`.")
@output_option("Write the summary to FILE instead of stdout.")
@click.pass_obj
@handle_errors
def full(obj: Context, table: str | None, quiet: bool, engine: str, partitions: int | None, fmt: str,
         output: str | None) -> None:
    """Fingerprint every row of a table and find its duplicate groups.

    Replaces the table's previous results in the store (in one transaction: a failed run leaves
    the previous results in place). Prints one summary line: rows, groups, rows in groups, seconds.
    With --engine spark the same groups and the same store come from a Spark job. Group sizes that
    look wrong (groups.warn_size, groups.warn_growth) are warned of on stderr and, with --format
    json, listed under "warnings".
    """
    check_output(output)
    config = obj.config()
    name = config.table(table).name
    if engine == "spark":
        result = _run_spark(config, name, partitions or 0)
    else:
        result = run_full_with_progress(config, name, quiet or fmt == "json")
    emit(summary_text(result.summary(), fmt, full_summary_line), output)


def _run_spark(config: Config, table: str, partitions: int):
    try:
        import pyspark  # noqa: F401
    except ImportError as e:
        from ..db.engine import missing_module
        from ..errors import ConfigError

        raise ConfigError(f"--engine spark needs PySpark: {missing_module(e)}") from None
    from ..runs.spark import run_full_spark

    return run_full_spark(config, table, partitions=partitions)


@click.command()
@tables_option("process")
@format_option(SUMMARY_FORMATS, "text: one line per table; json: one JSON object per table, for machines.",
               json_alias="As `--format json`.")
@output_option("Write the summaries to FILE instead of stdout (once every table is done).")
@quiet_option
@click.option("--reconcile", is_flag=True,
              help="Also read the key column and remove the rows deleted from the source (as reconcile_every does).")
@click.pass_obj
@handle_errors
def incremental(obj: Context, tables: tuple[str, ...], fmt: str, output: str | None, quiet: bool,
                reconcile: bool) -> None:
    """Compare only the rows added or changed since the last run (for cron).

    Reads the rows past the stored watermark (the table's `watermark` column, ties broken by key),
    compares them with each other and with the stored fingerprints, updates the groups (a group
    keeps its id; when groups merge the oldest id survives) and moves the watermark last. A killed
    run can simply be run again. Rows within the table's watermark_lookback of the stored
    watermark are read again and processed if their watermark changed (late rows, backdated
    edits). Prints one line per table: new rows, new groups, rows that joined groups, deleted
    rows (with --reconcile), seconds. Exit codes: 0 ok, 1 failure, 2 bad configuration (also: settings changed
    since the last full run), 3 another run holds the table's lock.
    """
    from ..runs.incremental import run_incremental

    check_output(output)
    config = obj.config()
    names = list(tables) or list(config.tables)
    texts: list[str] = []
    worst: DedupError | None = None
    for name in (config.table(n).name for n in names):
        try:
            with Progress(name, quiet or fmt == "json") as progress:
                result = run_incremental(config, name, progress=progress, on_total=progress.total, reconcile=reconcile)
        except DedupError as e:
            if len(names) == 1:
                raise
            click.echo(f"Error: {one_line(f'{name}: {e}')}", err=True)
            worst = e if worst is None or e.exit_code > worst.exit_code else worst
            continue
        texts.append(summary_text(result.summary(), fmt, incremental_summary_line))
        if not output:
            emit(texts[-1], None)
    if output and texts:
        emit("".join(texts), output)
    if worst is not None:
        click.get_current_context().exit(worst.exit_code)


@click.command()
@table_option
@click.option("-n", "--limit", default=20, show_default=True, type=click.IntRange(1), help="Most recent runs to list.")
@format_option(SUMMARY_FORMATS, "text: one line a run; json: a list, for machines.", json_alias="As `--format json`.")
@output_option("Write to FILE instead of stdout.")
@click.option("--kind", type=click.Choice(["full", "incremental", "decide"]),
              help="Only runs of this kind (default: all).")
@click.pass_obj
@handle_errors
def runs(obj: Context, table: str | None, limit: int, fmt: str, output: str | None, kind: str | None) -> None:
    """List a table's runs, most recent first: id, kind, start, status, rows read, and the groups
    each made new, grew, merged, split, shrank or ended, and the rows that left groups.
    `dedup report --run N` shows what run N changed. Reads the store without writing to it."""
    from ..report.runs import runs_text

    check_output(output)
    emit(runs_text(obj.config(), table, limit, fmt == "json", kind), output)
