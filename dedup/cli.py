"""The ``dedup`` command: a thin click layer over the library.

Each command loads the config, calls one library function and turns a DedupError into one
``Error: ...`` line with its exit code (2 bad usage or configuration, 1 failure while working,
3 table locked by another run). ``-v`` shows tracebacks and debug logging.
"""

from __future__ import annotations

import functools
import logging
import signal
import sys
from pathlib import Path

import click

from . import __version__
from .config import Config, load_config
from .console import INTERRUPTED
from .db.masking import remember_secrets
from .errors import DedupError
from .output_file import write_whole
from .terminal import MaskingFormatter, Progress, full_summary_line, incremental_summary_line, one_line

log = logging.getLogger("dedup")


def _exit_on_sigterm(signum, _frame) -> None:
    """SIGTERM (kill, cron timeouts, systemd) unwinds like an error: worker processes are shut down,
    the lock is released, nothing half-written is committed."""
    raise SystemExit(128 + signum)




class Context:
    """What the group's options said: the config file (a command's own ``-c`` overrides it) and ``-v``."""

    def __init__(self, config_path: str | None, verbose: bool):
        self.config_path = config_path
        self.verbose = verbose

    def config(self) -> Config:
        """The config, its URLs' passwords remembered so that no message shows them, whatever the URL's shape."""
        config = load_config(self.config_path)
        remember_secrets(config.source_url)
        remember_secrets(config.store_url)
        return config


