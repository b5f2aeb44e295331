"""The YAML file becomes the typed configuration (dedup.config.model), checked whole before any work starts.

Every problem is collected with its key path (``tables.petitions.fields.title``) and reported
at once in one ConfigError, so a user fixes the file in one go.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import ConfigError
from ..index.blocks import BITS, MIN_KEY_BITS, BlockLayout
from .checks import integer as _integer, unknown_keys as _unknown
from .display import parse_display
from .environ import EnvReferences
from .lookback import parse_lookback, parse_reconcile_every
from .groups import parse_groups
from .match import parse_match
from .model import (DEFAULT_BATCH_SIZE, DEFAULT_BUCKET_SIZE, DEFAULT_CONFIG_NAME, DEFAULT_IDF, DEFAULT_MAX_CELL_CHARS,
                    DEFAULT_MAX_DISTANCE,
                    DEFAULT_MIN_FIELD_SIMILARITY, DEFAULT_MIN_SIMILARITY, DEFAULT_NGRAM, DEFAULT_SKETCH_BITS,
                    DEFAULT_STORE_URL, DEFAULT_TF, FIELD_KINDS, FINGERPRINTS, KEYS, MATCH_ROLES,
                    SEGMENTERS, SKETCH_BITS, TF_MODES, Config, FieldSpec, TableConfig, TextConfig)

_IDENTIFIER_MAX = 128
_SQLITE_RELATIVE = re.compile(r"sqlite(\+\w+)?:///(?!/)")
_MAX_FIELDS = BITS // MIN_KEY_BITS  # a fields fingerprint gives each field its own block of the 64 bits
log = logging.getLogger("dedup")


class _StrictLoader(yaml.SafeLoader):
    """yaml.SafeLoader that records every key given twice in one mapping, with its key path and lines."""

    def construct_document(self, node):
        self.duplicates = list(_duplicate_keys(node, ""))
        return super().construct_document(node)


def _duplicate_keys(node, path: str, seen: set | None = None):
    """(key path, message) for each key that appears again in its mapping, at any depth (an alias
    is looked at once, so a recursive one ends)."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        first: dict = {}
        for key, value in node.value:
            name = str(key.value) if isinstance(key, yaml.ScalarNode) else None
            where = f"{path}.{name}" if path else str(name)
            if name is not None and key.tag != "tag:yaml.org,2002:merge":
                if (key.tag, name) in first:
                    yield where, (f"given twice (lines {first[key.tag, name]} and {key.start_mark.line + 1}); "
                                  "keep one")
                else:
                    first[key.tag, name] = key.start_mark.line + 1
            yield from _duplicate_keys(value, where, seen)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _duplicate_keys(item, f"{path}[{i}]", seen)


class _Problems:
    """Collects every problem with its key path, then raises them together."""

    def __init__(self, origin: str):
        self.origin = origin
        self.items: list[str] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(f"{path}: {message}" if path else message)

    def raise_if_any(self) -> None:
        if self.items:
            raise ConfigError(f"{self.origin}: " + "; ".join(self.items))


def default_config_path() -> Path:
    return Path(os.environ.get("DEDUP_CONFIG") or DEFAULT_CONFIG_NAME)


def load_config(path: str | os.PathLike | None = None) -> Config:
    """Read and validate a YAML config file, its ``${VAR}`` references filled into the parsed strings."""
    p = Path(path) if path is not None else default_config_path()
    try:
        raw_text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {p} (pass -c FILE or set DEDUP_CONFIG)") from None
    except OSError as e:
        raise ConfigError(f"cannot read config file {p}: {e.strerror}") from None
    env = EnvReferences.of(raw_text)
    loader = _StrictLoader(env.text)
    try:
        data = env.fill(loader.get_single_data())
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise ConfigError(f"{p}: not valid YAML{where}: {getattr(e, 'problem', e)}") from None
    finally:
        loader.dispose()
    return parse_config(data, base_dir=p.resolve().parent, origin=str(p),
                        found=getattr(loader, "duplicates", []))


