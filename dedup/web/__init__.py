"""`dedup serve`: the caseworker's workbench, a local web application over the store.

``create_app(config, table)`` is the Starlette application (for tests, or to mount elsewhere);
``serve(config, table, host=, port=, token=, read_only=, lang=)`` runs it with uvicorn.
Needs the ``serve`` extra (starlette, jinja2, uvicorn, python-multipart).
"""

from .app import create_app
from .server import serve

__all__ = ["create_app", "serve"]
