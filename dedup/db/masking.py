"""Masking of credentials in URLs, so no message or log line ever shows a password."""

import re

# scheme://user:password@host  ->  scheme://user:***@host  (works for SQLAlchemy and MongoDB URLs)
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.\-]*://[^:/@\s]*:)(?P<secret>[^@\s]*)(?P<tail>@)")
# ?password=...  or  &pwd=...  in query strings
_QUERY = re.compile(r"(?P<head>[?&](?:password|pwd|passwd|secret|token)=)(?P<secret>[^&\s]*)", re.IGNORECASE)


def mask_secrets(text: str) -> str:
    """Return ``text`` with every URL password replaced by ``***``."""
    text = _USERINFO.sub(lambda m: m.group("head") + "***" + m.group("tail"), str(text))
    return _QUERY.sub(lambda m: m.group("head") + "***", text)
