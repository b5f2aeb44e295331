"""`dedup serve`: the caseworker's workbench of dedup.web."""

from __future__ import annotations

import click

from ..errors import ConfigError
from .base import Context, handle_errors
from .options import table_option


@click.command()
@table_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback needs --token.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: a free one; the address is printed).")
@click.option("--token", envvar="DEDUP_SERVE_TOKEN", metavar="T",
              help="Ask for this token once per browser (a login form); also $DEDUP_SERVE_TOKEN.")
@click.option("--read-only", is_flag=True, help="Show no actions and refuse every change; the store is opened read-only.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True,
              help="The pages' language (each reviewer can switch).")
@click.pass_obj
@handle_errors
def serve(obj: Context, table: str | None, host: str, port: int, token: str | None, read_only: bool,
          lang: str) -> None:
    """The caseworker's workbench: a local web application over the store.

    Groups (search, filters, sorts), a group's rows side by side with the differences marked and
    its links drawn with their similarity, and actions that stick (same / different, take a row
    out, split, merge, a note, undo), each recorded as a decision with the reviewer's name; a
    review queue of the weakest links and of calibration pairs. Loopback only unless --token is
    given; every form carries a CSRF token. Stop it with Ctrl-C.
    """
    from ..web.security import check_bind

    check_bind(host, token)  # before the config is read: the refusal needs nothing else
    try:
        from ..web import serve as run
    except ImportError as e:
        raise ConfigError(f"dedup serve needs the serve extra: pip install 'dedup[serve]' ({e.name} is missing)") from None
    run(obj.config(), table, host=host, port=port, token=token, read_only=read_only, lang=lang,
        announce=lambda url: click.echo(f"dedup workbench on {url} (Ctrl-C stops it)", err=True))
