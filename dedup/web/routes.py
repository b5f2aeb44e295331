"""The workbench's pages and forms. Reads run in Starlette's thread pool (sync handlers); every
POST checks the CSRF token and the read-only switch first (``_form``), needs a reviewer's name,
and does one action of dedup.web.actions, then sends the browser back to what it was looking at."""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from collections.abc import Set as AbstractSet
from ..errors import ConfigError
from ..index.decisions import VERDICTS
from ..runs import actions
from ..runs.calibrate import candidates, sample
from ..runs.review_pairs import group_pairs
from .app import Site, reviewer_of, set_cookie, set_reviewer
from .i18n import LANGS, MESSAGES, translator
from .listing import PAGE, Filters, counts, is_weak, select, summaries
from .pages import group_view, pair_view
from .security import AUTH_COOKIE, LANG_COOKIE
from .workbench import date_column, label_of

CALIBRATE_PER_BIN = 5
SOURCE = "web"  # the decisions' source: made in the workbench


def safe_next(value: str | None, default: str = "/") -> str:
    """A path on this site to go back to (never another site's address)."""
    value = value or ""
    return value if value.startswith("/") and not value.startswith(("//", "/\\")) else default


def _back(path: str, **params) -> RedirectResponse:
    params = {k: v for k, v in params.items() if v not in (None, "")}
    return RedirectResponse(path + ("?" + urlencode(params) if params else ""), status_code=303)


def _first_columns(bench) -> list[dict]:
    """The list's columns of a group's first row: its first short field and its first text."""
    fields = bench.tcfg.fields
    names = [next((f.name for f in fields if f.kind == "short"), None), next((f.name for f in fields if f.kind != "short"), None)]
    return [{"name": n, "label": label_of(bench.tcfg, n)} for n in names if n]


def _date_label(bench) -> str | None:
    dc = date_column(bench.tcfg)
    label = label_of(bench.tcfg, dc) if dc else None
    return label if label != dc else None


