"""The ``dedup init`` command (registered on dedup.cli.main; kept apart for size)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from .cli import Context, handle_errors, main, write_output


@main.command("init")
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
    from .config.starter import explain, render
    from .db.guess import guess_starter
    from .errors import ConfigError
    from .report.render import check_output

    if Path(output).exists() and not force:
        raise ConfigError(f"{output} exists: pass --force to overwrite it, or -o another file")
    check_output(output)
    starter = guess_starter(url, table, output, sample)
    for line in explain(starter):
        click.echo(line, err=True)
    write_output(output, render(starter))
    click.echo(f"wrote {output}; next: dedup -c {shlex.quote(output)} full --table {shlex.quote(table)}", err=True)
