"""`dedup init`, `dedup migrate` and `dedup demo`: a starter config, the store's schema, the sample."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..config import load_config
from .base import Context, handle_errors
from .options import format_option, output_option, quiet_option
from .output import check_output, emit, write_output
from .runs import run_full_with_progress
from .terminal import full_summary_line


@click.command("init")
@click.argument("url", help="The source database: any SQLAlchemy URL (sqlite:///file.db, postgresql+psycopg://..., mysql+pymysql://...).")
@click.option("-t", "--table", required=True, help="The table to find duplicates in.")
@click.option("-o", "--output", default="dedup.yaml", show_default=True, metavar="FILE", help="The config to write.")
@click.option("--force", is_flag=True, help="Overwrite FILE when it exists.")
@click.option("--sample", default=2000, show_default=True, type=click.IntRange(min=1),
              help="Rows sampled to guess each column's kind.")
@click.pass_obj
@handle_errors
def init(obj: Context, url: str, table: str, output: str, force: bool, sample: int) -> None:
    """Write a starter config for TABLE of the database at URL (any SQLAlchemy URL).

    Reflects the table and samples its rows, then guesses the key (primary key, else a unique
    column), the watermark (a date/time or increasing column, or none), the fields (long text:
    text; names, phones, ids, addresses: short beside text, chars in record tables; columns of
    few values, amounts and flags left out) and the display columns, and says why for each. The
    store is a SQLite file beside the config. A password in URL is not written: the config
    reads it from $DEDUP_SOURCE_PASSWORD.
    """
    from ..config.starter import explain, render
    from ..db.guess import guess_starter
    from ..errors import ConfigError

    if Path(output).exists() and not force:
        raise ConfigError(f"{output} exists: pass --force to overwrite it, or -o another file")
    check_output(output)
    starter = guess_starter(url, table, output, sample)
    for line in explain(starter):
        click.echo(line, err=True)
    write_output(output, render(starter))
    click.echo(f"wrote {output}; next: dedup -c {shlex.quote(output)} full --table {shlex.quote(table)}", err=True)


@click.command()
@click.pass_obj
@handle_errors
def migrate(obj: Context) -> None:
    """Create or upgrade the store's schema to this version of dedup."""
    from ..store import migrate_store

    click.echo(migrate_store(obj.config().store_url))


@click.command()
@click.option("-d", "--dir", "directory", default="dedup-demo", show_default=True, type=click.Path(file_okay=False),
              help="Where to write the sample database, its config and the truth file.")
@click.option("-n", "--rows", default=2000, show_default=True, type=click.IntRange(10, 10_000_000),
              help="Rows in the sample table.")
@click.option("--seed", default=42, show_default=True, help="Seed of the sample generator.")
@format_option(("table", "json", "csv", "html"), "How to print the report.")
@output_option("Write the report to FILE instead of stdout.")
@quiet_option
@click.pass_obj
@handle_errors
def demo(obj: Context, directory: str, rows: int, seed: int, fmt: str, output: str | None, quiet: bool) -> None:
    """Make a sample petitions database with planted duplicates, run `full` on it and print the report.

    Needs no server: the source and the store are SQLite files in DIR, next to dedup.yaml (the
    config used) and truth.csv (the planted groups, key,cluster).
    """
    from ..demo import prepare_demo
    from ..report.text import report_text

    check_output(output)
    click.echo(f"writing a sample of {rows} petitions to {directory}/ ...", err=True)
    config_path = prepare_demo(Path(directory), rows=rows, seed=seed)
    config = load_config(config_path)
    table = config.table(None).name
    result = run_full_with_progress(config, table, quiet)
    emit(report_text(config, table, fmt)[0], output)
    click.echo(full_summary_line(result.summary()), err=True)
    click.echo(f"config: {config_path}  (try: dedup -c {config_path} report --format json)", err=True)
