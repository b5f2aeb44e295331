"""Engines for configured URLs and one-line driver errors, shared by the source and the SQL store."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..errors import ConfigError
from .masking import mask_secrets


def make_engine(url: str, what: str) -> sa.Engine:
    """An engine for a configured URL; a malformed URL or missing driver is a configuration error."""
    try:
        u = sa.make_url(url)
        if u.get_backend_name() in ("mysql", "mariadb") and "charset" not in u.query:
            u = u.update_query_dict({"charset": "utf8mb4"})  # Chinese text needs 4-byte UTF-8
        kwargs = {"pool_pre_ping": True} if u.get_backend_name() != "sqlite" else {}
        return sa.create_engine(u, **kwargs)
    except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ImportError, ValueError) as e:
        raise ConfigError(f"{what}.url: cannot use {mask_secrets(url)!s}: {first_line(e)}") from None


def first_line(e: BaseException) -> str:
    """The first meaningful line of a (driver) error, with secrets masked."""
    inner = getattr(e, "orig", None) or e
    text = str(inner).strip().splitlines()
    return mask_secrets(text[0] if text else type(inner).__name__)
