"""`dedup status`: where each table stands, for monitoring (dedup.runs.status); exit 4 when one needs attention."""

from __future__ import annotations

import click

from .base import Context, handle_errors
from .options import format_option, output_option, tables_option
from .output import check_output, emit

NEEDS_ATTENTION = 4  # exit code: a table's last run failed, or is older than --max-age, or ...


def _duration(_ctx, _param, value: str | None):
    if value is None:
        return None
    from ..config.lookback import parse_duration

    found = parse_duration(value)
    if found is None:
        raise click.BadParameter(f"{value!r} is not a duration such as 26h, 2d, 90m, 1w or 45s")
    return found


@click.command()
@tables_option("check")
@click.option("--max-age", metavar="DURATION", callback=_duration,
              help="Needs attention when the last successful run started longer ago than this (26h, 2d, 90m).")
@format_option(("text", "json"), "text: for people; json: a list, one object per table, for machines.",
               json_alias="As `--format json`.")
@output_option("Write to FILE instead of stdout.")
@click.pass_obj
@handle_errors
def status(obj: Context, tables: tuple[str, ...], max_age, fmt: str, output: str | None) -> None:
    """Where each table stands, for monitoring a nightly job.

    Per table: the last full and the last incremental run (outcome, start in UTC, age), rows
    waiting past the stored watermark (a COUNT on the source), unseen rows (in the source, not in
    the store, and not past the watermark: only `full` reads them), the lock's holder and its
    lease expiry, and the group sizes (p50, p90, p99, the largest group). Writes nothing and
    takes no lock.

    Exit codes: 0 every table is ok; 4 a table needs attention (its last run failed or died,
    it has no successful full run, its source cannot be read, or its last successful run started
    longer ago than --max-age); 1 the store cannot be read; 2 bad usage or configuration.
    """
    import json

    from ..report.status import status_text
    from ..runs.status import age_text, table_status

    check_output(output)
    config = obj.config()
    names = [config.table(t).name for t in tables] or list(config.tables)
    found = table_status(config, names, max_age)
    emit(json.dumps(found, ensure_ascii=False, indent=2) + "\n" if fmt == "json" else status_text(found, age_text), output)
    if not all(t["healthy"] for t in found):
        click.get_current_context().exit(NEEDS_ATTENTION)
