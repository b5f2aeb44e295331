"""The MongoDB store's documents and URL handling: plain functions the store and its block writer share."""

from __future__ import annotations

import datetime as _dt
import functools
import json
import re
from urllib.parse import unquote, urlsplit

from bson.binary import Binary
from bson.errors import BSONError
from bson.int64 import Int64
from pymongo.errors import PyMongoError

from ..db.masking import mask_secrets
from ..errors import ConfigError, StoreError
from ..index.groups import Group, Pair
from ..index.keys import key_sort
from .model import GroupChange, Skipped, blob_words, to_unsigned

DEFAULT_TIMEOUT_MS = 5000


def guarded(fn):
    """Driver errors become one-line StoreErrors with the URL's password masked."""
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except (PyMongoError, BSONError, OverflowError) as e:
            raise StoreError(f"store {mask_secrets(self.url)}: {describe(e)}") from None
    return wrapper


def database_name(url: str) -> str:
    try:
        path = unquote(urlsplit(url).path.lstrip("/"))
    except ValueError as e:
        raise ConfigError(f"store.url: cannot use {mask_secrets(url)}: {e}") from None
    if not path:
        raise StoreError(f"store {mask_secrets(url)}: name a database in the URL, e.g. mongodb://host:27017/dedup")
    return path


def client_options(url: str) -> dict:
    """A short server-selection timeout, so a server that is down fails the run at once."""
    if re.search(r"[?&]serverSelectionTimeoutMS=", url, re.IGNORECASE):
        return {"appname": "dedup"}
    return {"appname": "dedup", "serverSelectionTimeoutMS": DEFAULT_TIMEOUT_MS}


def describe(e: BaseException) -> str:
    """The driver's message on one line, without the topology dump, secrets masked."""
    text = " ".join(str(e).split()) or type(e).__name__
    for cut in (", Timeout: ", ", full error: ", " (configured timeouts"):
        text = text.split(cut)[0]
    return mask_secrets(text[:500])


KEYS_CHUNK = 50  # row keys, group ids or names per $in (SecantusDB tests each found document against the whole list)


def blocks_name(table: str) -> str:
    if not table or "$" in table or "\x00" in table:
        raise StoreError(f"table name {table!r} cannot name a MongoDB collection")
    return f"blocks.{table}"


def chunks(items: list, size: int):
    for start in range(0, len(items), size):
        yield items[start:start + size]




def fingerprint_doc(table: str, key: str, signed_fp: int, sig: bytes | None, wm: str | None = None) -> dict:
    """A row's document; ``sig``: its sketch words as little-endian uint64 bytes (model.sketch_blobs);
    ``wm``: the row's watermark text when it was fingerprinted (schema version 4)."""
    doc = {"table": table, "key": key, "fp": Int64(signed_fp)}
    if sig is not None:
        doc["sig"] = Binary(sig)
    if wm is not None:
        doc["wm"] = wm
    return doc


def fingerprint_docs(table: str, keys, signed_fps, sigs, wms=None):
    """Rows' documents (fingerprint_doc), each with its estimated BSON bytes, for MongoStore._bulk."""
    wms = wms or [None] * len(keys)
    return ((fingerprint_doc(table, k, fp, sig, wm), 96 + (len(sig) if sig is not None else 0))
            for k, fp, sig, wm in zip(keys, signed_fps, sigs, wms))


def sketch_of(doc: dict) -> tuple[int, ...] | None:
    """The unsigned sketch words of a fingerprint document: ``sig``, or the ``sketch`` list of Int64
    of documents written before schema version 3; None for a row without a sketch."""
    if doc.get("sig") is not None:
        return blob_words(bytes(doc["sig"]))
    if doc.get("sketch"):
        return tuple(to_unsigned(w) for w in doc["sketch"])
    return None


def group_doc(table: str, g: Group, run_id: int) -> dict:
    return {"table": table, "group_id": int(g.id), "size": g.size,
            "members": [{"key": k, "distance": int(d)} for k, d in zip(g.keys, g.distances)],
            "pairs": [{"a": p.a, "b": p.b, "distance": int(p.distance)} for p in g.pairs],
            "created_run": int(g.created_run if g.created_run is not None else run_id),
            "updated_run": int(g.updated_run if g.updated_run is not None else run_id),
            "merged_from": [int(i) for i in g.merged_from]}


def group_of(d: dict) -> Group:
    members = sorted(d["members"], key=lambda m: key_sort(m["key"]))
    pairs = sorted((Pair(p["a"], p["b"], p["distance"]) for p in d["pairs"]), key=lambda p: (key_sort(p.a), key_sort(p.b)))
    return Group(int(d["group_id"]), [m["key"] for m in members], [m["distance"] for m in members], pairs,
                 d.get("created_run"), d.get("updated_run"), list(d.get("merged_from") or []))


def change_doc(table: str, run_id: int, c: GroupChange) -> dict:
    """What run ``run_id`` did to group ``c.group``: ``{table, run, group, kinds, size, added, ...}``."""
    return {"table": table, "run": int(run_id), "group": int(c.group), "kinds": list(c.kinds), **plain(c.detail())}


def skipped_doc(table: str, s: Skipped, wm: str | None = None) -> dict:
    """A skipped row's document; ``wm`` as in fingerprint_doc (an incremental run sets it last)."""
    doc = {"table": table, "key": s.key, "reason": s.reason, "detail": (s.detail or "")[:2000]}
    if wm is not None:
        doc["wm"] = wm
    return doc


def plain(value):
    """JSON-shaped copy (as the SQL store keeps it), so only BSON-safe values reach a document."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as e:
        raise StoreError(f"cannot store {value!r}: {e}") from None


def utc(when: _dt.datetime | None) -> _dt.datetime | None:
    """Naive UTC at BSON's millisecond precision, so what is read back equals what was stored."""
    if when is None:
        return None
    if when.tzinfo is not None:
        when = when.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    return when.replace(microsecond=when.microsecond // 1000 * 1000)