class _Handlers:
    """The workbench's handlers, one method a page or form, over one Site."""

    def __init__(self, site: Site):
        self.site, self.bench, self.config = site, site.bench, site.bench.config

    def t_of(self, request: Request):
        return translator(self.site.lang_of(request))

    async def _form(self, request: Request):
        t = self.t_of(request)
        if self.bench.read_only:
            raise HTTPException(403, t("read_only"))
        form = await request.form()
        if not self.site.guard.csrf_ok(request.state.session, form.get("csrf")):
            raise HTTPException(403, t("csrf"))
        return form

    def groups_page(self, request: Request):
        f = Filters.parse(request.query_params)
        with self.bench.opened() as (store, source, scorer):
            if store.state(self.bench.table) is None:
                return self.site.render(request, "groups.html", empty=True, f=f)
            found = self.bench.cached("summaries", self.bench.stamp(store),
                                      lambda: summaries(self.bench, store, source, scorer))
            threshold = scorer.threshold if scorer is not None else None
            shown = select(self.bench, store, found, f, threshold)
            runs = [r.id for r in store.runs(self.bench.table, 30) if r.status == "ok"]
        pages = max(1, -(-len(shown) // PAGE))
        page = min(f.page, pages)
        return self.site.render(request, "groups.html", empty=False, f=f, counts=counts(found, shown, threshold),
                                groups=shown[(page - 1) * PAGE:page * PAGE], page=page, pages=pages, runs=runs,
                                threshold=threshold, weak=is_weak, first_cols=_first_columns(self.bench),
                                date_label=_date_label(self.bench),
                                params={k: v for k, v in request.query_params.items() if k != "page"})

    def group_page(self, request: Request):
        gid = request.path_params["gid"]
        with self.bench.opened() as (store, source, scorer):
            view = group_view(self.bench, store, source, scorer, gid)
        if view is None:
            return self.site.render(request, "error.html", status=404, message=self.t_of(request)("gone"))
        return self.site.render(request, "group.html", g=view,
                                notes=actions.group_notes(self.config, self.bench.table, gid),
                                done=request.query_params.get("done"))

    def _where_now(self, keys: list[str], leaving: AbstractSet[str] = frozenset()) -> int | None:
        """The group the first of ``keys`` that stays is in now (else any of them is in)."""
        with self.bench.opened() as (store, _source, _scorer):
            found = store.group_ids_of(self.bench.table, keys)
        stays = [found[k] for k in keys if k in found and k not in leaving]
        return stays[0] if stays else next(iter(found.values()), None)

    def _groups(self, ids: list[int]):
        with self.bench.opened() as (store, _source, _scorer):
            return store.groups(self.bench.table, ids)

    async def group_action(self, request: Request):
        gid, what = request.path_params["gid"], request.path_params["what"]
        form = await self._form(request)
        reviewer = reviewer_of(request)
        if not reviewer:
            return _back("/name", next=f"/group/{gid}")
        found = await run_in_threadpool(self._groups, [gid])
        if not found:
            raise HTTPException(404, self.t_of(request)("gone"))
        keys = found[0].keys
        note = (form.get("note") or "").strip() or None
        leaving = await self._act(request, what, form, gid, keys, reviewer, note)
        now = await run_in_threadpool(self._where_now, keys, leaving)
        return _back(f"/group/{now}" if now is not None else "/", done=what)

    async def _act(self, request: Request, what: str, form, gid: int, keys: list[str], reviewer: str,
                   note: str | None) -> set[str]:
        """Do action ``what`` on group ``gid`` (rows ``keys``); the rows it takes out of the group."""
        if what == "pair":
            a, b, verdict = form.get("a"), form.get("b"), form.get("verdict")
            if a not in keys or b not in keys or a == b or verdict not in VERDICTS:
                raise ConfigError("choose two rows of this group and same or different")
            await run_in_threadpool(actions.mark, self.config, self.bench.table, a, b, verdict, reviewer=reviewer,
                                    source=SOURCE, note=note)
            return {b} if verdict != "same" else set()
        elif what == "take-out":
            key = form.get("key")
            if key not in keys:
                raise ConfigError(f"row {key!r} is not in group {gid}")
            await run_in_threadpool(actions.take_out, self.config, self.bench.table, key, reviewer=reviewer,
                                    source=SOURCE, note=note)
            return {key}
        elif what == "split":
            parts: dict[str, list[str]] = {}
            for key, part in zip(form.getlist("key"), form.getlist("part")):
                if key in keys:
                    parts.setdefault(part, []).append(key)
            if len(parts) < 2:
                raise ConfigError("put the rows in at least two parts to split the group")
            await run_in_threadpool(actions.split, self.config, self.bench.table, list(parts.values()),
                                    reviewer=reviewer, source=SOURCE, note=note)
        elif what == "merge":
            try:
                other = int(form.get("other") or "")
            except ValueError:
                raise ConfigError("give the number of the group to merge with") from None
            await run_in_threadpool(actions.merge, self.config, self.bench.table, gid, other, reviewer=reviewer,
                                    source=SOURCE, note=note)
        elif what == "note":
            text = (form.get("text") or "").strip()
            if not text:
                raise ConfigError("write the note first")
            await run_in_threadpool(actions.note_group, self.config, self.bench.table, gid, text, reviewer=reviewer)
        else:
            raise HTTPException(404, self.t_of(request)("not_found"))
        return set()

    async def undo(self, request: Request):
        form = await self._form(request)
        await run_in_threadpool(actions.undo_last, self.config, self.bench.table, reviewer=reviewer_of(request) or None)
        return _back(safe_next(form.get("next")), done="undo")

    def _queue_pairs(self, store, scorer, mode: str):
        if mode != "calibrate":
            return group_pairs(store, scorer, self.bench.table)
        if scorer is None:
            return []
        runs = [r for r in store.runs(self.bench.table, 50) if r.kind != "decide" and r.status == "ok"]
        cands = self.bench.cached("candidates", runs[0].id if runs else None, lambda: candidates(scorer))
        decided = {d.pair for d in store.decisions(self.bench.table)}
        return sample(cands, scorer.threshold, CALIBRATE_PER_BIN, 0, decided)

    def queue_page(self, request: Request):
        mode = "calibrate" if request.query_params.get("mode") == "calibrate" else "weak"
        f = Filters.parse({"page": request.query_params.get("at")})
        with self.bench.opened() as (store, source, scorer):
            pairs = self._queue_pairs(store, scorer, mode) if store.state(self.bench.table) is not None else []
            at = min(f.page, len(pairs)) if pairs else 0
            view = pair_view(self.bench, store, source, scorer, *pairs[at - 1]) if pairs else None
        return self.site.render(request, "queue.html", mode=mode, view=view, at=at, total=len(pairs))

    async def queue_answer(self, request: Request):
        form = await self._form(request)
        reviewer = reviewer_of(request)
        mode, at = form.get("mode") or "weak", form.get("at") or "1"
        if not reviewer:
            return _back("/name", next=f"/queue?mode={mode}&at={at}")
        if form.get("verdict") not in VERDICTS or not form.get("a") or not form.get("b") or form.get("a") == form.get("b"):
            raise ConfigError("answer same or different on two rows")
        await run_in_threadpool(actions.mark, self.config, self.bench.table, form.get("a"), form.get("b"),
                                form.get("verdict"), reviewer=reviewer, source=SOURCE)
        return _back("/queue", mode=mode, at=at, done="mark")

    def history_page(self, request: Request):
        with self.bench.opened() as (store, _s, _sc):
            found = list(reversed(store.decisions(self.bench.table)))[:100]
        return self.site.render(request, "history.html", decisions=found,
                                actions_done=actions.history(self.config, self.bench.table), kinds=MESSAGES)

    def name_page(self, request: Request):
        return self.site.render(request, "name.html", next=safe_next(request.query_params.get("next")))

    async def name_post(self, request: Request):
        form = await request.form()
        if not self.site.guard.csrf_ok(request.state.session, form.get("csrf")):
            raise HTTPException(403, self.t_of(request)("csrf"))
        name = (form.get("name") or "").strip()
        if not name:
            return _back("/name", next=safe_next(form.get("next")))
        response = _back(safe_next(form.get("next")))
        set_reviewer(self.site, response, name)
        return response

    def login_page(self, request: Request):
        return self.site.render(request, "login.html", next=safe_next(request.query_params.get("next")), wrong=False)

    async def login_post(self, request: Request):
        form = await request.form()
        if not self.site.guard.csrf_ok(request.state.session, form.get("csrf")):
            raise HTTPException(403, self.t_of(request)("csrf"))
        if not self.site.guard.token_ok(form.get("token")):
            return self.site.render(request, "login.html", status=403, next=safe_next(form.get("next")), wrong=True)
        response = _back(safe_next(form.get("next")))
        set_cookie(self.site, response, AUTH_COOKIE, self.site.guard.auth_cookie())
        return response

    def lang_switch(self, request: Request):
        response = _back(safe_next(request.query_params.get("next")))
        if request.query_params.get("to") in LANGS:
            set_cookie(self.site, response, LANG_COOKIE, request.query_params["to"])
        return response


def routes(site: Site) -> list[Route]:
    h = _Handlers(site)
    return [
        Route("/", h.groups_page),
        Route("/group/{gid:int}", h.group_page),
        Route("/group/{gid:int}/{what}", h.group_action, methods=["POST"]),
        Route("/undo", h.undo, methods=["POST"]),
        Route("/queue", h.queue_page),
        Route("/queue", h.queue_answer, methods=["POST"]),
        Route("/history", h.history_page),
        Route("/name", h.name_page),
        Route("/name", h.name_post, methods=["POST"]),
        Route("/login", h.login_page),
        Route("/login", h.login_post, methods=["POST"]),
        Route("/lang", h.lang_switch),
    ]
