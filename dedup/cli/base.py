"""The ``dedup`` group and what every command shares: the context (config file, ``-v``) and the
mapping of a DedupError to one ``Error: ...`` line with its exit code (2 bad usage or
configuration, 1 failure while working, 3 table locked by another run). ``-v`` shows tracebacks
and debug logging. The commands are in the modules beside this one, added in dedup/cli/__init__.py.
"""

from __future__ import annotations

import functools
import logging
import signal
import sys

import click

from .. import __version__
from ..config import Config, load_config
from ..console import INTERRUPTED
from ..db.masking import remember_secrets
from ..errors import DedupError
from .terminal import MaskingFormatter, one_line

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
