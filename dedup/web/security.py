"""Who may use the workbench and which forms are genuine.

- Bound to loopback by default; another address needs a token (``check_bind``), because a store
  of complaints must not be one click away for the whole network.
- With a token, a login form sets a cookie holding an HMAC of the token under a key made at
  start-up: the token itself never sits in a cookie, and a restart signs everyone out.
- Every state-changing request carries a CSRF token bound to the browser's session cookie
  (an HMAC of it), compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets

from ..errors import ConfigError

SESSION_COOKIE = "dedup_sid"
AUTH_COOKIE = "dedup_auth"
REVIEWER_COOKIE = "dedup_reviewer"
LANG_COOKIE = "dedup_lang"
LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to listen beyond this machine without a token."""
    if not is_loopback(host) and not token:
        raise ConfigError(f"refusing to serve on {host} without --token: anyone who can reach it could read and "
                          "change the groups (use --host 127.0.0.1, or give --token)")


class Guard:
    """The server's secret and the checks made with it."""

    def __init__(self, token: str | None = None, key: bytes | None = None):
        self.token = token
        self.key = key or secrets.token_bytes(32)

    def _sign(self, what: str, value: str) -> str:
        return hmac.new(self.key, f"{what}:{value}".encode(), hashlib.sha256).hexdigest()

    @staticmethod
    def new_session() -> str:
        return secrets.token_urlsafe(24)

    def csrf_for(self, session: str | None) -> str:
        return self._sign("csrf", session or "")

    def csrf_ok(self, session: str | None, given: str | None) -> bool:
        return bool(session) and bool(given) and hmac.compare_digest(self.csrf_for(session), given)

    def auth_cookie(self) -> str:
        return self._sign("auth", self.token or "")

    def signed_in(self, cookie: str | None) -> bool:
        return self.token is None or (bool(cookie) and hmac.compare_digest(self.auth_cookie(), cookie))

    def token_ok(self, given: str | None) -> bool:
        return self.token is not None and bool(given) and hmac.compare_digest(
            self.token.encode(), given.encode())