def parse_config(data: Any, base_dir: Path | None = None, origin: str = "config",
                 found: list[tuple[str, str]] | tuple[()] = ()) -> Config:
    """Turn parsed YAML into a Config, reporting every problem at once (with ``found``, the
    problems the YAML loader saw, such as a key given twice)."""
    problems = _Problems(origin)
    for path, message in found:
        problems.add(path, message)
    if not isinstance(data, dict):
        problems.add("", "the file must be a mapping with source, store and tables")
        problems.raise_if_any()
    _unknown(data, KEYS[""], "", problems)
    source = _parse_source(data, problems)
    store = _parse_store(data, problems)
    match = parse_match(_mapping(data, "match", problems, required=False), problems)
    groups = parse_groups(_mapping(data, "groups", problems, required=False), problems)
    simhash = _parse_simhash(data, problems)
    text = _parse_text(data, base_dir, problems)
    tables = _parse_tables(data, problems, source.pop("max_cell_chars"), match.method)
    problems.raise_if_any()
    return Config(
        source_url=_resolve_sqlite(source.pop("url"), base_dir), store_url=_resolve_sqlite(store.pop("url"), base_dir),
        **source, **store, **simhash, tables=tables, text=text, match=match, groups=groups,
        path=None if base_dir is None else base_dir)


def _parse_source(data: dict, problems: _Problems) -> dict:
    """source: its url, batch_size and max_cell_chars."""
    source = _mapping(data, "source", problems, required=True)
    _unknown(source, KEYS["source"], "source", problems)
    return {"url": _string(source, "url", "source", problems, required=True),
            "batch_size": _integer(source, "batch_size", "source", problems, default=DEFAULT_BATCH_SIZE, minimum=1),
            "max_cell_chars": _integer(source, "max_cell_chars", "source", problems, default=DEFAULT_MAX_CELL_CHARS,
                                       minimum=1)}


def _parse_store(data: dict, problems: _Problems) -> dict:
    """store: its url (default: an SQLite file) and bucket_size."""
    store = _mapping(data, "store", problems, required=False)
    _unknown(store, KEYS["store"], "store", problems)
    return {"url": _string(store, "url", "store", problems, required=False) or DEFAULT_STORE_URL,
            "bucket_size": _integer(store, "bucket_size", "store", problems, default=DEFAULT_BUCKET_SIZE, minimum=1)}


def _parse_simhash(data: dict, problems: _Problems) -> dict:
    """simhash: the Config fields of the SimHash recipe (distance, blocks, sketch bits, verification)."""
    simhash = _mapping(data, "simhash", problems, required=False)
    _unknown(simhash, KEYS["simhash"], "simhash", problems)
    max_distance = _integer(simhash, "max_distance", "simhash", problems, default=DEFAULT_MAX_DISTANCE, minimum=0)
    blocks = simhash.get("blocks", "auto") if isinstance(simhash, dict) else "auto"
    if blocks == "auto":
        blocks = None
    elif isinstance(blocks, bool) or not isinstance(blocks, int):
        problems.add("simhash.blocks", "must be auto or a whole number")
        blocks = None
    try:
        BlockLayout.for_distance(max_distance, blocks)
    except ValueError as e:
        problems.add("simhash.blocks" if blocks is not None else "simhash.max_distance", str(e))
    sketch_bits = _integer(simhash, "sketch_bits", "simhash", problems, default=DEFAULT_SKETCH_BITS, minimum=64)
    if sketch_bits not in SKETCH_BITS:
        problems.add("simhash.sketch_bits", f"must be one of {', '.join(map(str, SKETCH_BITS))}")
        sketch_bits = DEFAULT_SKETCH_BITS
    min_similarity = simhash.get("min_similarity", DEFAULT_MIN_SIMILARITY) if isinstance(simhash, dict) \
        else DEFAULT_MIN_SIMILARITY
    if min_similarity is not None and (isinstance(min_similarity, bool) or not isinstance(min_similarity, (int, float))
                                       or not -1 <= min_similarity <= 1):
        problems.add("simhash.min_similarity", "must be a number from -1 to 1, or null (no verification)")
        min_similarity = DEFAULT_MIN_SIMILARITY
    min_field_similarity = simhash.get("min_field_similarity", DEFAULT_MIN_FIELD_SIMILARITY) \
        if isinstance(simhash, dict) else DEFAULT_MIN_FIELD_SIMILARITY
    if isinstance(min_field_similarity, bool) or not isinstance(min_field_similarity, (int, float)) \
            or not -1 <= min_field_similarity <= 1:
        problems.add("simhash.min_field_similarity", "must be a number from -1 to 1")
        min_field_similarity = DEFAULT_MIN_FIELD_SIMILARITY
    return {"max_distance": max_distance, "blocks": blocks, "sketch_bits": sketch_bits,
            "min_similarity": None if min_similarity is None else float(min_similarity),
            "min_field_similarity": float(min_field_similarity)}


