"""The ``dedup`` command line: a package of thin commands, each loading the config, calling one
library function and rendering what it returns.

``main`` is the click group (dedup/cli/base.py); every command is added to it here, in one place,
so that no module of the package imports this one and there is no import cycle. ``entry`` is what
the console script runs (through dedup/console.py, which guards the import of this package)."""

from __future__ import annotations

import sys

import click

from ..console import INTERRUPTED
from . import decide, decisions, evaluate, project, report, review, runs, serve, status
from .base import Context, handle_errors, main
from .options import accept_config_after

# the modules keep their names here (tests patch dedup.cli.report.*); each command is added by name
for _command in (runs.full, runs.incremental, runs.runs, project.migrate, project.demo, report.report, evaluate.eval_,
                 project.init, review.explain, review.review, decisions.decisions, decide.decide, status.status,
                 serve.serve):
    main.add_command(_command)
accept_config_after(main, without=("demo", "init"))  # init writes a config, demo makes its own: they read none

__all__ = ["Context", "entry", "handle_errors", "main"]


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
