"""`dedup report`'s text: a table's groups read from the store (and the source) and rendered in
one format; the command line only prints it."""

from __future__ import annotations

import shutil

from ..config.model import Config
from .build import build_report
from .labels import pick_lang
from .opened import opened
from .render import render


def report_text(config: Config, table: str | None, fmt: str, with_source: bool = True,
                since_last_run: bool = False, *, sort: str | None = None, min_size: int = 2,
                limit: int | None = None, lang: str | None = None, run: int | None = None,
                since_run: int | None = None, group: int | None = None) -> tuple[str, int]:
    """The rendered report and its number of groups. ``sort`` None: largest groups first for people
    (table, html), by group id for machines (json, csv). ``lang`` None: html and csv in the data's
    language (Chinese text: zh), else the locale's; the terminal table is in English."""
    tcfg = config.table(table)
    texts = tuple(f.name for f in tcfg.fields if f.kind == "text") if fmt == "html" else ()  # excerpts
    sort = sort or ("size" if fmt in ("table", "html") else None)
    with opened(config, table, with_source=with_source, read_only=True) as o:
        data = build_report(o.store, config, tcfg, o.source, since_last_run=since_last_run, sort=sort,
                            min_size=min_size, limit=limit, extra_columns=texts, run=run, since_run=since_run,
                            scorer=o.scorer, group=group)
    text = render(data, fmt, tcfg.display, width=shutil.get_terminal_size((100, 24)).columns,
                  lang=pick_lang(lang, report=data), excerpt=texts)
    return text, len(data["groups"])