def handle_errors(fn):
    """Map library errors to one masked line on stderr and the documented exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        ctx = click.get_current_context()
        verbose = getattr(ctx.obj, "verbose", False)
        try:
            return fn(*args, **kwargs)
        except DedupError as e:
            if verbose:
                log.exception("error")
            click.echo(f"Error: {one_line(str(e))}", err=True)
            ctx.exit(e.exit_code)
        except click.exceptions.Exit:
            raise
        except click.ClickException as e:  # usage errors raised inside a command: one line, exit 2
            click.echo(f"Error: {one_line(e.format_message())}", err=True)
            ctx.exit(e.exit_code)
        except KeyboardInterrupt:
            click.echo(INTERRUPTED, err=True)
            ctx.exit(130)
        except Exception as e:  # an unexpected failure is still one line; -v logs the traceback, masked
            if verbose:
                log.exception("unexpected error")
            first = str(e).strip().splitlines()[0] if str(e).strip() else ""
            click.echo(f"Error: {type(e).__name__}: {one_line(first)}" + ("" if verbose else " (run with -v for details)"),
                       err=True)
            ctx.exit(1)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-c", "--config", "config_path", metavar="FILE", envvar="DEDUP_CONFIG",
              help="Config file (default: ./dedup.yaml, or $DEDUP_CONFIG).")
@click.option("-v", "--verbose", is_flag=True, help="Debug logging and full tracebacks on errors.")
@click.version_option(__version__, prog_name="dedup")
@click.pass_context
def main(ctx: click.Context, config_path: str | None, verbose: bool) -> None:
    """Find near-duplicate rows in relational tables with 64-bit SimHash fingerprints.

    \b
    Typical use:
      dedup demo                                   # try it on a bundled sample, no server needed
      dedup -c dedup.yaml full --table petitions   # fingerprint the whole table, find groups
      dedup -c dedup.yaml incremental              # cron: only rows new since the last run
      dedup -c dedup.yaml report --table petitions --format json
      dedup -c dedup.yaml eval --table petitions --truth truth.csv -f html -o eval.html

    Exit codes: 0 success, 1 failure while working, 2 bad usage or configuration,
    3 the table is locked by another run, 130 interrupted (Ctrl-C).
    """
    try:
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    except ValueError:  # not the main thread (embedded use): leave signals alone
        pass
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(MaskingFormatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING, handlers=[handler], force=True)
    logging.captureWarnings(True)  # driver warnings too go through the masking formatter
    ctx.obj = Context(config_path, verbose)


def run_full_with_progress(config: Config, table: str, quiet: bool):
    """run_full with a progress bar on a terminal."""
    from .runs.full import run_full

    progress = Progress(table, quiet)
    try:
        return run_full(config, table, progress=progress, on_total=progress.total)
    finally:
        progress.close()


@main.command()
@click.option("-t", "--table", help="Configured table to process (optional when the config has one table).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option("--engine", type=click.Choice(["local", "spark"]), default="local", show_default=True,
              help="Where the work runs: this machine, or Apache Spark (pip install 'dedup[spark]'; the master "
                   "from spark-submit or $DEDUP_SPARK_MASTER, default local[*]).")
@click.option("--partitions", type=click.IntRange(min=1), default=None,
              help="With --engine spark: key ranges the table is read in (default: two a core).")
@click.option("--json", "as_json", is_flag=True,
              help="The run's summary as one JSON object on stdout (with its size warnings), for machines.")
@click.pass_obj
@handle_errors
def full(obj: Context, table: str | None, quiet: bool, engine: str, partitions: int | None, as_json: bool) -> None:
    """Fingerprint every row of a table and find its duplicate groups.

    Replaces the table's previous results in the store (in one transaction: a failed run leaves
    the previous results in place). Prints one summary line: rows, groups, rows in groups, seconds.
    With --engine spark the same groups and the same store come from a Spark job. Group sizes that
    look wrong (groups.warn_size, groups.warn_growth) are warned of on stderr and, with --json,
    listed under "warnings".
    """
    config = obj.config()
    if engine == "spark":
        try:
            import pyspark  # noqa: F401
        except ImportError as e:
            from .db.engine import missing_module
            from .errors import ConfigError

            raise ConfigError(f"--engine spark needs PySpark: {missing_module(e)}") from None
        from .runs.spark import run_full_spark

        result = run_full_spark(config, config.table(table).name, partitions=partitions or 0)
    else:
        result = run_full_with_progress(config, config.table(table).name, quiet or as_json)
    if as_json:
        import json as _json

        click.echo(_json.dumps(result.summary(), ensure_ascii=False))
    else:
        click.echo(full_summary_line(result.summary()))


@main.command()
@click.option("-t", "--table", "tables", multiple=True,
              help="Configured table to process; repeat for several. Default: every configured table.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per table on stdout, for machines.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option("--reconcile", is_flag=True,
              help="Also read the key column and remove the rows deleted from the source (as reconcile_every does).")
@click.pass_obj
@handle_errors
def incremental(obj: Context, tables: tuple[str, ...], as_json: bool, quiet: bool, reconcile: bool) -> None:
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
    import json as _json

    from .runs.incremental import run_incremental

    config = obj.config()
    names = list(tables) or list(config.tables)
    worst: DedupError | None = None
    for name in names:
        tcfg = config.table(name)
        progress = Progress(tcfg.name, quiet or as_json)
        try:
            result = run_incremental(config, tcfg.name, progress=progress, on_total=progress.total,
                                     reconcile=reconcile)
        except DedupError as e:
            if len(names) == 1:
                raise
            click.echo(f"Error: {one_line(f'{tcfg.name}: {e}')}", err=True)
            worst = e if worst is None or e.exit_code > worst.exit_code else worst
            continue
        finally:
            progress.close()
        summary = result.summary()
        click.echo(_json.dumps(summary, ensure_ascii=False) if as_json else incremental_summary_line(summary))
    if worst is not None:
        click.get_current_context().exit(worst.exit_code)



@main.command()
@click.option("-t", "--table", help="Configured table (optional when the config has one table).")
@click.option("-n", "--limit", default=20, show_default=True, type=click.IntRange(1), help="Most recent runs to list.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list, for machines.")
@click.option("--kind", type=click.Choice(["full", "incremental", "decide"]),
              help="Only runs of this kind (default: all).")
@click.pass_obj
@handle_errors
def runs(obj: Context, table: str | None, limit: int, as_json: bool, kind: str | None) -> None:
    """List a table's runs, most recent first: id, kind, start, status, rows read, and the groups
    each made new, grew, merged, split, shrank or ended, and the rows that left groups.
    `dedup report --run N` shows what run N changed. Reads the store without writing to it."""
    from .report.runs import runs_text

    click.echo(runs_text(obj.config(), table, limit, as_json, kind), nl=False)


def write_output(output: str, text: str) -> None:
    """Write ``text`` whole to the file ``output``; a failure leaves the file as it was and says so."""
    try:
        write_whole(output, text)
    except OSError as e:
        raise DedupError(f"cannot write {output}: {e.strerror or e} ({output} is as it was)") from None


def emit(text: str, output: str | None, done: str) -> None:
    """Print ``text``, or write it whole to ``output`` and say ``done`` on stderr."""
    if output:
        write_output(output, text)
        click.echo(done, err=True)
    else:
        click.echo(text, nl=False)


@main.command()
@click.pass_obj
@handle_errors
def migrate(obj: Context) -> None:
    """Create or upgrade the store's schema to this version of dedup."""
    from .store import migrate_store

    config = obj.config()
    click.echo(migrate_store(config.store_url))


