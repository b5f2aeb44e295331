"""Running the workbench: the socket is bound (and the address announced) before uvicorn starts,
so a caller that reads the announcement knows the port answers, and ``port=0`` picks a free one."""

from __future__ import annotations

import socket
from typing import Callable

from ..config.model import Config
from ..errors import DedupError
from .app import LOOPBACK_HOSTS, create_app
from .security import check_bind, is_loopback


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as e:
        sock.close()
        raise DedupError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(128)
    return sock


def url_of(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(config: Config, table: str | None = None, *, host: str = "127.0.0.1", port: int = 8765,
          token: str | None = None, read_only: bool = False, lang: str = "zh",
          announce: Callable[[str], None] = print) -> None:
    """Serve the workbench until interrupted. Refuses a non-loopback ``host`` without ``token``."""
    import uvicorn

    check_bind(host, token)
    config.table(table)  # a wrong table name is one line before anything listens
    app = create_app(config, table, token=token, read_only=read_only, lang=lang,
                     allowed_hosts=LOOPBACK_HOSTS if is_loopback(host) else ["*"])
    sock = bind(host, port)
    announce(url_of(sock, host))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
