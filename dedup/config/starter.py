"""A starter config as YAML text: what `dedup init` guessed about a table, each choice with its reason.

dedup.db.guess fills a ``Starter`` from the source table; ``render`` writes it as a commented file
that ``load_config`` reads as it is (a test runs ``dedup full`` from it), and ``explain`` says the
same in lines for the terminal. Plain data in, text out: no database here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

PASSWORD_VAR = "DEDUP_SOURCE_PASSWORD"  # what the source URL's password is written as: ${DEDUP_SOURCE_PASSWORD}
_PLAIN = re.compile(r"[^\W\d]\w*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"}


@dataclass(frozen=True)
class Choice:
    """One column's part in the config (a field spec, the key, the watermark) and why."""

    column: str
    spec: object  # a field: "short", "text" or {kind:, n:, weight:}; None for key, watermark, left out
    why: str


@dataclass
class Starter:
    """Everything `dedup init` decided for one table."""

    table: str
    source_url: str  # the password already replaced by a ${...} reference
    store_url: str
    key: Choice
    watermark: Choice | None
    no_watermark: str = ""  # why there is none
    fields: list[Choice] = field(default_factory=list)
    left_out: list[Choice] = field(default_factory=list)
    display: list[str] = field(default_factory=list)
    sampled: int = 0  # rows looked at
    password_hidden: bool = False  # the URL had a password, now ${PASSWORD_VAR}
    date_column: Choice | None = None  # when a row was filed, shown in reports


def name(text: str) -> str:
    """A column or table name as a YAML key or list item: plain where YAML reads it back as
    the same string, else double-quoted (JSON's quoting is YAML's)."""
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def _spec(spec: object) -> str:
    if isinstance(spec, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in spec.items()) + "}"
    return str(spec)


def render(s: Starter) -> str:
    """The config file's text."""
    lines = [f"# Written by `dedup init` for table {s.table!r} from {s.sampled:,} sampled rows: a starting",
             "# point; check the fields and the left-out columns. Every key: config.example.yaml.",
             "# Relative SQLite paths are relative to this file.", "source:"]
    if s.password_hidden:
        lines.append(f"  # the password is read from the environment: set {PASSWORD_VAR} before running dedup")
    lines += [f"  url: {json.dumps(s.source_url, ensure_ascii=False)}", "store:",
              "  # a SQLite file beside this config; a PostgreSQL, MySQL or mongodb:// URL works too",
              f"  url: {json.dumps(s.store_url, ensure_ascii=False)}", "tables:", f"  {name(s.table)}:",
              f"    key: {name(s.key.column)}  # {s.key.why}"]
    if s.watermark is not None:
        lines.append(f"    watermark: {name(s.watermark.column)}  # {s.watermark.why}")
    else:
        lines.append(f"    # watermark: none. {s.no_watermark}")
    lines.append("    fields:  # short: the whole value; chars: character n-grams; text: words of long text")
    for f in s.fields:
        lines.append(f"      {name(f.column)}: {_spec(f.spec)}  # {f.why}")
    for f in s.left_out:
        lines.append(f"      # {name(f.column)}: left out, {f.why}")
    lines.append(f"    display: [{', '.join(name(c) for c in s.display)}]  # shown with each row in reports")
    if s.date_column is not None:
        lines.append(f"    date_column: {name(s.date_column.column)}  # {s.date_column.why}")
    lines.append("    # labels: {column: plain label}  # what reports call a column instead of its name")
    return "\n".join(lines) + "\n"


def explain(s: Starter) -> list[str]:
    """What was guessed and why, in lines for the terminal."""
    out = [f"table {s.table}: {s.sampled:,} rows sampled", f"  key: {s.key.column} ({s.key.why})"]
    if s.watermark is not None:
        out.append(f"  watermark: {s.watermark.column} ({s.watermark.why})")
    else:
        out.append(f"  watermark: none ({s.no_watermark})")
    out += [f"  field {f.column}: {_spec(f.spec)} ({f.why})" for f in s.fields]
    out += [f"  left out {f.column}: {f.why}" for f in s.left_out]
    out.append(f"  display: {', '.join(s.display)}")
    if s.date_column is not None:
        out.append(f"  date column: {s.date_column.column} ({s.date_column.why})")
    if s.password_hidden:
        out.append(f"  the source password is not written: the config reads it from ${{{PASSWORD_VAR}}}; "
                   f"set {PASSWORD_VAR} to it (percent-encoded, as in the URL) before running dedup")
    return out