@main.command()
@click.option("-d", "--dir", "directory", default="dedup-demo", show_default=True, type=click.Path(file_okay=False),
              help="Where to write the sample database, its config and the truth file.")
@click.option("-n", "--rows", default=2000, show_default=True, type=click.IntRange(10, 10_000_000),
              help="Rows in the sample table.")
@click.option("--seed", default=42, show_default=True, help="Seed of the sample generator.")
@click.option("-f", "--format", "fmt", type=click.Choice(["table", "json", "csv", "html"]), default="table",
              show_default=True, help="How to print the report.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.pass_obj
@handle_errors
def demo(obj: Context, directory: str, rows: int, seed: int, fmt: str, quiet: bool) -> None:
    """Make a sample petitions database with planted duplicates, run `full` on it and print the report.

    Needs no server: the source and the store are SQLite files in DIR, next to dedup.yaml (the
    config used) and truth.csv (the planted groups, key,cluster).
    """
    from .cli_report import report_text
    from .demo import prepare_demo

    click.echo(f"writing a sample of {rows} petitions to {directory}/ ...", err=True)
    config_path = prepare_demo(Path(directory), rows=rows, seed=seed)
    config = load_config(config_path)
    table = config.table(None).name
    result = run_full_with_progress(config, table, quiet)
    click.echo(report_text(config, table, fmt)[0], nl=False)
    click.echo(full_summary_line(result.summary()), err=True)
    click.echo(f"config: {config_path}  (try: dedup -c {config_path} report --format json)", err=True)


from . import cli_decide, cli_eval, cli_init, cli_review, cli_status  # noqa: E402,F401  (register decide; eval, init; explain, review, decisions; status)
from . import cli_report, cli_serve  # noqa: E402,F401  (register report; serve: the workbench, dedup.web)

from .cli_options import accept_config_after  # noqa: E402

accept_config_after(main, without=("demo", "init"))  # init writes a config, it reads none


def entry() -> None:
    """The `dedup` console script: `main`, with Ctrl-C at any moment one line and exit 130 (click
    alone would print "Aborted!" and exit 1 when it comes outside a command)."""
    try:
        code = main.main(prog_name="dedup", standalone_mode=False)
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo(INTERRUPTED, err=True)
        code = 130
    except click.ClickException as e:
        e.show()
        code = e.exit_code
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    # `python -m dedup.cli`: the commands of the other cli_* modules register on dedup.cli's group,
    # not on this __main__ copy of it, so run the package's own.
    from dedup.console import main as console_main

    console_main()
