"""Options every command shares: ``-c FILE`` after the command as well as before it."""

from __future__ import annotations

import click

from .cli import Context


table_option = click.option("-t", "--table", help="Configured table (optional when the config has one table).")


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
