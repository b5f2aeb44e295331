"""`dedup report`: the groups of a table as its runs left them (dedup.report.text), printed, paged
on a terminal, or written whole to a file."""

from __future__ import annotations

import sys

import click

from .base import Context, handle_errors
from .options import format_option, output_option, table_option
from .output import check_output, emit


@click.command()
@table_option
@format_option(("table", "json", "csv", "html"), "json: the documented report; csv: key, group, date and display "
               "columns, most similar row, similarity, rule, deleted; table: for a terminal; html: a page for caseworkers.")
@output_option()
@click.option("--no-source", is_flag=True, help="Do not read display columns from the source database.")
@click.option("--since-last-run", is_flag=True,
              help="Only what the last successful run that changed any group changed (see --run).")
@click.option("--run", "run", type=int, metavar="N",
              help="Only the groups run N created or changed (`dedup runs` lists them), its new rows marked.")
@click.option("--since-run", "since_run", type=int, metavar="N", help="As --run, for run N and every run after it.")
@click.option("--sort", type=click.Choice(["size", "key", "newest"]),
              help="Group order: size (largest first; default for table and html), key (lowest key), "
                   "newest (changed by the latest runs first). json and csv default to group id order.")
@click.option("--limit", type=click.IntRange(min=0), metavar="N", help="Show only the first N groups.")
@click.option("--min-size", type=click.IntRange(min=2), default=2, show_default=True, metavar="N",
              help="Only groups of at least N rows.")
@click.option("--group", "group", type=int, metavar="N", help="Only group N (every format).")
@click.option("--lang", type=click.Choice(["zh", "en"]),
              help="Language of the html page and the csv's words (default: zh when the rows hold Chinese "
                   "text, else from LC_ALL / LC_MESSAGES / LANG); the terminal table is in English.")
@click.pass_obj
@handle_errors
def report(obj: Context, table: str | None, fmt: str, output: str | None, no_source: bool,
           since_last_run: bool, sort: str | None, limit: int | None, min_size: int, lang: str | None,
           run: int | None, since_run: int | None, group: int | None) -> None:
    """Show the duplicate groups of a table, as its runs left them.

    Reads the store without writing to it, so a read-only store (a SQLite file in a read-only
    directory, or a `mode=ro` URI) can be reported. On a terminal the table goes through a pager;
    lines fit the terminal's width. Each row names the row it is most similar to, the similarity
    and the rule that accepted the link; each group its weakest link.

    With --run N or --since-last-run: only the groups that run made new, grew, merged, split or
    shrank (marked so), rows that were in no group before marked +, and the groups it ended;
    --since-run N: the same for run N and every run after it.
    """
    if since_last_run + (run is not None) + (since_run is not None) > 1:
        from ..errors import ConfigError

        raise ConfigError("give one of --run N, --since-run N and --since-last-run")
    from ..report.text import report_text

    check_output(output)
    text, n_groups = report_text(obj.config(), table, fmt, with_source=not no_source, since_last_run=since_last_run,
                                 sort=sort, min_size=min_size, limit=limit, lang=lang, run=run, since_run=since_run,
                                 group=group)
    if fmt == "table" and not output and stdout_is_terminal():
        click.echo_via_pager(text)
        return
    emit(text, output, f"wrote {n_groups} groups to {output}")


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()
