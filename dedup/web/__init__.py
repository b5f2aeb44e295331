"""`dedup serve`: the caseworker's workbench, a local web application over the store.

``create_app(config, table)`` is the Starlette application (for tests, or to mount elsewhere);
``serve(config, table, host=, port=, token=, read_only=, lang=)`` runs it with uvicorn.
Needs the ``serve`` extra (starlette, jinja2, uvicorn, python-multipart); the package itself
imports without it (its templates are package data a wheel check reads), and the two names load
their framework only when first used.
"""

__all__ = ["create_app", "serve"]


def __getattr__(name):
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "serve":
        from .server import serve

        return serve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
