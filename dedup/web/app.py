"""The workbench as a Starlette application: server-rendered Jinja2 pages (every value escaped),
one middleware for the session cookie, sign-in and security headers, and the routes of
dedup.web.routes. ``create_app`` is the library entry point; `dedup serve` runs it with uvicorn."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote, unquote

from jinja2 import Environment, FileSystemLoader
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from ..config.model import Config
from ..errors import DedupError
from ..report.labels import LABELS, percent, rule_text
from .i18n import LANGS, measure_in, translator
from .security import AUTH_COOKIE, LANG_COOKIE, REVIEWER_COOKIE, SESSION_COOKIE, Guard
from .workbench import Workbench

HERE = Path(__file__).parent
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
OPEN_PATHS = ("/login", "/static/", "/lang")  # reachable before signing in
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class Site:
    """What every request shares: the table, the guard, the language default and the templates."""

    def __init__(self, bench: Workbench, guard: Guard, lang: str, secure_cookies: bool = False):
        self.bench = bench
        self.guard = guard
        self.lang = lang
        self.secure_cookies = secure_cookies
        self.env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True,
                               trim_blocks=True, lstrip_blocks=True)

    def lang_of(self, request: Request) -> str:
        chosen = request.cookies.get(LANG_COOKIE)
        return chosen if chosen in LANGS else self.lang

    def render(self, request: Request, template: str, status: int = 200, **values) -> HTMLResponse:
        lang = self.lang_of(request)
        html = self.env.get_template(template).render(
            t=translator(lang), lang=lang, measure_in=lambda m: measure_in(lang, m), percent=percent,
            rule_text=lambda rule, bar=None: _rule_words(lang, rule, bar),
            other_lang=LANGS[1 - LANGS.index(lang)], path=request.url.path, query=request.url.query,
            reviewer=reviewer_of(request), read_only=self.bench.read_only,
            csrf=self.guard.csrf_for(request.state.session), table=self.bench.table, **values)
        return HTMLResponse(html, status_code=status)


def _rule_words(lang: str, rule: str | None, bar: float | None) -> str:
    """A rule in the static report's words, with its bar: 内容相似 ≥ 75%."""
    words = rule_text(rule, LABELS[lang])
    return f"{words} ≥ {percent(bar)}" if words and bar is not None else words


def reviewer_of(request: Request) -> str:
    return unquote(request.cookies.get(REVIEWER_COOKIE, "")).strip()[:80]


def set_cookie(site: Site, response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, httponly=True, samesite="strict", secure=site.secure_cookies,
                        max_age=60 * 60 * 24 * 365 if name in (REVIEWER_COOKIE, LANG_COOKIE) else None)


def set_reviewer(site: Site, response: Response, name: str) -> None:
    set_cookie(site, response, REVIEWER_COOKIE, quote(name.strip()[:80]))


class Gate(BaseHTTPMiddleware):
    """A session cookie for every browser (the CSRF tokens are bound to it), sign-in when the
    server has a token, and the security headers on every answer."""

    def __init__(self, app, site: Site):
        super().__init__(app)
        self.site = site

    async def dispatch(self, request: Request, call_next):
        session = request.cookies.get(SESSION_COOKIE)
        fresh = not session
        request.state.session = session = session or Guard.new_session()
        path = request.url.path
        if not self.site.guard.signed_in(request.cookies.get(AUTH_COOKIE)) and not path.startswith(OPEN_PATHS):
            response: Response = RedirectResponse("/login?next=" + quote(path), status_code=303)
        else:
            response = await call_next(request)
        if fresh:
            set_cookie(self.site, response, SESSION_COOKIE, session)
        for k, v in HEADERS.items():
            response.headers.setdefault(k, v)
        return response


def _closing(bench: Workbench):
    @asynccontextmanager
    async def lifespan(_app):
        yield
        bench.close()
    return lifespan


def create_app(config: Config, table: str | None = None, *, token: str | None = None, read_only: bool = False,
               lang: str = "zh", allowed_hosts: list[str] | None = None, secure_cookies: bool = False) -> Starlette:
    """The workbench for one configured table. ``token``: sign-in required; ``read_only``: no
    actions, every POST refused; ``allowed_hosts``: Host headers accepted (default: the loopback
    names, against DNS rebinding; ``["*"]`` when served beyond loopback with a token)."""
    from .routes import routes

    site = Site(Workbench(config, table, read_only), Guard(token), lang if lang in LANGS else "zh", secure_cookies)

    async def on_error(request: Request, exc: Exception):
        status = exc.status_code if isinstance(exc, HTTPException) else 409 if getattr(exc, "exit_code", 0) == 3 else 400
        if not hasattr(request.state, "session"):
            request.state.session = request.cookies.get(SESSION_COOKIE)
        detail = exc.detail if isinstance(exc, HTTPException) else str(exc)
        return site.render(request, "error.html", status=status, message=detail)

    app = Starlette(
        routes=[*routes(site), Mount("/static", StaticFiles(directory=HERE / "static"), name="static")],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts or LOOPBACK_HOSTS),
                    Middleware(Gate, site=site)],
        exception_handlers={HTTPException: on_error, DedupError: on_error},
        lifespan=_closing(site.bench))
    app.state.site = site
    return app