def _parse_text(data: dict, base_dir: Path | None, problems: _Problems) -> TextConfig:
    """text: stopwords file, segmenter, workers and the term weighting."""
    text = _mapping(data, "text", problems, required=False)
    _unknown(text, KEYS["text"], "text", problems)
    stopwords = _string(text, "stopwords", "text", problems, required=False)
    stop_path = _resolve_path(stopwords, base_dir) if stopwords else None
    if stop_path is not None and not stop_path.is_file():
        problems.add("text.stopwords", f"file not found: {stop_path}")
    hmm = text.get("hmm", True) if isinstance(text, dict) else True
    if not isinstance(hmm, bool):
        problems.add("text.hmm", "must be true or false")
    segmenter = text.get("segmenter", "auto") if isinstance(text, dict) else "auto"
    if segmenter not in SEGMENTERS:
        problems.add("text.segmenter", f"must be {', '.join(SEGMENTERS[:-1])} or {SEGMENTERS[-1]}")
        segmenter = "auto"
    workers = text.get("workers", "auto") if isinstance(text, dict) else "auto"
    if workers != "auto" and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        problems.add("text.workers", "must be auto or a whole number from 1 upwards")
        workers = "auto"
    idf = text.get("idf", DEFAULT_IDF) if isinstance(text, dict) else DEFAULT_IDF
    if not isinstance(idf, bool):
        problems.add("text.idf", "must be true or false")
        idf = DEFAULT_IDF
    tf = text.get("tf", DEFAULT_TF) if isinstance(text, dict) else DEFAULT_TF
    if tf not in TF_MODES:
        problems.add("text.tf", "must be log or raw")
        tf = DEFAULT_TF
    return TextConfig(stopwords=stop_path, hmm=hmm, segmenter=segmenter, workers=workers, idf=idf, tf=tf)


def _parse_tables(data: dict, problems: _Problems, max_cell_chars: int, method: str) -> dict[str, TableConfig]:
    """tables: each configured table (at least one)."""
    tables_raw = _mapping(data, "tables", problems, required=True)
    tables: dict[str, TableConfig] = {}
    if isinstance(tables_raw, dict) and not tables_raw and "tables" in data:
        problems.add("tables", "configure at least one table")
    for tname, traw in (tables_raw or {}).items():
        t = _parse_table(str(tname), traw, problems, max_cell_chars, method)
        if t is not None:
            tables[t.name] = t
    return tables


def _parse_table(name: str, raw: Any, problems: _Problems, max_cell_chars: int,
                 method: str = "minhash") -> TableConfig | None:
    path = f"tables.{name}"
    if len(name) > _IDENTIFIER_MAX:
        problems.add(path, f"table name longer than {_IDENTIFIER_MAX} characters")
    if not isinstance(raw, dict):
        problems.add(path, "must be a mapping with key and fields")
        return None
    _unknown(raw, KEYS["tables.<name>"], path, problems)
    key = _string(raw, "key", path, problems, required=True)
    watermark = _string(raw, "watermark", path, problems, required=False)
    fields_raw = raw.get("fields")
    fields: list[FieldSpec] = []
    if not isinstance(fields_raw, dict) or not fields_raw:
        problems.add(f"{path}.fields", "required: a mapping of column name to short or text")
    else:
        for col, spec in fields_raw.items():
            f = _parse_field(str(col), spec, f"{path}.fields.{col}", problems)
            if f is not None:
                fields.append(f)
    shown = parse_display(raw, path, problems, fields)
    fingerprint = raw.get("fingerprint", "auto")
    if fingerprint not in FINGERPRINTS:
        problems.add(f"{path}.fingerprint", "must be auto, row or fields")
        fingerprint = "auto"
    if fingerprint == "auto":  # records without text: compare field by field
        fingerprint = "fields" if len(fields) >= 2 and all(f.kind != "text" for f in fields) else "row"
        if fingerprint == "fields" and method == "simhash" and len(fields) > _MAX_FIELDS:
            fingerprint = "row"
            log.warning("%s: %d fields without text, more than a fields fingerprint takes (%d): comparing "
                        "whole rows; set fingerprint: row to say so", path, len(fields), _MAX_FIELDS)
    if fingerprint == "fields" and method == "simhash":
        try:
            BlockLayout.for_fields(len(fields))
        except ValueError as e:
            fix = f"keep at most {_MAX_FIELDS} fields" if len(fields) > _MAX_FIELDS else "add a field"
            problems.add(f"{path}.fingerprint", f"{e}: set fingerprint: row, or {fix}")
    if not key or not fields:
        return None
    return TableConfig(name=name, key=key, fields=tuple(fields), watermark=watermark, display=shown.columns,
                       date_column=shown.date_column, labels=shown.labels,
                       fingerprint=fingerprint, max_cell_chars=max_cell_chars,
                       watermark_lookback=parse_lookback(raw, path, problems),
                       reconcile_every=parse_reconcile_every(raw, path, problems))


