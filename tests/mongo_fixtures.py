"""MongoDB fixtures: mongomock always; a real server only when DEDUP_TEST_MONGO_URI is set.

A live test gets a fresh database, dropped afterwards. Import the fixtures into a test module
(``from mongo_fixtures import mongo_live_url``) so pytest sees them. Without the variable, or with
a server that does not answer a ping, a live test is skipped with the reason, except under CI
(``CI`` set), where it fails: CI starts a server and its live tests must run (tests/conftest.py
marks them ``mongo_live`` and counts them in one summary line).
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest

MONGO_URI = os.environ.get("DEDUP_TEST_MONGO_URI")
IN_CI = bool(os.environ.get("CI"))
PING_TIMEOUT_MS = 10_000
MOCK_URL = "mongodb://mongomock.invalid:27017/dedup_test"  # only names the database: the client is mongomock's


def _mongomock_accepts_sort() -> None:
    """pymongo >= 4.11 passes ``sort=`` to the bulk builder of UpdateOne/ReplaceOne; mongomock 4.3
    predates it. Accept it when unused, as the server would."""
    try:
        from mongomock.collection import BulkOperationBuilder
    except ImportError:
        return
    for name in ("add_update", "add_replace"):
        original = getattr(BulkOperationBuilder, name)
        if getattr(original, "_drops_sort", False):
            continue

        def drop_sort(self, *args, _original=original, sort=None, **kwargs):
            if sort is not None:
                raise NotImplementedError("mongomock: sort in a bulk update")
            return _original(self, *args, **kwargs)

        drop_sort._drops_sort = True
        setattr(BulkOperationBuilder, name, drop_sort)


_mongomock_accepts_sort()


def with_database(uri: str, name: str) -> str:
    parts = urlsplit(uri)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


_unreachable: dict[str, str | None] = {}


def server_problem(uri: str) -> str | None:
    """None when the server at ``uri`` answers a ping, else why not (asked once per URI)."""
    if uri not in _unreachable:
        import pymongo

        client = pymongo.MongoClient(uri, serverSelectionTimeoutMS=PING_TIMEOUT_MS)
        try:
            client.admin.command("ping")
            _unreachable[uri] = None
        except Exception as e:  # any driver error means unreachable here
            _unreachable[uri] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        finally:
            client.close()
    return _unreachable[uri]


def _require_server() -> None:
    why = "DEDUP_TEST_MONGO_URI not set" if not MONGO_URI else server_problem(MONGO_URI)
    if why:
        if IN_CI:
            pytest.fail(f"a live MongoDB server is required in CI: {why}")
        pytest.skip(why if not MONGO_URI else f"MongoDB not reachable at {MONGO_URI}: {why}")


@pytest.fixture
def mongo_live_url():
    _require_server()
    import pymongo

    name = "dedup_t_" + uuid.uuid4().hex[:12]
    url = with_database(MONGO_URI, name)
    yield url
    client = pymongo.MongoClient(url, serverSelectionTimeoutMS=5000)
    try:
        client.drop_database(name)
    finally:
        client.close()


def mongo_opener(request, kind: str):
    """A function opening (and re-opening) one fresh MongoDB store: ``open(**open_store kwargs)``."""
    if kind == "mongomock":
        import mongomock

        from dedup.store.mongo import MongoStore

        client = mongomock.MongoClient()
        return lambda **kw: MongoStore(MOCK_URL, client=client, **kw)
    from dedup.store import open_store

    url = request.getfixturevalue("mongo_live_url")
    return lambda **kw: open_store(url, **kw)


def mongomock_store(client=None, **kw):
    """A MongoStore on mongomock (on ``client``, else a new one), for a test to pass to run_full,
    run_incremental or table_run (``store=``) instead of patching the driver's client."""
    import mongomock

    from dedup.store.mongo import MongoStore

    return MongoStore(MOCK_URL, client=mongomock.MongoClient() if client is None else client, **kw)


def mongomock_url(monkeypatch) -> str:
    """MOCK_URL, with every MongoStore the test opens given one shared mongomock client."""
    import mongomock

    client = mongomock.MongoClient()
    monkeypatch.setattr("dedup.store.mongo.MongoClient", lambda *a, **k: client)
    return MOCK_URL


def store_url_of(kind: str, request, tmp_path, monkeypatch) -> str:
    """A store of ``kind``: ``sqlite`` (a file in tmp_path), ``mongomock``, or a server fixture's
    (``mongo_live``, ``postgres``, ``mariadb``: the fixture ``<kind>_url``)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    if kind == "mongomock":
        return mongomock_url(monkeypatch)
    return request.getfixturevalue(f"{kind}_url")
