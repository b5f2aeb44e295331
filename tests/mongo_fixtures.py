"""MongoDB fixtures: mongomock always; a real server only when DEDUP_TEST_MONGO_URI is set.

A live test gets a fresh database, dropped afterwards. Import the fixtures into a test module
(``from mongo_fixtures import mongo_live_url``) so pytest sees them.
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest

MONGO_URI = os.environ.get("DEDUP_TEST_MONGO_URI")
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


@pytest.fixture
def mongo_live_url():
    if not MONGO_URI:
        pytest.skip("DEDUP_TEST_MONGO_URI not set")
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