def _parse_field(col: str, spec: Any, path: str, problems: _Problems) -> FieldSpec | None:
    if isinstance(spec, str):
        kind, weight = spec, None
    elif isinstance(spec, dict):
        _unknown(spec, KEYS["tables.<name>.fields.<column>"], path, problems)
        kind, weight, n = spec.get("kind"), spec.get("weight"), spec.get("n")
        role = spec.get("match")
        if role is not None and role not in MATCH_ROLES:
            problems.add(f"{path}.match", f"must be one of {', '.join(MATCH_ROLES)}")
            return None
    else:
        problems.add(path, "must be short, text, chars, or {kind: short|text|chars, weight: N}")
        return None
    if isinstance(spec, str):
        n = role = None
    if kind not in FIELD_KINDS:
        problems.add(f"{path}" + (".kind" if isinstance(spec, dict) else ""),
                     f"unknown kind {kind!r} (use short, text or chars)")
        return None
    if kind == "chars":
        if n is None:
            n = DEFAULT_NGRAM
        elif isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 8:
            problems.add(f"{path}.n", "must be a whole number from 1 to 8")
            return None
    elif n is not None:
        problems.add(f"{path}.n", "only a chars field has n")
        return None
    if weight is None:
        weight = FIELD_KINDS[kind]
    elif isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight > 0:
        problems.add(f"{path}.weight", "must be a number greater than 0")
        return None
    return FieldSpec(name=col, kind=kind, weight=float(weight), n=n, match=role)


def _mapping(raw: Any, key: str, problems: _Problems, required: bool) -> dict:
    if not isinstance(raw, dict) or key not in raw or raw[key] is None:
        if required:
            problems.add(key, "required")
        return {}
    value = raw[key]
    if not isinstance(value, dict):
        problems.add(key, "must be a mapping")
        return {}
    return value


def _string(raw: dict, key: str, path: str, problems: _Problems, required: bool) -> str | None:
    value = raw.get(key) if isinstance(raw, dict) else None
    if value is None or value == "":
        if required:
            problems.add(f"{path}.{key}", "required")
        return None
    if not isinstance(value, str):
        problems.add(f"{path}.{key}", "must be a string")
        return None
    return value


def _resolve_path(value: str, base_dir: Path | None) -> Path:
    p = Path(value).expanduser()
    return p if p.is_absolute() or base_dir is None else base_dir / p


def _resolve_sqlite(url: str | None, base_dir: Path | None) -> str:
    """Make a relative SQLite file path relative to the config file, not to the working directory.

    A SQLite URI filename (``sqlite:///file:store.db?mode=ro``) stays one, its path resolved the
    same way, and gets ``uri=true`` so that SQLite reads its parameters.
    """
    if not url:
        return url or ""
    m = _SQLITE_RELATIVE.match(url)
    if m:
        path, sep, query = url[m.end():].partition("?")
        if path.startswith("file:"):
            rest = path[len("file:"):]
            if base_dir is not None and not rest.startswith("/") and not rest.startswith(":memory:"):
                path = f"file:{base_dir}/{rest}"
            if not re.search(r"(^|&)uri=", query):
                query = "&".join(filter(None, [query, "uri=true"]))
            return m.group(0) + path + "?" + query
        if base_dir is not None and path and path != ":memory:":
            return m.group(0) + str(base_dir / path) + sep + query
    return url
