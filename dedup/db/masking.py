"""Masking of credentials, so that no message or log line ever shows a password.

Two nets. A URL's userinfo password is masked wherever a URL appears, up to the URL's last
``@`` (a password may hold ``@``, ``:`` or ``/`` unescaped, and then a driver reads part of it as
the host). And every password of a URL dedup uses is remembered (``remember_secrets``), raw and
percent-decoded, with its pieces between ``@``, ``:`` and ``/``, so that a driver message echoing
any of them (``failed to resolve host 'xyz@127.0.0.1'``) shows ``***`` instead.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

# scheme://user:password@host  ->  scheme://user:***@host  (SQLAlchemy and MongoDB URLs); the user
# may hold "@" (user@server:pw@host), the password runs to the last "@" before a space
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^:/\s]*:)(?P<secret>\S*)(?P<tail>@)")
# the same in a whole configured URL, where a password may even hold spaces
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^:/\s]*:(?P<secret>.*)@[^@]*", re.S)
# scheme://user:password/db, no "@host" (a typo, or a password whose "@" is missing): a driver takes the
# password for a port, and where it ends nobody can tell (a "/" in it looks like the database), so
# when what stands where a port would is not a number, the rest of the URL is masked
_PORTLESS = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^:/\s@\[\]]*:)(?P<secret>[^\s@'\"]+?)"
                       r"(?=['\"]|:?(?:\s|$))")
# the same in a whole configured URL: its authority (up to the first "/" or "?") holds no "@"
_URL_PORTLESS = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^:/@\[\]]*:(?P<secret>[^/?@]+)(?:[/?][^@]*)?", re.S)
# ?password=...  or  &pwd=...  in query strings
_QUERY = re.compile(r"(?P<head>[?&](?:password|pwd|passwd|secret|token)=)(?P<secret>[^&\s]*)", re.IGNORECASE)
_PIECE_SPLIT = re.compile(r"[@:/]")
_SHORT = 3  # a remembered piece shorter than this is masked only where a driver shows it as a user or host: before "@"

_secrets: set[str] = set()  # whole passwords and their longer pieces: masked wherever they appear
_short_pieces: set[str] = set()  # short pieces: masked where followed by "@"


def remember_secrets(url: str | None) -> None:
    """Remember the password of ``url`` (and its pieces) so that ``mask_secrets`` hides them in any text."""
    if not url:
        return
    whole = str(url).strip()
    found = [m.group("secret") for m in (_URL_PASSWORD.fullmatch(whole) or _URL_PORTLESS.fullmatch(whole),)
             if m and not _is_port(m.group("secret"))]
    found += [m.group("secret") for m in _QUERY.finditer(str(url))]
    for secret in filter(None, found):
        for text in {secret, unquote(secret), repr(secret)[1:-1]}:  # repr: as a driver quotes it, "\\" doubled
            pieces = {text} | set(_PIECE_SPLIT.split(text))
            at = text.split("@")
            pieces |= {"@".join(at[:i]) for i in range(1, len(at))} | {"@".join(at[i:]) for i in range(1, len(at))}
            for piece in filter(None, pieces):
                (_secrets if piece == text or len(piece) >= _SHORT else _short_pieces).add(piece)
    _secrets.discard("***")


def forget_secrets() -> None:
    """Forget every remembered password (a process that is done with its URLs; tests between cases)."""
    _secrets.clear()
    _short_pieces.clear()


def mask_secrets(text: str) -> str:
    """Return ``text`` with every URL password, and every remembered password or piece of one, as ``***``."""
    text = str(text)
    if _secrets or _short_pieces:
        text = _remembered().sub("***", text)
    text = _USERINFO.sub(lambda m: m.group("head") + "***" + m.group("tail"), text)
    text = _PORTLESS.sub(lambda m: m.group(0) if _is_port(m.group("secret")) else m.group("head") + "***", text)
    return _QUERY.sub(lambda m: m.group("head") + "***", text)


def _is_port(text: str) -> bool:
    """A port, or the first port of a host list (``27017,h2:27017``), before the path: not a password."""
    return re.split(r"[,/?]", text, maxsplit=1)[0].strip().isdigit()


def _remembered() -> re.Pattern:
    """One pattern for the remembered secrets, longest first, each a whole word (``postgres`` the
    password is masked, ``postgresql`` the scheme is not); a short piece only before ``@``."""
    key = (frozenset(_secrets), frozenset(_short_pieces))
    if _pattern_cache.get("key") != key:
        words = [re.escape(s) for s in sorted(_secrets, key=len, reverse=True)]
        short = [re.escape(s) + "(?=@)" for s in sorted(_short_pieces, key=len, reverse=True)]
        _pattern_cache.update(key=key, pattern=re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(words + short)
                                                          + r")(?![A-Za-z0-9_])"))
    return _pattern_cache["pattern"]


_pattern_cache: dict = {}
