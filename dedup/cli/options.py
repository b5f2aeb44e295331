"""Options every command spells the same way: ``-t/--table``, ``-f/--format`` with ``-o/--output``,
``-q/--quiet``, and ``-c FILE`` after the command as well as before it."""

from __future__ import annotations

import functools

import click

from .base import Context

table_option = click.option("-t", "--table", help="Configured table (optional when the config has one table).")
quiet_option = click.option("-q", "--quiet", is_flag=True, help="No progress bar.")


def tables_option(verb: str):
    """``-t/--table`` repeatable, for the commands that go through every configured table by default."""
    return click.option("-t", "--table", "tables", multiple=True,
                        help=f"Configured table to {verb}; repeat for several. Default: every configured table.")


def output_option(help: str = "Write to FILE instead of stdout (checked before any work)."):  # noqa: A002  (click's word)
    return click.option("-o", "--output", metavar="FILE", help=help)


def format_option(choices: tuple[str, ...], help: str, *,  # noqa: A002  (click's word)
                  default: str | None = None, json_alias: str | None = None):
    """``-f/--format`` (the value reaches the command as ``fmt``); with ``json_alias`` also the old
    ``--json`` flag, hidden from the help, that means ``--format json`` (scripts written for it keep working)."""
    def deco(fn):
        @functools.wraps(fn)
        def command(*args, as_json: bool = False, **kwargs):
            if as_json:
                kwargs["fmt"] = "json"
            return fn(*args, **kwargs)

        command = click.option("-f", "--format", "fmt", type=click.Choice(choices), default=default or choices[0],
                               show_default=True, help=help)(command)
        if json_alias:
            command = click.option("--json", "as_json", is_flag=True, hidden=True, help=json_alias)(command)
        return command
    return deco


def with_options(options):
    """Several click options as one decorator, listed in the order given."""
    def deco(fn):
        for opt in reversed(options):
            fn = opt(fn)
        return fn
    return deco


def _command_config(ctx: click.Context, _param, value: str | None) -> None:
    if value is not None:
        ctx.find_object(Context).config_path = value


def accept_config_after(group: click.Group, without: tuple[str, ...] = ("demo",)) -> None:
    """``-c FILE`` after the command too (``dedup full -c x.yaml``), for every command that reads a
    config: the same option as the group's, which it overrides when given."""
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            accept_config_after(command, without)
        if name in without or any("--config" in p.opts for p in command.params):
            continue
        command.params.append(click.Option(["-c", "--config"], metavar="FILE", expose_value=False, is_eager=True,
                                           callback=_command_config, help="Config file (as `dedup -c FILE`)."))
